/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fuzz_cap_redact.c - libFuzzer target: rpcrdma-decode --redact over a
 * capture file in memory (cap_redact_mem(): the input's bytes as a pcap or
 * pcapng file, changed in place; no file written), with a fixed key, once
 * plain and once with --redact=keys,addresses.  Checked each time: no crash, no
 * out-of-bounds access (ASan), no UB (UBSan), and the invariants
 *   - the length kept is the input's when it was read whole, never more;
 *   - the file header (the first 24 bytes of pcap; pcapng's first 8) is
 *     left as it was, and nothing past the length kept is touched;
 *   - the same key twice gives the same bytes (plain mode run twice).
 * The build sets -DCAP_FUZZ_CRC (tests/module.mk's fuzz_cap_% rule), so a
 * checksum matches unless its field is all ones: the checksum rewriting
 * is fuzzed too.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "capture.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void one(const struct cap_redact_opts *o, const uint8_t *data,
		size_t size, uint8_t *b, uint8_t *again)
{
	size_t n = size, n2 = size;

	memcpy(b, data, size);
	int rc = cap_redact_mem(o, "fuzz", b, &n);
	if (n > size || (rc == 0 && n != size))
		abort();
	if (size >= 24 && n >= 24 && memcmp(b, data, b[0] == 0x0a ? 8 : 24))
		abort();
	if (n < size && memcmp(b + n, data + n, size - n))
		abort();
	memcpy(again, data, size);
	int rc2 = cap_redact_mem(o, "fuzz", again, &n2);
	if (rc2 != rc || n2 != n || memcmp(b, again, size))
		abort();                   /* the same key: the same output */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cap_redact_opts o = { .roce_port = 4791, .have_key = true };
	uint8_t *b = malloc(size ? size : 1), *again = malloc(size ? size : 1);

	if (!b || !again)
		abort();
	for (int i = 0; i < 16; i++)
		o.key[i] = (uint8_t)(0x5a ^ i);
	one(&o, data, size, b, again);
	o.keys = o.addresses = true;
	one(&o, data, size, b, again);
	free(b);
	free(again);
	return 0;
}
