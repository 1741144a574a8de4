/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * xprt_respond.c - the responder: a call received (forward on a server,
 * backward on a client) has its read chunks pulled (xprt_chunks.c), goes to
 * on_call whole, and is answered with xprt_reply() the way libcodec's
 * rpcrdma_reply_path() decides: inline, its DDP-eligible result into the
 * write chunk, the reply into the reply chunk, or -- when nothing fits --
 * RDMA_ERROR / ERR_BADHEADER for the XID (V1 §5.5.3), keeping the
 * connection.  Backward-direction messages carry no chunks (BIDI §5.3: a
 * backward call with chunks is answered with ERR_CHUNK, V1's value 2).
 * Send With Invalidate is used when the peer announced it accepts it and
 * all of the call's chunks share one handle (as Linux does).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "xprt_int.h"

static void req_release(struct xprt *x, struct xreq *q)
{
	if (q->mr)
		x->l->v->dereg_mr(q->mr);
	free(q->buf);
	free(q->hdr);
	memset(q, 0, sizeof(*q));
}

void xprt_reqs_release_all(struct xprt *x)
{
	uint32_t i;

	for (i = 0; i < x->nreqs; i++) {
		struct xreq *q = &x->reqs[i];

		if (!q->busy)
			continue;
		if (!q->answered_inside) {
			req_release(x, q);
			continue;
		}
		/* on_call is running: its memory stays until it returns, the
		 * registration goes now (before the protection domain) */
		if (q->mr)
			x->l->v->dereg_mr(q->mr);
		q->mr = NULL;
		q->failed = true;
	}
}

/* the requester's write list and reply chunk, and the one rkey to
 * invalidate; -1 beyond what this responder serves */
static int note_chunks(struct xreq *q)
{
	struct rpcrdma_chunk_iter ci;
	struct rpcrdma_seg_iter si;
	struct rpcrdma_read_iter ri;
	struct rpcrdma_read_segment rs;
	struct rpcrdma_segment s;
	uint32_t key = 0;
	bool first = true, one = true;

#define SEEN(h) do { if (first) { key = (h); first = false; } \
		     else if ((h) != key) one = false; } while (0)
	rpcrdma_read_iter_init(&q->m, &ri);
	while (rpcrdma_read_next(&ri, &rs))
		SEEN(rs.rdma_target.rdma_handle);
	if (q->m.nwrites > XPRT_MAX_WCHUNKS)
		return -1;
	rpcrdma_write_iter_init(&q->m, &ci);
	while (rpcrdma_write_next(&ci, &si)) {
		uint32_t n = 0;

		if (si.nsegs > XPRT_MAX_SEGS)
			return -1;
		while (rpcrdma_seg_next(&si, &s)) {
			q->wseg[q->nwchunks][n++] = s;
			SEEN(s.rdma_handle);
		}
		q->wsegs[q->nwchunks++] = n;
	}
	if (rpcrdma_reply_chunk(&q->m, &si)) {
		if (si.nsegs > XPRT_MAX_SEGS)
			return -1;
		while (rpcrdma_seg_next(&si, &s)) {
			q->rseg[q->nrsegs++] = s;
			SEEN(s.rdma_handle);
		}
	}
#undef SEEN
	q->inv_ok = !first && one;
	q->inv_rkey = key;
	return 0;
}

static uint64_t seg_sum(const struct rpcrdma_segment *s, uint32_t n)
{
	uint64_t t = 0;
	uint32_t i;

	for (i = 0; i < n; i++)
		t += s[i].rdma_length;
	return t;
}

static void deliver(struct xprt *x, struct xreq *q, const uint8_t *msg, size_t len)
{
	struct xprt_req *r = &q->r;

	r->x = x;
	r->xid = q->m.rdma_xid;
	r->backward = !x->server;
	r->vers = q->m.rdma_vers;
	r->hdr = &q->m;
	r->msg = msg;
	r->len = len;
	r->call_path = !q->nrch ? XPRT_PATH_INLINE :
		       q->rch[0].pos == 0 ? XPRT_PATH_POS0 : XPRT_PATH_READ;
	r->nwrite_chunks = q->nwchunks;
	r->write_chunk_len = q->nwchunks ? seg_sum(q->wseg[0], q->wsegs[0]) : 0;
	r->has_reply_chunk = q->m.has_reply;
	r->reply_chunk_len = seg_sum(q->rseg, q->nrsegs);
	q->answered_inside = true;
	x->busy++;
	x->h.on_call(r, x->h.arg);
	x->busy--;
	q->answered_inside = false;
	req_release(x, q);
}

void xprt_call_in(struct xprt *x, uint32_t slot, const uint8_t *buf,
		  size_t len, struct rpcrdma_msg *m)
{
	bool backward = !x->server;
	const uint8_t *pay = rpcrdma_payload(m);
	size_t plen = m->rdma_proc == RDMA_NOMSG ? 0 : m->payload_len;
	struct xreq *q = NULL;
	uint32_t i;

	(void)len;
	if (backward)
		x->st.backward_calls_received++;
	else
		x->st.calls_received++;
	if (!x->h.on_call) {
		x->st.discarded++;           /* BIDI §6: not prepared for it */
		goto repost;
	}
	if (backward && (m->nreads || m->nwrites || m->has_reply)) {
		xprt_send_error(x, m, RPCRDMA_REPLY_BAD_HEADER);    /* ERR_CHUNK */
		goto repost;
	}
	if (!backward && x->vers != m->rdma_vers) {
		/* the requester's version is the connection's (V2 §5.3) */
		x->vers = x->peer.vers = m->rdma_vers;
		x->vers_settled = true;
		xprt_update_thresholds(x);
	}
	for (i = 0; i < x->nreqs && x->reqs[i].busy; i++)
		;
	if (i == x->nreqs) {
		xprt_trace(x, "xid 0x%08x: more calls in progress than granted: "
			   "dropped", m->rdma_xid);
		x->st.discarded++;
		goto repost;
	}
	q = &x->reqs[i];
	memset(q, 0, sizeof(*q));
	q->busy = true;
	q->hdr = malloc(m->header_len ? m->header_len : 1);
	if (!q->hdr) {
		req_release(x, q);
		xprt_fatal(x, "out of memory");
		return;
	}
	memcpy(q->hdr, buf, m->header_len);
	q->m = *m;
	q->m.buf = q->hdr;
	q->m.len = m->header_len;
	q->m.payload_len = 0;
	if (note_chunks(q) ||
	    xprt_read_chunk_plan(q, pay, plen, x->o.max_message)) {
		xprt_trace(x, "xid 0x%08x: chunks beyond what we serve, or a read "
			   "position past the payload", m->rdma_xid);
		xprt_send_error(x, m, RPCRDMA_REPLY_BAD_HEADER);
		req_release(x, q);
		goto repost;
	}
	if (!q->nrch) {
		deliver(x, q, pay, plen);       /* straight from the Receive */
		goto repost;
	}
	q->buf = malloc(q->len ? q->len : 1);
	q->mr = q->buf ? x->l->v->reg_mr(x->id, q->buf, q->len ? q->len : 1,
					 XV_ACCESS_LOCAL_WRITE) : NULL;
	if (!q->mr) {
		req_release(x, q);
		xprt_fatal(x, "no memory for a read chunk");
		return;
	}
	xprt_read_chunk_fill(q, pay);
	if (xprt_read_chunk_pull(x, q, i)) {
		xprt_fatal(x, "posting RDMA Reads failed");
		return;
	}
	if (!q->reads_pending)
		deliver(x, q, q->buf, q->len);
repost:
	if (x->state == X_CONNECTED && xprt_post_recv(x, slot))
		xprt_fatal(x, "re-posting a Receive failed");
}

void xprt_req_read_done(struct xprt *x, uint32_t idx, bool ok)
{
	struct xreq *q;

	if (idx >= x->nreqs || !(q = &x->reqs[idx])->busy || !q->reads_pending)
		return;
	if (!ok)
		q->failed = true;
	if (--q->reads_pending)
		return;
	if (q->failed || x->state != X_CONNECTED)
		req_release(x, q);        /* the connection is going */
	else
		deliver(x, q, q->buf, q->len);
}

/* -------- the reply -------- */
static int reply_none(struct xprt *x, struct xreq *q, enum rpcrdma_rpath_why why)
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

int xprt_reply(struct xprt_req *r, const uint8_t *msg, size_t len,
	       size_t ddp_off, size_t ddp_len)
{
	struct xreq *q = (struct xreq *)r;
	struct xprt *x = r->x;
	struct rpcrdma_reply_plan p;
	enum rpcrdma_reply_path path;
	struct rpcrdma_segment wsegs[XPRT_MAX_WCHUNKS][XPRT_MAX_SEGS];
	struct rpcrdma_write_chunk wch[XPRT_MAX_WCHUNKS], rch;
	struct rpcrdma_segment rsegs[XPRT_MAX_SEGS];
	uint32_t written[XPRT_MAX_SEGS], lkey = 0, plkey, i, j;
	struct rpcrdma_hdr h;
	size_t pad = 0, red_len, hlen, stage_len;
	uint8_t *stage = NULL, *p8;
	struct xv_sge sge;
	struct xv_send_wr wr;
	bool use_w, use_r;
	int s;

	if (!q->busy || q->answered || !x || x->state != X_CONNECTED || !msg)
		return -1;
	if (ddp_off > len || ddp_len > len - ddp_off)
		return -1;
	q->answered = true;
	if (ddp_len)
		pad = (4 - (ddp_len & 3)) & 3;
	if (pad > len - ddp_off - ddp_len)
		pad = len - ddp_off - ddp_len;
	memset(&p, 0, sizeof(p));
	p.vers = r->vers;
	p.threshold = x->peer.inline_send;
	p.reply_len = len;
	p.ddp_len = ddp_len;
	p.nwrite_chunks = q->nwchunks;
	for (i = 0; i < q->nwchunks; i++)
		p.nwrite_segs += q->wsegs[i];
	p.write_chunk_len = q->nwchunks ? seg_sum(q->wseg[0], q->wsegs[0]) : 0;
	p.has_reply_chunk = q->m.has_reply;
	p.nreply_segs = q->nrsegs;
	p.reply_chunk_len = seg_sum(q->rseg, q->nrsegs);
	path = rpcrdma_reply_path(&p);
	if (path == RPCRDMA_RPATH_NONE)
		return reply_none(x, q, p.why);
	use_w = path == RPCRDMA_RPATH_WRITE || path == RPCRDMA_RPATH_WRITE_REPLY;
	use_r = path == RPCRDMA_RPATH_REPLY || path == RPCRDMA_RPATH_WRITE_REPLY;
	red_len = use_w ? len - ddp_len - pad : len;
	s = xprt_send_slot(x);
	if (s < 0)
		return -1;
	/* the data the RDMA Writes read: [result][reduced reply] */
	stage_len = (use_w ? ddp_len : 0) + (use_r ? red_len : 0);
	if (stage_len) {
		struct xsend *ss = &x->sends[s];

		stage = ss->stage = malloc(stage_len);
		ss->stage_mr = stage ? x->l->v->reg_mr(x->id, stage, stage_len, 0) : NULL;
		if (!ss->stage_mr)
			goto fail;
		lkey = ss->stage_mr->lkey;
		if (use_w)
			memcpy(stage, msg + ddp_off, ddp_len);
		if (use_r) {
			uint8_t *d = stage + (use_w ? ddp_len : 0);

			if (use_w) {
				memcpy(d, msg, ddp_off);
				memcpy(d + ddp_off, msg + ddp_off + ddp_len + pad,
				       len - ddp_off - ddp_len - pad);
			} else {
				memcpy(d, msg, len);
			}
		}
	}
	/* the call's write list goes back whole, lengths rewritten (V1 §4.4.6) */
	for (i = 0; i < q->nwchunks; i++) {
		for (j = 0; j < q->wsegs[i]; j++) {
			wsegs[i][j] = q->wseg[i][j];
			wsegs[i][j].rdma_length = 0;
		}
		wch[i] = (struct rpcrdma_write_chunk){ wsegs[i], q->wsegs[i] };
	}
	if (use_w) {
		if (xprt_write_chunk_push(x, s, q->wseg[0], q->wsegs[0], stage, lkey,
					  ddp_len, written))
			goto fail;
		for (j = 0; j < q->wsegs[0]; j++)
			wsegs[0][j].rdma_length = written[j];
	}
	if (use_r) {
		if (xprt_write_chunk_push(x, s, q->rseg, q->nrsegs,
					  stage + (use_w ? ddp_len : 0), lkey,
					  red_len, written))
			goto fail;
		for (j = 0; j < q->nrsegs; j++) {
			rsegs[j] = q->rseg[j];
			rsegs[j].rdma_length = written[j];
		}
		rch = (struct rpcrdma_write_chunk){ rsegs, q->nrsegs };
	}
	memset(&h, 0, sizeof(h));
	h.rdma_xid = r->xid;
	h.rdma_vers = r->vers;
	h.rdma_credit = xprt_grant(x);
	h.rdma_proc = use_r ? RDMA_NOMSG : RDMA_MSG;
	h.direction = RPCRDMA_REPLY;
	h.writes = wch;
	h.nwrites = q->nwchunks;
	h.reply = use_r ? &rch : NULL;
	rpcrdma_encode(&h, NULL, 0, &hlen);
	p8 = xprt_send_space(x, s, hlen + (use_r ? 0 : red_len), &plkey);
	if (!p8 || rpcrdma_encode(&h, p8, hlen, NULL) != hlen)
		goto fail;
	if (!use_r && use_w) {
		memcpy(p8 + hlen, msg, ddp_off);
		memcpy(p8 + hlen + ddp_off, msg + ddp_off + ddp_len + pad,
		       len - ddp_off - ddp_len - pad);
	} else if (!use_r) {
		memcpy(p8 + hlen, msg, len);
	}
	sge = (struct xv_sge){ p8, (uint32_t)(hlen + (use_r ? 0 : red_len)), plkey };
	memset(&wr, 0, sizeof(wr));
	wr.wr_id = XW_ID(XW_SEND, s);
	wr.opcode = XV_OP_SEND;
	if (x->peer_inv && q->inv_ok) {
		wr.opcode = XV_OP_SEND_INV;
		wr.invalidate_rkey = q->inv_rkey;
	}
	if (x->o.debug > 1)
		xprt_trace(x, "xid 0x%08x: %s reply (%s), %s", r->xid,
			   rpcrdma_reply_path_name(path), use_r ? "RDMA_NOMSG" : "RDMA_MSG",
			   wr.opcode == XV_OP_SEND_INV ? "Send With Invalidate" : "Send");
	wr.signaled = true;
	wr.sge = &sge;
	wr.nsge = 1;
	x->sends[s].pending++;
	if (xprt_post(x, &wr)) {
		x->sends[s].pending--;
		goto fail;
	}
	x->st.replies_sent++;
	x->st.bytes_sent += sge.len;
	return 0;
fail:
	/* WRs already posted complete (or flush) and free the slot */
	if (!x->sends[s].pending)
		xprt_send_slot_put(x, s);
	xprt_fatal(x, "could not post a reply");
	return -1;
}
