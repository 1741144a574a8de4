/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * xprt_bufs.c - a connection's buffers (V1 §5.4): one region for the
 * Receive and Send buffers, registered for local access only and kept for
 * the connection's life (§5.4: "a local-only registration is sufficient");
 * the Receives posted into it; the Send slots, each with what hangs on it
 * until its work requests complete (a Send larger than the slot, a reply's
 * RDMA Write source).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "xprt_int.h"

int xprt_bufs_create(struct xprt *x)
{
	const struct xprt_verbs *v = x->l->v;
	size_t len = (size_t)x->nrecv * x->rsize + (size_t)x->nsend * x->ssize;
	uint32_t i;

	x->sends = calloc(x->nsend, sizeof(*x->sends));
	x->region = aligned_alloc(4096, (len + 4095) & ~(size_t)4095);
	if (!x->sends || !x->region) {
		errno = ENOMEM;
		return -1;
	}
	memset(x->region, 0, len);
	x->region_mr = v->reg_mr(x->id, x->region, len, XV_ACCESS_LOCAL_WRITE);
	if (!x->region_mr)
		return -1;
	for (i = 0; i < x->nsend; i++) {
		x->sends[i].buf = x->region + (size_t)x->nrecv * x->rsize +
				  (size_t)i * x->ssize;
		x->sends[i].next_free = i + 1 < x->nsend ? (int)i + 1 : -1;
	}
	x->send_free = 0;
	for (i = 0; i < x->nrecv; i++)
		if (xprt_post_recv(x, i))
			return -1;
	return 0;
}

static void send_slot_release(struct xprt *x, struct xsend *s)
{
	const struct xprt_verbs *v = x->l->v;

	if (s->big_mr)
		v->dereg_mr(s->big_mr);
	if (s->stage_mr)
		v->dereg_mr(s->stage_mr);
	free(s->big);
	free(s->stage);
	s->big = s->stage = NULL;
	s->big_mr = s->stage_mr = NULL;
}

/* after the QP is gone: every registration of the connection goes */
void xprt_bufs_destroy(struct xprt *x)
{
	const struct xprt_verbs *v = x->l->v;
	uint32_t i;

	if (x->sends)
		for (i = 0; i < x->nsend; i++)
			send_slot_release(x, &x->sends[i]);
	free(x->sends);
	x->sends = NULL;
	if (x->region_mr)
		v->dereg_mr(x->region_mr);
	x->region_mr = NULL;
	free(x->region);
	x->region = NULL;
}

uint8_t *xprt_recv_buf(struct xprt *x, uint32_t slot)
{
	return x->region + (size_t)slot * x->rsize;
}

int xprt_post_recv(struct xprt *x, uint32_t slot)
{
	struct xv_sge s = { xprt_recv_buf(x, slot), x->rsize, x->region_mr->lkey };

	if (!x->id || x->state == X_DEAD)
		return 0;
	if (x->l->v->post_recv(x->id, XW_ID(XW_RECV, slot), &s))
		return -1;
	x->rq_posted++;
	return 0;
}

int xprt_send_slot(struct xprt *x)
{
	int s = x->send_free;

	if (s < 0)
		return -1;
	x->send_free = x->sends[s].next_free;
	x->sends[s].busy = true;
	x->sends[s].pending = 0;
	return s;
}

/* the slot's Send (and the RDMA Writes before it) completed */
void xprt_send_slot_put(struct xprt *x, int s)
{
	struct xsend *ss = &x->sends[s];

	if (!ss->busy)
		return;
	/* a registration hangs only on a buffer of its own (big_mr on big,
	 * stage_mr on stage): nothing to release for a Send from the slot */
	if (ss->big || ss->stage)
		send_slot_release(x, ss);
	ss->busy = false;
	ss->pending = 0;
	ss->next_free = x->send_free;
	x->send_free = s;
}

/* room for a Send of len bytes: the slot's buffer, or one of its own */
uint8_t *xprt_send_space(struct xprt *x, int s, size_t len, uint32_t *lkey)
{
	struct xsend *ss = &x->sends[s];

	if (len <= x->ssize) {
		*lkey = x->region_mr->lkey;
		return ss->buf;
	}
	ss->big = malloc(len);
	if (!ss->big)
		return NULL;
	ss->big_mr = x->l->v->reg_mr(x->id, ss->big, len, 0);
	if (!ss->big_mr) {
		free(ss->big);
		ss->big = NULL;
		return NULL;
	}
	*lkey = ss->big_mr->lkey;
	return ss->big;
}
