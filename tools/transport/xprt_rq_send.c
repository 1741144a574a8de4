/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * xprt_rq_send.c - the requester, out: xprt_call() queues a call; it
 * waits for a credit (xprt_credits.c), its chunks are chosen (libcodec's
 * rpcrdma_chunks_needed(): read chunk at the DDP-eligible position,
 * RDMA_NOMSG with a position-zero read chunk when even the header does not
 * fit, write chunk for the DDP-eligible result, reply chunk when the reply
 * may exceed our threshold: V1 §4.5, §5.3), registered per RPC, the header
 * is built by libcodec (marshal), and the call goes in one Send.
 * Backward-direction calls (a server's) carry no chunks (BIDI §5.3).
 * V2 §5: the first V2 call fits 1024 bytes.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "xprt_int.h"

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static unsigned choose_chunks(const struct xprt *x, const struct xprt_call *c,
			      uint32_t hbase, uint32_t threshold,
			      struct xprt_error *e)
{
	unsigned a = rpcrdma_chunks_needed(hbase, c->len, c->ddp_len, c->reply_max,
					   c->reply_ddp_max, threshold,
					   x->peer.inline_recv);
	const unsigned callpart = RPCRDMA_NEED_READ_CHUNK | RPCRDMA_NEED_POS0_READ;
	const unsigned replypart = RPCRDMA_NEED_WRITE_CHUNK | RPCRDMA_NEED_REPLY_CHUNK;

	if (x->server)             /* backward: no chunks ever (BIDI §5.3) */
		return 0;
	switch (c->chunk) {
	case XPRT_CHUNK_AUTO:
		return a;
	case XPRT_CHUNK_INLINE:
		return 0;
	case XPRT_CHUNK_READ:
		if (!c->ddp_len) {
			xprt_err(e, XPRT_E_USAGE, EINVAL,
				 "--chunk read: the call has no DDP-eligible data");
			return ~0u;
		}
		return RPCRDMA_NEED_READ_CHUNK | (a & replypart);
	case XPRT_CHUNK_POS0:
		return RPCRDMA_NEED_POS0_READ | (a & replypart);
	case XPRT_CHUNK_WRITE:
		if (!c->reply_ddp_max) {
			xprt_err(e, XPRT_E_USAGE, EINVAL,
				 "--chunk write: the reply has no DDP-eligible result");
			return ~0u;
		}
		return (a & callpart) | (a & replypart) | RPCRDMA_NEED_WRITE_CHUNK;
	case XPRT_CHUNK_REPLY:
		return (a & callpart) | RPCRDMA_NEED_REPLY_CHUNK;
	}
	return a;
}

/* a call being marshaled: its header with the chunks, and the payload
 * that goes inline (pay1 bytes from the start, pay2 bytes at pay2_off) */
struct marshal {
	struct rpcrdma_hdr h;
	struct rpcrdma_read_segment rd;
	struct rpcrdma_segment ws, rs;
	struct rpcrdma_write_chunk wch, rch;
	size_t pay1, pay2_off, pay2;
};

/* the call's read chunk: the whole call (position zero, RDMA_NOMSG) or
 * its DDP-eligible item; 0, 1 when registering failed, -1 with *e */
static int marshal_read_chunk(struct xprt *x, struct xcall *xc, unsigned need,
			      struct marshal *mm, struct xprt_error *e)
{
	struct xprt_call *c = xc->c;
	size_t pad;

	mm->pay1 = c->len;
	if (need & RPCRDMA_NEED_POS0_READ) {
		if (xprt_reg(x, c->msg, c->len, false, &xc->read))
			return 1;
		mm->rd = (struct rpcrdma_read_segment){ 0, { xc->read.rkey,
			(uint32_t)c->len, xc->read.addr } };
		mm->h.rdma_proc = RDMA_NOMSG;
		mm->pay1 = 0;
		c->call_path = XPRT_PATH_POS0;
	} else if (need & RPCRDMA_NEED_READ_CHUNK) {
		if (c->ddp_off > c->len || c->ddp_len > c->len - c->ddp_off ||
		    (c->ddp_off & 3)) {
			xprt_err(e, XPRT_E_USAGE, EINVAL,
				 "the DDP-eligible item (%zu bytes at %zu) is not "
				 "inside the call, or not XDR-aligned",
				 c->ddp_len, c->ddp_off);
			return -1;
		}
		if (xprt_reg(x, c->msg + c->ddp_off, c->ddp_len, false, &xc->read))
			return 1;
		mm->rd = (struct rpcrdma_read_segment){ (uint32_t)c->ddp_off,
			{ xc->read.rkey, (uint32_t)c->ddp_len, xc->read.addr } };
		/* the item leaves with its XDR pad (V1 §4.4.5.1; the test-only
		 * misbehave keep-read-pad leaves the pad in the stream) */
		pad = x->o.misbehave == XPRT_MISBEHAVE_KEEP_READ_PAD ? 0 : (4 - (c->ddp_len & 3)) & 3;
		if (pad > c->len - c->ddp_off - c->ddp_len)
			pad = c->len - c->ddp_off - c->ddp_len;
		mm->pay1 = c->ddp_off;
		mm->pay2_off = c->ddp_off + c->ddp_len + pad;
		mm->pay2 = c->len - mm->pay2_off;
		c->call_path = XPRT_PATH_READ;
	} else {
		c->call_path = XPRT_PATH_INLINE;
	}
	if (need & (RPCRDMA_NEED_READ_CHUNK | RPCRDMA_NEED_POS0_READ)) {
		mm->h.reads = &mm->rd;
		mm->h.nreads = 1;
	}
	return 0;
}

/* one receptacle of `len` bytes the peer writes into, registered, as a
 * one-segment chunk; 0 or -1 */
static int receptacle(struct xprt *x, size_t len, uint8_t **buf,
		      struct xreg *r, struct rpcrdma_segment *seg,
		      struct rpcrdma_write_chunk *ch)
{
	*buf = malloc(len);
	if (!*buf || xprt_reg(x, *buf, len, true, r))
		return -1;
	*seg = (struct rpcrdma_segment){ r->rkey, (uint32_t)len, r->addr };
	*ch = (struct rpcrdma_write_chunk){ seg, 1 };
	return 0;
}

/* the receptacles for the reply: write chunk and reply chunk; 0 or -1 */
static int marshal_reply_chunks(struct xprt *x, struct xcall *xc, unsigned need,
				struct marshal *mm)
{
	struct xprt_call *c = xc->c;

	if (need & RPCRDMA_NEED_WRITE_CHUNK) {
		xc->wlen = c->reply_ddp_max;
		if (receptacle(x, xc->wlen, &xc->wbuf, &xc->write, &mm->ws, &mm->wch))
			return -1;
		mm->h.writes = &mm->wch;
		mm->h.nwrites = 1;
	}
	if (need & RPCRDMA_NEED_REPLY_CHUNK) {
		xc->rlen = c->reply_max ? c->reply_max : x->o.max_message;
		if (receptacle(x, xc->rlen, &xc->rbuf, &xc->reply, &mm->rs, &mm->rch))
			return -1;
		mm->h.reply = &mm->rch;
	}
	return 0;
}

/* the marshaled call in one Send (threshold: xprt_send_threshold(),
 * read once per call); 0 or -1 with *e */
static int send_call(struct xprt *x, struct xcall *xc, struct marshal *mm,
		     uint32_t threshold, struct xprt_error *e)
{
	struct xprt_call *c = xc->c;
	size_t hlen, total;
	uint32_t lkey;
	uint8_t *p;
	int s;

	s = xprt_send_slot(x);
	if (s < 0) {
		xprt_err(e, XPRT_E_RESOURCE, ENOSPC, "no Send buffer free");
		return -1;
	}
	/* the header encoded once, straight into the slot's buffer when it
	 * fits there (the common case); else its size, and again below */
	p = xprt_send_space(x, s, 0, &lkey);
	if (!rpcrdma_encode(&mm->h, p, x->ssize, &hlen))
		p = NULL;
	total = hlen + mm->pay1 + mm->pay2;
	if (c->chunk != XPRT_CHUNK_INLINE && total > threshold) {
		xprt_send_slot_put(x, s);
		xprt_err(e, XPRT_E_USAGE, EMSGSIZE,
			 "a %zu-byte %s does not fit the %u-byte inline threshold%s",
			 total, x->server ? "backward call" : "call",
			 threshold, x->server ?
			 " (backward calls carry no chunks, BIDI §5.3)" :
			 " with the chunks asked for");
		return -1;
	}
	if (!p || total > x->ssize) {
		p = xprt_send_space(x, s, total, &lkey);
		if (!p || rpcrdma_encode(&mm->h, p, total, NULL) != hlen) {
			xprt_send_slot_put(x, s);
			xprt_err(e, XPRT_E_RESOURCE, ENOMEM, "no room for a %zu-byte Send", total);
			return -1;
		}
	}
	if (mm->pay1)
		memcpy(p + hlen, c->msg, mm->pay1);
	if (mm->pay2)
		memcpy(p + hlen + mm->pay1, c->msg + mm->pay2_off, mm->pay2);
	if (xprt_post_send(x, s, p, total, lkey, false, 0)) {
		xprt_send_slot_put(x, s);
		xprt_err(e, XPRT_E_DISCONNECTED, errno, "ibv_post_send: %s",
			 strerror(errno));
		return -1;
	}
	c->t_sent = xprt_now_ns();
	x->st.bytes_sent += total;
	if (x->server)
		x->st.backward_calls_sent++;
	else
		x->st.calls_sent++;
	return 0;
}

/* marshal (choose and register the chunks, build the header), then send */
static int call_start(struct xprt *x, struct xcall *xc, struct xprt_error *e)
{
	struct xprt_call *c = xc->c;
	uint32_t vers = x->vers ? x->vers : x->vlow;
	uint32_t hbase = vers == RPCRDMA_VERSION_TWO ? XPRT_V2_HDR : XPRT_V1_HDR;
	uint32_t threshold = xprt_send_threshold(x);
	unsigned need = choose_chunks(x, c, hbase, threshold, e);
	/* registration is timed when there is some (c->t_reg_ns) */
	bool reg = need != ~0u && (need & (RPCRDMA_NEED_READ_CHUNK | RPCRDMA_NEED_POS0_READ |
					   RPCRDMA_NEED_WRITE_CHUNK | RPCRDMA_NEED_REPLY_CHUNK));
	uint64_t t0 = reg ? xprt_now_ns() : 0;
	struct marshal mm;
	int rc;

	if (need == ~0u)
		return -1;
	/* the header and the payload's pieces; the segments and chunks are
	 * written where a list is made to point at them */
	XPRT_ZERO(&mm.h, sizeof(mm.h));
	mm.h.rdma_xid = xc->xid;
	mm.h.rdma_vers = vers;
	mm.h.rdma_credit = x->cred.requested;
	mm.h.rdma_proc = RDMA_MSG;
	mm.h.direction = RPCRDMA_CALL;
	mm.pay1 = mm.pay2_off = mm.pay2 = 0;
	xc->vers = vers;
	rc = marshal_read_chunk(x, xc, need, &mm, e);
	if (rc < 0)
		return -1;
	if (rc > 0 || marshal_reply_chunks(x, xc, need, &mm)) {
		xprt_err(e, XPRT_E_RESOURCE, errno, "registering chunk memory: %s",
			 strerror(errno));
		return -1;
	}
	c->t_reg_ns = reg ? xprt_now_ns() - t0 : 0;
	return send_call(x, xc, &mm, threshold, e);
}

/* the calls waiting in the queue go while a credit and a Send slot allow */
void xprt_send_queued(struct xprt *x)
{
	struct xcall *xc;
	uint32_t i;

	while ((xc = x->q_head) && x->state == X_CONNECTED) {
		struct xprt_error e;

		/* no error yet: its code and an empty message (not the whole
		 * 256-byte text cleared per call) */
		e.code = XPRT_E_OK;
		e.sys_errno = 0;
		e.msg[0] = '\0';
		if (!xprt_credit_available(x) || x->send_free < 0)
			return;
		x->q_head = xc->next;
		if (!x->q_head)
			x->q_tail = NULL;
		xc->next = NULL;
		if (call_start(x, xc, &e)) {
			xprt_call_unreg(x, xc);
			xc->c->err = e;
			xprt_call_finish(xc, e.code, e.msg);
			continue;
		}
		for (i = 0; i < x->ncalls && x->calls[i]; i++)
			;
		xc->slot = (int)i;
		x->calls[i] = xc;
		x->nout++;
		if (x->nout > x->st.max_outstanding)
			x->st.max_outstanding = x->nout;
		xprt_credit_take(x);
	}
}

int xprt_call(struct xprt *x, struct xprt_call *c)
{
	struct xcall *xc;

	c->err.code = XPRT_E_OK;          /* no error yet (an empty message) */
	c->err.sys_errno = 0;
	c->err.msg[0] = '\0';
	c->reply = NULL;
	c->reply_len = 0;
	c->rdma_error = false;
	c->remote_invalidated = false;
	c->write_bytes = 0;
	c->rhdr_len = 0;
	c->t_start = xprt_now_ns();
	c->t_sent = c->t_done = c->t_reg_ns = c->t_inv_ns = 0;
	if (!x || x->state != X_CONNECTED) {
		xprt_err(&c->err, XPRT_E_DISCONNECTED, ENOTCONN, "not connected");
		return -1;
	}
	if (!c->msg || c->len < 8 || c->len > x->o.max_message) {
		xprt_err(&c->err, XPRT_E_USAGE, EINVAL,
			 "a call must hold an RPC header (8 bytes or more) and at "
			 "most %u bytes", x->o.max_message);
		return -1;
	}
	if ((xc = x->spare_xc) != NULL) {
		x->spare_xc = NULL;
		XPRT_ZERO(xc, XCALL_CLEAR);   /* not the header copy */
	} else {
		xc = calloc(1, sizeof(*xc));
	}
	if (!xc) {
		xprt_err(&c->err, XPRT_E_RESOURCE, ENOMEM, "out of memory");
		return -1;
	}
	xc->c = c;
	xc->x = x;
	xc->slot = -1;
	xc->xid = c->xid = x->next_xid++;
	put32(c->msg, c->xid);
	if (c->timeout_ms > 0) {
		xc->deadline_ns = c->t_start + (uint64_t)c->timeout_ms * 1000000u;
		if (xc->deadline_ns < x->l->next_dl)
			x->l->next_dl = xc->deadline_ns;
	}
	if (x->q_tail)
		x->q_tail->next = xc;
	else
		x->q_head = xc;
	x->q_tail = xc;
	if (!xprt_credit_available(x))
		x->st.credit_waits++;
	if (!x->busy)
		xprt_send_queued(x);
	return 0;
}
