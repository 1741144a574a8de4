/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ping_conn.c - a client connection for rpcrdma-ping (ping_conn.h): the
 * transport's loop and handlers, a copy of what the peer told us that
 * outlives the connection, waits with a deadline, the messages the probes
 * watch for (libcodec's decoded form, from on_recv), and answers to the
 * peer's backward-direction calls (BIDI §4): NULL and ECHO of the echo
 * program, CB_NULL of the NFSv4 callback program, PROC_UNAVAIL or
 * PROG_UNAVAIL otherwise.
 */
#include <stdlib.h>
#include <string.h>
#include "echo_respond.h"
#include "live.h"
#include "ping_conn.h"
#include "rpcrdma/rpc.h"

static void keep_peer(struct ping_conn *pc)
{
	if (pc->x) {
		pc->peer = *xprt_peer(pc->x);
		pc->have_peer = true;
	}
}

const struct xprt_peer_info *ping_conn_peer(struct ping_conn *pc)
{
	keep_peer(pc);
	return &pc->peer;
}

static void on_disconnect(struct xprt *x, enum xprt_disc_reason why, void *arg)
{
	struct ping_conn *pc = arg;

	if (x != pc->x)
		return;
	keep_peer(pc);
	pc->x = NULL;
	pc->disconnected = true;
	pc->why = why;
	pc->stop = true;
	if (pc->loop)
		xprt_loop_stop(pc->loop);
}

void ping_raw_from_msg(struct ping_raw *r, const struct rpcrdma_msg *m,
		       size_t len)
{
	memset(r, 0, sizeof(*r));
	r->xid = m->rdma_xid;
	r->vers = m->nfixed >= 2 ? m->rdma_vers : 0;
	r->credit = m->nfixed >= 3 ? m->rdma_credit : 0;
	r->proc = m->nfixed >= 4 ? m->rdma_proc : 0;
	r->has_err = m->has_err;
	r->err = m->rdma_err;
	r->has_vrange = m->has_vrange;
	r->low = m->rdma_vers_low;
	r->high = m->rdma_vers_high;
	r->action = m->action;
	r->len = (uint32_t)len;
	r->rpc_reply = m->has_rpc_msg_type && m->rpc_msg_type == RPC_REPLY;
}

static void on_recv(struct xprt *x, const uint8_t *buf, size_t len,
		    const struct rpcrdma_msg *m, void *arg)
{
	struct ping_conn *pc = arg;
	bool watched = pc->raw_hi && m->rdma_xid >= pc->raw_lo &&
		       m->rdma_xid <= pc->raw_hi;
	bool error = m->nfixed >= 4 && m->rdma_proc == RDMA_ERROR;

	(void)x;
	(void)buf;
	/* the answers to raw probes, and every RDMA_ERROR (the transport
	 * handles the version error of its own Version Two call itself) */
	if (m->nfixed < 1 || (!watched && !error) || pc->nraw == PING_RAW_SEEN)
		return;
	ping_raw_from_msg(&pc->raw[pc->nraw++], m, len);
	pc->stop = true;
	xprt_loop_stop(pc->loop);
}

const struct ping_raw *ping_conn_seen(const struct ping_conn *pc, uint32_t xid,
				      bool want_err)
{
	unsigned i;

	for (i = 0; i < pc->nraw; i++)
		if (pc->raw[i].xid == xid &&
		    (!want_err || pc->raw[i].proc == RDMA_ERROR))
			return &pc->raw[i];
	return NULL;
}

/* -------- backward-direction calls -------- */

static void answer_rpc(struct xprt_rcvd_call *r, uint32_t stat)
{
	uint8_t b[64];
	size_t n = rpc_encode_accepted_reply(b, sizeof(b), r->xid, stat);

	if (n)
		xprt_reply(r, b, n, 0, 0);
}

/* The echo program's backward NULL and ECHO, by its ULB: the one ECHO
 * responder (tools/ulb/echo_respond.h) */
static void answer_echo(struct xprt_rcvd_call *r)
{
	struct echo_resp_stats st = { 0 };
	struct echo_args a;

	echo_respond(r, &a, 0, &st);
}

static void on_call(struct xprt_rcvd_call *r, void *arg)
{
	struct ping_conn *pc = arg;
	struct rpc_msg_hdr h;

	pc->bc_calls++;
	if (rpc_decode_header(r->msg, r->len, &h) != RPC_OK || h.msg_type != RPC_CALL)
		return;                           /* nothing to answer */
	pc->bc_prog = h.prog;
	pc->bc_vers = h.vers;
	pc->bc_proc = h.proc;
	pc->bc_xid = r->xid;
	pc->bc_answered++;
	if (h.prog == ECHO_PROG)
		answer_echo(r);
	else if (h.prog == RPC_PROG_NFS_CB)   /* CB_NULL; nothing else here */
		answer_rpc(r, h.proc == 0 ? RPC_SUCCESS : RPC_PROC_UNAVAIL);
	else
		answer_rpc(r, RPC_PROG_UNAVAIL);
	pc->stop = true;
	xprt_loop_stop(pc->loop);
}

/* -------- connecting and waiting -------- */

int ping_connect_timeout_ms(const struct ping_opts *o)
{
	return o->connect_timeout_ms ? o->connect_timeout_ms :
	       (int)(o->timeout_us / 1000);
}

void ping_conn_init(struct ping_conn *pc, const struct ping_opts *o,
		    unsigned versions, uint32_t inline_recv, uint32_t inline_send)
{
	memset(pc, 0, sizeof(*pc));
	pc->o = o;
	pc->xo.host = o->host;
	pc->xo.port = o->port;
	pc->xo.versions = versions;
	pc->xo.inline_recv = inline_recv;
	pc->xo.inline_send = inline_send;
	pc->xo.timeout_ms = ping_connect_timeout_ms(o);
	pc->xo.debug = o->debug;
	pc->xo.verbs = o->verbs;
	pc->h.on_call = on_call;
	pc->h.on_disconnect = on_disconnect;
	pc->h.on_recv = on_recv;
	pc->h.arg = pc;
}

static struct xprt_loop *run_loop;

struct xprt_loop *ping_loop_get(const struct ping_opts *o, struct xprt_error *err)
{
	struct xprt_opts lo;

	if (run_loop)
		return run_loop;
	memset(&lo, 0, sizeof(lo));
	lo.host = o->host;
	lo.port = o->port;
	lo.timeout_ms = ping_connect_timeout_ms(o);
	lo.debug = o->debug;
	lo.verbs = o->verbs;
	run_loop = xprt_loop_create(&lo, err);
	if (run_loop && o->on_loop && o->on_loop(run_loop, o->on_loop_arg) < 0) {
		xprt_loop_destroy(run_loop);
		run_loop = NULL;
		err->code = XPRT_E_RESOURCE;
		snprintf(err->msg, sizeof(err->msg), "the test's listener failed");
	}
	return run_loop;
}

void ping_loop_end(void)
{
	if (run_loop)
		xprt_loop_destroy(run_loop);
	run_loop = NULL;
}

int ping_conn_open(struct ping_conn *pc, struct xprt_error *err)
{
	memset(err, 0, sizeof(*err));
	pc->loop = ping_loop_get(pc->o, err);
	if (!pc->loop)
		return -1;
	pc->disconnected = false;
	pc->x = xprt_connect_opts(pc->loop, &pc->xo, &pc->h, err);
	if (!pc->x) {
		return -1;
	}
	keep_peer(pc);
	return 0;
}

static bool stopped(void *arg)
{
	return ((struct ping_conn *)arg)->stop;
}

void ping_conn_wait(struct ping_conn *pc, int64_t timeout_ms)
{
	uint64_t end = timeout_ms < 0 ? UINT64_MAX :
		       live_now_ns() + (uint64_t)timeout_ms * 1000000u;

	live_run_until(pc->loop, stopped, pc, end);
	pc->stop = false;
}

void ping_conn_close(struct ping_conn *pc)
{
	int i;

	if (!pc->x)
		return;
	keep_peer(pc);
	xprt_close(pc->x);
	for (i = 0; i < 50 && pc->x; i++)     /* until on_disconnect, 5 s */
		ping_conn_wait(pc, 100);
	pc->x = NULL;
}

struct sync_ctx {
	struct ping_conn *pc;
	bool done;
};

static void sync_done(struct xprt_call *c)
{
	struct sync_ctx *s = c->ctx;
	struct ping_conn *pc = s->pc;

	pc->rlen = 0;
	if (c->reply && c->reply_len) {
		if (c->reply_len > pc->rcap) {
			uint8_t *n = realloc(pc->rcopy, c->reply_len);

			if (n) {
				pc->rcopy = n;
				pc->rcap = c->reply_len;
			}
		}
		if (c->reply_len <= pc->rcap) {
			memcpy(pc->rcopy, c->reply, c->reply_len);
			pc->rlen = c->reply_len;
		}
	}
	s->done = true;
	s->pc->stop = true;
	xprt_loop_stop(s->pc->loop);
}

int ping_conn_call(struct ping_conn *pc, struct xprt_call *c)
{
	struct sync_ctx s = { pc, false };
	uint64_t end;

	c->done = sync_done;
	c->ctx = &s;
	if (!c->timeout_ms)
		c->timeout_ms = (int)(pc->o->timeout_us / 1000);
	if (!pc->x) {
		c->err.code = XPRT_E_DISCONNECTED;
		snprintf(c->err.msg, sizeof(c->err.msg), "not connected");
		return -1;
	}
	if (xprt_call(pc->x, c) < 0)
		return -1;
	end = live_now_ns() + ((uint64_t)c->timeout_ms + 1000) * 1000000u;
	while (!s.done && live_now_ns() < end)
		ping_conn_wait(pc, 100);
	if (!s.done && pc->x) {
		/* the transport's own timeout did not fire: end the call by
		 * ending the connection (it completes outstanding calls) */
		xprt_close(pc->x);
		while (!s.done)
			ping_conn_wait(pc, 100);
	}
	if (pc->x)
		keep_peer(pc);
	c->reply = pc->rlen ? pc->rcopy : NULL;
	c->reply_len = pc->rlen;
	return 0;
}

void ping_conn_free(struct ping_conn *pc)
{
	ping_conn_close(pc);
	free(pc->rcopy);
	pc->rcopy = NULL;
	pc->rcap = pc->rlen = 0;
}

void ping_conn_null(struct ping_conn *pc, struct xprt_call *c, uint8_t *buf,
		    size_t cap, size_t pad)
{
	memset(c, 0, sizeof(*c));
	c->msg = buf;
	c->len = ping_rpc_call(buf, cap, pc->o->prog, pc->o->vers, pc->o->proc, pad);
	c->reply_max = 1024;
	c->chunk = XPRT_CHUNK_AUTO;
}
