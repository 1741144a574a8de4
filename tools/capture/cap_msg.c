/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cap_msg.c - one whole RPC-over-RDMA message (the payload of one Send, V1
 * 4.2): decode it with libcodec, match calls and replies by XID per
 * direction (V1 5.2.1; BIDI 2.4: each direction has its own XID space),
 * rebuild the RPC message from its chunks (V1 4.4.5, 4.5.3), keep the
 * credit books (V1 4.3.1), run the per-message lint and print it.
 */
#include <stdlib.h>
#include <string.h>
#include "cap_calls.h"
#include "msgprint.h"
#include "nfs4_ops.h"
#include "rpcrdma/rpc.h"

#define MIN3(a, b, c) ((a) < (b) ? ((a) < (c) ? (a) : (c)) : ((b) < (c) ? (b) : (c)))

/* where a rebuilt message goes; NULL when memory is short */
static uint8_t *scratch(struct cap_state *st)
{
	if (!st->work.scratch)
		st->work.scratch = malloc(CAP_MAX_SEND);
	return st->work.scratch;
}

/* rebuild bytes of k held at off, below end: written or zeroed (past
 * k->rb_zeroed nothing came; the caller supplies zeros) */
static uint32_t rb_held(const struct cap_call *k, uint32_t off, uint32_t end)
{
	uint32_t lim = end < k->rb_zeroed ? end : k->rb_zeroed;

	return off < lim ? lim - off : 0;
}

/* The call's RPC message: inline payload with its read chunks inserted at
 * their positions (V1 4.4.5; round-up to 4 supplied, 4.4.5.1). */
static const uint8_t *rebuild_call(struct cap_state *st,
				   const struct cap_call *k,
				   const struct rpcrdma_msg *m, size_t *len)
{
	const uint8_t *pl = rpcrdma_payload(m);
	uint32_t plen = m->payload_len, pi = 0, out = 0, cap = CAP_MAX_SEND;
	uint8_t *b;

	if (!k->rb || !k->rb_split)
		return NULL;
	if (m->rdma_proc == RDMA_NOMSG && m->nreads) {
		/* what was seen of it from its start: the rest may be a hole */
		*len = k->read_prefix < k->rb_split ? k->read_prefix : k->rb_split;
		return k->rb;
	}
	if (!(b = scratch(st)))
		return NULL;
	for (uint32_t i = k->segs; i; ) {
		const struct cap_seg *s = &st->kt->segs[i - 1];
		if (s->kind != CAP_SEG_READ)
			break;
		uint32_t pos = s->position, clen = 0, off = s->rb_off;
		/* one chunk: consecutive segments with the same position */
		while (i && st->kt->segs[i - 1].kind == CAP_SEG_READ &&
		       st->kt->segs[i - 1].position == pos) {
			clen += st->kt->segs[i - 1].len;
			i = st->kt->segs[i - 1].cnext;
		}
		uint32_t cnt = pos > out ? pos - out : 0;
		cnt = MIN3(cnt, plen - pi, cap - out);
		memcpy(b + out, pl + pi, cnt);
		out += cnt;
		pi += cnt;
		/* the chunk's bytes we hold, zeros for the rest, round-up */
		uint32_t have = rb_held(k, off, k->rb_split);
		uint32_t want = clen + (4 - clen % 4) % 4;
		have = MIN3(have, clen, cap - out);
		memcpy(b + out, k->rb + off, have);
		cnt = MIN3(want - have, cap - out - have, UINT32_MAX);
		memset(b + out + have, 0, cnt);
		out += have + cnt;
	}
	uint32_t cnt = MIN3(plen - pi, cap - out, UINT32_MAX);
	memcpy(b + out, pl + pi, cnt);
	*len = out + cnt;
	return b;
}

/* The reply's RPC message from its reply chunk, segment lengths as
 * returned (V1 5.3.3) */
static const uint8_t *rebuild_reply(struct cap_state *st,
				    const struct cap_call *k,
				    const struct rpcrdma_msg *m, size_t *len)
{
	struct rpcrdma_seg_iter si;
	struct rpcrdma_segment sg;
	uint32_t out = 0;

	if (!k || !k->rb || k->rb_cap <= k->rb_split ||
	    !rpcrdma_reply_chunk(m, &si) || !scratch(st))
		return NULL;
	uint32_t i = k->segs;
	while (i && st->kt->segs[i - 1].kind != CAP_SEG_REPLY)
		i = st->kt->segs[i - 1].cnext;
	while (i && rpcrdma_seg_next(&si, &sg)) {
		const struct cap_seg *s = &st->kt->segs[i - 1];
		uint32_t n = MIN3(sg.rdma_length, s->len, CAP_MAX_SEND - out);
		uint32_t have = rb_held(k, s->rb_off, k->rb_cap);
		have = have < n ? have : n;
		memcpy(st->work.scratch + out, k->rb + s->rb_off, have);
		memset(st->work.scratch + out + have, 0, n - have);
		out += n;
		i = s->cnext;
	}
	*len = out;
	return st->work.scratch;
}

/* The RPC call in p[n]: program, version, procedure and, for an NFSv4
 * COMPOUND, its operations, into the call k; *xid = its XID */
static void rpc_of(const uint8_t *p, size_t n, struct cap_call *k,
		   uint32_t *xid)
{
	struct rpc_msg_hdr h;

	if (p && rpc_decode_header(p, n, &h) == RPC_OK && h.msg_type == RPC_CALL) {
		k->have_rpc = true;
		k->prog = h.prog;
		k->vers = h.vers;
		k->proc = h.proc;
		int cb = msgprint_is_compound(h.prog, h.vers, h.proc);
		/* under RPCSEC_GSS the arguments may be wrapped */
		k->have_ops = cb && h.cred_flavor != RPC_RPCSEC_GSS &&
			      nfs4_compound_ops(p + h.body_off, n - h.body_off,
						cb == 2, &k->ops);
	}
	if (p && n >= 4)
		*xid = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
		       (uint32_t)p[2] << 8 | p[3];
}

void cap_msg_print_call(struct cap_state *st, struct cap_call *k,
			const char *why)
{
	struct rpcrdma_msg m;
	struct msg_ctx x;
	struct cap_conv *c = cap_conv_by_slot(st, k->conv_slot, k->conv);

	(void)why;
	if (!k->msg)
		return;
	memset(&x, 0, sizeof(x));
	rpcrdma_decode(k->msg, k->msg_len, &m);
	struct cap_hold held = cap_lint_hold(st, k->conv, true, m.rdma_xid);
	size_t rlen = 0;
	const uint8_t *rpc = rebuild_call(st, k, &m, &rlen);
	if (rpc) {
		uint32_t xid = m.rdma_xid;
		rpc_of(rpc, rlen, k, &xid);
		if (rlen >= 4 && xid != m.rdma_xid)
			cap_lint(st, k->frame, "xid-mismatch", "V1 5.2.1",
				 "rdma_xid 0x%08x but the rebuilt RPC call has "
				 "XID 0x%08x", m.rdma_xid, xid);
		x.rpc = rpc;
		x.rpc_len = rlen;
		x.rpc_source = m.rdma_proc == RDMA_NOMSG ?
			"position-zero read chunk" : "inline + read chunk";
	}
	x.frame = k->frame;
	x.ts_sec = k->ts_sec;
	x.ts_usec = k->ts_usec;
	struct cap_emit e = { .k = k, .is_call = true, .backward = k->backward,
			      .first = k->msg_first, .frags = k->msg_frags };
	if (c)
		cap_emit(st, c, k->dir, &m, &x, &e);
	cap_lint_release(st, held);
	cap_budget_free(st, k->msg, k->msg_len);
	k->msg = NULL;
	k->msg_len = 0;
}

/* The calls of conversation `c` (NULL: of every conversation) end: those
 * waiting for their read chunks are printed, oldest first, then every one
 * is forgotten */
void cap_msg_flush(struct cap_state *st, struct cap_conv *c)
{
	for (struct cap_call *k = cap_calls_next(st, c, NULL); k;
	     k = cap_calls_next(st, c, k))
		if (k->msg)
			cap_msg_print_call(st, k, "read chunk incomplete");
	cap_calls_forget(st, c);
}

/* RDMA data of a chunk (cap_ib.c, cap_iwarp.c): the other arm of the Y
 * meets the Sends' at the call it belongs to; a call whose read chunks it
 * completes is printed now */
void cap_msg_rdma(struct cap_state *st, const struct cap_frame *f,
		  struct cap_conv *c, enum cap_rdma_op op, uint32_t rkey,
		  uint64_t va, const uint8_t *p, uint32_t len)
{
	struct cap_call *k = cap_chunks_data(st, f, c, op, rkey, va, p, len);

	if (k)
		cap_msg_print_call(st, k, NULL);
}

/* "" or, for a Version Two message, the draft it is judged by */
static const char *v2_judged(const struct rpcrdma_msg *m)
{
	return m->nfixed >= 2 && m->rdma_vers == RPCRDMA_VERSION_TWO ?
	       "Version Two as " RPCRDMA_V2_DRAFT ": " : "";
}

static void header_lint(struct cap_state *st, const struct cap_frame *f,
			const struct cap_conv *c, int dir,
			const struct rpcrdma_msg *m, uint32_t len, bool partial)
{
	static const struct { enum rpcrdma_reason r; const char *check, *sec; }
	specific[] = {
		{ RPCRDMA_R_MSGP, "msgp-sent", "V1 5.6.1" },
		{ RPCRDMA_R_DONE, "done-sent", "V1 5.6.2" },
		{ RPCRDMA_R_XID_MISMATCH, "xid-mismatch", "V1 5.2.1" },
		{ RPCRDMA_R_NOMSG_WITHOUT_CHUNKS, "nomsg-without-chunks", "V1 5.2.4" },
		{ RPCRDMA_R_DIRECTION_MISMATCH, "direction-mismatch", "V2 4.2.2" },
	};

	/* a well-formed RDMA2_OPTIONAL of a type this receiver lacks is not a
	 * fault of the sender (V2 3.1) */
	/* one fault, one line: the specific check when there is one, else
	 * bad-header naming the codec's reason */
	if (m->action != RPCRDMA_ACCEPT && m->action != RPCRDMA_REPLY_INVAL_OPTION) {
		const char *check = "bad-header";
		const char *sec = rpcrdma_reason_section(m->reason);

		for (size_t i = 0; i < sizeof(specific) / sizeof(specific[0]); i++)
			if (specific[i].r == m->reason) {
				check = specific[i].check;
				sec = specific[i].sec;
			}
		cap_lint(st, f->num, check, sec,
			 "%s%s: %s (offset %u; receiver must %s)", v2_judged(m),
			 rpcrdma_reason_name(m->reason),
			 rpcrdma_reason_text(m->reason), m->fault_off,
			 rpcrdma_action_name(m->action));
	}
	if (m->notes & RPCRDMA_NOTE_ZERO_CREDIT)
		cap_lint(st, f->num, "zero-credit", "V1 4.3.1",
			 "reply grants zero credits");
	cap_lint_msg_rules(st, f->num, m);
	if (!partial && m->nfixed >= 2 && (m->rdma_vers == 1 || m->rdma_vers == 2)) {
		const char *from;
		uint32_t th = cap_conn_threshold(st, c, dir, m->rdma_vers, &from);
		if (len > th)
			cap_lint(st, f->num, "inline-too-large",
				 m->rdma_vers == 2 ? "V2 2.3" : "V1 4.3.2",
				 "%s%u-byte Send exceeds the receiver's %u-byte inline "
				 "threshold (%s)", v2_judged(m), len, th, from);
	}
}

static void on_call(struct cap_state *st, const struct cap_frame *f,
		    struct cap_conv *c, int dir, const struct rpcrdma_msg *m,
		    bool partial, uint64_t first, uint32_t frags)
{
	struct cap_dir *d = &c->d[dir];
	struct msg_ctx x;

	if (c->client < 0)
		c->client = (int8_t)dir;
	struct cap_call *k = cap_call_find(st, c, dir, m->rdma_xid);
	if (k) {                           /* the same XID again */
		c->stats.retrans++;
		st->stats.total.retrans++;
		if (k->msg)
			cap_msg_print_call(st, k, "retransmitted");
		cap_call_free(st, k);
	} else {
		d->outstanding++;
		/* before the first grant a requester may assume one credit,
		 * when the connection's start is in the capture (V1 4.3.3) */
		bool started = c->started;
		if (d->have_grant && d->outstanding > d->granted)
			cap_lint(st, f->num, "credits-exceeded", "V1 4.3.1",
				 "%u calls outstanding; the peer granted %u credits",
				 d->outstanding, d->granted);
		else if (!d->have_grant && started && d->outstanding > 1)
			cap_lint(st, f->num, "credits-exceeded", "V1 4.3.3",
				 "%u calls outstanding before the peer granted any "
				 "credit (one may be assumed)", d->outstanding);
	}
	if (dir != c->client) {
		if (m->rdma_credit == 0)
			cap_lint(st, f->num, "zero-credit", "V1 7.2.1",
				 "backward-direction call with zero credits");
	}
	struct cap_call *old = cap_call_full(st);
	if (old && old->msg)                /* forgotten for room: out first */
		cap_msg_print_call(st, old, "state limit");
	k = cap_call_new(st, c, dir, m->rdma_xid);
	k->rdma_vers = (uint8_t)m->rdma_vers;
	k->frame = f->num;
	k->ts_sec = f->ts_sec;
	k->ts_usec = f->ts_usec;
	k->backward = dir != c->client;
	uint32_t xid = m->rdma_xid;
	rpc_of(rpcrdma_payload(m), m->payload_len, k, &xid);
	cap_chunks_register(st, f, c, k, m);
	k->msg_first = first;
	k->msg_frags = frags;
	if (m->nreads && k->read_got < k->read_total) {
		k->msg = cap_budget_alloc(st, m->len);
		if (k->msg) {                  /* print once the data is in */
			memcpy(k->msg, m->buf, m->len);
			k->msg_len = (uint32_t)m->len;
			return;
		}
	}
	memset(&x, 0, sizeof(x));
	x.frame = f->num;
	x.ts_sec = f->ts_sec;
	x.ts_usec = f->ts_usec;
	struct cap_emit e = { .k = k, .is_call = true, .backward = k->backward,
			      .partial = partial, .first = first,
			      .frags = frags };
	cap_emit(st, c, dir, m, &x, &e);
}

static void on_reply(struct cap_state *st, const struct cap_frame *f,
		     struct cap_conv *c, int dir, const struct rpcrdma_msg *m,
		     bool partial, uint64_t first, uint32_t frags)
{
	struct cap_dir *caller = &c->d[1 - dir];
	struct cap_call *k = cap_call_find(st, c, 1 - dir, m->rdma_xid);
	struct msg_ctx x;

	struct cap_emit e = { .k = k, .is_reply = true, .partial = partial,
			      .first = first, .frags = frags };

	memset(&x, 0, sizeof(x));
	if (!k && !c->synced) {            /* its call before the capture */
		c->stats.orphans_start[dir]++;
		st->stats.total.orphans_start[dir]++;
	}
	if (m->rdma_proc == RDMA_ERROR) {
		if (caller->have_err && caller->err_xid == m->rdma_xid)
			cap_lint(st, f->num, "error-answered-with-error", "V1 5.5",
				 "RDMA_ERROR answers the peer's RDMA_ERROR for XID "
				 "0x%08x", m->rdma_xid);
		c->d[dir].have_err = true;
		c->d[dir].err_xid = m->rdma_xid;
	}
	/* a grant: a reply that answers a call of ours, or whose direction
	 * its header says (a V1 RDMA_NOMSG's is only inferred: it grants when
	 * it answers a call, as a connection's first reply through a reply
	 * chunk does; V1 4.3.3) */
	if (m->action == RPCRDMA_ACCEPT && (!m->direction_inferred || k) &&
	    m->rdma_proc != RDMA_ERROR && m->rdma_credit) {
		caller->granted = m->rdma_credit;
		caller->have_grant = true;
		e.grant = true;
		e.credit = m->rdma_credit;
	}
	if (k) {
		c->synced = true;
		if (k->msg)
			cap_msg_print_call(st, k, "reply arrived");
		if (k->rdma_vers != m->rdma_vers)
			cap_lint(st, f->num, "reply-version-mismatch", "V2 6",
				 "reply in RPC-over-RDMA version %u to a version %u "
				 "call (frame %llu)", m->rdma_vers, k->rdma_vers,
				 (unsigned long long)k->frame);
		if (m->action == RPCRDMA_ACCEPT && m->rdma_proc != RDMA_ERROR &&
		    !k->untracked)
			cap_chunks_check_reply(st, f, k, m);
		x.have_latency = true;
		x.latency_us = cap_elapsed_us(k->ts_sec, k->ts_usec, f->ts_sec,
					      f->ts_usec);
		if (caller->outstanding)
			caller->outstanding--;
		x.have_call = k->have_rpc;
		x.call_prog = k->prog;
		x.call_vers = k->vers;
		x.call_proc = k->proc;
		x.call_frame = k->frame;
		size_t rlen = 0;
		const uint8_t *rpc = m->action == RPCRDMA_ACCEPT &&
				     m->rdma_proc == RDMA_NOMSG ?
				     rebuild_reply(st, k, m, &rlen) : NULL;
		if (rpc) {
			x.rpc = rpc;
			x.rpc_len = rlen;
			x.rpc_source = "reply chunk";
			if (rlen >= 4 && cap_be32(rpc) != m->rdma_xid)
				cap_lint(st, f->num, "xid-mismatch", "V1 5.2.1",
					 "rdma_xid 0x%08x but the RPC reply in the reply "
					 "chunk has another XID", m->rdma_xid);
		}
	}
	x.frame = f->num;
	x.ts_sec = f->ts_sec;
	x.ts_usec = f->ts_usec;
	e.backward = k ? k->backward : dir == c->client;
	cap_emit(st, c, dir, m, &x, &e);
	if (k)
		cap_call_free(st, k);
}

/* A Version Two message that fits a later draft's layout, not cel-01's
 * (docs/v2-drafts.md): named once per conversation, not judged (counted
 * by cap_emit.c's tally, under the filters) */
static void v2_later(struct cap_state *st, const struct cap_frame *f,
		     struct cap_conv *c, unsigned fam)
{
	if (c->stats.v2_noted)
		return;
	c->stats.v2_noted = true;
	cap_warn_once(st, CAP_W_COUNT, "conversation %u, frame %llu: Version Two, "
		      "later draft layout (not decoded): fits %s (%s); its messages "
		      "are not judged against " RPCRDMA_V2_DRAFT, c->id,
		      (unsigned long long)f->num, rpcrdma_v2_family_drafts(fam),
		      rpcrdma_v2_family_name(fam));
}

void cap_msg_send(struct cap_state *st, const struct cap_frame *f,
		  struct cap_conv *c, int dir, const uint8_t *p, uint32_t len,
		  bool partial, uint64_t first, uint32_t frags)
{
	struct rpcrdma_msg m;
	struct msg_ctx x;

	rpcrdma_decode(p, len, &m);
	st->stats.messages++;
	struct cap_hold held = cap_lint_hold(st, c->id, m.nfixed >= 1, m.rdma_xid);
	if (m.nfixed >= 2 && m.rdma_vers == 2)
		c->d[dir].speaks_v2 = true;
	unsigned fam = m.action != RPCRDMA_ACCEPT ? rpcrdma_v2_draft_family(&m) : 0;
	bool later = (fam & RPCRDMA2_FAM_LATER) != 0;
	if (later)
		v2_later(st, f, c, fam);
	/* a message the snapshot length cut is judged only if it is whole */
	else if (!partial || m.action == RPCRDMA_ACCEPT)
		header_lint(st, f, c, dir, &m, len, partial);
	if (later) {
		memset(&x, 0, sizeof(x));
		x.frame = f->num;
		x.ts_sec = f->ts_sec;
		x.ts_usec = f->ts_usec;
		struct cap_emit e = { .partial = partial, .first = first,
				      .frags = frags, .later = true,
				      .fam = (uint8_t)fam };
		cap_emit(st, c, dir, &m, &x, &e);
	} else if (m.direction == RPCRDMA_CALL && m.action == RPCRDMA_ACCEPT) {
		on_call(st, f, c, dir, &m, partial, first, frags);
	} else if (m.direction == RPCRDMA_REPLY && m.nfixed == 4) {
		on_reply(st, f, c, dir, &m, partial, first, frags);
	} else {
		memset(&x, 0, sizeof(x));
		x.frame = f->num;
		x.ts_sec = f->ts_sec;
		x.ts_usec = f->ts_usec;
		struct cap_emit e = { .partial = partial, .first = first,
				      .frags = frags };
		cap_emit(st, c, dir, &m, &x, &e);
	}
	cap_lint_release(st, held);
}
