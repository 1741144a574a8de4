/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * report.c - rpcrdma-conform's output, h2spec's shape: one line per case
 * (result, draft and section, keyword, the rule, the case's name), expected
 * and observed under each failure, totals per draft; or --json, JSON Lines:
 * a "run" object, one object per case with every message sent and
 * received as hex, and a "summary" object.
 */
#include <stdio.h>
#include <string.h>
#include "conform.h"
#include "json.h"

void cf_report_init(struct cf_report *r, struct obuf *out, bool json, bool verbose, bool quiet)
{
	memset(r, 0, sizeof(*r));
	r->out = out;
	r->json = json;
	r->jout = json ? out : NULL;
	r->verbose = verbose;
	r->quiet = quiet;
}

/* a JSON Lines record {"key":{...}}: begin, then end with the newline */
static void jrec_begin(struct cf_report *r, struct json *j, const char *key)
{
	json_init(j, r->jout);
	json_obj_begin(j);
	json_key(j, key);
	json_obj_begin(j);
}

static void jrec_end(struct cf_report *r, struct json *j)
{
	json_obj_end(j);
	json_obj_end(j);
	ob_putc(r->jout, '\n');
	ob_flush(r->jout);
}

void cf_report_header(struct cf_report *r, const char *target, const char *profile,
		      const char *peer)
{
	if (r->jout) {
		struct json j;

		jrec_begin(r, &j, "run");
		json_kstr(&j, "target", target);
		json_kstr(&j, "program", profile);
		json_kstr(&j, "peer", peer);
		jrec_end(r, &j);
	}
	if (!r->json) {
		ob_puts(r->out, CF_PROG ": ");
		ob_puts(r->out, target);
		ob_puts(r->out, ", program ");
		ob_puts(r->out, profile);
		ob_puts(r->out, "\n  ");
		ob_puts(r->out, peer);
		ob_putc(r->out, '\n');
	}
	ob_flush(r->out);
}

static void json_case(struct obuf *out, const struct cf_case *c, const struct cf_obs *o,
		      const struct cf_grade *g, const struct cf_msgrec *msgs, unsigned nmsgs,
		      unsigned more, uint64_t ms)
{
	struct json j;
	char sec[48];
	unsigned i;

	json_init(&j, out);
	json_obj_begin(&j);
	json_kstr(&j, "case", c->name);
	json_kstr(&j, "draft", cf_draft_name(c->draft));
	cf_case_section(c, sec, sizeof(sec));
	json_kstr(&j, "section", sec);
	json_kstr(&j, "level", cf_level_name(c->level));
	json_kstr(&j, "text", c->text);
	json_kstr(&j, "requirements", c->reqs);
	json_kstr(&j, "decision", c->decision);
	json_kstr(&j, "result", g->result == CF_PASS ? "pass" : g->result == CF_FAIL ? "fail" :
		  g->result == CF_ALLOWED ? "allowed" : g->result == CF_NOTE ? "note" : "skip");
	if (g->result == CF_FAIL) {
		json_kstr(&j, "fail_level", cf_level_name(g->level));
		json_kstr(&j, "fail_section", g->section);
		json_kstr(&j, "fail_requirement", g->req ? g->req->id : NULL);
		json_kstr(&j, "fail_sentence", g->req ? g->req->sentence : NULL);
	}
	if (g->result == CF_NOTE)
		json_kstr(&j, "note_decision", g->decision);
	json_kstr(&j, "expected", g->expected);
	json_kstr(&j, "observed", g->observed);
	if (g->result != CF_SKIP)
		json_kstr(&j, "reaction", cf_react_name(o->react));
	if (o->retried) {
		json_ku64(&j, "retried", o->retried);
		json_kstr(&j, "retry_why", o->retry_why);
	}
	if (o->sent_action >= 0)
		json_kstr(&j, "sent_verdict", rpcrdma_action_name((enum rpcrdma_action)o->sent_action));
	json_key(&j, "xids");
	json_arr_begin(&j);
	for (i = 0; i < o->nsent_xid; i++) {
		char x[12];

		snprintf(x, sizeof(x), "0x%08x", o->sent_xid[i]);
		json_str(&j, x);
	}
	json_arr_end(&j);
	json_ku64(&j, "ms", ms);
	json_key(&j, "messages");
	json_arr_begin(&j);
	for (i = 0; i < nmsgs; i++) {
		json_obj_begin(&j);
		json_kstr(&j, "dir", msgs[i].received ? "received" : "sent");
		json_kstr(&j, "role", msgs[i].role);
		json_ku64(&j, "len", msgs[i].len);
		json_key(&j, "hex");
		json_hexstr(&j, msgs[i].bytes, msgs[i].kept);
		if (msgs[i].kept < msgs[i].len)
			json_kbool(&j, "truncated", true);
		json_obj_end(&j);
	}
	json_arr_end(&j);
	json_ku64(&j, "more_messages", more);
	json_obj_end(&j);
	ob_putc(out, '\n');
	ob_flush(out);
}

static void hexline(struct obuf *out, const char *what, const struct cf_msgrec *m)
{
	static const char hx[] = "0123456789abcdef";
	uint32_t i;

	ob_puts(out, "           ");
	ob_puts(out, what);
	ob_puts(out, m->received ? " received " : " sent ");
	ob_u64(out, m->len);
	ob_puts(out, " bytes:");
	for (i = 0; i < m->kept && i < 64; i++) {
		if (!(i & 3))
			ob_putc(out, ' ');
		ob_putc(out, hx[m->bytes[i] >> 4]);
		ob_putc(out, hx[m->bytes[i] & 15]);
	}
	if (m->len > 64)
		ob_puts(out, " ...");
	ob_putc(out, '\n');
}

void cf_report_case(struct cf_report *r, const struct cf_case *c, const struct cf_obs *o,
		    const struct cf_grade *g, const struct cf_msgrec *msgs, unsigned nmsgs,
		    unsigned more, uint64_t ms)
{
	char sec[48], line[512];
	unsigned i;

	r->t.n[c->draft][g->result]++;
	r->t.retried += o->retried;
	if (o->react == CF_R_CRASH && g->result != CF_SKIP)
		r->t.crashed = true;
	if (g->result == CF_FAIL) {
		if (g->level == CF_MUST)
			r->t.fail_must[c->draft]++;
		else
			r->t.fail_should[c->draft]++;
	}
	if (r->jout)
		json_case(r->jout, c, o, g, msgs, nmsgs, more, ms);
	if (r->json)
		return;
	if (r->quiet && g->result != CF_FAIL && g->result != CF_NOTE)
		return;
	if (!r->heading || r->cur_draft != c->draft) {
		ob_putc(r->out, '\n');
		ob_puts(r->out, cf_draft_title(c->draft));
		ob_putc(r->out, '\n');
		r->heading = true;
		r->cur_draft = c->draft;
	}
	if (g->result == CF_FAIL)
		snprintf(sec, sizeof(sec), "%s", g->section);
	else
		cf_case_section(c, sec, sizeof(sec));
	snprintf(line, sizeof(line), "  %-8s %-13.47s %-6s %.127s [%.47s]\n", cf_result_name(g->result), sec,
		 g->result == CF_NOTE ? g->decision : g->result == CF_FAIL ? cf_level_name(g->level) :
		 c->decision ? c->decision : cf_level_name(c->level),
		 c->text, c->name);
	ob_puts(r->out, line);
	if (g->result == CF_FAIL && g->req) {
		/* the exact sentence the failure rests on */
		ob_puts(r->out, "           rests on: ");
		ob_puts(r->out, g->req->seed);
		ob_putc(r->out, ' ');
		ob_puts(r->out, g->req->section);
		ob_puts(r->out, " \"");
		ob_puts(r->out, g->req->sentence);
		ob_puts(r->out, "\" [");
		ob_puts(r->out, g->req->id);
		ob_puts(r->out, "]\n");
	}
	if (g->result == CF_NOTE) {
		snprintf(line, sizeof(line), "           not a failure: no sentence of the seeds decides; "
			 "our reading is %s (docs/spec-decisions.md)\n", g->decision);
		ob_puts(r->out, line);
	}
	if (g->result == CF_FAIL || g->result == CF_NOTE || (r->verbose && g->result != CF_SKIP)) {
		snprintf(line, sizeof(line), "           expected: %s\n", g->expected);
		ob_puts(r->out, line);
	}
	if (g->result != CF_PASS || r->verbose) {
		snprintf(line, sizeof(line), "           %s: %s\n",
			 g->result == CF_SKIP ? "skipped" : "observed", g->observed);
		ob_puts(r->out, line);
	}
	if (o->retried) {
		snprintf(line, sizeof(line), "           retried: a new connection, once: %.150s\n",
			 o->retry_why);
		ob_puts(r->out, line);
	}
	if (r->verbose || g->result == CF_FAIL || g->result == CF_NOTE)
		for (i = 0; i < nmsgs && (r->verbose || i < 4); i++)
			hexline(r->out, msgs[i].role, &msgs[i]);
	ob_flush(r->out);
}

static void totals_line(struct obuf *out, const char *name, const unsigned *n,
			unsigned must, unsigned should)
{
	char line[200];

	snprintf(line, sizeof(line),
		 "%-5s %3u cases: %u passed, %u failed (%u MUST, %u SHOULD), %u allowed, %u noted, "
		 "%u skipped\n",
		 name, n[CF_PASS] + n[CF_FAIL] + n[CF_ALLOWED] + n[CF_SKIP] + n[CF_NOTE], n[CF_PASS],
		 n[CF_FAIL], must, should, n[CF_ALLOWED], n[CF_NOTE], n[CF_SKIP]);
	ob_puts(out, line);
}

void cf_report_end(struct cf_report *r)
{
	unsigned all[CF_NRESULTS] = { 0 }, must = 0, should = 0;
	enum cf_draft d;
	unsigned k;

	for (d = CF_V1; d < CF_NDRAFTS; d++) {
		for (k = 0; k < CF_NRESULTS; k++)
			all[k] += r->t.n[d][k];
		must += r->t.fail_must[d];
		should += r->t.fail_should[d];
	}
	if (r->jout) {
		struct json j;

		jrec_begin(r, &j, "summary");
		for (d = CF_V1; d <= CF_NDRAFTS; d++) {
			const unsigned *n = d < CF_NDRAFTS ? r->t.n[d] : all;

			json_key(&j, d < CF_NDRAFTS ? cf_draft_name(d) : "total");
			json_obj_begin(&j);
			json_ku64(&j, "passed", n[CF_PASS]);
			json_ku64(&j, "failed", n[CF_FAIL]);
			json_ku64(&j, "failed_must", d < CF_NDRAFTS ? r->t.fail_must[d] : must);
			json_ku64(&j, "failed_should", d < CF_NDRAFTS ? r->t.fail_should[d] : should);
			json_ku64(&j, "allowed", n[CF_ALLOWED]);
			json_ku64(&j, "noted", n[CF_NOTE]);
			json_ku64(&j, "skipped", n[CF_SKIP]);
			json_obj_end(&j);
		}
		json_ku64(&j, "retried_connections", r->t.retried);
		jrec_end(r, &j);
	}
	if (!r->json) {
		ob_putc(r->out, '\n');
		for (d = CF_V1; d < CF_NDRAFTS; d++)
			totals_line(r->out, cf_draft_name(d), r->t.n[d], r->t.fail_must[d],
				    r->t.fail_should[d]);
		totals_line(r->out, "total", all, must, should);
		if (r->t.retried) {
			char line[200];

			snprintf(line, sizeof(line), "retried %u connection(s) once: the first "
				 "message of a new connection went unanswered\n", r->t.retried);
			ob_puts(r->out, line);
		}
	}
	ob_flush(r->out);
}

int cf_report_status(const struct cf_report *r, bool strict)
{
	enum cf_draft d;

	/* a NOTE never fails a run; a crash (the listener gone, no sentence:
	 * a NOTE) does, as the run could not finish */
	if (r->t.crashed)
		return 1;
	for (d = CF_V1; d < CF_NDRAFTS; d++)
		if (r->t.fail_must[d] || (strict && r->t.fail_should[d]))
			return 1;
	return 0;
}

void cf_report_list(struct obuf *out, bool json, const struct cf_select *s)
{
	static struct cf_case cases[512];
	size_t n = cf_cases_build(cases, sizeof(cases) / sizeof(cases[0])), i;
	char sec[48], line[400];

	for (i = 0; i < n && i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct cf_case *c = &cases[i];

		if (!cf_selected(s, c))
			continue;
		cf_case_section(c, sec, sizeof(sec));
		if (json) {
			struct json j;
			char exp[200];

			cf_mask_text(c->pass, exp, sizeof(exp));
			json_init(&j, out);
			json_obj_begin(&j);
			json_kstr(&j, "case", c->name);
			json_kstr(&j, "draft", cf_draft_name(c->draft));
			json_kstr(&j, "section", sec);
			json_kstr(&j, "level", cf_level_name(c->level));
			json_kstr(&j, "requirements", c->reqs);
			json_kstr(&j, "decision", c->decision);
			json_kstr(&j, "text", c->text);
			json_kstr(&j, "pass", exp);
			cf_mask_text(c->allowed, exp, sizeof(exp));
			json_kstr(&j, "allowed", c->allowed ? exp : NULL);
			json_kstr(&j, "allowed_why", c->allowed_why);
			json_key(&j, "needs");
			json_arr_begin(&j);
			if (c->flags & CF_F_V2)
				json_str(&j, "v2");
			if ((c->flags & CF_F_ECHO) && (c->flags & CF_F_NFS))
				json_str(&j, "echo or NFS with --file");
			else if (c->flags & CF_F_ECHO)
				json_str(&j, "echo");
			if (c->flags & CF_F_DDP)
				json_str(&j, "ddp");
			json_arr_end(&j);
			json_kbool(&j, "fresh_connection", c->flags & CF_F_FRESH);
			json_obj_end(&j);
			ob_putc(out, '\n');
		} else {
			snprintf(line, sizeof(line), "%-40.47s %-13.47s %-9s %.127s\n", c->name, sec,
				 c->decision ? c->decision : cf_level_name(c->level), c->text);
			ob_puts(out, line);
		}
	}
	ob_flush(out);
}
