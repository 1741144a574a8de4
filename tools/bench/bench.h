/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench.h - rpcrdma-bench: perftest for the RPC-over-RDMA layer (issue 11).
 * The pure parts (statistics, perftest-shaped tables, JSON, the gnuplot
 * script) are declared here and know nothing of the verbs; bench_run.c
 * drives the transport (tools/transport/xprt.h) and fills struct bench_result.
 *
 *   RPC-over-RDMA V1: draft-ietf-nfsv4-rfc5666bis-04 §4.3 (credits), §4.5
 *   (chunks); V2: draft-cel-nfsv4-rpcrdma-version-two-01 §2.2 (the inline
 *   threshold question the "where the time goes" table answers).
 */
#ifndef RPCRDMA_BENCH_H
#define RPCRDMA_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "xprt.h"                    /* struct xprt_stats (a type only) */

#define BENCH_PROG "rpcrdma-bench"
#define BENCH_MAX_SIZES 24           /* -a: 2^0 .. 2^23 */
#define BENCH_MAX_SIZE (1u << 23)

/* How a message went; the values are enum xprt_path's (xprt.h) */
enum bench_path {
	BENCH_PATH_INLINE = 0, BENCH_PATH_READ, BENCH_PATH_POS0,
	BENCH_PATH_WRITE, BENCH_PATH_REPLY,
	BENCH_NPATHS
};
const char *bench_path_name(unsigned p);   /* "inline", "read", ...; "?" */

/* One completed call, ns on CLOCK_MONOTONIC */
struct bench_sample {
	uint64_t t_start, t_done;      /* queued .. reply delivered */
	uint64_t t_sent;               /* its Send posted */
	uint64_t t_reg, t_inv;         /* registration, invalidation (ns) */
	uint8_t call_path, reply_path; /* enum bench_path */
};

/* -------- statistics (bench_stats.c) -------- */

/* Latency figures in microseconds, perftest's columns */
struct bench_lat {
	double min, max, typical, avg, stdev, p99, p999;
};
/* From n round trips (ns); sorts rtt in place.  typical is the median
 * (the mean of the two middle values for an even n), stdev the population
 * standard deviation, a percentile the nearest rank (the smallest value
 * with at least p of the samples at or below it).  n 0: all zero. */
void bench_lat_stats(uint64_t *rtt, size_t n, struct bench_lat *out);
/* the nearest-rank index of the percentile permille/10 (990: 99%, 999:
 * 99.9%) in n > 0 sorted values: ceil(n * permille / 1000) - 1 */
size_t bench_rank(size_t n, unsigned permille);

/* Throughput: bytes and calls per second */
struct bench_bw {
	double peak, avg;              /* bytes/s */
	double calls_per_sec;
};
/* samples in issue order; bytes_per_call counted per call (ECHO: both
 * directions).  avg: all bytes over first start .. last completion.  peak:
 * the best of windows of `window`, 2*window, 4*window ... consecutive calls
 * and of the whole run (so peak >= avg). */
void bench_bw_stats(const struct bench_sample *s, size_t n,
		    uint64_t bytes_per_call, unsigned window,
		    struct bench_bw *out);

/* Where the time goes */
struct bench_where {
	uint64_t call_paths[BENCH_NPATHS], reply_paths[BENCH_NPATHS];
	double rtt_avg, reg_avg, inv_avg;   /* usec per call */
	double post_avg;                    /* usec from the call to its Send posted */
	double reg_pct, inv_pct;            /* of the round trip, 0..100 */
};
void bench_where_stats(const struct bench_sample *s, size_t n,
		       struct bench_where *out);
/* the path most calls took (the first on a tie); sets *mixed when not all */
unsigned bench_main_path(const uint64_t counts[BENCH_NPATHS], bool *mixed);

/* -------- what a run measured (filled by bench_run.c) -------- */
struct bench_row {
	uint32_t bytes;
	bool has_lat, has_bw, has_where;
	uint64_t lat_iters;
	struct bench_lat lat;
	uint64_t bw_iters;
	unsigned outstanding;
	struct bench_bw bw;
	struct bench_where where;
};

struct bench_counts {
	struct xprt_stats xs;          /* the transport's, the connection's */
	uint64_t data_bytes_sent, data_bytes_received;  /* ECHO data, ours */
	uint64_t bench_calls;          /* calls this run made, warm-ups too */
};

struct bench_info {                /* the header block */
	char server[80];               /* "198.18.0.1:20049" */
	char device[32];
	uint32_t prog, prog_vers;
	const char *proc;              /* "NULL", "ECHO" */
	uint32_t rdma_vers;            /* 1 or 2 */
	uint32_t credits;              /* granted */
	uint32_t inline_send, inline_recv;
	const char *chunk;             /* --chunk */
	unsigned outstanding;          /* -t in force */
	bool busy_poll;
	bool gbits;                    /* --report_gbits */
	bool both_ways;                /* ECHO: data crosses twice per call */
	double duration;               /* -D, 0 with -n */
};

struct bench_result {
	struct bench_info info;
	struct bench_row rows[BENCH_MAX_SIZES];
	size_t nrows;
	struct bench_counts counts;
	bool interrupted;
};

/* -------- a run (bench_run.c, over tools/transport) -------- */
struct xprt_loop;
struct xprt_verbs;
struct bench_opts {
	const char *host, *port;
	uint32_t sizes[BENCH_MAX_SIZES];
	size_t nsizes;
	uint64_t iters;                /* -n */
	double duration;               /* -D seconds; 0: -n */
	unsigned depth;                /* -t; 0: every credit granted */
	int chunk;                     /* enum xprt_chunk_mode */
	const char *chunk_name;
	bool lat, bw;                  /* which passes */
	bool gbits, busy_poll, progress;
	uint32_t prog, vers;
	bool null_proc;                /* NULL (any program), else ECHO */
	unsigned versions;             /* XPRT_V1|XPRT_V2, 0: both */
	uint32_t credits, inline_size;
	int timeout_ms;                /* each call */
	int connect_timeout_ms;        /* connecting; 0: timeout_ms */
	FILE *out;                     /* tables as they are measured; NULL: none */
	/* tests: the verbs (NULL: rdma-core), and a hook called with the loop
	 * before connecting, where a server in the same process listens;
	 * non-zero from it ends the run */
	const struct xprt_verbs *verbs;
	int (*on_loop)(struct xprt_loop *l, void *arg);
	void *on_loop_arg;
};
/* Connects, measures every size, fills res.  0, or 1 after an error (said
 * on stderr; res holds what was measured before it). */
int bench_run(const struct bench_opts *o, struct bench_result *res);
/* at most this many bytes of call buffers outstanding: fewer calls in
 * flight for the largest sizes */
#define BENCH_MAX_INFLIGHT_BYTES (64u << 20)
unsigned bench_depth_for(unsigned depth, uint32_t size);

/* -------- output (bench_report.c) -------- */
#define BENCH_RESULT_LINE \
	"---------------------------------------------------------------------------------------\n"
void bench_print_header(FILE *f, const struct bench_info *in, const char *test);
void bench_print_lat_head(FILE *f);
void bench_print_lat_row(FILE *f, const struct bench_row *r);
void bench_print_bw_head(FILE *f, bool gbits);
void bench_print_bw_row(FILE *f, const struct bench_row *r, bool gbits);
void bench_print_where(FILE *f, const struct bench_result *res);
void bench_print_counts(FILE *f, const struct bench_result *res);
/* bytes/s in the table's unit: MB/sec = 2^20 bytes/s (perftest's), Gb/sec
 * = 10^9 bits/s */
double bench_bw_unit(double bytes_per_sec, bool gbits);
/* the whole result as one JSON object and a newline */
void bench_write_json(FILE *f, const struct bench_result *res);

/* -------- plots (bench_plot.c) -------- */
/* the same values as gnuplot.h's enum gp_kind */
enum bench_plot_kind { BENCH_PLOT_SVG, BENCH_PLOT_PNG, BENCH_PLOT_SCRIPT };
/* from the file name's ending (.svg, .png, .gp); -1 when none of them */
int bench_plot_kind(const char *file);
/* the gnuplot script that draws res into `file` */
void bench_plot_script(FILE *f, const struct bench_result *res,
		       const char *file, enum bench_plot_kind kind);
/* writes the plot (runs gnuplot, or writes the script for .gp); 0, or -1
 * with the reason on stderr */
int bench_plot(const struct bench_result *res, const char *file);

#endif
