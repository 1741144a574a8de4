/* SPDX-License-Identifier: BSD-3-Clause */
/* harness.c - see harness.h */
#include <stdlib.h>
#include <string.h>
#include "rpcrdma/rpc.h"
#include "harness.h"

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static size_t pad4(size_t n)
{
	return (n + 3) & ~(size_t)3;
}

/* where the reply's data starts: after the RPC header and the length */
static size_t reply_pos(const uint8_t *payload, size_t len, void *ctx)
{
	(void)payload;
	(void)ctx;
	return len >= H_REPLY_HDR + 4 ? H_REPLY_HDR + 4 : (size_t)-1;
}

struct bcall {
	struct xprt_call c;
	struct h_server *sv;
	uint8_t msg[64];
};

static void bcall_done(struct xprt_call *c)
{
	struct bcall *b = c->ctx;

	if (c->err.code == XPRT_E_OK && !c->rdma_error && c->reply_len >= 28 &&
	    get32(c->reply + 24) == 4 && !memcmp(c->reply + 28, "back", 4))
		b->sv->backward_ok++;
	else
		b->sv->backward_failed++;
	free(b);
}

static void sv_call(struct xprt_rcvd_call *r, void *arg)
{
	struct h_server *sv = arg;
	uint32_t dlen = r->len >= H_CALL_HDR + 4 ? get32(r->msg + H_CALL_HDR) : 0;
	size_t n;
	uint8_t *rep;
	int i;

	sv->calls++;
	sv->last_call_path = r->call_path;
	sv->last_vers = r->vers;
	sv->last_backward = r->backward;
	if (sv->no_reply)
		return;
	if (dlen > r->len - H_CALL_HDR - 4)
		dlen = 0;
	n = H_REPLY_HDR + 4 + pad4(dlen);
	rep = calloc(1, n);
	if (!rep)
		return;
	rpc_encode_accepted_reply(rep, n, r->xid, RPC_SUCCESS);
	put32(rep + H_REPLY_HDR, dlen);
	memcpy(rep + H_REPLY_HDR + 4, r->msg + H_CALL_HDR + 4, dlen);
	xprt_reply(r, rep, n, H_REPLY_HDR + 4, dlen);
	free(rep);
	for (i = 0; i < sv->backward_on_call; i++) {
		struct bcall *b = calloc(1, sizeof(*b));

		rpc_encode_call(b->msg, sizeof(b->msg), 0, H_PROG, 1, 1);
		put32(b->msg + 40, 4);
		memcpy(b->msg + 44, "back", 4);
		b->sv = sv;
		b->c = (struct xprt_call){ .msg = b->msg, .len = 48, .reply_max = 64,
					   .timeout_ms = 2000, .done = bcall_done, .ctx = b };
		if (xprt_call(r->x, &b->c)) {
			sv->backward_failed++;
			free(b);
		}
	}
}

static void sv_connect(struct xprt *x, void *arg)
{
	struct h_server *sv = arg;

	sv->connects++;
	sv->last = x;
}

static void sv_disconnect(struct xprt *x, enum xprt_disc_reason why, void *arg)
{
	struct h_server *sv = arg;

	sv->disconnects++;
	sv->last_why = why;
	if (sv->last == x)
		sv->last = NULL;
}

/* the client answers backward calls like the server answers forward ones */
static void cl_call(struct xprt_rcvd_call *r, void *arg)
{
	struct h_client *cl = xprt_get_ctx(r->x);
	uint8_t rep[64];
	uint32_t dlen = r->len >= 44 ? get32(r->msg + 40) : 0;

	(void)arg;
	if (cl)
		cl->backward_calls++;
	if (dlen > 32 || dlen > r->len - 44)
		dlen = 0;
	rpc_encode_accepted_reply(rep, sizeof(rep), r->xid, RPC_SUCCESS);
	put32(rep + 24, dlen);
	memcpy(rep + 28, r->msg + 44, dlen);
	xprt_reply(r, rep, 28 + pad4(dlen), 0, 0);
}

static void cl_disconnect(struct xprt *x, enum xprt_disc_reason why, void *arg)
{
	struct h_client *cl = xprt_get_ctx(x);

	(void)arg;
	if (!cl)
		return;
	cl->disconnects++;
	cl->why = why;
	cl->x = NULL;
}

/* every RDMA_ERROR the client receives, read from the bytes: one in a
 * version it cannot decode (an answer to version 7) is discarded by the
 * verdict, but was received */
static void cl_recv(struct xprt *x, const uint8_t *buf, size_t len,
		    const struct rpcrdma_msg *m, void *arg)
{
	struct h_client *cl = xprt_get_ctx(x);

	(void)arg;
	if (!cl || m->nfixed < 4 || m->rdma_proc != RDMA_ERROR || len < 20)
		return;
	cl->errors_seen++;
	cl->last_err = get32(buf + 16);
	if (len >= 28) {
		cl->last_low = get32(buf + 20);
		cl->last_high = get32(buf + 24);
	}
}

const struct xprt_handlers h_server_handlers = {
	.on_call = sv_call, .on_connect = sv_connect, .on_disconnect = sv_disconnect,
};
const struct xprt_handlers h_client_handlers = {
	.on_call = cl_call, .on_disconnect = cl_disconnect, .on_recv = cl_recv,
};

struct xprt_opts h_client_opts(void)
{
	return (struct xprt_opts){ .host = "127.0.0.1", .verbs = &fake_verbs,
				   .timeout_ms = 1000 };
}

struct xprt_loop *h_setup(struct h_server *sv, const struct xprt_opts *so)
{
	struct xprt_handlers h = h_server_handlers;
	struct xprt_error err = { 0 };

	memset(sv, 0, sizeof(*sv));
	sv->o = so ? *so : (struct xprt_opts){ 0 };
	sv->o.verbs = &fake_verbs;
	sv->o.host = NULL;                /* the wildcard: IPv4 and IPv6 */
	sv->l = xprt_loop_create(&sv->o, &err);
	h.arg = sv;
	if (!sv->l || xprt_listen(sv->l, &h, &err))
		return NULL;
	return sv->l;
}

struct xprt *h_connect(struct h_server *sv, struct h_client *cl,
		       const struct xprt_opts *co, struct xprt_error *err)
{
	struct xprt_opts o = co ? *co : h_client_opts();
	struct xprt *x;

	memset(cl, 0, sizeof(*cl));
	x = xprt_connect_opts(sv->l, &o, &h_client_handlers, err);
	if (x)
		xprt_set_ctx(x, cl);
	cl->x = x;
	return x;
}

void h_call_init(struct h_call *hc, size_t len, unsigned seed,
		 enum xprt_chunk_mode mode)
{
	size_t n = H_CALL_HDR + 4 + pad4(len), i;

	memset(hc, 0, sizeof(*hc));
	hc->msg = calloc(1, n);
	hc->len = len;
	rpc_encode_call(hc->msg, n, 0, H_PROG, 1, 1);
	put32(hc->msg + H_CALL_HDR, (uint32_t)len);
	hc->data = hc->msg + H_CALL_HDR + 4;
	for (i = 0; i < len; i++)
		hc->data[i] = (uint8_t)(i * 31 + seed + (i >> 8));
	hc->c = (struct xprt_call){
		.msg = hc->msg, .len = n, .ddp_off = H_CALL_HDR + 4, .ddp_len = len,
		.reply_max = H_REPLY_HDR + 4 + pad4(len),
		.reply_ddp_max = len, .chunk = mode, .timeout_ms = 2000,
		.reply_ddp_pos = reply_pos,
	};
}

void h_call_free(struct h_call *hc)
{
	free(hc->msg);
	hc->msg = NULL;
}

static void h_done(struct xprt_call *c)
{
	struct h_call *hc = c->ctx;
	uint8_t *copy;

	hc->done = true;
	/* the reply is valid only in done: keep what the checks need */
	copy = c->reply_len ? malloc(c->reply_len) : NULL;
	if (copy)
		memcpy(copy, c->reply, c->reply_len);
	c->reply = copy;
}

int h_call_start(struct xprt *x, struct h_call *hc)
{
	hc->c.done = h_done;
	hc->c.ctx = hc;
	return xprt_call(x, &hc->c);
}

bool h_call_run(struct h_server *sv, struct xprt *x, struct h_call *hc)
{
	int i;

	if (h_call_start(x, hc))
		return false;
	for (i = 0; i < 200 && !hc->done; i++)
		xprt_loop_run(sv->l, 10);
	return hc->done && hc->c.err.code == XPRT_E_OK && !hc->c.rdma_error;
}

bool h_reply_ok(const struct h_call *hc)
{
	const uint8_t *r = hc->c.reply;
	bool ok = r && hc->c.reply_len == H_REPLY_HDR + 4 + pad4(hc->len) &&
		  get32(r) == hc->c.xid && get32(r + H_REPLY_HDR) == hc->len &&
		  !memcmp(r + H_REPLY_HDR + 4, hc->data, hc->len);

	free((void *)hc->c.reply);
	((struct h_call *)hc)->c.reply = NULL;
	return ok;
}

void h_run(struct h_server *sv, int ms)
{
	xprt_loop_run(sv->l, ms);
}

bool h_no_leaks(void)
{
	struct fake_verbs_live lv;

	fake_verbs_live(&lv);
	return !lv.chans && !lv.ids && !lv.qps && !lv.mrs && !lv.mws;
}

void h_teardown(struct h_server *sv)
{
	if (sv->l)
		xprt_loop_destroy(sv->l);
	sv->l = NULL;
}
