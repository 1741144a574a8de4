/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * echo_ulb.h - the ECHO program and its Upper Layer Binding for
 * RPC-over-RDMA (docs/echo-ulb.md; V1 §8 (RFC 8166 §6) asks for a ULB per
 * program).  Used by rpcrdma-echo (both ends), rpcrdma-ping and
 * rpcrdma-bench.
 *
 *   program ECHO_PROG (RPC_PROG_RPCRDMA_ECHO, user-defined range), version 1
 *     0 NULL      void            -> void
 *     1 ECHO      opaque data<>   -> opaque data<>   (DDP-eligible both ways)
 *     2 CALLBACK  {uint32 count; opaque data<>} -> uint32 identical
 *                 the server replies with how many of its backward ECHO
 *                 calls on this connection have so far come back identical,
 *                 then makes `count` more with `data` on it (a later
 *                 CALLBACK with count 0 tells how those went)
 *   Backward direction: the same program and version; the client answers
 *   NULL and ECHO (backward messages never carry chunks: BIDI §4.2).
 */
#ifndef RPCRDMA_ECHO_ULB_H
#define RPCRDMA_ECHO_ULB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <rpcrdma/rpc.h>

#define ECHO_PROG RPC_PROG_RPCRDMA_ECHO
#define ECHO_VERS 1u
enum echo_proc { ECHO_PROC_NULL = 0, ECHO_PROC_ECHO = 1, ECHO_PROC_CALLBACK = 2 };

/* Bounds of the XDR (docs/echo-ulb.md "XDR"): opaque data<ECHO_DATA_MAX>;
 * CALLBACK's count and data are bounded so that each backward call and its
 * reply fit inline in 1024 bytes under either version (no chunks go
 * backward). */
#define ECHO_DATA_MAX (1u << 20)
#define ECHO_CALLBACK_COUNT_MAX 64u
#define ECHO_CALLBACK_DATA_MAX 948u
#define ECHO_CALL_HDR_LEN 40u          /* RPC call header, AUTH_NONE */
#define ECHO_REPLY_HDR_LEN 24u         /* accepted reply, AUTH_NONE verifier */

/* RPC header (40 bytes, AUTH_NONE) + arguments.  The xid is left 0 (the
 * transport sets it).  For ECHO and CALLBACK *ddp_off and *ddp_len give the
 * data bytes (after the opaque's length word); 0/0 for NULL.  data NULL
 * with len > 0: the data bytes are left for the caller to fill in place
 * (the XDR pad is written).  Returns the message length, 0 when cap is too
 * small, proc unknown or len over the bound. */
size_t echo_encode_call(uint8_t *buf, size_t cap, enum echo_proc proc,
			uint32_t count, const uint8_t *data, uint32_t len,
			size_t *ddp_off, size_t *ddp_len);

/* A reply's results: for ECHO the data (pointer into msg), for CALLBACK the
 * count.  Returns 0, or -1 when msg is not a successful ECHO-program reply
 * (accept_stat etc. in *h for the caller to report). */
int echo_decode_reply(const uint8_t *msg, size_t len, enum echo_proc proc,
		      struct rpc_msg_hdr *h, const uint8_t **data,
		      uint32_t *data_len, uint32_t *count);

/* xprt_call.reply_ddp_pos for ECHO replies: where the opaque's bytes
 * start in a reduced reply payload (after the RPC reply header and the
 * length word); (size_t)-1 when the payload is not an ECHO reply. */
size_t echo_reply_ddp_pos(const uint8_t *payload, size_t len, void *ctx);

/* The maximum reply size rule (docs/echo-ulb.md "Maximum reply size"):
 * the largest reply a responder may send to a call of `proc` with `len`
 * data bytes, and the largest DDP-eligible result in it (ECHO: len). */
size_t echo_reply_max(enum echo_proc proc, uint32_t len);
size_t echo_reply_ddp_max(enum echo_proc proc, uint32_t len);

/* -------- the responder's side (both ends: the server forward, the client
 * backward) -------- */

/* What a responder does with a call (RFC 5531 §9 reply kinds) */
enum echo_call_status {
	ECHO_CALL_OK = 0,          /* serve it */
	ECHO_CALL_NOT_RPC,         /* not an RPC call at all: discard */
	ECHO_CALL_RPC_MISMATCH,    /* rpcvers != 2: MSG_DENIED RPC_MISMATCH */
	ECHO_CALL_PROG_UNAVAIL,    /* another program */
	ECHO_CALL_PROG_MISMATCH,   /* ECHO_PROG, another version */
	ECHO_CALL_PROC_UNAVAIL,    /* unknown procedure */
	ECHO_CALL_GARBAGE_ARGS,    /* arguments do not decode or break a bound */
	ECHO_CALL_SYSTEM_ERR,      /* the responder lacks the resources */
};

struct echo_args {
	uint32_t xid;
	enum echo_proc proc;
	uint32_t count;            /* CALLBACK */
	const uint8_t *data;       /* ECHO, CALLBACK: into the message */
	uint32_t len;
	size_t data_off;           /* offset of data in the message (the XDR
				    * position a read chunk may start at) */
};

/* Decode a call to the ECHO program.  `backward`: a call from the server
 * (only NULL and ECHO, data within ECHO_CALLBACK_DATA_MAX).  *a is valid
 * for ECHO_CALL_OK; a->xid for every status but ECHO_CALL_NOT_RPC. */
enum echo_call_status echo_decode_call(const uint8_t *msg, size_t len,
				       bool backward, struct echo_args *a);
const char *echo_call_status_name(enum echo_call_status s);

/* A successful reply: NULL void, ECHO the data (data NULL: left for the
 * caller, pad written), CALLBACK the count.  *ddp_off and *ddp_len: the ECHO
 * result's bytes (0/0 otherwise).  0 when cap is too small. */
size_t echo_encode_reply(uint8_t *buf, size_t cap, uint32_t xid,
			 enum echo_proc proc, uint32_t count,
			 const uint8_t *data, uint32_t len,
			 size_t *ddp_off, size_t *ddp_len);
/* The reply a status other than ECHO_CALL_OK asks for (PROG_MISMATCH and
 * RPC_MISMATCH carry their ranges: 1..1 and 2..2); 0 for ECHO_CALL_OK and
 * ECHO_CALL_NOT_RPC or when cap is too small. */
size_t echo_encode_error(uint8_t *buf, size_t cap, uint32_t xid,
			 enum echo_call_status s);

#endif
