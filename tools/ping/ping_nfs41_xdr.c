/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ping_nfs41_xdr.c - just enough NFSv4.1 (RFC 8881 §16.2 COMPOUND, §18.35
 * EXCHANGE_ID, §18.36 CREATE_SESSION, §18.37 DESTROY_SESSION, §18.50
 * DESTROY_CLIENTID) to open a session whose back channel is the
 * connection it was created on, for the backward-direction probe: the
 * COMPOUND arguments (after the RPC header) and the few result fields it
 * needs.  Bounded XDR writing and reading (xdrcur.h); every length read is
 * checked against the bytes left.
 */
#include <string.h>
#include "xdrcur.h"
#include "ping_nfs41.h"

/* -------- COMPOUND -------- */

/* COMPOUND4args head: tag<> (ours: empty), minorversion 1, op count */
static void compound_head(struct xdr_w *w, uint32_t nops)
{
	xdr_put_opaque(w, NULL, 0);
	xdr_put32(w, 1);
	xdr_put32(w, nops);
}

size_t nfs41_exchange_id_args(uint8_t *buf, size_t cap, const char *owner,
			      uint64_t verifier)
{
	struct xdr_w w = { buf, cap, 0, false };
	uint8_t verf[8];
	int i;

	for (i = 0; i < 8; i++)
		verf[i] = (uint8_t)(verifier >> (56 - 8 * i));
	compound_head(&w, 1);
	xdr_put32(&w, NFS4_OP_EXCHANGE_ID);
	xdr_put_fixed(&w, verf, 8);                          /* co_verifier */
	xdr_put_opaque(&w, (const uint8_t *)owner, strlen(owner)); /* co_ownerid */
	xdr_put32(&w, 0);                                    /* eia_flags */
	xdr_put32(&w, 0);                                    /* SP4_NONE */
	xdr_put32(&w, 0);                                    /* no impl id */
	return w.bad ? 0 : w.n;
}

size_t nfs41_create_session_args(uint8_t *buf, size_t cap, uint64_t clientid,
				 uint32_t sequence, uint32_t cb_prog)
{
	struct xdr_w w = { buf, cap, 0, false };

	compound_head(&w, 1);
	xdr_put32(&w, NFS4_OP_CREATE_SESSION);
	xdr_put64(&w, clientid);
	xdr_put32(&w, sequence);
	xdr_put32(&w, NFS41_SESSION_CONN_BACK_CHAN);
	xdr_nfs41_chan_attrs(&w, 1049620, 1049480, 7584, 8, 16); /* fore, as Linux asks */
	xdr_nfs41_chan_attrs(&w, 4096, 4096, 0, 2, 1);           /* back */
	xdr_put32(&w, cb_prog);
	xdr_put32(&w, 1);                                    /* csa_sec_parms<>: one */
	xdr_put32(&w, 0);                                    /* AUTH_NONE */
	return w.bad ? 0 : w.n;
}

size_t nfs41_destroy_session_args(uint8_t *buf, size_t cap,
				  const uint8_t sessionid[NFS41_SESSIONID_SIZE])
{
	struct xdr_w w = { buf, cap, 0, false };

	compound_head(&w, 1);
	xdr_put32(&w, NFS4_OP_DESTROY_SESSION);
	xdr_put_fixed(&w, sessionid, NFS41_SESSIONID_SIZE);
	return w.bad ? 0 : w.n;
}

size_t nfs41_destroy_clientid_args(uint8_t *buf, size_t cap, uint64_t clientid)
{
	struct xdr_w w = { buf, cap, 0, false };

	compound_head(&w, 1);
	xdr_put32(&w, NFS4_OP_DESTROY_CLIENTID);
	xdr_put64(&w, clientid);
	return w.bad ? 0 : w.n;
}

/* COMPOUND4res up to the first result's resok: status, tag, resarray
 * count, resop, its status.  Returns false when it does not decode;
 * *status is the operation's (or the COMPOUND's, when no result came). */
static bool compound_res(struct xdr_r *r, uint32_t op, uint32_t *status)
{
	uint32_t cstatus = xdr_get32(r), n;

	xdr_skip_opaque(r);
	n = xdr_get32(r);
	if (r->bad)
		return false;
	*status = cstatus;
	if (n == 0)
		return true;
	if (xdr_get32(r) != op)
		return false;
	*status = xdr_get32(r);
	return !r->bad;
}

bool nfs41_exchange_id_res(const uint8_t *res, size_t len,
			   struct nfs41_exchange_id_res *out)
{
	struct xdr_r r = { res, len, 0, false };

	memset(out, 0, sizeof(*out));
	if (!compound_res(&r, NFS4_OP_EXCHANGE_ID, &out->status))
		return false;
	if (out->status != NFS4_OK)
		return true;
	out->clientid = xdr_get64(&r);
	out->sequence = xdr_get32(&r);
	out->flags = xdr_get32(&r);
	return !r.bad;
}

bool nfs41_create_session_res(const uint8_t *res, size_t len,
			      struct nfs41_create_session_res *out)
{
	struct xdr_r r = { res, len, 0, false };

	memset(out, 0, sizeof(*out));
	if (!compound_res(&r, NFS4_OP_CREATE_SESSION, &out->status))
		return false;
	if (out->status != NFS4_OK)
		return true;
	xdr_get_fixed(&r, out->sessionid, NFS41_SESSIONID_SIZE);
	out->sequence = xdr_get32(&r);
	out->flags = xdr_get32(&r);
	return !r.bad;
}

bool nfs41_status_res(const uint8_t *res, size_t len, uint32_t op,
		      uint32_t *status)
{
	struct xdr_r r = { res, len, 0, false };

	return compound_res(&r, op, status);
}
