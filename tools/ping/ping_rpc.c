/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ping_rpc.c - the RPC side of a ping (RFC 5531 §9): the call (AUTH_NONE,
 * optionally followed by zero bytes, for the inline-threshold probe of a
 * program that does not echo), and what its reply says, decoded by
 * libcodec's rpc_decode_header(): success, or which of the accepted or
 * denied errors, with the version ranges PROG_MISMATCH and RPC_MISMATCH
 * carry.
 */
#include <string.h>
#include "ping.h"
#include "rpcrdma/rpc.h"

size_t ping_rpc_call(uint8_t *buf, size_t cap, uint32_t prog, uint32_t vers,
		     uint32_t proc, size_t pad)
{
	size_t n = rpc_encode_call(buf, cap, 0, prog, vers, proc);

	if (!n || pad > cap - n)
		return 0;
	memset(buf + n, 0, pad);
	return n + pad;
}

static enum ping_rpc_status accepted(uint32_t stat)
{
	switch (stat) {
	case RPC_SUCCESS: return PING_RPC_SUCCESS;
	case RPC_PROG_UNAVAIL: return PING_RPC_PROG_UNAVAIL;
	case RPC_PROG_MISMATCH: return PING_RPC_PROG_MISMATCH;
	case RPC_PROC_UNAVAIL: return PING_RPC_PROC_UNAVAIL;
	case RPC_GARBAGE_ARGS: return PING_RPC_GARBAGE_ARGS;
	case RPC_SYSTEM_ERR: return PING_RPC_SYSTEM_ERR;
	default: return PING_RPC_ACCEPT_OTHER;
	}
}

void ping_rpc_judge(const uint8_t *msg, size_t len, uint32_t xid,
		    struct ping_rpc_result *r)
{
	struct rpc_msg_hdr h;

	memset(r, 0, sizeof(*r));
	if (!msg || rpc_decode_header(msg, len, &h) != RPC_OK) {
		r->status = PING_RPC_MALFORMED;
		return;
	}
	r->xid = h.xid;
	r->body_off = h.body_off;
	if (h.msg_type != RPC_REPLY) {
		r->status = PING_RPC_NOT_REPLY;
		return;
	}
	if (h.xid != xid) {
		r->status = PING_RPC_XID_MISMATCH;
		return;
	}
	if (h.reply_stat == RPC_MSG_ACCEPTED) {
		r->stat = h.accept_stat;
		r->status = accepted(h.accept_stat);
		if (r->status == PING_RPC_PROG_MISMATCH) {
			r->low = h.mismatch_low;
			r->high = h.mismatch_high;
		}
		return;
	}
	if (h.reject_stat == RPC_MISMATCH) {
		r->status = PING_RPC_RPC_MISMATCH;
		r->low = h.mismatch_low;
		r->high = h.mismatch_high;
	} else if (h.reject_stat == RPC_AUTH_ERROR) {
		r->status = PING_RPC_AUTH_ERROR;
		r->stat = h.auth_stat;
	} else {
		r->status = PING_RPC_DENIED_OTHER;
		r->stat = h.reject_stat;
	}
}

const char *ping_rpc_status_name(enum ping_rpc_status s)
{
	static const char *const names[] = {
		[PING_RPC_SUCCESS] = "SUCCESS",
		[PING_RPC_PROG_UNAVAIL] = "PROG_UNAVAIL",
		[PING_RPC_PROG_MISMATCH] = "PROG_MISMATCH",
		[PING_RPC_PROC_UNAVAIL] = "PROC_UNAVAIL",
		[PING_RPC_GARBAGE_ARGS] = "GARBAGE_ARGS",
		[PING_RPC_SYSTEM_ERR] = "SYSTEM_ERR",
		[PING_RPC_ACCEPT_OTHER] = "accept_stat",
		[PING_RPC_RPC_MISMATCH] = "RPC_MISMATCH",
		[PING_RPC_AUTH_ERROR] = "AUTH_ERROR",
		[PING_RPC_DENIED_OTHER] = "reject_stat",
		[PING_RPC_MALFORMED] = "malformed",
		[PING_RPC_NOT_REPLY] = "not-a-reply",
		[PING_RPC_XID_MISMATCH] = "xid-mismatch",
	};

	return (unsigned)s < sizeof(names) / sizeof(names[0]) && names[s] ?
	       names[s] : "unknown";
}
