/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * run_setup.c - rpcrdma-conform's run: the transport's loop and options,
 * the first connection and the program its probes speak (ECHO NULL, else
 * NFSv3 NULL: V1 §8 wants a binding for whatever is called), whether the
 * responder speaks Version Two (V2 §5), and each case's run and
 * observation.
 */
#include <stdio.h>
#include <string.h>
#include <rpcrdma/rpc.h>
#include "run.h"

/* One NULL call of target t on the V1 connection: 1 answered with RPC
 * SUCCESS, 0 answered otherwise, -1 not answered. */
static int try_program(struct cf_run *r, enum cf_profile p, struct cf_obs *o)
{
	struct rpcrdma_msg m;
	struct rpc_msg_hdr h;
	const uint8_t *pl;
	uint32_t wv;

	cf_target_init(&r->t, p);
	cf_rec_reset(r);
	r->watch = &r->v1;
	if (cf_send_probe(r, &r->v1, o) < 0 || !cf_wait_probe(r, cf_now_ms() + r->o->timeout_ms))
		return -1;
	r->probe_pending = false;
	r->v1.warm = true;
	if (cf_decode_answer(r->rec[r->nrec - 1].copy, r->rec[r->nrec - 1].r.kept, &m, &wv) !=
	    RPCRDMA_ACCEPT || m.rdma_proc != RDMA_MSG)
		return 0;
	pl = rpcrdma_payload(&m);
	if (pl && rpc_decode_header(pl, m.payload_len, &h) == RPC_OK &&
	    h.reply_stat == RPC_MSG_ACCEPTED && h.accept_stat == RPC_SUCCESS) {
		r->v1.grant = m.rdma_credit;
		return 1;
	}
	return 0;
}

/* the program the responder speaks, probed on the first connection: 1, 0
 * (answered, neither: probes only) or -1 (no answer) */
static int programs(struct cf_run *r, struct cf_obs *obs)
{
	int got;

	if (r->o->profile != CF_PROF_AUTO)
		return try_program(r, r->o->profile, obs);
	got = try_program(r, CF_PROF_ECHO, obs);
	if (got == 0 && r->v1.x) {
		got = try_program(r, CF_PROF_NFS3, obs);
		if (got == 0)
			cf_target_init(&r->t, CF_PROF_AUTO);
	}
	return got;
}

int cf_run_begin(struct cf_run *r, const struct cf_opts *o, struct xprt_error *err)
{
	struct xprt_opts xo;
	struct cf_obs obs;
	int got;

	memset(r, 0, sizeof(*r));
	r->o = o;
	r->next_xid = o->xid_base;
	r->answer_idx = r->backward_idx = -1;
	r->v1.name = "v1";
	r->v2.name = "v2";
	r->fresh.name = "fresh";
	r->check.name = "check";
	r->nfs_b.name = "nfs-b";
	memset(&xo, 0, sizeof(xo));
	xo.host = o->host;
	xo.port = o->port;
	xo.versions = XPRT_V1 | XPRT_V2;
	/* the transport posts 2 x credits + 4 Receives: room for a call and
	 * its probe and the backward calls; the credit-overrun case asks for
	 * more on its own connection (cf_conn_open) */
	xo.credits = CF_CREDITS_ASK;
	xo.inline_recv = RPCRDMA_V2_INLINE_DEFAULT;
	/* a Send over a 4 KiB receive size (the Linux server's); the send
	 * buffers are registered (pinned) memory: siw counts it against
	 * RLIMIT_MEMLOCK, so no larger */
	xo.inline_send = CF_SEND_MAX;
	xo.timeout_ms = o->connect_timeout_ms ? o->connect_timeout_ms : o->timeout_ms;
	xo.verbs = o->verbs;
	xo.debug = o->debug;
	r->xo = xo;
	r->loop = xprt_loop_create(&xo, err);
	if (!r->loop)
		return -1;
	cf_run_init_handlers(r);
	if (o->on_loop)
		o->on_loop(r->loop, o->on_loop_arg);
	if (cf_conn_open(r, &r->v1, 1, err) < 0)
		return -1;
	memset(&obs, 0, sizeof(obs));
	got = programs(r, &obs);
	if (got < 0) {
		/* once more on another connection, counted and said in the
		 * report (as conn_warm does for the cases' connections): knfsd
		 * over siw was seen to leave a new connection's first call
		 * unanswered */
		snprintf(r->setup_retry_why, sizeof(r->setup_retry_why), "%.150s",
			 r->disconnected ? r->event : "the first probe of the first connection went unanswered");
		r->probe_pending = false;
		cf_conn_close(r, &r->v1);
		r->disconnected = false;
		if (cf_conn_open(r, &r->v1, 1, err) < 0)
			return -1;
		r->setup_retried = 1;
		memset(&obs, 0, sizeof(obs));
		got = programs(r, &obs);
	}
	if (got < 0) {
		err->code = XPRT_E_PROTOCOL;
		err->sys_errno = 0;
		snprintf(err->msg, sizeof(err->msg), "%.60s:%.8s: %.180s", o->host, o->port ? o->port : "20049",
			 r->disconnected ? r->event : "no answer to an RPC NULL call (RDMA_MSG, Version One)");
		return -1;
	}
	/* does it speak Version Two?  (a connection of its own, V2 §5) */
	cf_rec_reset(r);
	memset(&obs, 0, sizeof(obs));
	cf_conn_for(r, &(struct cf_case){ .flags = CF_F_V2, .vers = 2 }, &obs);
	cf_rec_reset(r);
	return 0;
}

void cf_run_end(struct cf_run *r)
{
	cf_rec_reset(r);
	if (r->loop)
		xprt_loop_destroy(r->loop);
	r->loop = NULL;
}

void cf_run_describe(const struct cf_run *r, char *buf, size_t cap)
{
	const struct xprt_peer_info *p = &r->peer;
	size_t n;

	n = (size_t)snprintf(buf, cap, "%s -> %s", p->device[0] ? p->device : "?",
			     p->addr[0] ? p->addr : "?");
	if (n < cap && p->has_private_data)
		n += (size_t)snprintf(buf + n, cap - n, "; RFC 8797 private data: receive %u, send %u%s",
				      p->priv.max_recv_size, p->priv.max_send_size,
				      p->priv.pd_flags & RPCRDMA_CM_FLAG_REMOTE_INVALIDATE ?
				      ", remote invalidation" : "");
	else if (n < cap)
		n += (size_t)snprintf(buf + n, cap - n, "; no RFC 8797 private data");
	if (n < cap)
		n += (size_t)snprintf(buf + n, cap - n, "; grants %u credits", r->v1.grant);
	if (n < cap)
		snprintf(buf + n, cap - n, "; Version Two %s", r->v2_state == CF_V2_YES ? "spoken" :
			 r->v2_state == CF_V2_NO ? "refused (ERR_VERS)" : "unknown");
}

void cf_run_case(struct cf_run *r, const struct cf_case *c, struct cf_obs *o)
{
	unsigned i;

	cf_rec_reset(r);
	memset(o, 0, sizeof(*o));
	o->sent_action = -1;
	if (r->v2_state == CF_V2_YES) {
		o->supported_low = 1;
		o->supported_high = 2;
	} else {
		o->supported_low = o->supported_high = 1;
	}
	if (r->gone) {
		cf_skip(o, "the responder is gone (%s)", r->gone_why);
		return;
	}
	if ((c->flags & CF_F_ECHO) && r->t.prof != CF_PROF_ECHO &&
	    !((c->flags & CF_F_NFS) && r->t.prof == CF_PROF_NFS3)) {
		cf_skip(o, "needs the ECHO program (docs/echo-ulb.md); the responder serves %s",
			r->t.prof == CF_PROF_NFS3 ? "NFSv3" : "another program");
		return;
	}
	if ((c->flags & CF_F_DDP) && r->t.prof == CF_PROF_AUTO) {
		cf_skip(o, "no call with a DDP-eligible argument is known for the responder's "
			"program (give --program)");
		return;
	}
	if (c->kind == CF_K_VECTOR)
		cf_run_vector(r, c, o);
	else if ((c->flags & CF_F_NFS) && r->t.prof == CF_PROF_NFS3)
		cf_run_nfs(r, c, o);            /* the case's NFS form */
	else
		cf_run_custom(r, c, o);
	if (o->skipped)
		return;
	for (i = 0; i < r->ncase_xid; i++)
		o->sent_xid[o->nsent_xid++] = r->case_xid[i];
	o->stray = r->nstray;
	o->stray_xid = r->stray_xid;
	if (r->gone && !o->listener_gone) {
		o->listener_gone = true;
		snprintf(o->event, sizeof(o->event), "%s", r->gone_why);
	}
	cf_classify(o);
	if (!r->gone && (c->flags & CF_F_FRESH))
		cf_conn_close(r, &r->fresh);
}
