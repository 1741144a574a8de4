/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * v2_drafts.c - which Version Two draft a message's layout fits
 * (docs/v2-drafts.md).  We decode draft-cel-nfsv4-rpcrdma-version-two-01
 * only.  Later revisions kept rdma_vers = 2 but changed the wire: a prefix
 * {xid, vers, credit, htype}, header types renumbered (type 5 is OPTIONAL
 * in cel-01, CONNPROP in cel-08..ietf-02, GRANT in ietf-03..07; ietf-07:
 * ERROR 4, GRANT 5, CONNPROP_MIDDLE/FINAL 6/7, CALL_EXTERNAL/MIDDLE/INLINE
 * 8-10, REPLY_EXTERNAL/MIDDLE/INLINE 11-13), no direction word in the
 * chunk lists, error codes 1-11 and 100.  A message that fails cel-01 is
 * tested against those prefixes so that a peer on a later revision is
 * named instead of being judged a bad cel-01 header frame after frame.
 * Nothing here decodes a later revision's body.
 */
#include "internal.h"

/* ietf-07's header types past ERROR (GRANT 5 .. REPLY_INLINE 13) */
#define IETF07_HTYPE_LAST 13u
/* the error codes of the later revisions that cel-01 lacks (1-11, 100) */
#define LATER_ERR_LAST 11u
#define LATER_ERR_EXTRA 100u

/* cel-08..ietf-02 (our reading, D-V2-8): MSG 0 and NOMSG 1 kept their
 * numbers, their chunk lists lost the direction word: the three lists
 * start right after the prefix, in Version One's form.  An RDMA_MSG then
 * carries an RPC message whose XID is rdma_xid; an RDMA_NOMSG a chunk. */
static bool fits_lists_without_direction(const struct rpcrdma_msg *m)
{
	struct rpcrdma_msg t;
	struct xdrc x;

	memset(&t, 0, sizeof(t));
	t.buf = m->buf;
	t.len = m->len;
	xdrc_init(&x, m->buf, m->len);
	x.off = 16;
	if (rpcrdma_decode_lists(&x, &t) != RPCRDMA_R_OK)
		return false;
	if (m->rdma_proc == RDMA_NOMSG)
		return t.nreads || t.nwrites || t.has_reply;
	return xdrc_left(&x) >= 8 && xdrc_be32(m->buf + x.off) == m->rdma_xid;
}

unsigned rpcrdma_v2_draft_family(const struct rpcrdma_msg *m)
{
	uint32_t err;

	if (m->nfixed < 2 || m->rdma_vers != RPCRDMA_VERSION_TWO)
		return 0;
	if (m->action == RPCRDMA_ACCEPT ||
	    m->action == RPCRDMA_REPLY_INVAL_OPTION || m->nfixed < 4 ||
	    m->len < 16)
		return RPCRDMA2_FAM_CEL01;
	switch (m->rdma_proc) {
	case RDMA2_MSG:
	case RDMA2_NOMSG:
		if (fits_lists_without_direction(m))
			return RPCRDMA2_FAM_CEL08_IETF02;
		break;
	case RDMA2_ERROR:
		/* codes 1..3 are cel-01's own: a bad one is a cel-01 fault */
		if (m->len < 20)
			break;
		err = xdrc_be32(m->buf + 16);
		if ((err > RDMA2_ERR_INVAL_OPTION && err <= LATER_ERR_LAST) ||
		    err == LATER_ERR_EXTRA)
			return RPCRDMA2_FAM_LATER;
		break;
	case RDMA2_OPTIONAL:
		/* not a cel-01 OPTIONAL: CONNPROP or GRANT */
		return RPCRDMA2_FAM_LATER;
	default:
		if (m->rdma_proc > RDMA2_OPTIONAL &&
		    m->rdma_proc <= IETF07_HTYPE_LAST)
			return RPCRDMA2_FAM_IETF03_07;
		break;
	}
	return RPCRDMA2_FAM_CEL01;
}

const char *rpcrdma_v2_family_name(unsigned fam)
{
	switch (fam) {
	case RPCRDMA2_FAM_CEL01: return "cel-01";
	case RPCRDMA2_FAM_CEL08_IETF02: return "cel-08..ietf-02";
	case RPCRDMA2_FAM_IETF03_07: return "ietf-03..07";
	case RPCRDMA2_FAM_LATER: return "cel-08..ietf-07";
	default: return "";
	}
}

const char *rpcrdma_v2_family_drafts(unsigned fam)
{
	switch (fam) {
	case RPCRDMA2_FAM_CEL01:
		return RPCRDMA_V2_DRAFT;
	case RPCRDMA2_FAM_CEL08_IETF02:
		return "draft-cel-nfsv4-rpcrdma-version-two-08..09 or "
		       "draft-ietf-nfsv4-rpcrdma-version-two-00..02";
	case RPCRDMA2_FAM_IETF03_07:
		return "draft-ietf-nfsv4-rpcrdma-version-two-03..07";
	case RPCRDMA2_FAM_LATER:
		return "draft-cel-nfsv4-rpcrdma-version-two-08..09 or "
		       "draft-ietf-nfsv4-rpcrdma-version-two-00..07";
	default:
		return "";
	}
}
