/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_bench.c - rpcrdma-bench's pure parts (tools/bench): perftest's
 * latency figures (nearest-rank percentiles, median, population stdev),
 * bandwidth peak and average, where the time goes, the tables' columns
 * under perftest's headers, JSON agreeing with the tables, and the gnuplot
 * script (quoting, data blocks, terminals).  Expected values are worked
 * out by hand from the definitions in man/rpcrdma-bench.1.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "tap.h"

static bool near(double a, double b)
{
	return fabs(a - b) < 1e-6 * (fabs(b) > 1 ? fabs(b) : 1);
}

static void test_rank(void)
{
	tap_ok(bench_rank(1, 990) == 0 && bench_rank(1, 999) == 0,
	       "rank: one sample is every percentile");
	tap_ok(bench_rank(10, 990) == 9, "rank: 99%% of 10 is the 10th (ceil 9.9)");
	tap_ok(bench_rank(100, 990) == 98, "rank: 99%% of 100 is the 99th");
	tap_ok(bench_rank(1000, 990) == 989 && bench_rank(1000, 999) == 998,
	       "rank: 99%% and 99.9%% of 1000 are the 990th and 999th");
	tap_ok(bench_rank(1001, 999) == 999, "rank: 99.9%% of 1001 is the 1000th (ceil 999.999)");
	tap_ok(bench_rank(5, 1000) == 4 && bench_rank(5, 2000) == 4,
	       "rank: 100%% (and beyond) is the largest");
	tap_ok(bench_rank(0, 990) == 0, "rank: no samples, index 0 (not read)");
}

static void test_lat(void)
{
	struct bench_lat l;
	uint64_t five[] = { 5000, 1000, 4000, 2000, 3000 };
	uint64_t one[] = { 7770 };
	uint64_t *k = malloc(1000 * sizeof(*k));
	size_t i;

	bench_lat_stats(five, 5, &l);
	tap_ok(near(l.min, 1) && near(l.max, 5) && near(l.typical, 3) && near(l.avg, 3),
	       "lat: 1..5 usec unsorted: min 1, max 5, median 3, avg 3");
	tap_ok(near(l.stdev, sqrt(2.0)), "lat: population stdev of 1..5 is sqrt(2) (%.6f)",
	       l.stdev);
	tap_ok(near(l.p99, 5) && near(l.p999, 5), "lat: 99%% and 99.9%% of 5 are the largest");
	tap_ok(five[0] == 1000 && five[4] == 5000, "lat: samples sorted in place");

	/* 1..1000 usec, reversed */
	for (i = 0; i < 1000; i++)
		k[i] = (1000 - i) * 1000;
	bench_lat_stats(k, 1000, &l);
	tap_ok(near(l.typical, 500.5), "lat: median of an even count is the mean of the "
	       "middle two (500.5, got %.3f)", l.typical);
	tap_ok(near(l.avg, 500.5) && near(l.stdev, sqrt((1000.0 * 1000 - 1) / 12)),
	       "lat: avg 500.5, stdev sqrt((n^2-1)/12) (%.4f)", l.stdev);
	tap_ok(near(l.p99, 990) && near(l.p999, 999), "lat: 99%% 990, 99.9%% 999 (%.1f %.1f)",
	       l.p99, l.p999);
	tap_ok(l.min <= l.typical && l.typical <= l.p99 && l.p99 <= l.p999 && l.p999 <= l.max,
	       "lat: min <= typical <= 99%% <= 99.9%% <= max");
	bench_lat_stats(one, 1, &l);
	tap_ok(near(l.min, 7.77) && near(l.max, 7.77) && near(l.p999, 7.77) && l.stdev == 0,
	       "lat: one sample: every figure is it, stdev 0");
	bench_lat_stats(NULL, 0, &l);
	tap_ok(l.min == 0 && l.max == 0 && l.avg == 0, "lat: no samples: zeros");
	free(k);
}

static void sample(struct bench_sample *s, uint64_t start_us, uint64_t done_us)
{
	memset(s, 0, sizeof(*s));
	s->t_start = start_us * 1000 + 1000000000ull;
	s->t_done = done_us * 1000 + 1000000000ull;
}

static void test_bw(void)
{
	struct bench_sample s[4];
	struct bench_bw bw;
	size_t i;

	for (i = 0; i < 4; i++)
		sample(&s[i], i * 1000, (i + 1) * 1000);
	bench_bw_stats(s, 4, 1u << 20, 1, &bw);
	tap_ok(near(bench_bw_unit(bw.avg, false), 1000),
	       "bw: 4 x 1 MiB in 4 ms is 1000 MB/sec (MB = 2^20 bytes, perftest's)");
	tap_ok(near(bw.peak, bw.avg), "bw: steady calls: peak = average");
	tap_ok(near(bw.calls_per_sec, 1000), "bw: 1000 calls/s");
	tap_ok(near(bench_bw_unit(bw.avg, true), 1048576.0 * 1000 * 8 / 1e9),
	       "bw: Gb/sec = bits / 10^9");

	/* two fast calls, then two slow */
	sample(&s[0], 0, 1000);
	sample(&s[1], 1000, 2000);
	sample(&s[2], 2000, 12000);
	sample(&s[3], 12000, 22000);
	bench_bw_stats(s, 4, 1000, 1, &bw);
	tap_ok(near(bw.avg, 4000 / 22e-3), "bw: average over first start .. last reply");
	tap_ok(near(bw.peak, 1000 / 1e-3), "bw: peak is the best window (1 call per ms)");
	bench_bw_stats(s, 4, 1000, 4, &bw);
	tap_ok(near(bw.peak, bw.avg), "bw: a window as wide as the run: peak = average");

	/* replies out of order: call 0's reply comes last */
	sample(&s[0], 0, 9000);
	sample(&s[1], 10, 1000);
	sample(&s[2], 20, 2000);
	sample(&s[3], 30, 3000);
	bench_bw_stats(s, 4, 1000, 2, &bw);
	tap_ok(near(bw.avg, 4000 / 9e-3) && bw.peak >= bw.avg && bw.peak <= 2000 / 2.99e-3,
	       "bw: out-of-order replies: a window ends at its latest reply");
	bench_bw_stats(s, 0, 1000, 1, &bw);
	tap_ok(bw.avg == 0 && bw.peak == 0 && bw.calls_per_sec == 0, "bw: no samples: zeros");
	sample(&s[0], 5, 5);
	bench_bw_stats(s, 1, 1000, 1, &bw);
	tap_ok(bw.avg == 0 && bw.peak == 0, "bw: zero elapsed time: zeros, no division by 0");
}

static void test_where(void)
{
	struct bench_sample s[4];
	struct bench_where w;
	bool mixed;
	size_t i;

	for (i = 0; i < 4; i++) {
		sample(&s[i], 0, 100);
		s[i].t_sent = s[i].t_start + 20000;
		s[i].t_reg = 10000;
		s[i].t_inv = 5000;
		s[i].call_path = BENCH_PATH_READ;
		s[i].reply_path = i == 3 ? BENCH_PATH_REPLY : BENCH_PATH_WRITE;
	}
	bench_where_stats(s, 4, &w);
	tap_ok(near(w.rtt_avg, 100) && near(w.reg_avg, 10) && near(w.inv_avg, 5) &&
	       near(w.post_avg, 20), "where: per-call averages in usec");
	tap_ok(near(w.reg_pct, 10) && near(w.inv_pct, 5), "where: shares of the round trip");
	tap_ok(w.call_paths[BENCH_PATH_READ] == 4 && w.reply_paths[BENCH_PATH_WRITE] == 3 &&
	       w.reply_paths[BENCH_PATH_REPLY] == 1, "where: paths counted");
	tap_ok(bench_main_path(w.call_paths, &mixed) == BENCH_PATH_READ && !mixed,
	       "where: one call path, not mixed");
	tap_ok(bench_main_path(w.reply_paths, &mixed) == BENCH_PATH_WRITE && mixed,
	       "where: the reply path most took, mixed");
	tap_ok(strcmp(bench_path_name(BENCH_PATH_POS0), "pos0") == 0 &&
	       strcmp(bench_path_name(99), "?") == 0, "where: path names");
	tap_ok(bench_depth_for(32, 1 << 20) == 32 && bench_depth_for(32, 8 << 20) == 7 &&
	       bench_depth_for(0, 0) == 1 && bench_depth_for(1000, 1 << 20) == 63,
	       "depth: call buffers in flight stay within 64 MiB");
}

/* the column of the first occurrence of `label` in line */
static long col_of(const char *line, const char *label)
{
	const char *p = strstr(line, label);

	return p ? p - line : -1;
}

/* the column where the n-th whitespace-separated field of line starts */
static long field_col(const char *line, int n)
{
	const char *p = line;
	int i = -1;

	while (*p) {
		while (*p == ' ')
			p++;
		if (!*p || *p == '\n')
			break;
		if (++i == n)
			return p - line;
		while (*p && *p != ' ' && *p != '\n')
			p++;
	}
	return -1;
}

static struct bench_result *sample_result(void)
{
	static struct bench_result r;
	struct bench_row *w;

	memset(&r, 0, sizeof(r));
	snprintf(r.info.server, sizeof(r.info.server), "198.18.0.1:20049");
	snprintf(r.info.device, sizeof(r.info.device), "rxe1");
	r.info.prog = 0x20524d41;
	r.info.prog_vers = 1;
	r.info.proc = "ECHO";
	r.info.rdma_vers = 1;
	r.info.credits = 32;
	r.info.inline_send = r.info.inline_recv = 1024;
	r.info.chunk = "auto";
	r.info.outstanding = 16;
	r.info.both_ways = true;
	r.nrows = 2;
	w = &r.rows[0];
	w->bytes = 2;
	w->has_lat = w->has_bw = w->has_where = true;
	w->lat_iters = 1000;
	w->lat = (struct bench_lat){ 29.31, 226.04, 49.9, 52.126, 11.0049, 99.994, 200.006 };
	w->bw_iters = 1000;
	w->outstanding = 16;
	w->bw = (struct bench_bw){ 2 * 1048576.0, 1048576.0, 12345.678 };
	w->where.call_paths[BENCH_PATH_INLINE] = 1000;
	w->where.reply_paths[BENCH_PATH_INLINE] = 1000;
	w->where.rtt_avg = 52.126;
	w = &r.rows[1];
	w->bytes = 1048576;
	w->has_lat = w->has_bw = w->has_where = true;
	w->lat_iters = 100;
	w->lat = (struct bench_lat){ 1000, 3000, 1500, 1600, 100, 2900, 3000 };
	w->bw_iters = 100;
	w->outstanding = 16;
	w->bw = (struct bench_bw){ 50 * 1048576.0, 40 * 1048576.0, 20 };
	w->where.call_paths[BENCH_PATH_READ] = 100;
	w->where.reply_paths[BENCH_PATH_WRITE] = 99;
	w->where.reply_paths[BENCH_PATH_REPLY] = 1;
	w->where.rtt_avg = 1600;
	w->where.reg_avg = 160;
	w->where.post_avg = 170;
	w->where.reg_pct = 10;
	r.counts.xs.calls_sent = 2203;
	r.counts.xs.replies_received = 2203;
	return &r;
}

static char *capture(void (*fn)(FILE *, const struct bench_result *),
		     const struct bench_result *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	fn(f, r);
	fclose(f);
	return buf;
}

static void print_tables(FILE *f, const struct bench_result *r)
{
	bench_print_lat_head(f);
	bench_print_lat_row(f, &r->rows[0]);
	bench_print_bw_head(f, false);
	bench_print_bw_row(f, &r->rows[1], false);
}

static void test_tables(void)
{
	static const char *const lat_labels[] = {
		"#bytes", "#iterations", "t_min", "t_max", "t_typical", "t_avg",
		"t_stdev", "99%", "99.9%",
	};
	static const char *const bw_labels[] = {
		"#bytes", "#iterations", "BW peak", "BW average", "MsgRate", "calls/s",
	};
	struct bench_result *r = sample_result();
	char *out = capture(print_tables, r), *line[4], *save = NULL, *p;
	bool cols_ok = true;
	int i;

	line[0] = strtok_r(out, "\n", &save);
	for (i = 1; i < 4; i++)
		line[i] = strtok_r(NULL, "\n", &save);
	tap_ok(line[3] != NULL, "tables: two heads and two rows");
	if (!line[3]) {
		free(out);
		return;
	}
	tap_ok(strcmp(line[0], " #bytes #iterations    t_min[usec]    t_max[usec]  "
		      "t_typical[usec]    t_avg[usec]    t_stdev[usec]   99% percentile[usec]"
		      "   99.9% percentile[usec] ") == 0, "tables: perftest's latency head");
	for (i = 0; i < 9; i++)
		cols_ok &= field_col(line[1], i) == col_of(line[0], lat_labels[i]);
	tap_ok(cols_ok, "tables: each latency figure starts under its column");
	tap_ok(strstr(line[1], " 2 ") == line[1] && strstr(line[1], "1000") &&
	       strstr(line[1], "29.31") && strstr(line[1], "226.04") &&
	       strstr(line[1], "49.90") && strstr(line[1], "52.13") &&
	       strstr(line[1], "11.00") && strstr(line[1], "99.99") &&
	       strstr(line[1], "200.01") && field_col(line[1], 9) < 0,
	       "tables: latency row: nine figures, two decimals");
	tap_ok(strncmp(line[2], " #bytes     #iterations    BW peak[MB/sec]    "
		       "BW average[MB/sec]   MsgRate[Mpps]", 78) == 0 &&
	       strstr(line[2], "calls/s"), "tables: perftest's throughput head plus calls/s");
	cols_ok = true;
	for (i = 0; i < 6; i++)
		cols_ok &= field_col(line[3], i) == col_of(line[2], bw_labels[i]);
	tap_ok(cols_ok, "tables: each throughput figure starts under its column");
	p = line[3];
	tap_ok(strstr(p, "1048576") && strstr(p, "50.00") && strstr(p, "40.00") &&
	       strstr(p, "0.000020") && strstr(p, "20.00"),
	       "tables: throughput row: MB/sec, Mpps with 6 decimals, calls/s");
	free(out);
	{
		char *w = capture(bench_print_where, r);

		tap_ok(strstr(w, "inline") && strstr(w, "read ") && strstr(w, "write*") &&
		       strstr(w, "10.0") && strstr(w, "170.00") && strstr(w, "post[usec]") &&
		       strstr(w, "not every call took it"),
		       "where: paths, mixed marked with *, registration share");
		free(w);
	}
}

static void test_json(void)
{
	struct bench_result *r = sample_result();
	char *j;
	int depth = 0, min_depth = 0;
	size_t i;

	r->rows[0].lat.stdev = NAN;
	j = capture(bench_write_json, r);
	for (i = 0; j[i]; i++) {
		depth += j[i] == '{' || j[i] == '[';
		depth -= j[i] == '}' || j[i] == ']';
		if (depth < min_depth)
			min_depth = depth;
	}
	tap_ok(depth == 0 && min_depth == 0 && j[0] == '{' && j[i - 1] == '\n',
	       "json: one balanced object and a newline");
	tap_ok(strstr(j, "\"t_typical_usec\":49.90") && strstr(j, "\"t_avg_usec\":52.13") &&
	       strstr(j, "\"p99_9_usec\":200.01") && strstr(j, "\"p99_usec\":99.99"),
	       "json: latency figures with the table's two decimals");
	tap_ok(strstr(j, "\"t_stdev_usec\":null") != NULL, "json: a figure that is not finite is null");
	tap_ok(strstr(j, "\"bw_average\":40.00") && strstr(j, "\"msg_rate_mpps\":0.000020") &&
	       strstr(j, "\"calls_per_sec\":20.00") && strstr(j, "\"bw_unit\":\"MB/sec\""),
	       "json: throughput figures as in the table");
	tap_ok(strstr(j, "\"reply_paths\":{\"write\":99,\"reply\":1}") &&
	       strstr(j, "\"call_path\":\"read\"") && strstr(j, "\"reg_pct\":10.0") &&
	       strstr(j, "\"post_usec\":170.00"),
	       "json: where the time goes, every path counted");
	tap_ok(strstr(j, "\"calls_sent\":2203") && strstr(j, "\"server\":\"198.18.0.1:20049\""),
	       "json: counts and the header block");
	free(j);
}

static void script(FILE *f, const struct bench_result *r)
{
	bench_plot_script(f, r, "o'dd\nname.svg", BENCH_PLOT_SVG);
}

static void script_png(FILE *f, const struct bench_result *r)
{
	bench_plot_script(f, r, "x.png", BENCH_PLOT_PNG);
}

static void test_plot(void)
{
	struct bench_result *r = sample_result();
	char *s = capture(script, r), *p;

	tap_ok(bench_plot_kind("a.svg") == BENCH_PLOT_SVG &&
	       bench_plot_kind("a.png") == BENCH_PLOT_PNG &&
	       bench_plot_kind("a.gp") == BENCH_PLOT_SCRIPT &&
	       bench_plot_kind("a.pdf") < 0 && bench_plot_kind(".svg") < 0,
	       "plot: the kind from the file name");
	tap_ok(strstr(s, "set output 'o''dd?name.svg'\n") != NULL,
	       "plot: the file name quoted for gnuplot, no newline let through");
	tap_ok(strstr(s, "set terminal svg") != NULL, "plot: svg terminal");
	p = strstr(s, "$lat << EOD\n");
	tap_ok(p && strncmp(p + 12, "2 49.90 99.99 0\n1048576 1500.00 2900.00 1\nEOD\n", 44) == 0,
	       "plot: latency data: size, median, 99%%, chunked");
	p = strstr(s, "$bw << EOD\n");
	tap_ok(p && strstr(p, "1048576 40.00 50.00 1\n"), "plot: bandwidth data");
	tap_ok(strstr(s, "set multiplot layout 2,1") && strstr(s, "inline threshold 1024 B") &&
	       strstr(s, "title 'chunked'") && strstr(s, "set logscale x 2"),
	       "plot: two panels, log2 sizes, inline threshold, chunked marked");
	free(s);
	s = capture(script_png, r);
	tap_ok(strstr(s, "set terminal pngcairo") != NULL, "plot: png through cairo");
	free(s);
	r->rows[0].has_bw = r->rows[1].has_bw = false;
	s = capture(script_png, r);
	tap_ok(strstr(s, "set multiplot layout 1,1") && !strstr(s, "bandwidth ["),
	       "plot: latency only: one panel");
	free(s);
}

int main(void)
{
	test_rank();
	test_lat();
	test_bw();
	test_where();
	test_tables();
	test_json();
	test_plot();
	return tap_done();
}
