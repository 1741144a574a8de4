/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench_harness.c - drives rpcrdma-bench's statistics and outputs
 * (tools/bench: bench_stats.c, bench_report.c, bench_plot.c) with
 * synthetic samples, so that bench.bats can check the tables, the JSON
 * (with jq) and the plot (with gnuplot) without an RDMA peer.  Built and
 * run by bench.bats.
 *   bench_harness tables|json|plot FILE [SIZES]
 * SIZES: how many sizes from 2^0 (default 21).  Calls of 1024 bytes and
 * more go with a read chunk and a write chunk, as the inline threshold
 * would have it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"

#define ITERS 200

static uint64_t rnd_state = 42;

static uint64_t rnd(void)       /* xorshift64: the same samples every run */
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state;
}

static void synth(struct bench_sample *s, uint32_t size, unsigned depth)
{
	uint64_t t = 1000000000ull, slot_free[16] = { 0 };
	bool chunked = size >= 1024;
	size_t i;

	for (i = 0; i < ITERS; i++) {
		uint64_t rtt = 30000 + (uint64_t)size * 40 + rnd() % 8000;
		unsigned k = (unsigned)(i % depth);

		if (i % 97 == 0)
			rtt *= 3;                  /* a tail */
		if (slot_free[k] > t)
			t = slot_free[k];
		s[i].t_start = t;
		s[i].t_done = t + rtt;
		slot_free[k] = t + rtt;
		s[i].t_sent = t + 9000 + (chunked ? 4000 + size / 100 : 0);
		s[i].t_reg = chunked ? 4000 + size / 100 : 0;
		s[i].t_inv = chunked ? 2000 : 0;
		s[i].call_path = chunked ? BENCH_PATH_READ : BENCH_PATH_INLINE;
		s[i].reply_path = chunked ? BENCH_PATH_WRITE : BENCH_PATH_INLINE;
		t += 1000;
	}
}

static void fill(struct bench_result *r, size_t nsizes)
{
	static struct bench_sample s[ITERS];
	static uint64_t rtt[ITERS];
	size_t i, k;

	memset(r, 0, sizeof(*r));
	snprintf(r->info.server, sizeof(r->info.server), "198.18.0.1:20049");
	snprintf(r->info.device, sizeof(r->info.device), "rxe1");
	r->info.prog = 0x20524d41;
	r->info.prog_vers = 1;
	r->info.proc = "ECHO";
	r->info.rdma_vers = 1;
	r->info.credits = 32;
	r->info.inline_send = r->info.inline_recv = 1024;
	r->info.chunk = "auto";
	r->info.outstanding = 8;
	r->info.busy_poll = true;
	r->info.both_ways = true;
	for (i = 0; i < nsizes && i < BENCH_MAX_SIZES; i++) {
		struct bench_row *w = &r->rows[i];

		w->bytes = 1u << i;
		synth(s, w->bytes, 1);
		for (k = 0; k < ITERS; k++)
			rtt[k] = s[k].t_done - s[k].t_start;
		bench_where_stats(s, ITERS, &w->where);
		bench_lat_stats(rtt, ITERS, &w->lat);
		w->lat_iters = ITERS;
		synth(s, w->bytes, 8);
		bench_bw_stats(s, ITERS, 2ull * w->bytes, 8, &w->bw);
		w->bw_iters = ITERS;
		w->outstanding = 8;
		w->has_lat = w->has_bw = w->has_where = true;
		r->counts.xs.calls_sent += 2 * ITERS + 2;
		r->counts.data_bytes_sent += (2 * ITERS + 2) * (uint64_t)w->bytes;
	}
	r->nrows = i;
	r->counts.xs.calls_sent++;
	r->counts.xs.replies_received = r->counts.xs.calls_sent;
	r->counts.bench_calls = r->counts.xs.calls_sent;
	r->counts.data_bytes_received = r->counts.data_bytes_sent;
}

int main(int argc, char **argv)
{
	static struct bench_result r;
	size_t i, n = argc > 2 ? strtoul(argv[2], NULL, 10) : 21;

	if (argc < 2) {
		fputs("usage: bench_harness tables|json|plot FILE [SIZES]\n", stderr);
		return 2;
	}
	if (strcmp(argv[1], "plot") == 0) {
		if (argc < 3)
			return 2;
		n = argc > 3 ? strtoul(argv[3], NULL, 10) : 21;
	}
	fill(&r, n);
	if (strcmp(argv[1], "json") == 0) {
		bench_write_json(stdout, &r);
		return 0;
	}
	if (strcmp(argv[1], "plot") == 0)
		return bench_plot(&r, argv[2]) ? 1 : 0;
	bench_print_header(stdout, &r.info, "Latency");
	bench_print_lat_head(stdout);
	for (i = 0; i < r.nrows; i++)
		bench_print_lat_row(stdout, &r.rows[i]);
	fputs(BENCH_RESULT_LINE, stdout);
	bench_print_header(stdout, &r.info, "Throughput");
	bench_print_bw_head(stdout, false);
	for (i = 0; i < r.nrows; i++)
		bench_print_bw_row(stdout, &r.rows[i], false);
	fputs(BENCH_RESULT_LINE, stdout);
	bench_print_where(stdout, &r);
	bench_print_counts(stdout, &r);
	return 0;
}
