/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * xprt_post.c - posting work requests: every one signaled and counted
 * against the Send Queue (xprt_post); the one builder of a Send work
 * request (xprt_post_send: a call, a reply, an error reply or raw bytes,
 * with Send With Invalidate when asked), the one of an RDMA Read or Write
 * (xprt_post_rdma: read chunks pulled, write and reply chunks pushed), and
 * xprt_send_raw(), raw bytes in one Send for probes and the conformance
 * suite.
 */
#include <errno.h>
#include <string.h>
#include "xprt_int.h"

/* post one work request; every one is signaled and counted (inlined in
 * xprt_post_send(), the Send of every call and reply) */
static inline int post_wr(struct xprt *x, const struct xv_send_wr *wr)
{
	if (!x->id || x->state == X_DEAD) {
		errno = ENOTCONN;
		return -1;
	}
	if (x->sq_used >= x->sq_depth) {
		errno = ENOSPC;
		return -1;
	}
	if (x->l->v->post_send(x->id, wr))
		return -1;
	x->sq_used++;
	return 0;
}

int xprt_post(struct xprt *x, const struct xv_send_wr *wr)
{
	return post_wr(x, wr);
}

int xprt_post_rdma(struct xprt *x, enum xv_opcode op, uint64_t wr_id,
		   const struct xv_sge *sge, uint64_t remote_addr, uint32_t rkey)
{
	struct xv_send_wr wr;

	memset(&wr, 0, sizeof(wr));
	wr.wr_id = wr_id;
	wr.opcode = op;
	wr.signaled = true;
	wr.sge = sge;
	wr.nsge = 1;
	wr.remote_addr = remote_addr;
	wr.rkey = rkey;
	return xprt_post(x, &wr);
}

/* The Send of slot s: len bytes at buf (lkey), as Send With Invalidate of
 * inv_rkey when with_inv.  The slot is freed when all its work requests
 * (this Send, and RDMA Writes posted before it) have completed.  0, or -1
 * with errno. */
int xprt_post_send(struct xprt *x, int s, void *buf, size_t len, uint32_t lkey,
		   bool with_inv, uint32_t inv_rkey)
{
	struct xv_sge sge = { buf, (uint32_t)len, lkey };
	struct xv_send_wr wr;

	memset(&wr, 0, sizeof(wr));
	wr.wr_id = XW_ID(XW_SEND, s);
	wr.opcode = XV_OP_SEND;
	if (with_inv) {
		wr.opcode = XV_OP_SEND_INV;
		wr.invalidate_rkey = inv_rkey;
	}
	wr.signaled = true;
	wr.sge = &sge;
	wr.nsge = len ? 1 : 0;
	x->sends[s].pending++;
	if (post_wr(x, &wr)) {
		x->sends[s].pending--;
		return -1;
	}
	return 0;
}

/* Raw bytes in one Send (probes, the conformance suite): no header built
 * or judged, no credit taken. */
int xprt_send_raw(struct xprt *x, const uint8_t *buf, size_t len,
		  struct xprt_error *err)
{
	uint32_t lkey;
	uint8_t *p;
	int s;

	if (!x || x->state != X_CONNECTED) {
		xprt_err(err, XPRT_E_DISCONNECTED, ENOTCONN, "not connected");
		return -1;
	}
	if (len > x->o.max_message) {
		xprt_err(err, XPRT_E_USAGE, EMSGSIZE, "%zu bytes is too large", len);
		return -1;
	}
	s = xprt_send_slot(x);
	if (s < 0) {
		xprt_err(err, XPRT_E_RESOURCE, ENOSPC, "no Send buffer free");
		return -1;
	}
	p = xprt_send_space(x, s, len ? len : 1, &lkey);
	if (!p) {
		xprt_send_slot_put(x, s);
		xprt_err(err, XPRT_E_RESOURCE, ENOMEM, "out of memory");
		return -1;
	}
	if (len)
		memcpy(p, buf, len);
	if (xprt_post_send(x, s, p, len, lkey, false, 0)) {
		xprt_send_slot_put(x, s);
		xprt_err(err, XPRT_E_DISCONNECTED, errno, "ibv_post_send: %s",
			 strerror(errno));
		return -1;
	}
	x->st.bytes_sent += len;
	return 0;
}
