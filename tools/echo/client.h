/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * client.h - rpcrdma-echo's client state, shared by the call engine
 * (client.c) and its output (client_out.c: text like ping(8), or JSON
 * Lines; man/rpcrdma-echo.1, OUTPUT FORMAT).
 */
#ifndef RPCRDMA_ECHO_CLIENT_H
#define RPCRDMA_ECHO_CLIENT_H

#include "echo.h"
#include "json.h"
#include "outbuf.h"

enum call_status {
	CS_OK = 0,
	CS_MISMATCH,       /* reply data not identical */
	CS_RDMA_ERROR,     /* an RDMA_ERROR came back */
	CS_RPC_ERROR,      /* an RPC-level error reply (or CALLBACK count off) */
	CS_BAD_REPLY,      /* the reply does not decode */
	CS_TIMEOUT,
	CS_LOST,           /* the connection went away */
	CS_FAILED,         /* the transport could not send it */
	CS_COUNT_
};

struct slot {                      /* one call in flight */
	struct xprt_call c;
	struct client *cl;
	uint8_t *msg;
	size_t cap;
	uint64_t seq;
	enum echo_proc proc;
	uint32_t size;                 /* ECHO/CALLBACK data bytes */
	enum xprt_chunk_mode chunk;    /* ECHO: the --chunk mode */
	size_t ddp_off;
	uint64_t t0;                   /* our own clock, when the transport's is 0 */
	uint32_t result;               /* CALLBACK's reply */
	bool busy;
};

enum phase { PH_NULL, PH_ECHO, PH_CALLBACK, PH_WAIT_BACKWARD, PH_CHECK, PH_DONE };

struct client {
	const struct echo_opts *o;
	struct xprt_loop *l;
	struct xprt *x;
	struct slot *slots;
	uint32_t nslots;
	enum phase phase;
	bool finished, closing, lost;
	char peer[80];
	struct xprt_peer_info info;    /* snapshots, taken while x lives */
	struct xprt_stats xs;
	bool have_info;

	/* calls */
	uint64_t seq;                  /* the next call's number */
	uint64_t echo_total;           /* ECHO calls to make, 0: until stopped */
	uint64_t echo_issued, echo_done;
	uint64_t calls, replies, identical, echo_bytes;
	uint64_t status[CS_COUNT_];
	uint64_t call_paths[5], reply_paths[5];
	uint64_t rtt_min, rtt_max, rtt_n;
	double rtt_sum, rtt_sumsq;     /* ns */
	uint64_t t_begin, t_end;

	/* backward: CALLBACK(n), the n calls, CALLBACK(0) */
	uint8_t cb_data[ECHO_CALLBACK_DATA_MAX];
	uint32_t cb_len;
	uint64_t bw_received, bw_identical;
	uint32_t r0, r1;
	bool have_r0, have_r1, bw_timeout;
	uint64_t deadline_ns;
	struct echo_resp_stats bst;

	/* output */
	FILE *out;
	struct obuf ob;
	struct json j;
};

/* client_out.c */
void snapshot(struct client *cl);
void out_start(struct client *cl);
void out_call(struct client *cl, const struct slot *s, enum call_status st,
	      const char *detail, uint64_t rtt_ns);
void out_summary(struct client *cl, int rc, bool interrupted);
const char *call_status_name(enum call_status s);

#endif
