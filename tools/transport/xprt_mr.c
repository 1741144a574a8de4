/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * xprt_mr.c - memory registrations (V1 §5.4): chunk memory registered per
 * RPC with the least remote access it needs (RDMA Read source: remote
 * read; write and reply chunk receptacles: remote write) and deregistered
 * when the RPC ends, which fences it from the responder (§5.4.1) before
 * the ULB sees the result; and xprt_mem_register(), the raw registrations
 * of probes, released with the connection at the latest.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "xprt_int.h"

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
