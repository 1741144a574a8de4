/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_ping_run.c - rpcrdma-ping's runs (tools/ping: the ping loop,
 * --probe, --probe-inline) over the transport and the in-process fake verbs
 * (tests/transport/fake_verbs), against an ECHO responder in the same
 * process and loop: a v1-only, a v2-only and a dual peer with credits and
 * inline thresholds of their own are reported exactly as configured; RPC
 * errors and set-up errors give the documented exit statuses; nothing
 * leaks.  The JSON output is read back with plain string matching.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "echo_respond.h"
#include "fake_verbs.h"
#include "ping.h"
#include "tap.h"
#include "xprt.h"

/* -------- the responder: the echo program, CALLBACK making its backward
 * calls after the reply (as rpcrdma-echo -s does) -------- */
struct srv {
	struct xprt_opts o;
	unsigned conns, calls, backward_done;
	struct xprt_call bc[4];
	uint8_t bmsg[4][128];
	unsigned nbc;
	unsigned ignore_first;         /* leave the first N calls unanswered
					* (a lost first Send, as siw's) */
};

static void bc_done(struct xprt_call *c)
{
	((struct srv *)c->ctx)->backward_done++;
}

static void srv_call(struct xprt_rcvd_call *r, void *arg)
{
	struct srv *s = arg;
	struct echo_resp_stats st = { 0 };
	struct echo_args a;
	size_t bo, bl;
	uint32_t i;

	if (s->calls++ < s->ignore_first)
		return;
	/* the one ECHO responder (tools/ulb/echo_respond.h); CALLBACK is ours */
	if (echo_respond(r, &a, 0, &st) != ECHO_RESP_CALLBACK ||
	    echo_reply_count(r, a.count) != 0)
		return;
	for (i = 0; a.proc == ECHO_PROC_CALLBACK && i < a.count && s->nbc < 4; i++) {
		struct xprt_call *c = &s->bc[s->nbc];

		memset(c, 0, sizeof(*c));
		c->msg = s->bmsg[s->nbc];
		c->len = echo_encode_call(c->msg, sizeof(s->bmsg[0]), ECHO_PROC_ECHO, 0,
					  a.data, a.len > 64 ? 64 : a.len, &bo, &bl);
		c->reply_max = 256;
		c->done = bc_done;
		c->ctx = s;
		if (xprt_call(r->x, c) == 0)
			s->nbc++;
	}
}

static void srv_connect(struct xprt *x, void *arg)
{
	(void)x;
	((struct srv *)arg)->conns++;
}

static int listen_hook(struct xprt_loop *l, void *arg)
{
	static struct xprt_handlers h = { .on_call = srv_call, .on_connect = srv_connect };
	struct srv *s = arg;
	struct xprt_error e;

	h.arg = s;
	return xprt_listen_opts(l, &s->o, &h, &e);
}

static void setup(struct ping_opts *o, struct srv *s, unsigned versions,
		  uint32_t credits, uint32_t inline_size)
{
	memset(o, 0, sizeof(*o));
	memset(s, 0, sizeof(*s));
	s->o.verbs = &fake_verbs;
	s->o.host = "127.0.0.1";
	s->o.port = "20049";
	s->o.versions = versions;
	s->o.credits = credits;
	s->o.inline_recv = s->o.inline_send = inline_size;
	o->host = "127.0.0.1";
	o->port = "20049";
	o->prog = ECHO_PROG;
	o->vers = ECHO_VERS;
	o->count = 3;
	o->interval_us = 0;
	o->timeout_us = 2000000;
	o->json = true;
	o->verbs = &fake_verbs;
	o->on_loop = listen_hook;
	o->on_loop_arg = s;
}

/* runs fn with stdout into a string */
static char *out;
static size_t outlen;

static int run(int (*fn)(const struct ping_opts *), const struct ping_opts *o)
{
	FILE *saved = stdout, *f, *se = stderr;
	FILE *nul = fopen("/dev/null", "w");
	int rc;

	free(out);
	out = NULL;
	f = open_memstream(&out, &outlen);
	stdout = f;
	stderr = nul;
	rc = fn(o);
	fflush(f);
	stdout = saved;
	stderr = se;
	fclose(f);
	fclose(nul);
	return rc;
}

static unsigned count(const char *needle)
{
	unsigned n = 0;
	const char *p = out;

	while (p && (p = strstr(p, needle))) {
		n++;
		p += strlen(needle);
	}
	return n;
}

/* the output line holding `a`, containing `b` too? */
static bool line_has(const char *a, const char *b)
{
	const char *p = out, *e;

	while (p && (p = strstr(p, a))) {
		const char *s = p;

		while (s > out && s[-1] != '\n')
			s--;
		e = strchr(p, '\n');
		if (!e)
			e = p + strlen(p);
		const char *q = strstr(s, b);
		if (q && q < e)
			return true;
		p = e;
	}
	return false;
}

static bool no_leaks(void)
{
	struct fake_verbs_live lv;

	fake_verbs_live(&lv);
	return !lv.chans && !lv.ids && !lv.qps && !lv.mrs && !lv.mws;
}

static void test_ping(void)
{
	struct ping_opts o;
	struct srv s;
	int rc;

	setup(&o, &s, 0, 16, 0);
	rc = run(ping_run, &o);
	tap_ok(rc == 0 && count("\"type\":\"reply\"") == 3 &&
	       line_has("\"type\":\"summary\"", "\"sent\":3,\"received\":3,\"errors\":0"),
	       "dual peer: 3 replies, exit 0");
	tap_ok(line_has("\"type\":\"peer\"", "\"rdma_version\":2,\"v2\":\"accepted\"") &&
	       line_has("\"type\":\"peer\"", "\"credits\":16}"),
	       "peer line: Version Two accepted, 16 credits");
	tap_ok(no_leaks(), "no verbs object left");
	fake_verbs_reset();

	setup(&o, &s, XPRT_V1, 8, 0);
	rc = run(ping_run, &o);
	tap_ok(rc == 0 && line_has("\"type\":\"peer\"", "\"rdma_version\":1,\"v2\":\"refused\","
				   "\"vers_low\":1,\"vers_high\":1,\"credits\":8}"),
	       "v1-only peer: Version Two refused, range 1..1, 8 credits");
	tap_ok(line_has("\"type\":\"reply\"", "\"rdma_version\":1,\"credits\":8"),
	       "replies in Version One, 8 credits each");
	fake_verbs_reset();

	setup(&o, &s, 0, 16, 0);
	o.prog = 100003;
	o.vers = 3;
	o.count = 2;
	rc = run(ping_run, &o);
	tap_ok(rc == 1 && count("\"error\":\"PROG_UNAVAIL\"") == 2 &&
	       line_has("\"type\":\"summary\"", "\"received\":0,\"errors\":2,\"loss_pct\":100"),
	       "another program: PROG_UNAVAIL twice, 100%% loss, exit 1");
	fake_verbs_reset();

	setup(&o, &s, 0, 16, 0);
	o.vers = 2;
	o.count = 1;
	rc = run(ping_run, &o);
	tap_ok(rc == 1 && line_has("\"error\":\"PROG_MISMATCH\"", "\"low\":1,\"high\":1"),
	       "echo v2: PROG_MISMATCH with the range 1..1, exit 1");
	fake_verbs_reset();

	setup(&o, &s, 0, 16, 0);
	o.on_loop = NULL;                  /* nothing listens */
	rc = run(ping_run, &o);
	tap_ok(rc == 1 && line_has("\"type\":\"fatal\"", "\"error\":\"re"),
	       "nothing listens: refused or rejected, exit 1 (%d)", rc);
	fake_verbs_reset();

	setup(&o, &s, 0, 16, 0);
	o.host = "192.0.2.1";              /* the fake: unreachable */
	rc = run(ping_run, &o);
	tap_ok(rc == 2 && line_has("\"type\":\"fatal\"", "\"error\":\"unreachable\""),
	       "an address no device reaches: exit 2");
	tap_ok(no_leaks(), "no verbs object left after the failures");
	fake_verbs_reset();
}

/* the probe item `item` has every one of the strings */
static bool item_has(const char *item, const char *a, const char *b)
{
	char key[64];

	snprintf(key, sizeof(key), "\"item\":\"%s\"", item);
	return line_has(key, a) && (!b || line_has(key, b));
}

static void test_probe(void)
{
	static const struct {
		const char *name;
		unsigned versions;
		uint32_t credits, inl;
		const char *v2, *v2b, *v1, *v1b, *v3;
	} t[] = {
		{ "v1-only", XPRT_V1, 8, 2048, "\"result\":\"refused\"", "\"low\":1,\"high\":1",
		  "\"result\":\"accepted\"", NULL, "\"low\":1,\"high\":1" },
		{ "v2-only", XPRT_V2, 16, 8192, "\"result\":\"accepted\"", NULL,
		  "\"result\":\"refused\"", "\"low\":2,\"high\":2", "\"low\":2,\"high\":2" },
		{ "dual", 0, 32, 4096, "\"result\":\"accepted\"", NULL,
		  "\"result\":\"accepted\"", NULL, "\"low\":1,\"high\":2" },
	};
	char want[128];
	struct ping_opts o;
	struct srv s;
	size_t i;
	int rc;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		setup(&o, &s, t[i].versions, t[i].credits, t[i].inl);
		rc = run(ping_probe, &o);
		tap_ok(rc == 0 && count("\"type\":\"probe\"") == 13, "%s: --probe, 13 items",
		       t[i].name);
		snprintf(want, sizeof(want), "\"receive\":%u,\"send\":%u", t[i].inl, t[i].inl);
		tap_ok(item_has("private_data", want, NULL), "%s: private data %u/%u",
		       t[i].name, t[i].inl, t[i].inl);
		tap_ok(item_has("v2", t[i].v2, t[i].v2b) && item_has("v1", t[i].v1, t[i].v1b) &&
		       item_has("v3", "\"result\":\"answered\"", t[i].v3),
		       "%s: versions and ranges", t[i].name);
		snprintf(want, sizeof(want), "\"credits\":%u,\"requested\"", t[i].credits);
		tap_ok(item_has("credits_first", want, NULL), "%s: first grant %u",
		       t[i].name, t[i].credits);
		snprintf(want, sizeof(want), "\"max\":%u,", t[i].credits);
		char mo[64];
		snprintf(mo, sizeof(mo), "\"max_outstanding\":%u",
			 t[i].credits < 16 ? t[i].credits : 16);
		tap_ok(item_has("credits_loaded", want, mo), "%s: 16 calls at once: %s",
		       t[i].name, mo);
		tap_ok(item_has("bad_header", "\"result\":\"answered\"", "\"spec\":\"reply_bad_header\"") &&
		       item_has("bad_proc", "\"result\":\"answered\"", "\"err_code\":2") &&
		       item_has("msgp", "\"result\":\"answered\"", NULL) &&
		       item_has("done", "\"result\":\"answered\"", NULL),
		       "%s: header errors answered as the verdicts say", t[i].name);
		tap_ok(item_has("rpc_proc", "\"result\":\"PROC_UNAVAIL\"", NULL),
		       "%s: unknown procedure: PROC_UNAVAIL", t[i].name);
		tap_ok(item_has("backward", "\"result\":\"accepted\"", "\"backward_calls\":2"),
		       "%s: CALLBACK: 2 backward calls answered", t[i].name);
		if (!tap_ok(no_leaks(), "%s: no verbs object left", t[i].name))
			tap_diag("%s", out);
		fake_verbs_reset();
	}
}

/* --probe when the first call gets no answer (siw's lost first Send): one
 * retry on a new connection, in the report; none when nothing was lost */
static void test_probe_retry(void)
{
	struct ping_opts o;
	struct srv s;
	int rc;

	setup(&o, &s, 0, 32, 4096);
	o.timeout_us = 300000;
	s.ignore_first = 1;
	rc = run(ping_probe, &o);
	tap_ok(rc == 0 && count("\"type\":\"probe\"") == 14 && s.conns >= 3,
	       "--probe, first call lost: 14 items, a new connection (exit %d, %u connections)",
	       rc, s.conns);
	if (getenv("DUMP"))
		fprintf(stderr, "OUT(%zu): %s\n", outlen, out ? out : "(null)");
	tap_ok(item_has("retry", "\"result\":\"answered on retry\"", "\"retries\":1") &&
	       item_has("v2", "\"result\":\"accepted\"", NULL),
	       "--probe: the retry is reported, and the probe goes on as usual");
	tap_ok(no_leaks(), "--probe retry: no verbs object left");
	fake_verbs_reset();
	setup(&o, &s, 0, 32, 4096);
	o.timeout_us = 300000;
	s.ignore_first = 2;            /* the retry lost too: no answer, reported */
	rc = run(ping_probe, &o);
	tap_ok(item_has("retry", "\"result\":\"no answer on retry\"", NULL),
	       "--probe, first call and its retry lost: reported, no second retry (exit %d)", rc);
	tap_ok(no_leaks(), "--probe lost retry: no verbs object left");
	fake_verbs_reset();
	setup(&o, &s, 0, 32, 4096);
	rc = run(ping_probe, &o);
	tap_ok(rc == 0 && count("\"item\":\"retry\"") == 0, "--probe, nothing lost: no retry item");
	fake_verbs_reset();
}

static void test_inline(void)
{
	static const uint32_t sizes[] = { 1024, 2048, 4096, 8192 };
	char want[64];
	struct ping_opts o;
	struct srv s;
	size_t i;
	int rc;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		setup(&o, &s, 0, 8, sizes[i]);
		rc = run(ping_probe_inline, &o);
		snprintf(want, sizeof(want), "\"bytes\":%u,\"first_failure\":%u", sizes[i],
			 sizes[i] + 4);
		if (!tap_ok(rc == 0 && item_has("receive", "\"result\":\"confirmed\"", want),
			    "--probe-inline: a peer receiving %u bytes: %u, confirmed",
			    sizes[i], sizes[i]))
			tap_diag("%s", out);
		tap_ok(no_leaks(), "--probe-inline %u: no verbs object left", sizes[i]);
		fake_verbs_reset();
	}
	/* the text's last line says how many bytes the peer claims to send
	 * (issue 30 item 5: it ended "sends up to that many:" with no number) */
	setup(&o, &s, 0, 8, 2048);
	o.json = false;
	rc = run(ping_probe_inline, &o);
	{
		const char *last = out ? out + strlen(out) : NULL;
		while (last && last > out && last[-1] == '\n')
			last--;
		while (last && last > out && last[-1] != '\n')
			last--;
		if (!tap_ok(rc == 0 && last &&
			    strstr(last, "its private data says it sends up to 2048 bytes") &&
			    !strstr(out, "that many:"),
			    "--probe-inline text: the last line names the 2048 bytes the peer claims"))
			tap_diag("%s", out ? out : "(nothing)");
	}
	fake_verbs_reset();
	/* its first call lost (siw's lost first Send): made once more on a new
	 * connection, the retry in the report, and the search goes on */
	setup(&o, &s, 0, 8, 4096);
	o.timeout_us = 300000;
	s.ignore_first = 1;
	rc = run(ping_probe_inline, &o);
	if (!tap_ok(rc == 0 && item_has("retry", "\"result\":\"answered on retry\"", "\"retries\":1") &&
		    count("\"section\":\"inline threshold\",\"item\":\"retry\"") == 1 &&
		    item_has("receive", "\"result\":\"confirmed\"", "\"bytes\":4096"),
		    "--probe-inline, first call lost: one retry on a new connection, reported; "
		    "4096 confirmed (exit %d)", rc))
		tap_diag("%s", out ? out : "(nothing)");
	tap_ok(no_leaks(), "--probe-inline retry: no verbs object left");
	fake_verbs_reset();
	/* a peer without private data: the version's default is where it starts */
	setup(&o, &s, XPRT_V1, 8, 0);
	s.o.no_private_data = true;
	rc = run(ping_probe_inline, &o);
	tap_ok(rc == 0 && item_has("claim", "\"result\":\"nothing\"", "\"receive\":1024"),
	       "no private data: starts from Version One's 1024");
	fake_verbs_reset();
}

int main(void)
{
	test_ping();
	test_probe();
	test_probe_retry();
	test_inline();
	free(out);
	return tap_done();
}
