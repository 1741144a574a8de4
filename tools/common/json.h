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
/* the level bits below are 1u << (depth & 31): depth never passes this */
_Static_assert(JSON_MAX_DEPTH < 31, "JSON_MAX_DEPTH: one bit per level");

/* the key-and-value writers are a few moves each: inline them always */
#if defined(__GNUC__) || defined(__clang__)
#define JSON_INLINE static inline __attribute__((always_inline))
#else
#define JSON_INLINE static inline
#endif

struct json {
	struct obuf *o;
	unsigned depth;
	bool after_key;                 /* the next value follows "key": */
	uint32_t has_items;             /* bit d: level d already has an item */
};

void json_init(struct json *j, struct obuf *o);

/* the comma before an item, unless it follows a key or opens its level */
static inline void json_separate(struct json *j)
{
	uint32_t bit = 1u << (j->depth & 31);    /* depth <= JSON_MAX_DEPTH */

	if (j->after_key) {
		j->after_key = false;
		return;
	}
	if (j->has_items & bit)
		ob_putc(j->o, ',');
	j->has_items |= bit;
}

/* objects and arrays: inline, a few per message */
JSON_INLINE void json_nest_open_(struct json *j, char c)
{
	json_separate(j);
	ob_putc(j->o, c);
	if (j->depth < JSON_MAX_DEPTH)
		j->depth++;
	j->has_items &= ~(1u << j->depth);
}

JSON_INLINE void json_nest_close_(struct json *j, char c)
{
	if (j->depth)
		j->depth--;
	ob_putc(j->o, c);
}

JSON_INLINE void json_obj_begin(struct json *j)
{
	json_nest_open_(j, '{');
}

JSON_INLINE void json_obj_end(struct json *j)
{
	json_nest_close_(j, '}');
}

JSON_INLINE void json_arr_begin(struct json *j)
{
	json_nest_open_(j, '[');
}

JSON_INLINE void json_arr_end(struct json *j)
{
	json_nest_close_(j, ']');
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
#define JSON_KEY_(j, s, n) json_key_lit((j), (s), (n))
static inline void json_key_lit(struct json *j, const char *s, size_t n)
{
	uint32_t bit = 1u << (j->depth & 31);    /* depth <= JSON_MAX_DEPTH */

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

/*
 * Key and value in one step (the printers' hot path): one room check for
 * the key (a literal: its comma, quotes and colon are one constant copy)
 * and the value's longest form, then the value formatted in place, without
 * printf.  The same output as JSON_KEY() and the json_*() value call.
 */
#define JSON_KEYLIT(k) ",\"" k "\":", sizeof(",\"" k "\":") - 1

/* writes the key, leaves room for `vmax` more bytes, returns where the
 * value goes (the caller adds its length to j->o->n) */
JSON_INLINE char *json_kput(struct json *j, const char *s, size_t n,
			      size_t vmax)
{
	struct obuf *o = j->o;
	uint32_t bit = 1u << (j->depth & 31);    /* depth <= JSON_MAX_DEPTH */
	size_t skip = 1;                /* no comma: start after s[0] */
	char *p;

	if (n + vmax > sizeof(o->b) - o->n)
		ob_flush(o);
	p = o->b + o->n;
	if (j->after_key)               /* as json_separate() */
		j->after_key = false;
	else if (j->has_items & bit)
		skip = 0;
	else
		j->has_items |= bit;
	/* n bytes from s + 1 end at the literal's NUL: a constant-size copy */
	memcpy(p, s + skip, n);
	o->n += n - skip;
	return o->b + o->n;
}

JSON_INLINE void json_ku64_lit(struct json *j, const char *s, size_t n,
				 uint64_t v)
{
	char *p = json_kput(j, s, n, 20);

	j->o->n += ob_fmt_u64(p, v);
}

JSON_INLINE void json_khex_lit(struct json *j, const char *s, size_t n,
				 uint64_t v, unsigned digits)
{
	char *p = json_kput(j, s, n, 20);
	unsigned len = ob_fmt_hex(p + 1, v, digits);

	p[0] = '"';
	p[len + 1] = '"';
	j->o->n += len + 2;
}

JSON_INLINE void json_kbool_lit(struct json *j, const char *s, size_t n,
				  bool v)
{
	char *p = json_kput(j, s, n, 8);

	memcpy(p, v ? "true\0\0\0" : "false\0\0", 8);
	j->o->n += v ? 4 : 5;
}

JSON_INLINE void json_knull_lit(struct json *j, const char *s, size_t n)
{
	char *p = json_kput(j, s, n, 4);

	memcpy(p, "null", 4);
	j->o->n += 4;
}

/* a string value: short plain strings (addresses, names) copied as they
 * are checked; anything else through json_str() */
extern const unsigned char json_plain_[256];

/* true when no byte of s[len] needs escaping (json_plain_[] all through),
 * eight bytes at a time: the names and addresses the printers write are */
static inline bool json_all_plain_(const unsigned char *s, size_t len)
{
	const uint64_t ones = 0x0101010101010101u, high = 0x8080808080808080u;
	size_t i = 0;

	for (; i + 8 <= len; i += 8) {
		uint64_t x, q, b;

		memcpy(&x, s + i, 8);
		q = x ^ (ones * '"');
		b = x ^ (ones * '\\');
		/* a byte >= 0x80, < 0x20, equal to '"' or to '\\' */
		if ((x & high) || ((x - ones * 0x20) & ~x & high) ||
		    ((q - ones) & ~q & high) || ((b - ones) & ~b & high))
			return false;
	}
	for (; i < len; i++)
		if (!json_plain_[s[i]])
			return false;
	return true;
}

#define JSON_SHORT 64
JSON_INLINE void json_kstr_lit(struct json *j, const char *s, size_t n,
				 const char *v)
{
	size_t len;
	char *p;

	if (!v) {
		json_knull_lit(j, s, n);
		return;
	}
	/* measured and checked a word at a time, then one copy */
	len = strnlen(v, JSON_SHORT + 1);
	if (len <= JSON_SHORT && json_all_plain_((const unsigned char *)v, len)) {
		p = json_kput(j, s, n, JSON_SHORT + 2);
		p[0] = '"';
		memcpy(p + 1, v, len);
		p[len + 1] = '"';
		j->o->n += len + 2;
		return;
	}
	JSON_KEY_(j, s, n);             /* the value the long way */
	json_str(j, v);
}

/* a name from a static table (json_lit()) */
struct json_lit_slot {
	const char *s;
	unsigned char len;           /* of q: the string with its quotes */
	char q[62 + 2];
};
const struct json_lit_slot *json_lit_slot(const char *s);  /* NULL: not cacheable */
JSON_INLINE void json_klit_lit(struct json *j, const char *s, size_t n,
				 const char *v)
{
	const struct json_lit_slot *l = v ? json_lit_slot(v) : NULL;
	char *p;

	if (!l) {
		JSON_KEY_(j, s, n);
		json_lit(j, v);
		return;
	}
	p = json_kput(j, s, n, sizeof(l->q));
	memcpy(p, l->q, sizeof(l->q));
	j->o->n += l->len;
}

/* seconds.microseconds */
JSON_INLINE void json_ktime_lit(struct json *j, const char *s, size_t n,
				  int64_t sec, uint32_t usec)
{
	char *p = json_kput(j, s, n, 28);

	j->o->n += ob_fmt_time(p, sec, usec);
}

/* the same with a literal key (JSON_KEY) */
#define JSON_KSTR(j, k, v) json_kstr_lit((j), JSON_KEYLIT(k), (v))
#define JSON_KU64(j, k, v) json_ku64_lit((j), JSON_KEYLIT(k), (v))
#define JSON_KHEX(j, k, v, d) json_khex_lit((j), JSON_KEYLIT(k), (v), (d))
#define JSON_KBOOL(j, k, v) json_kbool_lit((j), JSON_KEYLIT(k), (v))
#define JSON_KNULL(j, k) json_knull_lit((j), JSON_KEYLIT(k))
#define JSON_KLIT(j, k, v) json_klit_lit((j), JSON_KEYLIT(k), (v))
#define JSON_KTIME(j, k, s, u) json_ktime_lit((j), JSON_KEYLIT(k), (s), (u))

/*
 * A memo of a stretch of output that a few values decide (the verdict of a
 * well-formed message, the fixed header of a common one): the first time,
 * the printer writes it as usual between json_memo_start() and
 * json_memo_put(); while the key, and the writer's state where the stretch
 * begins, stay the same, json_memo_get() copies the bytes instead.  The
 * key holds everything the stretch depends on (strings by content).
 */
#define JSON_MEMO_KEY 160
#define JSON_MEMO_MAX 384
struct json_memo {
	size_t klen, len;            /* len 0: empty */
	unsigned depth;              /* the writer's state before ... */
	uint32_t items;              /* (levels 0..depth) */
	bool after_key;
	uint32_t items_after;        /* ... and after */
	unsigned char key[JSON_MEMO_KEY];
	char b[JSON_MEMO_MAX];
};
struct json_memo_mark {
	size_t start;
	unsigned long flushes;
	unsigned depth;
	uint32_t items;
	bool after_key;
};

static inline uint32_t json_levels_(const struct json *j)
{
	return j->depth >= 31 ? UINT32_MAX : (2u << j->depth) - 1;
}

/* true: the stretch was written from the memo */
JSON_INLINE bool json_memo_get(struct json *j, const struct json_memo *mm,
				 const void *key, size_t klen)
{
	uint32_t lv = json_levels_(j);

	if (!mm->len || mm->klen != klen || mm->depth != j->depth ||
	    mm->after_key != j->after_key || mm->items != (j->has_items & lv) ||
	    memcmp(mm->key, key, klen))
		return false;
	ob_write(j->o, mm->b, mm->len);
	j->has_items = (j->has_items & ~lv) | mm->items_after;
	j->after_key = false;
	return true;
}

JSON_INLINE void json_memo_start(struct json *j, struct json_memo_mark *k)
{
	ob_room(j->o, JSON_MEMO_MAX);
	k->start = j->o->n;
	k->flushes = j->o->flushes;
	k->depth = j->depth;
	k->items = j->has_items & json_levels_(j);
	k->after_key = j->after_key;
}

/* remembers what was written since json_memo_start(), when it fits */
void json_memo_put(struct json *j, struct json_memo *mm,
		   const struct json_memo_mark *k, const void *key, size_t klen);

#endif
