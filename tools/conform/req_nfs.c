/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * req_nfs.c - the NFSv3 responder of rpcrdma-conform --requester on the
 * transport: every forward call answered by tools/ulb/nfs3_serve.c and sent
 * back with xprt_reply(), which takes the way libcodec's rules give (inline;
 * a READ's data into the requester's write chunk; a reply that does not fit
 * inline into its reply chunk).  Backward calls are not ours to take.
 */
#include <string.h>
#include <time.h>
#include <rpcrdma/rpc.h>
#include "be.h"
#include "echo_respond.h"
#include "req.h"

/* a message's size against the inline threshold the case makes the
 * requester keep to (o->inline_limit; 0: not judged) */
static void observe_send(struct cf_rq_obs *o, size_t len, const struct rpcrdma_msg *m)
{
	uint32_t l32 = len > UINT32_MAX ? UINT32_MAX : (uint32_t)len;
	bool v2 = m->nfixed >= 2 && m->rdma_vers == 2;
	/* what the requester must assume: libcodec's rule (V1 4.3.3's 1024;
	 * a Version Two requester 4096, V2 2.3) */
	uint32_t lim = o->inline_limit ? rpcrdma_inline_threshold(v2 ? 2 : 1, v2) : 0;

	if (l32 > o->max_send)
		o->max_send = l32;
	if (!lim)
		return;
	if (len > lim && !o->over_inline++) {
		o->over_len = l32;
		o->over_xid = m->rdma_xid;
	}
	if (m->action == RPCRDMA_ACCEPT && m->nreads &&
	    (m->rdma_proc == RDMA_MSG || m->rdma_proc == RDMA_NOMSG))
		o->chunked_calls++;
}

/* a call's read chunks against the requester's rules (libcodec's) */
static void observe_read_chunks(struct cf_rq_obs *o, const struct rpcrdma_msg *m)
{
	struct rpcrdma_read_check c;

	if (!m->nreads || (!rpcrdma_read_chunks_check(m, &c) && !c.reduced))
		return;
	o->reads_reduced += c.reduced;
	if (!c.faults || o->reads_bad++)
		return;
	o->rc_faults = c.faults;
	o->rc_xid = m->rdma_xid;
	o->rc_position = c.faults & RPCRDMA_READ_POSITION_PAST ? c.past_position : c.position;
	o->rc_count = c.count;
	o->rc_len = c.chunk_len;
	o->rc_payload = m->payload_len;
}

/* every message the requester sends, before the transport acts on it: a
 * forward call judged against the replies sent so far (cf_rq_obs) */
static void on_recv(struct xprt *x, const uint8_t *buf, size_t len, const struct rpcrdma_msg *m,
		    void *arg)
{
	struct cf_rq_obs *o = ((struct cf_req_nfs *)arg)->obs;
	uint64_t out;

	(void)x;
	(void)buf;
	if (o) {
		o->sent++;
		if (m->action != RPCRDMA_ACCEPT && !o->bad++) {
			o->bad_reason = m->reason;
			o->bad_xid = m->rdma_xid;
		}
		observe_send(o, len, m);
		observe_read_chunks(o, m);
	}
	if (!o || m->nfixed < 4 || (m->rdma_proc != RDMA_MSG && m->rdma_proc != RDMA_NOMSG) ||
	    (m->rdma_proc == RDMA_MSG && (!m->has_rpc_msg_type || m->rpc_msg_type != 0)))
		return;
	out = o->calls - o->replies;
	if (!o->replies && o->calls)
		o->before_first++;
	else if (o->replies && out + 1 > o->grant)
		o->over_grant++;
	o->calls++;
	if (out + 1 > o->max_outstanding)
		o->max_outstanding = (uint32_t)(out + 1);
	if (o->f.fault)                    /* issue 26 item 2 (req_faults.c) */
		cf_rq_fault_call(o, x, m, out);
}

static void replied(struct cf_req_nfs *n)
{
	if (n->obs)
		n->obs->replies++;
	cf_rq_fault_replied(n->obs);       /* issue 26 item 2 */
}

/* the ECHO program (tools/ulb), for our own requesters */
static void echo_call(struct cf_req_nfs *n, struct xprt_rcvd_call *rc)
{
	struct echo_args a;
	struct echo_resp_stats st;
	enum echo_resp_result r;

	memset(&st, 0, sizeof(st));
	r = echo_respond(rc, &a, n->obs ? n->obs->grant : 0, &st);
	if (r == ECHO_RESP_CALLBACK && echo_reply_count(rc, 0) == 0)
		r = ECHO_RESP_REPLIED;
	if (r == ECHO_RESP_REPLIED)
		replied(n);
	else
		n->counts->reply_failed += r == ECHO_RESP_FAILED;
}

static int64_t now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* the reply msg[len] held back when it is small, inline and a slot is
 * free: true; else the caller answers now */
static bool hold(struct cf_req_nfs *n, struct xprt_rcvd_call *rc, const uint8_t *msg, size_t len)
{
	struct rpcrdma_hdr h = { .rdma_xid = rc->xid, .rdma_vers = rc->vers, .rdma_proc = RDMA_MSG,
		.direction = RPCRDMA_REPLY };
	size_t i, hl;

	if (!n->obs || !n->hold_ms || rc->vers < 1 || rc->vers > 2 || rc->nwrite_chunks ||
	    rc->has_reply_chunk)
		return false;
	for (i = 0; i < CF_RQ_HELD && n->held[i].x; i++)
		;
	h.rdma_credit = n->obs->grant;
	if (i == CF_RQ_HELD || !(hl = rpcrdma_encode(&h, n->held[i].buf, sizeof(n->held[i].buf),
						     NULL)) ||
	    len > sizeof(n->held[i].buf) - hl)
		return false;
	memcpy(n->held[i].buf + hl, msg, len);
	n->held[i].len = hl + len;
	n->held[i].x = rc->x;
	n->held[i].due_ms = now_ms() + n->hold_ms;
	return true;
}

void cf_req_nfs_flush(struct cf_req_nfs *n, int64_t now, bool force)
{
	struct xprt_error err;
	size_t i;

	for (i = 0; i < CF_RQ_HELD; i++)
		if (n->held[i].x && (force || now >= n->held[i].due_ms)) {
			if (n->obs)            /* issue 26 item 2: its grant */
				cf_rq_fault_held(n->obs, n->held[i].buf, n->held[i].len);
			if (xprt_send_raw(n->held[i].x, n->held[i].buf, n->held[i].len, &err) < 0)
				n->counts->reply_failed++;
			else
				replied(n);
			n->held[i].x = NULL;
		}
}

/* An RPC reply header of ours: xid, msg_type, reply_stat, the AUTH_NONE
 * verifier (flavor, length), accept_stat */
#define RQ_RPC_REPLY_HDR 24u
/* READ3resok before its data: status, post_op_attr (present, fattr3),
 * count, eof, the opaque's length */
#define RQ_READ3_RES_HDR (4u + 4u + 84u + 4u + 4u + 4u)

/* the requester's inline threshold: its RFC 8797 Receive Size, else the
 * version's default (V1 §4.3.3: 1024; V2 §2.3: 4096) */
static uint32_t requester_inline(const struct xprt_rcvd_call *rc)
{
	const struct xprt_peer_info *p = xprt_peer(rc->x);

	if (p && p->has_private_data && p->priv.max_recv_size)
		return p->priv.max_recv_size;
	return rpcrdma_inline_threshold(rc->vers, rc->vers == 2);
}

/* What an NFSv3 call's arguments say its reply may take, against what the
 * requester offered for it (cf_rq_obs): a READ's write chunk against its
 * count (V1 §4.4.6), a reply chunk where the largest reply exceeds the
 * requester's inline threshold (V1 §5.3.3) */
static void observe_nfs(struct cf_rq_obs *o, const struct xprt_rcvd_call *rc)
{
	struct rpc_msg_hdr h;
	struct xdr_r r;
	uint64_t max = 0;

	if (rpc_decode_header(rc->msg, rc->len, &h) != RPC_OK || h.msg_type != RPC_CALL ||
	    h.prog != NFS3_PROG || h.vers != NFS3_VERS)
		return;
	r = (struct xdr_r){ rc->msg, rc->len, h.body_off, false };
	if (h.proc == NFSPROC3_READ) {
		struct nfs3_READ3args a;

		if (nfs3_dec_READ3args(&r, &a) < 0)
			return;
		if (rc->nwrite_chunks) {
			o->reads_chunked++;
			if (rc->write_chunk_len < a.count && !o->reads_short++) {
				o->short_count = a.count;
				o->short_len = (uint32_t)rc->write_chunk_len;
			}
			max = RQ_RPC_REPLY_HDR + RQ_READ3_RES_HDR;
		} else {
			max = RQ_RPC_REPLY_HDR + RQ_READ3_RES_HDR + (((uint64_t)a.count + 3) & ~3ull);
		}
	} else if (h.proc == NFSPROC3_READDIR) {
		struct nfs3_READDIR3args a;

		if (nfs3_dec_READDIR3args(&r, &a) < 0)
			return;
		max = RQ_RPC_REPLY_HDR + 4u + (uint64_t)a.count;  /* status, READDIR3resok */
	} else if (h.proc == NFSPROC3_READDIRPLUS) {
		struct nfs3_READDIRPLUS3args a;

		if (nfs3_dec_READDIRPLUS3args(&r, &a) < 0)
			return;
		max = RQ_RPC_REPLY_HDR + 4u + (uint64_t)a.maxcount;
	}
	if (max <= requester_inline(rc))
		return;
	o->big_replies++;
	if (!rc->has_reply_chunk && !o->no_reply_chunk++) {
		o->nrc_proc = h.proc;
		o->nrc_max = max > UINT32_MAX ? UINT32_MAX : (uint32_t)max;
		o->nrc_thresh = requester_inline(rc);
	}
}

/* The ECHO forms (issue 26 item 3): what an ECHO-program call's arguments
 * say its reply may take (docs/echo-ulb.md, "Maximum reply size"), against
 * what the requester offered.  An ECHO call's result is its data: the
 * write chunk it provides must hold the data's length (V1 §4.4.6: "long
 * enough to accommodate the maximum possible size of the returned data
 * item"; no round-up, §4.4.6.1); with no write chunk, its largest reply
 * (echo_reply_max()) over the requester's inline threshold needs a reply
 * chunk (V1 §5.3.3).  As for NFSv3 READ, a call with a write chunk is
 * judged on the reply less the data.  Only the length word is read, not
 * the whole arguments: a call whose data the requester moved wrongly
 * (keep-read-pad) is still graded here on what it asks back. */
static void observe_echo(struct cf_rq_obs *o, const struct xprt_rcvd_call *rc)
{
	struct rpc_msg_hdr h;
	uint32_t len = 0;
	uint64_t max;

	if (rpc_decode_header(rc->msg, rc->len, &h) != RPC_OK || h.msg_type != RPC_CALL ||
	    h.prog != ECHO_PROG || h.vers != ECHO_VERS || h.proc > ECHO_PROC_CALLBACK)
		return;
	if (h.proc == ECHO_PROC_ECHO) {
		if (h.body_off > rc->len || rc->len - h.body_off < 4)
			return;
		len = be32_get(rc->msg + h.body_off);
		if (len > ECHO_DATA_MAX)
			return;                      /* GARBAGE_ARGS: no result */
		if (rc->nwrite_chunks) {
			o->reads_chunked++;
			o->echo_chunked++;
			if (rc->write_chunk_len < len) {
				o->echo_short++;
				if (!o->reads_short++) {
					o->short_echo = true;
					o->short_count = len;
					o->short_len = (uint32_t)rc->write_chunk_len;
				}
			}
		}
	}
	max = echo_reply_max((enum echo_proc)h.proc, len);
	if (rc->nwrite_chunks)
		max -= (echo_reply_ddp_max((enum echo_proc)h.proc, len) + 3) & ~(uint64_t)3;
	if (max <= requester_inline(rc))
		return;
	o->big_replies++;
	o->echo_big++;
	if (!rc->has_reply_chunk && !o->no_reply_chunk++) {
		o->nrc_echo = true;
		o->nrc_proc = h.proc;
		o->nrc_max = max > UINT32_MAX ? UINT32_MAX : (uint32_t)max;
		o->nrc_thresh = requester_inline(rc);
	}
}

static void on_call(struct xprt_rcvd_call *rc, void *arg)
{
	struct cf_req_nfs *n = arg;
	struct cf_req_counts *c = n->counts;
	struct nfs3_served s;
	size_t len;

	if (rc->backward)
		return;
	if (rc->len >= 16 && be32_get(rc->msg + 12) == ECHO_PROG) {
		struct echo_args a;
		size_t o, l;

		if (n->obs)
			observe_echo(n->obs, rc);
		/* a NULL call of our own requesters: held back like any small reply */
		if (n->obs && n->hold_ms && echo_decode_call(rc->msg, rc->len, false, &a) ==
		    ECHO_CALL_OK && a.proc == ECHO_PROC_NULL &&
		    (len = echo_encode_reply(n->out, sizeof(n->out), a.xid, ECHO_PROC_NULL, 0, NULL,
					     0, &o, &l)) && hold(n, rc, n->out, len))
			return;
		echo_call(n, rc);
		return;
	}
	if (n->obs)
		observe_nfs(n->obs, rc);
	if (n->obs && n->obs->f.fault && cf_rq_fault_answer(n, rc))
		return;                    /* issue 26 item 2: a fault answered it */
	len = nfs3_serve(rc->msg, rc->len, n->out, sizeof(n->out), &s);
	if (!len) {
		c->not_rpc++;
		return;
	}
	if (s.prog == NFS3_PROG && s.proc < 22)
		c->nfs[s.proc]++;
	else if (s.prog == NFS3_PROG)
		c->nfs_other++;
	else if (s.prog == MOUNT3_PROG && s.proc < 6)
		c->mount[s.proc]++;
	else
		c->mount_other++;
	c->read_bytes += s.ddp_len;
	if (hold(n, rc, n->out, len))
		return;
	if (xprt_reply(rc, n->out, len, s.ddp_off, s.ddp_len) < 0)
		c->reply_failed++;
	else
		replied(n);
}

static void on_connect(struct xprt *x, void *arg)
{
	struct cf_req_nfs *n = arg;

	(void)x;
	n->counts->connections++;
	if (n->obs) {
		n->obs->open++;
		n->obs->connected++;
	}
}

static void on_disconnect(struct xprt *x, enum xprt_disc_reason why, void *arg)
{
	struct cf_req_nfs *n = arg;
	size_t i;

	(void)why;
	n->counts->disconnects++;
	if (n->obs && n->obs->open)
		n->obs->open--;
	if (n->obs)
		cf_rq_fault_disconnect(n->obs);   /* issue 26 item 2 */
	for (i = 0; i < CF_RQ_HELD; i++)      /* the connection is gone: so are they */
		if (n->held[i].x == x)
			n->held[i].x = NULL;
}

void cf_req_nfs_handlers(struct cf_req_nfs *n, struct xprt_handlers *h)
{
	memset(h, 0, sizeof(*h));
	h->on_call = on_call;
	h->on_connect = on_connect;
	h->on_disconnect = on_disconnect;
	h->on_recv = on_recv;
	h->arg = n;
}
