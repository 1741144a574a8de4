/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * outbuf.c - number and padding formatting into struct obuf, without
 * printf: the capture printers run once per message over large captures.
 */
#include <string.h>
#include "outbuf.h"

void ob_flush(struct obuf *o)
{
	if (o->n)
		fwrite_unlocked(o->b, 1, o->n, o->f);
	o->n = 0;
	o->flushes++;
}

void ob_write_slow(struct obuf *o, const char *s, size_t len)
{
	size_t room;

	while (len) {
		if (o->n == sizeof(o->b))
			ob_flush(o);
		room = sizeof(o->b) - o->n;
		if (room > len)
			room = len;
		memcpy(o->b + o->n, s, room);
		o->n += room;
		s += room;
		len -= room;
	}
}

/* digits of v, right-aligned in tmp[24]; returns the first digit.  Two
 * digits per division: integers are most of what the JSON printer writes. */
static char *u64_digits(uint64_t v, char tmp[24])
{
	static const char pairs[] =
		"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
		"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
		"8081828384858687888990919293949596979899";
	char *p = tmp + 24;

	while (v >= 100) {
		unsigned r = (unsigned)(v % 100);

		v /= 100;
		*--p = pairs[2 * r + 1];
		*--p = pairs[2 * r];
	}
	if (v >= 10) {
		*--p = pairs[2 * v + 1];
		*--p = pairs[2 * v];
	} else {
		*--p = (char)('0' + v);
	}
	return p;
}

void ob_i64(struct obuf *o, int64_t v)
{
	if (v < 0) {
		ob_putc(o, '-');
		ob_u64(o, (uint64_t)0 - (uint64_t)v);   /* exact for INT64_MIN */
		return;
	}
	ob_u64(o, (uint64_t)v);
}

void ob_spaces(struct obuf *o, unsigned n)
{
	while (n--)
		ob_putc(o, ' ');
}

void ob_u64w_slow(struct obuf *o, uint64_t v, unsigned width)
{
	char tmp[24], *p = u64_digits(v, tmp);
	size_t len = (size_t)(tmp + 24 - p);

	if (len < width)
		ob_spaces(o, (unsigned)(width - len));
	ob_write(o, p, len);
}

void ob_putsw_slow(struct obuf *o, const char *s, size_t len, unsigned width)
{
	ob_write(o, s, len);
	if (len < width)
		ob_spaces(o, (unsigned)(width - len));
}

static const char hexdig[] = "0123456789abcdef";

/* two hex digits per byte, a buffer-full at a time */
void ob_hexbytes(struct obuf *o, const uint8_t *p, size_t len)
{
	while (len) {
		size_t n = (sizeof(o->b) - o->n) / 2, i;
		char *d;

		if (!n) {
			ob_flush(o);
			continue;
		}
		if (n > len)
			n = len;
		d = o->b + o->n;
		for (i = 0; i < n; i++) {
			d[2 * i] = hexdig[p[i] >> 4];
			d[2 * i + 1] = hexdig[p[i] & 0xf];
		}
		o->n += 2 * n;
		p += n;
		len -= n;
	}
}

struct ob_sec_cache ob_sec_cache_ = { .sec = -1 };

void ob_sec_cache_fill(int64_t sec)
{
	ob_sec_cache_.sec = sec;
	ob_sec_cache_.len = ob_fmt_u64(ob_sec_cache_.d, (uint64_t)sec);
}

unsigned ob_fmt_time_slow(char *p, int64_t sec, uint32_t usec)
{
	uint64_t mag;
	unsigned n = 0;
	char frac[20];

	if (usec >= 1000000u) {
		int64_t carry = usec / 1000000u;

		if (sec <= INT64_MAX - carry)
			sec += carry;
		usec %= 1000000u;
	}
	/* a negative time is sec + usec/1e6 < 0: print its magnitude */
	if (sec < 0) {
		p[n++] = '-';
		mag = (uint64_t)0 - (uint64_t)sec;
		if (usec) {
			mag -= 1;
			usec = 1000000u - usec;
		}
	} else {
		mag = (uint64_t)sec;
	}
	n += ob_fmt_u64(p + n, mag);
	ob_fmt_u64(frac, 1000000u + usec);    /* "1" and six digits */
	frac[0] = '.';
	memcpy(p + n, frac, 7);
	return n + 7;
}
