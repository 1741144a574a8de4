/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * echo.h - rpcrdma-echo, client and server of the ECHO program
 * (docs/echo-ulb.md) over the RPC-over-RDMA transport (tools/transport):
 * the options main.c parses, the two modes, the responder both ends share,
 * and the exit statuses (man/rpcrdma-echo.1, EXIT STATUS).
 */
#ifndef RPCRDMA_ECHO_H
#define RPCRDMA_ECHO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "echo_respond.h"
#include "live.h"
#include "xprt.h"

#define PROG "rpcrdma-echo"

enum echo_exit {
	ECHO_EXIT_OK = 0,
	ECHO_EXIT_FAILED = 1,      /* a call failed: no reply, an error reply,
				    * data not identical, backward calls missing */
	ECHO_EXIT_USAGE = 2,
	ECHO_EXIT_CONNECT = 3,     /* no connection (or the listener could not
				    * be set up), or the connection was lost */
	ECHO_EXIT_INTERNAL = 4,    /* out of memory, output error */
};

#define ECHO_MAX_SIZES 32
#define ECHO_MAX_CHUNKS 6

struct echo_opts {
	bool server;
	struct xprt_opts x;        /* host, port, family, versions, credits,
				    * thresholds, poll, timeout, misbehave */
	bool json, verbose, quiet;

	/* client */
	uint32_t count;            /* rounds over the sizes; 0: until SIGINT */
	uint32_t sizes[ECHO_MAX_SIZES];
	unsigned nsizes;
	enum xprt_chunk_mode chunks[ECHO_MAX_CHUNKS];  /* taken in turn */
	unsigned nchunks;
	uint32_t depth;            /* calls outstanding at once */
	uint32_t backward;         /* CALLBACK count after the calls */
	bool null_only;            /* NULL calls only */
	uint32_t prog, prog_vers;  /* the program NULL is sent to */
	int call_timeout_ms;
};

int echo_client_main(const struct echo_opts *o);
int echo_server_main(const struct echo_opts *o);

/* The same on a loop of the caller's (a server and its clients in one
 * process share one: the tests over the fake verbs), output to `out`.
 * The client connects with o->x, runs, closes; returns the exit status.
 * The server listens with o->x until echo_server_finish() (close every
 * connection, print the summary); echo_server_free() after the loop is
 * destroyed (it may still complete backward calls). */
struct server;
int echo_client_run(const struct echo_opts *o, struct xprt_loop *l, FILE *out);
struct server *echo_server_start(const struct echo_opts *o, struct xprt_loop *l,
				 FILE *out, struct xprt_error *err);
void echo_server_finish(struct server *sv);
void echo_server_free(struct server *sv);

/* -------- small shared helpers (util.c) -------- */
/* the exit status for a transport error */
int echo_exit_for(enum xprt_errcode c);
/* print "rpcrdma-echo: msg" (err->msg) with advice */
void echo_print_xprt_error(const char *what, const struct xprt_error *e);

#endif
