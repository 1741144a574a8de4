/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * echo_ulb.c - the ECHO program's XDR (RFC 5531 §9 call and reply bodies,
 * RFC 4506 opaque<>) and its Upper Layer Binding rules: DDP-eligible items,
 * the maximum reply size, the backward-direction limits (docs/echo-ulb.md;
 * V1 §8.1, §8.2; BIDI §7).  Every length is checked before use; nothing is
 * allocated.
 */
#include <string.h>
#include "be.h"
#include "echo_ulb.h"

/* RFC 4506 §4.10: an opaque's bytes are padded to a multiple of four */
static size_t roundup4(size_t n)
{
	return (n + 3) & ~(size_t)3;
}

static void set_ddp(size_t *off, size_t *len, size_t o, size_t l)
{
	if (off)
		*off = o;
	if (len)
		*len = l;
}

/* opaque<> at buf: length word, bytes (copied unless data is NULL), pad */
static size_t put_opaque(uint8_t *buf, const uint8_t *data, uint32_t len)
{
	size_t pad = roundup4(len) - len;

	be32_put(buf, len);
	if (data && len)
		memcpy(buf + 4, data, len);
	memset(buf + 4 + len, 0, pad);
	return 4 + len + pad;
}

/* The bytes a procedure's arguments take, or 0 for an unknown procedure or
 * a length over the bound. */
static size_t args_len(enum echo_proc proc, uint32_t len)
{
	if (len > ECHO_DATA_MAX)
		return 0;
	switch (proc) {
	case ECHO_PROC_NULL: return 0;
	case ECHO_PROC_ECHO: return 4 + roundup4(len);
	case ECHO_PROC_CALLBACK: return 8 + roundup4(len);
	}
	return 0;
}

size_t echo_encode_call(uint8_t *buf, size_t cap, enum echo_proc proc,
			uint32_t count, const uint8_t *data, uint32_t len,
			size_t *ddp_off, size_t *ddp_len)
{
	size_t n = ECHO_CALL_HDR_LEN, a;

	set_ddp(ddp_off, ddp_len, 0, 0);
	if (proc != ECHO_PROC_NULL && proc != ECHO_PROC_ECHO &&
	    proc != ECHO_PROC_CALLBACK)
		return 0;
	if (proc == ECHO_PROC_NULL && len)
		return 0;
	a = args_len(proc, len);
	if (proc != ECHO_PROC_NULL && !a)
		return 0;
	if (cap < n + a || rpc_encode_call(buf, cap, 0, ECHO_PROG, ECHO_VERS,
					   (uint32_t)proc) != n)
		return 0;
	if (proc == ECHO_PROC_CALLBACK) {
		be32_put(buf + n, count);
		n += 4;
	}
	if (proc != ECHO_PROC_NULL) {
		set_ddp(ddp_off, ddp_len, n + 4, len);
		n += put_opaque(buf + n, data, len);
	}
	return n;
}

/* An accepted, successful reply header: its body offset, or 0 */
static size_t success_body(const uint8_t *msg, size_t len, struct rpc_msg_hdr *h)
{
	if (rpc_decode_header(msg, len, h) != RPC_OK ||
	    h->msg_type != RPC_REPLY || h->reply_stat != RPC_MSG_ACCEPTED ||
	    h->accept_stat != RPC_SUCCESS)
		return 0;
	return h->body_off;
}

int echo_decode_reply(const uint8_t *msg, size_t len, enum echo_proc proc,
		      struct rpc_msg_hdr *h, const uint8_t **data,
		      uint32_t *data_len, uint32_t *count)
{
	struct rpc_msg_hdr local;
	size_t off, left;
	uint32_t n;

	if (!h)
		h = &local;
	off = success_body(msg, len, h);
	if (!off)
		return -1;
	left = len - off;
	switch (proc) {
	case ECHO_PROC_NULL:
		return left == 0 ? 0 : -1;
	case ECHO_PROC_CALLBACK:
		if (left != 4)
			return -1;
		if (count)
			*count = be32_get(msg + off);
		return 0;
	case ECHO_PROC_ECHO:
		if (left < 4)
			return -1;
		n = be32_get(msg + off);
		/* strict XDR: the pad is there (the transport restores a
		 * write chunk's, V1 §4.4.6.1; D-ULB-2) */
		if (n > ECHO_DATA_MAX ||
		    left - 4 != roundup4(n))
			return -1;
		if (data)
			*data = msg + off + 4;
		if (data_len)
			*data_len = n;
		return 0;
	}
	return -1;
}

size_t echo_reply_ddp_pos(const uint8_t *payload, size_t len, void *ctx)
{
	struct rpc_msg_hdr h;
	size_t off = success_body(payload, len, &h);

	(void)ctx;
	/* reduced: the length word stays, the bytes (and pad) went */
	if (!off || len - off != 4 || be32_get(payload + off) > ECHO_DATA_MAX)
		return (size_t)-1;
	return off + 4;
}

size_t echo_reply_max(enum echo_proc proc, uint32_t len)
{
	size_t results = 0;

	if (proc == ECHO_PROC_ECHO)
		results = 4 + roundup4(len > ECHO_DATA_MAX ? ECHO_DATA_MAX : len);
	else if (proc == ECHO_PROC_CALLBACK)
		results = 4;
	/* any error reply (PROG_MISMATCH with its range) is at most 32 */
	return ECHO_REPLY_HDR_LEN + (results > 8 ? results : 8);
}

size_t echo_reply_ddp_max(enum echo_proc proc, uint32_t len)
{
	if (proc != ECHO_PROC_ECHO)
		return 0;
	return len > ECHO_DATA_MAX ? ECHO_DATA_MAX : len;
}

/* -------- the responder's side -------- */

/* opaque<max> at msg[off..len): exactly to the end of the message, pad
 * included (restoring a read chunk's round-up is the transport's job,
 * V1 §4.4.5.1; docs/spec-decisions.md D-ULB-2) */
static bool get_opaque(const uint8_t *msg, size_t len, size_t off,
		       uint32_t max, struct echo_args *a)
{
	uint32_t n;

	if (len - off < 4)
		return false;
	n = be32_get(msg + off);
	/* where the data item starts, even when its length does not match
	 * the bytes left: a read chunk placed there is at the DDP-eligible
	 * item (V1 §8.1.1), only its count is wrong (§5.5.2 GARBAGE_ARGS) */
	a->data_off = off + 4;
	if (n > max || len - off - 4 != roundup4(n))
		return false;
	a->data = msg + off + 4;
	a->len = n;
	return true;
}

enum echo_call_status echo_decode_call(const uint8_t *msg, size_t len,
				       bool backward, struct echo_args *a)
{
	struct rpc_msg_hdr h;
	enum rpc_result r;
	size_t off;

	memset(a, 0, sizeof(*a));
	r = rpc_decode_header(msg, len, &h);
	if (len < 12 || be32_get(msg + 4) != RPC_CALL)
		return ECHO_CALL_NOT_RPC;
	a->xid = be32_get(msg);
	if (rpc_call_other_version(r, &h))
		return ECHO_CALL_RPC_MISMATCH;
	if (r != RPC_OK)
		return ECHO_CALL_NOT_RPC;    /* cut short or a bad auth length */
	if (h.prog != ECHO_PROG)
		return ECHO_CALL_PROG_UNAVAIL;
	if (h.vers != ECHO_VERS)
		return ECHO_CALL_PROG_MISMATCH;
	off = h.body_off;
	switch (h.proc) {
	case ECHO_PROC_NULL:
		a->proc = ECHO_PROC_NULL;
		return off == len ? ECHO_CALL_OK : ECHO_CALL_GARBAGE_ARGS;
	case ECHO_PROC_ECHO:
		a->proc = ECHO_PROC_ECHO;
		return get_opaque(msg, len, off, backward ? ECHO_CALLBACK_DATA_MAX :
				  ECHO_DATA_MAX, a) ? ECHO_CALL_OK :
			ECHO_CALL_GARBAGE_ARGS;
	case ECHO_PROC_CALLBACK:
		if (backward)
			return ECHO_CALL_PROC_UNAVAIL;
		a->proc = ECHO_PROC_CALLBACK;
		if (len - off < 4)
			return ECHO_CALL_GARBAGE_ARGS;
		a->count = be32_get(msg + off);
		if (a->count > ECHO_CALLBACK_COUNT_MAX ||
		    !get_opaque(msg, len, off + 4, ECHO_CALLBACK_DATA_MAX, a))
			return ECHO_CALL_GARBAGE_ARGS;
		return ECHO_CALL_OK;
	}
	return ECHO_CALL_PROC_UNAVAIL;
}

const char *echo_call_status_name(enum echo_call_status s)
{
	static const char *const names[] = {
		"ok", "not-rpc", "rpc-mismatch", "prog-unavail",
		"prog-mismatch", "proc-unavail", "garbage-args", "system-err",
	};

	return (unsigned)s < sizeof(names) / sizeof(names[0]) ? names[s] : "unknown";
}

size_t echo_encode_reply(uint8_t *buf, size_t cap, uint32_t xid,
			 enum echo_proc proc, uint32_t count,
			 const uint8_t *data, uint32_t len,
			 size_t *ddp_off, size_t *ddp_len)
{
	size_t n = ECHO_REPLY_HDR_LEN, res;

	set_ddp(ddp_off, ddp_len, 0, 0);
	switch (proc) {
	case ECHO_PROC_NULL: res = 0; break;
	case ECHO_PROC_CALLBACK: res = 4; break;
	case ECHO_PROC_ECHO:
		if (len > ECHO_DATA_MAX)
			return 0;
		res = 4 + roundup4(len);
		break;
	default: return 0;
	}
	if (cap < n + res ||
	    rpc_encode_accepted_reply(buf, cap, xid, RPC_SUCCESS) != n)
		return 0;
	if (proc == ECHO_PROC_CALLBACK) {
		be32_put(buf + n, count);
		n += 4;
	} else if (proc == ECHO_PROC_ECHO) {
		set_ddp(ddp_off, ddp_len, n + 4, len);
		n += put_opaque(buf + n, data, len);
	}
	return n;
}

size_t echo_encode_error(uint8_t *buf, size_t cap, uint32_t xid,
			 enum echo_call_status s)
{
	static const uint32_t accept_stat[] = {
		[ECHO_CALL_PROG_UNAVAIL] = RPC_PROG_UNAVAIL,
		[ECHO_CALL_PROG_MISMATCH] = RPC_PROG_MISMATCH,
		[ECHO_CALL_PROC_UNAVAIL] = RPC_PROC_UNAVAIL,
		[ECHO_CALL_GARBAGE_ARGS] = RPC_GARBAGE_ARGS,
		[ECHO_CALL_SYSTEM_ERR] = RPC_SYSTEM_ERR,
	};
	size_t n;

	switch (s) {
	case ECHO_CALL_RPC_MISMATCH:
		/* xid, REPLY, MSG_DENIED, RPC_MISMATCH, low 2, high 2 */
		if (cap < 24)
			return 0;
		be32_put(buf, xid);
		be32_put(buf + 4, RPC_REPLY);
		be32_put(buf + 8, RPC_MSG_DENIED);
		be32_put(buf + 12, RPC_MISMATCH);
		be32_put(buf + 16, RPC_VERSION);
		be32_put(buf + 20, RPC_VERSION);
		return 24;
	case ECHO_CALL_PROG_UNAVAIL:
	case ECHO_CALL_PROC_UNAVAIL:
	case ECHO_CALL_GARBAGE_ARGS:
	case ECHO_CALL_SYSTEM_ERR:
	case ECHO_CALL_PROG_MISMATCH:
		n = rpc_encode_accepted_reply(buf, cap, xid, accept_stat[s]);
		if (!n || s != ECHO_CALL_PROG_MISMATCH)
			return n;
		if (cap < n + 8)
			return 0;
		be32_put(buf + n, ECHO_VERS);        /* mismatch_info low, high */
		be32_put(buf + n + 4, ECHO_VERS);
		return n + 8;
	case ECHO_CALL_OK:
	case ECHO_CALL_NOT_RPC:
		break;
	}
	return 0;
}
