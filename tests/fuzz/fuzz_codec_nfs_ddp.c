/* SPDX-License-Identifier: BSD-3-Clause */
/* fuzz_codec_nfs_ddp.c - libFuzzer target: rpcrdma_ddp_locate_reply() on any
 * bytes; the first 12 bytes choose the NFS version, procedure and the
 * lengths the Write chunks hold. */
#include <assert.h>
#include <stdint.h>
#include <stddef.h>
#include "rpcrdma/nfs_ddp.h"
#include "rpcrdma/rpc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rpcrdma_ddp_reply r = { 0 };
	uint32_t written[4], i;
	enum rpcrdma_ddp_result res;

	if (size < 12)
		return 0;
	r.prog = data[0] & 1 ? RPC_PROG_NFS_ACL : RPC_PROG_NFS;
	r.vers = 2 + data[1] % 3;
	r.proc = data[2] % 8;
	r.nchunks = data[3] % 5;
	for (i = 0; i < 4; i++)      /* small lengths, some zero */
		written[i] = data[4 + 2 * i] % 3 ? data[5 + 2 * i] : 0;
	r.written = written;
	res = rpcrdma_ddp_locate_reply(data + 12, size - 12, &r);
	assert(r.nitems <= RPCRDMA_DDP_MAX_ITEMS);
	for (i = 0; i < r.nitems; i++) {
		assert(r.items[i].off <= size - 12);
		assert(r.items[i].chunk < r.nchunks);
		assert(r.items[i].len == written[r.items[i].chunk]);
		assert(i == 0 || r.items[i].chunk > r.items[i - 1].chunk);
	}
	assert(res == RPCRDMA_DDP_OK || r.fault_off <= size - 12);
	return 0;
}
