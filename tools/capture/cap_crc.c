/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cap_crc.c - the three checksums of the wire formats: CRC-32 for the
 * InfiniBand/RoCE ICRC (IBTA vol. 1 7.8.1, RoCEv2 annex A17.3.3), CRC-16
 * for the IB VCRC (IBTA 7.8.2) and CRC32c for MPA FPDUs (RFC 5044 6,
 * RFC 3385).  Slice-by-8 tables built once; reflected algorithms.
 */
#include "capture.h"

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

/* Continue a CRC: start with crc = 0, feed pieces in order. */
uint32_t cap_crc32(uint32_t crc, const uint8_t *p, size_t n)
{
	if (!ready)
		init();
	return slice8(t32, crc, p, n);
}

uint32_t cap_crc32c(uint32_t crc, const uint8_t *p, size_t n)
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
