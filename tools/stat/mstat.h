/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * mstat.h - rpcrdma-stat's parts: the kernel's RPC-over-RDMA counters as
 * records (one per transport of an NFS mount, from the "xprt: rdma" lines of
 * /proc/self/mountstats; one for the server, from
 * /proc/sys/sunrpc/svc_rdma/rdma_stat_*), parsed from untrusted text with
 * every line and number checked, and printed as text, deltas per interval,
 * JSON (the kernel's own names as keys) or Prometheus text exposition.
 *
 * The layouts of "xprt: rdma" (net/sunrpc/xprtrdma/transport.c,
 * xprt_rdma_print_stats) are prefixes of one another: each kernel added
 * counters at the end.  docs of the counts: mstat_layout_name().
 */
#ifndef RPCRDMA_MSTAT_H
#define RPCRDMA_MSTAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define MS_MAX_FIELDS 64        /* numbers on one xprt line we keep */
#define MS_MAX_RECS 256         /* transports (and the server) in one sample */
#define MS_NAME_MAX 256         /* device and mount point, as the kernel escapes them */
#define MS_MAX_INPUT (16u << 20) /* bytes read from one file */
#define MS_KNOWN_FIELDS 27      /* the counters of the newest layout */

enum ms_kind { MS_CLIENT, MS_SERVER };

struct ms_rec {
	enum ms_kind kind;
	char device[MS_NAME_MAX];       /* "server:/export" */
	char mountpoint[MS_NAME_MAX];
	char fstype[16];
	unsigned xprt;                  /* the n-th xprt line of its mount */
	unsigned line;                  /* where its xprt line was */
	unsigned n;                     /* numbers */
	uint64_t v[MS_MAX_FIELDS];
	char names[MS_MAX_FIELDS][40];  /* the server's counter names (the client's: by index) */
};

struct ms_sample {
	unsigned n;
	unsigned other_xprts;           /* mounts over tcp, udp, ...: not ours */
	unsigned mounts;                /* device lines of NFS mounts */
	struct ms_rec r[MS_MAX_RECS];
};

/* Parses mountstats text (buf, len; need not end in a newline) into *s
 * (cleared first).  0, or -1 with "FILE:LINE: what" in err. */
int ms_parse_mountstats(const char *buf, size_t len, const char *fname,
			struct ms_sample *s, char *err, size_t errlen);
/* One rdma_stat_* file's text ("123\n") as a number: 0 or -1 with err. */
int ms_parse_counter_file(const char *buf, size_t len, const char *fname,
			  uint64_t *out, char *err, size_t errlen);
/* The server's counters from DIR (/proc/sys/sunrpc/svc_rdma) appended to *s
 * as one record: 0, 1 when DIR has no rdma_stat_* file, -1 with err. */
int ms_read_server(const char *dir, struct ms_sample *s, char *err, size_t errlen);
/* A whole file (at most MS_MAX_INPUT bytes) into a malloc'd buffer. */
int ms_read_file(const char *path, char **buf, size_t *len, char *err, size_t errlen);

/* the kernel's name of client counter i (past the known ones: "field_N") */
const char *ms_client_name(unsigned i, char *tmp, size_t tmplen);
/* "4.17 and later" ...: which kernels print n numbers (NULL: none we know) */
const char *ms_layout_name(unsigned n);
/* counters that are not running totals (printed as they are, no delta) */
bool ms_is_gauge(const struct ms_rec *r, unsigned i);
const char *ms_name(const struct ms_rec *r, unsigned i, char *tmp, size_t tmplen);

/* client counter indexes (the kernel's order) */
enum {
	MS_PORT, MS_BIND_COUNT, MS_CONNECT_COUNT, MS_CONNECT_TIME, MS_IDLE_TIME,
	MS_SENDS, MS_RECVS, MS_BAD_XIDS, MS_REQ_U, MS_BKLOG_U,
	MS_READ_CHUNK, MS_WRITE_CHUNK, MS_REPLY_CHUNK, MS_TOTAL_RDMA_REQUEST,
	MS_TOTAL_RDMA_REPLY, MS_PULLUP, MS_FIXUP, MS_HARDWAY, MS_FAILED_MARSHAL,
	MS_BAD_REPLY, MS_NOMSG_CALL, MS_MRS_RECYCLED, MS_MRS_ORPHANED,
	MS_MRS_ALLOCATED, MS_LOCAL_INV_NEEDED, MS_EMPTY_SENDCTX_Q,
	MS_REPLY_WAITS_FOR_SEND
};

/* output */
enum ms_mode { MS_TEXT, MS_JSON, MS_PROM };
/* The totals of one sample. */
void ms_print_totals(FILE *out, enum ms_mode mode, const struct ms_sample *s);
/* The change from prev to cur over secs seconds (a record new in cur is
 * counted from zero); header: print the column heads first (text). */
void ms_print_delta(FILE *out, enum ms_mode mode, const struct ms_sample *prev,
		    const struct ms_sample *cur, double secs, bool header);

#endif
