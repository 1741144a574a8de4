/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench_codec.c - cost of rpcrdma_decode() and rpcrdma_encode() per header
 * for three shapes: a chunkless V1 RDMA_MSG call, a V1 header with 16
 * segments, and a V2 RDMA2_MSG.
 *
 *   bench_codec                 time every case, print ns/header
 *   bench_codec CASE OP N       run one case N times (for callgrind);
 *                               OP: decode, encode, or loop (the harness
 *                               alone, whose cost is subtracted)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "rpcrdma/codec.h"
#include "rpcrdma/rpc.h"

struct bcase {
	const char *name;
	struct rpcrdma_hdr h;
	uint8_t buf[1024];
	size_t hdr_len, len;
};

static struct rpcrdma_segment segs[16];
static struct rpcrdma_read_segment rsegs[8];
static struct rpcrdma_write_chunk wchunks[2];

static void build(struct bcase *c)
{
	c->hdr_len = rpcrdma_encode(&c->h, c->buf, sizeof(c->buf), NULL);
	c->len = c->hdr_len + rpc_encode_call(c->buf + c->hdr_len, 64, c->h.rdma_xid,
					      RPC_PROG_NFS, 3, 1);
}

static void setup(struct bcase cases[3])
{
	unsigned i;

	for (i = 0; i < 16; i++) {
		segs[i].rdma_handle = 0x1000 + i;
		segs[i].rdma_length = 4096;
		segs[i].rdma_offset = 0x7f0000000000ull + i * 4096;
	}
	for (i = 0; i < 8; i++) {
		rsegs[i].rdma_position = 128;
		rsegs[i].rdma_target = segs[i];
	}
	wchunks[0].segs = &segs[8];
	wchunks[0].nsegs = 4;
	wchunks[1].segs = &segs[12];
	wchunks[1].nsegs = 4;

	cases[0].name = "v1-chunkless";
	cases[0].h = (struct rpcrdma_hdr){ .rdma_xid = 0x11223344, .rdma_vers = 1,
					  .rdma_credit = 128, .rdma_proc = RDMA_MSG };
	cases[1].name = "v1-16-segments";
	cases[1].h = (struct rpcrdma_hdr){ .rdma_xid = 0x11223345, .rdma_vers = 1,
					  .rdma_credit = 128, .rdma_proc = RDMA_MSG,
					  .reads = rsegs, .nreads = 8,
					  .writes = wchunks, .nwrites = 2 };
	cases[2].name = "v2-chunkless";
	cases[2].h = (struct rpcrdma_hdr){ .rdma_xid = 0x11223346, .rdma_vers = 2,
					  .rdma_credit = 128, .rdma_proc = RDMA2_MSG,
					  .direction = 0 };
	for (i = 0; i < 3; i++)
		build(&cases[i]);
}

static volatile unsigned sink;

/* op: 0 decode, 1 encode, 2 the loop alone (harness cost, subtracted) */
static void run(struct bcase *c, int op, unsigned long n)
{
	struct rpcrdma_msg m;
	uint8_t out[1024];
	unsigned long i;

	for (i = 0; i < n; i++) {
		if (op == 2) {
			sink += (unsigned)c->len;
		} else if (op == 1) {
			sink += (unsigned)rpcrdma_encode(&c->h, out, sizeof(out), NULL);
		} else {
			rpcrdma_decode(c->buf, c->len, &m);
			sink += m.action;
		}
		__asm__ volatile("" ::: "memory");
	}
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	static struct bcase cases[3];
	unsigned i;

	setup(cases);
	if (argc == 4) {
		for (i = 0; i < 3; i++)
			if (!strcmp(argv[1], cases[i].name))
				run(&cases[i], !strcmp(argv[2], "encode") ? 1 :
					       !strcmp(argv[2], "loop") ? 2 : 0,
				    strtoul(argv[3], NULL, 10));
		return 0;
	}
	printf("%-16s %8s %12s %12s\n", "case", "bytes", "decode ns", "encode ns");
	for (i = 0; i < 3; i++) {
		const unsigned long n = 5000000;
		double t0, t1, t2;

		run(&cases[i], 0, n / 10);       /* warm up */
		t0 = now();
		run(&cases[i], 0, n);
		t1 = now();
		run(&cases[i], 1, n);
		t2 = now();
		printf("%-16s %8zu %12.1f %12.1f\n", cases[i].name, cases[i].hdr_len,
		       (t1 - t0) * 1e9 / n, (t2 - t1) * 1e9 / n);
	}
	return 0;
}
