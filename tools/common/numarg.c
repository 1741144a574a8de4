/* SPDX-License-Identifier: BSD-3-Clause */
/* numarg.c - numbers in command-line arguments (numarg.h). */
#include "numarg.h"

bool parse_u64(const char *s, uint64_t max, uint64_t *out)
{
	unsigned base = 10, d;
	uint64_t v = 0;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (!*s)
		return false;
	for (; *s; s++) {
		if (*s >= '0' && *s <= '9')
			d = (unsigned)(*s - '0');
		else if (base == 16 && *s >= 'a' && *s <= 'f')
			d = (unsigned)(*s - 'a' + 10);
		else if (base == 16 && *s >= 'A' && *s <= 'F')
			d = (unsigned)(*s - 'A' + 10);
		else
			return false;
		if (d > max || v > (max - d) / base)
			return false;
		v = v * base + d;
	}
	*out = v;
	return true;
}
