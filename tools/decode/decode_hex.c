/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * decode_hex.c - `rpcrdma-decode --hex HEX`: one transport message (the
 * bytes of one RDMA Send, V1 §4.2) given as hex digits on the command line
 * or standard input, judged with rpcrdma_decode() and printed as a tree or
 * as one JSON object (man/rpcrdma-decode.1).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "decode.h"
#include "msgprint.h"
#include "rpcrdma/codec.h"

#define PROG "rpcrdma-decode"
#define HEX_MAX_BYTES (1u << 20)       /* 1 MiB: far above any inline threshold */

/* The hex text, fed in pieces (a string, or stdin a block at a time) */
struct hexparse {
	uint8_t *buf;
	size_t len;                    /* bytes complete */
	size_t pos;                    /* characters seen */
	size_t digits;
	int hi;                        /* pending high nibble, or -1 */
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

__attribute__((format(printf, 1, 2)))
static int hex_error(const char *fmt, ...)
{
	va_list ap;

	fputs(PROG ": --hex: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return DECODE_EXIT_USAGE;
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
			return hex_error("bad character at position %llu: %s "
					 "(expected hex digits, spaces or ':')",
					 (unsigned long long)hp->pos, shown);
		}
		hp->digits++;
		if (hp->hi < 0) {
			hp->hi = d;
			continue;
		}
		if (hp->len == HEX_MAX_BYTES)
			return hex_error("message too large (need at most %llu bytes, "
					 "have more)", (unsigned long long)HEX_MAX_BYTES);
		hp->buf[hp->len++] = (uint8_t)(hp->hi << 4 | d);
		hp->hi = -1;
	}
	return 0;
}

static int hex_finish(const struct hexparse *hp)
{
	if (hp->digits == 0)
		return hex_error("no hex digits in the input (need at least 2, "
				 "have 0)");
	if (hp->hi >= 0)
		return hex_error("odd number of hex digits (need an even count, "
				 "have %llu)", (unsigned long long)hp->digits);
	return 0;
}

static int read_stdin(struct hexparse *hp)
{
	char block[65536];
	size_t n;
	int rc;

	while ((n = fread(block, 1, sizeof(block), stdin)) > 0) {
		rc = hex_feed(hp, block, n);
		if (rc)
			return rc;
	}
	if (ferror(stdin)) {
		fprintf(stderr, PROG ": --hex -: reading standard input: %s\n",
			strerror(errno));
		return DECODE_EXIT_USAGE;
	}
	return 0;
}

int decode_hex_main(const struct decode_opts *o)
{
	static uint8_t buf[HEX_MAX_BYTES];
	struct hexparse hp = { .buf = buf, .hi = -1 };
	const struct msg_ctx ctx = { .in_capture = false };
	struct rpcrdma_msg m;
	int rc;

	if (strcmp(o->hex, "-") == 0)
		rc = read_stdin(&hp);
	else
		rc = hex_feed(&hp, o->hex, strlen(o->hex));
	if (!rc)
		rc = hex_finish(&hp);
	if (rc)
		return rc;

	rpcrdma_decode(hp.buf, hp.len, &m);
	if (o->json)
		msgprint_json(stdout, &m, &ctx);
	else
		msgprint_tree(stdout, &m, &ctx);
	return m.action == RPCRDMA_ACCEPT ? DECODE_EXIT_OK : DECODE_EXIT_FAULT;
}
