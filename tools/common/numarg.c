/* SPDX-License-Identifier: BSD-3-Clause */
/* numarg.c - numbers in command-line arguments and text fields (numarg.h). */
#include <string.h>

#include "numarg.h"

/* the digits s[0..n) in base 10 or 16, at most max */
static bool digits(const char *s, size_t n, uint64_t base, uint64_t max, uint64_t *out)
{
	uint64_t v = 0, d;
	size_t i;

	if (n == 0)
		return false;
	for (i = 0; i < n; i++) {
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

bool parse_u64_n(const char *s, size_t n, uint64_t max, uint64_t *out)
{
	if (n >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		return digits(s + 2, n - 2, 16, max, out);
	return digits(s, n, 10, max, out);
}

bool parse_dec_u64_n(const char *s, size_t n, uint64_t max, uint64_t *out)
{
	return digits(s, n, 10, max, out);
}

bool parse_u64(const char *s, uint64_t max, uint64_t *out)
{
	return parse_u64_n(s, strlen(s), max, out);
}
