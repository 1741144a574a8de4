/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * req_main.c - rpcrdma-conform --requester's run: the transport's listener
 * with the NFSv3 responder (req_nfs.c) and the MOUNT listener over TCP
 * (req_mount.c) in one single-threaded loop, each polled in turn in short
 * slices, until SIGINT or SIGTERM (--serve); then what was served.
 */
#include <signal.h>
#include <string.h>
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

int cf_req_main(const struct cf_req_opts *o, FILE *out)
{
	static struct cf_req_nfs nfs;
	static struct cf_req_mount mnt;
	struct cf_req_counts counts;
	struct xprt_opts xo;
	struct xprt_handlers h;
	struct xprt_error err;
	struct sigaction sa, old_int, old_term;
	struct xprt_loop *l;
	char why[300];
	const char *mport = o->mount_port ? o->mount_port : CF_REQ_MOUNT_PORT;

	memset(&counts, 0, sizeof(counts));
	memset(&xo, 0, sizeof(xo));
	xo.host = o->host;
	xo.port = o->port;
	xo.debug = o->debug;
	xo.timeout_ms = o->connect_timeout_ms;
	xo.verbs = o->verbs;
	xo.credits = o->credits;
	xo.max_message = NFS3_SERVE_REPLY_MAX + 4096;
	nfs.counts = &counts;
	mnt.counts = &counts;
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
	for (int i = 0; i < CF_REQ_MOUNT_CONNS; i++)
		mnt.cfd[i] = -1;
	mnt.lfd[0] = mnt.lfd[1] = -1;
	if (strcmp(mport, "0") && cf_req_mount_open(&mnt, o->host, mport, why, sizeof(why)) < 0) {
		fprintf(stderr, "rpcrdma-conform: %s\n", why);
		xprt_loop_destroy(l);
		return 3;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	stop = 0;
	sig_loop = l;
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
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
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	sig_loop = NULL;
	cf_req_mount_close(&mnt);
	xprt_loop_destroy(l);
	print_counts(out, &counts);
	return 0;
}
