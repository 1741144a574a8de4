/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * xdrcur.h - a bounded XDR (RFC 4506) writer and reader over a byte
 * buffer, for the tools that speak a little NFS of their own (rpcrdma-ping's
 * NFSv4.1 session, rpcrdma-conform's NFS calls): one copy instead of one a
 * tool.  Neither ever goes past its buffer: a write that does not fit, or a
 * read past the bytes there, sets `bad` and does nothing; every later call
 * then does nothing either, so a caller checks `bad` once at the end.
 */
#ifndef RPCRDMA_XDRCUR_H
#define RPCRDMA_XDRCUR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "be.h"

struct xdr_w {
	uint8_t *p;
	size_t cap, n;
	bool bad;
};

static inline void xdr_put32(struct xdr_w *w, uint32_t v)
{
	if (w->bad || w->cap - w->n < 4) {
		w->bad = true;
		return;
	}
	be32_put(w->p + w->n, v);
	w->n += 4;
}

static inline void xdr_put64(struct xdr_w *w, uint64_t v)
{
	xdr_put32(w, (uint32_t)(v >> 32));
	xdr_put32(w, (uint32_t)v);
}

/* a fixed-size opaque (no length word), zero-padded to 4 */
static inline void xdr_put_fixed(struct xdr_w *w, const void *b, size_t len)
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

/* a counted opaque<> or string<>: length word, bytes, pad */
static inline void xdr_put_opaque(struct xdr_w *w, const void *b, size_t len)
{
	xdr_put32(w, (uint32_t)len);
	xdr_put_fixed(w, b, len);
}

/* NFSv4.1 channel_attrs4 (RFC 8881 §18.36): no header padding, no RDMA
 * IRD; what both tools' CREATE_SESSION asks for */
static inline void xdr_nfs41_chan_attrs(struct xdr_w *w, uint32_t maxreq, uint32_t maxresp,
					uint32_t cached, uint32_t ops, uint32_t reqs)
{
	xdr_put32(w, 0);                      /* ca_headerpadsize */
	xdr_put32(w, maxreq);
	xdr_put32(w, maxresp);
	xdr_put32(w, cached);
	xdr_put32(w, ops);
	xdr_put32(w, reqs);
	xdr_put32(w, 0);                      /* ca_rdma_ird<1>: none */
}

struct xdr_r {
	const uint8_t *p;
	size_t len, off;
	bool bad;
};

static inline uint32_t xdr_get32(struct xdr_r *r)
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

static inline uint64_t xdr_get64(struct xdr_r *r)
{
	uint64_t hi = xdr_get32(r);

	return hi << 32 | xdr_get32(r);
}

/* a counted opaque<> of at most max bytes: its bytes (and *len), or NULL */
static inline const uint8_t *xdr_get_opaque(struct xdr_r *r, uint32_t max, uint32_t *len)
{
	uint32_t n = xdr_get32(r);
	size_t padded = ((size_t)n + 3) & ~(size_t)3;
	const uint8_t *d;

	if (r->bad || n > max || padded > r->len - r->off) {
		r->bad = true;
		return NULL;
	}
	d = r->p + r->off;
	r->off += padded;
	*len = n;
	return d;
}

/* skips n bytes (n a multiple of 4 where XDR says so: the caller's) */
static inline void xdr_skip(struct xdr_r *r, size_t n)
{
	if (r->bad || r->len - r->off < n)
		r->bad = true;
	else
		r->off += n;
}

/* skips a counted opaque<> (length word, bytes, pad) */
static inline void xdr_skip_opaque(struct xdr_r *r)
{
	uint32_t n;

	(void)xdr_get_opaque(r, UINT32_MAX, &n);
}

/* a fixed-size opaque of len bytes into out, then its pad */
static inline void xdr_get_fixed(struct xdr_r *r, uint8_t *out, size_t len)
{
	size_t padded = (len + 3) & ~(size_t)3;

	if (r->bad || padded < len || padded > r->len - r->off) {
		r->bad = true;
		return;
	}
	memcpy(out, r->p + r->off, len);
	r->off += padded;
}

#endif
