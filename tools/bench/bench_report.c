/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench_report.c - rpcrdma-bench's output: perftest's header block and
 * tables (latency: RESULT_FMT_LAT's columns; throughput: RESULT_FMT's plus
 * calls/s), the "where the time goes" table (draft-cel-nfsv4-rpcrdma-
 * version-two-01 §2.2), the counters, and the same figures as one JSON
 * object (man/rpcrdma-bench.1, JSON OUTPUT).  A JSON number is printed with
 * the decimals of its table column, so the two agree to the digit.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "bench.h"
#include "json.h"
#include "live.h"

static const char lat_head[] =
	" #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]"
	"    t_avg[usec]    t_stdev[usec]   99% percentile[usec]"
	"   99.9% percentile[usec] ";
static const char *const lat_cols[] = {
	"#bytes", "#iterations", "t_min", "t_max", "t_typical", "t_avg",
	"t_stdev", "99%", "99.9%",
};
static const char bw_head_mb[] =
	" #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]"
	"   MsgRate[Mpps]   calls/s";
static const char bw_head_gb[] =
	" #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]"
	"   MsgRate[Mpps]   calls/s";
static const char *const bw_cols[] = {
	"#bytes", "#iterations", "BW peak", "BW average", "MsgRate", "calls/s",
};
static const char where_head[] =
	" #bytes     call      reply     t_avg[usec]    post[usec]    reg[usec]"
	"    reg[%]    inv[usec]    inv[%]";
static const char *const where_cols[] = {
	"#bytes", "call", "reply", "t_avg", "post", "reg[usec]", "reg[%]",
	"inv[usec]", "inv[%]",
};

#define NCOLS_MAX 9

/* Prints vals[i] left-aligned under cols[i] of head (at least one space
 * between values, as perftest's rows). */
static void print_row(FILE *f, const char *head, const char *const *cols,
		      size_t ncols, char vals[][32])
{
	size_t i, at = 0;

	for (i = 0; i < ncols; i++) {
		const char *c = strstr(head, cols[i]);
		size_t start = c ? (size_t)(c - head) : at + 1;

		if (start <= at)
			start = at + 1;
		fprintf(f, "%*s%s", (int)(start - at), "", vals[i]);
		at = start + strlen(vals[i]);
	}
	fputc('\n', f);
}

double bench_bw_unit(double bytes_per_sec, bool gbits)
{
	return gbits ? bytes_per_sec * 8 / 1e9 : bytes_per_sec / 1048576.0;
}

static const char *vers_name(uint32_t v)
{
	return v == 1 ? "Version One" : v == 2 ? "Version Two" : "unknown";
}

void bench_print_header(FILE *f, const struct bench_info *in, const char *test)
{
	char prog[40], sz[2][24], depth[16];

	snprintf(prog, sizeof(prog), "%u v%u", in->prog, in->prog_vers);
	snprintf(sz[0], sizeof(sz[0]), "%u[B]", in->inline_send);
	snprintf(sz[1], sizeof(sz[1]), "%u[B]", in->inline_recv);
	snprintf(depth, sizeof(depth), "%u", in->outstanding);
	fputs(BENCH_RESULT_LINE, f);
	fprintf(f, "                    RPC-over-RDMA %s %s Test\n", in->proc, test);
	fprintf(f, " %-15s : %-18s %-15s : %s\n", "Server", in->server,
		"Device", in->device[0] ? in->device : "?");
	fprintf(f, " %-15s : %-18s %-15s : %s\n", "Program", prog,
		"Procedure", in->proc);
	fprintf(f, " %-15s : %-18s %-15s : %u\n", "RPC-over-RDMA",
		vers_name(in->rdma_vers), "Credits granted", in->credits);
	fprintf(f, " %-15s : %-18s %-15s : %s\n", "Inline send", sz[0],
		"Inline receive", sz[1]);
	fprintf(f, " %-15s : %-18s %-15s : %s\n", "Chunks", in->chunk,
		"Outstanding", depth);
	fprintf(f, " %-15s : %s\n", "Completions",
		in->busy_poll ? "busy polling" : "events");
	if (in->duration > 0)
		fprintf(f, " %-15s : %.0f [sec] per size\n", "Duration",
			in->duration);
	fputs(BENCH_RESULT_LINE, f);
}

void bench_print_lat_head(FILE *f)
{
	fprintf(f, "%s\n", lat_head);
}

void bench_print_lat_row(FILE *f, const struct bench_row *r)
{
	char v[NCOLS_MAX][32];
	const double d[] = { r->lat.min, r->lat.max, r->lat.typical,
			     r->lat.avg, r->lat.stdev, r->lat.p99, r->lat.p999 };
	size_t i;

	snprintf(v[0], sizeof(v[0]), "%u", r->bytes);
	snprintf(v[1], sizeof(v[1]), "%llu", (unsigned long long)r->lat_iters);
	for (i = 0; i < 7; i++)
		snprintf(v[2 + i], sizeof(v[0]), "%.2f", d[i]);
	print_row(f, lat_head, lat_cols, 9, v);
}

void bench_print_bw_head(FILE *f, bool gbits)
{
	fprintf(f, "%s\n", gbits ? bw_head_gb : bw_head_mb);
}

void bench_print_bw_row(FILE *f, const struct bench_row *r, bool gbits)
{
	char v[NCOLS_MAX][32];

	snprintf(v[0], sizeof(v[0]), "%u", r->bytes);
	snprintf(v[1], sizeof(v[1]), "%llu", (unsigned long long)r->bw_iters);
	snprintf(v[2], sizeof(v[2]), "%.2f", bench_bw_unit(r->bw.peak, gbits));
	snprintf(v[3], sizeof(v[3]), "%.2f", bench_bw_unit(r->bw.avg, gbits));
	snprintf(v[4], sizeof(v[4]), "%.6f", r->bw.calls_per_sec / 1e6);
	snprintf(v[5], sizeof(v[5]), "%.2f", r->bw.calls_per_sec);
	print_row(f, gbits ? bw_head_gb : bw_head_mb, bw_cols, 6, v);
}

/* "read", or "read*" when not every call took it */
static void path_cell(char *buf, size_t cap, const uint64_t counts[BENCH_NPATHS])
{
	bool mixed;
	unsigned p = bench_main_path(counts, &mixed);

	snprintf(buf, cap, "%s%s", bench_path_name(p), mixed ? "*" : "");
}

void bench_print_where(FILE *f, const struct bench_result *res)
{
	char v[NCOLS_MAX][32];
	bool any_mixed = false;
	size_t i;

	fputs(BENCH_RESULT_LINE, f);
	fputs("                    Where the time goes (per call)\n", f);
	fprintf(f, "%s\n", where_head);
	for (i = 0; i < res->nrows; i++) {
		const struct bench_row *r = &res->rows[i];
		const struct bench_where *w = &r->where;

		if (!r->has_where)
			continue;
		snprintf(v[0], sizeof(v[0]), "%u", r->bytes);
		path_cell(v[1], sizeof(v[1]), w->call_paths);
		path_cell(v[2], sizeof(v[2]), w->reply_paths);
		any_mixed |= strchr(v[1], '*') || strchr(v[2], '*');
		snprintf(v[3], sizeof(v[3]), "%.2f", w->rtt_avg);
		snprintf(v[4], sizeof(v[4]), "%.2f", w->post_avg);
		snprintf(v[5], sizeof(v[5]), "%.2f", w->reg_avg);
		snprintf(v[6], sizeof(v[6]), "%.1f", w->reg_pct);
		snprintf(v[7], sizeof(v[7]), "%.2f", w->inv_avg);
		snprintf(v[8], sizeof(v[8]), "%.1f", w->inv_pct);
		print_row(f, where_head, where_cols, 9, v);
	}
	fputs(" call: how the call went (inline, read chunk, pos0 = RDMA_NOMSG with a\n"
	      " position-zero read chunk); reply: inline, write chunk or reply chunk;\n"
	      " t_avg: the round trip; post: from the call to its Send posted (header,\n"
	      " registration); reg/inv: memory registration and invalidation per call,\n"
	      " and their share of the round trip.\n", f);
	if (any_mixed)
		fputs(" *: the path most calls took; not every call took it (see --json)\n", f);
}

void bench_print_counts(FILE *f, const struct bench_result *res)
{
	const struct bench_counts *n = &res->counts;
	const struct xprt_stats *c = &n->xs;

	fputs(BENCH_RESULT_LINE, f);
	fprintf(f, " %-15s : %llu sent, %llu replies, %llu RDMA_ERROR\n", "Calls",
		(unsigned long long)c->calls_sent,
		(unsigned long long)c->replies_received,
		(unsigned long long)c->errors_received);
	fprintf(f, " %-15s : %llu out, %llu in\n", "Send bytes",
		(unsigned long long)c->bytes_sent,
		(unsigned long long)c->bytes_received);
	fprintf(f, " %-15s : %llu out, %llu in\n", "Data bytes",
		(unsigned long long)n->data_bytes_sent,
		(unsigned long long)n->data_bytes_received);
	fprintf(f, " %-15s : %llu waits, at most %u outstanding\n", "Credits",
		(unsigned long long)c->credit_waits, c->max_outstanding);
	fputs(BENCH_RESULT_LINE, f);
}

/* ---------------------------------------------------------------- JSON */

/* key: a number with `dec` decimals (null when not finite) */
static void kfix(struct json *j, const char *k, double v, int dec)
{
	char buf[64];

	json_key(j, k);
	if (!isfinite(v)) {
		json_null(j);
		return;
	}
	if (fabs(v) < 0.5 * pow(10, -dec))
		v = 0;          /* no "-0.00" */
	snprintf(buf, sizeof(buf), "%.*f", dec, v);
	json_separate(j);
	ob_puts(j->o, buf);
}

static void json_paths(struct json *j, const char *k,
		       const uint64_t counts[BENCH_NPATHS])
{
	unsigned p;

	json_key(j, k);
	json_obj_begin(j);
	for (p = 0; p < BENCH_NPATHS; p++)
		if (counts[p])
			json_ku64(j, bench_path_name(p), counts[p]);
	json_obj_end(j);
}

static void json_info(struct json *j, const struct bench_info *in)
{
	json_kstr(j, "server", in->server);
	json_kstr(j, "device", in->device);
	json_ku64(j, "program", in->prog);
	json_ku64(j, "program_version", in->prog_vers);
	json_kstr(j, "procedure", in->proc);
	json_ku64(j, "rpcrdma_version", in->rdma_vers);
	json_ku64(j, "credits_granted", in->credits);
	json_ku64(j, "inline_send", in->inline_send);
	json_ku64(j, "inline_recv", in->inline_recv);
	json_kstr(j, "chunk", in->chunk);
	json_ku64(j, "outstanding", in->outstanding);
	json_kstr(j, "completions", in->busy_poll ? "busy polling" : "events");
	json_kstr(j, "bw_unit", in->gbits ? "Gb/sec" : "MB/sec");
	json_kbool(j, "bw_both_ways", in->both_ways);
	kfix(j, "duration_sec", in->duration, 0);
}

static void json_lat(struct json *j, const struct bench_row *r)
{
	json_obj_begin(j);
	json_ku64(j, "bytes", r->bytes);
	json_ku64(j, "iterations", r->lat_iters);
	kfix(j, "t_min_usec", r->lat.min, 2);
	kfix(j, "t_max_usec", r->lat.max, 2);
	kfix(j, "t_typical_usec", r->lat.typical, 2);
	kfix(j, "t_avg_usec", r->lat.avg, 2);
	kfix(j, "t_stdev_usec", r->lat.stdev, 2);
	kfix(j, "p99_usec", r->lat.p99, 2);
	kfix(j, "p99_9_usec", r->lat.p999, 2);
	json_obj_end(j);
}

static void json_bw(struct json *j, const struct bench_row *r, bool gbits)
{
	json_obj_begin(j);
	json_ku64(j, "bytes", r->bytes);
	json_ku64(j, "iterations", r->bw_iters);
	json_ku64(j, "outstanding", r->outstanding);
	kfix(j, "bw_peak", bench_bw_unit(r->bw.peak, gbits), 2);
	kfix(j, "bw_average", bench_bw_unit(r->bw.avg, gbits), 2);
	kfix(j, "msg_rate_mpps", r->bw.calls_per_sec / 1e6, 6);
	kfix(j, "calls_per_sec", r->bw.calls_per_sec, 2);
	json_obj_end(j);
}

static void json_where(struct json *j, const struct bench_row *r)
{
	const struct bench_where *w = &r->where;

	json_obj_begin(j);
	json_ku64(j, "bytes", r->bytes);
	json_kstr(j, "call_path", bench_path_name(bench_main_path(w->call_paths, NULL)));
	json_kstr(j, "reply_path", bench_path_name(bench_main_path(w->reply_paths, NULL)));
	json_paths(j, "call_paths", w->call_paths);
	json_paths(j, "reply_paths", w->reply_paths);
	kfix(j, "t_avg_usec", w->rtt_avg, 2);
	kfix(j, "post_usec", w->post_avg, 2);
	kfix(j, "reg_usec", w->reg_avg, 2);
	kfix(j, "reg_pct", w->reg_pct, 1);
	kfix(j, "inv_usec", w->inv_avg, 2);
	kfix(j, "inv_pct", w->inv_pct, 1);
	json_obj_end(j);
}

static void json_counts(struct json *j, const struct bench_counts *c)
{
	json_key(j, "counts");
	json_obj_begin(j);
	live_json_stats(j, &c->xs);          /* the one key set of the tools */
	json_ku64(j, "data_bytes_sent", c->data_bytes_sent);
	json_ku64(j, "data_bytes_received", c->data_bytes_received);
	json_ku64(j, "bench_calls", c->bench_calls);
	json_obj_end(j);
}

/* the three tables, as arrays of their rows: "latency", "throughput",
 * "where" */
enum table { TABLE_LAT, TABLE_BW, TABLE_WHERE };

static void json_table(struct json *j, const struct bench_result *res,
		       enum table t)
{
	static const char *const key[] = { "latency", "throughput", "where" };

	json_key(j, key[t]);
	json_arr_begin(j);
	for (size_t i = 0; i < res->nrows; i++) {
		const struct bench_row *r = &res->rows[i];

		if (t == TABLE_LAT && r->has_lat)
			json_lat(j, r);
		else if (t == TABLE_BW && r->has_bw)
			json_bw(j, r, res->info.gbits);
		else if (t == TABLE_WHERE && r->has_where)
			json_where(j, r);
	}
	json_arr_end(j);
}

void bench_write_json(FILE *f, const struct bench_result *res)
{
	struct obuf o;
	struct json j;
	enum table t;

	ob_init(&o, f);
	json_init(&j, &o);
	json_obj_begin(&j);
	json_kstr(&j, "tool", BENCH_PROG);
	json_info(&j, &res->info);
	json_kbool(&j, "interrupted", res->interrupted);
	for (t = TABLE_LAT; t <= TABLE_WHERE; t++)
		json_table(&j, res, t);
	json_counts(&j, &res->counts);
	json_obj_end(&j);
	ob_putc(&o, '\n');
	ob_flush(&o);
}
