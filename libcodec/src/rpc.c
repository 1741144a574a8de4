/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * rpc.c - ONC RPC message headers, RFC 5531 §9 (rpc_msg, call_body,
 * reply_body, opaque_auth), read and written with the bounds-checked cursor.
 */
#include "rpcrdma/rpc.h"
#include "xdrc.h"

static enum rpc_result short_at(struct rpc_msg_hdr *h, const struct xdrc *x)
{
	h->fault_off = x->off;
	return RPC_TRUNCATED;
}

static enum rpc_result bad_at(struct rpc_msg_hdr *h, uint32_t off)
{
	h->fault_off = off;
	return RPC_MALFORMED;
}

/* opaque_auth: flavor, body<400> */
static enum rpc_result decode_opaque_auth(struct xdrc *x, struct rpc_msg_hdr *h,
					  uint32_t *flavor, uint32_t *len)
{
	uint32_t off;

	if (!xdrc_get_u32(x, flavor))
		return short_at(h, x);
	off = x->off;
	if (!xdrc_get_u32(x, len))
		return short_at(h, x);
	if (*len > RPC_MAX_AUTH_BYTES)
		return bad_at(h, off);
	if (xdrc_roundup(*len) > xdrc_left(x))
		return short_at(h, x);
	x->off += (uint32_t)xdrc_roundup(*len);
	return RPC_OK;
}

static enum rpc_result decode_call_body(struct xdrc *x, struct rpc_msg_hdr *h)
{
	enum rpc_result r;
	uint32_t off = x->off;

	if (!xdrc_get_u32(x, &h->rpcvers))
		return short_at(h, x);
	if (h->rpcvers != RPC_VERSION)
		return bad_at(h, off);
	if (!xdrc_get_u32(x, &h->prog) || !xdrc_get_u32(x, &h->vers) ||
	    !xdrc_get_u32(x, &h->proc))
		return short_at(h, x);
	r = decode_opaque_auth(x, h, &h->cred_flavor, &h->cred_len);
	if (r)
		return r;
	return decode_opaque_auth(x, h, &h->verf_flavor, &h->verf_len);
}

static enum rpc_result decode_mismatch(struct xdrc *x, struct rpc_msg_hdr *h)
{
	if (!xdrc_get_u32(x, &h->mismatch_low) ||
	    !xdrc_get_u32(x, &h->mismatch_high))
		return short_at(h, x);
	return RPC_OK;
}

static enum rpc_result decode_reply_body(struct xdrc *x, struct rpc_msg_hdr *h)
{
	enum rpc_result r;
	uint32_t off = x->off;

	if (!xdrc_get_u32(x, &h->reply_stat))
		return short_at(h, x);
	if (h->reply_stat == RPC_MSG_ACCEPTED) {
		r = decode_opaque_auth(x, h, &h->verf_flavor, &h->verf_len);
		if (r)
			return r;
		off = x->off;
		if (!xdrc_get_u32(x, &h->accept_stat))
			return short_at(h, x);
		if (h->accept_stat > RPC_SYSTEM_ERR)
			return bad_at(h, off);
		if (h->accept_stat == RPC_PROG_MISMATCH)
			return decode_mismatch(x, h);
		return RPC_OK;
	}
	if (h->reply_stat != RPC_MSG_DENIED)
		return bad_at(h, off);
	off = x->off;
	if (!xdrc_get_u32(x, &h->reject_stat))
		return short_at(h, x);
	if (h->reject_stat == RPC_MISMATCH)
		return decode_mismatch(x, h);
	if (h->reject_stat != RPC_AUTH_ERROR)
		return bad_at(h, off);
	if (!xdrc_get_u32(x, &h->auth_stat))
		return short_at(h, x);
	return RPC_OK;
}

enum rpc_result rpc_decode_header(const uint8_t *buf, size_t len,
				  struct rpc_msg_hdr *h)
{
	enum rpc_result r;
	struct xdrc x;

	memset(h, 0, sizeof(*h));
	xdrc_init(&x, buf, len);
	if (!xdrc_get_u32(&x, &h->xid) || !xdrc_get_u32(&x, &h->msg_type))
		return short_at(h, &x);
	if (h->msg_type == RPC_CALL)
		r = decode_call_body(&x, h);
	else if (h->msg_type == RPC_REPLY)
		r = decode_reply_body(&x, h);
	else
		return bad_at(h, 4);
	if (r == RPC_OK)
		h->body_off = x.off;
	return r;
}

bool rpc_call_other_version(enum rpc_result r, const struct rpc_msg_hdr *h)
{
	return r == RPC_MALFORMED && h->msg_type == RPC_CALL && h->rpcvers != RPC_VERSION;
}

size_t rpc_encode_call(uint8_t *buf, size_t cap, uint32_t xid, uint32_t prog,
		       uint32_t vers, uint32_t proc)
{
	const uint32_t w[] = { xid, RPC_CALL, RPC_VERSION, prog, vers, proc,
			       RPC_AUTH_NONE, 0, RPC_AUTH_NONE, 0 };
	size_t i;

	if (cap < sizeof(w))
		return 0;
	for (i = 0; i < sizeof(w) / sizeof(w[0]); i++)
		xdrc_put32(buf + 4 * i, w[i]);
	return sizeof(w);
}

size_t rpc_encode_accepted_reply(uint8_t *buf, size_t cap, uint32_t xid,
				 uint32_t accept_stat)
{
	const uint32_t w[] = { xid, RPC_REPLY, RPC_MSG_ACCEPTED, RPC_AUTH_NONE, 0,
			       accept_stat };
	size_t i;

	if (cap < sizeof(w))
		return 0;
	for (i = 0; i < sizeof(w) / sizeof(w[0]); i++)
		xdrc_put32(buf + 4 * i, w[i]);
	return sizeof(w);
}

const char *rpc_program_name(uint32_t prog)
{
	switch (prog) {
	case RPC_PROG_PORTMAP: return "portmap";
	case RPC_PROG_NFS: return "NFS";
	case RPC_PROG_MOUNT: return "MOUNT";
	case RPC_PROG_NLM: return "NLM";
	case RPC_PROG_NFS_ACL: return "NFS_ACL";
	case RPC_PROG_NFS_CB: return "NFS callback";
	case RPC_PROG_RPCRDMA_ECHO: return "rpcrdma-echo";
	default: return NULL;
	}
}

const char *rpc_auth_flavor_name(uint32_t flavor)
{
	static const char *const names[] = {
		"AUTH_NONE", "AUTH_SYS", "AUTH_SHORT", "AUTH_DH", "AUTH_KERB4",
		"AUTH_RSA", "RPCSEC_GSS", "AUTH_TLS",
	};

	return flavor < 8 ? names[flavor] : "unknown";
}

const char *rpc_accept_stat_name(uint32_t stat)
{
	static const char *const names[] = {
		"SUCCESS", "PROG_UNAVAIL", "PROG_MISMATCH", "PROC_UNAVAIL",
		"GARBAGE_ARGS", "SYSTEM_ERR",
	};

	return stat < 6 ? names[stat] : "unknown";
}

const char *rpc_reject_stat_name(uint32_t stat)
{
	return stat == RPC_MISMATCH ? "RPC_MISMATCH" :
	       stat == RPC_AUTH_ERROR ? "AUTH_ERROR" : "unknown";
}
