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

#ifndef CAP_FUZZ_CRC
#define ADDR_SLOTS 16384u            /* addresses remapped (power of two) */
#else
#define ADDR_SLOTS 64u               /* the fuzz build: small tables */
#endif

/* --redact=addresses: an address (4 or 16 bytes) and its replacement */
struct addr_slot {
	uint8_t len;                 /* 0 free, 4, 16 */
	uint8_t a[16];
};

struct rdx_map {
	struct addr_slot *from, *to; /* ADDR_SLOTS each: by the original,
				      * by the replacement (to[i] the
				      * replacement of from[i]); the set of
				      * replacements in `taken` */
	struct addr_slot *taken;
	uint32_t addr_used;
	uint64_t addr_full;          /* replaced past a full table */
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
	free(m->from);
	free(m->to);
	free(m->taken);
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

/* ---- --redact=addresses */

static uint32_t addr_slot_of(const struct rdx_map *m, uint32_t domain,
			     const uint8_t *a, uint32_t len)
{
	return (uint32_t)rdx_hash(m, domain, a, len) & (ADDR_SLOTS - 1);
}

static bool addr_eq(const struct addr_slot *s, const uint8_t *a, uint32_t len)
{
	return s->len == len && !memcmp(s->a, a, len);
}

/* A candidate replacement number `try` for a[len]: IPv4 into 10.0.0.0/8;
 * IPv6 into fd00::/8, an IPv4-mapped one (::ffff:a.b.c.d, RoCE GIDs) as
 * its IPv4 address, multicast keeping its first two bytes (ff02::...) */
static void candidate(const struct rdx_map *m, const uint8_t *a,
		      uint32_t len, uint32_t try, uint8_t out[16])
{
	uint8_t in[20];
	memcpy(in, a, len);
	memcpy(in + len, &try, 4);
	uint64_t h0 = rdx_hash(m, 7, in, len + 4);
	uint64_t h1 = rdx_hash(m, 8, in, len + 4);
	memcpy(out, &h0, 8);
	memcpy(out + 8, &h1, 8);
	if (len == 4) {
		out[0] = 10;
		return;
	}
	if (a[0] == 0xff) {
		out[0] = a[0];
		out[1] = a[1];
		return;
	}
	out[0] = 0xfd;
}

static bool addr_kept(const uint8_t *a, uint32_t len)
{
	static const uint8_t zero[16], ones[4] = { 255, 255, 255, 255 };
	static const uint8_t lo6[16] = { [15] = 1 };

	if (len == 4)
		return !memcmp(a, zero, 4) || !memcmp(a, ones, 4);
	if (!memcmp(a, zero, 16) || !memcmp(a, lo6, 16))
		return true;               /* ::, ::1 */
	/* ff0X::1, ::2 ... (all nodes, all routers): names no host */
	return a[0] == 0xff && !memcmp(a + 2, zero, 12) && a[14] == 0;
}

/* The slot of a[len] in the table `t` keyed `domain`: where it is, or the
 * free one it would go in; ADDR_SLOTS when neither within 64 probes */
static uint32_t probe(const struct rdx_map *m, const struct addr_slot *t,
		      uint32_t domain, const uint8_t *a, uint32_t len)
{
	uint32_t s = addr_slot_of(m, domain, a, len);

	for (uint32_t i = 0; i < 64; i++, s = (s + 1) & (ADDR_SLOTS - 1))
		if (!t[s].len || addr_eq(&t[s], a, len))
			return s;
	return ADDR_SLOTS;
}

static bool v4_mapped(const uint8_t *a)
{
	static const uint8_t pre[12] = { [10] = 0xff, [11] = 0xff };
	return !memcmp(a, pre, 12);
}

bool rdx_addr_find(struct rdx_map *m, const uint8_t *a, uint32_t len,
		   uint8_t out[16])
{
	if (!m->from)
		return false;
	uint32_t s = probe(m, m->from, 9, a, len);
	if (s == ADDR_SLOTS || !m->from[s].len)
		return false;
	memcpy(out, m->to[s].a, len);
	return true;
}

int rdx_addr(struct rdx_map *m, const uint8_t *a, uint32_t len,
	     uint8_t out[16])
{
	uint8_t c[16];

	memcpy(out, a, len);
	if (addr_kept(a, len))
		return 0;
	if (len == 16 && v4_mapped(a)) {
		uint8_t v4[16];
		int r = rdx_addr(m, a + 12, 4, v4);
		memcpy(out + 12, v4, 4);
		return r;
	}
	if (!m->from) {
		m->from = calloc(ADDR_SLOTS, sizeof(*m->from));
		m->to = calloc(ADDR_SLOTS, sizeof(*m->to));
		m->taken = calloc(ADDR_SLOTS, sizeof(*m->taken));
		if (!m->from || !m->to || !m->taken)
			return -1;
	}
	uint32_t s = probe(m, m->from, 9, a, len);
	if (s < ADDR_SLOTS && m->from[s].len) {
		memcpy(out, m->to[s].a, len);
		return 1;
	}
	/* new: the first candidate no other address has, the table kept at
	 * most half full; past that (or 64 candidates taken) the keyed hash
	 * alone: the same address still gets the same replacement, but two
	 * may then share one (counted, said on stderr) */
	if (s < ADDR_SLOTS && m->addr_used < ADDR_SLOTS / 2) {
		for (uint32_t try = 0; try < 64; try++) {
			candidate(m, a, len, try, c);
			if (addr_kept(c, len))
				continue;
			uint32_t t = probe(m, m->taken, 10, c, len);
			if (t == ADDR_SLOTS)
				break;
			if (m->taken[t].len)
				continue;          /* another address has it */
			m->taken[t].len = (uint8_t)len;
			memcpy(m->taken[t].a, c, len);
			m->from[s].len = m->to[s].len = (uint8_t)len;
			memcpy(m->from[s].a, a, len);
			memcpy(m->to[s].a, c, len);
			m->addr_used++;
			memcpy(out, c, len);
			return 1;
		}
	}
	m->addr_full++;
	candidate(m, a, len, 0, c);
	memcpy(out, c, len);
	return 1;
}

uint64_t rdx_addr_full(const struct rdx_map *m)
{
	return m->addr_full;
}

/* A CM MAD or other bytes that may quote addresses (RoCE CM REQ and REP:
 * GIDs, the RDMA CM private data header's IP addresses): every 16- and
 * 4-byte string equal to an address already replaced gets its
 * replacement */
void rdx_addr_scrub(struct rdx *x, uint8_t *p, uint32_t n)
{
	uint8_t out[16];

	if (!x->addresses)
		return;
	for (uint32_t i = 0; i < n; i++) {
		if (n - i >= 16 && rdx_addr_find(x->map, p + i, 16, out)) {
			memcpy(p + i, out, 16);
			x->n.addresses++;
			i += 15;
		} else if (n - i >= 4 && rdx_addr_find(x->map, p + i, 4, out)) {
			memcpy(p + i, out, 4);
			x->n.addresses++;
			i += 3;
		}
	}
}
