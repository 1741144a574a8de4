/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * req_main.c - rpcrdma-conform --requester's run: the transport's listener
 * with the NFSv3 responder (req_nfs.c) and the MOUNT listener over TCP
 * (req_mount.c) in one single-threaded loop, each polled in turn in short
 * slices, until SIGINT or SIGTERM (--serve); then what was served.
 */
#include <signal.h>
#include <string.h>
#include "live.h"
#include "req.h"

/* the transport's loop and the MOUNT sockets in turn, each at most this
 * long: an event of one waits at most a slice for the other */
#define SLICE_MS 5

static struct xprt_loop *volatile sig_loop;
static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
	if (sig_loop)
		xprt_loop_stop(sig_loop);
}

static struct sigaction old_int, old_term;

static void signals_on(struct xprt_loop *l)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	stop = 0;
	sig_loop = l;
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
}

static void signals_off(void)
{
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	sig_loop = NULL;
}

static void print_counts(FILE *out, const struct cf_req_counts *c)
{
	unsigned p;

	fprintf(out, "served: %llu connection(s), %llu disconnect(s), %llu READ bytes\n",
		(unsigned long long)c->connections, (unsigned long long)c->disconnects,
		(unsigned long long)c->read_bytes);
	for (p = 0; p < 22; p++)
		if (c->nfs[p])
			fprintf(out, "  NFSv3 %-12s %llu\n", nfs3_proc_name(p, 0),
				(unsigned long long)c->nfs[p]);
	for (p = 0; p < 6; p++)
		if (c->mount[p])
			fprintf(out, "  MOUNT %-12s %llu\n", nfs3_proc_name(p, 1),
				(unsigned long long)c->mount[p]);
	if (c->nfs_other || c->mount_other || c->not_rpc || c->reply_failed)
		fprintf(out, "  other calls %llu, not RPC calls %llu, replies refused %llu\n",
			(unsigned long long)(c->nfs_other + c->mount_other),
			(unsigned long long)c->not_rpc, (unsigned long long)c->reply_failed);
}

/* how long no requester may be connected, after one came and sent the
 * case's calls, before the case ends (a reconnect takes less) */
#define LEFT_MS 500

/* the case is over: our tests' requesters once end_calls calls are all
 * answered; others (the Linux client unmounting) once they came, sent the
 * case's calls and have all been gone for LEFT_MS */
static bool case_done(const struct cf_req_opts *o, const struct cf_rq_case *c,
		      const struct cf_rq_obs *ob, int64_t now, int64_t *left_since)
{
	if (o->end_calls)
		return ob->calls >= o->end_calls && ob->calls == ob->replies;
	if (!ob->connected || ob->open || ob->calls < c->min_calls) {
		*left_since = 0;
		return false;
	}
	if (!*left_since)
		*left_since = now;
	return now - *left_since >= LEFT_MS;
}

/* the listener's transport options, granting CREDITS */
static void req_xprt_opts(const struct cf_req_opts *o, uint32_t credits,
			  struct xprt_opts *xo)
{
	memset(xo, 0, sizeof(*xo));
	xo->host = o->host;
	xo->port = o->port;
	xo->debug = o->debug;
	xo->timeout_ms = o->connect_timeout_ms;
	xo->verbs = o->verbs;
	xo->credits = credits;
	xo->max_message = NFS3_SERVE_REPLY_MAX + 4096;
}

/* one case: a listener of its own granting the case's credits, watched for
 * the window (or until 8 calls are all answered), then closed */
int cf_req_run_case(const struct cf_req_opts *o, const struct cf_rq_case *c,
		    struct cf_req_counts *counts, struct cf_rq_obs *ob, char *why, size_t whylen)
{
	static struct cf_req_nfs nfs;
	struct xprt_opts xo;
	struct xprt_handlers h;
	struct xprt_error err;
	struct xprt_loop *l;
	int64_t end, left_since = 0;

	memset(ob, 0, sizeof(*ob));
	ob->grant = c->grant;
	req_xprt_opts(o, c->grant, &xo);
	/* no private data: the requester must assume V1 4.3.3's 1024 (a
	 * Version Two requester 4096, V2 2.3; our tests and the Linux client
	 * speak Version One) */
	xo.no_private_data = c->no_private_data;
	ob->inline_limit = c->no_private_data ? rpcrdma_inline_threshold(1, false) : 0;
	cf_rq_fault_setup(c, &xo, ob, o->settle_ms);   /* issue 26 item 2 */
	memset(&nfs, 0, sizeof(nfs));
	nfs.counts = counts;
	nfs.obs = ob;
	nfs.hold_ms = CF_RQ_HOLD_MS;
	cf_req_nfs_handlers(&nfs, &h);
	if (!(l = xprt_loop_create(&xo, &err)) || xprt_listen(l, &h, &err) < 0) {
		snprintf(why, whylen, "%s", err.msg);
		if (l)
			xprt_loop_destroy(l);
		return -1;
	}
	sig_loop = l;
	/* a driver outside (tests/live/cases/requester.sh) mounts when it
	 * reads this; our tests start their requesters here */
	if (o->on_case) {
		o->on_case(l, c, o->on_case_arg);
	} else {
		fprintf(stderr, "rpcrdma-conform: case %s: listening on port %s for %d ms\n",
			c->name, o->port ? o->port : XPRT_DEFAULT_PORT,
			o->window_ms ? o->window_ms : 5000);
		fflush(stderr);
	}
	end = live_now_ms() + (o->window_ms ? o->window_ms : 5000);
	while (!stop && !case_done(o, c, ob, live_now_ms(), &left_since)) {
		if (live_now_ms() >= end || xprt_loop_run(l, SLICE_MS) < 0)
			break;
		cf_req_nfs_flush(&nfs, live_now_ms(), false);
		if (o->mount && !stop)
			cf_req_mount_poll(o->mount, SLICE_MS);
	}
	cf_req_nfs_flush(&nfs, 0, true);
	xprt_loop_run(l, SLICE_MS);
	sig_loop = NULL;
	xprt_loop_destroy(l);
	if (!o->on_case) {
		fprintf(stderr, "rpcrdma-conform: case %s: done (%llu calls, %u connection(s))\n",
			c->name, (unsigned long long)ob->calls, ob->connected);
		fflush(stderr);
	}
	return 0;
}

static void mount_init(struct cf_req_mount *m, struct cf_req_counts *counts)
{
	for (int i = 0; i < CF_REQ_MOUNT_CONNS; i++)
		m->cfd[i] = -1;
	m->lfd[0] = m->lfd[1] = -1;
	m->counts = counts;
}

/* the requester cases, one after the other, with MOUNT over TCP open
 * across them: the exit status */
static int run_cases(const struct cf_req_opts *o, FILE *out)
{
	static struct cf_req_mount mnt;
	const struct cf_rq_case *table = o->faults ? cf_rq_fault_cases : cf_rq_cases;
	size_t ncases = o->faults ? cf_rq_nfault_cases : cf_rq_ncases;
	const struct cf_rq_report rep = { o->json_only ? NULL : out, o->json, ncases };
	struct cf_req_counts counts;
	struct cf_req_opts co = *o;
	unsigned n[CF_NRESULTS] = { 0 };
	char why[300];
	const char *mport = o->mount_port ? o->mount_port : CF_REQ_MOUNT_PORT;
	size_t i;
	int rc = 0;

	memset(&counts, 0, sizeof(counts));
	mount_init(&mnt, &counts);
	if (strcmp(mport, "0")) {
		if (cf_req_mount_open(&mnt, o->host, mport, why, sizeof(why)) < 0) {
			fprintf(stderr, "rpcrdma-conform: %s\n", why);
			return 3;
		}
		co.mount = &mnt;
	}
	cf_rq_report_begin(&rep, o->port ? o->port : XPRT_DEFAULT_PORT,
			   o->window_ms ? o->window_ms : 5000);
	for (i = 0; i < ncases && !stop; i++) {
		struct cf_rq_obs ob;
		struct cf_rq_grade g;

		if (cf_req_run_case(&co, &table[i], &counts, &ob, why, sizeof(why)) < 0) {
			fprintf(stderr, "rpcrdma-conform: %s\n", why);
			rc = 3;
			break;
		}
		cf_rq_grade(&table[i], &ob, &g);
		n[g.result]++;
		cf_rq_report_case(&rep, &table[i], &g);
	}
	if (co.mount)
		cf_req_mount_close(&mnt);
	if (rc)
		return rc;
	cf_rq_report_end(&rep, n);
	return n[CF_FAIL] ? 1 : 0;
}

int cf_req_main(const struct cf_req_opts *o, FILE *out)
{
	static struct cf_req_nfs nfs;
	static struct cf_req_mount mnt;
	struct cf_req_counts counts;
	struct xprt_opts xo;
	struct xprt_handlers h;
	struct xprt_error err;
	struct xprt_loop *l;
	char why[300];
	const char *mport = o->mount_port ? o->mount_port : CF_REQ_MOUNT_PORT;

	if (!o->serve) {
		int rc;

		signals_on(NULL);
		rc = run_cases(o, out);
		signals_off();
		return rc;
	}
	memset(&counts, 0, sizeof(counts));
	req_xprt_opts(o, o->credits, &xo);
	nfs.counts = &counts;
	l = xprt_loop_create(&xo, &err);
	if (!l) {
		fprintf(stderr, "rpcrdma-conform: %s\n", err.msg);
		return 3;
	}
	cf_req_nfs_handlers(&nfs, &h);
	if (xprt_listen(l, &h, &err) < 0) {
		fprintf(stderr, "rpcrdma-conform: %s\n", err.msg);
		xprt_loop_destroy(l);
		return 3;
	}
	mount_init(&mnt, &counts);
	if (strcmp(mport, "0") && cf_req_mount_open(&mnt, o->host, mport, why, sizeof(why)) < 0) {
		fprintf(stderr, "rpcrdma-conform: %s\n", why);
		xprt_loop_destroy(l);
		return 3;
	}
	signals_on(l);
	fprintf(stderr, "rpcrdma-conform: serving a read-only NFSv3 export \"/\" over RPC-over-RDMA "
		"on port %s and MOUNT v3 over TCP on port %s until interrupted\n",
		o->port ? o->port : XPRT_DEFAULT_PORT, strcmp(mport, "0") ? mport : "(none)");
	fflush(stderr);
	while (!stop) {
		if (xprt_loop_run(l, SLICE_MS) < 0)
			break;
		if (!stop)
			cf_req_mount_poll(&mnt, SLICE_MS);
	}
	signals_off();
	cf_req_mount_close(&mnt);
	xprt_loop_destroy(l);
	print_counts(out, &counts);
	return 0;
}
