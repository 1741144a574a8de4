/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench_xprt.c - the transport's cost of one NULL round trip (issue 27):
 * a server and a client of tools/transport in one process over the fake
 * verbs (tests/transport/fake_verbs.c), the client making N NULL calls of
 * a test program one after another (RFC 5531 §9: a call of procedure 0, no
 * arguments; an accepted reply, no results).  scripts/bench-xprt.sh runs
 * it under callgrind for two N and divides the difference, split by source
 * (libcodec, tools/transport, this tool, the fake fabric, libc).
 *
 * Usage: bench_xprt N   (exit 0 when every call had its reply)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rpcrdma/rpc.h"
#include "fake_verbs.h"
#include "xprt.h"

#define B_PROG 0x20000099u

struct bench {
	struct xprt_loop *l;
	bool connected;
	unsigned calls, replies;
};

/* the server: an accepted reply of no results to every call (24 bytes) */
static void sv_call(struct xprt_rcvd_call *r, void *arg)
{
	struct bench *b = arg;
	uint8_t rep[24];

	b->calls++;
	rpc_encode_accepted_reply(rep, sizeof(rep), r->xid, RPC_SUCCESS);
	xprt_reply(r, rep, sizeof(rep), 0, 0);
}

static void sv_connect(struct xprt *x, void *arg)
{
	struct bench *b = arg;

	(void)x;
	b->connected = true;
	xprt_loop_stop(b->l);
}

static void cl_done(struct xprt_call *c)
{
	struct bench *b = c->ctx;

	if (c->err.code == XPRT_E_OK && !c->rdma_error && c->reply_len == 24)
		b->replies++;
	xprt_loop_stop(b->l);              /* as a tool waits for its reply */
}

int main(int argc, char **argv)
{
	struct xprt_call c;
	struct xprt_handlers sh = { .on_call = sv_call, .on_connect = sv_connect };
	static const struct xprt_handlers ch = { 0 };
	struct xprt_opts so = { .verbs = &fake_verbs }, co = so;
	struct xprt_error err = { 0 };
	uint8_t msg[40];
	struct bench b = { 0 };
	struct xprt *x;
	long n, i;
	int k;

	n = argc > 1 ? strtol(argv[1], NULL, 10) : 1000;
	if (n < 0 || n > 100000000) {
		fprintf(stderr, "usage: bench_xprt N\n");
		return 2;
	}
	sh.arg = &b;
	b.l = xprt_loop_create(&so, &err);
	if (!b.l || xprt_listen(b.l, &sh, &err)) {
		fprintf(stderr, "bench_xprt: listen: %s\n", err.msg);
		return 1;
	}
	co.host = "127.0.0.1";
	co.timeout_ms = 1000;
	x = xprt_connect_opts(b.l, &co, &ch, &err);
	if (!x) {
		fprintf(stderr, "bench_xprt: connect: %s\n", err.msg);
		return 1;
	}
	for (k = 0; k < 100 && !b.connected; k++)
		xprt_loop_run(b.l, 10);
	xprt_loop_run(b.l, 5);             /* the client's side of it */
	rpc_encode_call(msg, sizeof(msg), 0, B_PROG, 1, 0);   /* NULL */
	for (i = 0; i < n; i++) {
		unsigned before = b.replies;

		c = (struct xprt_call){ .msg = msg, .len = sizeof(msg),
					.reply_max = 64, .timeout_ms = 2000,
					.done = cl_done, .ctx = &b };
		if (xprt_call(x, &c)) {
			fprintf(stderr, "bench_xprt: call %ld: %s\n", i, c.err.msg);
			break;
		}
		xprt_loop_run(b.l, 2000);
		if (b.replies == before) {
			fprintf(stderr, "bench_xprt: call %ld: no reply\n", i);
			break;
		}
	}
	xprt_close(x);
	for (k = 0; k < 10; k++)
		xprt_loop_run(b.l, 1);
	xprt_loop_destroy(b.l);
	printf("%u calls, %u replies\n", b.calls, b.replies);
	return b.replies == (unsigned)n ? 0 : 1;
}
