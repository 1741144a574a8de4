/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * echo_respond.h - the ECHO program's responder over the transport
 * (tools/transport/xprt.h), for every end that answers ECHO calls: a call
 * in either direction decoded by the ULB (echo_ulb.h), what the requester
 * reduced checked (V1 §8.1.1), NULL and ECHO answered; a CALLBACK is the
 * caller's (it answers with echo_reply_count() and makes its calls).
 */
#ifndef RPCRDMA_ECHO_RESPOND_H
#define RPCRDMA_ECHO_RESPOND_H

#include <stdint.h>
#include "echo_ulb.h"
#include "xprt.h"

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

#endif
