/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * xprt_completion.c - the loop's half that handles completions: a
 * connection's CQ drained, each completion dispatched by the kind in its
 * wr_id, a fatal mark acted on as soon as the completion that set it is
 * handled.  Every Receive is judged by libcodec (rpcrdma_decode(), refined
 * by rpcrdma_judge_versions() for an endpoint that speaks one version
 * only), shown raw with its verdict to on_recv, then the verdict is carried
 * out: a call goes to the responder (xprt_rs_call.c), a reply or an
 * RDMA_ERROR to the requester (xprt_rq_reply.c), a malformed header is
 * answered with the error the verdict names (xprt_rs_error.c), anything
 * else is discarded and counted.  Sends, RDMA Writes and Reads count back
 * to their slot or received call.
 */
#include "xprt_int.h"

static void recv_done(struct xprt *x, uint32_t slot, const struct xv_wc *wc)
{
	const uint8_t *buf = xprt_recv_buf(x, slot);
	struct rpcrdma_msg m;
	size_t len = wc->byte_len;

	if (wc->status != XV_WC_SUCCESS) {
		if (wc->status != XV_WC_WR_FLUSH_ERR)
			xprt_fatal(x, xv_wc_status_name(wc->status));
		return;
	}
	if (x->state != X_CONNECTED) {       /* (the common case asks once) */
		xprt_established_early(x);
		if (x->state != X_CONNECTED)
			return;
	}
	if (len > x->rsize)
		len = x->rsize;
	x->st.bytes_received += len;
	x->rx_inv = wc->with_inv;
	x->rx_inv_rkey = wc->inv_rkey;
	if (x->o.debug > 1)
		xprt_trace(x, "received %zu bytes%s", len,
			   wc->with_inv ? " with invalidation" : "");
	rpcrdma_decode(buf, len, &m);
	rpcrdma_judge_versions(&m, x->vlow, x->vhigh);
	if (x->h.on_recv) {
		x->h.on_recv(x, buf, len, &m, x->h.arg);
		if (x->state != X_CONNECTED)
			return;
	}
	switch (m.action) {
	case RPCRDMA_ACCEPT:
		if (m.rdma_proc == RDMA_ERROR) {
			x->st.errors_received++;
			xprt_reply_in(x, slot, buf, len, &m);
			return;
		}
		if (m.direction == RPCRDMA_REPLY) {
			xprt_reply_in(x, slot, buf, len, &m);
			return;
		}
		if (m.direction == RPCRDMA_CALL) {
			xprt_call_in(x, slot, buf, len, &m);
			return;
		}
		x->st.discarded++;      /* an RPC msg_type neither call nor reply */
		break;
	case RPCRDMA_DISCARD:
		xprt_trace(x, "discarding a message: %s", rpcrdma_reason_name(m.reason));
		x->st.discarded++;
		break;
	default:
		xprt_send_error(x, &m, m.action);
		break;
	}
	if (x->state == X_CONNECTED && xprt_post_recv(x, slot))
		xprt_fatal(x, "re-posting a Receive failed");
}

/* a Send, RDMA Write, Read or local operation that failed: the connection
 * is marked (out of line: the common completion does not pay for it) */
static void __attribute__((noinline, cold))
wc_failed(struct xprt *x, unsigned kind, enum xv_wc_status status)
{
	char why[128];

	snprintf(why, sizeof(why), "%s: %s",
		 kind == XW_READ ? "RDMA Read" : kind == XW_WRITE ?
		 "RDMA Write" : kind == XW_LOCAL ? "local operation" : "Send",
		 xv_wc_status_name(status));
	xprt_fatal(x, why);
}

static void dispatch_wc(struct xprt *x, const struct xv_wc *wc)
{
	unsigned kind = XW_KIND(wc->wr_id);
	uint32_t idx = XW_IDX(wc->wr_id);
	bool ok = wc->status == XV_WC_SUCCESS;

	if (kind == XW_RECV) {
		if (x->rq_posted)
			x->rq_posted--;
		if (idx < x->nrecv)
			recv_done(x, idx, wc);
		return;
	}
	if (x->sq_used)
		x->sq_used--;
	if (!ok && wc->status != XV_WC_WR_FLUSH_ERR)
		wc_failed(x, kind, wc->status);
	switch (kind) {
	case XW_SEND:
	case XW_WRITE:
		if (idx < x->nsend && x->sends[idx].pending &&
		    !--x->sends[idx].pending)
			xprt_send_slot_put(x, (int)idx);
		break;
	case XW_READ:
		xprt_rcvd_read_done(x, idx, ok);
		break;
	default:
		break;
	}
}

void xprt_poll_cq(struct xprt *x)
{
	struct xv_wc wc[16];
	int n, i;

	if (!x->id || x->state == X_DEAD)
		return;
	x->busy++;
	do {
		n = x->l->v->cq_poll(x->id, wc, 16);
		for (i = 0; i < n && x->state != X_DEAD; i++) {
			dispatch_wc(x, &wc[i]);
			if (x->fatal)        /* acted on as soon as it is set */
				xprt_cm_fatal_act(x);
		}
	} while (n > 0 && x->state != X_DEAD);
	if (x->state == X_CONNECTED && x->q_head)   /* calls waiting */
		xprt_send_queued(x);
	x->busy--;
}
