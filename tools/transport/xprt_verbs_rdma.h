/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * xprt_verbs_rdma.h - what the two halves of the verbs table over
 * rdma-core share (xprt_verbs_rdma.c: CM and queues;
 * xprt_verbs_rdma_mem.c: memory and work requests).  Included by those
 * two files only.
 */
#ifndef RPCRDMA_XPRT_VERBS_RDMA_H
#define RPCRDMA_XPRT_VERBS_RDMA_H

#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>
#include "xprt_verbs.h"

struct rid {
	struct xv_id pub;                 /* first */
	struct rdma_cm_id *cm;
	struct ibv_pd *pd;
	struct ibv_comp_channel *cc;
	struct ibv_cq *cq;
	bool has_qp;
};

/* xprt_verbs_rdma_mem.c */
struct xv_mr *xv_rdma_reg_mr(struct xv_id *pub, void *addr, size_t len,
			     unsigned access);
int xv_rdma_dereg_mr(struct xv_mr *m);
struct xv_mw *xv_rdma_alloc_mw(struct xv_id *pub);
int xv_rdma_dealloc_mw(struct xv_mw *w);
int xv_rdma_post_recv(struct xv_id *pub, uint64_t wr_id, const struct xv_sge *sge);
int xv_rdma_post_send(struct xv_id *pub, const struct xv_send_wr *x);

#endif /* RPCRDMA_XPRT_VERBS_RDMA_H */
