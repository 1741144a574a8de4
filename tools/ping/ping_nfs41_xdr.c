/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ping_nfs41_xdr.c - just enough NFSv4.1 (RFC 8881 §16.2 COMPOUND, §18.35
 * EXCHANGE_ID, §18.36 CREATE_SESSION, §18.37 DESTROY_SESSION, §18.50
 * DESTROY_CLIENTID) to open a session whose back channel is the
 * connection it was created on, for the backward-direction probe: the
 * COMPOUND arguments (after the RPC header) and the few result fields it
 * needs.  Bounded XDR writing and reading of our own; every length read is
 * checked against the bytes left.
 */
#include <string.h>
#include "be.h"
#include "ping_nfs41.h"

/* -------- a bounded XDR writer and reader -------- */
struct xw {
	uint8_t *p;
	size_t cap, n;
	bool bad;
};

static void put32(struct xw *w, uint32_t v)
{
	if (w->bad || w->cap - w->n < 4) {
		w->bad = true;
		return;
	}
	be32_put(w->p + w->n, v);
	w->n += 4;
}

static void put64(struct xw *w, uint64_t v)
{
	put32(w, (uint32_t)(v >> 32));
	put32(w, (uint32_t)v);
}

/* fixed-size opaque (no length word), zero-padded to 4 */
static void put_fixed(struct xw *w, const uint8_t *b, size_t len)
{
	size_t pad = (4 - len % 4) % 4;

	if (w->bad || len > w->cap - w->n || pad > w->cap - w->n - len) {
		w->bad = true;
		return;
	}
	if (len)
		memcpy(w->p + w->n, b, len);
	memset(w->p + w->n + len, 0, pad);
	w->n += len + pad;
}

static void put_opaque(struct xw *w, const uint8_t *b, size_t len)
{
	put32(w, (uint32_t)len);
	put_fixed(w, b, len);
}

struct xr {
	const uint8_t *p;
	size_t len, off;
	bool bad;
};

static uint32_t get32(struct xr *r)
{
	const uint8_t *q;

	if (r->bad || r->len - r->off < 4) {
		r->bad = true;
		return 0;
	}
	q = r->p + r->off;
	r->off += 4;
	return be32_get(q);
}

static uint64_t get64(struct xr *r)
{
	uint64_t hi = get32(r);

	return hi << 32 | get32(r);
}

/* skips an opaque<> (length word, bytes, pad) */
static void skip_opaque(struct xr *r)
{
	uint32_t n = get32(r);
	size_t padded = ((size_t)n + 3) & ~(size_t)3;

	if (r->bad || padded < n || padded > r->len - r->off) {
		r->bad = true;
		return;
	}
	r->off += padded;
}

static void get_fixed(struct xr *r, uint8_t *out, size_t len)
{
	if (r->bad || len > r->len - r->off) {
		r->bad = true;
		return;
	}
	memcpy(out, r->p + r->off, len);
	r->off += (len + 3) & ~(size_t)3;
	if (r->off > r->len)
		r->bad = true;
}

/* -------- COMPOUND -------- */

/* COMPOUND4args head: tag<> (ours: empty), minorversion 1, op count */
static void compound_head(struct xw *w, uint32_t nops)
{
	put_opaque(w, NULL, 0);
	put32(w, 1);
	put32(w, nops);
}

size_t nfs41_exchange_id_args(uint8_t *buf, size_t cap, const char *owner,
			      uint64_t verifier)
{
	struct xw w = { buf, cap, 0, false };
	uint8_t verf[8];
	int i;

	for (i = 0; i < 8; i++)
		verf[i] = (uint8_t)(verifier >> (56 - 8 * i));
	compound_head(&w, 1);
	put32(&w, NFS4_OP_EXCHANGE_ID);
	put_fixed(&w, verf, 8);                          /* co_verifier */
	put_opaque(&w, (const uint8_t *)owner, strlen(owner)); /* co_ownerid */
	put32(&w, 0);                                    /* eia_flags */
	put32(&w, 0);                                    /* SP4_NONE */
	put32(&w, 0);                                    /* no impl id */
	return w.bad ? 0 : w.n;
}

static void channel_attrs(struct xw *w, uint32_t maxreq, uint32_t maxresp,
			  uint32_t cached, uint32_t ops, uint32_t reqs)
{
	put32(w, 0);                                     /* headerpadsize */
	put32(w, maxreq);
	put32(w, maxresp);
	put32(w, cached);
	put32(w, ops);
	put32(w, reqs);
	put32(w, 0);                                     /* ca_rdma_ird<1>: none */
}

size_t nfs41_create_session_args(uint8_t *buf, size_t cap, uint64_t clientid,
				 uint32_t sequence, uint32_t cb_prog)
{
	struct xw w = { buf, cap, 0, false };

	compound_head(&w, 1);
	put32(&w, NFS4_OP_CREATE_SESSION);
	put64(&w, clientid);
	put32(&w, sequence);
	put32(&w, NFS41_SESSION_CONN_BACK_CHAN);
	channel_attrs(&w, 1049620, 1049480, 7584, 8, 16); /* fore, as Linux asks */
	channel_attrs(&w, 4096, 4096, 0, 2, 1);           /* back */
	put32(&w, cb_prog);
	put32(&w, 1);                                    /* csa_sec_parms<>: one */
	put32(&w, 0);                                    /* AUTH_NONE */
	return w.bad ? 0 : w.n;
}

size_t nfs41_destroy_session_args(uint8_t *buf, size_t cap,
				  const uint8_t sessionid[NFS41_SESSIONID_SIZE])
{
	struct xw w = { buf, cap, 0, false };

	compound_head(&w, 1);
	put32(&w, NFS4_OP_DESTROY_SESSION);
	put_fixed(&w, sessionid, NFS41_SESSIONID_SIZE);
	return w.bad ? 0 : w.n;
}

size_t nfs41_destroy_clientid_args(uint8_t *buf, size_t cap, uint64_t clientid)
{
	struct xw w = { buf, cap, 0, false };

	compound_head(&w, 1);
	put32(&w, NFS4_OP_DESTROY_CLIENTID);
	put64(&w, clientid);
	return w.bad ? 0 : w.n;
}

/* COMPOUND4res up to the first result's resok: status, tag, resarray
 * count, resop, its status.  Returns false when it does not decode;
 * *status is the operation's (or the COMPOUND's, when no result came). */
static bool compound_res(struct xr *r, uint32_t op, uint32_t *status)
{
	uint32_t cstatus = get32(r), n;

	skip_opaque(r);
	n = get32(r);
	if (r->bad)
		return false;
	*status = cstatus;
	if (n == 0)
		return true;
	if (get32(r) != op)
		return false;
	*status = get32(r);
	return !r->bad;
}

bool nfs41_exchange_id_res(const uint8_t *res, size_t len,
			   struct nfs41_exchange_id_res *out)
{
	struct xr r = { res, len, 0, false };

	memset(out, 0, sizeof(*out));
	if (!compound_res(&r, NFS4_OP_EXCHANGE_ID, &out->status))
		return false;
	if (out->status != NFS4_OK)
		return true;
	out->clientid = get64(&r);
	out->sequence = get32(&r);
	out->flags = get32(&r);
	return !r.bad;
}

bool nfs41_create_session_res(const uint8_t *res, size_t len,
			      struct nfs41_create_session_res *out)
{
	struct xr r = { res, len, 0, false };

	memset(out, 0, sizeof(*out));
	if (!compound_res(&r, NFS4_OP_CREATE_SESSION, &out->status))
		return false;
	if (out->status != NFS4_OK)
		return true;
	get_fixed(&r, out->sessionid, NFS41_SESSIONID_SIZE);
	out->sequence = get32(&r);
	out->flags = get32(&r);
	return !r.bad;
}

bool nfs41_status_res(const uint8_t *res, size_t len, uint32_t op,
		      uint32_t *status)
{
	struct xr r = { res, len, 0, false };

	return compound_res(&r, op, status);
}
