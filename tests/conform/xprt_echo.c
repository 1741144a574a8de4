/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * xprt_echo.c - a small ECHO responder on the real transport, for
 * test_conform_xprt: the transport answers every header error itself (per
 * libcodec's verdict, and per xprt_opts.misbehave); this serves the program
 * (docs/echo-ulb.md): NULL, ECHO with its DDP-eligible result, CALLBACK
 * (the running count of identical backward replies, then the calls), and a
 * read chunk that holds anything but the one DDP-eligible item answered
 * ERR_BADHEADER (V1 §8.1.1), sent raw as rpcrdma-echo does.
 */
#include <stdlib.h>
#include <string.h>
#include "echo_ulb.h"
#include "xprt_echo.h"

struct xe_conn {
	uint32_t identical;
};

struct xe_bcall {
	struct xprt_call c;
	struct xe_conn *conn;
	uint32_t len;
	size_t off;
	uint8_t msg[ECHO_CALL_HDR_LEN + 4 + ECHO_CALLBACK_DATA_MAX + 4];
};

static void on_connect(struct xprt *x, void *arg)
{
	(void)arg;
	xprt_set_ctx(x, calloc(1, sizeof(struct xe_conn)));
}

static void on_disconnect(struct xprt *x, enum xprt_disc_reason why, void *arg)
{
	(void)why;
	(void)arg;
	free(xprt_get_ctx(x));
	xprt_set_ctx(x, NULL);
}

static void bcall_done(struct xprt_call *c)
{
	struct xe_bcall *b = c->ctx;
	const uint8_t *d;
	uint32_t dl;

	if (c->err.code == XPRT_E_OK && !c->rdma_error && b->conn &&
	    !echo_decode_reply(c->reply, c->reply_len, ECHO_PROC_ECHO, NULL, &d, &dl, NULL) &&
	    dl == b->len && !memcmp(d, b->msg + b->off, dl))
		b->conn->identical++;
	free(b);
}

static bool ddp_violation(const struct xprt_rcvd_call *r, enum echo_call_status s,
			  const struct echo_args *a)
{
	struct rpcrdma_read_iter it;
	struct rpcrdma_read_segment rs;

	rpcrdma_read_iter_init(r->hdr, &it);
	while (rpcrdma_read_next(&it, &rs))
		if (rs.rdma_position && (s != ECHO_CALL_OK || rs.rdma_position != a->data_off))
			return s == ECHO_CALL_OK;
	return false;
}

static void on_call(struct xprt_rcvd_call *r, void *arg)
{
	static uint8_t buf[1 << 17];
	struct xe_conn *conn = xprt_get_ctx(r->x);
	struct echo_args a;
	enum echo_call_status s = echo_decode_call(r->msg, r->len, r->backward, &a);
	size_t n, off = 0, len = 0;
	uint32_t i;

	(void)arg;
	if (s == ECHO_CALL_NOT_RPC)
		return;
	if (ddp_violation(r, s, &a)) {
		struct rpcrdma_hdr h = {
			.rdma_xid = r->xid, .rdma_vers = r->vers, .rdma_credit = 32,
			.rdma_proc = RDMA_ERROR, .rdma_err = RDMA_ERR_BADHEADER,
		};
		struct xprt_error err;

		n = rpcrdma_encode(&h, buf, sizeof(buf), NULL);
		xprt_send_raw(r->x, buf, n, &err);
		return;
	}
	if (s != ECHO_CALL_OK) {
		n = echo_encode_error(buf, sizeof(buf), a.xid, s);
		xprt_reply(r, buf, n, 0, 0);
		return;
	}
	if (a.proc != ECHO_PROC_CALLBACK) {
		n = echo_encode_reply(buf, sizeof(buf), a.xid, a.proc, 0, a.data, a.len, &off, &len);
		xprt_reply(r, buf, n, off, len);
		return;
	}
	n = echo_encode_reply(buf, sizeof(buf), a.xid, ECHO_PROC_CALLBACK,
			      conn ? conn->identical : 0, NULL, 0, NULL, NULL);
	if (xprt_reply(r, buf, n, 0, 0) < 0)
		return;
	for (i = 0; i < a.count; i++) {
		struct xe_bcall *b = calloc(1, sizeof(*b));

		if (!b)
			return;
		b->conn = conn;
		b->len = a.len;
		b->c.len = echo_encode_call(b->msg, sizeof(b->msg), ECHO_PROC_ECHO, 0, a.data, a.len,
					    &b->off, NULL);
		b->c.msg = b->msg;
		b->c.reply_max = echo_reply_max(ECHO_PROC_ECHO, a.len);
		b->c.chunk = XPRT_CHUNK_INLINE;
		b->c.done = bcall_done;
		b->c.ctx = b;
		if (xprt_call(r->x, &b->c) < 0)
			free(b);
	}
}

const struct xprt_handlers xe_handlers = {
	.on_call = on_call,
	.on_connect = on_connect,
	.on_disconnect = on_disconnect,
};
