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
		fwrite(o->b, 1, o->n, o->f);
	o->n = 0;
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

void ob_u64(struct obuf *o, uint64_t v)
{
	char tmp[24], *p = u64_digits(v, tmp);

	ob_write(o, p, (size_t)(tmp + 24 - p));
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

void ob_u64w(struct obuf *o, uint64_t v, unsigned width)
{
	char tmp[24], *p = u64_digits(v, tmp);
	size_t len = (size_t)(tmp + 24 - p);

	if (len < width)
		ob_spaces(o, (unsigned)(width - len));
	ob_write(o, p, len);
}

void ob_putsw(struct obuf *o, const char *s, unsigned width)
{
	size_t len = strlen(s);

	ob_write(o, s, len);
	if (len < width)
		ob_spaces(o, (unsigned)(width - len));
}

static const char hexdig[] = "0123456789abcdef";

void ob_hex(struct obuf *o, uint64_t v, unsigned digits)
{
	char tmp[18];
	unsigned i;

	if (digits > 16)
		digits = 16;
	if (digits == 0)
		digits = 1;
	while (digits < 16 && (v >> (4 * digits)))
		digits++;
	tmp[0] = '0';
	tmp[1] = 'x';
	for (i = 0; i < digits; i++)
		tmp[2 + i] = hexdig[(v >> (4 * (digits - 1 - i))) & 0xf];
	ob_write(o, tmp, 2 + digits);
}

void ob_hexbytes(struct obuf *o, const uint8_t *p, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		ob_putc(o, hexdig[p[i] >> 4]);
		ob_putc(o, hexdig[p[i] & 0xf]);
	}
}

void ob_time(struct obuf *o, int64_t sec, uint32_t usec)
{
	uint64_t mag;
	char frac[7];
	int i;

	if (usec >= 1000000u) {
		int64_t carry = usec / 1000000u;

		if (sec <= INT64_MAX - carry)
			sec += carry;
		usec %= 1000000u;
	}
	/* a negative time is sec + usec/1e6 < 0: print its magnitude */
	if (sec < 0) {
		ob_putc(o, '-');
		mag = (uint64_t)0 - (uint64_t)sec;
		if (usec) {
			mag -= 1;
			usec = 1000000u - usec;
		}
	} else {
		mag = (uint64_t)sec;
	}
	ob_u64(o, mag);
	for (i = 5; i >= 0; i--) {
		frac[1 + i] = (char)('0' + usec % 10);
		usec /= 10;
	}
	frac[0] = '.';
	ob_write(o, frac, 7);
}
