/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cap_src.h - the bytes of one capture file, plain or gzip-compressed,
 * from a path or standard input (cap_src.c).
 */
#ifndef RPCRDMA_CAP_SRC_H
#define RPCRDMA_CAP_SRC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <zlib.h>

#define CAP_SRC_MAX (64u << 20)      /* the largest record or block */

struct cap_src {
	int fd;
	bool regular;                /* a regular file: a read never waits */
	bool sniffed;                /* the gzip magic was looked for */
	bool gz, zmid;               /* inflating; inside a gzip member */
	z_stream z;
	uint8_t *zin;                /* compressed bytes */
	uint8_t *buf;                /* bytes not yet consumed: buf[start..end) */
	size_t cap, start, end;
	uint64_t off;                /* stream offset of buf[start] (uncompressed) */
	int err;                     /* errno of a failed read */
	const char *zerr;            /* what zlib found wrong */
	FILE *flush;                 /* flushed before a read that would wait */
};

/* 0, or the errno */
int cap_src_open(struct cap_src *s, const char *path, FILE *flush);
void cap_src_close(struct cap_src *s);
/* The next n bytes, not consumed; NULL when fewer remain (*have says how
 * many: the end, an error, or more than CAP_SRC_MAX) */
const uint8_t *cap_src_fill(struct cap_src *s, size_t n, size_t *have);
static inline const uint8_t *cap_src_peek(struct cap_src *s, size_t n,
					  size_t *have)
{
	size_t held = s->end - s->start;

	if (held >= n) {             /* every record but one a buffer */
		*have = held;
		return s->buf + s->start;
	}
	return cap_src_fill(s, n, have);
}

static inline void cap_src_skip(struct cap_src *s, size_t n)
{
	if (n > s->end - s->start)
		n = s->end - s->start;
	s->start += n;
	s->off += n;
}
/* why the bytes stopped, NULL at a clean end */
const char *cap_src_error(const struct cap_src *s);

#endif
