/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_conform.c - rpcrdma-conform without a transport: the case table
 * (every vector is a case or a valid non-error message; names unique; each
 * case's expectation agrees with libcodec's verdict on its message; the xid
 * rewrite keeps every verdict), the grading of hand-built answers against
 * the drafts' rules (V1 §5.5, §5.5.1, §5.5.4, Table 1), --only/--skip, the
 * report's totals and exit status, the safety rule and the target calls.
 * Answers are built with libcodec's encoder from the drafts' XDR.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <rpcrdma/rpc.h>
#include "conform.h"
#include "echo_ulb.h"
#include "safety.h"
#include "tap.h"
#include "target.h"

static struct cf_case cases[512];
static size_t ncases;

static const struct cf_case *find(const char *name)
{
	size_t i;

	for (i = 0; i < ncases; i++)
		if (!strcmp(cases[i].name, name))
			return &cases[i];
	return NULL;
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

/* An RDMA_ERROR: V1 §5.1.3 rpcrdma1_error (xid vers credit 4 err [low high]) */
static size_t error_msg(uint8_t *b, uint32_t xid, uint32_t vers, uint32_t err, uint32_t lo,
			uint32_t hi)
{
	put32(b, xid);
	put32(b + 4, vers);
	put32(b + 8, 32);
	put32(b + 12, 4);
	put32(b + 16, err);
	if (err != 1)
		return 20;
	put32(b + 20, lo);
	put32(b + 24, hi);
	return 28;
}

/* RDMA_MSG (V1) with an accepted RPC reply; rpc_xid may differ */
static size_t reply_msg(uint8_t *b, uint32_t xid, uint32_t rpc_xid, uint32_t stat)
{
	memset(b, 0, 28);
	put32(b, xid);
	put32(b + 4, 1);
	put32(b + 8, 32);
	return 28 + rpc_encode_accepted_reply(b + 28, 64, rpc_xid, stat);
}

static void obs_init(struct cf_obs *o, uint32_t xid, uint32_t vers)
{
	memset(o, 0, sizeof(*o));
	o->sent_xid[0] = xid;
	o->nsent_xid = 1;
	o->sent_vers = vers;
	o->sent_has_xid = o->sent_has_vers = true;
	o->sent_action = -1;
	o->supported_low = o->supported_high = 1;
	o->probe_answered = true;
}

static enum cf_result grade_with(const char *name, struct cf_obs *o, struct cf_grade *g)
{
	const struct cf_case *c = find(name);

	if (!c) {
		memset(g, 0, sizeof(*g));
		g->result = CF_NRESULTS;
		return CF_NRESULTS;
	}
	cf_classify(o);
	cf_grade(c, o, g);
	return g->result;
}

static void test_table(void)
{
	size_t i, j, nvec_cases = 0;
	bool unique = true, sane = true, agree = true, rewrite = true, reqs_ok = true;

	ncases = cf_cases_build(cases, 512);
	tap_ok(ncases > 100 && ncases == cf_cases_build(NULL, 0), "%zu cases", ncases);
	for (i = 0; i < ncases; i++) {
		const struct cf_case *c = &cases[i];

		for (j = i + 1; j < ncases; j++)
			if (!strcmp(c->name, cases[j].name))
				unique = false;
		if (!c->name[0] || !c->text[0] || strncmp(c->section, "§", 2) || !c->pass ||
		    (c->allowed && !c->allowed_why) || (c->vers != 1 && c->vers != 2))
			sane = false;
		/* a level only from a sentence; our reading has none */
		if (c->decision ? c->level != CF_NOKW : c->level == CF_NOKW) {
			sane = false;
			tap_diag("%s: level %s, decision %s", c->name, cf_level_name(c->level),
				 c->decision ? c->decision : "none");
		}
		{
			const char *p = c->reqs;

			if (!p || !*p) {
				reqs_ok = false;
				tap_diag("%s: no requirement id", c->name);
			}
			while (p && *p) {
				if (!cf_req_find(p)) {
					reqs_ok = false;
					tap_diag("%s: requirement %.*s is not in docs/requirements.tsv",
						 c->name, (int)strcspn(p, " "), p);
				}
				p += strcspn(p, " ");
				p += strspn(p, " ");
			}
		}
		if (i && cases[i - 1].draft > c->draft)
			sane = false;   /* draft by draft */
	}
	tap_ok(unique, "case names are unique");
	tap_ok(sane, "every case has a name, text, section, pass mask, version, and a level "
	       "only from a sentence (none for our reading)");
	tap_ok(reqs_ok, "every case's requirement ids are in the catalogue");

	/* every vector: a case, or a valid call/reply that tests no rule */
	for (i = 0; i < cf_nvectors; i++) {
		const struct cf_vector *v = &cf_vectors[i];
		struct cf_case c;
		struct rpcrdma_msg m, m2;
		uint8_t buf[4096];
		uint32_t rx;
		size_t n;
		enum rpcrdma_action a = rpcrdma_decode(v->bytes, v->len, &m);

		if (a != v->action || m.reason != v->reason) {
			agree = false;
			tap_diag("%s: the codec says %s/%s", v->name, rpcrdma_action_name(a),
				 rpcrdma_reason_name(m.reason));
		}
		if (!cf_case_from_vector(v, &c)) {
			/* valid calls and replies; and the backward-named
			 * forward call with mismatched xids (v1-msg-xid-mismatch) */
			if ((v->action != RPCRDMA_ACCEPT || m.rdma_proc == RDMA_ERROR) &&
			    strcmp(v->name, "bidi-v1-msg-cb-call-xid-mismatch")) {
				agree = false;
				tap_diag("%s: no case", v->name);
			}
			continue;
		}
		nvec_cases++;
		if (!find(c.name))
			agree = false;
		/* the expectation follows the verdict */
		switch (v->action) {
		case RPCRDMA_REPLY_ERR_VERS: agree &= c.pass == CF_M(CF_R_ERR_VERS); break;
		case RPCRDMA_REPLY_BAD_HEADER: agree &= c.pass == CF_M(CF_R_ERR_BADHEADER); break;
		case RPCRDMA_REPLY_INVAL_OPTION: agree &= c.pass == CF_M(CF_R_ERR_INVAL_OPTION); break;
		case RPCRDMA_DISCARD:   /* unknown version: ERR_VERS passes too (§5.5.1) */
			agree &= c.pass == CF_M(CF_R_DISCARD) ||
				 (m.reason == RPCRDMA_R_BAD_VERS &&
				  c.pass == (CF_M(CF_R_DISCARD) | CF_M(CF_R_ERR_VERS)));
			break;
		case RPCRDMA_ACCEPT: agree &= c.pass == CF_M(CF_R_DISCARD); break;
		}
		/* a new xid keeps the verdict, the reason and the offset */
		n = cf_vector_bytes(v, 0xc0f00042u, buf, sizeof(buf), &rx);
		rpcrdma_decode(buf, n, &m2);
		if (n != v->len || m2.action != m.action || m2.reason != m.reason ||
		    m2.fault_off != m.fault_off || (n >= 4 && m2.rdma_xid != 0xc0f00042u) ||
		    (m.has_rpc_xid && m.rpc_xid == m.rdma_xid && rx != 0xc0f00042u)) {
			rewrite = false;
			tap_diag("%s: rewritten xid changes the verdict", v->name);
		}
	}
	tap_ok(agree, "every vector's case expects what libcodec's verdict says");
	tap_ok(rewrite, "the xid rewrite keeps every vector's verdict, reason and offset");
	tap_ok(nvec_cases > 120, "%zu cases from the vectors", nvec_cases);
	tap_ok(find("v1-proc-msgp") && find("v1-proc-msgp")->level == CF_SHOULD &&
	       !strcmp(find("v1-proc-msgp")->section, "§5.6.1"), "RDMA_MSGP: SHOULD, V1 §5.6.1");
	tap_ok(find("vers-0") && find("vers-0")->level == CF_MUST && find("vers-0")->draft == CF_V1 &&
	       !strcmp(find("vers-0")->section, "§5.5.1"), "version 0: MUST, V1 §5.5.1");
	tap_ok(find("v2-optional-unknown-type") && find("v2-optional-unknown-type")->draft == CF_V2 &&
	       (find("v2-optional-unknown-type")->flags & CF_F_V2), "unknown option: V2, needs V2");
	tap_ok(find("v1-error-badheader") && find("v1-error-badheader")->pass == CF_M(CF_R_DISCARD),
	       "an error sent to a responder: expected silence");
	tap_ok(!find("v1-msg-call-nfs3-null"), "a valid call is no case");
	tap_ok(!find("bidi-v1-msg-cb-call-xid-mismatch") && find("v1-msg-xid-mismatch"),
	       "the forward call with mismatched xids is one case (v1-msg-xid-mismatch), not "
	       "again under BIDI");
	{
		bool v2sec = true;

		/* version-two-01 has §2.3, §3.1, §3.2, §4.2.x, §5.x: no V1 numbers */
		for (i = 0; i < ncases; i++)
			if (cases[i].draft == CF_V2 && (!strncmp(cases[i].section, "§4.4", 5) ||
							 !strncmp(cases[i].section, "§5.5", 5))) {
				v2sec = false;
				tap_diag("%s cites V2 %s", cases[i].name, cases[i].section);
			}
		tap_ok(v2sec, "no Version Two case cites a Version One section number");
	}
}

static void test_grading(void)
{
	struct cf_obs o;
	struct cf_grade g;
	uint8_t b[128];
	size_t n;

	/* ERR_BADHEADER as V1 §5.5.2 asks */
	obs_init(&o, 0x1234, 1);
	n = error_msg(b, 0x1234, 1, 2, 0, 0);
	o.answer = b;
	o.answer_len = n;
	tap_ok(grade_with("v1-read-disc-2", &o, &g) == CF_PASS, "ERR_BADHEADER: PASS (%s)", g.observed);
	/* another xid (V1 §5.5: MUST be the failing request's) */
	obs_init(&o, 0x1235, 1);
	o.answer = b;
	o.answer_len = n;
	tap_ok(grade_with("v1-read-disc-2", &o, &g) == CF_FAIL && g.level == CF_MUST &&
	       strstr(g.section, "5.5") && strstr(g.observed, "rdma_xid"),
	       "wrong rdma_xid: FAIL MUST V1 §5.5 (%s)", g.observed);
	/* another version */
	obs_init(&o, 0x1234, 2);
	o.answer = b;
	o.answer_len = n;
	tap_ok(grade_with("v2-read-disc-2", &o, &g) == CF_FAIL && strstr(g.observed, "rdma_vers"),
	       "rdma_vers not echoed: FAIL (%s)", g.observed);
	/* trailing bytes after an error (V1 §5.1.4 Table 1) */
	obs_init(&o, 0x1234, 1);
	memset(b + n, 0, 8);
	o.answer = b;
	o.answer_len = n + 8;
	tap_ok(grade_with("v1-read-disc-2", &o, &g) == CF_NOTE && !strcmp(g.decision, "D-MSG-4"),
	       "bytes after a V1 error: NOTE D-MSG-4 (Table 1 has no keyword) (%s)", g.observed);
	/* ERR_VERS instead of ERR_BADHEADER (the "wrong-error" responder) */
	obs_init(&o, 0x1234, 1);
	o.answer = b;
	o.answer_len = error_msg(b, 0x1234, 1, 1, 1, 2);
	tap_ok(grade_with("v1-read-disc-2", &o, &g) == CF_FAIL && g.level == CF_MUST &&
	       strstr(g.expected, "ERR_BADHEADER") && strstr(g.observed, "ERR_VERS"),
	       "ERR_VERS for a malformed header: FAIL, expected vs observed (%s / %s)",
	       g.expected, g.observed);
	/* silent discard of what must be answered */
	obs_init(&o, 0x1234, 1);
	tap_ok(grade_with("v1-read-disc-2", &o, &g) == CF_FAIL && g.level == CF_MUST,
	       "discarded malformed header: FAIL MUST");
	tap_ok(grade_with("v1-proc-done", &o, &g) == CF_FAIL && g.level == CF_SHOULD,
	       "discarded RDMA_DONE: FAIL SHOULD (V1 §5.6.2)");
	/* a dropped connection */
	obs_init(&o, 0x1234, 1);
	o.probe_answered = false;
	o.disconnected = true;
	tap_ok(grade_with("v1-read-disc-2", &o, &g) == CF_FAIL && strstr(g.observed, "closed"),
	       "disconnect for a malformed header: FAIL (%s)", g.observed);
	/* nothing at all: a hung connection, V1 §5.5.4 */
	obs_init(&o, 0x1234, 1);
	o.probe_answered = false;
	tap_ok(grade_with("v1-error-code-0", &o, &g) == CF_FAIL && g.level == CF_MUST &&
	       strstr(g.section, "5.5.4"), "no answer, not even to the probe: FAIL MUST V1 §5.5.4");
	/* the listener gone */
	obs_init(&o, 0x1234, 1);
	o.probe_answered = false;
	o.disconnected = o.listener_gone = true;
	tap_ok(grade_with("v1-error-code-0", &o, &g) == CF_NOTE && !strcmp(g.decision, "D-CONF-2") &&
	       o.react == CF_R_CRASH, "crash: NOTE D-CONF-2 (no sentence; the run's status says it)");

	/* ERR_VERS and its range, V1 §5.5.1 */
	obs_init(&o, 0x42, 3);
	o.answer = b;
	o.answer_len = error_msg(b, 0x42, 3, 1, 1, 1);
	tap_ok(grade_with("vers-3", &o, &g) == CF_PASS, "ERR_VERS 1..1 for version 3: PASS (%s)",
	       g.observed);
	o.answer_len = error_msg(b, 0x42, 3, 1, 1, 3);
	tap_ok(grade_with("vers-3", &o, &g) == CF_FAIL && strstr(g.observed, "refuses"),
	       "a range holding the refused version: FAIL (%s)", g.observed);
	o.answer_len = error_msg(b, 0x42, 3, 1, 2, 2);
	tap_ok(grade_with("vers-3", &o, &g) == CF_FAIL && strstr(g.observed, "leaves out"),
	       "a range without the version it answers: FAIL (%s)", g.observed);
	o.answer_len = error_msg(b, 0x42, 3, 1, 2, 1);
	tap_ok(grade_with("vers-3", &o, &g) == CF_FAIL && strstr(g.observed, "empty"),
	       "an empty range: FAIL");
	o.answer_len = error_msg(b, 0x42, 1, 1, 1, 1);
	tap_ok(grade_with("vers-3", &o, &g) == CF_FAIL && strstr(g.observed, "rdma_vers 1"),
	       "ERR_VERS not echoing the version: FAIL (V1 §5.5)");
	obs_init(&o, 0x42, 3);
	tap_ok(grade_with("vers-3", &o, &g) == CF_FAIL, "unsupported version discarded: FAIL");

	/* errors sent to a responder */
	obs_init(&o, 0x77, 1);
	tap_ok(grade_with("v1-error-badheader", &o, &g) == CF_PASS, "an error not answered: PASS");
	o.answer = b;
	o.answer_len = error_msg(b, 0x77, 1, 2, 0, 0);
	tap_ok(grade_with("v1-error-badheader", &o, &g) == CF_NOTE && !strcmp(g.decision, "D-CONF-3"),
	       "an error answered with an error: NOTE D-CONF-3 (no sentence forbids it)");
	obs_init(&o, 0x77, 1);
	o.disconnected = true;
	tap_ok(grade_with("v1-error-badheader", &o, &g) == CF_ALLOWED && strstr(g.observed, "§5.5"),
	       "an error ending the connection: ALLOWED (%s)", g.observed);
	obs_init(&o, 0x77, 1);
	o.answer = b;
	o.answer_len = error_msg(b, 0x77, 1, 1, 1, 1);
	o.sent_vers = 3;
	o.answer_len = error_msg(b, 0x77, 3, 1, 1, 1);
	tap_ok(grade_with("vx-error-unknown-vers-discard", &o, &g) == CF_PASS,
	       "an RDMA_ERROR of unknown version answered ERR_VERS: PASS (V1 §5.5.1) (%s)", g.observed);
	tap_ok(grade_with("vx-error-unknown-vers-cut", &o, &g) == CF_PASS,
	       "a cut RDMA_ERROR of unknown version answered ERR_VERS: PASS (§5.5.1 and §5.5 conflict)");
	obs_init(&o, 0x77, 3);
	tap_ok(grade_with("vx-error-unknown-vers-badheader", &o, &g) == CF_PASS,
	       "an RDMA_ERROR of unknown version discarded: PASS (V1 §5.5, D-ERR-3)");

	/* xid mismatch: BADHEADER, or ignored RPC xid (V1 §5.2.1 MAY) */
	obs_init(&o, 0x99, 1);
	o.answer = b;
	o.answer_len = reply_msg(b, 0x99, 0x99, RPC_SUCCESS);
	tap_ok(grade_with("v1-msg-xid-mismatch", &o, &g) == CF_ALLOWED && strstr(g.observed, "5.2.1"),
	       "xid mismatch answered as a call: ALLOWED (%s)", g.observed);
	o.answer_len = reply_msg(b, 0x99, 0x98, RPC_SUCCESS);
	tap_ok(grade_with("v1-msg-xid-mismatch", &o, &g) == CF_FAIL && g.level == CF_MUST &&
	       o.react == CF_R_BAD_ANSWER, "a reply whose own xids differ: FAIL MUST (%s)", g.observed);
	/* short prefix: anything but a crash or a hang */
	obs_init(&o, 0, 0);
	o.sent_has_xid = o.sent_has_vers = false;
	o.answer = b;
	o.answer_len = error_msg(b, 0xdeadbeef, 1, 2, 0, 0);
	tap_ok(grade_with("v1-short-prefix-3-bytes", &o, &g) == CF_NOTE &&
	       !strcmp(g.decision, "D-CONF-4"),
	       "3 bytes answered with ERR_BADHEADER: NOTE D-CONF-4, seen (%s)", g.observed);
	/* GARBAGE_ARGS and calls that must be answered */
	obs_init(&o, 0x55, 1);
	o.answer = b;
	o.answer_len = reply_msg(b, 0x55, 0x55, RPC_GARBAGE_ARGS);
	tap_ok(grade_with("read-chunk-longer", &o, &g) == CF_PASS, "GARBAGE_ARGS: PASS");
	o.answer_len = reply_msg(b, 0x55, 0x55, RPC_SUCCESS);
	tap_ok(grade_with("read-chunk-longer", &o, &g) == CF_NOTE && !strcmp(g.decision, "D-CONF-6"),
	       "a longer read chunk accepted: NOTE D-CONF-6 (the arguments parse)");
	tap_ok(grade_with("read-chunk-shorter", &o, &g) == CF_FAIL && g.level == CF_SHOULD &&
	       g.req && strstr(g.req->sentence, "SHOULD return a RPC_GARBAGEARGS"),
	       "a shorter read chunk accepted: FAIL SHOULD, on V1 §5.5.2's sentence");
	obs_init(&o, 0x55, 1);
	tap_ok(grade_with("inline-1024", &o, &g) == CF_FAIL && g.level == CF_MUST &&
	       strstr(g.section, "5.5.4"), "a call dropped silently: FAIL MUST V1 §5.5.4");
	/* an RDMA Read of an unregistered segment, then silence on that
	 * connection (the probe flushed on our QP in error, the CM's
	 * disconnect late) while a new connection is answered: the
	 * connection is lost (V1 §5.5.3), not a hung responder (issue 30
	 * item 6); the same silence without the RDMA fault stays a hang */
	obs_init(&o, 0x55, 1);
	o.probe_answered = false;
	o.rdma_fault = true;
	tap_ok(grade_with("read-chunk-bad-handle", &o, &g) == CF_PASS &&
	       o.react == CF_R_DISCONNECT && strstr(g.observed, "failed RDMA Read"),
	       "a silent connection after a failed RDMA Read: the connection lost, PASS (%s)",
	       g.observed);
	obs_init(&o, 0x55, 1);
	o.probe_answered = false;
	tap_ok(grade_with("read-chunk-bad-handle", &o, &g) == CF_FAIL && o.react == CF_R_NO_ANSWER &&
	       strstr(g.section, "5.5.4"), "the same silence without an RDMA fault: a hang, FAIL "
	       "V1 §5.5.4 (%s)", g.observed);
	/* custom faults and allowances */
	obs_init(&o, 0x55, 1);
	o.answer = b;
	o.answer_len = reply_msg(b, 0x55, 0x55, RPC_SUCCESS);
	snprintf(o.fault, sizeof(o.fault), "the reply grants 0 credits");
	o.fault_req = "V1-4.3.1-grant";
	tap_ok(grade_with("reply-grant-nonzero", &o, &g) == CF_FAIL && strstr(g.observed, "0 credits") &&
	       g.req && strstr(g.req->sentence, "MUST NOT be zero"),
	       "a custom fault: FAIL on its sentence (%s)", g.observed);
	obs_init(&o, 0x55, 1);
	o.answer = b;
	o.answer_len = reply_msg(b, 0x55, 0x55, RPC_SUCCESS);
	o.allowed = true;
	snprintf(o.allowed_why, sizeof(o.allowed_why), "V1 §5.3.3 MAY");
	tap_ok(grade_with("reply-chunk-short", &o, &g) == CF_ALLOWED, "a custom allowance: ALLOWED");
	obs_init(&o, 0x55, 1);
	o.skipped = true;
	snprintf(o.skip_why, sizeof(o.skip_why), "needs V2");
	tap_ok(grade_with("v2-inline-4096", &o, &g) == CF_SKIP && !strcmp(g.observed, "needs V2"),
	       "a skipped case: SKIP with the reason");
	/* the backward reply with chunks */
	obs_init(&o, 0x66, 1);
	tap_ok(grade_with("bidi-reply-chunks", &o, &g) == CF_PASS, "backward reply with chunks "
	       "dropped: PASS");
	/* ERR_VERS from a V1-only responder to the first V2 call (V2 §5.2) */
	obs_init(&o, 0x88, 2);
	o.answer = b;
	o.answer_len = error_msg(b, 0x88, 2, 1, 1, 1);
	tap_ok(grade_with("v2-negotiation", &o, &g) == CF_PASS, "V2 refused with 1..1: PASS");
}

static void test_classify(void)
{
	struct cf_obs o;
	uint8_t b[128];

	memset(&o, 0, sizeof(o));
	o.answer = b;
	o.answer_len = reply_msg(b, 7, 7, RPC_PROG_UNAVAIL);
	cf_classify(&o);
	tap_ok(o.react == CF_R_RPC_ERROR, "PROG_UNAVAIL: an RPC error");
	o.answer_len = error_msg(b, 7, 0xffffffffu, 1, 1, 2);
	cf_classify(&o);
	tap_ok(o.react == CF_R_ERR_VERS, "ERR_VERS echoing version 0xffffffff is decoded (V1 §9.1)");
	o.answer_len = error_msg(b, 7, 1, 3, 0, 0);
	cf_classify(&o);
	tap_ok(o.react == CF_R_BAD_ANSWER, "V1 rdma_err 3 cannot be decoded: a malformed answer");
	o.answer_len = 6;
	cf_classify(&o);
	tap_ok(o.react == CF_R_BAD_ANSWER, "6 bytes: a malformed answer");
}

static void test_select(void)
{
	const struct cf_case *d = find("v1-read-disc-2"), *v = find("vers-3"),
			     *b = find("bidi-reply-chunks"), *m = find("v1-proc-msgp");
	struct cf_select s;
	char a1[] = "V1", a2[] = "v1-read-*,BIDI";

	tap_ok(d && v && b && m, "cases found");
	if (!(d && v && b && m))
		return;
	tap_ok(cf_spec_matches("V1", d) && !cf_spec_matches("V1", b), "draft V1");
	tap_ok(cf_spec_matches("V1 §5.5", d) && cf_spec_matches("V1 §5.5", v) &&
	       !cf_spec_matches("V1 §5.5", m), "section prefix V1 §5.5");
	tap_ok(cf_spec_matches("V1:5.5.2", d) && cf_spec_matches("5.5.2", d) &&
	       !cf_spec_matches("5.5", m) && !cf_spec_matches("V1 5.5.20", d), "section forms");
	tap_ok(cf_spec_matches("v1-read-*", d) && !cf_spec_matches("v1-read-*", v), "name glob");
	memset(&s, 0, sizeof(s));
	cf_select_add(s.only, &s.nonly, a2);
	tap_ok(cf_selected(&s, d) && cf_selected(&s, b) && !cf_selected(&s, v), "--only a,b");
	memset(&s, 0, sizeof(s));
	cf_select_add(s.skip, &s.nskip, a1);
	tap_ok(!cf_selected(&s, d) && cf_selected(&s, b), "--skip V1");
}

static void test_report(void)
{
	char *mem = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&mem, &len);
	struct obuf out;
	struct cf_report r;
	struct cf_obs o;
	struct cf_grade g;
	struct cf_msgrec msg;
	uint8_t b[32];

	ob_init(&out, f);
	cf_report_init(&r, &out, true, false, false);
	/* a NOTE (our reading, D-MSG-1) leaves the exit status alone, even
	 * with --strict */
	obs_init(&o, 0x1234, 1);
	tap_ok(grade_with("v1-msg-missing-payload", &o, &g) == CF_NOTE, "missing payload "
	       "dropped: NOTE");
	msg.received = false;
	msg.role = "case";
	msg.bytes = b;
	msg.len = msg.kept = 16;
	memset(b, 0xab, sizeof(b));
	cf_report_case(&r, find("v1-msg-missing-payload"), &o, &g, &msg, 1, 0, 3);
	tap_ok(cf_report_status(&r, false) == 0 && cf_report_status(&r, true) == 0,
	       "a NOTE: exit 0, with --strict too");
	obs_init(&o, 0x1234, 1);
	o.probe_answered = true;
	grade_with("v1-proc-done", &o, &g);
	msg.received = false;
	msg.role = "case";
	msg.bytes = b;
	msg.len = msg.kept = 16;
	memset(b, 0xab, sizeof(b));
	cf_report_case(&r, find("v1-proc-done"), &o, &g, &msg, 1, 0, 3);
	tap_ok(cf_report_status(&r, false) == 0 && cf_report_status(&r, true) == 1,
	       "a SHOULD failure: exit 0, 1 with --strict");
	obs_init(&o, 0x1234, 1);
	grade_with("v1-read-disc-2", &o, &g);
	cf_report_case(&r, find("v1-read-disc-2"), &o, &g, &msg, 1, 0, 3);
	tap_ok(cf_report_status(&r, false) == 1, "a MUST failure: exit 1");
	cf_report_end(&r);
	fclose(f);
	tap_ok(mem && strstr(mem, "\"case\":\"v1-proc-done\"") && strstr(mem, "\"result\":\"fail\"") &&
	       strstr(mem, "\"hex\":\"abababababababababababababababab\"") &&
	       strstr(mem, "\"fail_level\":\"SHOULD\"") && strstr(mem, "\"summary\"") &&
	       strstr(mem, "\"failed_must\":1"), "JSON Lines: case, result, bytes, summary");
	tap_ok(mem && strstr(mem, "\"result\":\"note\"") && strstr(mem, "\"note_decision\":\"D-MSG-1\"") &&
	       strstr(mem, "\"noted\":1") &&
	       strstr(mem, "\"fail_sentence\":\"When receiving an RDMA_DONE procedure, receivers SHOULD"),
	       "JSON Lines: a NOTE with its decision, a FAIL with its sentence");
	free(mem);
	/* the text: every FAIL line with the sentence it rests on */
	mem = NULL;
	f = open_memstream(&mem, &len);
	ob_init(&out, f);
	cf_report_init(&r, &out, false, false, false);
	obs_init(&o, 0x1234, 1);
	grade_with("v1-read-disc-2", &o, &g);
	cf_report_case(&r, find("v1-read-disc-2"), &o, &g, &msg, 1, 0, 3);
	obs_init(&o, 0x1234, 1);
	grade_with("v1-msg-missing-payload", &o, &g);
	cf_report_case(&r, find("v1-msg-missing-payload"), &o, &g, &msg, 1, 0, 3);
	cf_report_end(&r);
	fclose(f);
	tap_ok(mem && strstr(mem, "rests on: V1 §5.5.2 \"If the rdma_vers field contains a recognized "
			     "value, but an XDR parsing error occurs, the responder MUST reply") &&
	       strstr(mem, "NOTE     V1 §5.5.2    D-MSG-1") && strstr(mem, "1 noted"),
	       "text: FAIL with its sentence, NOTE with its decision");
	free(mem);
}

/* The audit of docs/conformance.md (issue 21): what knfsd did, graded. */
static void test_knfsd_audit(void)
{
	struct cf_obs o;
	struct cf_grade g;
	uint8_t b[128];
	static const char *const not_fail_discard[] = {
		"v1-msg-xid-byte-swapped", "v1-msg-missing-payload",
		"v1-msg-missing-payload-after-write-chunk",
	};
	static const char *const not_fail_badheader[] = {
		"vers-3-8-bytes", "vers-0-12-bytes", "vers-ffffffff-15-bytes",
		"vx-msg-unknown-vers-short",
	};
	unsigned i;
	bool ok = true;

	/* the six false FAILs and the eight of our reading: none FAILs */
	for (i = 0; i < sizeof(not_fail_discard) / sizeof(not_fail_discard[0]); i++) {
		obs_init(&o, 0x10, 1);
		if (grade_with(not_fail_discard[i], &o, &g) == CF_FAIL) {
			ok = false;
			tap_diag("%s: FAIL on silence", not_fail_discard[i]);
		}
	}
	for (i = 0; i < sizeof(not_fail_badheader) / sizeof(not_fail_badheader[0]); i++) {
		obs_init(&o, 0x11, 3);
		o.answer = b;
		o.answer_len = error_msg(b, 0x11, 3, 2, 0, 0);
		if (grade_with(not_fail_badheader[i], &o, &g) != CF_NOTE) {
			ok = false;
			tap_diag("%s: %s on ERR_BADHEADER", not_fail_badheader[i],
				 cf_result_name(g.result));
		}
	}
	obs_init(&o, 0x12, 3);
	o.answer = b;
	o.answer_len = error_msg(b, 0x12, 3, 1, 1, 1);
	ok &= grade_with("vx-error-unknown-vers-discard", &o, &g) != CF_FAIL;
	ok &= grade_with("vx-error-unknown-vers-badheader", &o, &g) != CF_FAIL;
	ok &= grade_with("vx-error-unknown-vers-cut", &o, &g) != CF_FAIL;
	obs_init(&o, 0x13, 1);
	o.probe_answered = false;
	o.disconnected = true;
	ok &= grade_with("v1-msg-xid-mismatch-after-read-chunk", &o, &g) == CF_ALLOWED;
	obs_init(&o, 0x14, 1);
	o.answer = b;
	o.answer_len = reply_msg(b, 0x14, 0x14, RPC_PROG_MISMATCH);
	ok &= grade_with("v1-msg-missing-payload-4-bytes", &o, &g) == CF_NOTE;
	ok &= grade_with("v1-msg-missing-payload-7-bytes", &o, &g) == CF_NOTE;
	o.answer_len = reply_msg(b, 0x14, 0x14, RPC_SUCCESS);
	ok &= grade_with("read-chunk-longer", &o, &g) == CF_NOTE;
	tap_ok(ok, "knfsd's answers to the 6 false FAILs and the 8 of our reading: none a FAIL");

	/* the correct ones still FAIL, each on its sentence */
	ok = true;
	obs_init(&o, 0x20, 1);
	ok &= grade_with("v1-proc-done", &o, &g) == CF_FAIL && g.level == CF_SHOULD && g.req &&
	      !strcmp(g.req->id, "V1-5.6.2-recv");
	ok &= grade_with("v1-nomsg-without-chunks", &o, &g) == CF_FAIL && g.level == CF_MUST &&
	      g.req && !strcmp(g.req->id, "V1-5.5.2-badheader");
	o.answer = b;
	o.answer_len = reply_msg(b, 0x20, 0x20, RPC_SUCCESS);
	ok &= grade_with("v1-nomsg-without-chunks-with-payload", &o, &g) == CF_FAIL;
	ok &= grade_with("read-chunk-not-ddp-eligible", &o, &g) == CF_FAIL && g.req &&
	      !strcmp(g.req->id, "V1-8.1.1-noprocess");
	o.answer_len = reply_msg(b, 0x20, 0x21, RPC_SUCCESS);
	ok &= grade_with("v1-msg-xid-mismatch", &o, &g) == CF_FAIL && g.req &&
	      !strcmp(g.req->id, "V1-5.2.1-xid") && !strcmp(g.section, "V1 §5.2.1");
	tap_ok(ok, "the correct FAILs still FAIL, on their sentences (the xid defect under V1 §5.2.1)");
}

static void test_safety_and_target(void)
{
	struct sockaddr_in a4;
	struct sockaddr_in6 a6;
	struct cf_target t;
	struct echo_args ea;
	uint8_t buf[2048];
	size_t off, n;

	memset(&a4, 0, sizeof(a4));
	a4.sin_family = AF_INET;
	inet_pton(AF_INET, "198.18.0.1", &a4.sin_addr);
	tap_ok(cf_addr_is_testbed((struct sockaddr *)&a4), "198.18.0.1 is the test bed");
	inet_pton(AF_INET, "198.19.255.255", &a4.sin_addr);
	tap_ok(cf_addr_is_testbed((struct sockaddr *)&a4), "198.19.255.255 too");
	inet_pton(AF_INET, "198.20.0.1", &a4.sin_addr);
	tap_ok(!cf_addr_is_testbed((struct sockaddr *)&a4), "198.20.0.1 is not");
	inet_pton(AF_INET, "10.0.0.1", &a4.sin_addr);
	tap_ok(!cf_addr_is_testbed((struct sockaddr *)&a4), "10.0.0.1 is not");
	memset(&a6, 0, sizeof(a6));
	a6.sin6_family = AF_INET6;
	inet_pton(AF_INET6, "::1", &a6.sin6_addr);
	tap_ok(cf_addr_is_testbed((struct sockaddr *)&a6), "::1 is");
	inet_pton(AF_INET6, "2001:2::5", &a6.sin6_addr);
	tap_ok(cf_addr_is_testbed((struct sockaddr *)&a6), "2001:2::5 is");
	inet_pton(AF_INET6, "2001:db8::1", &a6.sin6_addr);
	tap_ok(!cf_addr_is_testbed((struct sockaddr *)&a6), "2001:db8::1 is not");
	inet_pton(AF_INET6, "::ffff:198.18.0.2", &a6.sin6_addr);
	tap_ok(cf_addr_is_testbed((struct sockaddr *)&a6), "::ffff:198.18.0.2 is");

	cf_target_init(&t, CF_PROF_ECHO);
	n = cf_target_data_call(&t, 0x11, 952, buf, sizeof(buf), &off);
	tap_ok(n == 40 + 4 + 952 && off == 44 && echo_decode_call(buf, n, false, &ea) == ECHO_CALL_OK &&
	       ea.xid == 0x11 && ea.len == 952, "ECHO call: 996 bytes, data at 44");
	cf_target_init(&t, CF_PROF_NFS3);
	n = cf_target_data_call(&t, 0x12, 5, buf, sizeof(buf), &off);
	tap_ok(n == 72 + 8 && off == 72 && !buf[77] && !buf[78] && !buf[79], "NFSv3 WRITE: data at 72 (RFC 5667), padded");
	tap_ok(cf_target_null(&t, 9, buf, sizeof(buf)) == 40, "NULL: 40 bytes");
}

/* the NFSv4.0 lookup's reply from a server without NFSv4.0 (sid's knfsd with
 * nfs-utils 3.1.1's defaults, 11-28): an accepted RPC reply whose COMPOUND has
 * status NFS4ERR_MINOR_VERS_MISMATCH, an empty tag and no result */
static void test_nfs4_lookup_reply(void)
{
	static const uint8_t mismatch[] = {
		0x07, 0xf0, 0x00, 0x8b, 0, 0, 0, 1,      /* xid, REPLY */
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,      /* MSG_ACCEPTED, AUTH_NONE, 0 */
		0, 0, 0, 0,                              /* SUCCESS */
		0, 0, 0x27, 0x25, 0, 0, 0, 0, 0, 0, 0, 0 /* 10021, tag "", 0 results */
	};
	uint8_t fh[128];
	size_t fhlen = 0;
	char why[256] = "";

	tap_ok(cf_nfs4_lookup_reply(mismatch, sizeof(mismatch), fh, &fhlen, why, sizeof(why)) < 0 &&
	       !strcmp(why, "the COMPOUND reply has NFS4 status 10021 (NFS4ERR_MINOR_VERS_MISMATCH: "
			    "the server does not serve NFSv4.0) and no result"),
	       "NFSv4.0 lookup answered NFS4ERR_MINOR_VERS_MISMATCH: the status is said (%s)", why);
	why[0] = 0;
	tap_ok(cf_nfs4_lookup_reply(mismatch, sizeof(mismatch) - 4, fh, &fhlen, why, sizeof(why)) < 0 &&
	       !strcmp(why, "the COMPOUND reply ends before its result count"),
	       "a COMPOUND reply cut before its count: said (%s)", why);
}

/* backward calls as knfsd sends them (RFC 5531 §9 call, RFC 8881 §20:
 * CB_COMPOUND4args tag, minorversion 1, callback_ident, then the ops;
 * CB_SEQUENCE4args with no referring calls, CB_RECALL4args), and the
 * CB_COMPOUND4res we owe: each op answered in order until one fails */
#define BE(x) (uint8_t)((uint32_t)(x) >> 24), (uint8_t)((uint32_t)(x) >> 16), \
	(uint8_t)((uint32_t)(x) >> 8), (uint8_t)(x)
#define CB_HDR(nops) BE(0x55), BE(0), BE(2), BE(0x40000000), BE(1), BE(1), BE(0), BE(0), \
	BE(0), BE(0), BE(0), BE(1), BE(0), BE(nops)
#define CB_SEQ BE(11), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, BE(9), BE(0), \
	BE(3), BE(0), BE(0)
#define CB_RECALL_OP BE(4), BE(1), 's', 't', 'a', 't', 'e', '-', 'o', 't', 'h', 'e', 'r', '!', \
	BE(0), BE(4), 'f', 'h', '0', '1'
static size_t cb(const uint8_t *call, size_t len, uint8_t *out, size_t cap)
{
	uint8_t *g = malloc(len ? len : 1);
	size_t n;

	if (!g)
		return 0;
	memcpy(g, call, len);
	n = cf_nfs41_cb_reply(g, len, out, cap);
	free(g);
	return n;
}

static void test_nfs41_cb_reply(void)
{
	static const uint8_t recall[] = { CB_HDR(2), CB_SEQ, CB_RECALL_OP };
	static const uint8_t getattr[] = { CB_HDR(3), CB_SEQ, BE(3), CB_RECALL_OP };
	static const uint8_t illegal[] = { CB_HDR(3), CB_SEQ, BE(99), CB_RECALL_OP };
	static const uint8_t cut[] = { CB_HDR(2), CB_SEQ, BE(4), BE(1) };
	/* a referring_call_lists count of 2^32 - 1 and nothing after it */
	static const uint8_t lists[] = { CB_HDR(1), BE(11), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
					 13, 14, 15, 16, BE(9), BE(0), BE(3), BE(0), BE(0xffffffff) };
	/* one list, its sessionid, then 2^32 - 1 referring calls in 8 bytes */
	static const uint8_t calls[] = { CB_HDR(1), BE(11), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
					 13, 14, 15, 16, BE(9), BE(0), BE(3), BE(0), BE(1),
					 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
					 BE(0xffffffff), BE(1), BE(2) };
	/* accepted SUCCESS; status, tag "", count; CB_SEQUENCE4resok */
	static const uint8_t head[] = { BE(0x55), BE(1), BE(0), BE(0), BE(0), BE(0) };
	static const uint8_t seq_res[] = { BE(11), BE(0), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13,
					   14, 15, 16, BE(9), BE(0), BE(3), BE(3) };
	uint8_t out[512], want[512];
	size_t n, k;

#define WANT(status, count, ...) do { \
		const uint8_t tail_[] = { BE(status), BE(0), BE(count) }; \
		const uint8_t ops_[] = { __VA_ARGS__ }; \
		k = 0; \
		memcpy(want + k, head, sizeof(head)); k += sizeof(head); \
		memcpy(want + k, tail_, sizeof(tail_)); k += sizeof(tail_); \
		memcpy(want + k, seq_res, sizeof(seq_res)); k += sizeof(seq_res); \
		memcpy(want + k, ops_, sizeof(ops_)); k += sizeof(ops_); \
	} while (0)
	n = cb(recall, sizeof(recall), out, sizeof(out));
	WANT(0, 2, BE(4), BE(0));
	tap_ok(n == k && !memcmp(out, want, k), "CB_COMPOUND { CB_SEQUENCE, CB_RECALL }: both NFS4_OK, the slot echoed");
	n = cb(getattr, sizeof(getattr), out, sizeof(out));
	WANT(10004, 2, BE(3), BE(10004));
	tap_ok(n == k && !memcmp(out, want, k),
	       "CB_GETATTR: NFS4ERR_NOTSUPP, its result the last (RFC 8881 §19.2.3: the CB_RECALL after it not done)");
	n = cb(illegal, sizeof(illegal), out, sizeof(out));
	WANT(10044, 2, BE(10044), BE(10044));
	tap_ok(n == k && !memcmp(out, want, k), "op 99: CB_ILLEGAL, NFS4ERR_OP_ILLEGAL, the last result");
	n = cb(cut, sizeof(cut), out, sizeof(out));
	tap_ok(n == 24 && out[23] == 4, "CB_RECALL's arguments cut short: GARBAGE_ARGS");
	n = cb(lists, sizeof(lists), out, sizeof(out));
	tap_ok(n == 24 && out[23] == 4, "2^32 - 1 referring call lists in no bytes: GARBAGE_ARGS, at once");
	n = cb(calls, sizeof(calls), out, sizeof(out));
	tap_ok(n == 24 && out[23] == 4, "2^32 - 1 referring calls in 8 bytes: GARBAGE_ARGS, at once");
#undef WANT
}

int main(void)
{
	test_table();
	test_grading();
	test_classify();
	test_nfs41_cb_reply();
	test_select();
	test_report();
	test_knfsd_audit();
	test_safety_and_target();
	test_nfs4_lookup_reply();
	return tap_done();
}
