/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench_stats.c - the figures of rpcrdma-bench's tables from the samples of
 * one pass: perftest's latency columns (min, max, typical = median, avg,
 * stdev, 99% and 99.9% percentiles), bandwidth (peak, average, calls/s) and
 * where the time goes (paths taken, share of registration and invalidation;
 * the inline threshold question of draft-cel-nfsv4-rpcrdma-version-two-01
 * §2.2).  Pure: no I/O, no clock.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"

static const char *const path_names[BENCH_NPATHS] = {
	[BENCH_PATH_INLINE] = "inline", [BENCH_PATH_READ] = "read",
	[BENCH_PATH_POS0] = "pos0", [BENCH_PATH_WRITE] = "write",
	[BENCH_PATH_REPLY] = "reply",
};

const char *bench_path_name(unsigned p)
{
	return p < BENCH_NPATHS ? path_names[p] : "?";
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

size_t bench_rank(size_t n, unsigned permille)
{
	uint64_t r;

	if (n == 0)
		return 0;
	if (permille > 1000)
		permille = 1000;
	r = ((uint64_t)n * permille + 999) / 1000;
	return r ? (size_t)r - 1 : 0;
}

void bench_lat_stats(uint64_t *rtt, size_t n, struct bench_lat *out)
{
	double sum = 0, var = 0, avg;
	size_t i;

	memset(out, 0, sizeof(*out));
	if (n == 0)
		return;
	qsort(rtt, n, sizeof(*rtt), cmp_u64);
	for (i = 0; i < n; i++)
		sum += (double)rtt[i];
	avg = sum / (double)n;
	for (i = 0; i < n; i++) {
		double d = (double)rtt[i] - avg;

		var += d * d;
	}
	out->min = (double)rtt[0] / 1e3;
	out->max = (double)rtt[n - 1] / 1e3;
	if (n % 2)
		out->typical = (double)rtt[n / 2] / 1e3;
	else
		out->typical = ((double)rtt[n / 2 - 1] + (double)rtt[n / 2]) / 2e3;
	out->avg = avg / 1e3;
	out->stdev = sqrt(var / (double)n) / 1e3;
	out->p99 = (double)rtt[bench_rank(n, 990)] / 1e3;
	out->p999 = (double)rtt[bench_rank(n, 999)] / 1e3;
}

/* bytes/s of `calls` calls over `ns` nanoseconds */
static double rate(double bytes, uint64_t ns)
{
	return ns ? bytes * 1e9 / (double)ns : 0;
}

void bench_bw_stats(const struct bench_sample *s, size_t n,
		    uint64_t bytes_per_call, unsigned window,
		    struct bench_bw *out)
{
	uint64_t *done_max, first, last;
	size_t i, w;
	double best;

	memset(out, 0, sizeof(*out));
	if (n == 0)
		return;
	first = s[0].t_start;
	last = 0;
	for (i = 0; i < n; i++)
		if (s[i].t_done > last)
			last = s[i].t_done;
	if (last <= first)
		return;
	out->avg = rate((double)bytes_per_call * (double)n, last - first);
	out->calls_per_sec = rate((double)n, last - first);
	best = out->avg;
	/* calls are issued in order, so t_start rises with the index; a window
	 * i..i+w-1 ends when the latest of its replies came: the running
	 * maximum of t_done up to i+w-1 bounds that from above (a peak never
	 * overstated) */
	done_max = malloc(n * sizeof(*done_max));
	if (done_max) {
		done_max[0] = s[0].t_done;
		for (i = 1; i < n; i++)
			done_max[i] = s[i].t_done > done_max[i - 1] ?
				      s[i].t_done : done_max[i - 1];
		for (w = window ? window : 1; w < n; w *= 2) {
			for (i = 0; i + w <= n; i++) {
				uint64_t end = done_max[i + w - 1];
				double r;

				if (end <= s[i].t_start)
					continue;
				r = rate((double)bytes_per_call * (double)w,
					 end - s[i].t_start);
				if (r > best)
					best = r;
			}
		}
		free(done_max);
	}
	out->peak = best;
}

void bench_where_stats(const struct bench_sample *s, size_t n,
		       struct bench_where *out)
{
	double rtt = 0, reg = 0, inv = 0, post = 0;
	size_t i;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < n; i++) {
		if (s[i].call_path < BENCH_NPATHS)
			out->call_paths[s[i].call_path]++;
		if (s[i].reply_path < BENCH_NPATHS)
			out->reply_paths[s[i].reply_path]++;
		if (s[i].t_done > s[i].t_start)
			rtt += (double)(s[i].t_done - s[i].t_start);
		if (s[i].t_sent > s[i].t_start)
			post += (double)(s[i].t_sent - s[i].t_start);
		reg += (double)s[i].t_reg;
		inv += (double)s[i].t_inv;
	}
	if (n == 0)
		return;
	out->rtt_avg = rtt / (double)n / 1e3;
	out->post_avg = post / (double)n / 1e3;
	out->reg_avg = reg / (double)n / 1e3;
	out->inv_avg = inv / (double)n / 1e3;
	if (rtt > 0) {
		out->reg_pct = 100.0 * reg / rtt;
		out->inv_pct = 100.0 * inv / rtt;
	}
}

unsigned bench_main_path(const uint64_t counts[BENCH_NPATHS], bool *mixed)
{
	unsigned p, best = 0, kinds = 0;

	for (p = 0; p < BENCH_NPATHS; p++) {
		if (counts[p])
			kinds++;
		if (counts[p] > counts[best])
			best = p;
	}
	if (mixed)
		*mixed = kinds > 1;
	return best;
}

unsigned bench_depth_for(unsigned depth, uint32_t size)
{
	uint64_t fit = BENCH_MAX_INFLIGHT_BYTES / ((uint64_t)size + 64);

	if (fit < 1)
		fit = 1;
	if (depth < 1)
		depth = 1;
	return depth < fit ? depth : (unsigned)fit;
}
