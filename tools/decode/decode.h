/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * decode.h - rpcrdma-decode's options and its two modes: one message given
 * as hex (decode_hex.c) and captures (tools/capture/).  main.c parses the
 * options and calls one of them.
 */
#ifndef RPCRDMA_DECODE_H
#define RPCRDMA_DECODE_H

#include <stdbool.h>
#include <stdint.h>

struct decode_opts {
	const char *hex;               /* --hex HEX, or "-" for stdin */
	const char *const *files;      /* -r FILE... (captures; "-" = stdin) */
	int nfiles;
	bool json;                     /* --json */
	bool verbose;                  /* -V: full tree */
	bool stats;                    /* --stats */
	bool check;                    /* --check */
	bool quiet;                    /* -q: no per-message output */
	uint16_t roce_port;            /* --roce-port, default 4791 */
	uint32_t inline_threshold;     /* --inline-threshold; 0 = per version */
	/* filters; have_* false = no filter */
	bool have_xid; uint32_t xid;               /* --xid */
	bool have_conv; uint32_t conv;             /* --conversation */
	bool have_vers; uint32_t vers;             /* --rdma-version */
	bool have_prog; uint32_t prog;             /* --program */
	bool have_proc; uint32_t proc;             /* --procedure */
};

/* Exit statuses (man/rpcrdma-decode.1, EXIT STATUS) */
enum {
	DECODE_EXIT_OK = 0,        /* accepted / no violation */
	DECODE_EXIT_FAULT = 1,     /* not accepted, a violation */
	DECODE_EXIT_USAGE = 2,     /* usage error, bad --hex input */
	DECODE_EXIT_READ = 3,      /* a capture could not be read whole */
	DECODE_EXIT_NONE = 4,      /* no RPC-over-RDMA message in the captures */
};

int decode_hex_main(const struct decode_opts *o);
int decode_capture_main(const struct decode_opts *o);

#endif
