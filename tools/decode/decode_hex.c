/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * decode_hex.c - `rpcrdma-decode --hex HEX`: one transport message (the
 * bytes of one RDMA Send, V1 §4.2) given as hex digits, judged with
 * rpcrdma_decode() and printed as a tree or as one JSON object
 * (man/rpcrdma-decode.1); `--hex -`: one message per line of standard input,
 * '#' starting a comment, blank lines skipped (the form of samples/).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "decode.h"
#include "msgprint.h"
#include "rpcrdma/codec.h"

#define PROG "rpcrdma-decode"
#define HEX_MAX_BYTES (1u << 20)       /* 1 MiB: far above any inline threshold */

/* The hex text of one message, fed in pieces */
struct hexparse {
	uint8_t *buf;
	size_t len;                    /* bytes complete */
	size_t pos;                    /* characters seen */
	size_t digits;
	int hi;                        /* pending high nibble, or -1 */
	const char *where;             /* "--hex" or "--hex -: line N" */
};

static int nibble(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

__attribute__((format(printf, 2, 3)))
static int hex_error(const struct hexparse *hp, const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, PROG ": %s: ", hp->where);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return DECODE_EXIT_USAGE;
}

static void hex_reset(struct hexparse *hp, const char *where)
{
	hp->len = hp->pos = hp->digits = 0;
	hp->hi = -1;
	hp->where = where;
}

static int hex_feed(struct hexparse *hp, const char *s, size_t n)
{
	char shown[8];
	size_t i;
	int d;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		hp->pos++;
		if (c == ' ' || c == '\t' || c == '\n' || c == '\r' ||
		    c == '\f' || c == '\v' || c == ':')
			continue;
		d = nibble(c);
		if (d < 0) {
			if (c > 0x20 && c < 0x7f)
				snprintf(shown, sizeof(shown), "'%c'", c);
			else
				snprintf(shown, sizeof(shown), "0x%02x", c);
			return hex_error(hp, "bad character at position %llu: %s "
					 "(expected hex digits, spaces or ':')",
					 (unsigned long long)hp->pos, shown);
		}
		hp->digits++;
		if (hp->hi < 0) {
			hp->hi = d;
			continue;
		}
		if (hp->len == HEX_MAX_BYTES)
			return hex_error(hp, "message too large (need at most %llu "
					 "bytes, have more)",
					 (unsigned long long)HEX_MAX_BYTES);
		hp->buf[hp->len++] = (uint8_t)(hp->hi << 4 | d);
		hp->hi = -1;
	}
	return 0;
}

static int hex_finish(const struct hexparse *hp)
{
	if (hp->digits == 0)
		return hex_error(hp, "no hex digits in the input (need at least 2, "
				 "have 0)");
	if (hp->hi >= 0)
		return hex_error(hp, "odd number of hex digits (need an even count, "
				 "have %llu)", (unsigned long long)hp->digits);
	return 0;
}

/* decode and print one message; 0 accepted, 1 not */
static int one(const struct decode_opts *o, const struct hexparse *hp,
	       unsigned nth)
{
	const struct msg_ctx ctx = { .in_capture = false };
	struct rpcrdma_msg m;

	rpcrdma_decode(hp->buf, hp->len, &m);
	if (o->json) {
		msgprint_json(stdout, &m, &ctx);
	} else {
		if (nth > 1)
			putchar('\n');         /* a blank line between trees */
		msgprint_tree(stdout, &m, &ctx);
	}
	return m.action == RPCRDMA_ACCEPT ? DECODE_EXIT_OK : DECODE_EXIT_FAULT;
}

/* `--hex -`: a message per line; exit 1 when any is not accepted */
static int read_lines(const struct decode_opts *o, struct hexparse *hp)
{
	char block[65536];
	/* static: hp (the caller's) keeps a pointer to it past this call
	 * (gcc 14, -Wdangling-pointer; issue 24, Debian 13) */
	static char where[48];
	unsigned long long line = 1;
	unsigned nth = 0;
	bool comment = false;
	int rc = DECODE_EXIT_OK, r;
	size_t n;

	snprintf(where, sizeof(where), "--hex -: line %llu", line);
	hex_reset(hp, where);
	for (;;) {
		/* read(2): each line is decoded as soon as it is typed */
		ssize_t got = read(STDIN_FILENO, block, sizeof(block) - 1);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			fprintf(stderr, PROG ": --hex -: reading standard input: %s\n",
				strerror(errno));
			return DECODE_EXIT_USAGE;
		}
		n = (size_t)got;
		bool end = n == 0;
		if (end)
			block[n++] = '\n';     /* the last line, unended */
		for (size_t i = 0, from = 0; i < n; i++) {
			if (block[i] != '\n' && block[i] != '#')
				continue;
			if (!comment && (r = hex_feed(hp, block + from, i - from)))
				return r;
			from = i + 1;
			if (block[i] == '#') {
				comment = true;
				continue;
			}
			if (hp->digits) {
				if ((r = hex_finish(hp)))
					return r;
				if (one(o, hp, ++nth))
					rc = DECODE_EXIT_FAULT;
			}
			comment = false;
			snprintf(where, sizeof(where), "--hex -: line %llu", ++line);
			hex_reset(hp, where);
		}
		/* the rest of the block: part of the line that goes on */
		if (!end && !comment) {
			size_t last = n;
			while (last && block[last - 1] != '\n' && block[last - 1] != '#')
				last--;
			if (last < n && (r = hex_feed(hp, block + last, n - last)))
				return r;
		}
		if (end)
			break;
	}
	if (!nth) {
		hex_reset(hp, "--hex -");
		return hex_finish(hp);         /* "no hex digits" */
	}
	return rc;
}

int decode_hex_main(const struct decode_opts *o)
{
	static uint8_t buf[HEX_MAX_BYTES];
	struct hexparse hp = { .buf = buf, .hi = -1, .where = "--hex" };
	int rc;

	if (strcmp(o->hex, "-") == 0)
		return read_lines(o, &hp);
	rc = hex_feed(&hp, o->hex, strlen(o->hex));
	if (!rc)
		rc = hex_finish(&hp);
	return rc ? rc : one(o, &hp, 1);
}
