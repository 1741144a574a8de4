/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * xprt_rq_end.c - the requester, the end of a call: its chunk memory
 * deregistered first (which fences it from the responder, V1 §5.4.1),
 * then done() once, then everything freed; the calls that end without a
 * reply (the connection went away, or their time is up) forget their
 * credit; and the next deadline the loop must wake up for.
 */
#include <stdlib.h>
#include "xprt_int.h"

/* the call's registrations go (timed as its invalidation cost) */
void xprt_call_unreg(struct xprt *x, struct xcall *xc)
{
	if (xc->read.mr || xc->write.mr || xc->reply.mr) {
		uint64_t t0 = xprt_now_ns();   /* none read for a call without */

		xprt_unreg(x, &xc->read);
		xprt_unreg(x, &xc->write);
		xprt_unreg(x, &xc->reply);
		xc->c->t_inv_ns = xprt_now_ns() - t0;
	}
}

/* completes a call: its memory fenced first, done once, everything freed */
void xprt_call_finish(struct xcall *xc, enum xprt_errcode code, const char *msg)
{
	struct xprt *x = xc->x;
	struct xprt_call *c = xc->c;

	if (xc->read.mr || xc->write.mr || xc->reply.mr)  /* (none inline) */
		xprt_call_unreg(x, xc);
	if (xc->slot >= 0) {
		x->calls[xc->slot] = NULL;
		x->nout--;
	}
	if (code != XPRT_E_OK)
		xprt_err(&c->err, code, 0, "%s", msg);
	c->t_done = xprt_now_ns();
	if (c->done)
		c->done(c);
	if (xc->wbuf || xc->rbuf || xc->assembled) {   /* none inline */
		free(xc->wbuf);
		free(xc->rbuf);
		free(xc->assembled);
	}
	if (!x->spare_xc)                /* kept for the next call (reap frees it) */
		x->spare_xc = xc;
	else
		free(xc);
}

void xprt_calls_fail_all(struct xprt *x, enum xprt_errcode code, const char *msg)
{
	struct xcall *xc;
	uint32_t i;

	for (i = 0; i < x->ncalls; i++)
		if ((xc = x->calls[i])) {
			xprt_credit_forget(x);
			xprt_call_finish(xc, code, msg);
		}
	while ((xc = x->q_head)) {
		x->q_head = xc->next;
		xprt_call_finish(xc, code, msg);
	}
	x->q_tail = NULL;
}

/* A call whose time is up completes with XPRT_E_TIMEOUT; its memory is
 * deregistered first, so a late RDMA operation fails at the peer. */
uint64_t xprt_calls_check_timeouts(struct xprt *x, uint64_t now)
{
	struct xcall *xc, **pp;
	uint32_t i, left = x->nout;     /* the slots in use: no further */
	uint64_t next = UINT64_MAX;

	for (i = 0; i < x->ncalls && left; i++) {
		if (!(xc = x->calls[i]))
			continue;
		left--;
		if (!xc->deadline_ns)
			continue;
		if (now < xc->deadline_ns) {
			if (xc->deadline_ns < next)
				next = xc->deadline_ns;
			continue;
		}
		if (!xprt_credit_timeout(x)) {
			xprt_call_finish(xc, XPRT_E_TIMEOUT, "no reply in time");
			continue;
		}
		/* the first call, unanswered: the connection is closed
		 * (V1 §4.3.3), marked before done() can call again; a tool
		 * that goes on connects again */
		xprt_fatal(x, "no reply to the first call on this connection: "
			   "no other may be sent on it before a valid reply "
			   "(V1 §4.3.3); closing it");
		xprt_call_finish(xc, XPRT_E_TIMEOUT,
				 "no reply in time to the first call on this connection "
				 "(V1 §4.3.3: no other may follow on it; it is closed)");
		return 0;   /* the rest at the next turn */
	}
	for (pp = &x->q_head; (xc = *pp);) {
		if (xc->deadline_ns && now >= xc->deadline_ns) {
			*pp = xc->next;
			if (x->q_tail == xc)
				x->q_tail = NULL;
			xprt_call_finish(xc, XPRT_E_TIMEOUT,
					 "no credit to send it in time");
			continue;
		}
		if (xc->deadline_ns && xc->deadline_ns < next)
			next = xc->deadline_ns;
		if (!xc->next)
			x->q_tail = xc;
		pp = &xc->next;
	}
	return next;
}

