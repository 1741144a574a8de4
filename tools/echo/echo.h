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
#include "echo_ulb.h"
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

/* -------- the responder (respond.c): a call to the ECHO program, in
 * either direction -------- */

struct echo_resp_stats {
	uint64_t null_calls, echo_calls, callback_calls;
	uint64_t echo_bytes;               /* ECHO data bytes served */
	uint64_t rpc_errors;               /* answered with an RPC error */
	uint64_t ddp_violations;           /* answered with ERR_BADHEADER */
	uint64_t dropped;                  /* not an RPC call: no answer */
};

enum echo_resp_result {
	ECHO_RESP_REPLIED = 0,     /* answered (successfully or not) */
	ECHO_RESP_CALLBACK,        /* a valid CALLBACK: *a for the caller */
	ECHO_RESP_DROPPED,         /* no answer */
	ECHO_RESP_FAILED,          /* the reply could not be sent */
};

/* Decode and answer a call (NULL and ECHO here; a CALLBACK is returned to
 * the caller undecided).  credits: granted in an RDMA_ERROR we build. */
enum echo_resp_result echo_respond(struct xprt_rcvd_call *r, struct echo_args *a,
				   uint32_t credits, struct echo_resp_stats *st);
/* Answer a CALLBACK with its count (from within on_call). */
int echo_reply_count(struct xprt_rcvd_call *r, uint32_t count);

/* -------- small shared helpers (util.c) -------- */
const char *echo_chunk_name(enum xprt_chunk_mode m);
/* the exit status for a transport error */
int echo_exit_for(enum xprt_errcode c);
/* print "rpcrdma-echo: msg" (err->msg) with advice */
void echo_print_xprt_error(const char *what, const struct xprt_error *e);
/* nanoseconds, CLOCK_MONOTONIC */
uint64_t echo_now_ns(void);

#endif
