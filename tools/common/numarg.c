/* SPDX-License-Identifier: BSD-3-Clause */
/* numarg.c - numbers in command-line arguments and text fields (numarg.h). */
#include <string.h>

#include "numarg.h"

bool parse_u64_n(const char *s, size_t n, uint64_t max, uint64_t *out)
{
	uint64_t v = 0, base = 10, d;
	size_t i = 0;

	if (n >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		i = 2;
	}
	if (i == n)
		return false;
	for (; i < n; i++) {
		char c = s[i];

		if (c >= '0' && c <= '9')
			d = (uint64_t)(c - '0');
		else if (base == 16 && c >= 'a' && c <= 'f')
			d = (uint64_t)(c - 'a' + 10);
		else if (base == 16 && c >= 'A' && c <= 'F')
			d = (uint64_t)(c - 'A' + 10);
		else
			return false;
		if (d > max || v > (max - d) / base)
			return false;
		v = v * base + d;
	}
	*out = v;
	return true;
}

bool parse_u64(const char *s, uint64_t max, uint64_t *out)
{
	return parse_u64_n(s, strlen(s), max, out);
}
