/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fake_xprt.c - the transport API (tools/transport/xprt.h) in process, for
 * rpcrdma-conform's runner test: every connection reaches one model ECHO
 * responder that judges each Send with libcodec (rpcrdma_decode,
 * rpcrdma_judge_versions), answers errors with rpcrdma_encode_error_reply,
 * pulls read chunks from the "registered" memory, chooses the reply path
 * with rpcrdma_reply_path and serves ECHO with the ULB (tools/ulb).  What
 * the real transport does on the wire happens here as queued events,
 * delivered by xprt_loop_run().  Knobs in fake_xprt.h break it.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <rpcrdma/rpc.h>
#include "echo_ulb.h"
#include "fake_xprt_int.h"

struct fake_cfg fake_cfg_now;
bool fake_gone;
static bool configured;

static unsigned fake_nconn_first;   /* connections that sent a first message */

void fake_xprt_config(const struct fake_cfg *c)
{
	fake_nconn_first = 0;
	configured = true;
	fake_cfg_now = *c;
	if (!fake_cfg_now.versions)
		fake_cfg_now.versions = XPRT_V1 | XPRT_V2;
	if (!fake_cfg_now.credits)
		fake_cfg_now.credits = 32;
	if (!fake_cfg_now.inline_recv)
		fake_cfg_now.inline_recv = 4096;
	fake_gone = false;
}

uint32_t fake_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

void fake_put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static void set_err(struct xprt_error *e, enum xprt_errcode c, const char *msg)
{
	if (!e)
		return;
	e->code = c;
	e->sys_errno = 0;
	snprintf(e->msg, sizeof(e->msg), "%s", msg);
}

void fake_push(struct xprt_loop *l, enum ev_kind k, struct xprt *x, const uint8_t *buf,
		 size_t len, enum xprt_disc_reason why)
{
	struct ev *e = calloc(1, sizeof(*e));

	if (!e)
		abort();
	e->kind = k;
	e->x = x;
	e->why = why;
	if (len) {
		e->buf = malloc(len);
		if (!e->buf)
			abort();
		memcpy(e->buf, buf, len);
		e->len = len;
	}
	if (l->tail)
		l->tail->next = e;
	else
		l->head = e;
	l->tail = e;
}

static void release_mems(struct xprt *x)
{
	unsigned i;

	for (i = 0; i < MAX_MEMS; i++)
		if (x->l->mems[i].used && x->l->mems[i].x == x)
			x->l->mems[i].used = false;
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void fake_drop(struct xprt *x, enum xprt_disc_reason why)
{
	if (!x->up)
		return;
	if (why == XPRT_DISC_PEER && fake_cfg_now.late_drop_ms && !x->drop_at) {
		x->hung = true;         /* silent now, the disconnect later */
		x->drop_at = now_ms() + fake_cfg_now.late_drop_ms;
		return;
	}
	x->up = false;
	release_mems(x);
	fake_push(x->l, EV_DISC, x, NULL, 0, why);
}

/* a message on a connection that went silent with a late drop pending (the
 * runner's probe): the disconnect counts from it, once.  Counted from the bad
 * message, the runner's own delay before its probe (ASan under a loaded host:
 * over 150 ms, seen once) moved the disconnect before the probe's deadline */
void fake_late_drop_rearm(struct xprt *x)
{
	if (x->drop_at > 0 && !x->drop_rearmed) {
		x->drop_rearmed = true;
		x->drop_at = now_ms() + fake_cfg_now.late_drop_ms;
	}
}

/* -------- the API -------- */

/* The command-line build (rpcrdma-conform-fake, tests/cli/conform.bats)
 * takes its model from RPCRDMA_FAKE: comma-separated wrong-error, drop-bad,
 * silent-vers, zero-credit, v1-only, crash-on-done, hang-on-msgp, answer-short,
 * stray-answer, late-drop (with drop-bad: the disconnect seen 300 ms late). */
static void config_from_env(void)
{
	const char *e = getenv("RPCRDMA_FAKE");
	struct fake_cfg c;

	memset(&c, 0, sizeof(c));
	if (e) {
		c.misbehave = strstr(e, "wrong-error") ? XPRT_MISBEHAVE_WRONG_ERROR :
			      strstr(e, "drop-bad") ? XPRT_MISBEHAVE_DROP_BAD :
			      strstr(e, "silent-vers") ? XPRT_MISBEHAVE_SILENT_VERS :
			      strstr(e, "zero-credit") ? XPRT_MISBEHAVE_ZERO_CREDIT : XPRT_MISBEHAVE_NONE;
		c.versions = strstr(e, "v1-only") ? XPRT_V1 : 0;
		c.crash_on_done = strstr(e, "crash-on-done") != NULL;
		c.hang_on_msgp = strstr(e, "hang-on-msgp") != NULL;
		c.answer_short = strstr(e, "answer-short") != NULL;
		c.stray_answer = strstr(e, "stray-answer") != NULL;
		c.late_drop_ms = strstr(e, "late-drop") ? 300 : 0;
		c.lose_first_of = strstr(e, "lose-first-send=1") ? 1 :
				  strstr(e, "lose-first-send") ? 3 : 0;
	}
	fake_xprt_config(&c);
}

struct xprt_loop *xprt_loop_create(const struct xprt_opts *o, struct xprt_error *err)
{
	struct xprt_loop *l = calloc(1, sizeof(*l));

	if (!configured)
		config_from_env();

	if (!l) {
		set_err(err, XPRT_E_RESOURCE, "calloc");
		return NULL;
	}
	l->o = *o;
	l->next_handle = 1;
	return l;
}

void xprt_loop_destroy(struct xprt_loop *l)
{
	struct ev *e, *n;

	if (!l)
		return;
	for (e = l->head; e; e = n) {
		n = e->next;
		free(e->buf);
		free(e);
	}
	while (l->conns) {
		struct xprt *x = l->conns;

		l->conns = x->next;
		free(x);
	}
	free(l);
}

void xprt_loop_stop(struct xprt_loop *l)
{
	l->stop = true;
}

static void deliver(struct ev *e)
{
	struct xprt *x = e->x;
	struct rpcrdma_msg m;

	switch (e->kind) {
	case EV_RECV:
	case EV_CALL:
		rpcrdma_decode(e->buf, e->len, &m);
		if (x->h.on_recv)
			x->h.on_recv(x, e->buf, e->len, &m, x->h.arg);
		if (e->kind == EV_CALL && x->up && x->h.on_call) {
			struct xprt_rcvd_call r;

			memset(&r, 0, sizeof(r));
			r.x = x;
			r.xid = m.rdma_xid;
			r.backward = true;
			r.vers = m.rdma_vers;
			r.hdr = &m;
			r.msg = rpcrdma_payload(&m);
			r.len = m.payload_len;
			x->h.on_call(&r, x->h.arg);
		}
		break;
	case EV_DISC: {
		struct xprt **pp;

		if (x->h.on_disconnect)
			x->h.on_disconnect(x, e->why, x->h.arg);
		for (pp = &x->l->conns; *pp; pp = &(*pp)->next)
			if (*pp == x) {
				*pp = x->next;
				break;
			}
		free(x);
		break;
	}
	}
}

int xprt_loop_run(struct xprt_loop *l, int timeout_ms)
{
	l->stop = false;
	while (!l->stop) {
		struct ev *e = l->head;

		if (!e) {
			/* nothing will happen: let the caller's clock move */
			struct timespec ts = { 0, 1000000 };
			struct xprt *x;

			for (x = l->conns; x; x = x->next)
				if (x->drop_at && now_ms() >= x->drop_at) {
					x->drop_at = -1;
					fake_drop(x, XPRT_DISC_PEER);
				}
			if (l->head)
				continue;
			if (timeout_ms > 0)
				nanosleep(&ts, NULL);
			return 0;
		}
		l->head = e->next;
		if (!l->head)
			l->tail = NULL;
		deliver(e);
		free(e->buf);
		free(e);
	}
	return 0;
}

struct xprt *xprt_connect(struct xprt_loop *l, const struct xprt_handlers *h,
			  struct xprt_error *err)
{
	struct xprt *x;

	if (fake_gone) {
		set_err(err, XPRT_E_REFUSED, "rdma_connect 198.18.0.1:20049: Connection refused");
		return NULL;
	}
	x = calloc(1, sizeof(*x));
	if (!x) {
		set_err(err, XPRT_E_RESOURCE, "calloc");
		return NULL;
	}
	x->l = l;
	x->h = *h;
	x->up = true;
	x->next = l->conns;
	l->conns = x;
	x->peer.has_private_data = true;
	x->peer.priv.pd_magic = RPCRDMA_CM_PRIVATE_MAGIC;
	x->peer.priv.pd_version = 1;
	x->peer.priv.max_recv_size = fake_cfg_now.inline_recv;
	x->peer.priv.max_send_size = 4096;
	x->peer.inline_send = fake_cfg_now.inline_recv;
	x->peer.inline_recv = l->o.inline_recv ? l->o.inline_recv : 1024;
	snprintf(x->peer.addr, sizeof(x->peer.addr), "198.18.0.1:20049");
	snprintf(x->peer.device, sizeof(x->peer.device), "fake1");
	return x;
}

struct xprt *xprt_connect_opts(struct xprt_loop *l, const struct xprt_opts *o,
			       const struct xprt_handlers *h, struct xprt_error *err)
{
	(void)o;
	return xprt_connect(l, h, err);
}

void xprt_close(struct xprt *x)
{
	if (x->up) {
		fake_drop(x, XPRT_DISC_LOCAL);
		return;
	}
}

const struct xprt_peer_info *xprt_peer(const struct xprt *x)
{
	return &x->peer;
}

void xprt_set_ctx(struct xprt *x, void *ctx)
{
	x->ctx = ctx;
}

void *xprt_get_ctx(const struct xprt *x)
{
	return x->ctx;
}

struct xprt_mem *xprt_mem_register(struct xprt *x, void *buf, size_t len, bool remote_write,
				   struct rpcrdma_segment *seg, struct xprt_error *err)
{
	unsigned i;

	(void)remote_write;
	for (i = 0; i < MAX_MEMS; i++) {
		struct xprt_mem *m = &x->l->mems[i];

		if (m->used)
			continue;
		m->used = true;
		m->x = x;
		m->buf = buf;
		m->len = len;
		m->handle = x->l->next_handle++ << 8 | 0x5a;
		seg->rdma_handle = m->handle;
		seg->rdma_length = (uint32_t)len;
		seg->rdma_offset = 0x10000;
		return m;
	}
	set_err(err, XPRT_E_RESOURCE, "no room for another registration");
	return NULL;
}

/* --requester's responder only (req_faults.c): nothing to grant here */
void xprt_set_grant(struct xprt *x, uint32_t grant)
{
	(void)x;
	(void)grant;
}

int xprt_send_raw(struct xprt *x, const uint8_t *buf, size_t len, struct xprt_error *err)
{
	if (!x->up) {
		set_err(err, XPRT_E_DISCONNECTED, "not connected");
		return -1;
	}
	if (len > 65536) {
		set_err(err, XPRT_E_USAGE, "larger than the send buffers");
		return -1;
	}
	if (!x->nsent++ && fake_cfg_now.lose_first_of && ++fake_nconn_first ==
	    fake_cfg_now.lose_first_of)
		return 0;               /* sent, never arrives */
	return fake_model_recv(x, buf, len);
}

int xprt_reply(struct xprt_rcvd_call *r, const uint8_t *msg, size_t len, size_t ddp_off,
	       size_t ddp_len)
{
	(void)ddp_off;
	(void)ddp_len;
	if (!r->x->up)
		return -1;
	return fake_model_backward_reply(r->x, r->xid, msg, len);
}

void xprt_mem_release(struct xprt_mem *m)
{
	m->used = false;
}

/* "RDMA": the region a segment names, or NULL (a remote access error) */
uint8_t *fake_region(struct xprt *x, const struct rpcrdma_segment *s)
{
	unsigned i;

	for (i = 0; i < MAX_MEMS; i++) {
		struct xprt_mem *m = &x->l->mems[i];

		if (m->used && m->x == x && m->handle == s->rdma_handle && s->rdma_offset >= 0x10000 &&
		    s->rdma_offset - 0x10000 + s->rdma_length <= m->len)
			return m->buf + (s->rdma_offset - 0x10000);
	}
	return NULL;
}


/* rpcrdma-conform --requester listens: the model responder is no
 * requester, so nothing ever connects to this listener; the serve loop,
 * MOUNT over TCP and the signals run as in the real tool (tests/cli/
 * conform.bats), the NFS side over the fake verbs in test_conform_req */
int xprt_listen(struct xprt_loop *l, const struct xprt_handlers *h, struct xprt_error *err)
{
	(void)l;
	(void)h;
	(void)err;
	return 0;
}
