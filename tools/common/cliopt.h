/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cliopt.h - what the tools' option parsers share: a usage error in the
 * form "prog: cause" plus a hint (exit status 2, as every tool's man page
 * says), getopt_long's failures in our words, and checked numbers.
 */
#ifndef RPCRDMA_CLIOPT_H
#define RPCRDMA_CLIOPT_H

#include <stdbool.h>
#include <stdint.h>

#define CLI_EXIT_USAGE 2

/* Prints "prog: <message>" and "Try 'prog --help' ..." on stderr; returns
 * CLI_EXIT_USAGE. */
int cli_usage_error(const char *prog, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* For getopt_long() returning '?' or ':' with opterr 0 and optstring
 * starting with ':'.  Returns CLI_EXIT_USAGE. */
int cli_getopt_failure(const char *prog, int c, char *const argv[]);
/* An unsigned decimal or 0x-hex number of at most max, the whole string;
 * with `suffix` an optional k or m (times 1024, 1048576). */
bool cli_parse_u64(const char *s, uint64_t max, bool suffix, uint64_t *out);

#endif
