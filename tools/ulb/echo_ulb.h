/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * echo_ulb.h - the ECHO program and its Upper Layer Binding for
 * RPC-over-RDMA (docs/echo-ulb.md; V1 §6 asks for a ULB per program).
 * Used by rpcrdma-echo (both ends), rpcrdma-ping and rpcrdma-bench.
 *
 *   program ECHO_PROG (RPC_PROG_RPCRDMA_ECHO, user-defined range), version 1
 *     0 NULL      void            -> void
 *     1 ECHO      opaque data<>   -> opaque data<>   (DDP-eligible both ways)
 *     2 CALLBACK  {uint32 count; opaque data<>} -> uint32 ok
 *                 the server makes `count` backward-direction ECHO calls
 *                 with `data` on the calling connection, then replies with
 *                 how many came back identical
 *   Backward direction: the same program and version; the client answers
 *   NULL and ECHO (backward messages never carry chunks: BIDI §4.2).
 */
#ifndef RPCRDMA_ECHO_ULB_H
#define RPCRDMA_ECHO_ULB_H

#include <stddef.h>
#include <stdint.h>
#include <rpcrdma/rpc.h>

#define ECHO_PROG RPC_PROG_RPCRDMA_ECHO
#define ECHO_VERS 1u
enum echo_proc { ECHO_PROC_NULL = 0, ECHO_PROC_ECHO = 1, ECHO_PROC_CALLBACK = 2 };

/* RPC header (40 bytes, AUTH_NONE) + arguments.  The xid is left 0 (the
 * transport sets it).  For ECHO and CALLBACK *ddp_off/*ddp_len give the
 * data bytes (after the opaque's length word); 0/0 for NULL.  Returns the
 * message length, 0 when cap is too small. */
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

#endif
