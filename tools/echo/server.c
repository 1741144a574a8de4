/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * server.c - rpcrdma-echo -s: serve the ECHO program (docs/echo-ulb.md) to
 * every client that connects, on one event loop; answer CALLBACK with
 * backward-direction ECHO calls on the caller's connection (BIDI §5.1);
 * count per connection and in total, and print the counts when a
 * connection closes and on SIGINT/SIGTERM.  Nothing is allocated in
 * proportion to a number from the wire: backward calls are bounded per
 * CALLBACK (64) and per connection (256).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "server.h"

struct bcall {                     /* one backward ECHO call */
	struct xprt_call c;
	struct conn *conn;
	struct bcall *prev, *next;
	size_t ddp_off;
	uint32_t len;
	uint8_t msg[ECHO_CALL_HDR_LEN + 4 + ECHO_CALLBACK_DATA_MAX];
};

static void bcall_unlink(struct bcall *b)
{
	if (b->prev)
		b->prev->next = b->next;
	else
		b->conn->bcalls = b->next;
	if (b->next)
		b->next->prev = b->prev;
	b->conn->bw_pending--;
}

static void bcall_done(struct xprt_call *c)
{
	struct bcall *b = c->ctx;
	struct conn *conn = b->conn;
	const uint8_t *data;
	uint32_t len;

	if (c->err.code == XPRT_E_OK && !c->rdma_error &&
	    echo_decode_reply(c->reply, c->reply_len, ECHO_PROC_ECHO, NULL, &data,
			      &len, NULL) == 0 &&
	    len == b->len && !memcmp(data, b->msg + b->ddp_off, len))
		conn->n.bw_identical++;
	else
		conn->n.bw_failed++;
	bcall_unlink(b);
	free(b);
}

/* Queue `count` backward ECHO calls with `data` (within the ULB bounds) */
static void make_backward_calls(struct conn *conn, struct xprt *x,
				const struct echo_args *a)
{
	uint32_t i;

	for (i = 0; i < a->count; i++) {
		struct bcall *b = calloc(1, sizeof(*b));
		size_t n, ddp_len;

		if (!b) {
			conn->n.bw_failed += a->count - i;
			return;
		}
		n = echo_encode_call(b->msg, sizeof(b->msg), ECHO_PROC_ECHO, 0, a->data,
				     a->len, &b->ddp_off, &ddp_len);
		b->conn = conn;
		b->len = a->len;
		b->c = (struct xprt_call){
			.msg = b->msg, .len = n,
			.reply_max = echo_reply_max(ECHO_PROC_ECHO, a->len),
			.chunk = XPRT_CHUNK_INLINE,      /* no chunks backward */
			.timeout_ms = conn->sv->o->call_timeout_ms,
			.done = bcall_done, .ctx = b,
		};
		b->next = conn->bcalls;
		if (b->next)
			b->next->prev = b;
		conn->bcalls = b;
		conn->bw_pending++;
		conn->n.bw_sent++;
		if (xprt_call(x, &b->c)) {
			conn->n.bw_failed++;
			bcall_unlink(b);
			free(b);
		}
	}
}

/* CALLBACK: the running count of identical backward replies first, then
 * the calls (docs/echo-ulb.md §1) */
static void callback(struct conn *conn, struct xprt_rcvd_call *r, const struct echo_args *a)
{
	uint8_t buf[32];
	size_t n;

	if (conn->bw_pending + a->count > BACKWARD_PENDING_MAX) {
		n = echo_encode_error(buf, sizeof(buf), a->xid, ECHO_CALL_SYSTEM_ERR);
		conn->n.st.rpc_errors++;
		xprt_reply(r, buf, n, 0, 0);
		return;
	}
	if (echo_reply_count(r, (uint32_t)conn->n.bw_identical) == 0)
		make_backward_calls(conn, r->x, a);
}

static void on_call(struct xprt_rcvd_call *r, void *arg)
{
	struct server *sv = arg;
	struct conn *conn = xprt_get_ctx(r->x);
	struct echo_resp_stats ignored = { 0 };
	struct echo_args a;
	enum echo_resp_result res;

	res = echo_respond(r, &a, sv->o->x.credits, conn ? &conn->n.st : &ignored);
	if (!conn)
		return;
	conn->vers = r->vers;
	if (sv->o->verbose)
		sv_out_call(sv, conn, &a, r);
	if (res == ECHO_RESP_CALLBACK)
		callback(conn, r, &a);
}

static void on_connect(struct xprt *x, void *arg)
{
	struct server *sv = arg;
	struct conn *conn = calloc(1, sizeof(*conn));
	const struct xprt_peer_info *p = xprt_peer(x);

	if (!conn) {
		fputs(PROG ": out of memory: refusing a connection\n", stderr);
		xprt_close(x);
		return;
	}
	conn->sv = sv;
	conn->x = x;
	conn->id = ++sv->nconns;
	snprintf(conn->addr, sizeof(conn->addr), "%s", p->addr);
	snprintf(conn->device, sizeof(conn->device), "%s", p->device);
	conn->t_open = live_now_ns();
	*sv->tail = conn;
	sv->tail = &conn->next;
	sv->nrecords++;
	sv->open++;
	xprt_set_ctx(x, conn);
	sv_out_connect(sv, conn);
}

/* Keep at most CONN_RECORDS_MAX records: fold the oldest closed ones */
static void trim_records(struct server *sv)
{
	struct conn **pp = &sv->conns;

	while (sv->nrecords > CONN_RECORDS_MAX && *pp) {
		struct conn *c = *pp;

		if (c->x || c->bcalls) {
			pp = &c->next;
			continue;
		}
		*pp = c->next;
		if (sv->tail == &c->next)
			sv->tail = pp;
		conn_counts_add(&sv->total, &c->n);
		sv->dropped_records++;
		sv->nrecords--;
		free(c);
	}
}

static void on_disconnect(struct xprt *x, enum xprt_disc_reason why, void *arg)
{
	struct server *sv = arg;
	struct conn *conn = xprt_get_ctx(x);

	if (!conn)
		return;
	xprt_get_stats(x, &conn->n.xs);
	xprt_set_ctx(x, NULL);
	conn->x = NULL;
	conn->why = why;
	conn->t_close = live_now_ns();
	sv->open--;
	sv_out_disconnect(sv, conn);
	trim_records(sv);
}

static void free_records(struct server *sv)
{
	struct conn *c, *next;
	struct bcall *b, *bn;

	for (c = sv->conns; c; c = next) {
		next = c->next;
		for (b = c->bcalls; b; b = bn) {   /* calls the loop never completed */
			bn = b->next;
			free(b);
		}
		free(c);
	}
}

static bool all_closed(void *arg)
{
	return !((struct server *)arg)->open;
}

/* Close what is open, let the disconnects run, snapshot the rest */
static void close_all(struct server *sv)
{
	struct conn *c;

	for (c = sv->conns; c; c = c->next)
		if (c->x) {
			xprt_get_stats(c->x, &c->n.xs);
			xprt_close(c->x);
		}
	live_run_until(sv->l, all_closed, sv, live_now_ns() + 2000000000u);
}

struct server *echo_server_start(const struct echo_opts *o, struct xprt_loop *l,
				 FILE *out, struct xprt_error *err)
{
	struct server *sv = calloc(1, sizeof(*sv));

	if (!sv) {
		snprintf(err->msg, sizeof(err->msg), "out of memory");
		err->code = XPRT_E_RESOURCE;
		return NULL;
	}
	sv->o = o;
	sv->l = l;
	sv->out = out;
	sv->tail = &sv->conns;
	sv->h = (struct xprt_handlers){
		.on_call = on_call, .on_connect = on_connect,
		.on_disconnect = on_disconnect, .arg = sv,
	};
	ob_init(&sv->ob, out);
	json_init(&sv->j, &sv->ob);
	if (xprt_listen_opts(l, &o->x, &sv->h, err)) {
		free(sv);
		return NULL;
	}
	sv_out_listening(sv);
	return sv;
}

void echo_server_finish(struct server *sv)
{
	close_all(sv);
	sv_out_summary(sv);
}

void echo_server_free(struct server *sv)
{
	if (sv)
		free_records(sv);
	free(sv);
}

int echo_server_main(const struct echo_opts *o)
{
	struct xprt_error err = { 0 };
	struct xprt_loop *l = xprt_loop_create(&o->x, &err);
	struct server *sv = l ? echo_server_start(o, l, stdout, &err) : NULL;
	int rc = ECHO_EXIT_OK;

	if (!sv) {
		echo_print_xprt_error(NULL, &err);
		xprt_loop_destroy(l);
		return echo_exit_for(err.code);
	}
	live_signals_begin(l);
	signal(SIGPIPE, SIG_IGN);
	while (!live_interrupted())
		if (xprt_loop_run(l, -1) < 0) {
			fputs(PROG ": the event loop failed\n", stderr);
			rc = ECHO_EXIT_INTERNAL;
			break;
		}
	echo_server_finish(sv);
	live_signals_end();
	xprt_loop_destroy(l);     /* may still complete backward calls */
	echo_server_free(sv);
	return rc;
}
