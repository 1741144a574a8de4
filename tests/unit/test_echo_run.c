/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_echo_run.c - rpcrdma-echo's client against its server (tools/echo)
 * in one process and one loop, over the transport and the in-process fake
 * verbs (tests/transport/fake_verbs): both versions and every --chunk mode
 * byte for byte, a V1-only server against a client that starts with V2,
 * backward calls, the credit limit (and the client's test-only
 * --misbehave no-first-wait breaking it), RPC errors, a DDP-eligibility
 * violation answered with ERR_BADHEADER, the JSON and text outputs, the
 * server's counts, and nothing left behind.  No RDMA device needed; the
 * same runs happen live in tests/live/cases/echo.sh.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "echo.h"
#include "fake_verbs.h"
#include "tap.h"

#define PORT "20050"

struct run {
	struct xprt_loop *l;
	struct server *sv;
	struct echo_opts so, co;
	char *sout, *cout;
	size_t slen, clen;
	FILE *sf;
	int rc;
};

static void opts_init(struct run *r)
{
	memset(r, 0, sizeof(*r));
	r->so.server = true;
	r->so.x.verbs = &fake_verbs;
	r->so.x.host = "127.0.0.1";
	r->so.x.port = PORT;
	r->so.json = true;
	r->so.call_timeout_ms = 5000;
	r->co = (struct echo_opts){
		.count = 1, .sizes = { 64 }, .nsizes = 1, .depth = 1, .backward = 1,
		.chunks = { XPRT_CHUNK_AUTO }, .nchunks = 1,
		.prog = ECHO_PROG, .prog_vers = ECHO_VERS, .json = true, .quiet = true,
		.call_timeout_ms = 5000,
	};
	r->co.x.verbs = &fake_verbs;
	r->co.x.host = "127.0.0.1";
	r->co.x.port = PORT;
	r->co.x.timeout_ms = 5000;
}

static bool start(struct run *r)
{
	struct xprt_opts lo = { .verbs = &fake_verbs };
	struct xprt_error err = { 0 };

	r->l = xprt_loop_create(&lo, &err);
	r->sf = open_memstream(&r->sout, &r->slen);
	r->sv = r->l ? echo_server_start(&r->so, r->l, r->sf, &err) : NULL;
	if (!r->sv)
		tap_diag("server: %s", err.msg);
	return r->sv != NULL;
}

static int client(struct run *r)
{
	FILE *f;

	free(r->cout);
	r->cout = NULL;
	f = open_memstream(&r->cout, &r->clen);
	r->rc = echo_client_run(&r->co, r->l, f);
	fclose(f);
	if (r->rc)
		tap_diag("client exit %d: %s", r->rc, r->cout);
	return r->rc;
}

static bool no_leaks(void)
{
	struct fake_verbs_live lv;

	fake_verbs_live(&lv);
	return !lv.chans && !lv.ids && !lv.qps && !lv.mrs && !lv.mws;
}

/* stop the server; its output is then complete */
static void stop(struct run *r)
{
	echo_server_finish(r->sv);
	fclose(r->sf);
	xprt_loop_destroy(r->l);
	echo_server_free(r->sv);
	if (!no_leaks())
		tap_diag("verbs objects left behind");
	fake_verbs_reset();
}

static void cleanup(struct run *r)
{
	free(r->sout);
	free(r->cout);
}

static bool has(const char *out, const char *needle)
{
	if (out && strstr(out, needle))
		return true;
	tap_diag("'%s' not in: %s", needle, out ? out : "(nothing)");
	return false;
}

static void chunk_modes(uint32_t vers)
{
	static const struct { enum xprt_chunk_mode m; const char *name, *path; } modes[] = {
		{ XPRT_CHUNK_AUTO, "auto", "\"call_paths\":{\"inline\":6,\"read\":3},"
		  "\"reply_paths\":{\"inline\":6,\"write\":3}" },
		{ XPRT_CHUNK_INLINE, "inline", "\"call_paths\":{\"inline\":7},"
		  "\"reply_paths\":{\"inline\":7}" },
		{ XPRT_CHUNK_READ, "read", "\"call_paths\":{\"inline\":4,\"read\":5}" },
		{ XPRT_CHUNK_POS0, "pos0", "\"call_paths\":{\"inline\":3,\"pos0\":6}" },
		{ XPRT_CHUNK_WRITE, "write", "\"reply_paths\":{\"inline\":4,\"write\":5}" },
		{ XPRT_CHUNK_REPLY, "reply", "\"reply_paths\":{\"inline\":6,\"reply\":3}" },
	};
	static const uint32_t sizes[] = { 0, 1, 1000, 4093, 65536, 1u << 20 };
	static const uint32_t small[] = { 0, 1, 100, 900 };
	struct run r;
	unsigned i, total = 0;
	char want[64];

	opts_init(&r);
	if (!start(&r)) {
		tap_ok(false, "V%u: the server starts", vers);
		return;
	}
	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		bool in = modes[i].m == XPRT_CHUNK_INLINE;
		unsigned n = in ? 4 : 6;

		r.co.x.versions = 1u << vers;
		r.co.chunks[0] = modes[i].m;
		memcpy(r.co.sizes, in ? small : sizes, n * sizeof(sizes[0]));
		r.co.nsizes = n;
		snprintf(want, sizeof(want), "\"identical\":%u,", n);
		tap_ok(client(&r) == 0 && has(r.cout, want) &&
		       has(r.cout, vers == 1 ? "\"vers\":1," : "\"vers\":2,") &&
		       has(r.cout, modes[i].path) &&
		       has(r.cout, "\"server_identical\":1}"),
		       "V%u --chunk %s: %u sizes from 0 to %u bytes identical, the path "
		       "taken, one backward call", vers, modes[i].name, n, in ? 900 : 1u << 20);
		total += n;
	}
	stop(&r);
	snprintf(want, sizeof(want), "\"total\":{\"null\":6,\"echo\":%u,\"callback\":12,", total);
	tap_ok(has(r.sout, want) && has(r.sout, "\"rpc_errors\":0,\"ddp_violations\":0") &&
	       has(r.sout, "\"connections\":6,"),
	       "V%u: the server counted 6 connections, %u ECHO, 12 CALLBACK", vers, total);
	cleanup(&r);
}

/* --chunk read,pos0,write,reply: every size with each mode in turn, one
 * connection; the call lines name the mode and the path it took */
static void chunk_list(void)
{
	struct run r;

	opts_init(&r);
	r.co.quiet = false;
	r.co.chunks[0] = XPRT_CHUNK_READ;
	r.co.chunks[1] = XPRT_CHUNK_POS0;
	r.co.chunks[2] = XPRT_CHUNK_WRITE;
	r.co.chunks[3] = XPRT_CHUNK_REPLY;
	r.co.nchunks = 4;
	r.co.sizes[0] = 1;
	r.co.sizes[1] = 65536;
	r.co.nsizes = 2;
	tap_ok(start(&r) && client(&r) == 0 && has(r.cout, "\"identical\":8,") &&
	       has(r.cout, "\"seq\":1,\"proc\":\"ECHO\",\"size\":1,\"chunk\":\"read\",") &&
	       has(r.cout, "\"seq\":4,\"proc\":\"ECHO\",\"size\":65536,\"chunk\":\"pos0\",") &&
	       has(r.cout, "\"seq\":6,\"proc\":\"ECHO\",\"size\":65536,\"chunk\":\"write\",") &&
	       has(r.cout, "\"seq\":8,\"proc\":\"ECHO\",\"size\":65536,\"chunk\":\"reply\",") &&
	       has(r.cout, "\"call_paths\":{\"inline\":5,\"read\":4,\"pos0\":2},"
		   "\"reply_paths\":{\"inline\":6,\"write\":4,\"reply\":1}"),
	       "--chunk read,pos0,write,reply -S 1,65536: 8 calls, each mode with each "
	       "size, on one connection");
	stop(&r);
	cleanup(&r);
}

static void v1_only_server(void)
{
	struct run r;

	opts_init(&r);
	r.so.x.versions = XPRT_V1;
	r.co.sizes[0] = 1u << 20;
	tap_ok(start(&r) && client(&r) == 0 && has(r.cout, "\"vers\":1,\"v2_refused\":true") &&
	       has(r.cout, "\"vers_low\":1,\"vers_high\":1") && has(r.cout, "\"identical\":1,"),
	       "a V1-only server: the client's V2 is refused with ERR_VERS 1..1, V1 carries 1 MiB");
	stop(&r);
	cleanup(&r);
}

static void backward(void)
{
	struct run r;

	opts_init(&r);
	r.co.backward = 64;
	r.co.sizes[0] = ECHO_CALLBACK_DATA_MAX;
	tap_ok(start(&r) && client(&r) == 0 &&
	       has(r.cout, "\"requested\":64,\"received\":64,\"identical\":64,\"server_identical\":64"),
	       "64 backward calls of 948 bytes: received, identical both ways");
	r.co.backward = 1;
	r.co.x.credits = 1;            /* backward credits granted: 1 */
	tap_ok(client(&r) == 0 && has(r.cout, "\"server_identical\":1}"),
	       "one backward credit: still answered");
	stop(&r);
	tap_ok(has(r.sout, "\"backward_sent\":65,\"backward_identical\":65,\"backward_failed\":0"),
	       "the server counted 65 backward calls sent and identical");
	cleanup(&r);
}

static void credits_and_depth(void)
{
	struct run r;

	opts_init(&r);
	r.so.x.credits = 2;
	r.co.depth = 16;
	r.co.count = 8;
	r.co.sizes[0] = 4096;
	r.co.sizes[1] = 100000;
	r.co.nsizes = 2;
	tap_ok(start(&r) && client(&r) == 0 && has(r.cout, "\"identical\":16,") &&
	       has(r.cout, "\"credits_granted\":2,") && has(r.cout, "\"max_outstanding\":2}"),
	       "-t 16 against 2 credits: never more than 2 outstanding, all 16 identical");
	stop(&r);
	cleanup(&r);
}

/* the test-only --misbehave no-first-wait: the ECHO calls go before the
 * NULL's reply (V1 §4.3.3 broken on purpose), against a server granting
 * 1: more than one call out; without it, one */
static void no_first_wait(void)
{
	for (int mis = 0; mis < 2; mis++) {
		struct run r;

		opts_init(&r);
		r.so.x.credits = 1;
		r.co.depth = 8;
		r.co.count = 4;
		r.co.backward = 0;
		r.co.x.misbehave = mis ? XPRT_MISBEHAVE_NO_FIRST_WAIT : XPRT_MISBEHAVE_NONE;
		tap_ok(start(&r) && client(&r) == 0 && has(r.cout, "\"identical\":4,") &&
		       (mis ? !strstr(r.cout, "\"max_outstanding\":1}") &&
			      strstr(r.cout, "\"max_outstanding\":")
			    : has(r.cout, "\"max_outstanding\":1}")),
		       "-t 8 against 1 credit%s: %s", mis ? ", --misbehave no-first-wait" : "",
		       mis ? "the ECHO calls go with the NULL, before its reply (more than 1 out)"
			   : "never more than 1 outstanding");
		stop(&r);
		cleanup(&r);
	}
}

static void rpc_errors(void)
{
	struct run r;

	opts_init(&r);
	r.co.prog = RPC_PROG_NFS;
	r.co.prog_vers = 3;
	r.co.null_only = true;
	r.co.backward = 0;
	r.co.count = 2;
	tap_ok(start(&r) && client(&r) == ECHO_EXIT_FAILED &&
	       has(r.cout, "\"failed\":{\"rpc_error\":2}"),
	       "NULL to program NFS at an ECHO server: PROG_UNAVAIL twice, exit 1");
	r.co.prog = ECHO_PROG;
	r.co.prog_vers = 2;
	r.co.count = 1;
	r.co.quiet = false;
	tap_ok(client(&r) == ECHO_EXIT_FAILED && has(r.cout, "\"error\":\"RPC PROG_MISMATCH\""),
	       "NULL to ECHO version 2: PROG_MISMATCH");
	stop(&r);
	tap_ok(has(r.sout, "\"rpc_errors\":3,"), "the server counted 3 RPC errors");
	cleanup(&r);
}

static void text_output(void)
{
	struct run r;

	opts_init(&r);
	r.so.json = false;
	r.co.json = false;
	r.co.quiet = false;
	r.co.sizes[0] = 0;
	r.co.sizes[1] = 100000;
	r.co.nsizes = 2;
	tap_ok(start(&r) && client(&r) == 0 && has(r.cout, "RPCRDMA-ECHO 127.0.0.1:" PORT " via ") &&
	       has(r.cout, "NULL from 127.0.0.1:" PORT ": seq=0 vers=2 time=") &&
	       has(r.cout, "100000 bytes from 127.0.0.1:" PORT ": seq=2 call=read reply=write time=") &&
	       has(r.cout, "CALLBACK from 127.0.0.1:" PORT ": seq=3 identical=0 time=") &&
	       has(r.cout, "--- 127.0.0.1:" PORT " rpcrdma-echo statistics ---\n5 calls, 5 replies, "
		   "2 ECHO identical (100000 bytes), 0 failed, time ") &&
	       has(r.cout, "backward: 1 asked, 1 received, 1 identical; the server counted 1 "
		   "identical replies\nRPC-over-RDMA Version 2, "),
	       "text output: a line per call and ping's statistics");
	stop(&r);
	tap_ok(has(r.sout, "rpcrdma-echo: listening on 127.0.0.1 port " PORT ", versions 1,2, 32 credits\n"
		   "connection 1 from ") &&
	       has(r.sout, "--- rpcrdma-echo server statistics ---\nconnection 1 ") &&
	       has(r.sout, "1 connections: 5 calls (1 NULL, 2 ECHO of 100000 bytes, 2 CALLBACK)"),
	       "server text output: listening, connections, statistics");
	cleanup(&r);
}

/* -------- a read chunk where the ULB allows none (V1 §8.1.1) -------- */
struct raw {
	unsigned errors;
	uint32_t err;
	bool got;
};

static void raw_recv(struct xprt *x, const uint8_t *buf, size_t len,
		     const struct rpcrdma_msg *m, void *arg)
{
	struct raw *w = arg;

	(void)x;
	(void)buf;
	(void)len;
	w->got = true;
	if (m->action == RPCRDMA_ACCEPT && m->rdma_proc == RDMA_ERROR) {
		w->errors++;
		w->err = m->rdma_err;
	}
}

static void ddp_violation(void)
{
	struct run r;
	struct raw w = { 0 };
	struct xprt_handlers h = { .on_recv = raw_recv, .arg = &w };
	struct xprt_error err;
	struct rpcrdma_segment seg = { 0, 0, 0 };
	struct rpcrdma_read_segment rs;
	struct rpcrdma_hdr hd = {
		.rdma_xid = 0x5eed0001, .rdma_vers = 1, .rdma_credit = 4,
		.rdma_proc = RDMA_MSG, .reads = &rs, .nreads = 1,
	};
	static uint8_t chunk[8] = "xxxxxxxx";
	uint8_t msg[256];
	struct xprt_mem *mem;
	struct xprt *x;
	size_t hl, n;
	int i;

	opts_init(&r);
	if (!start(&r)) {
		tap_ok(false, "DDP violation: the server starts");
		return;
	}
	x = xprt_connect_opts(r.l, &r.co.x, &h, &err);
	mem = x ? xprt_mem_register(x, chunk, sizeof(chunk), false, &seg, &err) : NULL;
	/* a NULL call (no DDP-eligible item) with 8 bytes read at position 40 */
	rs.rdma_position = 40;
	rs.rdma_target = seg;
	hl = rpcrdma_encode(&hd, msg, sizeof(msg), NULL);
	n = echo_encode_call(msg + hl, sizeof(msg) - hl, ECHO_PROC_NULL, 0, NULL, 0,
			     NULL, NULL);
	memcpy(msg + hl, msg, 4);
	if (mem && hl && n && xprt_send_raw(x, msg, hl + n, &err) == 0)
		for (i = 0; i < 50 && !w.got; i++)
			xprt_loop_run(r.l, 10);
	tap_ok(w.errors == 1 && w.err == RDMA_ERR_BADHEADER,
	       "a read chunk at position 40 of a NULL call: RDMA_ERROR ERR_BADHEADER");
	if (mem)
		xprt_mem_release(mem);
	stop(&r);
	tap_ok(has(r.sout, "\"ddp_violations\":1,"), "the server counted the DDP violation");
	cleanup(&r);
}

int main(void)
{
	chunk_modes(1);
	chunk_modes(2);
	chunk_list();
	v1_only_server();
	backward();
	credits_and_depth();
	no_first_wait();
	rpc_errors();
	text_output();
	ddp_violation();
	tap_ok(no_leaks(), "no verbs object left");
	return tap_done();
}
