/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * xprt_live.c - a tiny driver of the transport over real RDMA (rdma-core),
 * for the transport's own live tests (tests/live/cases/transport.sh); the
 * tools' live tests use the tools.  One RPC program: an opaque<> echoed
 * back (DDP-eligible both ways), and NULL calls to any program (the
 * kernel's NFS server).
 *
 *   xprt-live -s [-a ADDR] [-p PORT] [-V 1|2|12] [-C CREDITS] [-t SECONDS]
 *   xprt-live HOST [-p PORT] [-V ..] [-m MODES] [-S SIZES] [-c COUNT] [-I]
 *                                        (-I: accept remote invalidation)
 *   xprt-live HOST --null PROG VERS      one NULL call, the peer info
 *
 * Prints one line per check: "ok ..." or "FAIL ..."; exit 0 when all ok.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "rpcrdma/rpc.h"
#include "xprt.h"

#define PROG 0x20000099u

static int fails;
static struct xprt_loop *loop;
static volatile sig_atomic_t quit;

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24); p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8); p[3] = (uint8_t)v;
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void on_sig(int s)
{
	(void)s;
	quit = 1;
	if (loop)
		xprt_loop_stop(loop);
}

/* -------- server: echo the opaque back -------- */
static void sv_call(struct xprt_rcvd_call *r, void *arg)
{
	uint32_t n = r->len >= 44 ? get32(r->msg + 40) : 0;
	size_t len;
	uint8_t *rep;

	(void)arg;
	if (n > r->len - 44)
		n = 0;
	len = 28 + ((n + 3) & ~3u);
	rep = calloc(1, len);
	if (!rep)
		return;
	rpc_encode_accepted_reply(rep, len, r->xid, RPC_SUCCESS);
	put32(rep + 24, n);
	memcpy(rep + 28, r->msg + 44, n);
	xprt_reply(r, rep, len, 28, n);
	free(rep);
}

static void sv_conn(struct xprt *x, void *arg)
{
	const struct xprt_peer_info *p = xprt_peer(x);

	(void)arg;
	printf("server: connection from %s on %s, peer private data %s\n", p->addr,
	       p->device, p->has_private_data ? "yes" : "none");
	fflush(stdout);
}

static int server(struct xprt_opts *o, int seconds)
{
	struct xprt_handlers h = { .on_call = sv_call, .on_connect = sv_conn };
	struct xprt_error err = { 0 };
	struct xprt_stats st;

	loop = xprt_loop_create(o, &err);
	if (!loop || xprt_listen(loop, &h, &err)) {
		fprintf(stderr, "xprt-live: %s\n", err.msg);
		return 2;
	}
	printf("server: listening\n");
	fflush(stdout);
	xprt_loop_run(loop, seconds > 0 ? seconds * 1000 : -1);
	xprt_loop_get_stats(loop, &st);
	printf("server: %u connections, %llu calls, %llu replies, %llu errors sent, "
	       "%llu discarded, %llu read bytes, %llu write bytes\n", st.connections,
	       (unsigned long long)st.calls_received, (unsigned long long)st.replies_sent,
	       (unsigned long long)st.errors_sent, (unsigned long long)st.discarded,
	       (unsigned long long)st.rdma_read_bytes, (unsigned long long)st.rdma_write_bytes);
	xprt_loop_destroy(loop);
	return 0;
}

/* -------- client -------- */
struct call {
	struct xprt_call c;
	bool done;
	uint8_t *reply;          /* a copy: c.reply is valid only in done */
};

static void done(struct xprt_call *c)
{
	struct call *k = c->ctx;

	k->done = true;
	k->reply = c->reply_len ? malloc(c->reply_len) : NULL;
	if (k->reply)
		memcpy(k->reply, c->reply, c->reply_len);
	c->reply = k->reply;
}

static size_t reply_pos(const uint8_t *p, size_t len, void *ctx)
{
	(void)p;
	(void)ctx;
	return len >= 28 ? 28 : (size_t)-1;
}

static bool run_call(struct xprt *x, struct call *k)
{
	int i;

	k->c.done = done;
	k->c.ctx = k;
	k->c.timeout_ms = 20000;
	if (xprt_call(x, &k->c)) {
		printf("FAIL xprt_call: %s\n", k->c.err.msg);
		return false;
	}
	for (i = 0; i < 2500 && !k->done && !quit; i++)
		xprt_loop_run(loop, 10);
	return k->done;
}

static void print_peer(struct xprt *x)
{
	const struct xprt_peer_info *p = xprt_peer(x);

	printf("peer %s dev %s pd %s", p->addr, p->device,
	       p->has_private_data ? "yes" : "none");
	if (p->has_private_data)
		printf(" (flags %#x send %u recv %u)", p->priv.pd_flags,
		       p->priv.max_send_size, p->priv.max_recv_size);
	printf(" inline send %u recv %u vers %u v2_refused %d range %u..%u "
	       "v2_dropped %d credits %u\n", p->inline_send, p->inline_recv, p->vers,
	       p->v2_refused, p->vers_low, p->vers_high, p->v2_dropped,
	       p->credits_granted);
}

static int null_call(struct xprt *x, uint32_t prog, uint32_t vers)
{
	uint8_t msg[40];
	struct call k = { 0 };
	struct rpc_msg_hdr h;

	rpc_encode_call(msg, sizeof(msg), 0, prog, vers, 0);
	k.c = (struct xprt_call){ .msg = msg, .len = 40, .reply_max = 512 };
	if (!run_call(x, &k) || k.c.err.code || k.c.rdma_error ||
	    rpc_decode_header(k.c.reply, k.c.reply_len, &h) != RPC_OK ||
	    h.reply_stat != RPC_MSG_ACCEPTED || h.accept_stat != RPC_SUCCESS) {
		printf("FAIL NULL prog %u vers %u: %s%s\n", prog, vers, k.c.err.msg,
		       k.c.rdma_error ? " (RDMA_ERROR)" : "");
		fails++;
		free(k.reply);
		return -1;
	}
	free(k.reply);
	printf("ok NULL prog %u vers %u: accepted, SUCCESS, rtt %.1f us\n", prog, vers,
	       (double)(k.c.t_done - k.c.t_start) / 1000.0);
	return 0;
}

static const char *const mode_names[] = { "auto", "inline", "read", "write", "reply", "pos0" };

static void echo_call(struct xprt *x, size_t n, enum xprt_chunk_mode mode, unsigned seed)
{
	size_t len = 44 + ((n + 3) & ~(size_t)3), i;
	uint8_t *msg = calloc(1, len);
	struct call k = { 0 };
	bool ok;

	if (!n && (mode == XPRT_CHUNK_READ || mode == XPRT_CHUNK_WRITE)) {
		free(msg);         /* nothing DDP-eligible to put in a chunk */
		return;
	}
	rpc_encode_call(msg, len, 0, PROG, 1, 1);
	put32(msg + 40, (uint32_t)n);
	for (i = 0; i < n; i++)
		msg[44 + i] = (uint8_t)(i * 7 + seed + (i >> 9));
	k.c = (struct xprt_call){ .msg = msg, .len = len, .ddp_off = 44, .ddp_len = n,
				  .reply_max = 28 + ((n + 3) & ~(size_t)3),
				  .reply_ddp_max = n, .chunk = mode,
				  .reply_ddp_pos = reply_pos };
	ok = run_call(x, &k) && !k.c.err.code && !k.c.rdma_error &&
	     k.c.reply_len == 28 + ((n + 3) & ~(size_t)3) &&
	     get32(k.c.reply + 24) == n && !memcmp(k.c.reply + 28, msg + 44, n);
	printf("%s echo %zu bytes --chunk %s: call %s reply %s inv %d%s%s\n",
	       ok ? "ok" : "FAIL", n, mode_names[mode], xprt_path_name(k.c.call_path),
	       xprt_path_name(k.c.reply_path), k.c.remote_invalidated,
	       k.c.err.msg[0] ? ": " : "",
	       k.c.rdma_error ? "RDMA_ERROR" : k.c.err.msg);
	fails += !ok;
	free(k.reply);
	free(msg);
}

int main(int argc, char **argv)
{
	struct xprt_opts o = { 0 };
	struct xprt_error err = { 0 };
	struct xprt *x;
	const char *modes = "auto", *sizes = "0,100,5000,1048576";
	bool srv = false;
	uint32_t prog = 0, pvers = 0;
	int i, seconds = 0, count = 1, c;
	struct sigaction sa = { .sa_handler = on_sig };

	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "-s")) srv = true;
		else if (!strcmp(a, "-a") && v) { o.host = v; i++; }
		else if (!strcmp(a, "-p") && v) { o.port = v; i++; }
		else if (!strcmp(a, "-V") && v) {
			o.versions = (strchr(v, '1') ? XPRT_V1 : 0) | (strchr(v, '2') ? XPRT_V2 : 0);
			i++;
		}
		else if (!strcmp(a, "-C") && v) { o.credits = (uint32_t)atoi(v); i++; }
		else if (!strcmp(a, "-t") && v) { seconds = atoi(v); i++; }
		else if (!strcmp(a, "-m") && v) { modes = v; i++; }
		else if (!strcmp(a, "-S") && v) { sizes = v; i++; }
		else if (!strcmp(a, "-c") && v) { count = atoi(v); i++; }
		else if (!strcmp(a, "-d")) o.debug++;
		else if (!strcmp(a, "-I")) o.remote_invalidate = true;
		else if (!strcmp(a, "--null") && i + 2 < argc) {
			prog = (uint32_t)strtoul(argv[i + 1], NULL, 0);
			pvers = (uint32_t)strtoul(argv[i + 2], NULL, 0);
			i += 2;
		} else if (a[0] != '-') o.host = a;
		else { fprintf(stderr, "xprt-live: bad option %s\n", a); return 2; }
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (srv)
		return server(&o, seconds);
	loop = xprt_loop_create(&o, &err);
	if (!loop) {
		printf("FAIL loop: %s (%s)\n", err.msg, xprt_errcode_name(err.code));
		return 1;
	}
	x = xprt_connect(loop, NULL, &err);
	if (!x) {
		printf("FAIL connect: %s (%s)\n", err.msg, xprt_errcode_name(err.code));
		xprt_loop_destroy(loop);
		return 1;
	}
	if (prog) {
		null_call(x, prog, pvers);
		print_peer(x);
	} else {
		for (c = 0; c < count; c++) {
			char mbuf[128], *save = NULL, *m;

			snprintf(mbuf, sizeof(mbuf), "%s", modes);
			for (m = strtok_r(mbuf, ",", &save); m; m = strtok_r(NULL, ",", &save)) {
				char sbuf[256], *s2 = NULL, *sz;
				unsigned mi;

				for (mi = 0; mi < 6 && strcmp(mode_names[mi], m); mi++)
					;
				snprintf(sbuf, sizeof(sbuf), "%s", sizes);
				for (sz = strtok_r(sbuf, ",", &s2); sz && mi < 6;
				     sz = strtok_r(NULL, ",", &s2))
					echo_call(x, strtoul(sz, NULL, 0), (enum xprt_chunk_mode)mi,
						  (unsigned)c);
			}
		}
		print_peer(x);
	}
	xprt_close(x);
	xprt_loop_run(loop, 500);
	xprt_loop_destroy(loop);
	return fails ? 1 : 0;
}
