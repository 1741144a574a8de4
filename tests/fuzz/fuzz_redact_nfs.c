/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fuzz_redact_nfs.c - libFuzzer target: the NFS result walkers of
 * rpcrdma-decode --redact (tools/capture/cap_redact_rpc.c: READDIR and
 * READDIRPLUS of NFSv3, NFSv4 COMPOUND results with READDIR), which whole
 * capture files (fuzz_cap_redact) seldom reach.  The first input byte
 * picks the call the reply answers (NFSv3 READDIR, READDIRPLUS, LOOKUP,
 * NFSv4 COMPOUND, CB_COMPOUND), the rest is the RPC reply, redacted in a
 * buffer of exactly its length (the copy aside too), so that a read past
 * it faults (ASan).  Checked besides: the length and the xid stay, and
 * the same input gives the same bytes.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "cap_redact.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const struct { uint32_t prog, vers, proc; } calls[] = {
	{ 100003, 3, 16 }, { 100003, 3, 17 }, { 100003, 3, 3 },
	{ 100003, 4, 1 }, { 0x40000000, 1, 1 },
};

static void one(struct rdx *x, uint32_t pick, const uint8_t *m, size_t n,
		uint8_t *out)
{
	memcpy(out, m, n);
	x->orig = malloc(n ? n : 1);
	if (!x->orig)
		abort();
	uint32_t xid = n >= 4 ? (uint32_t)m[0] << 24 | (uint32_t)m[1] << 16 |
			       (uint32_t)m[2] << 8 | m[3] : 0;
	x->calls[xid % RDX_CALLS] = (struct rdx_call){ xid, calls[pick].prog,
		calls[pick].vers, calls[pick].proc, true };
	rdx_rpc(x, out, (uint32_t)n);
	free(x->orig);
	x->orig = NULL;
	if (n >= 4 && memcmp(out, m, 4))
		abort();                   /* the xid stays */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint8_t key[16] = { 0x5a, 1, 2, 3 };
	static struct rdx_call table[RDX_CALLS];
	struct rdx x;

	if (size < 1 || size - 1 > RDX_MAX_SEND)
		return 0;
	memset(&x, 0, sizeof(x));
	memset(table, 0, sizeof(table));
	x.calls = table;
	x.map = rdx_map_new(key);
	uint8_t *a = malloc(size), *b = malloc(size);
	if (!x.map || !a || !b)
		abort();
	uint32_t pick = data[0] % (sizeof(calls) / sizeof(calls[0]));
	one(&x, pick, data + 1, size - 1, a);
	rdx_map_free(x.map);
	x.map = rdx_map_new(key);          /* a fresh map: the same numbers */
	if (!x.map)
		abort();
	one(&x, pick, data + 1, size - 1, b);
	if (memcmp(a, b, size - 1))
		abort();
	rdx_map_free(x.map);
	free(a);
	free(b);
	return 0;
}
