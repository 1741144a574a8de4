/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * xprt_rs_call.c - the responder, in: a call received (forward on a
 * server, backward on a client) has its chunks noted and checked against
 * what this end serves, its read chunks pulled (xprt_rs_chunks.c), and
 * goes to on_call whole; xprt_reply() answers it (xprt_rs_reply.c).
 * Backward-direction messages carry no chunks (BIDI §5.3: a backward call
 * with chunks is answered with ERR_CHUNK, V1's value 2).  The one rkey of
 * all of a call's chunks is noted for Send With Invalidate.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "xprt_int.h"

static void rcvd_release(struct xprt *x, struct xrcvd *q)
{
	if (q->mr)
		x->l->v->dereg_mr(q->mr);
	if (q->buf || q->hdr) {      /* a call that waited for read chunks */
		free(q->buf);
		free(q->hdr);
	}
	/* free again: every reader of a slot asks q->busy first, and
	 * xprt_call_in() clears the slot when it takes it */
	q->mr = NULL;
	q->buf = NULL;
	q->hdr = NULL;
	q->busy = q->answered = q->failed = q->answered_inside = false;
}

void xprt_rcvd_release_all(struct xprt *x)
{
	uint32_t i;

	for (i = 0; i < x->nrcvd; i++) {
		struct xrcvd *q = &x->rcvd[i];

		if (!q->busy)
			continue;
		if (!q->answered_inside) {
			rcvd_release(x, q);
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
static int note_chunks(struct xrcvd *q)
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

static void deliver(struct xprt *x, struct xrcvd *q, const uint8_t *msg, size_t len)
{
	struct xprt_rcvd_call *r = &q->r;

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
	r->write_chunk_len = q->nwchunks ? xprt_chunk_len(q->wseg[0], q->wsegs[0]) : 0;
	r->has_reply_chunk = q->m.has_reply;
	r->reply_chunk_len = q->nrsegs ? xprt_chunk_len(q->rseg, q->nrsegs) : 0;
	q->answered_inside = true;
	x->busy++;
	x->h.on_call(r, x->h.arg);
	x->busy--;
	q->answered_inside = false;
	rcvd_release(x, q);
}

void xprt_call_in(struct xprt *x, uint32_t slot, const uint8_t *buf,
		  size_t len, struct rpcrdma_msg *m)
{
	bool backward = !x->server;
	const uint8_t *pay = rpcrdma_payload(m);
	size_t plen = m->rdma_proc == RDMA_NOMSG ? 0 : m->payload_len;
	struct xrcvd *q = NULL;
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
	for (i = 0; i < x->nrcvd && x->rcvd[i].busy; i++)
		;
	if (i == x->nrcvd) {
		xprt_trace(x, "xid 0x%08x: more calls in progress than granted: "
			   "dropped", m->rdma_xid);
		x->st.discarded++;
		goto repost;
	}
	q = &x->rcvd[i];
	/* cleared to XRCVD_CLEAR but for q->m, which is copied whole */
	XPRT_ZERO(q, offsetof(struct xrcvd, m));
	XPRT_ZERO((uint8_t *)q + XRCVD_M_END, XRCVD_CLEAR - XRCVD_M_END);
	q->busy = true;
	/* the header in the Receive's buffer: enough while the call is
	 * delivered straight from it; a copy (below) when it waits for its
	 * read chunks */
	q->m = *m;
	q->m.buf = buf;
	q->m.len = m->header_len;
	q->m.payload_len = 0;
	if (!m->nreads && !m->nwrites && !m->has_reply) {
		/* no chunks (the common call): nothing to note or pull;
		 * the slot's counts, inv_ok and inv_rkey stay as cleared,
		 * as note_chunks() and xprt_read_chunk_plan() leave them
		 * for empty lists (piece[] and len are read for read
		 * chunks only) */
		deliver(x, q, pay, plen);       /* straight from the Receive */
		goto repost;
	}
	if (note_chunks(q) ||
	    xprt_read_chunk_plan(q, pay, plen, x->o.max_message)) {
		xprt_trace(x, "xid 0x%08x: chunks beyond what we serve, or a read "
			   "position past the payload", m->rdma_xid);
		xprt_send_error(x, m, RPCRDMA_REPLY_BAD_HEADER);
		rcvd_release(x, q);
		goto repost;
	}
	if (!q->nrch) {
		deliver(x, q, pay, plen);       /* straight from the Receive */
		goto repost;
	}
	q->hdr = malloc(m->header_len ? m->header_len : 1);
	if (!q->hdr) {
		rcvd_release(x, q);
		xprt_fatal(x, "out of memory");
		return;
	}
	memcpy(q->hdr, buf, m->header_len);
	q->m.buf = q->hdr;
	q->buf = malloc(q->len ? q->len : 1);
	q->mr = q->buf ? x->l->v->reg_mr(x->id, q->buf, q->len ? q->len : 1,
					 XV_ACCESS_LOCAL_WRITE) : NULL;
	if (!q->mr) {
		rcvd_release(x, q);
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

void xprt_rcvd_read_done(struct xprt *x, uint32_t idx, bool ok)
{
	struct xrcvd *q;

	if (idx >= x->nrcvd || !(q = &x->rcvd[idx])->busy || !q->reads_pending)
		return;
	if (!ok)
		q->failed = true;
	if (--q->reads_pending)
		return;
	if (q->failed || x->state != X_CONNECTED)
		rcvd_release(x, q);        /* the connection is going */
	else
		deliver(x, q, q->buf, q->len);
}
