/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * xprt_params.c - what the two ends negotiated: the inline thresholds in
 * force (libcodec's rpcrdma_cm_thresholds() over the RFC 8797 private data
 * and the version), the size a Send may have now (V2 §5: no more than V1's
 * default before the peer answered our first V2 call), and the version
 * memory of the loop (V2 §5.2: after a refusal, or a first V2 message
 * dropped with the connection, a reconnect to the same peer starts with
 * what it speaks).
 */
#include <string.h>
#include "xprt_int.h"

void xprt_update_thresholds(struct xprt *x)
{
	uint32_t vers = x->vers ? x->vers : x->vlow;

	rpcrdma_cm_thresholds(x->peer.has_private_data ? &x->peer.priv : NULL,
			      x->o.inline_send, x->o.inline_recv, vers,
			      vers == RPCRDMA_VERSION_TWO && x->vers_settled,
			      &x->peer.inline_send, &x->peer.inline_recv);
}

/* what a call may Send now: before the peer answered our first V2 call,
 * no more than V1's default (V2 §5) */
uint32_t xprt_send_threshold(const struct xprt *x)
{
	uint32_t t = x->peer.inline_send;

	if (!x->server && x->vers == RPCRDMA_VERSION_TWO && !x->vers_settled &&
	    t > RPCRDMA_V1_INLINE_DEFAULT)
		t = RPCRDMA_V1_INLINE_DEFAULT;
	return t;
}

/* -------- the version memory -------- */
static int mem_find(const struct xprt_loop *l, const char *key)
{
	int i;

	for (i = 0; i < XPRT_PEER_MEMORY; i++)
		if (l->mem[i].key[0] && !strcmp(l->mem[i].key, key))
			return i;
	return -1;
}

void xprt_remember_version(struct xprt *x, uint32_t vers, bool dropped)
{
	struct xprt_loop *l = x->l;
	int i = mem_find(l, x->key);

	if (x->server || !x->key[0])
		return;
	if (i < 0) {
		i = (int)(l->mem_next++ % XPRT_PEER_MEMORY);
		snprintf(l->mem[i].key, sizeof(l->mem[i].key), "%s", x->key);
	}
	l->mem[i].vers = vers;
	l->mem[i].dropped = dropped;
	l->mem[i].low = x->peer.vers_low;
	l->mem[i].high = x->peer.vers_high;
}

/* a new client connection to x->key starts with what was remembered */
void xprt_recall_version(struct xprt *x)
{
	const struct xprt_loop *l = x->l;
	int i = mem_find(l, x->key);

	if (i < 0)
		return;
	if (l->mem[i].vers >= x->vlow && l->mem[i].vers <= x->vhigh)
		x->vers = l->mem[i].vers;
	x->peer.v2_refused = !l->mem[i].dropped;
	x->peer.v2_dropped = l->mem[i].dropped;
	x->peer.vers_low = l->mem[i].low;
	x->peer.vers_high = l->mem[i].high;
}
