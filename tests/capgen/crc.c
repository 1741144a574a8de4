/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * crc.c - the three CRCs the captures carry: CRC-32 (IEEE 802.3 polynomial,
 * reflected) for the InfiniBand ICRC (IBTA vol. 1 §7.8.1, RoCEv2 annex A17.3.3),
 * CRC32c (RFC 3385, Castagnoli) for the MPA CRC (RFC 5044 §6), and the 16-bit
 * VCRC (IBTA vol. 1 §7.8.2, polynomial 0x100B reflected, seed and final xor
 * 0xFFFF).  Table-driven, tables built on first use.
 */
#include "capgen.h"

static uint32_t t_ieee[256], t_c[256];
static uint16_t t_v[256];
static bool ready;

static void build(void)
{
	for (uint32_t n = 0; n < 256; n++) {
		uint32_t a = n, b = n, v = n;

		for (int k = 0; k < 8; k++) {
			a = (a & 1) ? 0xedb88320u ^ (a >> 1) : a >> 1;
			b = (b & 1) ? 0x82f63b78u ^ (b >> 1) : b >> 1;
			v = (v & 1) ? 0xd008u ^ (v >> 1) : v >> 1;
		}
		t_ieee[n] = a;
		t_c[n] = b;
		t_v[n] = (uint16_t)v;
	}
	ready = true;
}

static uint32_t run32(const uint32_t *t, uint32_t crc, const uint8_t *p,
		      size_t n)
{
	uint32_t c = ~crc;

	if (!ready)
		build();
	while (n--)
		c = t[(c ^ *p++) & 0xff] ^ (c >> 8);
	return ~c;
}

uint32_t crc32_ieee(uint32_t crc, const uint8_t *p, size_t n)
{
	return run32(t_ieee, crc, p, n);
}

uint32_t crc32c(uint32_t crc, const uint8_t *p, size_t n)
{
	return run32(t_c, crc, p, n);
}

uint16_t crc16_vcrc(const uint8_t *p, size_t n)
{
	uint16_t c = 0xffff;

	if (!ready)
		build();
	while (n--)
		c = (uint16_t)(t_v[(c ^ *p++) & 0xff] ^ (c >> 8));
	return (uint16_t)(c ^ 0xffff);
}
