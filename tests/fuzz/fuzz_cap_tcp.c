/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fuzz_cap_tcp.c - libFuzzer target: TCP reassembly, MPA framing (with or
 * without markers and CRCs, the handshake or not), DDP and RDMAP and what
 * lies above, on one TCP connection: the input is a sequence of segments
 * [direction and flags][sequence offset][acknowledgement offset][payload],
 * each wrapped in valid Ethernet, IPv4 and TCP headers, so every input
 * reaches the stream layers.  CRCs pass unless all ones (-DCAP_FUZZ_CRC).
 */
#include "fuzz_cap.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void put16(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, v >> 16);
	put16(p + 2, v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t f[54 + 65535];
	static const uint8_t ip[2][4] = { { 198, 18, 0, 2 }, { 198, 18, 0, 1 } };
	uint32_t seq[2] = { 1000, 900000 };
	struct fz z;
	uint8_t ctl;

	if (!fz_open(&z, data, size))
		return 0;
	while (fz_u8(&z, &ctl)) {
		int d = ctl & 1;
		uint16_t sdelta, adelta;
		uint32_t len;
		if (!fz_u16(&z, &sdelta) || !fz_u16(&z, &adelta))
			break;
		const uint8_t *p = fz_bytes(&z, 65535 - 40, &len);
		if (!p)
			break;
		/* the segment's place: next in order, or moved by the input
		 * (ahead, behind, far away) */
		uint32_t s = seq[d] + (ctl & 2 ? (uint32_t)(int16_t)sdelta : 0);
		if (ctl & 4)
			s += (uint32_t)sdelta << 16;
		uint32_t a = seq[1 - d] + (ctl & 8 ? (uint32_t)(int16_t)adelta : 0);
		memset(f, d ? 4 : 2, 6);
		memset(f + 6, d ? 2 : 4, 6);
		put16(f + 12, 0x0800);
		f[14] = 0x45;
		f[15] = 0;
		put16(f + 16, 40 + len);
		put32(f + 18, 0x4000);
		f[22] = 64;
		f[23] = 6;
		put16(f + 24, 0);
		memcpy(f + 26, ip[d], 4);
		memcpy(f + 30, ip[1 - d], 4);
		put16(f + 34, d ? 20049 : 40001);
		put16(f + 36, d ? 40001 : 20049);
		put32(f + 38, s);
		put32(f + 42, a);
		f[46] = 5 << 4;
		/* ACK always, PSH, and from the input SYN, FIN, RST (rarely) */
		f[47] = (uint8_t)(0x18 | (ctl & 0x10 ? 0x02 : 0) |
				  (ctl & 0x20 ? 0x01 : 0) |
				  ((ctl & 0xe0) == 0xe0 ? 0x04 : 0));
		put16(f + 48, 65535);
		put32(f + 50, 0);
		if (len)
			memcpy(f + 54, p, len);
		if (!(ctl & 2))
			seq[d] += len;
		fz_frame(&z, 1, f, 54 + len, (ctl & 0xc0) == 0x40 ? 54 + len / 2 : 0);
	}
	fz_close(&z);
	return 0;
}
