/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * req_cases.c - rpcrdma-conform --requester's cases: what the responder's
 * side does on purpose, the catalogue's requester sentences
 * (docs/requirements.tsv) the requester's next messages are graded on, and
 * the grader (pure).  Every FAIL cites the sentence of its keyword.
 */
#include <stdio.h>
#include "req.h"

const struct cf_rq_case cf_rq_cases[] = {
	{ "rq-first-one-call", "V1-4.3.3-first,V2-5-single",
	  "before the first reply, at most one call outstanding (every reply grants 32)", 32, 2 },
	{ "rq-grant-1", "V1-4.3.1-limit,V1-5.2.3-limit,V1-4.3.3-first",
	  "every reply grants 1 credit: never two calls outstanding", 1, 3 },
};
const size_t cf_rq_ncases = sizeof(cf_rq_cases) / sizeof(cf_rq_cases[0]);

void cf_rq_grade(const struct cf_rq_case *c, const struct cf_rq_obs *o, struct cf_rq_grade *g)
{
	g->req_id = NULL;
	if (o->calls < c->min_calls) {
		g->result = CF_SKIP;
		snprintf(g->observed, sizeof(g->observed), "%llu call(s) seen, %llu needed: no "
			 "requester drove this case", (unsigned long long)o->calls,
			 (unsigned long long)c->min_calls);
		return;
	}
	if (o->before_first) {
		g->result = CF_FAIL;
		g->req_id = "V1-4.3.3-first";
	} else if (o->over_grant) {
		g->result = CF_FAIL;
		g->req_id = "V1-4.3.1-limit";
	} else {
		g->result = CF_PASS;
	}
	snprintf(g->observed, sizeof(g->observed), "%llu calls, %llu replies granting %u, at most "
		 "%u outstanding; %llu call(s) before the first reply, %llu past the grant",
		 (unsigned long long)o->calls, (unsigned long long)o->replies, o->grant,
		 o->max_outstanding, (unsigned long long)o->before_first,
		 (unsigned long long)o->over_grant);
}
