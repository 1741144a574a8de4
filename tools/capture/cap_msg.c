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
#include "cap_state.h"
#include "msgprint.h"
#include "nfs4_ops.h"
#include "rpcrdma/rpc.h"

#define MIN3(a, b, c) ((a) < (b) ? ((a) < (c) ? (a) : (c)) : ((b) < (c) ? (b) : (c)))

/* One token per endpoint, whatever the transport: "198.18.0.1:20049"
 * (iWARP), "198.18.0.1/qp=0x11" (IB, RoCE; "qp=?" while the sending QP is
 * not known); and the same as separate fields for --json */
static void endpoint_text(struct cap_conv *c, int dir)
{
	const struct cap_dir *d = &c->d[dir], *p = &c->d[1 - dir];
	const char *dn = cap_dir_name(c, dir), *pn = cap_dir_name(c, 1 - dir);
	char src[sizeof(c->txt[dir].src)], dst[sizeof(c->txt[dir].dst)];

	cap_addr_text(c->txt[dir].addr, sizeof(c->txt[dir].addr), c->family,
		      c->addr[dir], 0, false);
	if (c->transport == CAP_T_IWARP) {
		snprintf(src, sizeof(src), "%s", dn);
		snprintf(dst, sizeof(dst), "%s", pn);
	} else {
		if (p->have_qp)
			snprintf(src, sizeof(src), "%s/qp=0x%x", dn, p->qp);
		else
			snprintf(src, sizeof(src), "%s/qp=?", dn);
		snprintf(dst, sizeof(dst), "%s/qp=0x%x", pn, d->qp);
	}
	memcpy(c->txt[dir].src, src, sizeof(src));
	memcpy(c->txt[dir].dst, dst, sizeof(dst));
	c->d[dir].txt_ok = true;
}

static void endpoints(struct cap_conv *c, int dir, struct msg_ctx *x)
{
	const struct cap_dir *d = &c->d[dir], *p = &c->d[1 - dir];

	if (!d->txt_ok)
		endpoint_text(c, dir);
	if (!p->txt_ok)
		endpoint_text(c, 1 - dir);
	x->src = c->txt[dir].src;
	x->dst = c->txt[dir].dst;
	x->src_ep.addr = c->txt[dir].addr;
	x->dst_ep.addr = c->txt[1 - dir].addr;
	if (c->transport == CAP_T_IWARP) {
		x->src_ep.have_port = x->dst_ep.have_port = true;
		x->src_ep.port = c->port[dir];
		x->dst_ep.port = c->port[1 - dir];
	} else {
		x->src_ep.have_qp = p->have_qp;
		x->src_ep.qp = p->qp;
		x->dst_ep.have_qp = true;
		x->dst_ep.qp = d->qp;
	}
}

static bool wanted(const struct cap_state *st, const struct cap_conv *c,
		   const struct rpcrdma_msg *m, bool have_rpc, uint32_t prog,
		   uint32_t proc)
{
	const struct cap_opts *o = st->o;

	if (o->have_xid && m->rdma_xid != o->xid)
		return false;
	if (o->have_conv && c->id != o->conv)
		return false;
	if (o->have_vers && m->rdma_vers != o->vers)
		return false;
	if (o->have_prog && (!have_rpc || prog != o->prog))
		return false;
	if (o->have_proc && (!have_rpc || proc != o->proc))
		return false;
	return true;
}

struct emit_src {
	const struct cap_call *k;   /* the call (for chunk data), or NULL */
	bool is_call, backward;
	uint64_t first;             /* first packet of the Send */
	uint32_t frags;
};

static void emit(struct cap_state *st, struct cap_conv *c, int dir,
		 const struct rpcrdma_msg *m, struct msg_ctx *x, bool have_rpc,
		 uint32_t prog, uint32_t proc, const struct emit_src *es)
{
	if (st->o->check || st->o->stats || st->o->quiet)
		return;
	if (!wanted(st, c, m, have_rpc, prog, proc))
		return;
	endpoints(c, dir, x);
	x->in_capture = true;
	x->file = st->file;
	x->file_prefix = st->o->name_files;
	x->transport = cap_transport_name(c->transport);
	x->conversation = c->id;
	if (es) {
		const struct cap_call *k = es->k;
		if (k && k->have_ops)
			x->ops = &k->ops;
		x->backward = es->backward;
		x->first_frame = es->first;
		x->nframes = es->frags;
		if (k && es->is_call)
			x->read_data = (struct msg_chunk_data){ k->rd_bytes,
					k->rd_first, k->rd_last };
		if (k && !es->is_call) {
			x->write_data = (struct msg_chunk_data){ k->wr_bytes,
					 k->wr_first, k->wr_last };
			x->reply_data = (struct msg_chunk_data){ k->rp_bytes,
					 k->wr_first, k->wr_last };
		}
	}
	if (st->o->json) {
		msgprint_json(st->out, m, x);
	} else if (st->o->verbose) {
		msgprint_tree(st->out, m, x);
	} else {
		msgprint_line(st->out, m, x);
	}
}

/* where a rebuilt message goes; NULL when memory is short */
static uint8_t *scratch(struct cap_state *st)
{
	if (!st->scratch)
		st->scratch = malloc(CAP_MAX_SEND);
	return st->scratch;
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
		*len = k->read_got < k->rb_split ? k->read_got : k->rb_split;
		return k->rb;
	}
	if (!(b = scratch(st)))
		return NULL;
	for (uint32_t i = k->segs; i; ) {
		const struct cap_seg *s = &st->segs[i - 1];
		if (s->kind != CAP_SEG_READ)
			break;
		uint32_t pos = s->position, clen = 0, off = s->rb_off;
		/* one chunk: consecutive segments with the same position */
		while (i && st->segs[i - 1].kind == CAP_SEG_READ &&
		       st->segs[i - 1].position == pos) {
			clen += st->segs[i - 1].len;
			i = st->segs[i - 1].cnext;
		}
		uint32_t cnt = pos > out ? pos - out : 0;
		cnt = MIN3(cnt, plen - pi, cap - out);
		memcpy(b + out, pl + pi, cnt);
		out += cnt;
		pi += cnt;
		/* the chunk's bytes we hold, zeros for the rest, round-up */
		uint32_t have = off < k->rb_split ? k->rb_split - off : 0;
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
	while (i && st->segs[i - 1].kind != CAP_SEG_REPLY)
		i = st->segs[i - 1].cnext;
	while (i && rpcrdma_seg_next(&si, &sg)) {
		const struct cap_seg *s = &st->segs[i - 1];
		uint32_t n = MIN3(sg.rdma_length, s->len, CAP_MAX_SEND - out);
		uint32_t have = s->rb_off < k->rb_cap ? k->rb_cap - s->rb_off : 0;
		have = have < n ? have : n;
		memcpy(st->scratch + out, k->rb + s->rb_off, have);
		memset(st->scratch + out + have, 0, n - have);
		out += n;
		i = s->cnext;
	}
	*len = out;
	return st->scratch;
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
	struct emit_src es = { k, true, k->backward, k->msg_first, k->msg_frags };
	if (c)
		emit(st, c, k->dir, &m, &x, k->have_rpc, k->prog, k->proc, &es);
	cap_budget_free(st, k->msg, k->msg_len);
	k->msg = NULL;
	k->msg_len = 0;
}

static void header_lint(struct cap_state *st, const struct cap_frame *f,
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
			 "%s: %s (offset %u; receiver must %s)",
			 rpcrdma_reason_name(m->reason),
			 rpcrdma_reason_text(m->reason), m->fault_off,
			 rpcrdma_action_name(m->action));
	}
	if (m->notes & RPCRDMA_NOTE_ZERO_CREDIT)
		cap_lint(st, f->num, "zero-credit", "V1 4.3.1",
			 "reply grants zero credits");
	if (!partial && m->nfixed >= 2 && (m->rdma_vers == 1 || m->rdma_vers == 2)) {
		uint32_t th = st->o->inline_threshold;
		if (!th)
			th = m->rdma_vers == 2 ? RPCRDMA_V2_INLINE_DEFAULT :
						 RPCRDMA_V1_INLINE_DEFAULT;
		if (len > th)
			cap_lint(st, f->num, "inline-too-large",
				 m->rdma_vers == 2 ? "V2 5" : "V1 4.3.2",
				 "%u-byte Send exceeds the receiver's %u-byte inline "
				 "threshold", len, th);
	}
}

static void on_call(struct cap_state *st, const struct cap_frame *f,
		    struct cap_conv *c, int dir, const struct rpcrdma_msg *m)
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
	if (dir == c->client) {
		c->stats.calls++;
	} else {
		c->stats.backward++;
		if (m->rdma_credit == 0)
			cap_lint(st, f->num, "zero-credit", "V1 7.2.1",
				 "backward-direction call with zero credits");
	}
	k = cap_call_new(st, c, dir, m->rdma_xid);
	k->rdma_vers = (uint8_t)m->rdma_vers;
	k->frame = f->num;
	k->ts_sec = f->ts_sec;
	k->ts_usec = f->ts_usec;
	k->backward = dir != c->client;
	uint32_t xid = m->rdma_xid;
	rpc_of(rpcrdma_payload(m), m->payload_len, k, &xid);
	cap_chunks_register(st, f, c, k, m);
	k->msg_first = st->msg_first;
	k->msg_frags = st->msg_frags;
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
	struct emit_src es = { k, true, k->backward, st->msg_first, st->msg_frags };
	emit(st, c, dir, m, &x, k->have_rpc, k->prog, k->proc, &es);
}

static void on_reply(struct cap_state *st, const struct cap_frame *f,
		     struct cap_conv *c, int dir, const struct rpcrdma_msg *m)
{
	struct cap_dir *caller = &c->d[1 - dir];
	struct cap_call *k = cap_call_find(st, c, 1 - dir, m->rdma_xid);
	struct msg_ctx x;

	memset(&x, 0, sizeof(x));
	c->stats.replies++;
	if (m->rdma_proc == RDMA_ERROR) {
		if (caller->have_err && caller->err_xid == m->rdma_xid)
			cap_lint(st, f->num, "error-answered-with-error", "V1 5.5",
				 "RDMA_ERROR answers the peer's RDMA_ERROR for XID "
				 "0x%08x", m->rdma_xid);
		c->d[dir].have_err = true;
		c->d[dir].err_xid = m->rdma_xid;
	}
	if (m->action == RPCRDMA_ACCEPT && !m->direction_inferred &&
	    m->rdma_proc != RDMA_ERROR && m->rdma_credit) {
		caller->granted = m->rdma_credit;
		caller->have_grant = true;
		cap_stats_credit(&c->stats, m->rdma_credit);
		cap_stats_credit(&st->stats.total, m->rdma_credit);
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
		if (k->have_rpc)
			cap_stats_latency(st, k->prog, k->vers, k->proc,
					  x.latency_us);
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
	} else {
		c->stats.unmatched++;
	}
	x.frame = f->num;
	x.ts_sec = f->ts_sec;
	x.ts_usec = f->ts_usec;
	struct emit_src es = { k, false, k ? k->backward : dir == c->client,
			       st->msg_first, st->msg_frags };
	emit(st, c, dir, m, &x, k && k->have_rpc, k ? k->prog : 0,
	     k ? k->proc : 0, &es);
	if (k)
		cap_call_free(st, k);
}

void cap_msg_send(struct cap_state *st, const struct cap_frame *f,
		  struct cap_conv *c, int dir, const uint8_t *p, uint32_t len,
		  bool partial)
{
	struct rpcrdma_msg m;
	struct msg_ctx x;

	rpcrdma_decode(p, len, &m);
	bool chunked = m.nreads || m.nwrites || m.has_reply;
	cap_stats_msg(&c->stats, m.rdma_vers, m.rdma_proc, chunked, len, f->num);
	cap_stats_msg(&st->stats.total, m.rdma_vers, m.rdma_proc, chunked, len,
		      f->num);
	if (m.nfixed >= 2 && m.rdma_vers == 2)
		c->d[dir].speaks_v2 = true;
	/* a message the snapshot length cut is judged only if it is whole */
	if (!partial || m.action == RPCRDMA_ACCEPT) {
		if (m.action != RPCRDMA_ACCEPT &&
		    m.action != RPCRDMA_REPLY_INVAL_OPTION) {
			c->stats.bad_headers++;
			st->stats.total.bad_headers++;
		}
		header_lint(st, f, &m, len, partial);
	}
	if (m.direction == RPCRDMA_CALL && m.action == RPCRDMA_ACCEPT) {
		on_call(st, f, c, dir, &m);
		return;
	}
	if (m.direction == RPCRDMA_REPLY && m.nfixed == 4) {
		on_reply(st, f, c, dir, &m);
		return;
	}
	memset(&x, 0, sizeof(x));
	x.frame = f->num;
	x.ts_sec = f->ts_sec;
	x.ts_usec = f->ts_usec;
	struct emit_src es = { NULL, false, false, st->msg_first, st->msg_frags };
	emit(st, c, dir, &m, &x, false, 0, 0, &es);
}
