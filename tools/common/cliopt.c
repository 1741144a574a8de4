/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cliopt.c - shared pieces of the tools' option parsers (cliopt.h).
 */
#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
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
