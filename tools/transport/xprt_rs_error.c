/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * xprt_rs_error.c - the responder's error replies: a malformed header is
 * answered with the RDMA_ERROR the verdict names (V1 §5.5, V2 §3.1), with
 * our grant and the range of versions we speak, and the connection kept.
 * The test-only misbehaving responder (xprt_opts.misbehave) deviates here,
 * on purpose.
 */
#include "xprt_int.h"

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
	n = rpcrdma_encode_error_reply_range(&e, xprt_credit_grant(x), x->vlow,
					     x->vhigh, buf, sizeof(buf), NULL);
	if (!n)
		return 0;
	xprt_trace(x, "answering xid 0x%08x with RDMA_ERROR (%s)", m->rdma_xid,
		   rpcrdma_action_name(a));
	if (xprt_send_raw(x, buf, n, &err))
		return -1;
	x->st.errors_sent++;
	return 0;
}
