/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * json.c - the JSON writer: value separators, nesting and string escaping
 * (RFC 8259 §7: quote, backslash and control characters escaped; invalid
 * UTF-8 replaced by U+FFFD so that the output is always valid JSON).
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include "json.h"

void json_init(struct json *j, struct obuf *o)
{
	j->o = o;
	j->depth = 0;
	j->after_key = false;
	j->has_items = 0;
}

/* Length of the valid UTF-8 sequence at s (RFC 3629 §4), 0 if invalid. */
static size_t utf8_len(const unsigned char *s, size_t left)
{
	unsigned char c = s[0];
	size_t n, i;

	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4;
	else
		return 0;
	if (n > left)
		return 0;
	for (i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	/* no overlong forms, no surrogates, nothing above U+10FFFF */
	if ((c == 0xe0 && s[1] < 0xa0) || (c == 0xed && s[1] > 0x9f) ||
	    (c == 0xf0 && s[1] < 0x90) || (c == 0xf4 && s[1] > 0x8f))
		return 0;
	return n;
}

/* 1 for the bytes that stand for themselves in a JSON string: printable
 * ASCII but '"' (0x22) and '\\' (0x5c) */
#define P16 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1
const unsigned char json_plain_[256] = {
	[0x20] = 1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	[0x30] = P16,
	[0x40] = P16,
	[0x50] = 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1,
	[0x60] = P16,
	[0x70] = P16,
};
#undef P16

static void escape(struct obuf *o, const unsigned char *s, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	size_t i = 0, start = 0, n;
	char esc[6];

	while (i < len) {
		unsigned char c = s[i];

		if (json_plain_[c]) {
			i++;
			continue;
		}
		if (c >= 0x80 && (n = utf8_len(s + i, len - i)) != 0) {
			i += n;
			continue;
		}
		ob_write(o, (const char *)s + start, i - start);
		switch (c) {
		case '"': ob_write(o, "\\\"", 2); break;
		case '\\': ob_write(o, "\\\\", 2); break;
		case '\n': ob_write(o, "\\n", 2); break;
		case '\r': ob_write(o, "\\r", 2); break;
		case '\t': ob_write(o, "\\t", 2); break;
		case '\b': ob_write(o, "\\b", 2); break;
		case '\f': ob_write(o, "\\f", 2); break;
		default:
			if (c >= 0x80) {
				ob_write(o, "\\ufffd", 6);
				break;
			}
			memcpy(esc, "\\u00", 4);
			esc[4] = hex[c >> 4];
			esc[5] = hex[c & 0xf];
			ob_write(o, esc, 6);
		}
		start = ++i;
	}
	ob_write(o, (const char *)s + start, len - start);
}

void json_strn(struct json *j, const char *s, size_t len)
{
	char *p;

	json_separate(j);
	if (len <= OBUF_SIZE - 2 && json_all_plain_((const unsigned char *)s, len)) {
		p = ob_room(j->o, len + 2);
		p[0] = '"';
		memcpy(p + 1, s, len);
		p[len + 1] = '"';
		j->o->n += len + 2;
		return;
	}
	ob_putc(j->o, '"');
	escape(j->o, (const unsigned char *)s, len);
	ob_putc(j->o, '"');
}

void json_str(struct json *j, const char *s)
{
	if (!s) {
		json_null(j);
		return;
	}
	json_strn(j, s, strlen(s));
}

void json_u64(struct json *j, uint64_t v)
{
	json_separate(j);
	ob_u64(j->o, v);
}

void json_i64(struct json *j, int64_t v)
{
	json_separate(j);
	ob_i64(j->o, v);
}

void json_bool(struct json *j, bool v)
{
	json_separate(j);
	if (v)
		ob_write(j->o, "true", 4);
	else
		ob_write(j->o, "false", 5);
}

void json_null(struct json *j)
{
	json_separate(j);
	ob_write(j->o, "null", 4);
}

void json_time(struct json *j, int64_t sec, uint32_t usec)
{
	json_separate(j);
	ob_time(j->o, sec, usec);
}

void json_hexstr(struct json *j, const uint8_t *p, size_t len)
{
	json_separate(j);
	ob_putc(j->o, '"');
	ob_hexbytes(j->o, p, len);
	ob_putc(j->o, '"');
}

void json_hex(struct json *j, uint64_t v, unsigned digits)
{
	json_separate(j);
	ob_room(j->o, 20);              /* the quotes and ob_hex's 18 */
	j->o->b[j->o->n++] = '"';
	ob_hex(j->o, v, digits);
	j->o->b[j->o->n++] = '"';
}

/*
 * Strings that never change at their address (the names in libcodec's and
 * the printers' tables): the quoted JSON form of each is made once and
 * remembered by its address, so that the many names of each message cost
 * a lookup and a copy.  A small direct-mapped table; the printers run in
 * one thread.  Strings that need escaping, or are long, go the usual way.
 */
#define LIT_SLOTS 512
#define LIT_MAX ((int)sizeof(((struct json_lit_slot *)0)->q) - 2)
static struct json_lit_slot lits[LIT_SLOTS];

const struct json_lit_slot *json_lit_slot(const char *s)
{
	struct json_lit_slot *l;
	size_t len;

	l = &lits[((uintptr_t)s ^ (uintptr_t)s >> 9) % LIT_SLOTS];
	if (l->s == s)
		return l;
	len = strlen(s);
	if (len > LIT_MAX || !json_all_plain_((const unsigned char *)s, len))
		return NULL;
	l->q[0] = '"';
	memcpy(l->q + 1, s, len);
	l->q[len + 1] = '"';
	l->len = (unsigned char)(len + 2);
	l->s = s;
	return l;
}

void json_lit(struct json *j, const char *s)
{
	const struct json_lit_slot *l;

	if (!s) {
		json_null(j);
		return;
	}
	l = json_lit_slot(s);
	if (!l) {
		json_str(j, s);
		return;
	}
	json_separate(j);
	memcpy(ob_room(j->o, sizeof(l->q)), l->q, sizeof(l->q));
	j->o->n += l->len;
}

void json_memo_put(struct json *j, struct json_memo *mm,
		   const struct json_memo_mark *k, const void *key, size_t klen)
{
	size_t len = j->o->n - k->start;

	if (j->o->flushes != k->flushes || j->o->n < k->start ||
	    len > sizeof(mm->b) || !len || klen > sizeof(mm->key) ||
	    j->depth != k->depth || j->after_key)
		return;
	memcpy(mm->b, j->o->b + k->start, len);
	memcpy(mm->key, key, klen);
	mm->klen = klen;
	mm->len = len;
	mm->depth = k->depth;
	mm->items = k->items;
	mm->after_key = k->after_key;
	mm->items_after = j->has_items & json_levels_(j);
}
