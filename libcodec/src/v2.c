/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * v2.c - RPC-over-RDMA Version Two header bodies
 * (draft-cel-nfsv4-rpcrdma-version-two-01 §4.2: rpcrdma2_chunk_lists,
 * rpcrdma2_error, rpcrdma2_optional).  The draft's arms name an undefined
 * `rpcrdma2_chunks`: we read it as rpcrdma2_chunk_lists (docs/spec-decisions.md).
 * The Read list, Write list and Reply chunk keep the Version One wire form
 * and are decoded by chunk_lists.c.
 */
#include "internal.h"

/* enum msg_type rdma_direction / rdma_optdir: CALL or REPLY only */
static enum rpcrdma_reason decode_direction(struct xdrc *x,
					    struct rpcrdma_msg *m,
					    uint32_t *dir)
{
	uint32_t off = x->off;

	if (!xdrc_get_u32(x, dir))
		return codec_fault(m, RPCRDMA_R_TRUNCATED, off);
	if (*dir > RPCRDMA_REPLY)
		return codec_fault(m, RPCRDMA_R_BAD_DIRECTION, off);
	m->direction = (int8_t)*dir;
	m->has_direction_word = true;
	return RPCRDMA_R_OK;
}

/* struct rpcrdma2_chunk_lists (RDMA2_MSG, RDMA2_NOMSG) */
enum rpcrdma_reason rpcrdma2_decode_chunk_lists(struct xdrc *x,
						struct rpcrdma_msg *m)
{
	enum rpcrdma_reason r;
	uint32_t dir;

	r = decode_direction(x, m, &dir);
	if (r)
		return r;
	return rpcrdma_decode_lists(x, m);
}

/* union rpcrdma2_error: no direction word (the XDR has none; V2 §4.2.2
 * says an error is always a REPLY) */
enum rpcrdma_reason rpcrdma2_decode_error(struct xdrc *x,
					  struct rpcrdma_msg *m)
{
	return rpcrdma_decode_error_body(x, m, RDMA2_ERR_INVAL_OPTION);
}

/* struct rpcrdma2_optional: rdma_optdir, rdma_opttype, opaque rdma_optinfo<> */
enum rpcrdma_reason rpcrdma2_decode_optional(struct xdrc *x,
					     struct rpcrdma_msg *m)
{
	enum rpcrdma_reason r;
	uint32_t off;

	r = decode_direction(x, m, &m->rdma_optdir);
	if (r)
		return r;
	off = x->off;
	if (!xdrc_get_u32(x, &m->rdma_opttype))
		return codec_fault(m, RPCRDMA_R_TRUNCATED, off);
	off = x->off;
	if (!xdrc_get_u32(x, &m->optinfo_len))
		return codec_fault(m, RPCRDMA_R_TRUNCATED, off);
	if (xdrc_roundup(m->optinfo_len) > xdrc_left(x))
		return codec_fault(m, RPCRDMA_R_BAD_COUNT, off);
	m->optinfo_off = x->off;
	x->off += (uint32_t)xdrc_roundup(m->optinfo_len);
	m->has_optional = true;
	return RPCRDMA_R_OK;
}
