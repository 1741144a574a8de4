/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * run_cases.c - the cases that are more than one message from the vectors:
 * the replies' own rules (V1 §4.3.1, §5.2.1; V2 §4.2.2, §5), inline
 * thresholds (V1 §4.3, §4.3.3; V2 §2.3), credits (V1 §4.3.1), XIDs and the
 * backward direction (BIDI §2.4, §5.1, §5.3); the chunk cases are
 * run_chunks.c.  Each builds its messages
 * with libcodec, sends them raw and records its own checks in the
 * observation for grade.c.
 */
#include <stdlib.h>
#include <string.h>
#include <rpcrdma/rpc.h>
#include "echo_ulb.h"
#include "run.h"

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

/* The case's call: send, wait for its answer, finish (a probe if none) */
void cf_call(struct cf_run *r, struct cf_conn *k, struct cf_obs *o, const uint8_t *buf,
	     size_t n, uint32_t xid)
{
	struct rpcrdma_msg m;

	cf_case_xid(r, xid);
	o->sent_has_xid = o->sent_has_vers = true;
	o->sent_vers = k->vers;
	o->sent_action = (int)rpcrdma_decode(buf, n, &m);
	if (cf_send(r, k, "case", buf, n, o) == 0)
		cf_wait_answers(r, 0, cf_now_ms() + r->o->timeout_ms);
	cf_finish(r, k, o, true);
}

/* The answer decoded; false unless it is an accepted non-error message */
bool cf_answer_ok(const struct cf_obs *o, struct rpcrdma_msg *m, uint32_t *wv)
{
	return o->answer && cf_decode_answer(o->answer, o->answer_len, m, wv) == RPCRDMA_ACCEPT &&
	       m->rdma_proc != RDMA_ERROR;
}

/* NULL calls whose replies are checked (V1 §4.3.1, §5.2.1; V2 §4.2.2, §5.3) */
static void probe_reply(struct cf_run *r, const struct cf_case *c, struct cf_obs *o)
{
	struct cf_conn *k = cf_conn_for(r, c, o);
	uint8_t rpc[64], buf[128];
	uint32_t xid = cf_xid(r), wv;
	struct rpcrdma_msg m;
	size_t n;

	if (!k)
		return;
	n = cf_target_null(&r->t, xid, rpc, sizeof(rpc));
	n = cf_build(k, xid, RDMA_MSG, NULL, rpc, n, buf, sizeof(buf));
	cf_call(r, k, o, buf, n, xid);
	if (!cf_answer_ok(o, &m, &wv))
		return;
	switch (c->kind) {
	case CF_K_REPLY_GRANT:
		if (!m.rdma_credit)
			cf_fault(o, "V1-4.3.1-grant", "the reply grants 0 credits");
		break;
	case CF_K_REPLY_XID:
		if (m.rdma_xid != xid)
			cf_fault(o, "V1-5.2.1-xid", "rdma_xid 0x%08x, the call's was 0x%08x",
				 m.rdma_xid, xid);
		break;
	case CF_K_REPLY_VERS:
		if (wv != k->vers)
			cf_fault(o, "V2-5.3-same", "answered in version %u", wv);
		break;
	case CF_K_V2_REPLY_DIR:
		if (m.direction != RPCRDMA_REPLY)
			cf_fault(o, "V2-4.2.2-dir", "rdma_direction is not REPLY");
		break;
	default:
		break;
	}
}

/* V2 §5: the first message of a connection in Version Two */
static void v2_negotiate(struct cf_run *r, const struct cf_case *c, struct cf_obs *o)
{
	struct xprt_error err;
	uint8_t rpc[64], buf[128];
	uint32_t xid = cf_xid(r), wv;
	struct rpcrdma_msg m;
	size_t n;

	(void)c;
	cf_conn_close(r, &r->fresh);
	if (cf_conn_open(r, &r->fresh, 2, &err) < 0) {
		cf_skip(o, "connect: %.250s", err.msg);
		return;
	}
	r->watch = &r->fresh;
	n = cf_target_null(&r->t, xid, rpc, sizeof(rpc));
	n = cf_build(&r->fresh, xid, RDMA_MSG, NULL, rpc, n, buf, sizeof(buf));
	/* its version error carries the versions it speaks: 1 at least */
	o->supported_low = o->supported_high = 1;
	cf_call(r, &r->fresh, o, buf, n, xid);
	if (cf_answer_ok(o, &m, &wv) && wv != 2)
		cf_fault(o, "V2-5.3-same", "a V2 call answered in version %u", wv);
}

/* A call of exactly `total` bytes (V1 §4.3.3, V2 §2.3), or one over the
 * responder's receive size (V1 §4.3) */
static void sized_call(struct cf_run *r, const struct cf_case *c, struct cf_obs *o)
{
	struct cf_conn *k = cf_conn_for(r, c, o);
	static uint8_t rpc[CF_MSG_MAX], buf[CF_MSG_MAX];
	uint32_t xid = cf_xid(r), total, hdr, len;
	const struct xprt_peer_info *p;
	size_t off, n;

	if (!k)
		return;
	hdr = k->vers == 2 ? RPCRDMA_V2_MIN_HEADER : RPCRDMA_V1_MIN_HEADER;
	if (c->kind == CF_K_INLINE_MIN) {
		total = RPCRDMA_V1_INLINE_DEFAULT;
	} else if (c->kind == CF_K_V2_INLINE_MIN) {
		total = RPCRDMA_V2_INLINE_DEFAULT;
	} else {
		p = xprt_peer(k->x);
		total = (p->has_private_data ? p->priv.max_recv_size : RPCRDMA_V1_INLINE_DEFAULT) + 4;
		snprintf(o->note, sizeof(o->note), "a %u-byte Send; the responder receives %u%s",
			 total, total - 4, p->has_private_data ? " (its private data)" :
			 " (V1 default: no private data)");
	}
	if (total > CF_SEND_MAX) {
		cf_skip(o, "a %u-byte Send is over the suite's own send size (%u)", total, CF_SEND_MAX);
		return;
	}
	len = total - hdr - (uint32_t)cf_target_data_overhead(&r->t);
	n = cf_target_data_call(&r->t, xid, len, rpc, sizeof(rpc), &off);
	n = n ? cf_build(k, xid, RDMA_MSG, NULL, rpc, n, buf, sizeof(buf)) : 0;
	if (n != total) {
		cf_skip(o, "cannot build a %u-byte call for this program", total);
		return;
	}
	cf_call(r, k, o, buf, n, xid);
	if (c->kind == CF_K_INLINE_OVER && strstr(r->event, "send:") && !o->answer) {
		o->skipped = false;
		cf_skip(o, "our transport would not Send %u bytes (%s)", total, r->event);
	}
}

/* V1 §4.3.1: more calls than granted */
static void credit_overrun(struct cf_run *r, const struct cf_case *c, struct cf_obs *o)
{
	struct cf_conn *k;
	uint8_t rpc[64], buf[128];
	uint32_t g, i, nsent = 0, first;
	size_t n;

	/* Receives for every reply (2 x credits + 4 are posted): a responder
	 * need not retry a Send that finds none (RNR) */
	g = r->v1.grant < CF_CREDIT_CASE_MAX ? r->v1.grant : CF_CREDIT_CASE_MAX;
	r->fresh.credits = g / 2 + 2 > CF_CREDITS_ASK ? g / 2 + 2 : CF_CREDITS_ASK;
	k = cf_conn_for(r, c, o);
	r->fresh.credits = 0;
	if (!k)
		return;
	g = k->grant;
	if (!g) {
		cf_skip(o, "the responder grants 0 credits (see reply-grant-nonzero)");
		return;
	}
	if (g > CF_CREDIT_CASE_MAX) {
		cf_skip(o, "it grants %u credits: exceeding them needs over %u calls in flight, "
			"and the suite never floods", g, CF_CREDIT_CASE_MAX);
		return;
	}
	first = r->next_xid;
	r->xid_range_lo = first;
	r->xid_range_n = g + 2;
	for (i = 0; i < g + 2; i++) {
		uint32_t xid = cf_xid(r);

		if (i < CF_MAX_XIDS)
			cf_case_xid(r, xid);
		n = cf_target_null(&r->t, xid, rpc, sizeof(rpc));
		n = cf_build(k, xid, RDMA_MSG, NULL, rpc, n, buf, sizeof(buf));
		if (cf_send(r, k, "case", buf, n, o) < 0)
			break;
		nsent++;
	}
	o->sent_has_xid = o->sent_has_vers = true;
	o->sent_vers = k->vers;
	cf_wait_answers(r, g + 2, cf_now_ms() + r->o->timeout_ms);
	if (!r->disconnected && r->nanswers < g + 2) {
		cf_send_probe(r, k, o);
		cf_wait_probe(r, cf_now_ms() + r->o->timeout_ms);
	}
	snprintf(o->note, sizeof(o->note), "grant %u; %u calls sent at once, %u answered "
		 "(%u with an RPC error)", g, nsent, r->nanswers, r->nrpc_errors);
	cf_finish(r, k, o, false);
	o->answer = NULL;
	o->react_set = true;
	if (o->listener_gone)
		o->react = CF_R_CRASH;
	else if (r->nanswers >= g + 2)
		o->react = r->nrpc_errors ? CF_R_RPC_ERROR : CF_R_REPLY;
	else if (o->disconnected)
		o->react = CF_R_DISCONNECT;
	else
		o->react = o->probe_answered ? CF_R_DISCARD : CF_R_NO_ANSWER;
}

/* BIDI §2.4: an xid used again once its call is complete */
static void xid_reuse(struct cf_run *r, const struct cf_case *c, struct cf_obs *o)
{
	struct cf_conn *k = cf_conn_for(r, c, o);
	uint8_t rpc[64], buf[128];
	uint32_t xid = cf_xid(r);
	size_t n;

	if (!k)
		return;
	n = cf_target_null(&r->t, xid, rpc, sizeof(rpc));
	n = cf_build(k, xid, RDMA_MSG, NULL, rpc, n, buf, sizeof(buf));
	cf_case_xid(r, xid);
	o->sent_has_xid = o->sent_has_vers = true;
	o->sent_vers = k->vers;
	if (cf_send(r, k, "case", buf, n, o) == 0 &&
	    cf_wait_answers(r, 1, cf_now_ms() + r->o->timeout_ms) &&
	    cf_send(r, k, "case", buf, n, o) == 0 &&
	    !cf_wait_answers(r, 2, cf_now_ms() + r->o->timeout_ms) && !r->disconnected) {
		snprintf(o->note, sizeof(o->note), "the second call with xid 0x%08x was not answered",
			 xid);
		r->answer_idx = -1;     /* judge the second call */
	}
	cf_finish(r, k, o, true);
}

/* The form of a backward call (BIDI §5.1, V1 §7.2.1), whoever made the
 * responder send it (ECHO CALLBACK, or an NFSv4.1 server's CB_NULL) */
void cf_grade_backward_form(struct cf_obs *o, const uint8_t *b, size_t blen, uint32_t vers)
{
	struct rpcrdma_msg m;
	uint32_t wv = blen >= 8 ? (uint32_t)b[4] << 24 | (uint32_t)b[5] << 16 |
				  (uint32_t)b[6] << 8 | b[7] : 0;

	if (blen >= 8 && wv != vers) {
		/* first: in another version it need not even decode as ours */
		cf_fault(o, "BIDI-5.1-vers", "the backward call is in version %u on a "
			 "version %u connection", wv, vers);
	} else if (rpcrdma_decode(b, blen, &m) != RPCRDMA_ACCEPT) {
		if (m.reason == RPCRDMA_R_XID_MISMATCH)
			cf_fault(o, "BIDI-5.1-xid", "the backward call's RPC header does not "
				 "start with its rdma_xid");
		else
			cf_fault(o, "D-CONF-9", "the backward call is malformed: %s",
				 rpcrdma_reason_text(m.reason));
	} else if (!m.rdma_credit) {
		cf_fault(o, "V1-7.2.1-credit", "the backward call's rdma_credit is 0");
	} else if (m.direction != RPCRDMA_CALL) {
		cf_fault(o, "BIDI-5.1-xid", "the backward call's msg_type is not CALL");
	}
}

/* The count a CALLBACK reply carries, -1 without one */
static long callback_count(struct cf_run *r, uint32_t xid)
{
	struct rpcrdma_msg m;
	struct rpc_msg_hdr rh;
	const uint8_t *b;
	size_t blen;
	uint32_t wv, count;

	b = cf_answer_for(r, xid, &blen);
	if (!b || cf_decode_answer(b, blen, &m, &wv) != RPCRDMA_ACCEPT ||
	    echo_decode_reply(rpcrdma_payload(&m), m.payload_len, ECHO_PROC_CALLBACK, &rh, NULL,
			      NULL, &count) < 0)
		return -1;
	return count;
}

static bool backward_done(const struct cf_run *r, unsigned want)
{
	return r->nanswers >= want && r->backward_seen;
}

/* Send the case's call (buf, n bytes, xid) that draws the responder's
 * backward call, and wait for the answer and that call; for the xid-spaces
 * case, answer the backward call's arrival with a forward call of its xid
 * (cf_null_xid_hook) and wait for that answer too */
void cf_send_for_backward(struct cf_run *r, struct cf_conn *k, struct cf_obs *o,
			  const uint8_t *buf, size_t n, uint32_t xid, bool spaces)
{
	if (spaces)
		r->on_backward = cf_null_xid_hook;
	cf_case_xid(r, xid);
	o->sent_has_xid = o->sent_has_vers = true;
	o->sent_vers = k->vers;
	if (cf_send(r, k, "case", buf, n, o) == 0)
		cf_wait(r, backward_done, spaces ? 2 : 1, cf_now_ms() + r->o->timeout_ms);
	r->on_backward = NULL;
}

/* ECHO CALLBACK(1) answers with the server's running count of identical
 * backward replies, then calls us back once; CALLBACK(0) then tells
 * whether our reply was matched (docs/echo-ulb.md §1) */
static void backward(struct cf_run *r, const struct cf_case *c, struct cf_obs *o)
{
	struct cf_conn *k;
	uint8_t rpc[128], buf[256], data[16];
	uint32_t xid, x0;
	bool spaces = c->kind == CF_K_BIDI_XID_SPACES;
	const uint8_t *b;
	size_t n, blen;
	long r0, r1;

	k = cf_conn_for(r, c, o);
	if (!k)
		return;
	xid = cf_xid(r);
	x0 = cf_xid(r);
	cf_pattern(data, sizeof(data), xid);
	n = cf_target_callback(&r->t, xid, 1, data, sizeof(data), rpc, sizeof(rpc));
	n = cf_build(k, xid, RDMA_MSG, NULL, rpc, n, buf, sizeof(buf));
	cf_send_for_backward(r, k, o, buf, n, xid, spaces);
	/* our reply to the backward call has gone: ask for the count */
	n = cf_target_callback(&r->t, x0, 0, NULL, 0, rpc, sizeof(rpc));
	n = cf_build(k, x0, RDMA_MSG, NULL, rpc, n, buf, sizeof(buf));
	cf_case_xid(r, x0);
	if (!r->disconnected && cf_send(r, k, "case", buf, n, o) == 0)
		cf_wait(r, backward_done, spaces ? 3 : 2, cf_now_ms() + r->o->timeout_ms);
	cf_finish(r, k, o, true);
	r0 = callback_count(r, xid);
	r1 = callback_count(r, x0);
	if (r0 < 0 || r1 < 0)
		return;                 /* graded on the answer (or its absence) */
	b = cf_backward_call(r, &blen);
	if (!b) {
		cf_fault(o, "D-CONF-8", "no backward call came for CALLBACK(1)");
		return;
	}
	if (c->kind == CF_K_BIDI_CALL_FORM) {
		cf_grade_backward_form(o, b, blen, k->vers);
		return;
	}
	if (r->ncase_xid < 3 || !cf_answer_for(r, r->case_xid[1], &blen))
		cf_fault(o, "D-CONF-8", "the forward call with the backward call's "
			 "xid 0x%08x was not answered", r->backward_xid);
	else if (r1 != r0 + 1)
		cf_fault(o, "D-CONF-8", "the backward reply went unmatched (the "
			 "running count went from %ld to %ld)", r0, r1);
}

/* BIDI §5.3: a backward-direction reply (to no call) with a write chunk */
static void reply_chunks(struct cf_run *r, const struct cf_case *c, struct cf_obs *o)
{
	struct cf_conn *k = cf_conn_for(r, c, o);
	uint8_t rpc[64], buf[256];
	uint32_t xid = cf_xid(r);
	struct rpcrdma_segment seg;
	struct rpcrdma_write_chunk wc;
	struct rpcrdma_hdr h;
	struct cf_mem wm;
	size_t n;

	if (!k || cf_mem_get(k, &wm, 64, true, o) < 0)
		return;
	seg = wm.seg;
	seg.rdma_length = 16;
	wc.segs = &seg;
	wc.nsegs = 1;
	memset(&h, 0, sizeof(h));
	h.direction = RPCRDMA_REPLY;
	h.writes = &wc;
	h.nwrites = 1;
	n = rpc_encode_accepted_reply(rpc, sizeof(rpc), xid, RPC_SUCCESS);
	put32(rpc + n, 16);             /* an opaque<16> result "in the chunk" */
	n = cf_build(k, xid, RDMA_MSG, &h, rpc, n + 4, buf, sizeof(buf));
	cf_case_xid(r, xid);
	cf_one_message(r, k, o, buf, n);
	cf_mem_put(k, &wm);
}

/* The stimulus of each kind: enum cf_kind keeps the kinds one runner
 * serves together, so a runner stands for every kind up to `last` */
typedef void cf_runner(struct cf_run *, const struct cf_case *, struct cf_obs *);
static const struct {
	enum cf_kind last;
	cf_runner *run;
} runners[] = {
	{ CF_K_V2_NEGOTIATE, v2_negotiate }, { CF_K_V2_REPLY_DIR, probe_reply },
	{ CF_K_INLINE_OVER, sized_call }, { CF_K_CREDIT_OVERRUN, credit_overrun },
	{ CF_K_CHUNK_NOT_DDP, cf_read_chunk },
	{ CF_K_REPLY_CHUNK_SHORT, cf_write_chunk }, { CF_K_XID_REUSE, xid_reuse },
	{ CF_K_BIDI_CALL_FORM, backward }, { CF_K_BIDI_REPLY_CHUNKS, reply_chunks },
};

void cf_run_custom(struct cf_run *r, const struct cf_case *c, struct cf_obs *o)
{
	size_t i;

	for (i = 0; i < sizeof(runners) / sizeof(runners[0]); i++)
		if (c->kind != CF_K_VECTOR && c->kind <= runners[i].last) {
			runners[i].run(r, c, o);
			return;
		}
	cf_skip(o, "not implemented");
}
