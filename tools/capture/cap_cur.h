/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cap_cur.h - the bounds-checked cursor every layer of the capture pipeline
 * reads packet bytes through, as libcodec's xdrc cursor does for XDR: a
 * view of `len` bytes and a read offset.  Every read first asks for the
 * bytes it needs and fails, cursor unmoved, when they are not there; a view
 * can be narrowed, never widened.  Lengths taken from the wire are only
 * ever compared with what is left, so no length arithmetic can wrap
 * (issue 14: an LRH PktLen below the LRH wrapped `len - hl`).
 */
#ifndef RPCRDMA_CAP_CUR_H
#define RPCRDMA_CAP_CUR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct cap_cur {
	const uint8_t *p;            /* the view's first byte */
	uint32_t len;                /* bytes in the view */
	uint32_t off;                /* next byte to read, <= len */
};

static inline struct cap_cur cur_make(const uint8_t *p, uint32_t len)
{
	struct cap_cur c = { p, len, 0 };
	return c;
}

static inline uint32_t cur_left(const struct cap_cur *c)
{
	return c->len - c->off;
}

static inline bool cur_has(const struct cap_cur *c, uint32_t n)
{
	return n <= cur_left(c);
}

/* the next unread byte (valid to read cur_left() bytes from) */
static inline const uint8_t *cur_ptr(const struct cap_cur *c)
{
	return c->p + c->off;
}

static inline bool cur_skip(struct cap_cur *c, uint32_t n)
{
	if (!cur_has(c, n))
		return false;
	c->off += n;
	return true;
}

/* n bytes, consumed; *out points at them */
static inline bool cur_take(struct cap_cur *c, uint32_t n, const uint8_t **out)
{
	if (!cur_has(c, n))
		return false;
	*out = c->p + c->off;
	c->off += n;
	return true;
}

/* n bytes as a view of their own, consumed from c */
static inline bool cur_sub(struct cap_cur *c, uint32_t n, struct cap_cur *sub)
{
	const uint8_t *p;

	if (!cur_take(c, n, &p))
		return false;
	*sub = cur_make(p, n);
	return true;
}

/* what is left, as a view of its own (c unchanged) */
static inline struct cap_cur cur_rest(const struct cap_cur *c)
{
	return cur_make(cur_ptr(c), cur_left(c));
}

/* keep at most n of the bytes left (padding after a length field) */
static inline void cur_limit(struct cap_cur *c, uint32_t n)
{
	if (n < cur_left(c))
		c->len = c->off + n;
}

/* the last n bytes left become *tail and leave the view */
static inline bool cur_split_tail(struct cap_cur *c, uint32_t n,
				  struct cap_cur *tail)
{
	if (!cur_has(c, n))
		return false;
	c->len -= n;
	*tail = cur_make(c->p + c->len, n);
	return true;
}

/* big-endian fields at `at` bytes past the read offset, not consumed */
static inline bool cur_peek8(const struct cap_cur *c, uint32_t at, uint8_t *v)
{
	if (at >= cur_left(c))
		return false;
	*v = c->p[c->off + at];
	return true;
}

static inline bool cur_peek16(const struct cap_cur *c, uint32_t at,
			      uint16_t *v)
{
	if (at > cur_left(c) || cur_left(c) - at < 2)
		return false;
	const uint8_t *q = c->p + c->off + at;
	*v = (uint16_t)((unsigned)q[0] << 8 | q[1]);
	return true;
}

static inline bool cur_peek24(const struct cap_cur *c, uint32_t at,
			      uint32_t *v)
{
	if (at > cur_left(c) || cur_left(c) - at < 3)
		return false;
	const uint8_t *q = c->p + c->off + at;
	*v = (uint32_t)q[0] << 16 | (uint32_t)q[1] << 8 | q[2];
	return true;
}

static inline bool cur_peek32(const struct cap_cur *c, uint32_t at,
			      uint32_t *v)
{
	if (at > cur_left(c) || cur_left(c) - at < 4)
		return false;
	const uint8_t *q = c->p + c->off + at;
	*v = (uint32_t)q[0] << 24 | (uint32_t)q[1] << 16 |
	     (uint32_t)q[2] << 8 | q[3];
	return true;
}

static inline bool cur_peek64(const struct cap_cur *c, uint32_t at,
			      uint64_t *v)
{
	uint32_t hi, lo;

	if (at > UINT32_MAX - 4 || !cur_peek32(c, at, &hi) ||
	    !cur_peek32(c, at + 4, &lo))
		return false;
	*v = (uint64_t)hi << 32 | lo;
	return true;
}

/* and consumed */
static inline bool cur_u8(struct cap_cur *c, uint8_t *v)
{
	return cur_peek8(c, 0, v) && cur_skip(c, 1);
}

static inline bool cur_be16(struct cap_cur *c, uint16_t *v)
{
	return cur_peek16(c, 0, v) && cur_skip(c, 2);
}

static inline bool cur_be32(struct cap_cur *c, uint32_t *v)
{
	return cur_peek32(c, 0, v) && cur_skip(c, 4);
}

static inline bool cur_be64(struct cap_cur *c, uint64_t *v)
{
	return cur_peek64(c, 0, v) && cur_skip(c, 8);
}

#endif
