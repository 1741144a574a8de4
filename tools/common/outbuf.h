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

void ob_u64(struct obuf *o, uint64_t v);                 /* decimal */
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
