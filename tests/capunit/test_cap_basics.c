/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_cap_basics.c - the capture pipeline's pieces that stand alone: the
 * three CRCs against their published check values (and the SIMD paths
 * against the table ones), the checked cursor at every edge, the byte
 * budget (accounting, refusal, growth), elapsed time between any two time
 * stamps without overflow, and pcapng time stamps at their extremes.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cap_cur.h"
#include "capunit.h"

static void crcs(void)
{
	const uint8_t *nine = (const uint8_t *)"123456789";
	uint8_t buf[300];

	/* check values: CRC-32 (IEEE 802.3) 0xcbf43926, CRC32c (RFC 3720
	 * B.4, Castagnoli) 0xe3069283; the VCRC polynomial 0x100b, reflected,
	 * all-ones seed and inversion: 0x0a3d (bitwise, tests/oracle/ibcrc.py) */
	tap_ok(cap_crc32(0, nine, 9) == 0xcbf43926u, "CRC-32 check value");
	tap_ok(cap_crc32c(0, nine, 9) == 0xe3069283u, "CRC32c check value");
	tap_ok(cap_crc32_sw(0, nine, 9) == 0xcbf43926u &&
	       cap_crc32c_sw(0, nine, 9) == 0xe3069283u,
	       "CRC-32 and CRC32c check values, table-driven");
	tap_ok(cap_crc16_vcrc(nine, 9) == 0x0a3d, "VCRC check value");
	/* RFC 3720 B.4: 32 bytes of zeros -> aa 36 91 8a (0x8a9136aa) */
	memset(buf, 0, 32);
	tap_ok(cap_crc32c(0, buf, 32) == 0x8a9136aau, "CRC32c of 32 zeros (RFC 3720 B.4)");
	for (unsigned i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)(i * 37 + 11);
	bool same = true, pieces = true;
	for (unsigned n = 0; n <= sizeof(buf); n++) {
		same &= cap_crc32(0, buf, n) == cap_crc32_sw(0, buf, n) &&
			cap_crc32c(0, buf, n) == cap_crc32c_sw(0, buf, n);
		/* continued in two pieces */
		pieces &= cap_crc32(cap_crc32(0, buf, n / 3), buf + n / 3, n - n / 3) ==
			  cap_crc32_sw(0, buf, n);
	}
	tap_ok(same, "CRC-32 and CRC32c: the SIMD paths equal the tables at every length 0..300");
	tap_ok(pieces, "CRC-32 continued over two pieces equals one pass");
	/* two pieces folded with one reduction (the ICRC: masked headers,
	 * then the packet in place): every split of every length, and a
	 * piece of each length after one of 48 (the RoCEv2 IPv4 headers) */
	bool two = true, wrong;
	for (unsigned n = 0; n <= sizeof(buf); n += 1 + n / 64)
		for (unsigned a = 0; a <= n; a++)
			two &= cap_crc32_2(buf, a, buf + a, n - a) ==
			       cap_crc32_sw(0, buf, n);
	for (unsigned n = 48; n <= sizeof(buf); n++)
		two &= cap_crc32_2(buf, 48, buf + 48, n - 48) == cap_crc32_sw(0, buf, n);
	/* one bit flipped in the second piece changes it */
	uint32_t good = cap_crc32_2(buf, 48, buf + 48, 252);
	buf[200] ^= 0x10;
	wrong = cap_crc32_2(buf, 48, buf + 48, 252) != good;
	buf[200] ^= 0x10;
	tap_ok(two, "CRC-32 of two pieces (one reduction) equals the table over both, every split");
	tap_ok(wrong, "CRC-32 of two pieces: a bit flipped in the second piece changes it");
}

static void cursor(void)
{
	static const uint8_t b[10] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };
	struct cap_cur c = cur_make(b, 10), s, t;
	uint8_t u8;
	uint16_t u16;
	uint32_t u32;
	uint64_t u64;

	tap_ok(cur_peek64(&c, 2, &u64) && u64 == 0x030405060708090aull &&
	       !cur_peek64(&c, 3, &u64) && !cur_peek32(&c, 7, &u32) &&
	       cur_peek8(&c, 9, &u8) && u8 == 10 && !cur_peek8(&c, 10, &u8),
	       "cursor: a peek reaches the last byte, never past it");
	tap_ok(!cur_peek16(&c, UINT32_MAX, &u16) && !cur_peek32(&c, UINT32_MAX - 1, &u32) &&
	       !cur_peek64(&c, UINT32_MAX - 5, &u64) && !cur_skip(&c, UINT32_MAX) &&
	       !cur_has(&c, 11) && c.off == 0,
	       "cursor: offsets near 2^32 fail instead of wrapping, cursor unmoved");
	tap_ok(cur_be16(&c, &u16) && u16 == 0x0102 && cur_be32(&c, &u32) &&
	       u32 == 0x03040506 && cur_left(&c) == 4 && !cur_be64(&c, &u64) &&
	       cur_left(&c) == 4, "cursor: reads consume; a failed read leaves it");
	cur_limit(&c, 100);
	tap_ok(cur_left(&c) == 4, "cursor: a limit never widens the view");
	cur_limit(&c, 3);
	tap_ok(cur_left(&c) == 3 && !cur_peek8(&c, 3, &u8), "cursor: a limit narrows it");
	tap_ok(cur_split_tail(&c, 1, &t) && t.len == 1 && t.p[0] == 9 &&
	       cur_left(&c) == 2 && !cur_split_tail(&c, 3, &t),
	       "cursor: the tail splits off, not more than is left");
	tap_ok(cur_sub(&c, 2, &s) && s.len == 2 && s.p[0] == 7 && cur_left(&c) == 0 &&
	       !cur_sub(&c, 1, &s) && !cur_u8(&c, &u8), "cursor: sub-views take bytes");
}

static void budget(void)
{
	struct run r;
	run_open(&r);
	struct cap_state *st = r.st;
	size_t base = st->buffered;
	void *a = cap_budget_alloc(st, CAP_MAX_BUFFERED - base - 10);
	void *b = cap_budget_alloc(st, 11);
	void *c = cap_budget_alloc(st, 10);
	tap_ok(a && !b && c && st->buffered == CAP_MAX_BUFFERED &&
	       st->lost.budget == 1, "budget: allocations up to 16 MiB, one over refused and counted");
	cap_budget_free(st, c, 10);
	cap_budget_free(st, a, CAP_MAX_BUFFERED - base - 10);
	tap_ok(st->buffered == base, "budget: freeing gives the bytes back");

	uint8_t *buf = NULL;
	uint32_t cap = 0;
	bool grew = cap_budget_grow(st, &buf, &cap, 0, 100, 64) && cap == 128;
	memcpy(buf, "keep", 4);
	grew &= cap_budget_grow(st, &buf, &cap, 4, 5000, 64) && cap == 8192 &&
		!memcmp(buf, "keep", 4) && st->buffered == base + 8192;
	tap_ok(grew, "budget: growth doubles from `first` and keeps the contents");
	uint64_t lost = st->lost.budget;
	tap_ok(!cap_budget_grow(st, &buf, &cap, 4, UINT32_MAX, 64) && cap == 8192 &&
	       !memcmp(buf, "keep", 4) && st->lost.budget == lost + 1,
	       "budget: growth past the whole budget refused (no doubling overflow), buffer untouched");
	void *big = cap_budget_alloc(st, CAP_MAX_BUFFERED - st->buffered);
	tap_ok(big && !cap_budget_grow(st, &buf, &cap, 4, 9000, 64) && cap == 8192,
	       "budget: growth refused when the budget is spent");
	cap_budget_free(st, big, CAP_MAX_BUFFERED - base - 8192);
	cap_budget_free(st, buf, cap);
	tap_ok(st->buffered == base, "budget: back to where it started");
	run_close(&r);
}

static void elapsed(void)
{
	tap_ok(cap_elapsed_us(10, 500000, 12, 250000) == 1750000 &&
	       cap_elapsed_us(12, 250000, 10, 500000) == 0 &&
	       cap_elapsed_us(5, 7, 5, 7) == 0, "elapsed: ordinary, backwards, equal");
	tap_ok(cap_elapsed_us(INT64_MIN, 0, INT64_MAX, 999999) == UINT64_MAX &&
	       cap_elapsed_us(INT64_MAX, 0, INT64_MIN, 0) == 0 &&
	       cap_elapsed_us(0, 0, INT64_MAX, 0) == UINT64_MAX &&
	       cap_elapsed_us(-1, 999999, 0, 0) == 1,
	       "elapsed: the extreme time stamps saturate, no signed overflow");
	tap_ok(cap_elapsed_us(0, 4000000000u, 1, 0) == 0 &&
	       cap_elapsed_us(0, 0, 0, 4000000000u) == 4000000000ull,
	       "elapsed: corrupt microsecond fields");
}

/* pcapng: an IDB with if_tsresol 10^-9 and if_tsoffset near 2^63, an EPB
 * with the largest time stamp: the pipeline reads it without overflow */
static void pcapng_times(void)
{
	uint8_t f[512];
	uint32_t o = 0;
	uint8_t frame[64];
	uint32_t n = 0;
	char path[] = "/tmp/capunit-XXXXXX";
	int fd = mkstemp(path);

#define P32(v) do { uint32_t v_ = (v); memcpy(f + o, &v_, 4); o += 4; } while (0)
#define P16(v) do { uint16_t v_ = (v); memcpy(f + o, &v_, 2); o += 2; } while (0)
	P32(0x0a0d0d0a); P32(28); P32(0x1a2b3c4d); P16(1); P16(0);
	P32(0xffffffff); P32(0xffffffff); P32(28);
	/* IDB: link type 1, snaplen 65535, if_tsresol 9, if_tsoffset, end */
	P32(1); P32(44); P16(1); P16(0); P32(65535);
	P16(9); P16(1); f[o] = 9; f[o + 1] = f[o + 2] = f[o + 3] = 0; o += 4;
	P16(14); P16(8); P32(0xffffffff); P32(0x7fffffff);
	P16(0); P16(0);
	P32(44);
	memset(frame, 0, sizeof(frame));
	n = 60;
	P32(6); P32(28 + n + 4); P32(0); P32(0xffffffff); P32(0xffffffff);
	P32(n); P32(n); memcpy(f + o, frame, n); o += n; P32(28 + n + 4);
#undef P32
#undef P16
	bool ok = fd >= 0 && write(fd, f, o) == (ssize_t)o;
	if (fd >= 0)
		close(fd);
	struct run r;
	run_open(&r);
	ok &= cap_read_file(r.st, path) == CAP_EXIT_OK && r.st->stats.frames == 1;
	run_close(&r);
	unlink(path);
	tap_ok(ok, "pcapng: if_tsoffset near 2^63 with the largest time stamp read without overflow");
}

int main(void)
{
	crcs();
	cursor();
	budget();
	elapsed();
	pcapng_times();
	return tap_done();
}
