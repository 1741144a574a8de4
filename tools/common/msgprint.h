/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * msgprint.h - printing one decoded RPC-over-RDMA message: the --json
 * object, the -V tree and the one-line summary.  Shared by --hex mode and
 * capture mode so both speak exactly the same keys and names.
 */
#ifndef RPCRDMA_MSGPRINT_H
#define RPCRDMA_MSGPRINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "rpcrdma/codec.h"

/* What a capture knows about a message beyond its bytes.  --hex mode passes
 * a zeroed struct (in_capture false): no capture keys are printed. */
struct msg_ctx {
	bool in_capture;
	uint64_t frame;             /* 1-based frame that completes the message */
	int64_t ts_sec;             /* capture time stamp */
	uint32_t ts_usec;
	const char *src, *dst;      /* "198.18.0.1:20049", "fe80::1/qp 0x11" ... */
	const char *transport;      /* "rocev2" "rocev1" "infiniband" "iwarp" */
	uint32_t conversation;      /* 1-based */
	bool backward;              /* backward direction (BIDI 2.2): a call
				     * from the server, a reply from the client */
	uint64_t first_frame;       /* first packet of a multi-packet Send */
	uint32_t nframes;           /* packets of the Send (0 or 1: one) */

	/* The whole RPC message when it was rebuilt from chunks; NULL: the
	 * inline payload is the RPC message (or its reduced form). */
	const uint8_t *rpc;
	size_t rpc_len;
	const char *rpc_source;     /* "inline", "read chunk", "reply chunk",
				     * "position-zero read chunk", ... */
	/* For a reply: the call it answers, when the capture holds it. */
	bool have_call;
	uint32_t call_prog, call_vers, call_proc;
	uint64_t call_frame;
};

void msgprint_json(FILE *out, const struct rpcrdma_msg *m,
		   const struct msg_ctx *c);          /* one line + '\n' */
void msgprint_tree(FILE *out, const struct rpcrdma_msg *m,
		   const struct msg_ctx *c);          /* indented, spec names */
void msgprint_line(FILE *out, const struct rpcrdma_msg *m,
		   const struct msg_ctx *c);          /* one line + '\n' */

/* "COMPOUND", "READ", "CB_COMPOUND", "NULL" ... or NULL when unknown */
const char *rpc_proc_name(uint32_t prog, uint32_t vers, uint32_t proc);

#endif
