/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * be.h - big-endian (XDR, RFC 4506 §3) words in byte buffers, for the
 * tools and their tests: one place instead of a static copy per file.
 * The caller checks the length first; these read or write exactly 4 or 8
 * bytes at p.  (libcodec keeps its own, private, in libcodec/src/xdrc.h:
 * it exports no byte helpers.)
 */
#ifndef RPCRDMA_BE_H
#define RPCRDMA_BE_H

#include <stdint.h>

static inline uint32_t be32_get(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

static inline uint64_t be64_get(const uint8_t *p)
{
	return (uint64_t)be32_get(p) << 32 | be32_get(p + 4);
}

static inline void be32_put(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static inline void be64_put(uint8_t *p, uint64_t v)
{
	be32_put(p, (uint32_t)(v >> 32));
	be32_put(p + 4, (uint32_t)v);
}

#endif
