/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fuzz_mountstats.c - rpcrdma-stat's mountstats parser and its printers
 * (tools/stat): the input is split at its first 0xff byte into two samples
 * (before and after); both are parsed, then printed as totals (text, JSON,
 * Prometheus) and as the change between them.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mstat.h"

static struct ms_sample a, b;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *null;
	const uint8_t *cut = memchr(data, 0xff, size);
	size_t la = cut ? (size_t)(cut - data) : size;
	char err[512];
	uint64_t v;
	int ra, rb;

	if (!null)
		null = fopen("/dev/null", "w");
	ra = ms_parse_mountstats((const char *)data, la, "a", &a, err, sizeof(err));
	rb = cut ? ms_parse_mountstats((const char *)cut + 1, size - la - 1, "b", &b, err, sizeof(err)) : -1;
	(void)ms_parse_counter_file((const char *)data, la, "c", &v, err, sizeof(err));
	if (ra == 0) {
		ms_print_totals(null, MS_TEXT, &a);
		ms_print_totals(null, MS_JSON, &a);
		ms_print_totals(null, MS_PROM, &a);
		if (rb == 0) {
			ms_print_delta(null, MS_TEXT, &a, &b, 1.0, true);
			ms_print_delta(null, MS_JSON, &a, &b, 0.0, false);
		}
	}
	return 0;
}
