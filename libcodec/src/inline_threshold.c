/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * inline_threshold.c - inline thresholds and the choice of chunks
 * (V1 §4.3.2, §4.3.3, §4.5, §5.3.3; V2 §2.3, §5).
 */
#include "internal.h"

uint32_t rpcrdma_inline_threshold(uint32_t vers, bool peer_speaks_v2)
{
	/* V2 §5: the first V2 message must fit the V1 default, and until the
	 * peer answers in V2 nothing larger may be assumed. */
	if (vers == RPCRDMA_VERSION_TWO && peer_speaks_v2)
		return RPCRDMA_V2_INLINE_DEFAULT;
	return RPCRDMA_V1_INLINE_DEFAULT;
}

bool rpcrdma_fits_inline(size_t header_len, size_t payload_len,
			 uint32_t threshold)
{
	return header_len <= threshold && payload_len <= threshold - header_len;
}

unsigned rpcrdma_chunks_needed(size_t hdr_len, size_t call_len,
			       size_t call_ddp, size_t reply_max,
			       size_t reply_ddp, uint32_t call_threshold,
			       uint32_t reply_threshold)
{
	/* one read segment / one write chunk of one segment, with its list
	 * discriminator, as the header grows when a chunk is added */
	const size_t read_seg = 4 + RPCRDMA_READ_SEGMENT_SIZE;
	const size_t write_chunk = 4 + 4 + RPCRDMA_SEGMENT_SIZE;
	unsigned need = RPCRDMA_NEED_NONE;

	if (call_ddp > call_len)
		call_ddp = call_len;
	if (reply_ddp > reply_max)
		reply_ddp = reply_max;

	/* Call: Short, Chunked (reduce DDP data), or Long (position zero) */
	if (!rpcrdma_fits_inline(hdr_len, call_len, call_threshold)) {
		if (call_ddp &&
		    rpcrdma_fits_inline(hdr_len + read_seg, call_len - call_ddp,
					call_threshold))
			need |= RPCRDMA_NEED_READ_CHUNK;
		else
			need |= RPCRDMA_NEED_POS0_READ;
	}
	/* Reply: a largest possible reply that fits the requester's own
	 * threshold comes inline, no chunk needed (registering one would only
	 * cost: V2 §2.2; Linux decides so too).  Otherwise the requester
	 * provides a Write chunk for a DDP-eligible result, and a Reply chunk
	 * when the reply after that reduction can still exceed its threshold
	 * (V1 §5.3.3). */
	if (rpcrdma_fits_inline(hdr_len, reply_max, reply_threshold))
		return need;
	if (reply_ddp)
		need |= RPCRDMA_NEED_WRITE_CHUNK;
	if (!rpcrdma_fits_inline(hdr_len + (reply_ddp ? write_chunk : 0),
				 reply_max - reply_ddp, reply_threshold))
		need |= RPCRDMA_NEED_REPLY_CHUNK;
	return need;
}

/* Size of a reply header (V1 §5.7 encoding key): the prefix, [direction
 * (V2)], an empty read list, the echoed write list, and the reply chunk
 * when it carries the reply. */
static size_t reply_hdr_len(const struct rpcrdma_reply_plan *p, bool reply_chunk)
{
	size_t n = 16 + (p->vers == RPCRDMA_VERSION_TWO ? 4 : 0) + 4;

	n += (size_t)p->nwrite_chunks * 8 +
	     (size_t)p->nwrite_segs * RPCRDMA_SEGMENT_SIZE + 4;
	n += 4;
	if (reply_chunk)
		n += 4 + (size_t)p->nreply_segs * RPCRDMA_SEGMENT_SIZE;
	return n;
}

enum rpcrdma_reply_path rpcrdma_reply_path(struct rpcrdma_reply_plan *p)
{
	bool reduce = p->ddp_len && p->nwrite_chunks;
	size_t payload = p->reply_len, ddp_pad;

	p->why = RPCRDMA_RPATH_OK;
	p->send_payload = 0;
	p->reply_chunk_bytes = 0;
	p->hdr_len = reply_hdr_len(p, false);
	if (reduce) {
		/* V1 §5.3.2: the responder MUST write a DDP-eligible result
		 * into the write chunk provided; one larger than the chunk
		 * cannot be (the requester registers the largest, §4.4.6) */
		if (p->ddp_len > p->write_chunk_len) {
			p->why = RPCRDMA_RPATH_DDP_OVER_WRITE_CHUNK;
			return RPCRDMA_RPATH_NONE;
		}
		/* the result leaves with its XDR pad (§4.4.6.1) */
		ddp_pad = p->ddp_len + ((4 - (p->ddp_len & 3)) & 3);
		payload -= ddp_pad < payload ? ddp_pad : payload;
	}
	if (rpcrdma_fits_inline(p->hdr_len, payload, p->threshold)) {
		p->send_payload = payload;
		return reduce ? RPCRDMA_RPATH_WRITE : RPCRDMA_RPATH_INLINE;
	}
	/* §4.5.3: a reply larger than the requester's threshold MUST go in
	 * the reply chunk provided; §5.5.3: one too small is detected before
	 * writing, and no RPC-level reply is possible */
	if (!p->has_reply_chunk) {
		p->why = RPCRDMA_RPATH_NO_REPLY_CHUNK;
		return RPCRDMA_RPATH_NONE;
	}
	if (payload > p->reply_chunk_len ||
	    reply_hdr_len(p, true) > p->threshold) {
		p->why = RPCRDMA_RPATH_OVER_REPLY_CHUNK;
		return RPCRDMA_RPATH_NONE;
	}
	p->hdr_len = reply_hdr_len(p, true);
	p->reply_chunk_bytes = payload;
	return reduce ? RPCRDMA_RPATH_WRITE_REPLY : RPCRDMA_RPATH_REPLY;
}

const char *rpcrdma_reply_path_name(enum rpcrdma_reply_path p)
{
	switch (p) {
	case RPCRDMA_RPATH_INLINE: return "inline";
	case RPCRDMA_RPATH_WRITE: return "write";
	case RPCRDMA_RPATH_REPLY: return "reply";
	case RPCRDMA_RPATH_WRITE_REPLY: return "write+reply";
	case RPCRDMA_RPATH_NONE: return "none";
	}
	return "unknown";
}
