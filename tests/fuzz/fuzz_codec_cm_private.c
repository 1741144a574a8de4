/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fuzz_codec_cm_private.c - libFuzzer target: RFC 8797 private data as a
 * peer may send it (any length), and the thresholds derived from it; a
 * decoded value re-encodes to the same 8 bytes (reserved flag bits kept).
 */
#include <assert.h>
#include <stdint.h>
#include <stddef.h>
#include <string.h>
#include "rpcrdma/codec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rpcrdma_cm_private pd;
	uint8_t out[8];
	uint32_t s, r;

	if (rpcrdma_cm_private_decode(data, size, &pd) != RPCRDMA_CM_OK)
		return 0;
	assert(pd.max_send_size >= 1024 && pd.max_send_size <= 262144);
	assert(pd.max_recv_size >= 1024 && pd.max_recv_size <= 262144);
	assert(rpcrdma_cm_private_encode(&pd, out, sizeof(out)) == 8);
	assert(!memcmp(out, data, 8));
	rpcrdma_cm_thresholds(&pd, 0, 0, 1, false, &s, &r);
	assert(s >= 1024 && r >= 1024 && s <= 262144 && r <= 262144);
	return 0;
}
