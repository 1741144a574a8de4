/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fuzz_cap_frames.c - libFuzzer target: the capture pipeline from the link
 * layer up, without a capture file around it: the input is a sequence of
 * frames, each [link type selector][length][bytes], given to one run in
 * turn (Ethernet, Linux cooked v1/v2, ERF, DLT_INFINIBAND), so the state
 * frames leave behind (conversations, reassembly, calls) is fuzzed too.
 * CRCs pass unless all ones (-DCAP_FUZZ_CRC).
 */
#include "fuzz_cap.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const int dlts[8] = { 1, 1, 1, 113, 276, 197, 247, 247 };
	struct fz z;
	uint8_t sel;

	if (!fz_open(&z, data, size))
		return 0;
	while (fz_u8(&z, &sel)) {
		uint32_t len;
		const uint8_t *p = fz_bytes(&z, 65535, &len);
		if (!p)
			break;
		fz_frame(&z, dlts[sel & 7], p, len, sel & 0x80 ? (sel & 0x78) : 0);
	}
	fz_close(&z);
	return 0;
}
