/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ping_run.c - the ping itself: connect (the transport tries Version Two
 * first and falls back, V2 §5), print what the peer speaks once the first
 * call is done, then one NULL call every interval (or, with -i 0, each as
 * soon as the previous one is answered), each waited for up to -W; a
 * connection that goes away is re-established once per interval, and the
 * calls that find none are counted as lost, as ping(8) counts the packets
 * of a host that is down.  SIGINT ends the run with the summary.  The run
 * fails (exit 1) when nothing answered, or when the peer stopped answering:
 * the last call got no reply, or the connection was gone at the end.
 */
#include <string.h>
#include "ping_conn.h"

#define SLOTS 64                       /* calls outstanding at most */

struct run;
struct slot {
	struct run *run;
	struct xprt_call c;
	uint8_t msg[64];
	uint64_t seq;
	bool busy;
};

struct run {
	const struct ping_opts *o;
	struct ping_conn pc;
	struct ping_out out;
	struct ping_target t;
	struct ping_stats st;
	struct slot slots[SLOTS];
	unsigned outstanding;
	uint64_t seq;
	bool peer_printed;
	bool v2_dropped;               /* the first connection went on V2 */
	bool stopping;
	uint64_t last_seq;             /* the latest call that completed */
	bool last_answered;            /* ... with a reply of any kind */
	char addr[64], device[32];
};

static void print_peer(struct run *r, const struct xprt_call *c)
{
	struct xprt_peer_info pi = *ping_conn_peer(&r->pc);
	bool reply = c && c->err.code == XPRT_E_OK && !c->rdma_error;

	if (r->peer_printed)
		return;
	r->peer_printed = true;
	if (r->v2_dropped)
		pi.v2_dropped = true;
	ping_out_peer(&r->out, &pi, reply, reply ? c->hdr.rdma_vers : 0,
		      reply ? c->hdr.rdma_credit : 0);
}

static uint64_t rtt_of(const struct xprt_call *c)
{
	uint64_t from = c->t_sent ? c->t_sent : c->t_start;

	return c->t_done > from ? c->t_done - from : 0;
}

static void call_done(struct xprt_call *c)
{
	struct slot *s = c->ctx;
	struct run *r = s->run;
	struct ping_reply rep = { .seq = s->seq, .xid = c->xid,
				  .vers = c->hdr.rdma_vers,
				  .credits = c->hdr.rdma_credit,
				  .rtt_ns = rtt_of(c), .len = c->reply_len };
	struct ping_rpc_result res;

	s->busy = false;
	r->outstanding--;
	r->pc.stop = true;
	xprt_loop_stop(r->pc.loop);
	if (r->stopping)
		return;
	print_peer(r, c);
	if (s->seq > r->last_seq) {
		r->last_seq = s->seq;
		r->last_answered = c->err.code == XPRT_E_OK;
	}
	if (c->err.code != XPRT_E_OK) {
		ping_out_noreply(&r->out, s->seq, c->xid, &c->err);
	} else if (c->rdma_error) {
		r->st.errors++;
		ping_out_rdma_error(&r->out, &rep, &c->hdr);
	} else {
		ping_rpc_judge(c->reply, c->reply_len, c->xid, &res);
		if (res.status == PING_RPC_SUCCESS) {
			ping_stats_add(&r->st, rep.rtt_ns);
			ping_out_reply(&r->out, &rep);
		} else {
			r->st.errors++;
			ping_out_rpc_error(&r->out, &rep, &r->t, &res);
		}
	}
	ping_out_flush(&r->out);
}

static struct slot *free_slot(struct run *r)
{
	unsigned i;

	for (i = 0; i < SLOTS; i++)
		if (!r->slots[i].busy)
			return &r->slots[i];
	return NULL;
}

/* A connection for the next call: the one we have, or a new one.  On
 * failure the call is counted as sent and lost. */
static bool ensure_connected(struct run *r)
{
	struct xprt_error err;
	char text[320];

	if (r->pc.x)
		return true;
	if (ping_conn_open(&r->pc, &err) == 0) {
		snprintf(text, sizeof(text), "connected again to %s", r->t.addr);
		ping_out_event(&r->out, "reconnected", text);
		return true;
	}
	r->seq++;
	r->st.sent++;
	r->last_seq = r->seq;
	r->last_answered = false;
	ping_out_noreply(&r->out, r->seq, 0, &err);
	ping_out_flush(&r->out);
	return false;
}

static void send_one(struct run *r)
{
	struct slot *s = free_slot(r);

	if (!s || !ensure_connected(r))
		return;
	ping_conn_null(&r->pc, &s->c, s->msg, sizeof(s->msg), 0);
	s->run = r;
	s->seq = ++r->seq;
	s->c.timeout_ms = (int)(r->o->timeout_us / 1000);
	s->c.done = call_done;
	s->c.ctx = s;
	r->st.sent++;
	if (xprt_call(r->pc.x, &s->c) < 0) {
		r->last_seq = s->seq;
		r->last_answered = false;
		ping_out_noreply(&r->out, s->seq, 0, &s->c.err);
		ping_out_flush(&r->out);
		return;
	}
	s->busy = true;
	r->outstanding++;
}

/* The first connection: Version Two first (V2 §5) */
static int first_connect(struct run *r)
{
	struct xprt_error err;

	ping_conn_init(&r->pc, r->o, 0, 0, 0);
	if (ping_conn_open(&r->pc, &err) < 0) {
		ping_out_fatal(&r->out, &err);
		ping_loop_end();
		return ping_errcode_exit(err.code);
	}
	return -1;
}

/* A peer that drops the connection on our first (Version Two) call: the
 * transport remembers it and connects again with Version One */
static void v2_drop_fallback(struct run *r)
{
	const struct xprt_peer_info *pi = ping_conn_peer(&r->pc);
	struct xprt_error err;

	if (r->pc.x || r->v2_dropped || !pi->v2_dropped)
		return;
	r->v2_dropped = true;
	if (ping_conn_open(&r->pc, &err) == 0)
		ping_out_event(&r->out, "v2-dropped", "the peer dropped the "
			       "connection on our Version Two call: connected "
			       "again with Version One");
}

int ping_run(const struct ping_opts *o)
{
	static struct run r;           /* 64 slots: not on the stack */
	struct ping_summary sum;
	uint64_t start, next, now, interval = o->interval_us * 1000u;
	int rc;

	memset(&r, 0, sizeof(r));
	r.o = o;
	ping_out_init(&r.out, stdout, o->json, o->quiet);
	ping_stats_init(&r.st);
	r.t.host = o->host;
	r.t.prog = o->prog;
	r.t.vers = o->vers;
	r.t.proc = o->proc;
	if ((rc = first_connect(&r)) >= 0)
		return rc;
	const struct xprt_peer_info *pi = ping_conn_peer(&r.pc);
	snprintf(r.addr, sizeof(r.addr), "%s", pi->addr);
	snprintf(r.device, sizeof(r.device), "%s", pi->device);
	r.t.addr = r.out.addr = r.addr;
	r.t.device = r.device;
	ping_out_start(&r.out, &r.t);
	ping_out_flush(&r.out);

	live_signals_begin(r.pc.loop);
	start = next = live_now_ns();
	while (!live_interrupted()) {
		bool more = !o->count || r.seq < o->count;

		if (!more && !r.outstanding)
			break;
		now = live_now_ns();
		if (more && now >= next && (interval || !r.outstanding)) {
			send_one(&r);
			next = (interval ? next : now) + interval;
			if (next < now)            /* fell behind: no burst */
				next = now + interval;
			continue;
		}
		if (more && (interval || !r.outstanding))
			ping_conn_wait(&r.pc, (int64_t)((next - now) / 1000000u) + 1);
		else
			ping_conn_wait(&r.pc, 100);
		if (r.seq == 1 && !r.outstanding)
			v2_drop_fallback(&r);
	}
	r.stopping = true;
	live_signals_end();
	ping_stats_summary(&r.st, &sum);
	if (!r.peer_printed)
		print_peer(&r, NULL);
	ping_out_summary(&r.out, &r.t, &sum, live_now_ns() - start);
	ping_out_flush(&r.out);
	/* the peer stopped answering: the connection is gone, or the last
	 * call of the run got no reply */
	rc = ping_exit_status(&sum, !r.pc.x || !r.last_answered);
	ping_conn_free(&r.pc);
	ping_loop_end();
	ping_stats_free(&r.st);
	return rc;
}
