/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fuzz_trace.c - rpcrdma-trace's reader (tools/trace): the input is trace
 * text, fed in pieces whose sizes the first byte chooses, through every
 * output mode (the first byte's low bits) with --stats and --check; the
 * tables are small (TR_MAX_* in tools/trace/module.mk) so that inputs fill
 * them and eviction runs.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "trpc.h"

static struct tr_state st;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *null;
	size_t piece, i;
	uint8_t sel;

	if (size < 1)
		return 0;
	if (!null)
		null = fopen("/dev/null", "w");
	sel = data[0];
	data++;
	size--;
	tr_init(&st, null, (enum tr_mode)(sel % 3));
	st.stats = true;
	st.check = true;
	piece = (sel >> 2) ? (size_t)(sel >> 2) * 7 : size + 1;
	for (i = 0; i < size; i += piece)
		tr_feed(&st, (const char *)data + i, size - i < piece ? size - i : piece);
	tr_finish(&st);
	return 0;
}
