/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_ping.c - unit tests of rpcrdma-ping's pure parts: statistics
 * (min/avg/max/mdev, nearest-rank p50/p99), loss and exit status, option
 * and program-name parsing, RPC reply verdicts (replies written out by hand
 * from RFC 5531 §9's XDR), the output lines, and the inline-threshold
 * search against simulated peers.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ping.h"
#include "ping_nfs41.h"
#include "rpcrdma/rpc.h"
#include "tap.h"

/* -------- statistics -------- */

static void test_stats(void)
{
	struct ping_stats s;
	struct ping_summary m;
	uint64_t i;

	ping_stats_init(&s);
	s.sent = 4;
	ping_stats_add(&s, 40);
	ping_stats_add(&s, 10);
	ping_stats_add(&s, 30);
	ping_stats_add(&s, 20);
	ping_stats_summary(&s, &m);
	tap_ok(m.min == 10 && m.max == 40, "min 10 max 40 (%llu %llu)",
	       (unsigned long long)m.min, (unsigned long long)m.max);
	tap_ok(fabs(m.avg - 25.0) < 1e-9, "avg 25 (%g)", m.avg);
	/* population deviation: sqrt((225+25+25+225)/4) = sqrt(125) */
	tap_ok(fabs(m.mdev - sqrt(125.0)) < 1e-9, "mdev sqrt(125) (%g)", m.mdev);
	tap_ok(m.p50 == 20, "p50 of 4 is the 2nd (%llu)", (unsigned long long)m.p50);
	tap_ok(m.p99 == 40, "p99 of 4 is the 4th (%llu)", (unsigned long long)m.p99);
	tap_ok(m.loss_pct == 0.0 && m.have_rtt, "no loss");
	ping_stats_free(&s);

	ping_stats_init(&s);
	for (i = 100; i >= 1; i--)
		ping_stats_add(&s, i * 1000);
	s.sent = 100;
	ping_stats_summary(&s, &m);
	tap_ok(m.p50 == 50000 && m.p99 == 99000,
	       "1..100 in reverse: p50 50, p99 99 (%llu %llu)",
	       (unsigned long long)m.p50, (unsigned long long)m.p99);
	ping_stats_free(&s);

	ping_stats_init(&s);
	for (i = 1; i <= 200; i++)
		ping_stats_add(&s, i);
	s.sent = 200;
	ping_stats_summary(&s, &m);
	tap_ok(m.p50 == 100 && m.p99 == 198, "1..200: p50 100, p99 198 (%llu %llu)",
	       (unsigned long long)m.p50, (unsigned long long)m.p99);
	tap_ok(m.min <= m.p50 && m.p50 <= m.p99 && m.p99 <= m.max,
	       "min <= p50 <= p99 <= max");
	ping_stats_free(&s);

	ping_stats_init(&s);
	s.sent = 1;
	ping_stats_add(&s, 777);
	ping_stats_summary(&s, &m);
	tap_ok(m.p50 == 777 && m.p99 == 777 && m.mdev == 0.0 && m.avg == 777.0,
	       "one sample: every statistic is it");
	ping_stats_free(&s);

	/* large values, small spread: no cancellation */
	ping_stats_init(&s);
	s.sent = 3;
	ping_stats_add(&s, 1000000000001ull);
	ping_stats_add(&s, 1000000000002ull);
	ping_stats_add(&s, 1000000000003ull);
	ping_stats_summary(&s, &m);
	tap_ok(fabs(m.mdev - sqrt(2.0 / 3.0)) < 1e-3, "mdev of 1e12+{1,2,3} (%g)",
	       m.mdev);
	ping_stats_free(&s);

	ping_stats_init(&s);
	s.sent = 3;
	ping_stats_add(&s, 5);
	ping_stats_add(&s, 6);
	ping_stats_summary(&s, &m);
	tap_ok(fabs(m.loss_pct - 100.0 / 3.0) < 1e-9, "1 of 3 lost: 33.3%%");
	tap_ok(ping_exit_status(&m, false) == 0, "replies came: exit 0");
	tap_ok(ping_exit_status(&m, true) == 1, "connection lost at the end: exit 1");
	ping_stats_free(&s);

	ping_stats_init(&s);
	s.sent = 5;
	s.errors = 5;
	ping_stats_summary(&s, &m);
	tap_ok(!m.have_rtt && m.loss_pct == 100.0 && ping_exit_status(&m, false) == 1,
	       "only errors: 100%% loss, no rtt, exit 1");
	ping_stats_free(&s);

	ping_stats_init(&s);
	ping_stats_summary(&s, &m);
	tap_ok(m.loss_pct == 0.0 && ping_exit_status(&m, false) == 1,
	       "nothing sent: exit 1");
	uint64_t one = 9;
	tap_ok(ping_percentile(&one, 1, 0) == 9 && ping_percentile(NULL, 0, 50) == 0,
	       "percentile edge cases");
}

/* -------- parsing -------- */

static void test_program_names(void)
{
	static const struct { const char *s; bool ok; uint32_t prog; } t[] = {
		{ "nfs", true, 100003 }, { "NFS", true, 100003 },
		{ "nfs-cb", true, 0x40000000u }, { "mount", true, 100005 },
		{ "nlm", true, 100021 }, { "echo", true, 0x20524d41u },
		{ "portmap", true, 100000 }, { "100003", true, 100003 },
		{ "0x186a3", true, 100003 }, { "4294967295", true, 0xffffffffu },
		{ "4294967296", false, 0 }, { "-1", false, 0 }, { "", false, 0 },
		{ "nfsx", false, 0 }, { "12a", false, 0 }, { "0x", false, 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		uint32_t p = 0;
		bool ok = ping_parse_program(t[i].s, &p);

		tap_ok(ok == t[i].ok && (!ok || p == t[i].prog),
		       "program '%s' -> %s %u", t[i].s, ok ? "ok" : "bad", p);
	}
	tap_ok(ping_default_version(100003) == 3 && ping_default_version(0x20524d41u) == 1 &&
	       ping_default_version(100021) == 4 && ping_default_version(0x40000000u) == 1 &&
	       ping_default_version(12345) == 0, "default versions");
}

static void test_seconds(void)
{
	static const struct { const char *s; bool ok; uint64_t us; } t[] = {
		{ "0.2", true, 200000 }, { "5", true, 5000000 }, { "0", true, 0 },
		{ "1.000001", true, 1000001 }, { ".5", true, 500000 },
		{ "1.", true, 1000000 }, { "3600", true, 3600000000ull },
		{ "1.0000001", false, 0 }, { "3600.000001", false, 0 },
		{ "3601", false, 0 }, { "99999999999999999999", false, 0 },
		{ "", false, 0 }, { ".", false, 0 }, { "-1", false, 0 },
		{ "1s", false, 0 }, { "1,5", false, 0 }, { " 1", false, 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		uint64_t us = 0;
		bool ok = ping_parse_seconds(t[i].s, 3600000000ull, &us);

		tap_ok(ok == t[i].ok && (!ok || us == t[i].us), "seconds '%s' -> %s %llu",
		       t[i].s, ok ? "ok" : "bad", (unsigned long long)us);
	}
}

/* runs the parser on a NULL-terminated list; captures both streams */
static int parse(struct ping_opts *o, char *out, size_t cap, const char *a0, ...)
{
	char *argv[16];
	int argc = 0, rc;
	va_list ap;
	FILE *f = fmemopen(out, cap, "w"), *saved = stderr;
	const char *a;

	argv[argc++] = (char *)"rpcrdma-ping";
	argv[argc++] = (char *)a0;
	va_start(ap, a0);
	while (argc < 15 && (a = va_arg(ap, const char *)))
		argv[argc++] = (char *)a;
	va_end(ap);
	argv[argc] = NULL;
	if (!a0)
		argc = 1;
	memset(out, 0, cap);
	stderr = f;
	rc = ping_parse_args(argc, argv, o, f);
	stderr = saved;
	fclose(f);
	return rc;
}

static void test_args(void)
{
	struct ping_opts o;
	char out[4096];
	int rc;

	rc = parse(&o, out, sizeof(out), "host", NULL);
	tap_ok(rc == -1 && !strcmp(o.host, "host") && !strcmp(o.port, "20049") &&
	       o.prog == 100003 && o.vers == 3 && o.proc == 0 && o.count == 0 &&
	       o.interval_us == 1000000 && o.timeout_us == 5000000 && !o.json,
	       "defaults: port 20049, NFS v3, 1 s, 5 s, forever");
	rc = parse(&o, out, sizeof(out), "-P", "echo", "-c", "3", "-i", "0.01",
		   "-W", "2.5", "-p", "20050", "-q", "--json", "h", NULL);
	tap_ok(rc == -1 && o.prog == 0x20524d41u && o.vers == 1 && o.count == 3 &&
	       o.interval_us == 10000 && o.timeout_us == 2500000 &&
	       !strcmp(o.port, "20050") && o.quiet && o.json, "every option");
	rc = parse(&o, out, sizeof(out), "-P", "100003", "-V", "4", "h", NULL);
	tap_ok(rc == -1 && o.vers == 4 && o.have_vers, "-V 4");
	rc = parse(&o, out, sizeof(out), NULL);
	tap_ok(rc == 2 && strstr(out, "no HOST given") && strstr(out, "--help"),
	       "no host: usage error with a hint (%s)", out);
	rc = parse(&o, out, sizeof(out), "a", "b", NULL);
	tap_ok(rc == 2 && strstr(out, "unexpected argument 'b'"), "two hosts");
	rc = parse(&o, out, sizeof(out), "-c", "0", "h", NULL);
	tap_ok(rc == 2 && strstr(out, "-c: '0'"), "-c 0 refused");
	rc = parse(&o, out, sizeof(out), "-W", "0", "h", NULL);
	tap_ok(rc == 2 && strstr(out, "-W: '0'"), "-W 0 refused");
	rc = parse(&o, out, sizeof(out), "-p", "65536", "h", NULL);
	tap_ok(rc == 2, "-p 65536 refused");
	rc = parse(&o, out, sizeof(out), "-P", "99999", "h", NULL);
	tap_ok(rc == 2 && strstr(out, "give -V"), "an unknown program needs -V");
	rc = parse(&o, out, sizeof(out), "-P", "99999", "-V", "1", "h", NULL);
	tap_ok(rc == -1 && o.prog == 99999 && o.vers == 1, "unknown program with -V");
	rc = parse(&o, out, sizeof(out), "-P", "bogus", "h", NULL);
	tap_ok(rc == 2 && strstr(out, "neither a number"), "-P bogus");
	rc = parse(&o, out, sizeof(out), "--bogus", "h", NULL);
	tap_ok(rc == 2 && strstr(out, "'--bogus'"), "unknown long option");
	rc = parse(&o, out, sizeof(out), "-c", NULL);
	tap_ok(rc == 2 && strstr(out, "-c needs a value"), "missing value");
	rc = parse(&o, out, sizeof(out), "--help", NULL);
	tap_ok(rc == 0 && strstr(out, "Usage: rpcrdma-ping"), "--help");
	rc = parse(&o, out, sizeof(out), "--version", NULL);
	tap_ok(rc == 0 && !strncmp(out, "rpcrdma-ping (rpcrdma-tools) ", 29), "--version");
	rc = parse(&o, out, sizeof(out), "--probe", "--probe-inline", "h", NULL);
	tap_ok(rc == -1 && o.probe && o.probe_inline, "--probe --probe-inline");
}

/* -------- RPC replies -------- */

static size_t words(uint8_t *b, const uint32_t *w, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		b[4 * i] = (uint8_t)(w[i] >> 24);
		b[4 * i + 1] = (uint8_t)(w[i] >> 16);
		b[4 * i + 2] = (uint8_t)(w[i] >> 8);
		b[4 * i + 3] = (uint8_t)w[i];
	}
	return 4 * n;
}

static void test_rpc(void)
{
	/* RFC 5531 §9: xid, REPLY(1), MSG_ACCEPTED(0), verf AUTH_NONE(0,0), stat */
	static const uint32_t ok[] = { 7, 1, 0, 0, 0, 0 };
	static const uint32_t unavail[] = { 7, 1, 0, 0, 0, 1 };
	static const uint32_t mism[] = { 7, 1, 0, 0, 0, 2, 2, 4 };
	static const uint32_t proc[] = { 7, 1, 0, 0, 0, 3 };
	/* MSG_DENIED(1), RPC_MISMATCH(0) low high; AUTH_ERROR(1) auth_stat */
	static const uint32_t rpcmism[] = { 7, 1, 1, 0, 2, 2 };
	static const uint32_t auth[] = { 7, 1, 1, 1, 5 };
	static const uint32_t call[] = { 7, 0, 2, 100003, 3, 0, 0, 0, 0, 0 };
	uint8_t b[64];
	struct ping_rpc_result r;
	size_t n;

	n = words(b, ok, 6);
	ping_rpc_judge(b, n, 7, &r);
	tap_ok(r.status == PING_RPC_SUCCESS && r.body_off == 24, "SUCCESS, results at 24");
	ping_rpc_judge(b, n, 8, &r);
	tap_ok(r.status == PING_RPC_XID_MISMATCH && r.xid == 7, "xid mismatch");
	ping_rpc_judge(b, n - 1, 7, &r);
	tap_ok(r.status == PING_RPC_MALFORMED, "truncated: malformed");
	ping_rpc_judge(NULL, 0, 7, &r);
	tap_ok(r.status == PING_RPC_MALFORMED, "no reply bytes: malformed");
	n = words(b, unavail, 6);
	ping_rpc_judge(b, n, 7, &r);
	tap_ok(r.status == PING_RPC_PROG_UNAVAIL, "PROG_UNAVAIL");
	n = words(b, mism, 8);
	ping_rpc_judge(b, n, 7, &r);
	tap_ok(r.status == PING_RPC_PROG_MISMATCH && r.low == 2 && r.high == 4,
	       "PROG_MISMATCH 2..4");
	n = words(b, proc, 6);
	ping_rpc_judge(b, n, 7, &r);
	tap_ok(r.status == PING_RPC_PROC_UNAVAIL, "PROC_UNAVAIL");
	n = words(b, rpcmism, 6);
	ping_rpc_judge(b, n, 7, &r);
	tap_ok(r.status == PING_RPC_RPC_MISMATCH && r.low == 2 && r.high == 2,
	       "RPC_MISMATCH 2..2");
	n = words(b, auth, 5);
	ping_rpc_judge(b, n, 7, &r);
	tap_ok(r.status == PING_RPC_AUTH_ERROR && r.stat == 5, "AUTH_ERROR 5");
	n = words(b, call, 10);
	ping_rpc_judge(b, n, 7, &r);
	tap_ok(r.status == PING_RPC_NOT_REPLY, "a call is not a reply");
	tap_ok(!strcmp(ping_rpc_status_name(PING_RPC_PROG_MISMATCH), "PROG_MISMATCH") &&
	       !strcmp(ping_rpc_status_name((enum ping_rpc_status)99), "unknown"),
	       "status names");

	uint8_t c[64], want[48];
	static const uint32_t want_w[] = { 0, 0, 2, 100003, 3, 0, 0, 0, 0, 0, 0, 0 };

	memset(c, 0xee, sizeof(c));
	n = ping_rpc_call(c, sizeof(c), 100003, 3, 0, 8);
	words(want, want_w, 12);
	tap_ok(n == 48 && !memcmp(c, want, 48), "NULL call with 8 bytes of padding");
	tap_ok(ping_rpc_call(c, 47, 100003, 3, 0, 8) == 0 &&
	       ping_rpc_call(c, 39, 100003, 3, 0, 0) == 0, "short buffers refused");
}

/* -------- output -------- */

static char *capture_buf;
static size_t capture_len;

static FILE *capture_open(void)
{
	free(capture_buf);
	capture_buf = NULL;
	return open_memstream(&capture_buf, &capture_len);
}

static void test_output(void)
{
	static const struct { uint64_t ns; const char *s; } us[] = {
		{ 38412, "38.4" }, { 38450, "38.5" }, { 38449, "38.4" }, { 0, "0.0" },
		{ 49, "0.0" }, { 50, "0.1" }, { 999950, "1000.0" },
	};
	struct ping_out p;
	struct ping_target t = { .host = "server", .addr = "198.18.0.1:20049",
				 .device = "rxe1", .prog = 100003, .vers = 3 };
	struct ping_reply r = { .seq = 1, .xid = 0x5f3a01c2, .vers = 1, .credits = 64,
				.rtt_ns = 38412, .len = 24 };
	struct ping_summary s = { .sent = 5, .received = 4, .errors = 0,
				  .loss_pct = 20.0, .min = 30100, .max = 52000,
				  .p50 = 36000, .p99 = 52000, .avg = 38400.0,
				  .mdev = 7200.0, .have_rtt = true };
	size_t i;
	FILE *f;

	for (i = 0; i < sizeof(us) / sizeof(us[0]); i++) {
		f = capture_open();
		ping_out_init(&p, f, false, false);
		ping_put_us(&p.o, us[i].ns);
		ping_out_flush(&p);
		fclose(f);
		tap_ok(!strcmp(capture_buf, us[i].s), "%llu ns -> %s us (%s)",
		       (unsigned long long)us[i].ns, us[i].s, capture_buf);
	}
	f = capture_open();
	ping_out_init(&p, f, false, false);
	ping_put_pct(&p.o, 100.0 / 3.0);
	ob_putc(&p.o, ' ');
	ping_put_pct(&p.o, 0.0);
	ob_putc(&p.o, ' ');
	ping_put_pct(&p.o, 100.0);
	ping_out_flush(&p);
	fclose(f);
	tap_ok(!strcmp(capture_buf, "33.3 0 100"), "percentages (%s)", capture_buf);

	f = capture_open();
	ping_out_init(&p, f, false, false);
	p.addr = t.addr;
	ping_out_start(&p, &t);
	ping_out_reply(&p, &r);
	ping_out_summary(&p, &t, &s, 4004500000ull);
	ping_out_flush(&p);
	fclose(f);
	tap_ok(!strcmp(capture_buf,
		       "RPCRDMA-PING server (198.18.0.1:20049) via rxe1: NFS (100003) v3 NULL\n"
		       "reply from 198.18.0.1:20049: seq=1 xid=0x5f3a01c2 vers=1 credits=64 time=38.4 us\n"
		       "\n--- server rpcrdma-ping statistics ---\n"
		       "5 calls sent, 4 replies received, 20% loss, time 4004 ms\n"
		       "rtt min/avg/max/mdev = 30.1/38.4/52.0/7.2 us, p50/p99 = 36.0/52.0 us\n"),
	       "text: start, reply and summary lines");

	f = capture_open();
	ping_out_init(&p, f, true, false);
	p.addr = t.addr;
	ping_out_reply(&p, &r);
	ping_out_summary(&p, &t, &s, 4004500000ull);
	ping_out_flush(&p);
	fclose(f);
	tap_ok(!strcmp(capture_buf,
		       "{\"type\":\"reply\",\"seq\":1,\"xid\":1597637058,\"rdma_version\":1,"
		       "\"credits\":64,\"time_ns\":38412,\"length\":24}\n"
		       "{\"type\":\"summary\",\"sent\":5,\"received\":4,\"errors\":0,"
		       "\"loss_pct\":20,\"time_ms\":4004,\"rtt_ns\":{\"min\":30100,"
		       "\"avg\":38400,\"max\":52000,\"mdev\":7200,\"p50\":36000,\"p99\":52000}}\n"),
	       "JSON: reply and summary objects (%s)", capture_buf);

	/* quiet: no reply lines, the summary stays */
	f = capture_open();
	ping_out_init(&p, f, false, true);
	ping_out_reply(&p, &r);
	ping_out_flush(&p);
	fclose(f);
	tap_ok(capture_len == 0, "-q: no reply line");

	/* errors from the RPC layer */
	struct ping_rpc_result res = { .status = PING_RPC_PROG_MISMATCH, .low = 2, .high = 4 };

	f = capture_open();
	ping_out_init(&p, f, false, false);
	p.addr = t.addr;
	t.vers = 5;
	ping_out_rpc_error(&p, &r, &t, &res);
	ping_out_flush(&p);
	fclose(f);
	tap_ok(!strcmp(capture_buf, "error from 198.18.0.1:20049: seq=1 xid=0x5f3a01c2 "
		       "PROG_MISMATCH: program 100003 version 5 is not available: the "
		       "server has versions 2 to 4\n"), "PROG_MISMATCH line (%s)",
	       capture_buf);

	/* the peer lines */
	struct xprt_peer_info pi;

	memset(&pi, 0, sizeof(pi));
	pi.has_private_data = true;
	pi.priv.pd_version = 1;
	pi.priv.max_send_size = 4096;
	pi.priv.max_recv_size = 4096;
	pi.inline_send = pi.inline_recv = 4096;
	pi.vers = 1;
	pi.v2_refused = true;
	pi.vers_low = pi.vers_high = 1;
	f = capture_open();
	ping_out_init(&p, f, false, false);
	ping_out_peer(&p, &pi, true, 1, 64);
	ping_out_flush(&p);
	fclose(f);
	tap_ok(!strcmp(capture_buf,
		       "peer: RFC 8797 private data v1: receives 4096, sends 4096, remote "
		       "invalidation no\n"
		       "peer: RPC-over-RDMA version 1 (Version Two refused with the "
		       "version error, range 1..1), credits 64\n"), "peer lines (%s)",
	       capture_buf);
	f = capture_open();
	ping_out_init(&p, f, true, false);
	ping_out_peer(&p, &pi, true, 1, 64);
	ping_out_flush(&p);
	fclose(f);
	tap_ok(!strcmp(capture_buf,
		       "{\"type\":\"peer\",\"private_data\":{\"version\":1,"
		       "\"remote_invalidate\":false,\"receive\":4096,\"send\":4096},"
		       "\"inline_send\":4096,\"inline_recv\":4096,\"rdma_version\":1,"
		       "\"v2\":\"refused\",\"vers_low\":1,\"vers_high\":1,\"credits\":64}\n"),
	       "peer object (%s)", capture_buf);
	free(capture_buf);
	capture_buf = NULL;

	tap_ok(ping_errcode_exit(XPRT_E_NODEV) == 3 && ping_errcode_exit(XPRT_E_RESOLVE) == 2 &&
	       ping_errcode_exit(XPRT_E_UNREACHABLE) == 2 &&
	       ping_errcode_exit(XPRT_E_REFUSED) == 1 && ping_errcode_exit(XPRT_E_REJECTED) == 1 &&
	       ping_errcode_exit(XPRT_E_TIMEOUT) == 1 &&
	       ping_errcode_exit(XPRT_E_DISCONNECTED) == 1,
	       "exit status per transport error: no device 3, set-up 2, the peer 1");
	tap_ok(ping_errcode_hint(XPRT_E_REFUSED) && strstr(ping_errcode_hint(XPRT_E_REFUSED), "portlist"),
	       "refused: says how knfsd listens for RDMA");
}

/* -------- the inline threshold search -------- */

static void search_case(uint32_t min, uint32_t max, uint32_t claim, uint32_t real,
			unsigned max_tries, const char *what)
{
	struct ping_search s;
	uint32_t size, want = real > max ? max : real < min ? 0 : real;
	bool exact;

	ping_search_init(&s, min, max, claim);
	while ((size = ping_search_next(&s)) && s.tries < 100) {
		if (size < min || size > max || size % 4)
			break;
		ping_search_record(&s, size, size <= real);
	}
	uint32_t got = ping_search_result(&s, &exact);

	tap_ok(size == 0 && got == want && exact == (real < max) && s.tries <= max_tries,
	       "%s: claim %u, real %u -> %u %s in %u tries", what, claim, real, got,
	       exact ? "exact" : "at least", s.tries);
}

static void test_search(void)
{
	search_case(72, 262144, 4096, 4096, 2, "claim right");
	search_case(72, 262144, 1024, 1024, 2, "V1 default right");
	search_case(72, 262144, 4096, 8192, 4, "receives more than it says");
	search_case(72, 262144, 4096, 5000, 16, "receives a little more");
	search_case(72, 262144, 4096, 1024, 14, "receives less than it says");
	search_case(72, 262144, 4096, 72, 16, "only the smallest");
	search_case(72, 262144, 4096, 68, 16, "not even the smallest");
	search_case(72, 8192, 4096, 100000, 4, "more than we can send");
	search_case(72, 262144, 0, 2048, 24, "claim below the minimum");
}

/* -------- NFSv4.1 (RFC 8881 XDR, written out by hand) -------- */

static void test_nfs41(void)
{
	static const uint32_t exid[] = {
		0, 1, 1, 42,                         /* tag<>, minor 1, 1 op */
		0x01020304, 0x05060708,              /* co_verifier */
		2, 0x61620000,                       /* co_ownerid "ab" */
		0, 0, 0,                             /* flags, SP4_NONE, impl<> */
	};
	static const uint32_t cs[] = {
		0, 1, 1, 43, 0x11223344, 0x55667788, 5, 2,
		0, 1049620, 1049480, 7584, 8, 16, 0, /* fore */
		0, 4096, 4096, 0, 2, 1, 0,           /* back */
		0x40000000, 1, 0,                    /* cb_program, AUTH_NONE */
	};
	static const uint32_t ds[] = { 0, 1, 1, 44, 0xa, 0xb, 0xc, 0xd };
	static const uint32_t dc[] = { 0, 1, 1, 57, 0x11223344, 0x55667788 };
	static const uint32_t exres[] = {
		0, 0, 1, 42, 0, 0xdead, 0xbeef, 7, 0x10000,
		0, 0, 0, 0, 0,                       /* the rest, unread */
	};
	static const uint32_t exerr[] = { 10021, 0, 1, 42, 10021 };
	static const uint32_t csres[] = {
		0, 4, 0x74616700, 1, 43, 0,          /* tag "tag" */
		0x00010203, 0x04050607, 0x08090a0b, 0x0c0d0e0f, 1, 2,
	};
	uint8_t want[128], got[128], sid[16];
	struct nfs41_exchange_id_res er;
	struct nfs41_create_session_res cr;
	uint32_t st;
	size_t n, i;

	n = nfs41_exchange_id_args(got, sizeof(got), "ab", 0x0102030405060708ull);
	tap_ok(n == sizeof(exid) && !memcmp(got, want, words(want, exid, 11)),
	       "EXCHANGE_ID args (%zu bytes)", n);
	tap_ok(nfs41_exchange_id_args(got, 43, "ab", 1) == 0, "EXCHANGE_ID: short buffer");
	n = nfs41_create_session_args(got, sizeof(got), 0x1122334455667788ull, 5,
				      0x40000000u);
	tap_ok(n == sizeof(cs) && !memcmp(got, want, words(want, cs, 25)),
	       "CREATE_SESSION args with CONN_BACK_CHAN (%zu bytes)", n);
	memset(sid, 0, 16);
	sid[3] = 0xa; sid[7] = 0xb; sid[11] = 0xc; sid[15] = 0xd;
	n = nfs41_destroy_session_args(got, sizeof(got), sid);
	tap_ok(n == sizeof(ds) && !memcmp(got, want, words(want, ds, 8)),
	       "DESTROY_SESSION args");
	n = nfs41_destroy_clientid_args(got, sizeof(got), 0x1122334455667788ull);
	tap_ok(n == sizeof(dc) && !memcmp(got, want, words(want, dc, 6)),
	       "DESTROY_CLIENTID args");

	n = words(got, exres, 14);
	tap_ok(nfs41_exchange_id_res(got, n, &er) && er.status == 0 &&
	       er.clientid == 0x0000dead0000beefull && er.sequence == 7 &&
	       er.flags == 0x10000, "EXCHANGE_ID result: client ID and sequence");
	tap_ok(!nfs41_exchange_id_res(got, 28, &er), "EXCHANGE_ID result cut short");
	n = words(got, exerr, 5);
	tap_ok(nfs41_exchange_id_res(got, n, &er) && er.status == 10021,
	       "EXCHANGE_ID refused: its status");
	n = words(got, csres, 12);
	tap_ok(nfs41_create_session_res(got, n, &cr) && cr.status == 0 &&
	       cr.sessionid[1] == 1 && cr.sessionid[15] == 0x0f && cr.sequence == 1 &&
	       cr.flags == NFS41_SESSION_CONN_BACK_CHAN,
	       "CREATE_SESSION result: session ID, CONN_BACK_CHAN granted");
	for (i = 0; i < n; i += 4)
		if (nfs41_create_session_res(got, i, &cr) && i < n)
			break;
	tap_ok(i >= n, "CREATE_SESSION result: every cut is refused");
	words(got, (const uint32_t[]){ 0, 0xffffffffu }, 2);
	tap_ok(!nfs41_status_res(got, 8, NFS4_OP_DESTROY_SESSION, &st),
	       "a tag longer than the reply is refused");
	words(got, (const uint32_t[]){ 0, 0, 1, 44, 0 }, 5);
	tap_ok(nfs41_status_res(got, 20, NFS4_OP_DESTROY_SESSION, &st) && st == 0,
	       "DESTROY_SESSION status");
	tap_ok(!nfs41_status_res(got, 20, NFS4_OP_DESTROY_CLIENTID, &st),
	       "a result of another operation is refused");
}

int main(void)
{
	test_stats();
	test_program_names();
	test_seconds();
	test_args();
	test_rpc();
	test_output();
	test_search();
	test_nfs41();
	return tap_done();
}
