/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fuzz_cap_ib.c - libFuzzer target: the InfiniBand transport (BTH and
 * extended headers, PSN windows, Send reassembly, RDMA Write and Read
 * tracking), CM MADs and what lies above (calls, chunks, conversations):
 * the input is a sequence of packets [side and QP choice][opcode][PSN
 * offset][BTH and the rest], each in valid Ethernet/IPv4/UDP 4791 headers
 * between two hosts and a few QPs, so the packets of one input meet in
 * the same conversations.  CRCs pass unless all ones (-DCAP_FUZZ_CRC).
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
	static uint8_t f[42 + 12 + 8192 + 4];
	static const uint8_t ip[2][4] = { { 198, 18, 0, 2 }, { 198, 18, 0, 1 } };
	static const uint32_t qps[4] = { 0x11, 0x22, 0x33, 1 };
	uint32_t psn[2] = { 100, 5000 };
	struct fz z;
	uint8_t ctl, op;

	if (!fz_open(&z, data, size))
		return 0;
	while (fz_u8(&z, &ctl) && fz_u8(&z, &op)) {
		int d = ctl & 1;
		uint16_t pd;
		uint32_t len;
		if (!fz_u16(&z, &pd))
			break;
		const uint8_t *p = fz_bytes(&z, 8192, &len);
		if (!p)
			break;
		memset(f, d ? 4 : 2, 6);
		memset(f + 6, d ? 2 : 4, 6);
		put16(f + 12, 0x0800);
		f[14] = 0x45;
		f[15] = 0;
		put16(f + 16, 20 + 8 + 12 + len + 4);
		put32(f + 18, 0x4000);
		f[22] = 64;
		f[23] = 17;
		put16(f + 24, 0);
		memcpy(f + 26, ip[d], 4);
		memcpy(f + 30, ip[1 - d], 4);
		put16(f + 34, 49152);
		put16(f + 36, 4791);
		put16(f + 38, 8 + 12 + len + 4);
		put16(f + 40, 0);
		/* BTH: opcode, SE/M/pad/TVer from the input, QP, PSN */
		f[42] = op;
		f[43] = (uint8_t)(ctl & 0xf0);
		put16(f + 44, 0xffff);
		put32(f + 46, qps[(ctl >> 1) & 3]);
		/* in sequence, or moved by the input */
		uint32_t q = ctl & 8 ? psn[d] + (uint32_t)(int16_t)pd : psn[d]++;
		put32(f + 50, (q & 0xffffff) | (ctl & 0x80 ? 0x80000000u : 0));
		if (len)
			memcpy(f + 54, p, len);
		memset(f + 54 + len, 0, 4);        /* ICRC: passes (fuzz build) */
		fz_frame(&z, 1, f, 54 + len + 4, (ctl & 0x70) == 0x70 ? 50 + len / 2 : 0);
	}
	fz_close(&z);
	return 0;
}
