/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * iter.c - walking decoded chunk lists in place.  rpcrdma_decode() counted
 * only elements it had bounds-checked whole, so these cannot read past the
 * buffer and need no checks of their own.
 */
#include "internal.h"

static void unpack_segment(const uint8_t *p, struct rpcrdma_segment *s)
{
	s->rdma_handle = xdrc_be32(p);
	s->rdma_length = xdrc_be32(p + 4);
	s->rdma_offset = xdrc_be64(p + 8);
}

void rpcrdma_read_iter_init(const struct rpcrdma_msg *m,
			    struct rpcrdma_read_iter *it)
{
	it->p = m->nreads ? m->buf + m->reads_off : NULL;
	it->left = m->nreads;
}

bool rpcrdma_read_next(struct rpcrdma_read_iter *it,
		       struct rpcrdma_read_segment *out)
{
	if (!it->left)
		return false;
	it->p += 4;                             /* discriminator: 1 */
	out->rdma_position = xdrc_be32(it->p);
	unpack_segment(it->p + 4, &out->rdma_target);
	it->p += RPCRDMA_READ_SEGMENT_SIZE;
	it->left--;
	return true;
}

void rpcrdma_write_iter_init(const struct rpcrdma_msg *m,
			     struct rpcrdma_chunk_iter *it)
{
	it->base = m->buf;
	it->p = m->nwrites ? m->buf + m->writes_off : NULL;
	it->left = m->nwrites;
}

static void chunk_at(const uint8_t *base, const uint8_t *count,
		     struct rpcrdma_seg_iter *chunk)
{
	chunk->nsegs = xdrc_be32(count);
	chunk->left = chunk->nsegs;
	chunk->p = count + 4;
	chunk->wire_off = (uint32_t)(count - base);
}

bool rpcrdma_write_next(struct rpcrdma_chunk_iter *it,
			struct rpcrdma_seg_iter *chunk)
{
	const uint8_t *count;

	if (!it->left)
		return false;
	count = it->p + 4;                      /* after discriminator */
	chunk_at(it->base, count, chunk);
	it->p = chunk->p + (size_t)chunk->nsegs * RPCRDMA_SEGMENT_SIZE;
	it->left--;
	return true;
}

bool rpcrdma_reply_chunk(const struct rpcrdma_msg *m,
			 struct rpcrdma_seg_iter *chunk)
{
	if (!m->has_reply)
		return false;
	chunk_at(m->buf, m->buf + m->reply_off + 4, chunk);
	return true;
}

bool rpcrdma_seg_next(struct rpcrdma_seg_iter *it, struct rpcrdma_segment *out)
{
	if (!it->left)
		return false;
	unpack_segment(it->p, out);
	it->p += RPCRDMA_SEGMENT_SIZE;
	it->left--;
	return true;
}
