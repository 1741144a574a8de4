/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ping_probe_raw.c - what a peer does with a transport header it should
 * not accept (V1 §5.5 error replies, §5.6 retired procedures; V2 §3, §4):
 * the header is built by libcodec (and, for a truncated header, cut),
 * judged by libcodec for the verdict the specs require, sent unchecked
 * (xprt_send_raw), and then: an answer (its header as libcodec decoded it
 * in on_recv), silence, or a dropped connection.  Silence is told from a
 * slow answer by a NULL call sent right behind the message (RC delivers in
 * order): once that is answered, a quarter second more is waited for.
 */
#include <string.h>
#include <unistd.h>
#include "ping_probe.h"
#include "rpcrdma/rpc.h"

#define GRACE_MS 250
/* xids of our own for raw messages: a random start per run, so that two
 * runs in one capture do not share them */
static uint32_t raw_next_xid;

static uint32_t raw_xid(void)
{
	if (!raw_next_xid) {
		uint64_t t = live_now_ns() ^ ((uint64_t)getpid() << 20);

		raw_next_xid = (uint32_t)(t * 0x9e3779b97f4a7c15ull >> 32) | 1u;
	}
	return raw_next_xid++;
}

static void null_done(struct xprt_call *c)
{
	struct ping_conn *pc = c->ctx;

	c->ctx = NULL;                     /* marks it done */
	pc->stop = true;
	xprt_loop_stop(pc->loop);
}

void raw_probe_run(struct ping_conn *pc, const struct rpcrdma_hdr *h,
		   size_t cut, bool with_rpc, struct raw_probe *out)
{
	struct rpcrdma_hdr hh = *h;
	struct rpcrdma_msg m;
	struct xprt_call nc;
	uint8_t buf[256], nbuf[64];
	size_t n, need, rpc;
	uint64_t end;
	const struct ping_raw *seen;

	memset(out, 0, sizeof(*out));
	hh.rdma_xid = out->xid = raw_xid();
	n = rpcrdma_encode(&hh, buf, sizeof(buf), &need);
	if (n && with_rpc) {
		rpc = rpc_encode_call(buf + n, sizeof(buf) - n, hh.rdma_xid,
				      pc->o->prog, pc->o->vers, 0);
		n = rpc ? n + rpc : 0;
	}
	if (n && cut && cut < n)
		n = cut;
	rpcrdma_decode(buf, n, &m);
	out->spec = m.action;
	out->spec_reason = m.reason;
	if (!pc->x && ping_conn_open(pc, &out->err) < 0) {
		out->outcome = RAW_NOT_SENT;
		return;
	}
	pc->raw_lo = pc->raw_hi = out->xid;
	if (!n || xprt_send_raw(pc->x, buf, n, &out->err) < 0) {
		out->outcome = pc->x ? RAW_NOT_SENT : RAW_DROPPED;
		return;
	}
	/* the barrier: a NULL call behind it */
	ping_conn_null(pc, &nc, nbuf, sizeof(nbuf), 0);
	nc.done = null_done;
	nc.ctx = pc;
	nc.timeout_ms = (int)(pc->o->timeout_us / 1000);
	if (xprt_call(pc->x, &nc) < 0)
		nc.ctx = NULL;
	end = live_now_ns() + (pc->o->timeout_us + 1000000u) * 1000u;
	for (;;) {
		seen = ping_conn_seen(pc, out->xid, false);
		if (seen || !pc->x || live_now_ns() >= end)
			break;
		if (!nc.ctx && end > live_now_ns() + GRACE_MS * 1000000ull)
			end = live_now_ns() + GRACE_MS * 1000000ull; /* barrier back */
		ping_conn_wait(pc, 50);
	}
	/* the barrier must be done before nc goes out of scope */
	while (nc.ctx && pc->x)
		ping_conn_wait(pc, 100);
	while (nc.ctx)                          /* completed by the disconnect */
		ping_conn_wait(pc, 100);
	if (seen) {
		out->outcome = RAW_ANSWERED;
		out->reply = *seen;
	} else {
		out->outcome = pc->x ? RAW_SILENT : RAW_DROPPED;
	}
	pc->raw_lo = pc->raw_hi = 0;
}

void raw_probe_item(struct probe_item *it, const struct raw_probe *rp)
{
	char d[160];

	it->has_xid = true;
	it->xid = rp->xid;
	it->has_spec = true;
	it->spec = rp->spec;
	it->spec_reason = rp->spec_reason;
	switch (rp->outcome) {
	case RAW_ANSWERED:
		it->reply = &rp->reply;
		it->result = "answered";
		if (rp->reply.rpc_reply) {
			item_text(it, "an RPC reply: the peer accepted the message");
		} else {
			raw_describe(d, sizeof(d), &rp->reply);
			item_text(it, "%s", d);
		}
		break;
	case RAW_SILENT:
		it->result = "silently discarded";
		item_text(it, "no answer; the connection stayed up (a NULL call "
			  "behind it was answered)");
		break;
	case RAW_DROPPED:
		it->result = "connection dropped";
		item_text(it, "the peer closed the connection instead of answering");
		break;
	case RAW_NOT_SENT:
		it->result = "not sent";
		item_text(it, "%s", rp->err.msg[0] ? rp->err.msg : "no connection");
		break;
	}
}
