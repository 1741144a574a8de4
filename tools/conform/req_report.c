/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * req_report.c - rpcrdma-conform --requester's report: each case's result
 * with the sentence a FAIL rests on, as text and as JSON Lines (--json,
 * --json-file), in the responder report's shape: a {"run":{...}} record,
 * one object per case, a {"summary":{...}} record.
 */
#include "json.h"
#include "req.h"

static void jrec(FILE *f, struct obuf *ob, struct json *j, const char *key)
{
	ob_init(ob, f);
	json_init(j, ob);
	json_obj_begin(j);
	json_key(j, key);
	json_obj_begin(j);
}

static void jend(struct obuf *ob, struct json *j, unsigned levels)
{
	while (levels--)
		json_obj_end(j);
	ob_putc(ob, '\n');
	ob_flush(ob);
}

void cf_rq_report_begin(const struct cf_rq_report *r, const char *port, int window_ms)
{
	if (r->json) {
		struct obuf ob;
		struct json j;

		jrec(r->json, &ob, &j, "run");
		json_kstr(&j, "mode", "requester");
		json_kstr(&j, "port", port);
		json_ku64(&j, "window_ms", (uint64_t)window_ms);
		json_ku64(&j, "cases", r->ncases ? r->ncases : cf_rq_ncases);
		jend(&ob, &j, 2);
	}
	if (r->text)
		fprintf(r->text, "rpcrdma-conform --requester: %zu cases on port %s, each "
			"watching the requesters that connect for %d ms\n",
			r->ncases ? r->ncases : cf_rq_ncases,
			port, window_ms);
}

void cf_rq_report_case(const struct cf_rq_report *r, const struct cf_rq_case *c,
		       const struct cf_rq_grade *g)
{
	const struct cf_req *q = g->req_id ? cf_req_find(g->req_id) : NULL;

	if (r->json) {
		struct obuf ob;
		struct json j;

		ob_init(&ob, r->json);
		json_init(&j, &ob);
		json_obj_begin(&j);
		json_kstr(&j, "case", c->name);
		json_kstr(&j, "party", "requester");
		json_kstr(&j, "text", c->what);
		json_kstr(&j, "requirements", c->reqs);
		json_kstr(&j, "result", g->result == CF_PASS ? "pass" :
			  g->result == CF_FAIL ? "fail" : g->result == CF_NOTE ? "note" : "skip");
		if (g->result == CF_NOTE)
			json_kstr(&j, "decision", g->decision);
		if (g->result == CF_FAIL) {
			json_kstr(&j, "fail_requirement", g->req_id);
			json_kstr(&j, "fail_seed", q ? q->seed : NULL);
			json_kstr(&j, "fail_section", q ? q->section : NULL);
			json_kstr(&j, "fail_keyword", q ? q->keyword : NULL);
			json_kstr(&j, "fail_sentence", q ? q->sentence : NULL);
		}
		json_kstr(&j, "observed", g->observed);
		jend(&ob, &j, 1);
	}
	if (!r->text)
		return;
	fprintf(r->text, "%-6s %-20s %s [%s]\n         observed: %s\n",
		cf_result_name(g->result), c->name, c->what, c->reqs, g->observed);
	if (q)
		fprintf(r->text, "         rests on: %s %s %s \"%s\" [%s]\n", q->seed,
			q->section, q->keyword, q->sentence, q->id);
	else if (g->result == CF_NOTE && g->decision)
		fprintf(r->text, "         our reading: %s (docs/spec-decisions.md): no sentence "
			"with a keyword binds the requester here\n", g->decision);
}

void cf_rq_report_end(const struct cf_rq_report *r, const unsigned n[CF_NRESULTS])
{
	if (r->json) {
		struct obuf ob;
		struct json j;

		jrec(r->json, &ob, &j, "summary");
		json_key(&j, "total");
		json_obj_begin(&j);
		json_ku64(&j, "cases", r->ncases ? r->ncases : cf_rq_ncases);
		json_ku64(&j, "passed", n[CF_PASS]);
		json_ku64(&j, "failed", n[CF_FAIL]);
		json_ku64(&j, "skipped", n[CF_SKIP]);
		json_ku64(&j, "noted", n[CF_NOTE]);
		jend(&ob, &j, 3);
	}
	if (r->text)
		fprintf(r->text, "total  %zu cases: %u passed, %u failed, %u skipped, %u noted\n",
			r->ncases ? r->ncases : cf_rq_ncases, n[CF_PASS], n[CF_FAIL], n[CF_SKIP], n[CF_NOTE]);
}
