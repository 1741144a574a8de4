/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * req_fault_cases.c - issue 26 item 2: rpcrdma-conform --requester
 * --faults's cases, a fault of the responder's side each (req_faults.c
 * injects it), and their grader (pure): what the requester sends next.
 * Every FAIL cites a requester's sentence with a keyword (the credit
 * rules: they bind whatever the responder did); what the texts leave open
 * (a grant above what was asked, a grant of 0, a retransmission after an
 * RDMA_ERROR, a reply for no call, a short write chunk) is a NOTE naming
 * our reading in docs/spec-decisions.md (D-RQF-*).
 */
#include <stdio.h>
#include "req.h"

#define CREDIT_IDS "V1-4.3.1-limit,V1-4.3.3-first"

const struct cf_rq_case cf_rq_fault_cases[] = {
	{ "rq-grant-shrink", "V1-4.3.1-limit,V1-5.2.3-limit,V1-4.3.3-first",
	  "replies grant 32 until the requester has 3 calls out (or 24 replies went), then 2: "
	  "every call sent once "
	  "the smaller grant could be seen keeps to it (D-RQF-1: one sent as it crossed that "
	  "reply is judged against 32)", 32, 3, CF_RQ_GRANT_SHRINK, false },
	{ "rq-grant-grow", CREDIT_IDS,
	  "replies grant 256, more than a call asks: never more calls out than granted; more "
	  "than asked is a NOTE (D-RQF-2)", 256, 3, CF_RQ_GRANT_GROW, false },
	{ "rq-grant-0", "V1-4.3.3-first",
	  "replies grant 0 (the responder breaks V1-4.3.1-grant): one call before the first "
	  "reply; after it, more than one out is a NOTE (D-RQF-3: 0 read as 1)", 0, 3,
	  CF_RQ_GRANT_ZERO, false },
	{ "rq-err-vers", CREDIT_IDS,
	  "the first NFSv3 READ is answered RDMA_ERROR ERR_VERS (versions 1 to 1): the credit "
	  "rules hold after it; its xid sent again on the same connection is a NOTE (D-RQF-4)",
	  32, 3, CF_RQ_ERR_VERS, false },
	{ "rq-err-badheader", CREDIT_IDS,
	  "the first NFSv3 READ is answered RDMA_ERROR ERR_BADHEADER (RFC 5666's ERR_CHUNK): "
	  "the credit rules hold after it; its xid sent again on the same connection is a NOTE "
	  "(D-RQF-4)", 32, 3, CF_RQ_ERR_BADHEADER, false },
	{ "rq-stray-xid", CREDIT_IDS,
	  "replies grant 2; once 3 replies went, a reply whose xid matches no call comes "
	  "before a real one: no call past the grant after it (it returns no credit); a new "
	  "connection after it (the one it came on ended) is a NOTE (D-RQF-5)", 2, 3, CF_RQ_STRAY_XID, false },
	{ "rq-write-short", CREDIT_IDS,
	  "the first NFSv3 READ of 8 KiB or more with a write chunk is answered with half its "
	  "count (NFS count and write chunk length say so, no eof): the credit rules hold; no "
	  "READ going on where it stopped is a NOTE (D-RQF-6)", 32, 3, CF_RQ_WRITE_SHORT, false },
};
const size_t cf_rq_nfault_cases = sizeof(cf_rq_fault_cases) / sizeof(cf_rq_fault_cases[0]);

enum cf_rq_fault cf_rq_fault_of(enum cf_rq_kind k)
{
	return k >= CF_RQ_GRANT_SHRINK && k <= CF_RQ_WRITE_SHORT
	       ? (enum cf_rq_fault)(CF_RQ_F_SHRINK + (k - CF_RQ_GRANT_SHRINK)) : CF_RQ_F_NONE;
}

/* the credit rules every fault case keeps: true when one FAILed */
static bool credit_fail(const struct cf_rq_obs *o, struct cf_rq_grade *g, const char *what)
{
	const struct cf_rq_fobs *f = &o->f;

	if (o->before_first)
		g->req_id = "V1-4.3.3-first";
	else if (f->over || f->over_after)
		g->req_id = "V1-4.3.1-limit";
	else
		return false;
	g->result = CF_FAIL;
	snprintf(g->observed, sizeof(g->observed), "%s; %llu call(s) before the first reply, "
		 "%llu past the grant in effect (at most %u out)", what,
		 (unsigned long long)o->before_first,
		 (unsigned long long)(f->over + f->over_after), f->max_out);
	return true;
}

static void grade_shrink(const struct cf_rq_obs *o, struct cf_rq_grade *g)
{
	const struct cf_rq_fobs *f = &o->f;
	char what[80];

	if (f->shrunk)
		snprintf(what, sizeof(what), "shrunk to %u with %u out", CF_RQ_SHRUNK, f->shrunk_out);
	else
		snprintf(what, sizeof(what), "not shrunk");
	if (credit_fail(o, g, what))
		return;
	if (!f->shrink_ms || !f->after) {
		g->result = CF_SKIP;
		snprintf(g->observed, sizeof(g->observed), "%llu calls; %s: no call once a grant "
			 "of %u could be seen", (unsigned long long)o->calls,
			 f->shrunk ? "shrunk" : "never 3 out, never shrunk", CF_RQ_SHRUNK);
		return;
	}
	g->result = CF_PASS;
	snprintf(g->observed, sizeof(g->observed), "%llu calls; shrunk to %u with %u out; %llu "
		 "call(s) crossing it (at most %u out), %llu after it, at most %u out then",
		 (unsigned long long)o->calls, CF_RQ_SHRUNK, f->shrunk_out,
		 (unsigned long long)f->crossing, f->max_out_crossing,
		 (unsigned long long)f->after, f->max_out_after);
}

static void grade_grow(const struct cf_rq_obs *o, struct cf_rq_grade *g)
{
	const struct cf_rq_fobs *f = &o->f;

	if (credit_fail(o, g, "granted 256"))
		return;
	if (f->max_asked >= o->grant) {
		g->result = CF_SKIP;
		snprintf(g->observed, sizeof(g->observed), "the calls asked for up to %u credits, "
			 "the grant %u is no more than that", f->max_asked, o->grant);
		return;
	}
	g->result = f->over_asked ? CF_NOTE : CF_PASS;
	g->decision = f->over_asked ? "D-RQF-2" : NULL;
	snprintf(g->observed, sizeof(g->observed), "%llu calls asking %u..%u credits, granted "
		 "%u: at most %u out; %llu past what the call asked (within the grant)",
		 (unsigned long long)o->calls, f->min_asked, f->max_asked, o->grant, f->max_out,
		 (unsigned long long)f->over_asked);
}

static void grade_zero(const struct cf_rq_obs *o, struct cf_rq_grade *g)
{
	const struct cf_rq_fobs *f = &o->f;

	if (o->before_first) {
		g->result = CF_FAIL;
		g->req_id = "V1-4.3.3-first";
		snprintf(g->observed, sizeof(g->observed), "%llu call(s) before the first reply",
			 (unsigned long long)o->before_first);
		return;
	}
	g->result = f->over_one || !f->judged ? CF_NOTE : CF_PASS;
	g->decision = g->result == CF_NOTE ? "D-RQF-3" : NULL;
	snprintf(g->observed, sizeof(g->observed), "%llu calls, every reply granting 0: %llu "
		 "after the first reply, at most %u out; %llu with another one out",
		 (unsigned long long)o->calls, (unsigned long long)f->judged, f->max_out,
		 (unsigned long long)f->over_one);
}

static void grade_error(const struct cf_rq_obs *o, struct cf_rq_grade *g)
{
	const struct cf_rq_fobs *f = &o->f;
	const char *err = f->fault == CF_RQ_F_ERR_VERS ? "ERR_VERS" : "ERR_BADHEADER";
	char what[80];

	snprintf(what, sizeof(what), "READ xid 0x%08x answered %s", f->inj_xid, err);
	if (!f->injected) {
		g->result = CF_SKIP;
		snprintf(g->observed, sizeof(g->observed), "%llu calls, no NFSv3 READ to answer "
			 "with %s", (unsigned long long)o->calls, err);
		return;
	}
	if (credit_fail(o, g, what))
		return;
	g->result = f->retrans_same ? CF_NOTE : CF_PASS;
	g->decision = f->retrans_same ? "D-RQF-4" : NULL;
	snprintf(g->observed, sizeof(g->observed), "%.60s: again %llu on its connection, "
		 "%llu on a later one; %llu other call(s) after, %llu answered; %u "
		 "disconnect(s)", what, (unsigned long long)f->retrans_same,
		 (unsigned long long)f->retrans_other, (unsigned long long)f->calls_after,
		 (unsigned long long)f->replies_after, f->disc_after);
}

static void grade_stray(const struct cf_rq_obs *o, struct cf_rq_grade *g)
{
	const struct cf_rq_fobs *f = &o->f;
	char what[80];
	uint32_t back;

	snprintf(what, sizeof(what), "a reply with xid 0x%08x (no call's)", f->inj_xid);
	if (!f->injected) {
		g->result = CF_SKIP;
		snprintf(g->observed, sizeof(g->observed), "%llu calls, %llu replies: the stray "
			 "reply never went", (unsigned long long)o->calls,
			 (unsigned long long)o->replies);
		return;
	}
	if (credit_fail(o, g, what))
		return;
	/* a requester that comes back on a new connection ended the one the
	 * stray reply came on (leaving at the end, unmounted, is no fault) */
	back = o->connected - f->inj_connected;
	g->result = back ? CF_NOTE : CF_PASS;
	g->decision = back ? "D-RQF-5" : NULL;
	snprintf(g->observed, sizeof(g->observed), "%s: %llu call(s) after it, %llu answered, "
		 "at most %u out (grant %u); %u new connection(s) after it", what,
		 (unsigned long long)f->calls_after, (unsigned long long)f->replies_after,
		 f->max_out, o->grant, back);
}

static void grade_short(const struct cf_rq_obs *o, struct cf_rq_grade *g)
{
	const struct cf_rq_fobs *f = &o->f;
	char what[80];

	snprintf(what, sizeof(what), "a READ of %u at %llu answered with %u", f->short_asked,
		 (unsigned long long)f->short_off, f->short_got);
	if (!f->injected) {
		g->result = CF_SKIP;
		snprintf(g->observed, sizeof(g->observed), "%llu calls, no NFSv3 READ of 8 KiB "
			 "or more with a write chunk", (unsigned long long)o->calls);
		return;
	}
	if (credit_fail(o, g, what))
		return;
	g->result = f->cont_reads ? CF_PASS : CF_NOTE;
	g->decision = f->cont_reads ? NULL : "D-RQF-6";
	snprintf(g->observed, sizeof(g->observed), "%s: %llu READ(s) of the file after it, "
		 "%llu at offset %llu where it stopped", what, (unsigned long long)f->reads_after,
		 (unsigned long long)f->cont_reads,
		 (unsigned long long)(f->short_off + f->short_got));
}

void cf_rq_fault_grade(const struct cf_rq_case *c, const struct cf_rq_obs *o,
		       struct cf_rq_grade *g)
{
	switch (cf_rq_fault_of(c->kind)) {
	case CF_RQ_F_SHRINK: grade_shrink(o, g); break;
	case CF_RQ_F_GROW: grade_grow(o, g); break;
	case CF_RQ_F_ZERO: grade_zero(o, g); break;
	case CF_RQ_F_ERR_VERS:
	case CF_RQ_F_ERR_BADHEADER: grade_error(o, g); break;
	case CF_RQ_F_STRAY_XID: grade_stray(o, g); break;
	case CF_RQ_F_SHORT_WRITE: grade_short(o, g); break;
	case CF_RQ_F_NONE:
	default:
		g->result = CF_SKIP;
		snprintf(g->observed, sizeof(g->observed), "no fault");
		break;
	}
}
