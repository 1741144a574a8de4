/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * xprt_verbs_rdma_mem.c - the memory and work-request half of struct
 * xprt_verbs over libibverbs: regions and type 2 memory windows, Receives
 * and the Send Queue's work requests (Send, Send With Invalidate, RDMA
 * Read and Write, window binds).  The table is in xprt_verbs_rdma.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "xprt_verbs_rdma.h"

static unsigned map_access(unsigned a)
{
	unsigned r = 0;

	if (a & XV_ACCESS_LOCAL_WRITE)
		r |= IBV_ACCESS_LOCAL_WRITE;
	if (a & XV_ACCESS_REMOTE_READ)
		r |= IBV_ACCESS_REMOTE_READ;
	if (a & XV_ACCESS_REMOTE_WRITE)
		r |= IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_LOCAL_WRITE;
	if (a & XV_ACCESS_MW_BIND)
		r |= IBV_ACCESS_MW_BIND;
	return r;
}

struct xv_mr *xv_rdma_reg_mr(struct xv_id *pub, void *addr, size_t len,
			      unsigned access)
{
	struct rid *r = (struct rid *)pub;
	struct xv_mr *m;
	struct ibv_mr *mr;

	if (!r->pd) {
		errno = EINVAL;
		return NULL;
	}
	m = calloc(1, sizeof(*m));
	if (!m)
		return NULL;
	mr = ibv_reg_mr(r->pd, addr, len, (int)map_access(access));
	if (!mr) {
		int e = errno;

		free(m);
		errno = e;
		return NULL;
	}
	m->addr = addr;
	m->len = len;
	m->lkey = mr->lkey;
	m->rkey = mr->rkey;
	m->priv = mr;
	return m;
}

int xv_rdma_dereg_mr(struct xv_mr *m)
{
	int rc = ibv_dereg_mr(m->priv);

	free(m);
	return rc ? -1 : 0;
}

struct xv_mw *xv_rdma_alloc_mw(struct xv_id *pub)
{
	struct rid *r = (struct rid *)pub;
	struct xv_mw *w = calloc(1, sizeof(*w));
	struct ibv_mw *mw;

	if (!w)
		return NULL;
	mw = r->pd ? ibv_alloc_mw(r->pd, IBV_MW_TYPE_2) : NULL;
	if (!mw) {
		free(w);
		errno = errno ? errno : EOPNOTSUPP;
		return NULL;
	}
	w->rkey = mw->rkey;
	w->priv = mw;
	return w;
}

int xv_rdma_dealloc_mw(struct xv_mw *w)
{
	int rc = ibv_dealloc_mw(w->priv);

	free(w);
	return rc ? -1 : 0;
}

int xv_rdma_post_recv(struct xv_id *pub, uint64_t wr_id, const struct xv_sge *sge)
{
	struct ibv_sge s = { .addr = (uintptr_t)sge->addr, .length = sge->len,
			     .lkey = sge->lkey };
	struct ibv_recv_wr wr = { .wr_id = wr_id, .sg_list = &s, .num_sge = 1 };
	struct ibv_recv_wr *bad;
	int rc = ibv_post_recv(((struct rid *)pub)->cm->qp, &wr, &bad);

	if (rc)
		errno = rc;
	return rc ? -1 : 0;
}

int xv_rdma_post_send(struct xv_id *pub, const struct xv_send_wr *x)
{
	struct rid *r = (struct rid *)pub;
	struct ibv_sge s[8];
	struct ibv_send_wr wr, *bad;
	struct ibv_mw *mw;
	int i, rc;

	if (x->nsge < 0 || x->nsge > 8) {
		errno = EINVAL;
		return -1;
	}
	memset(&wr, 0, sizeof(wr));
	for (i = 0; i < x->nsge; i++) {
		s[i].addr = (uintptr_t)x->sge[i].addr;
		s[i].length = x->sge[i].len;
		s[i].lkey = x->sge[i].lkey;
	}
	wr.wr_id = x->wr_id;
	wr.sg_list = x->nsge ? s : NULL;
	wr.num_sge = x->nsge;
	wr.send_flags = x->signaled ? IBV_SEND_SIGNALED : 0;
	switch (x->opcode) {
	case XV_OP_SEND:
		wr.opcode = IBV_WR_SEND;
		break;
	case XV_OP_SEND_INV:
		wr.opcode = IBV_WR_SEND_WITH_INV;
		wr.invalidate_rkey = x->invalidate_rkey;
		/* rdma-core's siw provider (push_send_wqe) takes the STag
		 * to invalidate from wr.rdma.rkey, not invalidate_rkey: it
		 * sent STag 0, and the Linux client over siw ended every
		 * connection with a Terminate (tests/live/cases/requester.sh,
		 * 11-27).  The rdma union is unused by a Send otherwise. */
		wr.wr.rdma.rkey = x->invalidate_rkey;
		break;
	case XV_OP_RDMA_WRITE:
	case XV_OP_RDMA_READ:
		wr.opcode = x->opcode == XV_OP_RDMA_READ ? IBV_WR_RDMA_READ
							 : IBV_WR_RDMA_WRITE;
		wr.wr.rdma.remote_addr = x->remote_addr;
		wr.wr.rdma.rkey = x->rkey;
		break;
	case XV_OP_LOCAL_INV:
		wr.opcode = IBV_WR_LOCAL_INV;
		wr.invalidate_rkey = x->invalidate_rkey;
		break;
	case XV_OP_BIND_MW:
		mw = x->mw->priv;
		wr.opcode = IBV_WR_BIND_MW;
		wr.bind_mw.mw = mw;
		wr.bind_mw.rkey = ibv_inc_rkey(mw->rkey);
		wr.bind_mw.bind_info.mr = x->bind_mr->priv;
		wr.bind_mw.bind_info.addr = x->bind_addr;
		wr.bind_mw.bind_info.length = x->bind_len;
		wr.bind_mw.bind_info.mw_access_flags =
			(unsigned)map_access(x->bind_access) & ~IBV_ACCESS_LOCAL_WRITE;
		break;
	default:
		errno = EINVAL;
		return -1;
	}
	rc = ibv_post_send(r->cm->qp, &wr, &bad);
	if (rc) {
		errno = rc;
		return -1;
	}
	if (x->opcode == XV_OP_BIND_MW)
		x->mw->rkey = wr.bind_mw.rkey;
	return 0;
}
