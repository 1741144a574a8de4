/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * xprt_rs_reply.c - the responder, out: xprt_reply() answers a call the
 * way libcodec's rpcrdma_reply_path() decides: inline, its DDP-eligible
 * result into the write chunk, the reply into the reply chunk, or -- when
 * nothing fits -- RDMA_ERROR / ERR_BADHEADER for the XID (V1 §5.5.3),
 * keeping the connection.  The call's write list goes back whole with the
 * lengths written (V1 §4.4.6).  Send With Invalidate is used when the peer
 * announced it accepts it and all of the call's chunks share one handle
 * (as Linux does).
 */
#include <stdlib.h>
#include <stddef.h>
#include <string.h>
#include "xprt_int.h"

/* a reply on its way out: the path chosen, the reduced reply, and the
 * chunk lists that go back in its header */
struct rs_reply {
	const uint8_t *msg;
	size_t len, ddp_off, ddp_len, pad, red_len;
	enum rpcrdma_reply_path path;
	bool use_w, use_r;
	int s;                       /* the Send slot */
	uint8_t *stage;              /* what the RDMA Writes read */
	uint32_t lkey;
	/* read only below the call's counts (q->nwchunks, q->wsegs[],
	 * q->nrsegs) after push_chunks() wrote them: not cleared per reply */
	struct rpcrdma_segment wsegs[XPRT_MAX_WCHUNKS][XPRT_MAX_SEGS];
	struct rpcrdma_write_chunk wch[XPRT_MAX_WCHUNKS], rch;
	struct rpcrdma_segment rsegs[XPRT_MAX_SEGS];
};

static int reply_none(struct xprt *x, struct xrcvd *q, enum rpcrdma_rpath_why why)
{
	static const char *const text[] = {
		"", "the result is larger than the write chunk",
		"the reply exceeds the inline threshold and there is no reply chunk",
		"the reply is larger than the reply chunk",
	};

	xprt_trace(x, "xid 0x%08x: %s: ERR_BADHEADER", q->m.rdma_xid,
		   text[why < 4 ? why : 0]);
	return xprt_send_error(x, &q->m, RPCRDMA_REPLY_BAD_HEADER);
}

/* libcodec's choice of path for this reply and the call's chunks */
static enum rpcrdma_reply_path choose_path(const struct xprt *x,
					   const struct xrcvd *q,
					   const struct rs_reply *rr,
					   enum rpcrdma_rpath_why *why)
{
	struct rpcrdma_reply_plan p;
	uint32_t i;
	enum rpcrdma_reply_path path;

	memset(&p, 0, sizeof(p));
	p.vers = q->r.vers;
	p.threshold = x->peer.inline_send;
	p.reply_len = rr->len;
	p.ddp_len = rr->ddp_len;
	p.nwrite_chunks = q->nwchunks;
	for (i = 0; i < q->nwchunks; i++)
		p.nwrite_segs += q->wsegs[i];
	p.write_chunk_len = q->nwchunks ? xprt_chunk_len(q->wseg[0], q->wsegs[0]) : 0;
	p.has_reply_chunk = q->m.has_reply;
	p.nreply_segs = q->nrsegs;
	p.reply_chunk_len = q->nrsegs ? xprt_chunk_len(q->rseg, q->nrsegs) : 0;
	path = rpcrdma_reply_path(&p);
	*why = p.why;
	return path;
}

/* the data the RDMA Writes read, in one buffer of the slot:
 * [result][reduced reply]; 0 or -1 */
static int stage_chunk_data(struct xprt *x, struct rs_reply *rr)
{
	size_t stage_len = (rr->use_w ? rr->ddp_len : 0) + (rr->use_r ? rr->red_len : 0);
	struct xsend *ss = &x->sends[rr->s];
	const uint8_t *msg = rr->msg;
	uint8_t *stage;

	if (!stage_len)
		return 0;
	stage = rr->stage = ss->stage = malloc(stage_len);
	ss->stage_mr = stage ? x->l->v->reg_mr(x->id, stage, stage_len, 0) : NULL;
	if (!ss->stage_mr)
		return -1;
	rr->lkey = ss->stage_mr->lkey;
	if (rr->use_w)
		memcpy(stage, msg + rr->ddp_off, rr->ddp_len);
	if (rr->use_r) {
		uint8_t *d = stage + (rr->use_w ? rr->ddp_len : 0);

		if (rr->use_w) {
			memcpy(d, msg, rr->ddp_off);
			memcpy(d + rr->ddp_off, msg + rr->ddp_off + rr->ddp_len + rr->pad,
			       rr->len - rr->ddp_off - rr->ddp_len - rr->pad);
		} else {
			memcpy(d, msg, rr->len);
		}
	}
	return 0;
}

/* the RDMA Writes into the write chunk and the reply chunk, and the
 * chunk lists with the lengths written; 0 or -1 */
static int push_chunks(struct xprt *x, const struct xrcvd *q, struct rs_reply *rr)
{
	uint32_t written[XPRT_MAX_SEGS], i, j;

	/* the call's write list goes back whole, lengths rewritten (V1 §4.4.6) */
	for (i = 0; i < q->nwchunks; i++) {
		for (j = 0; j < q->wsegs[i]; j++) {
			rr->wsegs[i][j] = q->wseg[i][j];
			rr->wsegs[i][j].rdma_length = 0;
		}
		rr->wch[i] = (struct rpcrdma_write_chunk){ rr->wsegs[i], q->wsegs[i] };
	}
	if (rr->use_w) {
		if (xprt_write_chunk_push(x, rr->s, q->wseg[0], q->wsegs[0], rr->stage,
					  rr->lkey, rr->ddp_len, written))
			return -1;
		for (j = 0; j < q->wsegs[0]; j++)
			rr->wsegs[0][j].rdma_length = written[j];
	}
	if (rr->use_r) {
		if (xprt_write_chunk_push(x, rr->s, q->rseg, q->nrsegs,
					  rr->stage + (rr->use_w ? rr->ddp_len : 0),
					  rr->lkey, rr->red_len, written))
			return -1;
		for (j = 0; j < q->nrsegs; j++) {
			rr->rsegs[j] = q->rseg[j];
			rr->rsegs[j].rdma_length = written[j];
		}
		rr->rch = (struct rpcrdma_write_chunk){ rr->rsegs, q->nrsegs };
	}
	return 0;
}

/* the reply's header (and the reduced reply, when it goes inline) in
 * one Send, with invalidation when the peer takes it; 0 or -1 */
static int send_reply(struct xprt *x, const struct xrcvd *q, struct rs_reply *rr)
{
	const uint8_t *msg = rr->msg;
	bool inv = x->peer_inv && q->inv_ok;
	struct rpcrdma_hdr h;
	size_t hlen, total;
	uint32_t plkey;
	uint8_t *p8;

	XPRT_ZERO(&h, sizeof(h));
	h.rdma_xid = q->r.xid;
	h.rdma_vers = q->r.vers;
	h.rdma_credit = xprt_credit_grant(x);
	h.rdma_proc = rr->use_r ? RDMA_NOMSG : RDMA_MSG;
	h.direction = RPCRDMA_REPLY;
	h.writes = rr->wch;
	h.nwrites = q->nwchunks;
	h.reply = rr->use_r ? &rr->rch : NULL;
	/* encoded once, into the slot's buffer, when the whole Send fits
	 * there (the common case); else into the larger one it gets */
	p8 = xprt_send_space(x, rr->s, 0, &plkey);
	if (!rpcrdma_encode(&h, p8, x->ssize, &hlen) ||
	    hlen + (rr->use_r ? 0 : rr->red_len) > x->ssize) {
		p8 = xprt_send_space(x, rr->s, hlen + (rr->use_r ? 0 : rr->red_len), &plkey);
		if (!p8 || rpcrdma_encode(&h, p8, hlen, NULL) != hlen)
			return -1;
	}
	if (!rr->use_r && rr->use_w) {
		memcpy(p8 + hlen, msg, rr->ddp_off);
		memcpy(p8 + hlen + rr->ddp_off, msg + rr->ddp_off + rr->ddp_len + rr->pad,
		       rr->len - rr->ddp_off - rr->ddp_len - rr->pad);
	} else if (!rr->use_r) {
		memcpy(p8 + hlen, msg, rr->len);
	}
	total = hlen + (rr->use_r ? 0 : rr->red_len);
	if (x->o.debug > 1)
		xprt_trace(x, "xid 0x%08x: %s reply (%s), %s", q->r.xid,
			   rpcrdma_reply_path_name(rr->path),
			   rr->use_r ? "RDMA_NOMSG" : "RDMA_MSG",
			   inv ? "Send With Invalidate" : "Send");
	if (xprt_post_send(x, rr->s, p8, total, plkey, inv, q->inv_rkey))
		return -1;
	x->st.replies_sent++;
	x->st.bytes_sent += (uint32_t)total;
	return 0;
}

int xprt_reply(struct xprt_rcvd_call *r, const uint8_t *msg, size_t len,
	       size_t ddp_off, size_t ddp_len)
{
	struct xrcvd *q = (struct xrcvd *)r;
	struct xprt *x = r->x;
	enum rpcrdma_rpath_why why;
	struct rs_reply rr;

	if (!q->busy || q->answered || !x || x->state != X_CONNECTED || !msg)
		return -1;
	if (ddp_off > len || ddp_len > len - ddp_off)
		return -1;
	q->answered = true;
	memset(&rr, 0, offsetof(struct rs_reply, wsegs));
	rr.msg = msg;
	rr.len = len;
	rr.ddp_off = ddp_off;
	rr.ddp_len = ddp_len;
	if (ddp_len)
		rr.pad = (4 - (ddp_len & 3)) & 3;
	if (rr.pad > len - ddp_off - ddp_len)
		rr.pad = len - ddp_off - ddp_len;
	rr.path = choose_path(x, q, &rr, &why);
	if (rr.path == RPCRDMA_RPATH_NONE)
		return reply_none(x, q, why);
	rr.use_w = rr.path == RPCRDMA_RPATH_WRITE || rr.path == RPCRDMA_RPATH_WRITE_REPLY;
	rr.use_r = rr.path == RPCRDMA_RPATH_REPLY || rr.path == RPCRDMA_RPATH_WRITE_REPLY;
	rr.red_len = rr.use_w ? len - ddp_len - rr.pad : len;
	rr.s = xprt_send_slot(x);
	if (rr.s < 0)
		return -1;
	if (stage_chunk_data(x, &rr) || push_chunks(x, q, &rr) ||
	    send_reply(x, q, &rr)) {
		/* WRs already posted complete (or flush) and free the slot */
		if (!x->sends[rr.s].pending)
			xprt_send_slot_put(x, rr.s);
		xprt_fatal(x, "could not post a reply");
		return -1;
	}
	return 0;
}
