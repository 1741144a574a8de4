/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * credits.c - credit accounting of one requester (V1 §4.3.1, §4.3.3;
 * V2 §5; BIDI §4.1: forward and backward credits are accounted apart, one
 * struct per direction).
 *
 * The limit on calls outstanding is the lower of the credits requested and
 * the credits granted; until a valid, non-error reply has carried a grant,
 * it is one (V1 §4.3.3).  A grant of zero is a protocol violation (V1
 * §4.3.1: "MUST NOT be zero") that would deadlock: treated as one, as the
 * Linux client does (docs/spec-decisions.md D-CRED-1).
 */
#include "internal.h"

void rpcrdma_credits_init(struct rpcrdma_credits *c, uint32_t requested)
{
	c->requested = requested ? requested : 1;
	c->granted = 1;
	c->outstanding = 0;
	c->have_grant = false;
}

uint32_t rpcrdma_credits_limit(const struct rpcrdma_credits *c)
{
	uint32_t lim;

	if (!c->have_grant)
		return 1;
	lim = c->granted < c->requested ? c->granted : c->requested;
	return lim ? lim : 1;
}

bool rpcrdma_credits_may_send(const struct rpcrdma_credits *c)
{
	return c->outstanding < rpcrdma_credits_limit(c);
}

void rpcrdma_credits_sent(struct rpcrdma_credits *c)
{
	if (c->outstanding < UINT32_MAX)
		c->outstanding++;
}

void rpcrdma_credits_reply(struct rpcrdma_credits *c, uint32_t rdma_credit,
			   bool is_error)
{
	if (c->outstanding)
		c->outstanding--;
	if (is_error)
		return;
	c->granted = rdma_credit;
	c->have_grant = true;
}

void rpcrdma_credits_forget(struct rpcrdma_credits *c)
{
	if (c->outstanding)
		c->outstanding--;
}
