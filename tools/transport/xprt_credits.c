/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * xprt_credits.c - the credit accounting, all of it (V1 §4.3.1-§4.3.3,
 * BIDI §4.1).  The requester: a call is sent only while a credit is free
 * (libcodec's rpcrdma_credits: one until the first non-error reply, then
 * what the peer grants) and a slot for it; each call sent takes one; a
 * reply returns it with the peer's new grant (an RDMA_ERROR's credit value
 * is not a grant); a call that ends without a reply (timeout, disconnect)
 * forgets its credit, and the first call timing out before any grant closes
 * the connection (V1 §4.3.3).  The responder: the grant this end puts in every
 * reply and error reply (0 with the test-only misbehave=zero-credit).
 * The test-only requester modes no-first-wait and ignore-grant break the
 * requester's rules on purpose (rpcrdma-conform --requester must FAIL them).
 */
#include "xprt_int.h"

void xprt_credits_init(struct xprt *x)
{
	x->grant = x->o.credits;
	rpcrdma_credits_init(&x->cred, x->o.credits);
}

/* may the requester send one more call now?  (the test-only misbehave
 * modes no-first-wait and ignore-grant send as many as it has slots for,
 * before the first reply and after it) */
bool xprt_credit_available(const struct xprt *x)
{
	if (x->nout >= x->ncalls)
		return false;
	if ((x->o.misbehave == XPRT_MISBEHAVE_NO_FIRST_WAIT && !x->cred.have_grant) ||
	    (x->o.misbehave == XPRT_MISBEHAVE_IGNORE_GRANT && x->cred.have_grant))
		return true;
	return rpcrdma_credits_may_send(&x->cred);
}

/* a call was sent: it holds a credit until its reply */
void xprt_credit_take(struct xprt *x)
{
	rpcrdma_credits_sent(&x->cred);
}

/* a reply we matched: its credit value is a grant (BIDI §4.1: the
 * direction is known from context; spec-decisions D-XPRT-3) */
void xprt_credit_reply(struct xprt *x, uint32_t credit)
{
	rpcrdma_credits_reply(&x->cred, credit, false);
	x->peer.credits_granted = credit;
}

/* an RDMA_ERROR answering a call: the credit comes back, no grant */
void xprt_credit_error_reply(struct xprt *x, uint32_t credit)
{
	rpcrdma_credits_reply(&x->cred, credit, true);
}

/* a call that ends without a reply */
void xprt_credit_forget(struct xprt *x)
{
	rpcrdma_credits_forget(&x->cred);
}

/* a call whose time ran out: forgotten as above; true when no reply has
 * granted credits yet on this connection (the forward requester's first
 * call): V1 §4.3.3, "a requester MUST NOT assume more than one credit is
 * available, and MUST receive a valid reply from the responder carrying
 * the actual number of available credits, prior to sending its next
 * request", so no other call may go on it and the caller closes it */
bool xprt_credit_timeout(struct xprt *x)
{
	bool first = !x->server && !x->cred.have_grant;

	rpcrdma_credits_forget(&x->cred);
	return first;
}

/* the responder's grant, in every reply and error reply */
uint32_t xprt_credit_grant(const struct xprt *x)
{
	return x->o.misbehave == XPRT_MISBEHAVE_ZERO_CREDIT ? 0 : x->grant;
}

/* the responder's grant from now on, at most the credits it has receives
 * for (rpcrdma-conform --requester's rq-grant-shrink lowers it mid-run) */
void xprt_set_grant(struct xprt *x, uint32_t grant)
{
	if (x)
		x->grant = grant > x->o.credits ? x->o.credits : grant;
}
