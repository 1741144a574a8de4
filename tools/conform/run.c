/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * run.c - rpcrdma-conform's runner over the transport (tools/transport):
 * one shared connection per RPC-over-RDMA version, fresh ones for cases
 * that may cost a connection, raw Sends (xprt_send_raw: no header is built
 * or judged), and what came back (xprt_handlers.on_recv shows every
 * received message with libcodec's verdict).  A silent discard is told from
 * a hung connection by a probe (a NULL call) sent after the case's message;
 * a dropped connection from a crash by connecting again.  One message and
 * one probe in flight at a time: the suite never floods.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <rpcrdma/rpc.h>
#include "echo_ulb.h"
#include "run.h"

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

uint32_t cf_xid(struct cf_run *r)
{
	return r->next_xid++;
}

/* -------- the recording -------- */

void cf_rec_reset(struct cf_run *r)
{
	unsigned i;

	for (i = 0; i < r->nrec; i++)
		free(r->rec[i].copy);
	r->nrec = r->more = 0;
	r->ncase_xid = 0;
	r->xid_range_lo = r->xid_range_n = 0;
	r->answer_idx = r->backward_idx = -1;
	r->nanswers = r->nrpc_errors = 0;
	r->probe_pending = r->probe_answered = false;
	r->watch = NULL;
	r->disconnected = false;
	r->event[0] = '\0';
	r->on_backward = NULL;
	r->backward_seen = false;
	r->setup_pending = false;
	r->setup_idx = -1;
	r->attrib_conn = false;
	r->nstray = 0;
}

void cf_rec_drop(struct cf_run *r, unsigned from)
{
	while (r->nrec > from) {
		r->nrec--;
		free(r->rec[r->nrec].copy);
		r->rec[r->nrec].copy = NULL;
	}
}

static int rec_add(struct cf_run *r, struct cf_conn *c, bool received, const char *role,
		   const uint8_t *buf, size_t len)
{
	struct cf_recmsg *m;
	uint32_t keep = len < CF_REC_KEEP ? (uint32_t)len : CF_REC_KEEP;

	if (r->nrec == CF_REC_MAX) {
		r->more++;
		return -1;
	}
	m = &r->rec[r->nrec];
	m->copy = malloc(keep ? keep : 1);
	if (!m->copy) {
		r->more++;
		return -1;
	}
	memcpy(m->copy, buf, keep);
	m->r.received = received;
	m->r.role = role;
	m->r.len = (uint32_t)len;
	m->r.bytes = m->copy;
	m->r.kept = keep;
	m->xid = len >= 4 ? be32(buf) : 0;
	m->conn = c;
	return (int)r->nrec++;
}

unsigned cf_run_messages(struct cf_run *r, struct cf_msgrec *out, unsigned cap, unsigned *more)
{
	unsigned i;

	for (i = 0; i < r->nrec && i < cap; i++)
		out[i] = r->rec[i].r;
	*more = r->more + (r->nrec > cap ? r->nrec - cap : 0);
	return i;
}

const uint8_t *cf_answer(const struct cf_run *r, size_t *len)
{
	if (r->answer_idx < 0)
		return NULL;
	*len = r->rec[r->answer_idx].r.kept;
	return r->rec[r->answer_idx].copy;
}

const uint8_t *cf_answer_for_role(const struct cf_run *r, const char *role, uint32_t xid,
				  size_t *len)
{
	unsigned i;

	for (i = 0; i < r->nrec; i++)
		if (r->rec[i].r.received && r->rec[i].xid == xid && r->rec[i].r.kept >= 4 &&
		    !strcmp(r->rec[i].r.role, role)) {
			*len = r->rec[i].r.kept;
			return r->rec[i].copy;
		}
	return NULL;
}

const uint8_t *cf_answer_for(const struct cf_run *r, uint32_t xid, size_t *len)
{
	return cf_answer_for_role(r, "case", xid, len);
}

const uint8_t *cf_backward_call(const struct cf_run *r, size_t *len)
{
	if (r->backward_idx < 0)
		return NULL;
	*len = r->rec[r->backward_idx].r.kept;
	return r->rec[r->backward_idx].copy;
}

void cf_case_xid(struct cf_run *r, uint32_t xid)
{
	if (r->ncase_xid < CF_MAX_XIDS)
		r->case_xid[r->ncase_xid++] = xid;
}

static bool is_case_xid(const struct cf_run *r, uint32_t xid)
{
	unsigned i;

	if (r->xid_range_n && xid - r->xid_range_lo < r->xid_range_n)
		return true;
	for (i = 0; i < r->ncase_xid; i++)
		if (r->case_xid[i] == xid)
			return true;
	return false;
}

/* -------- transport events -------- */

static void on_recv(struct xprt *x, const uint8_t *buf, size_t len,
		    const struct rpcrdma_msg *m, void *arg)
{
	struct cf_run *r = arg;
	struct cf_conn *c = xprt_get_ctx(x);
	uint32_t xid = len >= 4 ? be32(buf) : 0;
	bool call = m->direction == RPCRDMA_CALL && m->rdma_proc != RDMA_ERROR;
	bool good_reply = m->action == RPCRDMA_ACCEPT && !call && m->rdma_proc != RDMA_ERROR;
	const char *role = call ? "backward" : is_case_xid(r, xid) ? "case" :
			   r->probe_pending && xid == r->probe_xid ? "probe" :
			   r->setup_pending && xid == r->setup_xid ? "setup" :
			   r->attrib_conn && c && c == r->watch ? "case" : "other";
	int idx;

	/* the suite's xids are xid_base + n (cases) and + 0x80000 + n
	 * (probes): an answer outside them matches nothing sent */
	if (!call && !strcmp(role, "other") && xid - r->o->xid_base >= 0x100000u) {
		if (!r->nstray++)
			r->stray_xid = xid;
	}
	idx = rec_add(r, c, true, role, buf, len);

	if (c && good_reply && (!strcmp(role, "case") || !strcmp(role, "probe")))
		c->grant = m->rdma_credit;
	if (call) {
		if (r->backward_idx < 0)
			r->backward_idx = idx;
	} else if (!strcmp(role, "case")) {
		if (r->answer_idx < 0)
			r->answer_idx = idx;
		r->nanswers++;
		if (good_reply && m->rdma_proc == RDMA_MSG) {
			struct rpc_msg_hdr h;
			const uint8_t *pl = rpcrdma_payload(m);

			if (pl && rpc_decode_header(pl, m->payload_len, &h) == RPC_OK &&
			    (h.reply_stat != RPC_MSG_ACCEPTED || h.accept_stat != RPC_SUCCESS))
				r->nrpc_errors++;
		}
	} else if (!strcmp(role, "probe")) {
		r->probe_answered = true;
	} else if (!strcmp(role, "setup") && r->setup_idx < 0) {
		/* kept apart from the recording, which may be full */
		r->setup_idx = 0;
		r->setup_len = len < sizeof(r->setup_ans) ? len : sizeof(r->setup_ans);
		memcpy(r->setup_ans, buf, r->setup_len);
	}
	xprt_loop_stop(r->loop);
}

static void on_disconnect(struct xprt *x, enum xprt_disc_reason why, void *arg)
{
	struct cf_run *r = arg;
	struct cf_conn *c = xprt_get_ctx(x);

	if (!c || c->x != x)
		return;                 /* closed by us: already forgotten */
	c->x = NULL;
	c->warm = false;
	if (c == r->watch) {
		r->disconnected = true;
		snprintf(r->event, sizeof(r->event), "%s",
			 why == XPRT_DISC_PEER ? "the responder disconnected" :
			 why == XPRT_DISC_ERROR ? "the connection failed (flush or QP error)" :
			 "closed");
	}
	xprt_loop_stop(r->loop);
}

/* A backward call from the responder (ECHO CALLBACK): answered as the ECHO
 * ULB says, unless the case wants it. */
static void on_call(struct xprt_rcvd_call *req, void *arg)
{
	struct cf_run *r = arg;
	struct echo_args a;
	enum echo_call_status st;
	uint8_t out[1100];
	size_t n, doff = 0, dlen = 0;

	r->backward_xid = req->xid;
	r->backward_seen = true;
	if (r->on_backward)
		r->on_backward(r, req);
	if (r->t.prof == CF_PROF_NFS3) {
		/* the NFSv4.1 back channel (RFC 8881 §20): CB_NULL, and
		 * the CB_COMPOUND of a delegation recall */
		struct rpc_msg_hdr h;

		if (rpc_decode_header(req->msg, req->len, &h) != RPC_OK || h.msg_type != RPC_CALL)
			return;
		n = h.prog != CF_NFS41_CB_PROG ?
		    rpc_encode_accepted_reply(out, sizeof(out), h.xid, RPC_PROG_UNAVAIL) :
		    cf_nfs41_cb_reply(req->msg, req->len, out, sizeof(out));
		if (n)
			xprt_reply(req, out, n, 0, 0);
		xprt_loop_stop(r->loop);
		return;
	}
	st = echo_decode_call(req->msg, req->len, true, &a);
	if (st == ECHO_CALL_NOT_RPC)
		return;
	if (st == ECHO_CALL_OK)
		n = echo_encode_reply(out, sizeof(out), a.xid, a.proc, 0, a.data, a.len, &doff, &dlen);
	else
		n = echo_encode_error(out, sizeof(out), a.xid, st);
	if (n)
		xprt_reply(req, out, n, 0, 0);
	xprt_loop_stop(r->loop);
}

/* -------- connections -------- */

int cf_conn_open(struct cf_run *r, struct cf_conn *c, uint32_t vers, struct xprt_error *err)
{
	c->run = r;
	c->vers = vers;
	c->grant = 1;                   /* V1 §4.3.3: one until a reply says more */
	c->warm = false;
	c->gen = ++r->gens;
	if (c->credits) {
		struct xprt_opts o = r->xo;

		o.credits = c->credits;
		c->x = xprt_connect_opts(r->loop, &o, &r->h, err);
	} else {
		c->x = xprt_connect(r->loop, &r->h, err);
	}
	if (!c->x)
		return -1;
	xprt_set_ctx(c->x, c);
	if (!r->have_peer) {
		r->peer = *xprt_peer(c->x);
		r->have_peer = true;
	}
	return 0;
}

void cf_conn_close(struct cf_run *r, struct cf_conn *c)
{
	struct xprt *x = c->x;

	(void)r;
	c->x = NULL;
	c->warm = false;
	if (x)
		xprt_close(x);
}

size_t cf_build(const struct cf_conn *c, uint32_t xid, uint32_t proc,
		const struct rpcrdma_hdr *chunks, const uint8_t *rpc, size_t rpclen,
		uint8_t *buf, size_t cap)
{
	struct rpcrdma_hdr h;
	size_t n;

	if (chunks) {
		h = *chunks;
	} else {
		memset(&h, 0, sizeof(h));
		h.direction = RPCRDMA_CALL;
	}
	h.rdma_xid = xid;
	h.rdma_vers = c->vers;
	h.rdma_credit = CF_CREDITS_ASK;
	h.rdma_proc = proc;
	n = rpcrdma_encode(&h, buf, cap, NULL);
	if (!n || n + rpclen > cap)
		return 0;
	if (rpclen)
		memcpy(buf + n, rpc, rpclen);
	return n + rpclen;
}

/* A write list of one chunk of nseg segments of seglen bytes each, cut from
 * the registered memory wm, hung on h */
void cf_write_segs(struct rpcrdma_hdr *h, struct rpcrdma_write_chunk *wc,
		   struct rpcrdma_segment *segs, const struct cf_mem *wm, unsigned nseg,
		   uint32_t seglen)
{
	for (unsigned i = 0; i < nseg; i++) {
		segs[i] = wm->seg;
		segs[i].rdma_length = seglen;
		segs[i].rdma_offset += (uint64_t)i * seglen;
	}
	wc->segs = segs;
	wc->nsegs = nseg;
	h->writes = wc;
	h->nwrites = 1;
}

/* BIDI §2.4.1: on the responder's backward call, a forward NULL call with
 * the very xid of the outstanding backward one (r->on_backward) */
void cf_null_xid_hook(struct cf_run *r, struct xprt_rcvd_call *req)
{
	struct cf_conn *k = xprt_get_ctx(req->x);
	uint8_t rpc[64], buf[128];
	size_t n;

	if (!k || r->ncase_xid != 1)
		return;
	n = cf_target_null(&r->t, req->xid, rpc, sizeof(rpc));
	n = cf_build(k, req->xid, RDMA_MSG, NULL, rpc, n, buf, sizeof(buf));
	cf_case_xid(r, req->xid);
	cf_send(r, k, "case", buf, n, NULL);
}

int cf_send(struct cf_run *r, struct cf_conn *c, const char *role, const uint8_t *buf,
	    size_t len, struct cf_obs *o)
{
	struct xprt_error err;

	rec_add(r, c, false, role, buf, len);
	if (!c->x) {
		if (o && !r->event[0])
			snprintf(r->event, sizeof(r->event), "the connection was gone before the send");
		r->disconnected = true;
		return -1;
	}
	if (xprt_send_raw(c->x, buf, len, &err) < 0) {
		snprintf(r->event, sizeof(r->event), "send: %.250s", err.msg);
		return -1;
	}
	return 0;
}

int cf_send_probe(struct cf_run *r, struct cf_conn *c, struct cf_obs *o)
{
	uint8_t rpc[64], buf[128];
	size_t n;

	/* probes have xids of their own: base + 0x80000 + n */
	r->probe_xid = r->o->xid_base + 0x80000u + (r->nprobes++ & 0x7ffffu);
	r->probe_pending = true;
	r->probe_answered = false;
	n = cf_target_null(&r->t, r->probe_xid, rpc, sizeof(rpc));
	n = cf_build(c, r->probe_xid, RDMA_MSG, NULL, rpc, n, buf, sizeof(buf));
	return cf_send(r, c, "probe", buf, n, o);
}

/* Bring a connection up and send its first probe (warm-up: the grant, and
 * for a V2 connection the negotiation, V2 §5); recorded in the case. */
static int conn_warm(struct cf_run *r, struct cf_conn *c, uint32_t vers, struct cf_obs *o)
{
	struct xprt_error err;
	size_t alen = 0;
	const uint8_t *a;
	int attempt;

	if (!c->x && cf_conn_open(r, c, vers, &err) < 0) {
		snprintf(o->event, sizeof(o->event), "connect: %.250s", err.msg);
		if (err.code != XPRT_E_NODEV && err.code != XPRT_E_RESOURCE &&
		    err.code != XPRT_E_USAGE) {
			r->gone = true;
			snprintf(r->gone_why, sizeof(r->gone_why), "connect: %.250s", err.msg);
		}
		return -1;
	}
	if (c->warm)
		return 0;
	r->watch = c;
	for (attempt = 0;; attempt++) {
		if (cf_send_probe(r, c, o) == 0 && cf_wait_probe(r, cf_now_ms() + r->o->timeout_ms))
			break;
		snprintf(o->event, sizeof(o->event), "%s",
			 r->disconnected ? r->event : "the first probe of a new connection went unanswered");
		r->probe_pending = false;
		cf_conn_close(r, c);
		/* once more on another connection: knfsd over siw was seen to
		 * leave a new connection's first call unanswered (the recording
		 * keeps both) */
		if (attempt || cf_conn_open(r, c, vers, &err) < 0)
			return -1;
		o->retried++;
		snprintf(o->retry_why, sizeof(o->retry_why), "%.150s", o->event);
		r->disconnected = false;
	}
	r->probe_pending = false;
	a = cf_answer_for_role(r, "probe", r->probe_xid, &alen);
	if (vers == 2) {
		struct rpcrdma_msg m;
		uint32_t wv;

		if (a && cf_decode_answer(a, alen, &m, &wv) == RPCRDMA_ACCEPT &&
		    m.rdma_proc == RDMA_ERROR && m.rdma_err == RDMA_ERR_VERS) {
			r->v2_state = CF_V2_NO;
			r->v2_low = m.rdma_vers_low;
			r->v2_high = m.rdma_vers_high;
			cf_conn_close(r, c);
			return -1;
		}
		r->v2_state = CF_V2_YES;
	}
	c->warm = true;
	return 0;
}

struct cf_conn *cf_conn_for(struct cf_run *r, const struct cf_case *c, struct cf_obs *o)
{
	struct cf_conn *k = c->flags & CF_F_FRESH ? &r->fresh : c->vers == 2 ? &r->v2 : &r->v1;

	if ((c->flags & CF_F_V2) && r->v2_state == CF_V2_UNKNOWN && !r->v2.x)
		conn_warm(r, &r->v2, 2, o);     /* learn whether V2 is spoken */
	if ((c->flags & CF_F_V2) && r->v2_state == CF_V2_NO) {
		cf_skip(o, "the responder does not speak Version Two (ERR_VERS %u..%u)",
			r->v2_low, r->v2_high);
		return NULL;
	}
	if (c->flags & CF_F_FRESH)
		cf_conn_close(r, k);
	if (conn_warm(r, k, c->vers, o) < 0) {
		if (!r->gone && !o->skipped)
			cf_skip(o, "no usable connection: %s", o->event);
		return NULL;
	}
	r->watch = k;
	return k;
}

/* Is the listener still there?  Reconnects `c` itself (its slot). */
static bool listener_alive(struct cf_run *r, struct cf_conn *c, struct cf_obs *o)
{
	struct cf_conn *saved = r->watch;
	bool ok;

	cf_conn_close(r, c);
	r->disconnected = false;
	ok = conn_warm(r, c, c->vers, o) == 0;
	r->watch = saved;
	if (!ok && r->gone) {
		o->listener_gone = true;
		snprintf(o->event, sizeof(o->event), "%s", r->gone_why);
	}
	return ok;
}

void cf_finish(struct cf_run *r, struct cf_conn *c, struct cf_obs *o, bool probe)
{
	int64_t deadline = cf_now_ms() + r->o->timeout_ms;
	bool hung = false;

	if (r->answer_idx < 0 && !r->disconnected && probe) {
		if (!r->probe_pending)
			cf_send_probe(r, c, o);
		if (cf_wait_probe(r, deadline) && r->answer_idx < 0) {
			/* a late answer to the case's message? */
			int64_t settle = cf_now_ms() + r->o->settle_ms;

			cf_wait_answers(r, 0, settle);
		}
		hung = !r->probe_answered && !r->disconnected;
		if (hung) {
			/* a responder that closed the connection may be seen
			 * doing so late: over rxe under load the CM's word came
			 * after the probe's deadline (issue 30 item 6).  Watch
			 * for it one timeout more before calling it a hang (no
			 * message is sent again) */
			int64_t t0 = cf_now_ms();

			cf_wait_disconnect(r, t0 + r->o->timeout_ms);
			hung = !r->disconnected;
			if (r->disconnected) {
				size_t n = strlen(r->event);

				snprintf(r->event + n, sizeof(r->event) - n, ", seen %lld ms after "
					 "the probe's deadline", (long long)(cf_now_ms() - t0));
			}
		}
	}
	o->probe_answered = r->probe_answered;
	o->disconnected = r->disconnected;
	if (r->disconnected)
		snprintf(o->event, sizeof(o->event), "%s", r->event);
	if (r->answer_idx >= 0) {
		o->answer = r->rec[r->answer_idx].copy;
		o->answer_len = r->rec[r->answer_idx].r.kept;
	}
	if (r->disconnected || hung) {
		bool was = r->disconnected;

		if (!listener_alive(r, c, o))
			return;
		if (hung)
			snprintf(o->event, sizeof(o->event),
				 "the connection stayed up; a new one is answered");
		else if (was && !o->event[0])
			snprintf(o->event, sizeof(o->event), "the listener still answers");
	}
	r->probe_pending = false;
}

/* -------- one message from the vectors -------- */

void cf_one_message(struct cf_run *r, struct cf_conn *k, struct cf_obs *o,
		    const uint8_t *buf, size_t n)
{
	struct rpcrdma_msg m;

	o->sent_has_xid = n >= 4;
	o->sent_has_vers = n >= 8;
	o->sent_vers = n >= 8 ? be32(buf + 4) : 0;
	o->sent_action = (int)rpcrdma_decode(buf, n, &m);
	/* the probe right behind it when the grant allows two calls;
	 * cf_finish() sends it otherwise, once no answer has come */
	if (cf_send(r, k, "case", buf, n, o) == 0 && k->grant >= 2)
		cf_send_probe(r, k, o);
	else if (!r->disconnected)
		cf_wait_answers(r, 0, cf_now_ms() + r->o->settle_ms);
	cf_finish(r, k, o, true);
}

void cf_run_vector(struct cf_run *r, const struct cf_case *c, struct cf_obs *o)
{
	uint8_t buf[4096];
	struct cf_conn *k = cf_conn_for(r, c, o);
	uint32_t xid = cf_xid(r), rx;
	size_t n;

	if (!k)
		return;
	n = cf_vector_bytes(c->vec, xid, buf, sizeof(buf), &rx);
	/* too short to carry an xid: its connection is its own, and every
	 * answer on it is attributed to it (nothing else can draw one) */
	if (n < 8 && (c->flags & CF_F_FRESH))
		r->attrib_conn = true;
	cf_case_xid(r, xid);
	if (rx != xid) {
		cf_case_xid(r, rx);
		if (rx - r->o->xid_base < 0x80000u && rx >= r->next_xid)
			r->next_xid = rx + 1;   /* no later case takes it */
	}
	cf_one_message(r, k, o, buf, n);
}

void cf_run_init_handlers(struct cf_run *r)
{
	memset(&r->h, 0, sizeof(r->h));
	r->h.on_recv = on_recv;
	r->h.on_disconnect = on_disconnect;
	r->h.on_call = on_call;
	r->h.arg = r;
}
