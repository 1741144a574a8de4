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
	/* Reply: the requester provides a Write chunk for DDP-eligible
	 * results, and a Reply chunk whenever the largest possible reply
	 * (after reduction) can exceed its own threshold (V1 §5.3.3). */
	if (reply_ddp)
		need |= RPCRDMA_NEED_WRITE_CHUNK;
	if (!rpcrdma_fits_inline(hdr_len + (reply_ddp ? write_chunk : 0),
				 reply_max - reply_ddp, reply_threshold))
		need |= RPCRDMA_NEED_REPLY_CHUNK;
	return need;
}
