/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * xprt_stats.c - the counters (per connection, and summed over the loop:
 * a connection's counts join the loop's when it goes), the connection's
 * context pointer and what the peer told us.
 */
#include "xprt_int.h"

void xprt_stats_add(struct xprt_stats *to, const struct xprt_stats *s)
{
	to->calls_sent += s->calls_sent;
	to->replies_received += s->replies_received;
	to->calls_received += s->calls_received;
	to->replies_sent += s->replies_sent;
	to->backward_calls_sent += s->backward_calls_sent;
	to->backward_calls_received += s->backward_calls_received;
	to->errors_sent += s->errors_sent;
	to->errors_received += s->errors_received;
	to->discarded += s->discarded;
	to->bytes_sent += s->bytes_sent;
	to->bytes_received += s->bytes_received;
	to->rdma_read_bytes += s->rdma_read_bytes;
	to->rdma_write_bytes += s->rdma_write_bytes;
	to->credit_waits += s->credit_waits;
	if (s->max_outstanding > to->max_outstanding)
		to->max_outstanding = s->max_outstanding;
	to->connections += s->connections;
}

void xprt_get_stats(const struct xprt *x, struct xprt_stats *s)
{
	*s = x->st;
}

void xprt_loop_get_stats(const struct xprt_loop *l, struct xprt_stats *s)
{
	const struct xprt *x;

	*s = l->closed;
	for (x = l->conns; x; x = x->next)
		if (x->state != X_DEAD)
			xprt_stats_add(s, &x->st);
	s->connections = l->accepted;
}

/* a connection's counts join the loop's when it goes */
void xprt_stats_retire(struct xprt *x)
{
	xprt_stats_add(&x->l->closed, &x->st);
}

void xprt_set_ctx(struct xprt *x, void *ctx)
{
	x->ctx = ctx;
}

void *xprt_get_ctx(const struct xprt *x)
{
	return x->ctx;
}

const struct xprt_peer_info *xprt_peer(const struct xprt *x)
{
	return &x->peer;
}
