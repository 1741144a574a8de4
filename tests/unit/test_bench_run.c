/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_bench_run.c - rpcrdma-bench's passes (tools/bench/bench_run.c) over
 * the transport and the in-process fake verbs (tests/transport/fake_verbs),
 * against an ECHO responder in the same process and loop (echo_ulb.h): every
 * --chunk mode takes the path the tables then name, the client's counts
 * equal the server's, -t is cut to the credit grant, NULL calls to another
 * program fail as the reply says, nothing leaks.  No RDMA device needed.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "echo_respond.h"
#include "fake_verbs.h"
#include "tap.h"
#include "xprt.h"

struct srv {
	struct xprt_opts o;
	struct xprt_stats st;          /* the connection's, at its end */
	unsigned conns, null_calls, echo_calls;
	uint64_t echo_bytes;
	bool stats_seen;
};

/* the one ECHO responder (tools/ulb/echo_respond.h); its counts are ours */
static void srv_call(struct xprt_rcvd_call *r, void *arg)
{
	struct srv *s = arg;
	struct echo_resp_stats st = { 0 };
	struct echo_args a;

	echo_respond(r, &a, s->o.credits, &st);
	s->echo_calls += (unsigned)st.echo_calls;
	s->echo_bytes += st.echo_bytes;
	s->null_calls += (unsigned)st.null_calls;
}

static void srv_connect(struct xprt *x, void *arg)
{
	(void)x;
	((struct srv *)arg)->conns++;
}

static void srv_disconnect(struct xprt *x, enum xprt_disc_reason why, void *arg)
{
	struct srv *s = arg;

	(void)why;
	xprt_get_stats(x, &s->st);
	s->stats_seen = true;
}

static int listen_hook(struct xprt_loop *l, void *arg)
{
	static struct xprt_handlers h = {
		.on_call = srv_call, .on_connect = srv_connect,
		.on_disconnect = srv_disconnect,
	};
	struct srv *s = arg;
	struct xprt_error e;

	h.arg = s;
	return xprt_listen_opts(l, &s->o, &h, &e);
}

static void opts_init(struct bench_opts *o, struct srv *s, uint32_t size,
		      enum xprt_chunk_mode mode)
{
	memset(o, 0, sizeof(*o));
	memset(s, 0, sizeof(*s));
	s->o.verbs = &fake_verbs;
	s->o.host = "127.0.0.1";
	s->o.port = "20049";
	s->o.credits = 8;
	o->host = "127.0.0.1";
	o->port = "20049";
	o->sizes[0] = size;
	o->nsizes = 1;
	o->iters = 12;
	o->depth = 4;
	o->chunk = mode;
	o->chunk_name = "test";
	o->lat = o->bw = true;
	o->prog = ECHO_PROG;
	o->vers = ECHO_VERS;
	o->timeout_ms = 5000;
	o->verbs = &fake_verbs;
	o->on_loop = listen_hook;
	o->on_loop_arg = s;
}

static void info_init(struct bench_result *r, const struct bench_opts *o)
{
	memset(r, 0, sizeof(*r));
	r->info.proc = o->null_proc ? "NULL" : "ECHO";
	r->info.chunk = o->chunk_name;
}

static bool no_leaks(void)
{
	struct fake_verbs_live lv;

	fake_verbs_live(&lv);
	return !lv.chans && !lv.ids && !lv.qps && !lv.mrs && !lv.mws;
}

/* the client's counts against the server's record of the connection */
static bool counts_agree(const struct bench_result *r, const struct srv *s)
{
	const struct bench_counts *c = &r->counts;

	if (!s->stats_seen) {
		tap_diag("no server record of the connection");
		return false;
	}
	if (c->xs.calls_sent != s->st.calls_received || c->xs.replies_received != s->st.replies_sent ||
	    c->xs.bytes_sent != s->st.bytes_received || c->xs.bytes_received != s->st.bytes_sent ||
	    c->bench_calls != (uint64_t)s->null_calls + s->echo_calls ||
	    c->data_bytes_sent != s->echo_bytes || c->data_bytes_received != s->echo_bytes) {
		tap_diag("client calls %llu replies %llu bytes %llu/%llu calls made %llu data %llu; "
			 "server calls %llu replies %llu bytes %llu/%llu NULL+ECHO %u data %llu",
			 (unsigned long long)c->xs.calls_sent, (unsigned long long)c->xs.replies_received,
			 (unsigned long long)c->xs.bytes_sent, (unsigned long long)c->xs.bytes_received,
			 (unsigned long long)c->bench_calls, (unsigned long long)c->data_bytes_sent,
			 (unsigned long long)s->st.calls_received,
			 (unsigned long long)s->st.replies_sent,
			 (unsigned long long)s->st.bytes_received,
			 (unsigned long long)s->st.bytes_sent, s->null_calls + s->echo_calls,
			 (unsigned long long)s->echo_bytes);
		return false;
	}
	return true;
}

/* bench_run with what it says on stderr kept in *err (freed by the caller) */
static int run_quiet(const struct bench_opts *o, struct bench_result *r, char **err)
{
	FILE *saved = stderr, *f;
	size_t len = 0;
	int rc;

	*err = NULL;
	f = open_memstream(err, &len);
	if (!f)
		return -1;
	stderr = f;
	rc = bench_run(o, r);
	stderr = saved;
	fclose(f);
	if (*err && len && (*err)[len - 1] == '\n')
		(*err)[len - 1] = 0;
	return rc;
}

static void test_path(const char *name, enum xprt_chunk_mode mode, uint32_t size,
		      enum bench_path call, enum bench_path reply)
{
	static struct bench_result r;
	struct bench_opts o;
	struct srv s;
	const struct bench_row *w = &r.rows[0];
	const struct bench_where *wh = &w->where;
	int rc;

	opts_init(&o, &s, size, mode);
	info_init(&r, &o);
	rc = bench_run(&o, &r);
	tap_ok(rc == 0 && r.nrows == 1 && w->has_lat && w->has_bw && w->lat_iters == 12 &&
	       w->bw_iters == 12, "%s %u B: latency and throughput, 12 calls each", name, size);
	tap_ok(wh->call_paths[call] == 12 && wh->reply_paths[reply] == 12,
	       "%s %u B: every call went %s, every reply came %s (%s/%s)", name, size,
	       bench_path_name(call), bench_path_name(reply),
	       bench_path_name(bench_main_path(wh->call_paths, NULL)),
	       bench_path_name(bench_main_path(wh->reply_paths, NULL)));
	tap_ok(counts_agree(&r, &s) && r.counts.bench_calls == 1 + 2 * (1 + 12),
	       "%s %u B: calls, replies, Send bytes and ECHO bytes equal the server's", name, size);
	tap_ok(w->lat.min <= w->lat.typical && w->lat.typical <= w->lat.p99 &&
	       w->lat.p99 <= w->lat.p999 && w->lat.p999 <= w->lat.max && w->lat.min > 0 &&
	       w->bw.avg > 0 && w->bw.peak >= w->bw.avg && wh->post_avg > 0 &&
	       wh->post_avg < wh->rtt_avg,
	       "%s %u B: figures ordered and positive, the Send posted within the round trip",
	       name, size);
	if (call != BENCH_PATH_INLINE || reply != BENCH_PATH_INLINE)
		tap_ok(wh->reg_avg > 0, "%s %u B: registration time taken", name, size);
	tap_ok(no_leaks(), "%s %u B: no verbs object left", name, size);
	fake_verbs_reset();
}

static void test_credits(void)
{
	static struct bench_result r;
	struct bench_opts o;
	struct srv s;
	char *err;
	int rc;

	opts_init(&o, &s, 64, XPRT_CHUNK_AUTO);
	s.o.credits = 3;
	o.depth = 16;
	info_init(&r, &o);
	rc = run_quiet(&o, &r, &err);
	tap_ok(rc == 0 && r.info.credits == 3 && r.rows[0].outstanding == 3 &&
	       r.counts.xs.max_outstanding <= 3,
	       "-t 16 against 3 credits: 3 outstanding (most seen %u)", r.counts.xs.max_outstanding);
	tap_ok(err && strstr(err, "-t 16: the server granted 3 credits"), "and says so");
	free(err);
	tap_ok(no_leaks(), "credits: no verbs object left");
	fake_verbs_reset();
}

static void test_null_other_program(void)
{
	static struct bench_result r;
	struct bench_opts o;
	struct srv s;
	char *err;
	int rc;

	opts_init(&o, &s, 0, XPRT_CHUNK_AUTO);
	o.null_proc = true;
	o.prog = 100003;
	o.vers = 3;
	info_init(&r, &o);
	rc = run_quiet(&o, &r, &err);
	tap_ok(rc == 1 && r.nrows == 0, "NULL to a program the server lacks: the run fails");
	tap_ok(err && strstr(err, "PROG_UNAVAIL"), "naming the reply (%s)", err ? err : "");
	free(err);
	tap_ok(no_leaks(), "failed run: no verbs object left");
	fake_verbs_reset();
}

static void test_refused(void)
{
	static struct bench_result r;
	struct bench_opts o;
	struct srv s;
	int rc;

	char *err;

	opts_init(&o, &s, 64, XPRT_CHUNK_AUTO);
	o.on_loop = NULL;
	info_init(&r, &o);
	rc = run_quiet(&o, &r, &err);
	tap_ok(rc == 1 && r.nrows == 0 && no_leaks(), "nobody listening: exit status 1, nothing left");
	tap_ok(err && strstr(err, "rpcrdma-bench: ") && strstr(err, "refused"),
	       "and says so (%s)", err ? err : "");
	free(err);
	fake_verbs_reset();
}

static void test_tables_printed(void)
{
	static struct bench_result r;
	struct bench_opts o;
	struct srv s;
	char *out = NULL;
	size_t len = 0;

	opts_init(&o, &s, 4096, XPRT_CHUNK_AUTO);
	o.out = open_memstream(&out, &len);
	info_init(&r, &o);
	bench_run(&o, &r);
	fclose(o.out);
	tap_ok(out && strstr(out, "RPC-over-RDMA ECHO Latency Test") &&
	       strstr(out, "RPC-over-RDMA ECHO Throughput Test") &&
	       strstr(out, " #bytes #iterations    t_min[usec]") &&
	       strstr(out, "BW average[MB/sec]") && strstr(out, "\n 4096 "),
	       "the tables are printed as measured");
	free(out);
	fake_verbs_reset();
}

int main(void)
{
	test_path("inline", XPRT_CHUNK_INLINE, 64, BENCH_PATH_INLINE, BENCH_PATH_INLINE);
	test_path("auto", XPRT_CHUNK_AUTO, 64, BENCH_PATH_INLINE, BENCH_PATH_INLINE);
	test_path("read", XPRT_CHUNK_READ, 8192, BENCH_PATH_READ, BENCH_PATH_WRITE);
	/* forcing a reply path leaves the call to the rules (inline when it
	 * fits), and a reply that fits inline goes inline even when a reply
	 * chunk was offered (the responder's choice, V1 §4.5.3) */
	test_path("write", XPRT_CHUNK_WRITE, 512, BENCH_PATH_INLINE, BENCH_PATH_WRITE);
	test_path("reply", XPRT_CHUNK_REPLY, 512, BENCH_PATH_INLINE, BENCH_PATH_INLINE);
	test_path("reply", XPRT_CHUNK_REPLY, 8192, BENCH_PATH_READ, BENCH_PATH_REPLY);
	test_path("write", XPRT_CHUNK_WRITE, 8192, BENCH_PATH_READ, BENCH_PATH_WRITE);
	test_path("pos0", XPRT_CHUNK_POS0, 8192, BENCH_PATH_POS0, BENCH_PATH_WRITE);
	test_path("auto", XPRT_CHUNK_AUTO, 65536, BENCH_PATH_READ, BENCH_PATH_WRITE);
	test_path("auto", XPRT_CHUNK_AUTO, ECHO_DATA_MAX, BENCH_PATH_READ, BENCH_PATH_WRITE);
	test_credits();
	test_null_other_program();
	test_refused();
	test_tables_printed();
	return tap_done();
}
