/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * chunk_lists.c - the Read list, Write list and Reply chunk
 * (V1 §5.1.3 rpcrdma1_read_list, rpcrdma1_write_list, rpcrdma1_write_chunk;
 * V2 §4.2 rpcrdma2_read_list, rpcrdma2_write_list, rpcrdma2_write_chunk:
 * the same wire form).  XDR examples: V1 §5.7.
 *
 *   Read list:   1 PHLOO 1 PHLOO ... 0
 *   Write list:  1 N HLOO... 1 N HLOO... ... 0
 *   Reply chunk: 0  |  1 N HLOO...
 *
 * Each element is bounds-checked as a whole before it is read; counts are
 * checked against the bytes left before the cursor moves over them.
 */
#include "internal.h"

/* optional-data "is present" word (RFC 4506 §4.19): 0 or 1, nothing else */
static enum rpcrdma_reason decode_discriminator(struct xdrc *x,
						struct rpcrdma_msg *m,
						bool *present)
{
	uint32_t off = x->off, v;

	if (!xdrc_get_u32(x, &v))
		return codec_fault(m, RPCRDMA_R_TRUNCATED, off);
	if (v > 1)
		return codec_fault(m, RPCRDMA_R_BAD_DISCRIMINANT, off);
	*present = v;
	return RPCRDMA_R_OK;
}

/* rpcrdma1_read_segment: PHLOO, 20 bytes, position a multiple of 4 */
static enum rpcrdma_reason decode_read_segment(struct xdrc *x,
					       struct rpcrdma_msg *m)
{
	if (xdrc_left(x) < RPCRDMA_READ_SEGMENT_SIZE)
		return codec_fault(m, RPCRDMA_R_TRUNCATED, x->off);
	if (xdrc_be32(x->p + x->off) & 3)     /* V1 §4.4.5.1 */
		return codec_fault(m, RPCRDMA_R_BAD_POSITION, x->off);
	x->off += RPCRDMA_READ_SEGMENT_SIZE;
	return RPCRDMA_R_OK;
}

/* rpcrdma1_write_chunk: a counted array of one or more HLOO segments */
static enum rpcrdma_reason decode_write_chunk(struct xdrc *x,
					      struct rpcrdma_msg *m,
					      uint32_t *nsegs)
{
	uint32_t off = x->off, count;

	if (!xdrc_get_u32(x, &count))
		return codec_fault(m, RPCRDMA_R_TRUNCATED, off);
	if (count == 0)                       /* V1 §4.4.4: one or more */
		return codec_fault(m, RPCRDMA_R_EMPTY_CHUNK, off);
	if (count > xdrc_left(x) / RPCRDMA_SEGMENT_SIZE)
		return codec_fault(m, RPCRDMA_R_BAD_COUNT, off);
	x->off += count * RPCRDMA_SEGMENT_SIZE;
	*nsegs = count;
	return RPCRDMA_R_OK;
}

enum rpcrdma_reason rpcrdma_decode_read_list(struct xdrc *x,
					     struct rpcrdma_msg *m)
{
	enum rpcrdma_reason r;
	bool more;

	m->reads_off = x->off;
	for (;;) {
		r = decode_discriminator(x, m, &more);
		if (r || !more)
			return r;
		r = decode_read_segment(x, m);
		if (r)
			return r;
		m->nreads++;
	}
}

enum rpcrdma_reason rpcrdma_decode_write_list(struct xdrc *x,
					      struct rpcrdma_msg *m)
{
	enum rpcrdma_reason r;
	uint32_t nsegs;
	bool more;

	m->writes_off = x->off;
	for (;;) {
		r = decode_discriminator(x, m, &more);
		if (r || !more)
			return r;
		r = decode_write_chunk(x, m, &nsegs);
		if (r)
			return r;
		m->nwrites++;
		m->nwrite_segs += nsegs;
	}
}

enum rpcrdma_reason rpcrdma_decode_reply_chunk(struct xdrc *x,
					       struct rpcrdma_msg *m)
{
	enum rpcrdma_reason r;
	uint32_t nsegs;
	bool present;

	m->reply_off = x->off;
	r = decode_discriminator(x, m, &present);
	if (r || !present)
		return r;
	r = decode_write_chunk(x, m, &nsegs);
	if (r)
		return r;
	m->has_reply = true;
	m->nreply_segs = nsegs;
	return RPCRDMA_R_OK;
}

/* The three lists in order: rpcrdma1_chunks, and rpcrdma2_chunk_lists after
 * its direction word.  The common empty case (0 0 0) is taken first. */
enum rpcrdma_reason rpcrdma_decode_lists(struct xdrc *x, struct rpcrdma_msg *m)
{
	enum rpcrdma_reason r;

	if (rpcrdma_decode_empty_lists(x, m))
		return RPCRDMA_R_OK;
	r = rpcrdma_decode_read_list(x, m);
	if (r)
		return r;
	r = rpcrdma_decode_write_list(x, m);
	if (r)
		return r;
	return rpcrdma_decode_reply_chunk(x, m);
}
