/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * json.h - a small streaming JSON writer (RFC 8259) on struct obuf: commas
 * and nesting are tracked here, strings are escaped, integers are printed
 * exactly (64-bit values never pass through a double).
 */
#ifndef RPCRDMA_JSON_H
#define RPCRDMA_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "outbuf.h"

#define JSON_MAX_DEPTH 16

struct json {
	struct obuf *o;
	unsigned depth;
	bool after_key;                 /* the next value follows "key": */
	uint32_t has_items;             /* bit d: level d already has an item */
};

void json_init(struct json *j, struct obuf *o);

void json_obj_begin(struct json *j);
void json_obj_end(struct json *j);
void json_arr_begin(struct json *j);
void json_arr_end(struct json *j);
/* the comma before an item, unless it follows a key or opens its level */
static inline void json_separate(struct json *j)
{
	uint32_t bit = 1u << (j->depth < 31 ? j->depth : 31);

	if (j->after_key) {
		j->after_key = false;
		return;
	}
	if (j->has_items & bit)
		ob_putc(j->o, ',');
	j->has_items |= bit;
}

/* keys are the printers' own literals: plain ASCII, nothing to escape;
 * inline so that their length is known at compile time */
static inline void json_key(struct json *j, const char *key)
{
	json_separate(j);
	ob_putc(j->o, '"');
	ob_puts(j->o, key);
	ob_write(j->o, "\":", 2);
	j->after_key = true;
}

/* A key given as a string literal: the comma (when the level has an item),
 * the quoted key and the colon in one write of a length known at compile
 * time.  The same output as json_key(). */
#define JSON_KEY(j, k) json_key_lit((j), ",\"" k "\":", sizeof(",\"" k "\":") - 1)
static inline void json_key_lit(struct json *j, const char *s, size_t n)
{
	uint32_t bit = 1u << (j->depth < 31 ? j->depth : 31);

	if (j->after_key) {             /* as json_separate() */
		j->after_key = false;
		ob_write(j->o, s + 1, n - 1);
	} else if (j->has_items & bit) {
		ob_write(j->o, s, n);
	} else {
		j->has_items |= bit;
		ob_write(j->o, s + 1, n - 1);
	}
	j->after_key = true;
}

void json_str(struct json *j, const char *s);          /* NULL prints null */
void json_strn(struct json *j, const char *s, size_t len);
/* A string that stays the same at its address for the whole run (a name
 * from libcodec's or the printers' static tables): the same output as
 * json_str(), its JSON form remembered by address.  NULL prints null. */
void json_lit(struct json *j, const char *s);
void json_u64(struct json *j, uint64_t v);
void json_i64(struct json *j, int64_t v);
void json_bool(struct json *j, bool v);
void json_null(struct json *j);
/* seconds with microseconds as a JSON number: 1700000000.123456 */
void json_time(struct json *j, int64_t sec, uint32_t usec);
/* bytes as a string of lower-case hex digits */
void json_hexstr(struct json *j, const uint8_t *p, size_t len);
/* a number as a string "0x" + at least `digits` lower-case hex digits: the
 * form of xids, handles and offsets (jq reads numbers as doubles, which
 * lose 64-bit offsets) */
void json_hex(struct json *j, uint64_t v, unsigned digits);

/* key + value in one call */
static inline void json_kstr(struct json *j, const char *k, const char *s)
{
	json_key(j, k);
	json_str(j, s);
}

static inline void json_ku64(struct json *j, const char *k, uint64_t v)
{
	json_key(j, k);
	json_u64(j, v);
}

static inline void json_khex(struct json *j, const char *k, uint64_t v,
			     unsigned digits)
{
	json_key(j, k);
	json_hex(j, v, digits);
}

static inline void json_kbool(struct json *j, const char *k, bool v)
{
	json_key(j, k);
	json_bool(j, v);
}

static inline void json_knull(struct json *j, const char *k)
{
	json_key(j, k);
	json_null(j);
}

/* the same with a literal key (JSON_KEY) */
#define JSON_KSTR(j, k, v) do { JSON_KEY(j, k); json_str(j, v); } while (0)
#define JSON_KU64(j, k, v) do { JSON_KEY(j, k); json_u64(j, v); } while (0)
#define JSON_KHEX(j, k, v, d) do { JSON_KEY(j, k); json_hex(j, v, d); } while (0)
#define JSON_KBOOL(j, k, v) do { JSON_KEY(j, k); json_bool(j, v); } while (0)
#define JSON_KNULL(j, k) do { JSON_KEY(j, k); json_null(j); } while (0)
#define JSON_KLIT(j, k, v) do { JSON_KEY(j, k); json_lit(j, v); } while (0)

#endif
