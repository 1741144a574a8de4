/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * decode.h - rpcrdma-decode's options and its two modes: one message given
 * as hex (decode_hex.c) and captures (capture_mode.c over tools/capture/).
 * main.c parses the options and calls one of them.
 */
#ifndef RPCRDMA_DECODE_H
#define RPCRDMA_DECODE_H

#include <stdbool.h>
#include <stdint.h>

struct decode_opts {
	const char *hex;               /* --hex HEX, or "-" for stdin */
	const char *const *files;      /* -r FILE... (captures; "-" = stdin) */
	int nfiles;
	const char *iface;             /* -i IFACE: a live capture */
	uint32_t buffer_kib;           /* -B: its kernel buffer (0: default) */
	const char *filter;            /* the expression after the options */
	bool json;                     /* --json */
	bool verbose;                  /* -V: full tree */
	bool stats;                    /* --stats */
	bool check;                    /* --check */
	bool check_inline;             /* --check=inline */
	bool quiet;                    /* -q: no per-message output */
	uint64_t count;                /* -c COUNT, 0 = no limit */
	const char *write_path;        /* -w FILE */
	const char *plot_path;         /* --plot FILE */
	uint8_t time_format;           /* -t.. / --time-format: enum cap_time */
	uint16_t roce_port;            /* --roce-port, default 4791 */
	uint32_t inline_threshold;     /* --inline-threshold; 0 = per version */
	bool no_crc_check;             /* --no-crc-check */
	bool redact;                   /* --redact: -r IN -w OUT redacted */
	bool redact_keys;              /* --redact=keys */
	bool redact_addresses;         /* --redact=addresses */
	bool have_redact_key;          /* --redact-key HEX */
	uint8_t redact_key[16];
	uint8_t mpa_crc, mpa_markers;  /* --mpa-crc, --mpa-markers: enum cap_force */
	/* filters, each repeatable (any of the values); n* 0 = no filter */
	uint32_t *xids; uint32_t nxids;            /* --xid */
	uint32_t *convs; uint32_t nconvs;          /* --conversation */
	bool have_vers; uint32_t vers;             /* --rdma-version */
	uint32_t *progs; uint32_t nprogs;          /* --program */
	uint32_t *procs; uint32_t nprocs;          /* --procedure N */
	const char **proc_names; uint32_t nproc_names; /* --procedure NAME */
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
