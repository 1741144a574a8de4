/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * v1.c - RPC-over-RDMA Version One header bodies
 * (draft-ietf-nfsv4-rfc5666bis-04 §5.1.3: rpcrdma1_chunks, rpcrdma1_error).
 */
#include "internal.h"

/* rpcrdma1_chunks: Read list, Write list, Reply chunk (RDMA_MSG, RDMA_NOMSG) */
enum rpcrdma_reason rpcrdma1_decode_chunks(struct xdrc *x,
					   struct rpcrdma_msg *m)
{
	return rpcrdma_decode_lists(x, m);
}

/* union rpcrdma1_error / rpcrdma2_error: the ERR_VERS arm is immutable
 * across versions (V1 §9.1), so one decoder serves both. */
enum rpcrdma_reason rpcrdma_decode_error_body(struct xdrc *x,
					      struct rpcrdma_msg *m,
					      uint32_t max_err)
{
	uint32_t off = x->off;

	if (!xdrc_get_u32(x, &m->rdma_err))
		return codec_fault(m, RPCRDMA_R_TRUNCATED, off);
	m->has_err = true;
	if (m->rdma_err < RDMA_ERR_VERS || m->rdma_err > max_err)
		return codec_fault(m, RPCRDMA_R_BAD_ERR_CODE, off);
	if (m->rdma_err != RDMA_ERR_VERS)
		return RPCRDMA_R_OK;
	/* struct rpcrdma_err_vers */
	off = x->off;
	if (!xdrc_get_u32(x, &m->rdma_vers_low))
		return codec_fault(m, RPCRDMA_R_TRUNCATED, off);
	off = x->off;
	if (!xdrc_get_u32(x, &m->rdma_vers_high))
		return codec_fault(m, RPCRDMA_R_TRUNCATED, off);
	m->has_vrange = true;
	return RPCRDMA_R_OK;
}

enum rpcrdma_reason rpcrdma1_decode_error(struct xdrc *x,
					  struct rpcrdma_msg *m)
{
	return rpcrdma_decode_error_body(x, m, RDMA_ERR_BADHEADER);
}
