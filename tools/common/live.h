/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * live.h - the shell of the live tools (rpcrdma-echo, -ping, -bench,
 * -conform): what each of them needs around the transport (xprt.h) and
 * used to write for itself.
 *
 *   live_opt.c   the common transport options: one table, one parser
 *                (perftest's model: every tool takes the options it names
 *                from the one table; the values land in struct xprt_opts)
 *   live.c       the monotonic clock, --chunk names, the transport's
 *                counters as JSON with one key set (their sum is the
 *                transport's xprt_stats_add())
 *   live_xprt.c  SIGINT/SIGTERM stop the loop; run the loop until a
 *                condition or a deadline; an error's text (the only file
 *                here that calls the transport: it is linked by the live
 *                tools and their tests alone, TOOLS_LIVE_SRCS in
 *                tools/module.mk)
 *
 * The ECHO responder every tool and test shares is tools/ulb/echo_respond.h.
 */
#ifndef RPCRDMA_LIVE_H
#define RPCRDMA_LIVE_H

#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "json.h"
#include "xprt.h"

/* -------- the clock (live.c) -------- */
uint64_t live_now_ns(void);            /* CLOCK_MONOTONIC, nanoseconds */
int64_t live_now_ms(void);             /* the same, milliseconds */

/* -------- the common transport options (live_opt.c) -------- */

/* Which of the common options a tool takes (bits of live_cli.takes) */
enum {
	LIVE_O_PORT = 1u << 0,        /* -p, --port PORT (1..65535) */
	LIVE_O_FAMILY = 1u << 1,      /* -4, -6 */
	LIVE_O_VERSIONS = 1u << 2,    /* --versions 1|2|1,2 */
	LIVE_O_CREDITS = 1u << 3,     /* --credits N (1..1024) */
	LIVE_O_INLINE = 1u << 4,      /* --inline-threshold BYTES (1024..262144),
				       * send and receive */
	LIVE_O_NO_PD = 1u << 5,       /* --no-private-data */
	LIVE_O_RINV = 1u << 6,        /* --remote-invalidate */
	LIVE_O_POLL = 1u << 7,        /* --poll: busy polling */
	LIVE_O_USE_EVENT = 1u << 8,   /* -e, --use_event: completion events
				       * (perftest's; busy polling otherwise) */
	LIVE_O_DEBUG = 1u << 9,       /* -d, --debug (repeatable) */
	LIVE_O_DEBUG_LONG = 1u << 10, /* --debug only (no letter) */
	LIVE_O_CONNECT_TIMEOUT = 1u << 11, /* --connect-timeout SECONDS */
};

#define LIVE_CREDITS_MAX 1024u
#define LIVE_INLINE_MIN 1024u          /* V1 §4.3.2; RFC 8797 sizes are */
#define LIVE_INLINE_MAX (256u * 1024)  /* 1 KiB .. 256 KiB */
/* --connect-timeout: the default, generous (a connect over Soft-RoCE on a
 * loaded host took over a second), and the most */
#define LIVE_CONNECT_TIMEOUT_MS 30000
#define LIVE_CONNECT_TIMEOUT_MAX_S 3600u

struct live_cli {
	const char *prog;             /* "rpcrdma-echo", for messages */
	unsigned takes;               /* LIVE_O_* */
	struct xprt_opts *x;          /* where the values go */
	/* how a bad value of a common option is worded; NULL: "NAME: 'ARG'
	 * is not ..." (tools/common/cliopt).  name is the option's long name
	 * without the dashes.  Returns the exit status (2). */
	int (*bad_value)(const char *name, const char *arg, const char *why);
	/* set by the parser */
	bool connect_timeout_given;   /* --connect-timeout (in x->timeout_ms) */
};

/* The tool's own long options and short letters merged with the common
 * ones it takes, for getopt_long.  Returns 0, or -1 when the room given
 * is too small (a programming error). */
int live_opt_tables(const struct live_cli *c, const struct option *own_long,
		    const char *own_short, struct option *longs, size_t nlongs,
		    char *shorts, size_t nshorts);
/* One option getopt_long returned: -1 when it is not a common option the
 * tool takes (the tool parses it), 0 when taken, else the usage-error
 * exit status (the message printed). */
int live_opt_take(struct live_cli *c, int opt, const char *arg);

/* The whole command line for the tools that let the shell run getopt:
 * -h/--help (usage(out)), --version, getopt's failures, the common options;
 * the rest go to own(opt, arg, ctx) (0 or an exit status).  Returns -1
 * to go on (optind at the first operand), 0 after --help or --version,
 * or the usage-error exit status. */
struct live_parse {
	const char *own_names;        /* the tool's long options: cli_longs()'s
				       * spec, "server=s addr=a chunk json"; a
				       * name's letter ("=s") is its short option
				       * too, with the name's argument */
	const char *own_short;        /* the short options without a long name
				       * (NULL: none), without the leading ':' */
	int (*own)(int opt, const char *arg, void *ctx);
	void *ctx;
	void (*usage)(FILE *f);
	FILE *out;                    /* --help and --version; NULL: stdout */
	const char *version;          /* "0.1.0": --version prints "PROG
				       * (rpcrdma-tools) 0.1.0"; NULL: the
				       * tools' RPCRDMA_TOOLS_VERSION */
};
int live_getopt(struct live_cli *c, const struct live_parse *p, int argc,
		char *argv[]);

/* -------- chunk modes by name (--chunk; live.c) -------- */
#define LIVE_CHUNK_NAMES "auto, inline, read, pos0, write or reply"
const char *live_chunk_name(enum xprt_chunk_mode m);     /* "read" */
bool live_chunk_by_name(const char *name, enum xprt_chunk_mode *m);

/* -------- errors (live.c, live_xprt.c) -------- */

/* "rdma_connect ...: Connection refused", or the code's name
 * (xprt_errcode_name()) when the transport left no message */
const char *live_error_text(const struct xprt_error *e);

/* -------- the transport's counters as JSON (live.c) -------- */

/* The members of one object (the caller opens and closes it), one key per
 * counter of struct xprt_stats under the counter's own name, in its order:
 * calls_sent, replies_received, calls_received, replies_sent,
 * backward_calls_sent, backward_calls_received, errors_sent,
 * errors_received, discarded, bytes_sent, bytes_received, rdma_read_bytes,
 * rdma_write_bytes, credit_waits, max_outstanding (connections, a loop's
 * count, is not a connection's: left out). */
void live_json_stats(struct json *j, const struct xprt_stats *s);
/* Ends a JSON Lines object: closes it, the newline, out at once (a line
 * as soon as it happens), j ready for the next one. */
void live_json_line_end(struct json *j, FILE *f);

/* -------- the loop (live_xprt.c) -------- */

/* SIGINT and SIGTERM set the interrupted mark and stop `l`'s loop (the
 * handlers before are kept for live_signals_end()); the mark is cleared. */
void live_signals_begin(struct xprt_loop *l);
void live_signals_end(void);
bool live_interrupted(void);

/* Runs `l` in slices of at most 100 ms until done(arg) (NULL: never) or
 * deadline_ns (live_now_ns() time; UINT64_MAX: none).  Returns 0 when
 * done, 1 at the deadline, -1 when the loop failed. */
int live_run_until(struct xprt_loop *l, bool (*done)(void *arg), void *arg,
		   uint64_t deadline_ns);

#endif
