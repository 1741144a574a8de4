/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cliopt.h - what the tools' option parsers share: a usage error in the
 * form "prog: cause" plus a hint (exit status 2, as every tool's man page
 * says), and getopt_long's failures in our words (numbers: numarg.h).
 */
#ifndef RPCRDMA_CLIOPT_H
#define RPCRDMA_CLIOPT_H

#include <stddef.h>
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

/* -------- the long option names of every tool, one list --------
 * Each name once, with whether it takes an argument (N: none, R:
 * required, O: optional): the same name means the same kind of option in
 * every tool.  A tool's parser names the ones it takes (cli_longs());
 * getopt_long returns CLI_L_<NAME> for each (or the tool's letter for it).
 * The common transport options (tools/common/live_opt.c) are not here:
 * their values go straight into struct xprt_opts.
 * Two names are of another kind in one tool each, listed last as their own
 * entries (a tool asks for one with its kind, "check/none": cli_longs()):
 * rpcrdma-trace's --check takes no value (rpcrdma-decode's
 * --check[=inline] does), rpcrdma-stat's --server[=DIR] takes one
 * (rpcrdma-echo's --server does not). */
#define CLI_LONG_NAMES(N, R, O) \
	N(ALL, "all") N(BW, "bw") N(FAULTS, "faults") N(HELP, "help") N(JSON, "json") N(LAT, "lat") \
	N(LIST, "list") N(LIVE, "live") N(NO_CRC_CHECK, "no-crc-check") \
	N(NO_MOUNTS, "no-mounts") N(NULL, "null") N(NUMERIC, "numeric") N(PROBE, "probe") \
	N(PROBE_INLINE, "probe-inline") N(PROM, "prom") N(QUIET, "quiet") \
	N(REPORT_GBITS, "report_gbits") N(REQUESTER, "requester") N(SERVE, "serve") N(SERVER, "server") N(STATS, "stats") \
	N(STRICT, "strict") N(VERBOSE, "verbose") N(VERSION, "version") N(YES, "yes") \
	R(ADDR, "addr") R(ADDRESS, "address") R(BACKWARD, "backward") \
	R(BUFFER_SIZE, "buffer-size") R(CHUNK, "chunk") R(CONVERSATION, "conversation") \
	R(COUNT, "count") R(DEPTH, "depth") R(DURATION, "duration") R(FH, "fh") R(FILE, "file") \
	R(HEX, "hex") R(INLINE_THRESHOLD, "inline-threshold") R(INTERFACE, "interface") \
	R(INTERVAL, "interval") R(ITERS, "iters") R(JSON_FILE, "json-file") \
	R(MISBEHAVE, "misbehave") R(MOUNT_PORT, "mount-port") R(MPA_CRC, "mpa-crc") R(MPA_MARKERS, "mpa-markers") \
	R(ONLY, "only") R(OUT_JSON_FILE, "out_json_file") R(PLOT, "plot") \
	R(PROCEDURE, "procedure") R(PROGRAM, "program") R(PROGRAM_VERSION, "program-version") \
	R(RDMA_VERSION, "rdma-version") R(READ, "read") R(REDACT_KEY, "redact-key") R(ROCE_PORT, "roce-port") \
	R(RPC_VERSION, "rpc-version") R(SECONDS, "seconds") R(SIZE, "size") R(SKIP, "skip") \
	R(TIME_FORMAT, "time-format") R(TIMEOUT, "timeout") R(TRACEFS, "tracefs") \
	R(TX_DEPTH, "tx-depth") R(WRITE, "write") R(XID, "xid") \
	O(CHECK, "check") O(REDACT, "redact") \
	N(CHECK_NONE, "check") O(SERVER_DIR, "server")

#define CLI_L_ENUM_(id, name) CLI_L_##id,
enum cli_long {
	CLI_L_BEFORE_ = 0x1000 - 1,   /* above letters, below live_opt.c's */
	CLI_LONG_NAMES(CLI_L_ENUM_, CLI_L_ENUM_, CLI_L_ENUM_)
	CLI_L_AFTER_
};
#undef CLI_L_ENUM_

struct option;
/* The struct option table of getopt_long for the names in `spec`,
 * separated by blanks, each "NAME" (getopt_long returns CLI_L_NAME) or
 * "NAME=x" (it returns the letter x, the tool's short option for it):
 * "server=s addr=a chunk json".  "NAME/none", "NAME/required" or
 * "NAME/optional" (before any "=x") asks for the entry of that kind, for
 * the names listed twice ("server/optional=S"); a bare NAME is its first
 * entry.  At most n - 1 entries and the closing zero one.  Returns the
 * number of entries, or -1 when a name (of that kind) is not in
 * CLI_LONG_NAMES or the room is too small (a programming error). */
int cli_longs(const char *spec, struct option *out, size_t n);

#endif
