/* SPDX-License-Identifier: BSD-3-Clause */
/* tap.c - TAP output and the guard-page buffer for the unit tests. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "tap.h"

static unsigned tap_n, tap_failed;

bool tap_ok(bool cond, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %u - ", cond ? "" : "not ", ++tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	if (!cond)
		tap_failed++;
	return cond;
}

void tap_diag(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

int tap_done(void)
{
	printf("1..%u\n", tap_n);
	if (tap_failed)
		printf("# %u of %u failed\n", tap_failed, tap_n);
	return tap_failed ? 1 : 0;
}

#define GUARD_SPAN (1u << 20)

const unsigned char *guard_copy(const void *buf, unsigned long len)
{
	static unsigned char *region;
	static size_t page;

	if (!region) {
		page = (size_t)sysconf(_SC_PAGESIZE);
		region = mmap(NULL, GUARD_SPAN + page, PROT_READ | PROT_WRITE,
			      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (region == MAP_FAILED ||
		    mprotect(region + GUARD_SPAN, page, PROT_NONE)) {
			perror("guard_copy");
			exit(2);
		}
	}
	if (len > GUARD_SPAN) {
		fprintf(stderr, "guard_copy: %lu bytes is too large\n", len);
		exit(2);
	}
	memcpy(region + GUARD_SPAN - len, buf, len);
	return region + GUARD_SPAN - len;
}
