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

/*
 * The list walkers keep the cursor in locals and store it back once: the
 * same checks, in the same order, with the same faults and offsets as one
 * bounds-checked read per element (xdrc.h), at a fraction of the cost.  A
 * fault leaves the cursor after the last complete element, as before.
 */

/* optional-data "is present" word (RFC 4506 §4.19) at off: 0 or 1, nothing
 * else; *v gets it */
static inline __attribute__((always_inline)) enum rpcrdma_reason
discriminator(const uint8_t *p, uint32_t len, uint32_t off,
	      struct rpcrdma_msg *m, uint32_t *v)
{
	if (len - off < 4)
		return codec_fault(m, RPCRDMA_R_TRUNCATED, off);
	*v = xdrc_be32(p + off);
	if (*v > 1)
		return codec_fault(m, RPCRDMA_R_BAD_DISCRIMINANT, off);
	return RPCRDMA_R_OK;
}

/* rpcrdma1_write_chunk at *off: a counted array of one or more HLOO
 * segments; *off moves past it */
static inline __attribute__((always_inline)) enum rpcrdma_reason
write_chunk(const uint8_t *p, uint32_t len, uint32_t *off,
	    struct rpcrdma_msg *m, uint32_t *nsegs)
{
	uint32_t at = *off, count;

	if (len - at < 4)
		return codec_fault(m, RPCRDMA_R_TRUNCATED, at);
	count = xdrc_be32(p + at);
	if (count == 0)                       /* V1 §4.4.4: one or more */
		return codec_fault(m, RPCRDMA_R_EMPTY_CHUNK, at);
	if (count > (len - at - 4) / RPCRDMA_SEGMENT_SIZE)
		return codec_fault(m, RPCRDMA_R_BAD_COUNT, at);
	*off = at + 4 + count * RPCRDMA_SEGMENT_SIZE;
	*nsegs = count;
	return RPCRDMA_R_OK;
}

/* Read list: 1 PHLOO 1 PHLOO ... 0; each rpcrdma1_read_segment 20 bytes,
 * its position a multiple of 4 (V1 §4.4.5.1) */
enum rpcrdma_reason rpcrdma_decode_read_list(struct xdrc *x,
					     struct rpcrdma_msg *m)
{
	const uint8_t *p = x->p;
	uint32_t len = x->len, off = x->off, n = 0, more;
	enum rpcrdma_reason r;

	m->reads_off = off;
	for (;;) {
		r = discriminator(p, len, off, m, &more);
		if (r)
			break;
		off += 4;
		if (!more)
			break;
		if (len - off < RPCRDMA_READ_SEGMENT_SIZE) {
			r = codec_fault(m, RPCRDMA_R_TRUNCATED, off);
			break;
		}
		if (xdrc_be32(p + off) & 3) {
			r = codec_fault(m, RPCRDMA_R_BAD_POSITION, off);
			break;
		}
		off += RPCRDMA_READ_SEGMENT_SIZE;
		n++;
	}
	x->off = off;
	m->nreads = n;
	return r;
}

/* Write list: 1 N HLOO... 1 N HLOO... ... 0 */
enum rpcrdma_reason rpcrdma_decode_write_list(struct xdrc *x,
					      struct rpcrdma_msg *m)
{
	const uint8_t *p = x->p;
	uint32_t len = x->len, off = x->off, n = 0, segs = 0, nsegs, more;
	enum rpcrdma_reason r;

	m->writes_off = off;
	for (;;) {
		r = discriminator(p, len, off, m, &more);
		if (r)
			break;
		off += 4;
		if (!more)
			break;
		r = write_chunk(p, len, &off, m, &nsegs);
		if (r)
			break;
		n++;
		segs += nsegs;
	}
	x->off = off;
	m->nwrites = n;
	m->nwrite_segs = segs;
	return r;
}

/* Reply chunk: 0  |  1 N HLOO... */
enum rpcrdma_reason rpcrdma_decode_reply_chunk(struct xdrc *x,
					       struct rpcrdma_msg *m)
{
	const uint8_t *p = x->p;
	uint32_t len = x->len, off = x->off, nsegs, present;
	enum rpcrdma_reason r;

	m->reply_off = off;
	r = discriminator(p, len, off, m, &present);
	if (r)
		return r;
	x->off = off += 4;
	if (!present)
		return RPCRDMA_R_OK;
	r = write_chunk(p, len, &off, m, &nsegs);
	if (r)
		return r;
	x->off = off;
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
