/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fuzz_codec_decode.c - libFuzzer target: rpcrdma_decode() on any bytes,
 * then every iterator and the error-reply builder on the result.  ASan
 * catches any read past the input; the asserts catch broken invariants.
 */
#include <assert.h>
#include <stdint.h>
#include <stddef.h>
#include "rpcrdma/codec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rpcrdma_msg m;
	struct rpcrdma_read_iter ri;
	struct rpcrdma_read_segment rs;
	struct rpcrdma_chunk_iter ci;
	struct rpcrdma_seg_iter si;
	struct rpcrdma_segment s;
	uint8_t reply[64];
	size_t need;
	uint32_t n = 0;
	enum rpcrdma_action a = rpcrdma_decode(data, size, &m);

	assert(a == m.action);
	assert((a == RPCRDMA_ACCEPT) == (m.reason == RPCRDMA_R_OK));
	assert(m.fault_off <= size && m.header_len <= size);
	assert(!m.header_len || m.header_len + m.payload_len == size);
	rpcrdma_read_iter_init(&m, &ri);
	while (rpcrdma_read_next(&ri, &rs))
		n++;
	assert(n == m.nreads);
	n = 0;
	rpcrdma_write_iter_init(&m, &ci);
	while (rpcrdma_write_next(&ci, &si))
		while (rpcrdma_seg_next(&si, &s))
			n++;
	assert(n == m.nwrite_segs);
	if (rpcrdma_reply_chunk(&m, &si))
		while (rpcrdma_seg_next(&si, &s))
			;
	rpcrdma_encode_error_reply(&m, 1, reply, sizeof(reply), &need);
	assert(need <= 28);
	(void)rpcrdma_reason_text(m.reason);
	return 0;
}
