/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * server.h - rpcrdma-echo's server state, shared by the serving code
 * (server.c) and its output (server_out.c; man/rpcrdma-echo.1, OUTPUT
 * FORMAT).
 */
#ifndef RPCRDMA_ECHO_SERVER_H
#define RPCRDMA_ECHO_SERVER_H

#include "echo.h"
#include "json.h"
#include "outbuf.h"

/* A server keeps this many connection records for its summary; older
 * closed ones are folded into the totals only. */
#define CONN_RECORDS_MAX 4096u
/* backward calls outstanding on one connection at most (docs/echo-ulb.md) */
#define BACKWARD_PENDING_MAX 256u

struct bcall;

struct conn_counts {
	struct echo_resp_stats st;
	uint64_t bw_sent, bw_identical, bw_failed;
	struct xprt_stats xs;          /* the transport's, at close (or now) */
};

struct conn {
	struct server *sv;
	struct xprt *x;                /* NULL once closed */
	unsigned id;
	char addr[64], device[32];
	uint32_t vers;
	struct conn_counts n;
	uint32_t bw_pending;
	struct bcall *bcalls;          /* outstanding backward calls */
	uint64_t t_open, t_close;
	enum xprt_disc_reason why;
	struct conn *next;
};

struct server {
	const struct echo_opts *o;
	struct xprt_loop *l;
	struct conn *conns, **tail;    /* records, oldest first */
	unsigned nconns, nrecords, open;
	struct conn_counts total;      /* of the records dropped */
	uint64_t dropped_records;
	FILE *out;
	struct xprt_handlers h;
	struct obuf ob;
	struct json j;
};

/* server_out.c */
void sv_out_listening(struct server *sv);
void sv_out_connect(struct server *sv, const struct conn *c);
void sv_out_call(struct server *sv, const struct conn *c, const struct echo_args *a,
		 const struct xprt_rcvd_call *r);
void sv_out_disconnect(struct server *sv, const struct conn *c);
void sv_out_summary(struct server *sv);
void conn_counts_add(struct conn_counts *t, const struct conn_counts *c);

#endif
