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
	unsigned long flushes;       /* ob_flush() calls (json_memo_put()) */
	char b[OBUF_SIZE];
};

static inline void ob_init(struct obuf *o, FILE *f)
{
	o->f = f;
	o->n = 0;
	o->flushes = 0;
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

/* "00" "01" ... "99": two decimal digits per lookup */
static inline const char *ob_pairs(void)
{
	static const char pairs[] =
		"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
		"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
		"8081828384858687888990919293949596979899";
	return pairs;
}

/* the decimal digits of v at p (room for 20), no printf; returns the count */
static inline unsigned ob_fmt_u64(char *p, uint64_t v)
{
	const char *pairs = ob_pairs();
	unsigned n, i;

	if (v < 10) {
		p[0] = (char)('0' + v);
		return 1;
	}
	if (v < 100) {
		memcpy(p, pairs + 2 * v, 2);
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
		i -= 2;
		memcpy(p + i, pairs + 2 * r, 2);
	}
	if (v >= 10)
		memcpy(p, pairs + 2 * v, 2);
	else
		p[0] = (char)('0' + v);
	return n;
}

/* "0x" and at least `digits` (1..16) lower-case hex digits of v at p (room
 * for 18), two digits per lookup; returns the length */
static inline unsigned ob_fmt_hex(char *p, uint64_t v, unsigned digits)
{
	static const char hp[] =
		"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
		"202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f"
		"404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f"
		"606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f"
		"808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f"
		"a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf"
		"c0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedf"
		"e0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";
	unsigned need = v ? (unsigned)(67 - __builtin_clzll(v)) / 4 : 1, i;

	if (digits > 16)
		digits = 16;
	if (digits < need)
		digits = need;
	p[0] = '0';
	p[1] = 'x';
	for (i = digits; i >= 2; i -= 2) {   /* the last two digits first */
		memcpy(p + i, hp + 2 * (v & 0xff), 2);
		v >>= 8;
	}
	if (i)                                /* an odd count: the first */
		p[2] = hp[2 * (v & 0xf) + 1];
	return 2 + digits;
}

/* seconds.microseconds at p (room for 28), e.g. 1700000000.123456 (usec
 * >= 1e6 carried); the seconds' digits are kept from the last call, since
 * a capture's time stamps share them for a second */
struct ob_sec_cache {
	int64_t sec;
	unsigned len;
	char d[20];
};
extern struct ob_sec_cache ob_sec_cache_;
void ob_sec_cache_fill(int64_t sec);
unsigned ob_fmt_time_slow(char *p, int64_t sec, uint32_t usec);
static inline unsigned ob_fmt_time(char *p, int64_t sec, uint32_t usec)
{
	const char *pairs = ob_pairs();
	unsigned n, r;

	if (usec >= 1000000u || sec < 0)
		return ob_fmt_time_slow(p, sec, usec);
	if (sec != ob_sec_cache_.sec)
		ob_sec_cache_fill(sec);
	n = ob_sec_cache_.len;
	memcpy(p, ob_sec_cache_.d, sizeof(ob_sec_cache_.d));
	p[n] = '.';
	r = usec % 10000;
	memcpy(p + n + 1, pairs + 2 * (usec / 10000), 2);
	memcpy(p + n + 3, pairs + 2 * (r / 100), 2);
	memcpy(p + n + 5, pairs + 2 * (r % 100), 2);
	return n + 7;
}

/* decimal, straight into the buffer */
static inline void ob_u64(struct obuf *o, uint64_t v)
{
	char *p = ob_room(o, 20);

	o->n += ob_fmt_u64(p, v);
}

void ob_i64(struct obuf *o, int64_t v);                  /* decimal */
void ob_u64w_slow(struct obuf *o, uint64_t v, unsigned width);
/* right-aligned in width */
static inline void ob_u64w(struct obuf *o, uint64_t v, unsigned width)
{
	char tmp[20];
	unsigned len = ob_fmt_u64(tmp, v), pad = len < width ? width - len : 0;
	char *p;

	if (width > 64) {
		ob_u64w_slow(o, v, width);
		return;
	}
	p = ob_room(o, 84);
	memset(p, ' ', 64);
	memcpy(p + pad, tmp, 20);
	o->n += pad + len;
}
/* "0x" + digits */
static inline void ob_hex(struct obuf *o, uint64_t v, unsigned digits)
{
	char *p = ob_room(o, 18);

	o->n += ob_fmt_hex(p, v, digits);
}

void ob_putsw_slow(struct obuf *o, const char *s, size_t len, unsigned width);
/* left-aligned in width */
static inline void ob_putsw(struct obuf *o, const char *s, unsigned width)
{
	size_t len = strlen(s);
	char *p;

	if (len > 64 || width > 64) {
		ob_putsw_slow(o, s, len, width);
		return;
	}
	p = ob_room(o, 128);
	memcpy(p, s, len);
	memset(p + len, ' ', 64);
	o->n += len < width ? width : len;
}
void ob_spaces(struct obuf *o, unsigned n);
/* seconds.microseconds, e.g. 1700000000.123456 (usec >= 1e6 carried) */
static inline void ob_time(struct obuf *o, int64_t sec, uint32_t usec)
{
	char *p = ob_room(o, 28);

	o->n += ob_fmt_time(p, sec, usec);
}
/* bytes as lower-case hex, no separators */
void ob_hexbytes(struct obuf *o, const uint8_t *p, size_t len);

#endif
