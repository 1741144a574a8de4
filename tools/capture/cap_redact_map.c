/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cap_redact_map.c - what --redact puts in place of identifying values:
 * a keyed hash (SipHash-2-4, 128-bit key: random per run unless
 * --redact-key gives it) for file handles and stateids, so the same input
 * gives the same output within one run and conversations still line up,
 * and numbered names ("name-1", "host-2") for names, the same name always
 * getting the same number.  Lengths never change (they are on the wire).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cap_redact.h"

#ifndef CAP_FUZZ_CRC
#define NAME_SLOTS 65536u            /* names numbered; then hashed numbers */
#else
#define NAME_SLOTS 256u              /* the fuzz build: small tables */
#endif

struct rdx_map {
	uint64_t k0, k1;
	uint32_t next;               /* the last number given */
	uint64_t *slot_h;            /* a name's hash, 0 free */
	uint32_t *slot_n;
	uint32_t used;
};

static uint64_t rotl(uint64_t v, int b)
{
	return v << b | v >> (64 - b);
}

#define SIPROUND(v0, v1, v2, v3) do { \
	v0 += v1; v1 = rotl(v1, 13); v1 ^= v0; v0 = rotl(v0, 32); \
	v2 += v3; v3 = rotl(v3, 16); v3 ^= v2; \
	v0 += v3; v3 = rotl(v3, 21); v3 ^= v0; \
	v2 += v1; v1 = rotl(v1, 17); v1 ^= v2; v2 = rotl(v2, 32); \
} while (0)

static uint64_t le64(const uint8_t *p)
{
	uint64_t v = 0;
	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* SipHash-2-4 (Aumasson and Bernstein, 2012) of domain || p[len] */
uint64_t rdx_hash(const struct rdx_map *m, uint32_t domain, const uint8_t *p,
		  uint32_t len)
{
	uint64_t v0 = m->k0 ^ 0x736f6d6570736575ull;
	uint64_t v1 = m->k1 ^ 0x646f72616e646f6dull;
	uint64_t v2 = m->k0 ^ 0x6c7967656e657261ull;
	uint64_t v3 = m->k1 ^ 0x7465646279746573ull;
	uint64_t total = (uint64_t)len + 4;
	uint8_t blk[8];
	uint32_t fill = 4;

	memcpy(blk, &domain, 4);
	for (uint32_t i = 0;; i++) {
		if (fill == 8) {
			uint64_t w = le64(blk);
			v3 ^= w;
			SIPROUND(v0, v1, v2, v3);
			SIPROUND(v0, v1, v2, v3);
			v0 ^= w;
			fill = 0;
		}
		if (i == len)
			break;
		blk[fill++] = p[i];
	}
	memset(blk + fill, 0, 8 - fill);
	blk[7] = (uint8_t)total;
	uint64_t w = le64(blk);
	v3 ^= w;
	SIPROUND(v0, v1, v2, v3);
	SIPROUND(v0, v1, v2, v3);
	v0 ^= w;
	v2 ^= 0xff;
	for (int r = 0; r < 4; r++)
		SIPROUND(v0, v1, v2, v3);
	return v0 ^ v1 ^ v2 ^ v3;
}

struct rdx_map *rdx_map_new(const uint8_t key[16])
{
	struct rdx_map *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->k0 = le64(key);
	m->k1 = le64(key + 8);
	m->slot_h = calloc(NAME_SLOTS, sizeof(*m->slot_h));
	m->slot_n = calloc(NAME_SLOTS, sizeof(*m->slot_n));
	if (!m->slot_h || !m->slot_n) {
		rdx_map_free(m);
		return NULL;
	}
	return m;
}

void rdx_map_free(struct rdx_map *m)
{
	if (!m)
		return;
	free(m->slot_h);
	free(m->slot_n);
	free(m);
}

void rdx_hash_bytes(const struct rdx_map *m, uint8_t *p, uint32_t len)
{
	uint64_t seed = rdx_hash(m, 1, p, len);

	for (uint32_t i = 0; i < len; i += 8) {
		uint8_t in[12];
		memcpy(in, &seed, 8);
		memcpy(in + 8, &i, 4);
		uint64_t h = rdx_hash(m, 2, in, sizeof(in));
		uint32_t n = len - i < 8 ? len - i : 8;
		memcpy(p + i, &h, n);
	}
}

/* The number of a name: the same name, the same number */
static uint32_t number_of(struct rdx_map *m, uint64_t h)
{
	h |= 1;                            /* 0 marks a free slot */
	for (uint32_t i = 0, s = (uint32_t)h & (NAME_SLOTS - 1); i < 64;
	     i++, s = (s + 1) & (NAME_SLOTS - 1)) {
		if (m->slot_h[s] == h)
			return m->slot_n[s];
		if (!m->slot_h[s] && m->used < NAME_SLOTS / 2) {
			m->slot_h[s] = h;
			m->slot_n[s] = ++m->next;
			m->used++;
			return m->next;
		}
	}
	return 1000000u + (uint32_t)(h >> 32) % 9000000u;  /* table full */
}

/* "name-12" padded with '_' to the length; shorter names get the number's
 * last digits ("12", "2"); "." and ".." stay */
void rdx_name(struct rdx_map *m, const char *prefix, uint8_t *p, uint32_t len)
{
	char s[48];

	if (!len || (len <= 2 && p[0] == '.' && p[len - 1] == '.'))
		return;
	uint32_t n = number_of(m, rdx_hash(m, 3, p, len));
	int w = snprintf(s, sizeof(s), "%s-%u", prefix, n);
	if (w > 0 && (uint32_t)w <= len) {
		memcpy(p, s, (size_t)w);
		memset(p + w, '_', len - (uint32_t)w);
		return;
	}
	w = snprintf(s, sizeof(s), "%u", n);
	for (uint32_t i = 0; i < len; i++)
		p[len - 1 - i] = i < (uint32_t)w ? (uint8_t)s[w - 1 - (int)i] : '0';
}

/* uids and gids: 0 (root) and 65534 (nobody) stay, the others become
 * 100000 .. 999999 by the keyed hash */
uint32_t rdx_id(const struct rdx_map *m, uint32_t id)
{
	if (id == 0 || id == 65534)
		return id;
	return 100000u + (uint32_t)(rdx_hash(m, 4, (const uint8_t *)&id, 4) %
				    900000u);
}

/* --redact=keys: an RDMA handle (STag, R_Key) by another, 0 staying 0, and
 * an address under it moved by a per-handle amount, so that every offset
 * within a segment keeps its distance from the segment's start */
uint32_t rdx_handle(const struct rdx_map *m, uint32_t h)
{
	return h ? (uint32_t)rdx_hash(m, 5, (const uint8_t *)&h, 4) | 1u : 0;
}

uint64_t rdx_offset(const struct rdx_map *m, uint32_t h, uint64_t va)
{
	return va + rdx_hash(m, 6, (const uint8_t *)&h, 4);
}
