/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fake_model.c - the model ECHO responder behind fake_xprt.c: what a
 * responder following docs/verdicts.md, the reply-path rules
 * (rpcrdma_reply_path, docs/spec-decisions.md D-REPLY-1..3) and the ECHO
 * ULB (docs/echo-ulb.md) does with each Send, including backward calls for
 * CALLBACK; and the misbehaviours of xprt_opts.misbehave.
 */
#include <stdlib.h>
#include <string.h>
#include <rpcrdma/rpc.h>
#include "fake_xprt_int.h"

#define CALL_MAX 16384

static uint32_t next_bxid = 0xb0000000u;

static void versions(uint32_t *low, uint32_t *high)
{
	*low = fake_cfg_now.versions & XPRT_V1 ? 1 : 2;
	*high = fake_cfg_now.versions & XPRT_V2 ? 2 : 1;
}

static uint32_t grant(void)
{
	return fake_cfg_now.misbehave == XPRT_MISBEHAVE_ZERO_CREDIT ? 0 : fake_cfg_now.credits;
}

/* An error reply; the misbehaviours concern only what the header's verdict
 * asks for (xprt.h: "a malformed header is answered with ERR_VERS"), not
 * the errors the responder decides later (D-REPLY-1, V1 §8.1.1). */
static void answer_error(struct xprt *x, struct rpcrdma_msg *m, bool verdict)
{
	uint8_t out[64];
	uint32_t low, high;
	size_t n;

	versions(&low, &high);
	switch (verdict ? fake_cfg_now.misbehave : XPRT_MISBEHAVE_NONE) {
	case XPRT_MISBEHAVE_DROP_BAD:
		fake_drop(x, XPRT_DISC_PEER);
		return;
	case XPRT_MISBEHAVE_SILENT_VERS:
		if (m->action == RPCRDMA_REPLY_ERR_VERS)
			return;
		break;
	case XPRT_MISBEHAVE_WRONG_ERROR:
		if (m->action == RPCRDMA_REPLY_BAD_HEADER)
			m->action = RPCRDMA_REPLY_ERR_VERS;
		break;
	default:
		break;
	}
	n = rpcrdma_encode_error_reply_range(m, fake_cfg_now.credits, low, high, out, sizeof(out), NULL);
	if (n)
		fake_push(x->l, EV_RECV, x, out, n, XPRT_DISC_LOCAL);
}

/* a reply with no chunks (CALLBACK's, and RPC errors) */
static void plain_reply(struct xprt *x, uint32_t vers, uint32_t xid, const uint8_t *rpc, size_t n)
{
	struct rpcrdma_hdr h;
	uint8_t out[CALL_MAX];
	size_t hl;

	memset(&h, 0, sizeof(h));
	h.rdma_xid = xid;
	h.rdma_vers = vers;
	h.rdma_credit = grant();
	h.rdma_proc = RDMA_MSG;
	h.direction = RPCRDMA_REPLY;
	hl = rpcrdma_encode(&h, out, sizeof(out), NULL);
	if (!hl || hl + n > sizeof(out))
		return;
	memcpy(out + hl, rpc, n);
	fake_push(x->l, EV_RECV, x, out, hl + n, XPRT_DISC_LOCAL);
}

/* Copy len bytes into a chunk's segments in order, rewriting their lengths
 * to what each got; false on a segment that names no registered memory. */
static bool fill(struct xprt *x, struct rpcrdma_segment *segs, uint32_t nsegs,
		 const uint8_t *src, size_t len)
{
	uint32_t i;

	for (i = 0; i < nsegs; i++) {
		size_t k = len < segs[i].rdma_length ? len : segs[i].rdma_length;
		uint8_t *dst = fake_region(x, &segs[i]);

		if (!dst)
			return false;
		memcpy(dst, src, k);
		segs[i].rdma_length = (uint32_t)k;
		src += k;
		len -= k;
	}
	return true;
}

static void send_reply(struct xprt *x, struct rpcrdma_msg *m, const uint8_t *rb, size_t n,
		       size_t doff, size_t dlen)
{
	struct rpcrdma_read_segment reads[8];
	struct rpcrdma_write_chunk chunks[8];
	struct rpcrdma_segment segs[32];
	struct rpcrdma_reply_plan p;
	struct rpcrdma_hdr h;
	static uint8_t out[CALL_MAX], red[CALL_MAX];
	size_t hl, rl = n, pad = (4 - (dlen & 3)) & 3;
	uint32_t i, j;
	enum rpcrdma_reply_path path;
	bool reduce;

	if (!rpcrdma_msg_to_hdr(m, &h, reads, 8, chunks, 8, segs, 32))
		return;
	memset(&p, 0, sizeof(p));
	p.vers = m->rdma_vers;
	p.threshold = x->l->o.inline_recv ? x->l->o.inline_recv : 1024;
	p.reply_len = n;
	p.ddp_len = dlen;
	p.nwrite_chunks = h.nwrites;
	if (h.nwrites) {
		p.nwrite_segs = chunks[0].nsegs;
		for (i = 0; i < chunks[0].nsegs; i++)
			p.write_chunk_len += chunks[0].segs[i].rdma_length;
	}
	if (h.reply) {
		p.has_reply_chunk = true;
		p.nreply_segs = h.reply->nsegs;
		for (i = 0; i < h.reply->nsegs; i++)
			p.reply_chunk_len += h.reply->segs[i].rdma_length;
	}
	path = rpcrdma_reply_path(&p);
	if (path == RPCRDMA_RPATH_NONE) {
		m->action = RPCRDMA_REPLY_BAD_HEADER;   /* D-REPLY-1 */
		answer_error(x, m, false);
		return;
	}
	memcpy(red, rb, n);
	reduce = path == RPCRDMA_RPATH_WRITE || path == RPCRDMA_RPATH_WRITE_REPLY;
	for (j = reduce ? 1 : 0; j < h.nwrites; j++)   /* unused chunks: zero lengths */
		for (i = 0; i < chunks[j].nsegs; i++)
			segs[chunks[j].segs - segs + i].rdma_length = 0;
	if (reduce) {
		if (!fill(x, &segs[chunks[0].segs - segs], chunks[0].nsegs, rb + doff, dlen)) {
			fake_drop(x, XPRT_DISC_ERROR);
			return;
		}
		/* the reduced reply: the result and its pad left out */
		memcpy(red + doff, rb + doff + dlen + pad, n - doff - dlen - pad);
		rl = n - dlen - pad;
	}
	h.nreads = 0;
	h.reads = NULL;
	h.rdma_credit = grant();
	h.direction = RPCRDMA_REPLY;
	if (path == RPCRDMA_RPATH_REPLY || path == RPCRDMA_RPATH_WRITE_REPLY) {
		if (!fill(x, &segs[h.reply->segs - segs], h.reply->nsegs, red, rl)) {
			fake_drop(x, XPRT_DISC_ERROR);
			return;
		}
		h.rdma_proc = RDMA_NOMSG;
		rl = 0;
	} else {
		h.reply = NULL;                 /* echoed only when used (D-REPLY-3) */
		h.rdma_proc = RDMA_MSG;
	}
	hl = rpcrdma_encode(&h, out, sizeof(out), NULL);
	if (!hl || hl + rl > sizeof(out))
		return;
	memcpy(out + hl, red, rl);
	fake_push(x->l, EV_RECV, x, out, hl + rl, XPRT_DISC_LOCAL);
}

/* CALLBACK: `count` backward ECHO calls on this connection */
static void callback(struct xprt *x, const struct rpcrdma_msg *m, const struct echo_args *a)
{
	uint8_t rpc[1100], out[1200], rb[64];
	struct rpcrdma_hdr h;
	uint32_t i;
	size_t n, hl;

	/* the running count first, then the calls (docs/echo-ulb.md §1) */
	n = echo_encode_reply(rb, sizeof(rb), a->xid, ECHO_PROC_CALLBACK, x->cb_ok, NULL, 0, NULL,
			      NULL);
	plain_reply(x, m->rdma_vers, a->xid, rb, n);
	x->cb_vers = m->rdma_vers;
	x->cb_count = a->count;
	x->cb_done = 0;
	x->cb_len = a->len;
	memcpy(x->cb_data, a->data, a->len);
	for (i = 0; i < a->count; i++) {
		uint32_t bx = next_bxid++;

		n = echo_encode_call(rpc, sizeof(rpc), ECHO_PROC_ECHO, 0, a->data, a->len, NULL, NULL);
		fake_put32(rpc, bx);
		memset(&h, 0, sizeof(h));
		h.rdma_xid = bx;
		h.rdma_vers = m->rdma_vers;
		h.rdma_credit = fake_cfg_now.credits;
		h.rdma_proc = RDMA_MSG;
		h.direction = RPCRDMA_CALL;
		hl = rpcrdma_encode(&h, out, sizeof(out), NULL);
		memcpy(out + hl, rpc, n);
		fake_push(x->l, EV_CALL, x, out, hl + n, XPRT_DISC_LOCAL);
	}
}

int fake_model_backward_reply(struct xprt *x, uint32_t xid, const uint8_t *msg, size_t len)
{
	struct rpc_msg_hdr h;
	const uint8_t *d;
	uint32_t dl;

	(void)xid;
	if (x->cb_done >= x->cb_count)
		return -1;
	x->cb_done++;
	if (!echo_decode_reply(msg, len, ECHO_PROC_ECHO, &h, &d, &dl, NULL) && dl == x->cb_len &&
	    !memcmp(d, x->cb_data, dl))
		x->cb_ok++;
	return 0;
}

/* The call with its read chunk put back at its position (V1 §4.4.5), and
 * the round-up the requester left out (§4.4.5.1); 0 on a failed "Read" */
static size_t reassemble(struct xprt *x, const struct rpcrdma_msg *m, uint8_t *call)
{
	const uint8_t *pl = rpcrdma_payload(m);
	struct rpcrdma_read_iter it;
	struct rpcrdma_read_segment s;
	size_t n = 0, pos = 0, plen = m->payload_len;
	bool first = true;

	rpcrdma_read_iter_init(m, &it);
	while (rpcrdma_read_next(&it, &s)) {
		const uint8_t *src = fake_region(x, &s.rdma_target);

		if (!src || n + plen + s.rdma_target.rdma_length + 4 > CALL_MAX)
			return 0;
		if (first) {
			pos = s.rdma_position;
			if (pos > plen)
				return 0;
			if (pl)
				memcpy(call, pl, pos);
			n = pos;
			first = false;
		}
		memcpy(call + n, src, s.rdma_target.rdma_length);
		n += s.rdma_target.rdma_length;
	}
	if (first) {
		if (!pl || plen > CALL_MAX)
			return 0;
		memcpy(call, pl, plen);
		return plen;
	}
	while ((n & 3) && !fake_cfg_now.ignore_roundup)
		call[n++] = 0;
	if (pl && plen > pos) {
		memcpy(call + n, pl + pos, plen - pos);
		n += plen - pos;
	}
	return n;
}

int fake_model_recv(struct xprt *x, const uint8_t *buf, size_t len)
{
	static uint8_t call[CALL_MAX], rb[CALL_MAX];
	struct rpcrdma_msg m;
	struct echo_args a;
	enum echo_call_status st;
	uint32_t low, high;
	size_t n, doff = 0, dlen = 0;

	if (x->hung) {
		fake_late_drop_rearm(x);
		return 0;
	}
	if (len > fake_cfg_now.inline_recv) {   /* no Receive fits: the QP fails */
		fake_drop(x, XPRT_DISC_ERROR);
		return 0;
	}
	if (len >= 16 && fake_be32(buf + 4) == 1 && fake_be32(buf + 12) == RDMA_DONE &&
	    fake_cfg_now.crash_on_done) {
		fake_gone = true;
		fake_drop(x, XPRT_DISC_ERROR);
		return 0;
	}
	if (len >= 16 && fake_be32(buf + 4) == 1 && fake_be32(buf + 12) == RDMA_MSGP &&
	    fake_cfg_now.hang_on_msgp) {
		x->hung = true;
		return 0;
	}
	if (len < 8 && fake_cfg_now.answer_short) {
		uint8_t pad[8] = { 0 }, out[32];
		struct rpcrdma_msg sm;

		memcpy(pad, buf, len);
		pad[7] = 1;             /* a header of version 1 ... */
		rpcrdma_decode(pad, sizeof(pad), &sm);  /* ... cut short: BADHEADER */
		n = rpcrdma_encode_error_reply_range(&sm, fake_cfg_now.credits, 1, 1, out,
						     sizeof(out), NULL);
		if (n)
			fake_push(x->l, EV_RECV, x, out, n, XPRT_DISC_LOCAL);
		return 0;
	}
	versions(&low, &high);
	rpcrdma_decode(buf, len, &m);
	rpcrdma_judge_versions(&m, low, high);
	if (m.action == RPCRDMA_DISCARD)
		return 0;
	if (m.action != RPCRDMA_ACCEPT) {
		answer_error(x, &m, true);
		return 0;
	}
	if (m.rdma_proc == RDMA_ERROR || m.direction != RPCRDMA_CALL)
		return 0;               /* errors; backward replies matching nothing */
	n = reassemble(x, &m, call);
	if (!n) {
		fake_drop(x, XPRT_DISC_ERROR);  /* a remote access error */
		return 0;
	}
	st = echo_decode_call(call, n, false, &a);
	if (st == ECHO_CALL_NOT_RPC)
		return 0;
	if (st == ECHO_CALL_OK && m.nreads && m.rdma_proc == RDMA_MSG) {
		/* V1 §8.1.1: a read chunk holds exactly the DDP-eligible item */
		struct rpcrdma_read_iter it;
		struct rpcrdma_read_segment s;

		rpcrdma_read_iter_init(&m, &it);
		if (rpcrdma_read_next(&it, &s) && s.rdma_position != a.data_off) {
			m.action = RPCRDMA_REPLY_BAD_HEADER;
			answer_error(x, &m, false);
			return 0;
		}
	}
	if (st == ECHO_CALL_OK && a.proc == ECHO_PROC_CALLBACK) {
		callback(x, &m, &a);
		return 0;
	}
	if (st == ECHO_CALL_OK)
		n = echo_encode_reply(rb, sizeof(rb), a.xid, a.proc, 0, a.data, a.len, &doff, &dlen);
	else
		n = echo_encode_error(rb, sizeof(rb), a.xid, st);
	if (n)
		send_reply(x, &m, rb, n, doff, dlen);
	if (n && fake_cfg_now.stray_answer && dlen == 0) {
		/* the same reply again under an xid nobody sent */
		uint8_t *p = rb;

		p[0] ^= 0x5a;
		m.rdma_xid ^= 0x5a000000u;
		send_reply(x, &m, rb, n, doff, dlen);
	}
	return 0;
}
