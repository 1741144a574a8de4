/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fuzz_nfs4_ops.c - libFuzzer target: naming the operations of an NFSv4
 * COMPOUND or CB_COMPOUND (tools/common/nfs4_ops.c) from any argument
 * bytes; the first byte picks the program.  Every named operation must
 * have a name, and never more than NFS4_OPS_MAX.
 */
#include <stdint.h>
#include <stdlib.h>
#include "nfs4_ops.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nfs4_ops o;

	if (size < 1)
		return 0;
	bool cb = data[0] & 1;
	if (nfs4_compound_ops(data + 1, size - 1, cb, &o)) {
		if (o.n == 0 || o.n > NFS4_OPS_MAX)
			abort();
		for (uint32_t i = 0; i < o.n; i++)
			if (!nfs4_op_name(o.ops[i], cb))
				abort();
		if (nfs4_main_op(&o, cb) == NFS4_OP_NONE)
			abort();
	}
	return 0;
}
