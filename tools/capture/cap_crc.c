/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cap_crc.c - the three checksums of the wire formats: CRC-32 for the
 * InfiniBand/RoCE ICRC (IBTA vol. 1 7.8.1, RoCEv2 annex A17.3.3), CRC-16
 * for the IB VCRC (IBTA 7.8.2) and CRC32c for MPA FPDUs (RFC 5044 6,
 * RFC 3385).  Slice-by-8 tables built once; reflected algorithms.
 */
#include <string.h>
#include "capture.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define CAP_CRC_X86 1
#endif

static uint32_t t32[8][256], t32c[8][256];
static uint16_t t16[256];
static bool ready;

static void build(uint32_t (*t)[256], uint32_t poly)
{
	for (unsigned i = 0; i < 256; i++) {
		uint32_t c = i;
		for (int k = 0; k < 8; k++)
			c = (c & 1) ? (c >> 1) ^ poly : c >> 1;
		t[0][i] = c;
	}
	for (unsigned i = 0; i < 256; i++)
		for (unsigned s = 1; s < 8; s++)
			t[s][i] = (t[s - 1][i] >> 8) ^ t[0][t[s - 1][i] & 0xff];
}

static void init(void)
{
	build(t32, 0xedb88320u);
	build(t32c, 0x82f63b78u);
	for (unsigned i = 0; i < 256; i++) {
		uint16_t c = (uint16_t)i;
		for (int k = 0; k < 8; k++)
			c = (c & 1) ? (uint16_t)((c >> 1) ^ 0xd008u) : (uint16_t)(c >> 1);
		t16[i] = c;
	}
	ready = true;
}

static uint32_t slice8(uint32_t (*t)[256], uint32_t crc, const uint8_t *p,
		       size_t n)
{
	crc = ~crc;
	while (n >= 8) {
		uint32_t a = crc ^ ((uint32_t)p[0] | (uint32_t)p[1] << 8 |
				    (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
		crc = t[7][a & 0xff] ^ t[6][(a >> 8) & 0xff] ^
		      t[5][(a >> 16) & 0xff] ^ t[4][a >> 24] ^
		      t[3][p[4]] ^ t[2][p[5]] ^ t[1][p[6]] ^ t[0][p[7]];
		p += 8;
		n -= 8;
	}
	while (n--)
		crc = (crc >> 8) ^ t[0][(crc ^ *p++) & 0xff];
	return ~crc;
}

#ifdef CAP_CRC_X86
/*
 * CRC-32 by carry-less multiplication: fold 64 bytes at a time into four
 * 128-bit lanes, fold the lanes into one, reduce 128 -> 64 -> 32 bits and
 * finish with a Barrett reduction (Gopal et al., "Fast CRC Computation for
 * Generic Polynomials Using PCLMULQDQ", Intel 2009).  Constants are
 * x^k mod P(x), bit-reflected, for P = 0x04c11db7.  `st` is the raw
 * (uninverted) register; n >= 16 and a multiple of 16.
 */
__attribute__((target("pclmul,sse2")))
static uint32_t fold_pclmul(uint32_t st, const uint8_t *p, size_t n)
{
	const __m128i r2r1 = _mm_set_epi64x(0x1c6e41596, 0x154442bd4);
	const __m128i r4r3 = _mm_set_epi64x(0x0ccaa009e, 0x1751997d0);
	const __m128i r5 = _mm_set_epi64x(0, 0x163cd6124);
	const __m128i poly = _mm_set_epi64x(0x1f7011641, 0x1db710641);
	const __m128i mask32 = _mm_set_epi32(0, 0, 0, -1);
	__m128i x1 = _mm_loadu_si128((const __m128i *)p), x2;
	x1 = _mm_xor_si128(x1, _mm_cvtsi32_si128((int)st));
#define FOLD(x, k, next) \
	x = _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(x, k, 0x00), \
					_mm_clmulepi64_si128(x, k, 0x11)), next)
	if (n < 64) {                          /* one lane */
		p += 16;
		n -= 16;
		goto tail;
	}
	x2 = _mm_loadu_si128((const __m128i *)(p + 16));
	__m128i x3 = _mm_loadu_si128((const __m128i *)(p + 32));
	__m128i x4 = _mm_loadu_si128((const __m128i *)(p + 48));
	p += 64;
	n -= 64;
	while (n >= 64) {
		FOLD(x1, r2r1, _mm_loadu_si128((const __m128i *)p));
		FOLD(x2, r2r1, _mm_loadu_si128((const __m128i *)(p + 16)));
		FOLD(x3, r2r1, _mm_loadu_si128((const __m128i *)(p + 32)));
		FOLD(x4, r2r1, _mm_loadu_si128((const __m128i *)(p + 48)));
		p += 64;
		n -= 64;
	}
	FOLD(x1, r4r3, x2);
	FOLD(x1, r4r3, x3);
	FOLD(x1, r4r3, x4);
tail:
	while (n >= 16) {
		FOLD(x1, r4r3, _mm_loadu_si128((const __m128i *)p));
		p += 16;
		n -= 16;
	}
#undef FOLD
	/* 128 -> 64 bits */
	x1 = _mm_xor_si128(_mm_clmulepi64_si128(x1, r4r3, 0x10),
			   _mm_srli_si128(x1, 8));
	/* 64 -> 32 bits */
	x2 = _mm_clmulepi64_si128(_mm_and_si128(x1, mask32), r5, 0x00);
	x1 = _mm_xor_si128(_mm_srli_si128(x1, 4), x2);
	/* Barrett reduction */
	x2 = _mm_clmulepi64_si128(_mm_and_si128(x1, mask32), poly, 0x10);
	x2 = _mm_clmulepi64_si128(_mm_and_si128(x2, mask32), poly, 0x00);
	x1 = _mm_xor_si128(x1, x2);
	return (uint32_t)_mm_cvtsi128_si32(_mm_srli_si128(x1, 4));
}

/* CRC32c with the SSE4.2 instruction; `st` raw as above */
__attribute__((target("sse4.2")))
static uint32_t crc32c_hw(uint32_t st, const uint8_t *p, size_t n)
{
	uint64_t s = st;
	while (n >= 8) {
		uint64_t w;
		memcpy(&w, p, 8);
		s = _mm_crc32_u64(s, w);
		p += 8;
		n -= 8;
	}
	uint32_t s32 = (uint32_t)s;
	while (n--)
		s32 = _mm_crc32_u8(s32, *p++);
	return s32;
}

static int have_pclmul = -1, have_sse42 = -1;

static void detect(void)
{
	__builtin_cpu_init();
	have_pclmul = __builtin_cpu_supports("pclmul") &&
		      __builtin_cpu_supports("sse2");
	have_sse42 = __builtin_cpu_supports("sse4.2");
}
#endif

/* Continue a CRC: start with crc = 0, feed pieces in order. */
uint32_t cap_crc32(uint32_t crc, const uint8_t *p, size_t n)
{
	if (!ready)
		init();
#ifdef CAP_CRC_X86
	if (have_pclmul < 0)
		detect();
	if (have_pclmul && n >= 16) {
		size_t m = n & ~(size_t)15;
		uint32_t st = fold_pclmul(~crc, p, m);
		return slice8(t32, ~st, p + m, n - m);
	}
#endif
	return slice8(t32, crc, p, n);
}

uint32_t cap_crc32c(uint32_t crc, const uint8_t *p, size_t n)
{
	if (!ready)
		init();
#ifdef CAP_CRC_X86
	if (have_sse42 < 0)
		detect();
	if (have_sse42)
		return ~crc32c_hw(~crc, p, n);
#endif
	return slice8(t32c, crc, p, n);
}

/* the portable versions, for tests */
uint32_t cap_crc32_sw(uint32_t crc, const uint8_t *p, size_t n);
uint32_t cap_crc32c_sw(uint32_t crc, const uint8_t *p, size_t n);
uint32_t cap_crc32_sw(uint32_t crc, const uint8_t *p, size_t n)
{
	if (!ready)
		init();
	return slice8(t32, crc, p, n);
}

uint32_t cap_crc32c_sw(uint32_t crc, const uint8_t *p, size_t n)
{
	if (!ready)
		init();
	return slice8(t32c, crc, p, n);
}

/* VCRC: polynomial x^16+x^12+x^3+x+1 (0x100b), seed all ones, inverted */
uint16_t cap_crc16_vcrc(const uint8_t *p, size_t n)
{
	if (!ready)
		init();
	uint16_t crc = 0xffff;
	while (n--)
		crc = (uint16_t)((crc >> 8) ^ t16[(crc ^ *p++) & 0xff]);
	return (uint16_t)~crc;
}
