/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * msgprint_int.h - what the three printers share: which parts of a
 * decoded message the bytes reached (docs/verdicts.md), and the RPC header
 * to show for it (RFC 5531 §9 via rpc_decode_header()).
 */
#ifndef RPCRDMA_MSGPRINT_INT_H
#define RPCRDMA_MSGPRINT_INT_H

#include <stdbool.h>
#include <stdint.h>
#include "msgprint.h"
#include "nfs4_ops.h"

/* The RPC message header shown for a transport message */
struct rpc_view {
	bool present;                  /* at least the RPC xid is there */
	bool has_msg_type;
	bool has_call_info;            /* prog, vers, proc known */
	bool from_call;                /* ... taken from the matched call */
	uint32_t xid, msg_type, prog, vers, proc;
	bool has_call_frame;
	uint64_t call_frame;
	bool has_ops;                  /* NFSv4 COMPOUND / CB_COMPOUND */
	bool cb;                       /* ... of the callback program */
	const struct nfs4_ops *ops;    /* has_ops: the capture's, or own */
	struct nfs4_ops own;           /* read from the RPC message here */
};

void msgprint_rpc_view(const struct rpcrdma_msg *m, const struct msg_ctx *c,
		       struct rpc_view *v);

/* rdma_vers is 1 or 2 and all four prefix words are present */
static inline bool mp_has_body(const struct rpcrdma_msg *m)
{
	return m->nfixed == 4 && (m->rdma_vers == RPCRDMA_VERSION_ONE ||
				  m->rdma_vers == RPCRDMA_VERSION_TWO);
}

/* RDMA_MSG / RDMA_NOMSG: the message carries chunk lists */
static inline bool mp_is_chunked(const struct rpcrdma_msg *m)
{
	return mp_has_body(m) &&
	       (m->rdma_proc == RDMA_MSG || m->rdma_proc == RDMA_NOMSG);
}

/* RDMA_ERROR: in any version, since rdma_err and the ERR_VERS arm sit at
 * the same place in all (V1 §9.1; libcodec reads them, D-ERR-3) */
static inline bool mp_is_error(const struct rpcrdma_msg *m)
{
	return m->nfixed == 4 && m->rdma_proc == RDMA_ERROR && m->has_err;
}

static inline bool mp_is_optional(const struct rpcrdma_msg *m)
{
	return mp_has_body(m) && m->rdma_vers == RPCRDMA_VERSION_TWO &&
	       m->rdma_proc == RDMA2_OPTIONAL && m->has_direction_word;
}

/* ERR_VERS: rdma_vers_low at byte 20, rdma_vers_high at byte 24 */
static inline bool mp_has_vers_low(const struct rpcrdma_msg *m)
{
	return m->rdma_err == RDMA_ERR_VERS && m->len >= 24;
}

static inline bool mp_has_vers_high(const struct rpcrdma_msg *m)
{
	return m->rdma_err == RDMA_ERR_VERS && m->len >= 28;
}

/* The error reply the verdict calls for, credits = rdma_credit or 1 when
 * it is 0 or absent; returns its length (0: none).  buf holds 64 bytes. */
size_t msgprint_error_reply(const struct rpcrdma_msg *m, uint8_t buf[64]);

/* Pieces of a text line both the -V tree (msgprint_text.c) and the
 * one-line summary (msgprint_line.c) print */
struct obuf;
struct rpc_view;
void mp_put_notes(struct obuf *o, const struct rpcrdma_msg *m, const char *sep);
void mp_put_rpc_call(struct obuf *o, const struct rpc_view *v);
void mp_put_rpc_kind(struct obuf *o, const struct rpc_view *v);
void mp_put_ops(struct obuf *o, const struct rpc_view *v);
void mp_put_file(struct obuf *o, const struct msg_ctx *c);
void mp_put_time(struct obuf *o, const struct msg_ctx *c);
void mp_put_findings(struct obuf *o, const struct msg_ctx *c);

#endif
