/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_conform_xprt.c - rpcrdma-conform's runner over the real transport
 * (tools/transport) and the in-process fake verbs (tests/transport), against
 * an ECHO responder of the same transport in the same loop
 * (xprt_echo.c): every case passes or is allowed, each misbehaviour of
 * xprt_opts.misbehave fails exactly the cases it concerns, a Version
 * One-only responder's V2 cases are skipped; nothing is left registered or
 * connected at the end.
 */
#include <stdio.h>
#include <string.h>
#include "fake_verbs.h"
#include "run.h"
#include "tap.h"
#include "xprt_echo.h"

#define MAXC 512

static struct cf_case cases[MAXC];
static size_t ncases;
static struct {
	char name[48];
	enum cf_result res;
	int sent_action;
	bool reading;           /* the case carries a decision: NOTE, not FAIL */
	bool disc_ok;           /* closing the connection passes or is allowed */
	char observed[240];
} res[MAXC];

struct server {
	struct xprt_opts o;
	int rc;
};

static void listen_here(struct xprt_loop *l, void *arg)
{
	struct server *s = arg;
	struct xprt_error err;

	s->rc = xprt_listen_opts(l, &s->o, &xe_handlers, &err);
	if (s->rc)
		tap_diag("xprt_listen_opts: %s", err.msg);
}

static int run_all(enum xprt_misbehave mb, unsigned versions, const char *only)
{
	static struct cf_run r;
	struct cf_select sel;
	struct cf_opts o;
	struct server sv;
	struct xprt_error err;
	char spec[256];
	size_t i;
	int rc = 0;

	fake_verbs_reset();
	memset(&sv, 0, sizeof(sv));
	sv.o.host = "127.0.0.1";
	sv.o.port = "20049";
	sv.o.verbs = &fake_verbs;
	sv.o.versions = versions;
	sv.o.misbehave = mb;
	memset(&sel, 0, sizeof(sel));
	if (only) {
		snprintf(spec, sizeof(spec), "%s", only);
		cf_select_add(sel.only, &sel.nonly, spec);
	}
	memset(&o, 0, sizeof(o));
	o.host = "127.0.0.1";
	o.port = "20049";
	o.timeout_ms = 500;
	o.settle_ms = 5;
	o.xid_base = 0x20000000u;
	o.sel = &sel;
	o.verbs = &fake_verbs;
	o.on_loop = listen_here;
	o.on_loop_arg = &sv;
	memset(res, 0, sizeof(res));
	if (cf_run_begin(&r, &o, &err) < 0 || sv.rc) {
		tap_diag("cf_run_begin: %s", err.msg);
		rc = -1;
	}
	for (i = 0; !rc && i < ncases; i++) {
		struct cf_obs ob;
		struct cf_grade g;

		res[i].res = CF_NRESULTS;
		if (!cf_selected(&sel, &cases[i]))
			continue;
		cf_run_case(&r, &cases[i], &ob);
		cf_grade(&cases[i], &ob, &g);
		memcpy(res[i].name, cases[i].name, sizeof(res[i].name));
		res[i].res = g.result;
		res[i].sent_action = ob.sent_action;
		res[i].reading = cases[i].decision != NULL;
		res[i].disc_ok = (cases[i].pass | cases[i].allowed) & CF_M(CF_R_DISCONNECT);
		memcpy(res[i].observed, g.observed, sizeof(res[i].observed));
	}
	cf_run_end(&r);
	return rc;
}

static unsigned count(enum cf_result want, bool show)
{
	unsigned n = 0;
	size_t i;

	for (i = 0; i < ncases; i++)
		if (res[i].res == want) {
			n++;
			if (show)
				tap_diag("  %s %s: %s", cf_result_name(want), res[i].name, res[i].observed);
		}
	return n;
}

static bool no_leaks(void)
{
	struct fake_verbs_live l;

	fake_verbs_live(&l);
	if (l.qps || l.mrs || l.mws || l.ids)
		tap_diag("left: %u qps, %u mrs, %u mws, %u ids", l.qps, l.mrs, l.mws, l.ids);
	return !l.qps && !l.mrs && !l.mws && !l.ids;
}

int main(void)
{
	static const struct {
		enum xprt_misbehave mode;
		const char *name;
		int verdict;            /* the sent_verdict of the cases it fails */
	} modes[] = {
		{ XPRT_MISBEHAVE_WRONG_ERROR, "wrong-error", RPCRDMA_REPLY_BAD_HEADER },
		{ XPRT_MISBEHAVE_DROP_BAD, "drop-bad", -2 },
		{ XPRT_MISBEHAVE_SILENT_VERS, "silent-vers", RPCRDMA_REPLY_ERR_VERS },
		{ XPRT_MISBEHAVE_ZERO_CREDIT, "zero-credit", -3 },
	};
	size_t i, j;

	ncases = cf_cases_build(cases, MAXC);
	tap_ok(run_all(XPRT_MISBEHAVE_NONE, 0, NULL) == 0, "a run over the transport and the "
	       "fake verbs against its ECHO responder");
	tap_ok(count(CF_FAIL, true) == 0 && count(CF_NOTE, true) == 0,
	       "no case fails or is noted (%u passed, %u allowed, %u skipped)",
	       count(CF_PASS, false), count(CF_ALLOWED, false), count(CF_SKIP, false));
	tap_ok(count(CF_SKIP, true) == 0, "none is skipped");
	tap_ok(count(CF_ALLOWED, true) == 0, "none is ALLOWED: every case PASSes");
	tap_ok(no_leaks(), "nothing left registered or connected");

	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		bool ok = run_all(modes[i].mode, 0, "V1 §5.5,V1 §5.6,V2 §3.1,V2 §4.2.3,"
				  "reply-grant-nonzero,credit-overrun,inline-1024") == 0;
		unsigned n = 0;

		for (j = 0; j < ncases; j++) {
			bool e;

			if (res[j].res == CF_NRESULTS)
				continue;
			if (modes[i].verdict == -2)
				e = !res[j].disc_ok && (res[j].sent_action == RPCRDMA_REPLY_BAD_HEADER ||
				    res[j].sent_action == RPCRDMA_REPLY_ERR_VERS ||
				    res[j].sent_action == RPCRDMA_REPLY_INVAL_OPTION);
			else if (modes[i].verdict == -3)
				e = !strcmp(res[j].name, "reply-grant-nonzero");
			else
				e = res[j].sent_action == modes[i].verdict;
			n += e;
			/* a case of our reading shows the fault as a NOTE */
			if (e != (res[j].res == (res[j].reading ? CF_NOTE : CF_FAIL))) {
				ok = false;
				tap_diag("  %s: %s (%s)", res[j].name, cf_result_name(res[j].res),
					 res[j].observed);
			}
		}
		tap_ok(ok && n > 0, "misbehave=%s fails exactly its %u cases", modes[i].name, n);
	}

	tap_ok(run_all(XPRT_MISBEHAVE_NONE, XPRT_V1, "V2,vers-3") == 0 && count(CF_FAIL, true) == 0 &&
	       count(CF_SKIP, false) > 50, "a V1-only responder: V2 cases skipped, nothing fails");
	fake_verbs_reset();
	return tap_done();
}
