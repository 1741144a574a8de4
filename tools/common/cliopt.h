/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cliopt.h - what the tools' option parsers share: a usage error in the
 * form "prog: cause" plus a hint (exit status 2, as every tool's man page
 * says), and getopt_long's failures in our words (numbers: numarg.h).
 */
#ifndef RPCRDMA_CLIOPT_H
#define RPCRDMA_CLIOPT_H

#include <stdint.h>

#define CLI_EXIT_USAGE 2
/* no RDMA device: the same status in rpcrdma-echo, -ping, -bench and
 * -conform (issue 30 item 5) */
#define CLI_EXIT_NODEV 3

/* Prints "prog: <message>" and "Try 'prog --help' ..." on stderr; returns
 * CLI_EXIT_USAGE. */
int cli_usage_error(const char *prog, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* For getopt_long() returning '?' or ':' with opterr 0 and optstring
 * starting with ':'.  Returns CLI_EXIT_USAGE. */
int cli_getopt_failure(const char *prog, int c, char *const argv[]);
/* A number (numarg.h) from min to max into *out: 0, or after "prog: NAME:
 * 'ARG' is not a number from MIN to MAX" CLI_EXIT_USAGE.  The 32-bit one
 * for max <= UINT32_MAX. */
int cli_number(const char *prog, const char *name, const char *arg,
	       uint64_t min, uint64_t max, uint64_t *out);
int cli_number32(const char *prog, const char *name, const char *arg,
		 uint32_t min, uint32_t max, uint32_t *out);

#endif
