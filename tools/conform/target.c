/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * target.c - the Upper Layer the suite's own calls speak: probes (NULL),
 * calls carrying a DDP-eligible data item (V1 §8.1) and the ECHO program's
 * CALLBACK.  ECHO (tools/ulb, docs/echo-ulb.md): ECHO's opaque data.
 * NFSv3 (RFC 1813, DDP-eligibility per RFC 5667 §4): WRITE's data, with a
 * file handle no server knows, so that the kernel answers NFS3ERR_BADHANDLE
 * or NFS3ERR_STALE and writes nothing.  Calls are whole RPC messages with
 * AUTH_NONE (RFC 5531 §9); the transport header is the caller's.
 */
#include <string.h>
#include <rpcrdma/rpc.h>
#include "echo_ulb.h"
#include "target.h"

#define NFS3_WRITE 7u
/* an NFSv3 file handle that names nothing: 8 bytes, "rpcrdma" */
static const uint8_t bogus_fh[8] = { 'r', 'p', 'c', 'r', 'd', 'm', 'a', 0 };

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

const char *cf_profile_name(enum cf_profile p)
{
	switch (p) {
	case CF_PROF_ECHO: return "echo";
	case CF_PROF_NFS3: return "nfs";
	case CF_PROF_AUTO: return "auto";
	}
	return "?";
}

void cf_target_init(struct cf_target *t, enum cf_profile p)
{
	t->prof = p;
	if (p == CF_PROF_NFS3) {
		t->prog = RPC_PROG_NFS;
		t->vers = 3;
	} else {
		t->prog = ECHO_PROG;
		t->vers = ECHO_VERS;
	}
}

size_t cf_target_null(const struct cf_target *t, uint32_t xid, uint8_t *buf, size_t cap)
{
	return rpc_encode_call(buf, cap, xid, t->prog, t->vers, 0);
}

void cf_pattern(uint8_t *p, size_t len, uint32_t seed)
{
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = (uint8_t)(seed + i * 131u + (i >> 8));
}

size_t cf_target_data_overhead(const struct cf_target *t)
{
	/* ECHO: RPC header 40 + length word; WRITE3: RPC header 40, fh3
	 * (4 + 8), offset 8, count 4, stable 4, length word 4 */
	return t->prof == CF_PROF_NFS3 ? 40 + 12 + 20 : ECHO_CALL_HDR_LEN + 4;
}

size_t cf_target_data_call(const struct cf_target *t, uint32_t xid, uint32_t len,
			   uint8_t *buf, size_t cap, size_t *data_off)
{
	size_t n, off;

	if (t->prof == CF_PROF_NFS3) {
		size_t pad = (4 - (len & 3)) & 3;

		off = cf_target_data_overhead(t);
		if (cap < off + len + pad)
			return 0;
		n = rpc_encode_call(buf, cap, xid, RPC_PROG_NFS, 3, NFS3_WRITE);
		put32(buf + n, sizeof(bogus_fh));
		memcpy(buf + n + 4, bogus_fh, sizeof(bogus_fh));
		n += 4 + sizeof(bogus_fh);
		put32(buf + n, 0);              /* offset, 64 bits */
		put32(buf + n + 4, 0);
		put32(buf + n + 8, len);        /* count */
		put32(buf + n + 12, 0);         /* UNSTABLE */
		put32(buf + n + 16, len);       /* data<> */
		n += 20;
		cf_pattern(buf + n, len, xid);
		memset(buf + n + len, 0, pad);
		*data_off = off;
		return n + len + pad;
	}
	if (t->prof != CF_PROF_ECHO)
		return 0;
	n = echo_encode_call(buf, cap, ECHO_PROC_ECHO, 0, NULL, len, &off, NULL);
	if (!n)
		return 0;
	put32(buf, xid);
	cf_pattern(buf + off, len, xid);
	*data_off = off;
	return n;
}

size_t cf_target_callback(const struct cf_target *t, uint32_t xid, uint32_t count,
			  const uint8_t *data, uint32_t len, uint8_t *buf, size_t cap)
{
	size_t n;

	if (t->prof != CF_PROF_ECHO)
		return 0;
	n = echo_encode_call(buf, cap, ECHO_PROC_CALLBACK, count, data, len, NULL, NULL);
	if (n)
		put32(buf, xid);
	return n;
}
