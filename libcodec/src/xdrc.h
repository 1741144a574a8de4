/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * xdrc.h - bounds-checked XDR cursor (RFC 4506 §4: big-endian 4-byte units).
 *
 * Every read first asks for the bytes it needs; a failed ask leaves the
 * cursor where it was, so the caller can report the element's offset.
 * Named xdrc_ (not xdr_) to stay clear of libtirpc's exported symbols.
 */
#ifndef RPCRDMA_XDRC_H
#define RPCRDMA_XDRC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct xdrc {
	const uint8_t *p;  /* start of the buffer */
	uint32_t off;      /* next byte to read or write */
	uint32_t len;      /* bytes available */
};

static inline void xdrc_init(struct xdrc *x, const uint8_t *p, size_t len)
{
	x->p = p;
	x->off = 0;
	x->len = len > UINT32_MAX ? UINT32_MAX : (uint32_t)len;
}

static inline uint32_t xdrc_left(const struct xdrc *x)
{
	return x->len - x->off;
}

/* Pure field unpackers: the caller has checked the bytes are there. */
static inline uint32_t xdrc_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

static inline uint64_t xdrc_be64(const uint8_t *p)
{
	return (uint64_t)xdrc_be32(p) << 32 | xdrc_be32(p + 4);
}

static inline void xdrc_put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static inline void xdrc_put64(uint8_t *p, uint64_t v)
{
	xdrc_put32(p, (uint32_t)(v >> 32));
	xdrc_put32(p + 4, (uint32_t)v);
}

/* Stream reads: false (cursor unmoved) when fewer than 4 bytes remain. */
static inline bool xdrc_get_u32(struct xdrc *x, uint32_t *v)
{
	if (xdrc_left(x) < 4)
		return false;
	*v = xdrc_be32(x->p + x->off);
	x->off += 4;
	return true;
}

/* XDR round-up of an opaque length (RFC 4506 §3); 64-bit so it cannot wrap */
static inline uint64_t xdrc_roundup(uint64_t n)
{
	return (n + 3) & ~(uint64_t)3;
}

#endif /* RPCRDMA_XDRC_H */
