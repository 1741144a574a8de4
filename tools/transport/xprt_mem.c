/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * xprt_mem.c - the transport's memory (V1 §5.4): one region per connection
 * for the Receive and Send buffers, registered for local access only and
 * kept for the connection's life (§5.4: "a local-only registration is
 * sufficient"); chunk memory registered per RPC with the least remote
 * access it needs (RDMA Read source: remote read; write and reply chunk
 * receptacles: remote write) and deregistered when the RPC ends, which
 * fences it from the responder (§5.4.1) before the ULB sees the result.
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
	xprt_mems_release_all(x);
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

/* post one work request; every one is signaled and counted */
int xprt_post(struct xprt *x, const struct xv_send_wr *wr)
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

/* -------- per-RPC registration --------
 * Plain: one region with the remote access needed, deregistered at the
 * end.  With memory windows (use_mw): the region has local access only,
 * a type 2 window bound over it carries the remote access and its rkey
 * goes to the peer, who may invalidate it with Send With Invalidate; the
 * window is deallocated at the end either way -- a synchronous fence. */
int xprt_reg(struct xprt *x, void *addr, size_t len, bool remote_write,
	     struct xreg *r)
{
	const struct xprt_verbs *v = x->l->v;
	unsigned remote = remote_write ? XV_ACCESS_REMOTE_WRITE : XV_ACCESS_REMOTE_READ;
	struct xv_send_wr wr;

	memset(r, 0, sizeof(*r));
	if (!len)
		return 0;
	if (!x->use_mw) {
		r->mr = v->reg_mr(x->id, addr, len, remote_write ?
				  XV_ACCESS_LOCAL_WRITE | remote : remote);
		if (!r->mr)
			return -1;
		r->rkey = r->mr->rkey;
	} else {
		r->mr = v->reg_mr(x->id, addr, len, XV_ACCESS_LOCAL_WRITE |
				  XV_ACCESS_MW_BIND);
		r->mw = r->mr ? v->alloc_mw(x->id) : NULL;
		if (!r->mw)
			goto fail;
		memset(&wr, 0, sizeof(wr));
		wr.wr_id = XW_ID(XW_LOCAL, 0);
		wr.opcode = XV_OP_BIND_MW;
		wr.signaled = true;
		wr.mw = r->mw;
		wr.bind_mr = r->mr;
		wr.bind_addr = (uintptr_t)addr;
		wr.bind_len = len;
		wr.bind_access = remote;
		if (xprt_post(x, &wr))
			goto fail;
		r->rkey = r->mw->rkey;      /* the bind's new key */
	}
	r->addr = (uintptr_t)addr;
	r->len = (uint32_t)len;
	return 0;
fail:
	xprt_unreg(x, r);
	return -1;
}

/* deregistration fences the memory from the peer (V1 §5.4.1) */
void xprt_unreg(struct xprt *x, struct xreg *r)
{
	if (r->mw)
		x->l->v->dealloc_mw(r->mw);
	if (r->mr)
		x->l->v->dereg_mr(r->mr);
	memset(r, 0, sizeof(*r));
}

/* -------- xprt_mem_register(): raw registrations for probes -------- */
struct xprt_mem *xprt_mem_register(struct xprt *x, void *buf, size_t len,
				   bool remote_write, struct rpcrdma_segment *seg,
				   struct xprt_error *err)
{
	struct xmem *m;

	if (!x || x->state != X_CONNECTED || !buf || !len || len > UINT32_MAX) {
		xprt_err(err, XPRT_E_USAGE, EINVAL,
			 "xprt_mem_register: not connected, or a bad buffer");
		return NULL;
	}
	m = calloc(1, sizeof(*m));
	if (!m) {
		xprt_err(err, XPRT_E_RESOURCE, ENOMEM, "out of memory");
		return NULL;
	}
	m->mr = x->l->v->reg_mr(x->id, buf, len,
				remote_write ? XV_ACCESS_LOCAL_WRITE |
					       XV_ACCESS_REMOTE_WRITE :
					       XV_ACCESS_REMOTE_READ);
	if (!m->mr) {
		xprt_err(err, XPRT_E_RESOURCE, errno, "ibv_reg_mr of %zu bytes: %s",
			 len, strerror(errno));
		free(m);
		return NULL;
	}
	seg->rdma_handle = m->mr->rkey;
	seg->rdma_length = (uint32_t)len;
	seg->rdma_offset = (uintptr_t)buf;
	m->x = x;
	m->next = x->mems;
	x->mems = m;
	return (struct xprt_mem *)m;
}

void xprt_mem_release(struct xprt_mem *pm)
{
	struct xmem *m = (struct xmem *)pm, **pp;

	if (!m)
		return;
	for (pp = &m->x->mems; *pp; pp = &(*pp)->next)
		if (*pp == m) {
			*pp = m->next;
			break;
		}
	if (m->mr)
		m->x->l->v->dereg_mr(m->mr);
	free(m);
}

/* at disconnect: the handles die with the connection (xprt.h) */
void xprt_mems_release_all(struct xprt *x)
{
	struct xmem *m;

	while ((m = x->mems)) {
		x->mems = m->next;
		if (m->mr)
			x->l->v->dereg_mr(m->mr);
		free(m);
	}
}
