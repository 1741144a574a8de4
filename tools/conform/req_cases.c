/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * req_cases.c - rpcrdma-conform --requester's cases: what the responder's
 * side does on purpose, the catalogue's requester (and sender) sentences
 * (docs/requirements.tsv) the requester's messages are graded on, and the
 * grader (pure).  Every FAIL cites the sentence of its keyword; where no
 * sentence with a keyword binds the requester, the result is a NOTE with
 * the decision behind our reading (docs/spec-decisions.md).
 */
#include <stdio.h>
#include "req.h"

const struct cf_rq_case cf_rq_cases[] = {
	{ "rq-first-one-call", "V1-4.3.3-first,V2-5-single",
	  "before the first reply, at most one call outstanding (every reply grants 32)", 32, 2,
	  CF_RQ_CREDITS, false },
	{ "rq-grant-1", "V1-4.3.1-limit,V1-5.2.3-limit,V1-4.3.3-first",
	  "every reply grants 1 credit: never two calls outstanding", 1, 3, CF_RQ_CREDITS, false },
	{ "rq-calls-valid",
	  "V1-5.2.1-xid,V1-5.2.2-one,V1-5.2.4-nomsg,V1-5.6.1-send,V1-5.6.2-send,V1-4.4.5.1-mult4",
	  "every message the requester sends is one libcodec accepts: the two xids agree, "
	  "version one, RDMA_NOMSG with a chunk, no RDMA_MSGP or RDMA_DONE, read positions "
	  "multiples of 4", 32, 3, CF_RQ_WELLFORMED, false },
	{ "rq-read-write-chunk", "V1-4.4.6-register",
	  "an NFSv3 READ's write chunk holds the count the READ asks for, an ECHO call's "
	  "the data it asks back", 32, 1,
	  CF_RQ_WRITE_CHUNK, false },
	{ "rq-reply-chunk", "V1-5.3.3-provide",
	  "a reply chunk with every call whose largest reply (NFSv3 READ without a write "
	  "chunk, READDIR, READDIRPLUS; ECHO without a write chunk) exceeds the requester's "
	  "inline threshold", 32, 1,
	  CF_RQ_REPLY_CHUNK, false },
	{ "rq-inline-default", "V1-4.3.3-assume,V1-5.2.4-gather",
	  "the responder announces no inline threshold (no RFC 8797 private data): no Send "
	  "larger than 1024 bytes; a larger call travels in a read chunk", 32, 1,
	  CF_RQ_INLINE, true },
	{ "rq-read-chunks", "V1-4.4.5-position,V1-4.4.4.1-count,V1-4.4.5.1-pad",
	  "every item a call reduces into a read chunk (an NFSv3 WRITE's data to /sink): its "
	  "position within the Payload stream, the byte count before it the chunk's length, "
	  "its XDR pad gone from the stream", 32, 1, CF_RQ_READ_CHUNKS, false },
};
const size_t cf_rq_ncases = sizeof(cf_rq_cases) / sizeof(cf_rq_cases[0]);

const char *cf_rq_reason_req(enum rpcrdma_reason r, const char **decision)
{
	*decision = NULL;
	switch (r) {
	case RPCRDMA_R_XID_MISMATCH: return "V1-5.2.1-xid";
	case RPCRDMA_R_BAD_VERS: return "V1-5.2.2-one";
	case RPCRDMA_R_NOMSG_WITHOUT_CHUNKS: return "V1-5.2.4-nomsg";
	case RPCRDMA_R_MSGP: return "V1-5.6.1-send";
	case RPCRDMA_R_DONE: return "V1-5.6.2-send";
	case RPCRDMA_R_BAD_POSITION: return "V1-4.4.5.1-mult4";
	default:
		*decision = "D-RQ-1";      /* XDR well-formedness: no keyword */
		return NULL;
	}
}

static void grade_credits(const struct cf_rq_obs *o, struct cf_rq_grade *g)
{
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

static void grade_wellformed(const struct cf_rq_obs *o, struct cf_rq_grade *g)
{
	if (!o->bad) {
		g->result = CF_PASS;
		snprintf(g->observed, sizeof(g->observed), "%llu messages, libcodec accepts every "
			 "one", (unsigned long long)o->sent);
		return;
	}
	g->req_id = cf_rq_reason_req(o->bad_reason, &g->decision);
	g->result = g->req_id ? CF_FAIL : CF_NOTE;
	snprintf(g->observed, sizeof(g->observed), "%llu of %llu messages not accepted; the "
		 "first, xid 0x%08x: %s (%s)", (unsigned long long)o->bad,
		 (unsigned long long)o->sent, o->bad_xid, rpcrdma_reason_name(o->bad_reason),
		 rpcrdma_reason_text(o->bad_reason));
}

static void grade_write_chunk(const struct cf_rq_obs *o, struct cf_rq_grade *g)
{
	if (!o->reads_chunked) {
		g->result = CF_SKIP;
		snprintf(g->observed, sizeof(g->observed), "%llu calls, no NFSv3 READ or ECHO call "
			 "with a write chunk among them", (unsigned long long)o->calls);
		return;
	}
	g->result = o->reads_short ? CF_FAIL : CF_PASS;
	g->req_id = o->reads_short ? "V1-4.4.6-register" : NULL;
	if (o->reads_short)
		snprintf(g->observed, sizeof(g->observed), "%llu of %llu READ or ECHO call(s) with a "
			 "write chunk offer less than they ask back; the first: %s %u, chunk %u "
			 "bytes", (unsigned long long)o->reads_short,
			 (unsigned long long)o->reads_chunked, o->short_echo ? "ECHO of" : "count",
			 o->short_count, o->short_len);
	else
		snprintf(g->observed, sizeof(g->observed), "%llu READ or ECHO call(s) with a write "
			 "chunk (%llu ECHO), each chunk at least the count or data asked back",
			 (unsigned long long)o->reads_chunked, (unsigned long long)o->echo_chunked);
}

static void grade_reply_chunk(const struct cf_rq_obs *o, struct cf_rq_grade *g)
{
	if (!o->big_replies) {
		g->result = CF_SKIP;
		snprintf(g->observed, sizeof(g->observed), "%llu calls, none whose largest reply "
			 "exceeds the requester's inline threshold", (unsigned long long)o->calls);
		return;
	}
	g->result = o->no_reply_chunk ? CF_FAIL : CF_PASS;
	g->req_id = o->no_reply_chunk ? "V1-5.3.3-provide" : NULL;
	if (o->no_reply_chunk)
		snprintf(g->observed, sizeof(g->observed), "%llu of %llu calls whose reply may "
			 "exceed the threshold offer no reply chunk; the first: %s proc %u, "
			 "reply up to %u bytes, threshold %u", (unsigned long long)o->no_reply_chunk,
			 (unsigned long long)o->big_replies, o->nrc_echo ? "ECHO" : "NFSv3",
			 o->nrc_proc, o->nrc_max, o->nrc_thresh);
	else
		snprintf(g->observed, sizeof(g->observed), "%llu calls whose reply may exceed the "
			 "threshold (%llu ECHO), each with a reply chunk",
			 (unsigned long long)o->big_replies, (unsigned long long)o->echo_big);
}

static void grade_inline(const struct cf_rq_obs *o, struct cf_rq_grade *g)
{
	if (!o->over_inline && !o->chunked_calls) {
		g->result = CF_SKIP;
		snprintf(g->observed, sizeof(g->observed), "%llu message(s), the largest %u bytes: "
			 "none needed more than %u", (unsigned long long)o->sent, o->max_send,
			 o->inline_limit);
		return;
	}
	/* with no private data the threshold is the one V1 4.3.3 makes the
	 * requester assume: a larger Send breaks that sentence first */
	g->result = o->over_inline ? CF_FAIL : CF_PASS;
	g->req_id = o->over_inline ? "V1-4.3.3-assume" : NULL;
	if (o->over_inline)
		snprintf(g->observed, sizeof(g->observed), "%llu of %llu Sends larger than %u "
			 "bytes; the first: %u bytes, xid 0x%08x", (unsigned long long)o->over_inline,
			 (unsigned long long)o->sent, o->inline_limit, o->over_len, o->over_xid);
	else
		snprintf(g->observed, sizeof(g->observed), "%llu message(s), the largest %u bytes "
			 "(threshold %u); %llu call(s) in read chunks", (unsigned long long)o->sent,
			 o->max_send, o->inline_limit, (unsigned long long)o->chunked_calls);
}

static void grade_read_chunks(const struct cf_rq_obs *o, struct cf_rq_grade *g)
{
	if (!o->reads_reduced && !o->reads_bad) {
		g->result = CF_SKIP;
		snprintf(g->observed, sizeof(g->observed), "%llu calls, none with an item reduced "
			 "into a read chunk", (unsigned long long)o->calls);
		return;
	}
	if (!o->reads_bad) {
		g->result = CF_PASS;
		snprintf(g->observed, sizeof(g->observed), "%llu call(s) with an item in a read "
			 "chunk, each at its position, its count the chunk's length, its pad gone",
			 (unsigned long long)o->reads_reduced);
		return;
	}
	g->result = CF_FAIL;
	if (o->rc_faults & RPCRDMA_READ_POSITION_PAST) {
		g->req_id = "V1-4.4.5-position";
		snprintf(g->observed, sizeof(g->observed), "%llu call(s) faulted; the first, xid "
			 "0x%08x: a read segment at position %u, past its %u-byte Payload stream",
			 (unsigned long long)o->reads_bad, o->rc_xid, o->rc_position, o->rc_payload);
	} else if (o->rc_faults & RPCRDMA_READ_COUNT_MISMATCH) {
		g->req_id = "V1-4.4.4.1-count";
		snprintf(g->observed, sizeof(g->observed), "%llu call(s) faulted; the first, xid "
			 "0x%08x: the read chunk at position %u holds %llu bytes, the count before "
			 "it says %u", (unsigned long long)o->reads_bad, o->rc_xid, o->rc_position,
			 (unsigned long long)o->rc_len, o->rc_count);
	} else {
		g->req_id = "V1-4.4.5.1-pad";
		snprintf(g->observed, sizeof(g->observed), "%llu call(s) faulted; the first, xid "
			 "0x%08x: a %u-byte Payload stream with an item reduced at position %u: "
			 "its XDR pad left in the stream", (unsigned long long)o->reads_bad,
			 o->rc_xid, o->rc_payload, o->rc_position);
	}
}

void cf_rq_grade(const struct cf_rq_case *c, const struct cf_rq_obs *o, struct cf_rq_grade *g)
{
	/* rq-calls-valid counts every message: a malformed one may be no call */
	uint64_t seen = c->kind == CF_RQ_WELLFORMED ? o->sent : o->calls;

	g->req_id = NULL;
	g->decision = NULL;
	if (seen < c->min_calls) {
		g->result = CF_SKIP;
		snprintf(g->observed, sizeof(g->observed), "%llu %s seen, %llu needed: no "
			 "requester drove this case", (unsigned long long)seen,
			 c->kind == CF_RQ_WELLFORMED ? "message(s)" : "call(s)",
			 (unsigned long long)c->min_calls);
		return;
	}
	switch (c->kind) {
	case CF_RQ_CREDITS: grade_credits(o, g); break;
	case CF_RQ_WELLFORMED: grade_wellformed(o, g); break;
	case CF_RQ_WRITE_CHUNK: grade_write_chunk(o, g); break;
	case CF_RQ_REPLY_CHUNK: grade_reply_chunk(o, g); break;
	case CF_RQ_INLINE: grade_inline(o, g); break;
	case CF_RQ_READ_CHUNKS: grade_read_chunks(o, g); break;
	default: cf_rq_fault_grade(c, o, g); break;   /* issue 26 item 2 */
	}
}
