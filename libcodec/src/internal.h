/* SPDX-License-Identifier: BSD-3-Clause */
/* internal.h - decoder pieces shared between the libcodec source files. */
#ifndef RPCRDMA_INTERNAL_H
#define RPCRDMA_INTERNAL_H

#include "rpcrdma/codec.h"
#include "xdrc.h"

/* Record a fault (the first one wins: callers stop at once). */
static inline enum rpcrdma_reason codec_fault(struct rpcrdma_msg *m,
					      enum rpcrdma_reason r,
					      uint32_t off)
{
	m->reason = r;
	m->fault_off = off;
	return r;
}

/* chunk_lists.c: the lists shared by rpcrdma1_chunks and
 * rpcrdma2_chunk_lists (identical wire form in both versions) */
/* Three empty lists (0 0 0): most messages carry no chunks at all, so
 * this is tried first, inline, before the general list decoders. */
static inline bool rpcrdma_decode_empty_lists(struct xdrc *x,
					      struct rpcrdma_msg *m)
{
	uint32_t w[3];

	if (xdrc_left(x) < 12)
		return false;
	memcpy(w, x->p + x->off, sizeof(w));  /* zero in any byte order */
	if (w[0] | w[1] | w[2])
		return false;
	m->reads_off = x->off;
	m->writes_off = x->off + 4;
	m->reply_off = x->off + 8;
	x->off += 12;
	return true;
}

enum rpcrdma_reason rpcrdma_decode_read_list(struct xdrc *x,
					     struct rpcrdma_msg *m);
enum rpcrdma_reason rpcrdma_decode_write_list(struct xdrc *x,
					      struct rpcrdma_msg *m);
enum rpcrdma_reason rpcrdma_decode_reply_chunk(struct xdrc *x,
					       struct rpcrdma_msg *m);
enum rpcrdma_reason rpcrdma_decode_lists(struct xdrc *x, struct rpcrdma_msg *m);

/* v1.c */
enum rpcrdma_reason rpcrdma1_decode_chunks(struct xdrc *x,
					   struct rpcrdma_msg *m);
enum rpcrdma_reason rpcrdma1_decode_error(struct xdrc *x,
					  struct rpcrdma_msg *m);
/* v2.c */
enum rpcrdma_reason rpcrdma2_decode_chunk_lists(struct xdrc *x,
						struct rpcrdma_msg *m);
enum rpcrdma_reason rpcrdma2_decode_error(struct xdrc *x,
					  struct rpcrdma_msg *m);
enum rpcrdma_reason rpcrdma2_decode_optional(struct xdrc *x,
					     struct rpcrdma_msg *m);
/* both versions: rdma_err with the highest code the version knows */
enum rpcrdma_reason rpcrdma_decode_error_body(struct xdrc *x,
					      struct rpcrdma_msg *m,
					      uint32_t max_err);

#endif
