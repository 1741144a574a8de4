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

struct nfs4_ops;

/* One end of a message, as separate fields (--json) */
struct msg_endpoint {
	const char *addr;           /* "198.18.0.1", "fe80::1", "lid:0x0001" */
	bool have_port, have_qp;
	uint16_t port;              /* iWARP: TCP port */
	uint32_t qp;                /* IB, RoCE: QP number */
};

/* A protocol violation found in the message (--check=inline) */
struct msg_finding {
	uint64_t frame;
	const char *check, *text, *section;
};

/* Chunk data the capture saw moved by RDMA Reads or Writes */
struct msg_chunk_data {
	uint64_t bytes, first, last;  /* bytes 0: none seen */
};

/* What a capture knows about a message beyond its bytes.  --hex mode passes
 * a zeroed struct (in_capture false): no capture keys are printed. */
struct msg_ctx {
	bool in_capture;
	uint64_t frame;             /* 1-based frame that completes the message */
	int64_t ts_sec;             /* capture time stamp */
	uint32_t ts_usec;
	const char *time_text;      /* the TIME column (-t); NULL: seconds since
				     * the epoch; "": no column */
	const char *file;           /* the capture file, or NULL */
	bool file_prefix;           /* text: start each line with it (several
				     * -r files) */
	const char *src, *dst;      /* one token each: "198.18.0.1:20049",
				     * "198.18.0.1/qp=0x11", "lid:0x0001/qp=?" */
	struct msg_endpoint src_ep, dst_ep;
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
	bool have_latency;          /* a reply: time since its call */
	uint64_t latency_us;
	/* NFSv4 COMPOUND operations: a call's (NULL: the printer reads them
	 * from the RPC message) or, for a reply, its call's */
	const struct nfs4_ops *ops;
	/* chunk data: read (a call), write and reply (a reply) */
	struct msg_chunk_data read_data, write_data, reply_data;
	/* --check=inline: the violations this message carries */
	const struct msg_finding *findings;
	unsigned nfindings;
};

void msgprint_json(FILE *out, const struct rpcrdma_msg *m,
		   const struct msg_ctx *c);          /* one line + '\n' */
void msgprint_tree(FILE *out, const struct rpcrdma_msg *m,
		   const struct msg_ctx *c);          /* indented, spec names */
void msgprint_line(FILE *out, const struct rpcrdma_msg *m,
		   const struct msg_ctx *c);          /* one line + '\n' */

/* 1: NFSv4 COMPOUND, 2: CB_COMPOUND (RFC 8881 §16.2, §20.2), 0: neither */
int msgprint_is_compound(uint32_t prog, uint32_t vers, uint32_t proc);

/* "COMPOUND", "READ", "CB_COMPOUND", "NULL" ... or NULL when unknown */
const char *rpc_proc_name(uint32_t prog, uint32_t vers, uint32_t proc);

#endif
