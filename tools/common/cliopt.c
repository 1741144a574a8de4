/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cliopt.c - shared pieces of the tools' option parsers (cliopt.h).
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "cliopt.h"

int cli_usage_error(const char *prog, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry '%s --help' for more information.\n", prog);
	return CLI_EXIT_USAGE;
}

int cli_getopt_failure(const char *prog, int c, char *const argv[])
{
	const char *arg = argv[optind - 1];
	bool letter = optopt && optopt < 256 && arg[1] != '-';

	if (c == ':')
		return letter ? cli_usage_error(prog, "option -%c needs a value", optopt)
			      : cli_usage_error(prog, "option %s needs a value", arg);
	return letter ? cli_usage_error(prog, "unknown option -%c", optopt)
		      : cli_usage_error(prog, "unknown or ambiguous option '%s'", arg);
}

bool cli_parse_u64(const char *s, uint64_t max, bool suffix, uint64_t *out)
{
	unsigned long long v;
	uint64_t mult = 1;
	char *end;

	/* strtoull would take a sign or leading blanks: refuse them */
	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s)
		return false;
	if (suffix && (*end == 'k' || *end == 'K')) {
		mult = 1024;
		end++;
	} else if (suffix && (*end == 'm' || *end == 'M')) {
		mult = 1024 * 1024;
		end++;
	}
	if (*end || v > max / mult)
		return false;
	*out = v * mult;
	return true;
}
