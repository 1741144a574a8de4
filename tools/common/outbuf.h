/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * outbuf.h - a caller-owned output buffer for the printers (no allocation:
 * capture mode prints millions of lines).  Text is gathered here and handed
 * to stdio with one fwrite() per buffer-full or per message.
 */
#ifndef RPCRDMA_OUTBUF_H
#define RPCRDMA_OUTBUF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define OBUF_SIZE 4096

struct obuf {
	FILE *f;
	size_t n;
	char b[OBUF_SIZE];
};

static inline void ob_init(struct obuf *o, FILE *f)
{
	o->f = f;
	o->n = 0;
}

void ob_flush(struct obuf *o);
void ob_write_slow(struct obuf *o, const char *s, size_t len);

/* Inline so that short, constant-length writes (keys, punctuation) become
 * a few moves: the JSON printer makes dozens of them per message. */
static inline void ob_write(struct obuf *o, const char *s, size_t len)
{
	if (len <= sizeof(o->b) - o->n) {
		memcpy(o->b + o->n, s, len);
		o->n += len;
	} else {
		ob_write_slow(o, s, len);
	}
}

static inline void ob_puts(struct obuf *o, const char *s)
{
	ob_write(o, s, strlen(s));   /* strlen of a literal is folded */
}

static inline void ob_putc(struct obuf *o, char c)
{
	if (o->n == sizeof(o->b))
		ob_flush(o);
	o->b[o->n++] = c;
}

/* Room for n more bytes (n <= OBUF_SIZE): flushes when there is not;
 * the caller writes at the pointer and then adds what it wrote to o->n */
static inline char *ob_room(struct obuf *o, size_t n)
{
	if (n > sizeof(o->b) - o->n)
		ob_flush(o);
	return o->b + o->n;
}

/* the decimal digits of v at p (room for 20), no printf; returns the count */
static inline unsigned ob_fmt_u64(char *p, uint64_t v)
{
	static const char pairs[] =
		"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
		"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
		"8081828384858687888990919293949596979899";
	unsigned n, i;

	if (v < 10) {
		p[0] = (char)('0' + v);
		return 1;
	}
	if (v < 100) {
		p[0] = pairs[2 * v];
		p[1] = pairs[2 * v + 1];
		return 2;
	}
	if (v < 10000)
		n = v < 1000 ? 3 : 4;
	else if (v < 100000000)
		n = v < 1000000 ? (v < 100000 ? 5 : 6) : (v < 10000000 ? 7 : 8);
	else
		for (uint64_t t = v / 100000000, n0 = n = 9; t >= 10; t /= 10)
			n = (unsigned)++n0;
	i = n;
	while (v >= 100) {
		unsigned r = (unsigned)(v % 100);

		v /= 100;
		p[--i] = pairs[2 * r + 1];
		p[--i] = pairs[2 * r];
	}
	if (v >= 10) {
		p[--i] = pairs[2 * v + 1];
		p[--i] = pairs[2 * v];
	} else {
		p[--i] = (char)('0' + v);
	}
	return n;
}

/* decimal, straight into the buffer */
static inline void ob_u64(struct obuf *o, uint64_t v)
{
	char *p = ob_room(o, 20);

	o->n += ob_fmt_u64(p, v);
}

void ob_i64(struct obuf *o, int64_t v);                  /* decimal */
void ob_u64w(struct obuf *o, uint64_t v, unsigned width); /* right-aligned */
void ob_hex(struct obuf *o, uint64_t v, unsigned digits); /* "0x" + digits */
void ob_putsw(struct obuf *o, const char *s, unsigned width); /* left-aligned */
void ob_spaces(struct obuf *o, unsigned n);
/* seconds.microseconds, e.g. 1700000000.123456 (usec >= 1e6 carried) */
void ob_time(struct obuf *o, int64_t sec, uint32_t usec);
/* bytes as lower-case hex, no separators */
void ob_hexbytes(struct obuf *o, const uint8_t *p, size_t len);

#endif
