/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * xprt_recv.c - every message received: libcodec judges it
 * (rpcrdma_decode(), refined by rpcrdma_judge_versions() for an endpoint
 * that speaks one version only), the raw bytes and the verdict go to
 * on_recv, then the verdict is carried out: a call goes to the responder
 * (xprt_respond.c), a reply or an RDMA_ERROR to the call it answers
 * (xprt_reply_in.c), a malformed header is answered with the error the
 * verdict names (V1 §5.5, V2 §3.1) and the connection kept, anything else
 * is discarded and counted.  The test-only misbehaving responder
 * (xprt_opts.misbehave) deviates here, on purpose.
 */
#include <errno.h>
#include <string.h>
#include "xprt_int.h"

uint32_t xprt_grant(const struct xprt *x)
{
	return x->o.misbehave == XPRT_MISBEHAVE_ZERO_CREDIT ? 0 : x->grant;
}

/* the error reply for action a on message m, with our credits and range */
int xprt_send_error(struct xprt *x, const struct rpcrdma_msg *m,
		    enum rpcrdma_action a)
{
	struct rpcrdma_msg e = *m;
	struct xprt_error err;
	uint8_t buf[32];
	size_t n;

	switch (x->o.misbehave) {
	case XPRT_MISBEHAVE_WRONG_ERROR:
		if (a == RPCRDMA_REPLY_BAD_HEADER)
			a = RPCRDMA_REPLY_ERR_VERS;
		break;
	case XPRT_MISBEHAVE_DROP_BAD:
		xprt_fatal(x, "misbehave=drop-bad: dropping the connection on a "
			   "header the verdict says to answer");
		return 0;
	case XPRT_MISBEHAVE_SILENT_VERS:
		if (a == RPCRDMA_REPLY_ERR_VERS) {
			x->st.discarded++;
			return 0;
		}
		break;
	default:
		break;
	}
	e.action = a;
	n = rpcrdma_encode_error_reply_range(&e, xprt_grant(x), x->vlow, x->vhigh,
					     buf, sizeof(buf), NULL);
	if (!n)
		return 0;
	xprt_trace(x, "answering xid 0x%08x with RDMA_ERROR (%s)", m->rdma_xid,
		   rpcrdma_action_name(a));
	if (xprt_send_raw(x, buf, n, &err))
		return -1;
	x->st.errors_sent++;
	return 0;
}

void xprt_recv_done(struct xprt *x, uint32_t slot, const struct xv_wc *wc)
{
	const uint8_t *buf = xprt_recv_buf(x, slot);
	struct rpcrdma_msg m;
	size_t len = wc->byte_len;

	if (wc->status != XV_WC_SUCCESS) {
		if (wc->status != XV_WC_WR_FLUSH_ERR)
			xprt_fatal(x, xv_wc_status_name(wc->status));
		return;
	}
	xprt_established_early(x);
	if (x->state != X_CONNECTED)
		return;
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
