/* SPDX-License-Identifier: BSD-3-Clause */
/* fuzz_codec_rpc.c - libFuzzer target: rpc_decode_header() on any bytes. */
#include <assert.h>
#include <stdint.h>
#include <stddef.h>
#include "rpcrdma/rpc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rpc_msg_hdr h;
	enum rpc_result r = rpc_decode_header(data, size, &h);

	assert(r != RPC_OK || h.body_off <= size);
	assert(r == RPC_OK || h.fault_off <= size);
	return 0;
}
