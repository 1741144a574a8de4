/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * msgprint_rpc.c - the RPC header behind a transport message (RFC 5531 §9):
 * the inline payload of RDMA_MSG and RDMA2_OPTIONAL (V1 §4.2, V2 §4.2.1),
 * or the message a capture rebuilt from chunks; and the error reply a
 * verdict calls for (V1 §5.5).
 */
#include <stddef.h>
#include <string.h>
#include "msgprint_int.h"
#include "nfs4_ops.h"
#include "rpcrdma/rpc.h"

/* The bytes holding the RPC message, or NULL */
static const uint8_t *rpc_bytes(const struct rpcrdma_msg *m,
				const struct msg_ctx *c, size_t *len)
{
	if (c && c->rpc) {
		*len = c->rpc_len;
		return c->rpc;
	}
	if (!mp_has_body(m) || !m->header_len || !m->payload_len)
		return NULL;
	if (m->rdma_proc == RDMA_MSG ||
	    (m->rdma_vers == RPCRDMA_VERSION_TWO && m->rdma_proc == RDMA2_OPTIONAL)) {
		*len = m->payload_len;
		return rpcrdma_payload(m);
	}
	return NULL;
}

static uint32_t be32_at(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

void msgprint_rpc_view(const struct rpcrdma_msg *m, const struct msg_ctx *c,
		       struct rpc_view *v)
{
	struct rpc_msg_hdr h;
	const uint8_t *p;
	size_t len = 0;
	bool whole = false;

	/* all but own (written only when the operations are read here) */
	memset(v, 0, offsetof(struct rpc_view, own));
	p = rpc_bytes(m, c, &len);
	if (!p || len < 4)
		return;
	/* Unless the operations of a COMPOUND are to be read here, only the
	 * words up to proc are wanted, which rpc_decode_header() would read
	 * as they are (RFC 5531 §9: xid, msg_type, rpcvers, prog, vers, proc) */
	bool want_ops = !(c && c->ops) && len >= 24 && be32_at(p + 4) == RPC_CALL &&
			msgprint_is_compound(be32_at(p + 12), be32_at(p + 16),
					     be32_at(p + 20));
	if (!want_ops) {
		h.xid = be32_at(p);
		h.msg_type = len >= 8 ? be32_at(p + 4) : 0;
		if (len >= 24) {
			h.rpcvers = be32_at(p + 8);
			h.prog = be32_at(p + 12);
			h.vers = be32_at(p + 16);
			h.proc = be32_at(p + 20);
		} else {
			h.rpcvers = 0;
		}
	} else {
		whole = rpc_decode_header(p, len, &h) == RPC_OK;
	}
	v->present = true;
	v->xid = h.xid;
	if (len < 8)
		return;
	v->has_msg_type = true;
	v->msg_type = h.msg_type;
	/* rpcvers, prog, vers, proc end at byte 24 (RFC 5531 call_body) */
	if (h.msg_type == RPC_CALL && len >= 24 && h.rpcvers == RPC_VERSION) {
		v->has_call_info = true;
		v->prog = h.prog;
		v->vers = h.vers;
		v->proc = h.proc;
		v->cb = msgprint_is_compound(h.prog, h.vers, h.proc) == 2;
		if (c && c->ops) {
			v->ops = c->ops;
			v->has_ops = true;
		} else if (whole && msgprint_is_compound(h.prog, h.vers, h.proc) &&
			   h.cred_flavor != RPC_RPCSEC_GSS && h.body_off <= len) {
			/* under RPCSEC_GSS the arguments may be wrapped */
			v->has_ops = nfs4_compound_ops(p + h.body_off,
						       len - h.body_off, v->cb,
						       &v->own);
			v->ops = &v->own;
		}
	} else if (h.msg_type == RPC_REPLY && c && c->have_call) {
		v->has_call_info = true;
		v->from_call = true;
		v->prog = c->call_prog;
		v->vers = c->call_vers;
		v->proc = c->call_proc;
		v->has_call_frame = c->call_frame != 0;
		v->call_frame = c->call_frame;
		v->cb = msgprint_is_compound(v->prog, v->vers, v->proc) == 2;
		if (c->ops) {
			v->ops = c->ops;
			v->has_ops = true;
		}
	}
}

int msgprint_is_compound(uint32_t prog, uint32_t vers, uint32_t proc)
{
	if (prog == RPC_PROG_NFS && vers == 4 && proc == 1)
		return 1;
	if (prog == RPC_PROG_NFS_CB && (vers == 1 || vers == 4) && proc == 1)
		return 2;
	return 0;
}

size_t msgprint_error_reply(const struct rpcrdma_msg *m, uint8_t buf[64])
{
	uint32_t credits = m->nfixed >= 3 && m->rdma_credit ? m->rdma_credit : 1;

	if (m->action == RPCRDMA_ACCEPT)   /* most messages: none is due */
		return 0;
	return rpcrdma_encode_error_reply(m, credits, buf, 64, NULL);
}
