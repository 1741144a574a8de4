/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fuzz_codec_roundtrip.c - libFuzzer target: whatever rpcrdma_decode()
 * accepts (or judges well-formed but unsupported, RDMA2_OPTIONAL) must
 * re-encode, through rpcrdma_msg_to_hdr() and rpcrdma_encode(), to exactly
 * the bytes of its transport header.  The one exception is the content of
 * XDR pad bytes after rdma_optinfo: receivers ignore it (V1 §3.1.4.2), the
 * encoder writes zeros (docs/spec-decisions.md, D-XDR-2).
 */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "rpcrdma/codec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CAP 4096

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct rpcrdma_read_segment reads[CAP / 24];
	static struct rpcrdma_write_chunk chunks[CAP / 24];
	static struct rpcrdma_segment segs[CAP / 16];
	static uint8_t out[CAP], want[CAP];
	struct rpcrdma_msg m;
	struct rpcrdma_hdr h;
	size_t need, n;

	if (size > CAP)
		return 0;
	rpcrdma_decode(data, size, &m);
	if (m.action != RPCRDMA_ACCEPT && m.reason != RPCRDMA_R_UNKNOWN_OPTION)
		return 0;
	if (!rpcrdma_msg_to_hdr(&m, &h, reads, CAP / 24, chunks, CAP / 24, segs, CAP / 16))
		abort();
	n = rpcrdma_encode(&h, out, sizeof(out), &need);
	assert(n == need && n == m.header_len);
	memcpy(want, data, n);
	if (m.has_optional)
		memset(want + m.optinfo_off + m.optinfo_len, 0,
		       m.header_len - m.optinfo_off - m.optinfo_len);
	assert(memcmp(out, want, n) == 0);
	return 0;
}
