/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * versions.c - the verdict of an endpoint that speaks only some of the
 * RPC-over-RDMA versions (V1 §5.5.1 version mismatch; V2 §5.2: a Version
 * One responder answers a Version Two call with ERR_VERS and its range).
 */
#include "internal.h"

enum rpcrdma_action rpcrdma_judge_versions(struct rpcrdma_msg *m,
					   uint32_t low, uint32_t high)
{
	/* nothing to address a reply to, or a version we speak */
	if (m->nfixed < 2 || (m->rdma_vers >= low && m->rdma_vers <= high))
		return m->action;
	/* already judged so by the decoder (unknown to every endpoint) */
	if (m->reason == RPCRDMA_R_BAD_VERS)
		return m->action;
	/* a known version we do not speak: §5.5.1 looks at rdma_vers first,
	 * so nothing after it matters -- except an RDMA_ERROR, never
	 * answered (V1 §5.5; spec-decisions D-ERR-3) */
	m->reason = RPCRDMA_R_BAD_VERS;
	m->fault_off = 4;
	m->action = m->nfixed >= 4 && m->rdma_proc == RDMA_ERROR ?
		    RPCRDMA_DISCARD : RPCRDMA_REPLY_ERR_VERS;
	return m->action;
}

size_t rpcrdma_encode_error_reply_range(const struct rpcrdma_msg *m,
					uint32_t credits, uint32_t low,
					uint32_t high, uint8_t *buf,
					size_t cap, size_t *need)
{
	struct rpcrdma_hdr h;

	if (m->action != RPCRDMA_REPLY_ERR_VERS)
		return rpcrdma_encode_error_reply(m, credits, buf, cap, need);
	memset(&h, 0, sizeof(h));
	h.rdma_xid = m->rdma_xid;
	h.rdma_vers = m->rdma_vers;          /* echoed: D-ERR-1 */
	h.rdma_credit = credits;
	h.rdma_proc = RDMA_ERROR;
	h.rdma_err = RDMA_ERR_VERS;
	h.rdma_vers_low = low;
	h.rdma_vers_high = high;
	return rpcrdma_encode(&h, buf, cap, need);
}
