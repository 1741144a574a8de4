/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * msgprint_memo.h - memos for the printers: a stretch of output that a few
 * values decide is written once and then copied while they stay the same.
 * The key holds every value the stretch prints (strings by content);
 * json.h's json_memo adds the JSON writer's state, ob_memo is for text.
 */
#ifndef RPCRDMA_MSGPRINT_MEMO_H
#define RPCRDMA_MSGPRINT_MEMO_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include "json.h"
#include "outbuf.h"

/*
 * The printers run once per message over captures of millions: stretches
 * that a few values decide are written once and then copied (json_memo);
 * a key holds every value its stretch prints, strings by content.
 */
#define MEMO_KEY JSON_MEMO_KEY
struct memo_key {
	size_t n;
	uint64_t h;                  /* picks the memo's slot */
	unsigned char b[MEMO_KEY];
	bool ok;                     /* false: too long to key, no memo */
};

static inline void mk_init(struct memo_key *k)
{
	k->n = 0;
	k->h = 0;
	k->ok = true;
}

static inline void mk_u64(struct memo_key *k, uint64_t v)
{
	if (k->n + sizeof(v) > sizeof(k->b)) {
		k->ok = false;
		return;
	}
	memcpy(k->b + k->n, &v, sizeof(v));
	k->n += sizeof(v);
	k->h = (k->h ^ v) * 0x9e3779b97f4a7c15u;
}

/* a string by content with its NUL (NULL and "" differ) */
static inline void mk_str(struct memo_key *k, const char *s)
{
	size_t len;

	if (!s) {
		mk_u64(k, UINT64_MAX);
		return;
	}
	len = strnlen(s, 65);
	if (len > 64 || k->n + len + 1 > sizeof(k->b)) {
		k->ok = false;              /* too long to key */
		return;
	}
	memcpy(k->b + k->n, s, len + 1);
	k->n += len + 1;
	k->h = (k->h ^ len ^ (uint64_t)(unsigned char)s[len ? len - 1 : 0] << 8 ^
		(uint64_t)(unsigned char)s[len / 2] << 16) * 0x9e3779b97f4a7c15u;
}

/* text: the bytes of one stretch, where the writer has no state */
#define OB_MEMO_MAX 256
struct ob_memo {
	size_t klen, len;            /* len 0: empty */
	unsigned char key[MEMO_KEY];
	char b[OB_MEMO_MAX];
};
struct ob_memo_mark {
	size_t start;
	unsigned long flushes;
};

#define OB_MEMO_SLOTS 32
/* true: written from the memo; else *mark is set for ob_memo_put() */
static inline bool ob_memo_get(struct obuf *o, struct ob_memo *tab,
			       const struct memo_key *k,
			       struct ob_memo_mark *mark, struct ob_memo **slot)
{
	if (k->ok) {
		struct ob_memo *mm = &tab[(k->h >> 40) % OB_MEMO_SLOTS];

		*slot = mm;
		if (mm->len && mm->klen == k->n && !memcmp(mm->key, k->b, k->n)) {
			ob_write(o, mm->b, mm->len);
			return true;
		}
	}
	ob_room(o, OB_MEMO_MAX);
	mark->start = o->n;
	mark->flushes = o->flushes;
	return false;
}

static inline void ob_memo_put(struct obuf *o, struct ob_memo *slot,
			       const struct memo_key *k,
			       const struct ob_memo_mark *mark)
{
	size_t len = o->n - mark->start;

	if (!k->ok || !slot || o->flushes != mark->flushes ||
	    o->n < mark->start || !len || len > sizeof(slot->b))
		return;
	memcpy(slot->b, o->b + mark->start, len);
	memcpy(slot->key, k->b, k->n);
	slot->klen = k->n;
	slot->len = len;
}

#endif
