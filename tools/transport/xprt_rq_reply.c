/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * xprt_rq_reply.c - the requester, in: a reply matched to its call by
 * XID (forward and backward XID spaces apart: BIDI §2.4), its credit
 * returned (xprt_credits.c, V1 §4.3.1), the version settled (V2 §5.1) or, on
 * ERR_VERS, the refused call resent in a version inside the peer's range
 * (V2 §5.2) and the choice remembered for reconnects; the RPC reply put
 * back together from the Send, the reply chunk and the write chunk (V1
 * §4.4.6, §5.3.3), every length the peer returned checked against what
 * we registered.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "xprt_int.h"

static struct xcall *find_call(struct xprt *x, uint32_t xid)
{
	uint32_t i, left = x->nout;     /* the slots in use: no further */

	for (i = 0; i < x->ncalls && left; i++) {
		if (!x->calls[i])
			continue;
		left--;
		if (x->calls[i]->xid == xid)
			return x->calls[i];
	}
	return NULL;
}

/* the one segment of our write or reply chunk as the peer returned it */
static int returned_len(const struct xprt *x, struct rpcrdma_seg_iter *it,
			const struct xreg *ours, uint32_t *len)
{
	struct rpcrdma_segment s;

	(void)x;
	if (it->nsegs != 1 || !rpcrdma_seg_next(it, &s) || !ours->mr ||
	    s.rdma_length > ours->len)
		return -1;
	*len = s.rdma_length;
	return 0;
}

/* V2 §5.2: ERR_VERS to our call -- pick the highest version both speak
 * inside the peer's range and send the same call again */
static bool version_fallback(struct xprt *x, struct xcall *xc,
			     const struct rpcrdma_msg *m)
{
	uint32_t v, pick = 0;

	x->peer.vers_low = m->rdma_vers_low;
	x->peer.vers_high = m->rdma_vers_high;
	if (xc->vers == RPCRDMA_VERSION_TWO)
		x->peer.v2_refused = true;
	for (v = x->vlow; v <= x->vhigh; v++)
		if (v != xc->vers && v >= m->rdma_vers_low && v <= m->rdma_vers_high)
			pick = v;
	if (!pick || xc->resent || x->server)
		return false;
	xprt_trace(x, "version %u refused (peer speaks %u..%u): resending xid "
		   "0x%08x in version %u", xc->vers, m->rdma_vers_low,
		   m->rdma_vers_high, xc->xid, pick);
	xprt_credit_error_reply(x, m->rdma_credit);
	x->calls[xc->slot] = NULL;
	x->nout--;
	xc->slot = -1;
	xprt_unreg(x, &xc->read);
	xprt_unreg(x, &xc->write);
	xprt_unreg(x, &xc->reply);
	free(xc->wbuf);
	free(xc->rbuf);
	xc->wbuf = xc->rbuf = NULL;
	xc->resent = true;
	x->vers = pick;
	x->vers_settled = false;
	xprt_update_thresholds(x);
	xprt_remember_version(x, pick, false);
	xc->next = x->q_head;            /* first in line again */
	x->q_head = xc;
	if (!x->q_tail)
		x->q_tail = xc;
	return true;
}

/* Put the RPC reply back together; 0, or -1 with *why */
static int assemble(struct xprt *x, struct xcall *xc, const struct rpcrdma_msg *m,
		    const char **why)
{
	struct xprt_call *c = xc->c;
	struct rpcrdma_chunk_iter ci;
	struct rpcrdma_seg_iter si;
	const uint8_t *pay;
	uint32_t w = 0, r = 0;
	size_t plen, pos, pad;
	uint8_t *a;

	if (m->nwrites > (xc->write.mr ? 1u : 0u)) {
		*why = "the reply returns more write chunks than the call provided";
		return -1;
	}
	if (m->nwrites) {
		rpcrdma_write_iter_init(m, &ci);
		if (!rpcrdma_write_next(&ci, &si) ||
		    returned_len(x, &si, &xc->write, &w)) {
			*why = "the reply's write chunk does not match ours "
			       "(segment count, or longer than registered)";
			return -1;
		}
	}
	if (m->has_reply) {
		if (!rpcrdma_reply_chunk(m, &si) ||
		    returned_len(x, &si, &xc->reply, &r)) {
			*why = "the reply chunk does not match ours";
			return -1;
		}
	}
	if (m->rdma_proc == RDMA_NOMSG) {
		if (!m->has_reply) {
			*why = "an RDMA_NOMSG reply without the reply chunk";
			return -1;
		}
		pay = xc->rbuf;
		plen = r;
		c->reply_path = XPRT_PATH_REPLY;
	} else {
		pay = rpcrdma_payload(m);
		plen = m->payload_len;
		c->reply_path = XPRT_PATH_INLINE;
	}
	c->write_bytes = w;
	if (!w) {
		c->reply = pay;
		c->reply_len = plen;
		return 0;
	}
	/* the reduced result goes back where the ULB says, with its pad */
	pos = c->reply_ddp_pos ? c->reply_ddp_pos(pay, plen, c->ctx) : plen;
	if (pos > plen)
		pos = plen;
	pad = (4 - (w & 3)) & 3;
	a = xc->assembled = malloc(plen + w + pad + 1);
	if (!a) {
		*why = "out of memory";
		return -1;
	}
	memcpy(a, pay, pos);
	memcpy(a + pos, xc->wbuf, w);
	memset(a + pos + w, 0, pad);
	memcpy(a + pos + w + pad, pay + pos, plen - pos);
	c->reply = a;
	c->reply_len = plen + w + pad;
	if (c->reply_path == XPRT_PATH_INLINE)
		c->reply_path = XPRT_PATH_WRITE;
	return 0;
}

/* test only (misbehave send-done): an RDMA_DONE for the xid just
 * answered, a message V1 §5.6.2 forbids ("senders MUST NOT send RDMA_DONE
 * messages"): no call, so it takes no credit; the responder answers it
 * RDMA_ERROR/ERR_BADHEADER, which find_call() then drops (no call of that
 * xid is outstanding any more).  The fixed words only, as RFC 5666's
 * RDMA_DONE had no body. */
static void send_done(struct xprt *x, uint32_t xid)
{
	const uint32_t w[4] = { xid, x->vers, x->cred.requested, RDMA_DONE };
	struct xprt_error err;
	uint8_t b[16];
	int i;

	for (i = 0; i < 16; i++)
		b[i] = (uint8_t)(w[i / 4] >> (24 - 8 * (i % 4)));
	if (xprt_send_raw(x, b, sizeof(b), &err))
		xprt_trace(x, "misbehave send-done: %s", err.msg);
	else
		xprt_trace(x, "misbehave send-done: an RDMA_DONE for xid 0x%08x", xid);
}

void xprt_reply_in(struct xprt *x, uint32_t slot, const uint8_t *buf,
		   size_t len, struct rpcrdma_msg *m)
{
	struct xcall *xc = find_call(x, m->rdma_xid);
	struct xprt_call *c;
	const char *why = NULL;

	(void)len;
	if (!xc) {
		xprt_trace(x, "a reply to xid 0x%08x, which is not outstanding: dropped",
			   m->rdma_xid);
		x->st.discarded++;
		goto repost;
	}
	c = xc->c;
	c->remote_invalidated = x->rx_inv &&
		((xc->read.mw && xc->read.rkey == x->rx_inv_rkey) ||
		 (xc->write.mw && xc->write.rkey == x->rx_inv_rkey) ||
		 (xc->reply.mw && xc->reply.rkey == x->rx_inv_rkey));
	if (m->header_len > sizeof(xc->rhdr)) {
		xprt_credit_forget(x);
		xprt_call_finish(xc, XPRT_E_PROTOCOL,
				 "the reply's header is larger than any answer to our call");
		goto repost;
	}
	memcpy(xc->rhdr, buf, m->header_len);
	c->rhdr_len = m->header_len;
	c->hdr = *m;
	c->hdr.buf = xc->rhdr;
	c->hdr.len = m->header_len;
	c->hdr.payload_len = 0;
	x->st.replies_received++;
	if (m->rdma_proc == RDMA_ERROR) {
		if (m->rdma_err == RDMA_ERR_VERS && version_fallback(x, xc, m))
			goto repost;
		xprt_credit_error_reply(x, m->rdma_credit);
		c->rdma_error = true;
		xprt_call_finish(xc, XPRT_E_OK, "");
		goto repost;
	}
	xprt_credit_reply(x, m->rdma_credit);
	if (!x->vers_settled) {
		x->vers_settled = true;
		x->peer.vers = m->rdma_vers;
		xprt_update_thresholds(x);
		/* test only: after the first reply of the connection */
		if (x->o.misbehave == XPRT_MISBEHAVE_SEND_DONE)
			send_done(x, m->rdma_xid);
	}
	if (assemble(x, xc, m, &why)) {
		xprt_trace(x, "xid 0x%08x: %s", m->rdma_xid, why);
		xprt_call_finish(xc, XPRT_E_PROTOCOL, why);
		goto repost;
	}
	xprt_call_finish(xc, XPRT_E_OK, "");
repost:
	/* after done: the reply may have pointed into the Receive buffer */
	if (x->state == X_CONNECTED && xprt_post_recv(x, slot))
		xprt_fatal(x, "re-posting a Receive failed");
}
