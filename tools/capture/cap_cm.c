/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cap_cm.c - InfiniBand Communication Management MADs on QP1 (IBTA vol. 1
 * 12.6: REQ 12.6.5, REP 12.6.8): a REQ names the requester's QPN, the REP
 * that answers it (by Communication ID) the responder's, so the two
 * directions of an RC conversation are joined exactly instead of guessed
 * (cap_conv.c); the DREP (12.6.12) answering a DREQ (12.6.11) closes the
 * conversation.  Not the DREQ: its receiver's QP keeps sending until it
 * too leaves the connection (rdma_cm moves it to the error state and
 * then answers), and what it retransmits meanwhile is the same message
 * again, told by the PSNs the conversation remembers.  Used for RoCE
 * and native IB alike.  The private data of both (REQ at byte 140, after
 * rdma_cm's 36-byte IP header when the Service ID is one of rdma_cm's; REP
 * at byte 36) is kept for --stats: RFC 8797's connection parameters.
 */
#include <stdlib.h>
#include <string.h>
#include "cap_cur.h"
#include "cap_state.h"

/* a CM REQ waiting for its REP */
#define CAP_CM_PENDING 64u
struct cap_cm_req {
	bool used;
	uint8_t family;
	uint8_t src[16], dst[16];
	uint32_t comm_id, qpn;
	uint8_t pd[8];               /* the consumer's private data: its */
	uint8_t pd_len;              /* first bytes (RFC 8797 needs 8) */
};

/* a DREQ waiting for its DREP: the conversation it ends */
struct cap_cm_dreq {
	bool used;
	uint32_t comm_id, remote_id; /* the DREQ's Local and Remote Comm IDs */
	uint32_t slot, conv_id;      /* its conversation (cap_conv_by_slot) */
};

/* CM REQs waiting for their REP, DREQs for their DREP: cap_cm.c's part
 * of the run (st->cm) */
struct cap_cm_tab {
	struct cap_cm_req req[CAP_CM_PENDING];
	unsigned next;
	struct cap_cm_dreq dreq[CAP_CM_PENDING];
	unsigned dreq_next;
};

#define MAD_HDR 24u
#define MGMT_CLASS_CM 0x07
#define CM_ATTR_REQ 0x0010
#define CM_ATTR_REP 0x0013
#define CM_ATTR_DREQ 0x0015
#define CM_ATTR_DREP 0x0016
#define CM_REQ_QPN (MAD_HDR + 32)   /* Local QPN, 24 bits */
#define CM_REP_QPN (MAD_HDR + 12)
#define CM_DREQ_QPN (MAD_HDR + 8)    /* Remote QPN: the receiver's */
#define CM_REQ_SID (MAD_HDR + 8)     /* Service ID, 64 bits */
#define CM_REQ_PD (MAD_HDR + 140)    /* Private Data, 92 bytes */
#define CM_REP_PD (MAD_HDR + 36)     /* Private Data, 196 bytes */
#define CMA_HDR_LEN 36u              /* rdma_cm's IP header (cma_hdr) */
/* rdma_cm Service IDs: port space (TCP 0x106, UDP 0x111, IB 0x13f) << 16
 * | port */
static bool rdma_cm_sid(uint64_t sid)
{
	uint64_t ps = sid >> 16;

	return ps == 0x106 || ps == 0x111 || ps == 0x13f;
}

/* up to 8 bytes of private data at off, when the MAD holds them */
static uint8_t take_pd(const struct cap_cur *mad, uint32_t off, uint8_t out[8])
{
	struct cap_cur pd = cur_rest(mad);
	uint32_t n;

	if (!cur_skip(&pd, off))
		return 0;
	n = cur_left(&pd) < 8 ? cur_left(&pd) : 8;
	memcpy(out, cur_ptr(&pd), n);
	return (uint8_t)n;
}

/* The DREQ's conversation ends now, if it has not already (a new CM
 * exchange on its QPs, eviction) */
static void dreq_close(struct cap_state *st, struct cap_cm_dreq *d)
{
	struct cap_conv *c = cap_conv_by_slot(st, d->slot, d->conv_id);

	d->used = false;
	if (c)
		cap_conv_close(st, c);
}

/* A DREQ for `c`: it ends at the DREP.  A retransmitted DREQ keeps its
 * place; a full table ends its oldest conversation now. */
static void dreq_wait(struct cap_state *st, struct cap_conv *c,
		      uint32_t comm_id, uint32_t remote_id)
{
	uint32_t slot = cap_conv_slot(st, c);

	for (unsigned i = 0; i < CAP_CM_PENDING; i++) {
		struct cap_cm_dreq *d = &st->cm->dreq[i];
		if (d->used && d->slot == slot && d->conv_id == c->id)
			return;
	}
	struct cap_cm_dreq *d = &st->cm->dreq[st->cm->dreq_next];
	st->cm->dreq_next = (st->cm->dreq_next + 1) % CAP_CM_PENDING;
	if (d->used)
		dreq_close(st, d);
	*d = (struct cap_cm_dreq){ .used = true, .comm_id = comm_id,
				   .remote_id = remote_id, .slot = slot,
				   .conv_id = c->id };
}

void cap_cm_mad(struct cap_state *st, const struct cap_frame *f,
		enum cap_transport t, const struct cap_addr *a,
		const struct cap_cur *mad)
{
	uint8_t mclass;
	uint16_t attr;
	uint32_t comm_id, remote_id, qpn;
	uint64_t sid;

	/* the fields every attribute here needs are in the first 64 bytes */
	if (!cur_has(mad, MAD_HDR + 40) || !cur_peek8(mad, 1, &mclass) ||
	    mclass != MGMT_CLASS_CM || !cur_peek16(mad, 16, &attr) ||
	    !cur_peek32(mad, MAD_HDR, &comm_id) ||
	    !cur_peek32(mad, MAD_HDR + 4, &remote_id))
		return;
	if (attr == CM_ATTR_REQ) {
		if (!cur_peek24(mad, CM_REQ_QPN, &qpn) ||
		    !cur_peek64(mad, CM_REQ_SID, &sid))
			return;
		struct cap_cm_req *r = &st->cm->req[st->cm->next];
		st->cm->next = (st->cm->next + 1) % CAP_CM_PENDING;
		r->used = true;
		r->family = a->family;
		memcpy(r->src, a->src, 16);
		memcpy(r->dst, a->dst, 16);
		r->comm_id = comm_id;
		r->qpn = qpn;
		r->pd_len = take_pd(mad, CM_REQ_PD +
				    (rdma_cm_sid(sid) ? CMA_HDR_LEN : 0), r->pd);
		return;
	}
	if (attr == CM_ATTR_DREQ) {
		/* the connection ends at the DREP: its packets to the DREQ's
		 * receiver went to the Remote QPN */
		int dir;
		if (!cur_peek24(mad, CM_DREQ_QPN, &qpn))
			return;
		struct cap_conv *c = cap_conv_find_ib(st, a, qpn, &dir);
		if (c)
			dreq_wait(st, c, comm_id, remote_id);
		return;
	}
	if (attr == CM_ATTR_DREP) {
		for (unsigned i = 0; i < CAP_CM_PENDING; i++) {
			struct cap_cm_dreq *d = &st->cm->dreq[i];
			if (d->used && d->comm_id == remote_id &&
			    d->remote_id == comm_id) {
				dreq_close(st, d);
				return;
			}
		}
		return;
	}
	if (attr != CM_ATTR_REP || !cur_peek24(mad, CM_REP_QPN, &qpn))
		return;
	for (unsigned i = 0; i < CAP_CM_PENDING; i++) {
		struct cap_cm_req *r = &st->cm->req[i];
		if (!r->used || r->comm_id != remote_id || r->family != a->family ||
		    memcmp(r->src, a->dst, 16) || memcmp(r->dst, a->src, 16))
			continue;
		struct cap_addr req = *a;     /* requester -> responder */
		memcpy(req.src, r->src, 16);
		memcpy(req.dst, r->dst, 16);
		struct cap_conv *c = cap_conv_cm(st, f, t, &req, r->qpn, qpn);
		uint8_t pd[8];
		uint8_t n = take_pd(mad, CM_REP_PD, pd);
		/* the requester is endpoint 0 of a conversation CM opened */
		cap_conn_private(c, 0, true, r->pd, r->pd_len);
		cap_conn_private(c, 1, false, pd, n);
		cap_conn_established(st, f, c, "CM REP");
		r->used = false;
		return;
	}
}

bool cap_cm_init(struct cap_state *st)
{
	return (st->cm = calloc(1, sizeof(*st->cm))) != NULL;
}

void cap_cm_reset(struct cap_state *st)
{
	memset(st->cm, 0, sizeof(*st->cm));
}

void cap_cm_free(struct cap_state *st)
{
	free(st->cm);
	st->cm = NULL;
}
