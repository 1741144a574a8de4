/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * trpc.h - rpcrdma-trace's state: RPCs rebuilt from the kernel's rpcrdma
 * trace events (include/trace/events/rpcrdma.h), client side (xprtrdma_*)
 * and server side (svcrdma_*), joined by xid; MR lifecycles by mr.id; the
 * counts --stats prints and the findings --check judges.  Events are read by
 * name and key=value (tparse.h): an unknown event, or a known one whose
 * fields are not there, is counted, never fatal.  Memory is fixed: an RPC
 * is printed and its slot freed when its reply is seen (or when the table is
 * full: the oldest, said so).
 */
#ifndef RPCRDMA_TRPC_H
#define RPCRDMA_TRPC_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "tparse.h"

#ifndef TR_MAX_RPCS
#define TR_MAX_RPCS 4096        /* RPCs in flight */
#endif
#define TR_MAX_SEGS 8           /* segments kept per list for the output */
#ifndef TR_MAX_PENDING
#define TR_MAX_PENDING 256      /* tasks with chunk events before their marshal */
#endif
#ifndef TR_MAX_PIDS
#define TR_MAX_PIDS 256         /* threads whose last RPC is remembered */
#endif
#ifndef TR_MAX_MRS
#define TR_MAX_MRS 4096
#endif
#define TR_MAX_NAMES 64         /* distinct unknown / drifted event names kept */
#define TR_LINE_MAX 4096
#define TR_MAX_CREDIT_STEPS 64

enum tr_mode { TR_LINE, TR_VERBOSE, TR_JSON };

struct tr_seg {
	uint32_t position, length, handle;
	uint64_t offset;
};

/* rpc error bits */
enum {
	TRE_MARSHAL = 1u << 0, TRE_PREPSEND = 1u << 1, TRE_ERR_VERS = 1u << 2, TRE_ERR_CHUNK = 1u << 3,
	TRE_REPLY_BAD = 1u << 4, TRE_SRV_BAD = 1u << 5, TRE_SEND_ERR = 1u << 6, TRE_NO_REPLY = 1u << 7,
	TRE_CREDITS = 1u << 8, TRE_ZERO_GRANT = 1u << 9, TRE_NO_CALL = 1u << 10, TRE_EVICTED = 1u << 11,
};

struct tr_rpc {
	bool used, has_call, has_srv, has_reply;
	uint32_t xid, task, client;
	uint64_t seq;
	uint64_t t_marshal, t_post, t_srv, t_reply, t_srv_send;
	uint32_t hdr, xdr[3];
	char rtype[16], wtype[16];
	unsigned nseg[3];               /* read, write, reply segments (client) */
	struct tr_seg seg[3][TR_MAX_SEGS];
	uint64_t chunk_bytes[3];
	uint32_t vers, credits_asked, srv_hdrlen, srv_segs[2];
	char proc[16];
	uint32_t credits_granted, reply_segs;
	int64_t read_latency_us;
	uint32_t inv_rkey;
	bool srv_sent;
	unsigned retransmits;
	uint32_t errors;
	int32_t err_ret;
	uint32_t outstanding;           /* calls in flight when it was marshalled */
};

struct tr_pending {
	bool used;
	uint32_t task, client;
	unsigned nseg[3];
	struct tr_seg seg[3][TR_MAX_SEGS];
	uint64_t bytes[3];
};

struct tr_mr {
	bool used, invalidated, conn;   /* conn: mapped outside any RPC (the write pad) */
	bool offered;                   /* its task's call was marshalled after the map */
	uint32_t id, handle, task, client;
	uint64_t t_map;
};

struct tr_count {
	char name[TP_NAME_MAX];
	uint64_t n;
};

struct tr_latency {
	char key[40];                   /* "read list/inline" */
	uint64_t n, sum_us, max_us, min_us;
};

struct tr_state {
	FILE *out;
	enum tr_mode mode;
	bool check, stats, quiet;
	const char *src;                /* file name for messages */
	uint64_t seq;
	uint64_t lines, events, other_lines, bad_lines, overlong;
	uint64_t first_marshal_ns;
	bool seen_marshal;
	/* counts */
	uint64_t rpcs_out, rpcs_both, rpcs_client_only, rpcs_server_only, no_reply, evicted;
	uint64_t retransmits, markers;
	uint64_t ev_known;
	struct tr_count unknown[TR_MAX_NAMES], drift[TR_MAX_NAMES];
	unsigned n_unknown, n_drift;
	uint64_t unknown_other, drift_other;
	uint64_t wc_err, wc_flush, srv_errs, marshal_fail, sq_full, err_vers, err_chunk, reply_bad;
	uint64_t mr_map, mr_fastreg, mr_localinv, mr_reminv, mr_unmap, mr_not_inval, mr_conn_released, mr_unoffered;
	uint64_t segs_failed[3];      /* chunk segments of marshals that failed */
	uint64_t mr_table_full;
	struct tr_latency lat[16];
	unsigned n_lat;
	uint64_t segs[3], chunk_bytes[3];
	/* credits */
	bool have_grant;
	uint32_t granted, grant_min, grant_max;
	uint32_t outstanding, max_outstanding;
	unsigned n_steps;
	struct { uint64_t t; uint32_t credits; } steps[TR_MAX_CREDIT_STEPS];
	uint64_t steps_dropped;
	/* findings (--check): violations (f_credits, f_zero) and notes
	 * (f_mr, f_nocall); TR_BASIS_* below */
	uint64_t f_credits, f_zero, f_mr, f_nocall;
	/* tables */
	struct tr_rpc rpc[TR_MAX_RPCS];
	struct tr_pending pend[TR_MAX_PENDING];
	struct tr_pid { uint32_t pid, xid; uint64_t seq; } pid_srv[TR_MAX_PIDS], pid_cli[TR_MAX_PIDS];
	struct tr_mr mr[TR_MAX_MRS];
	/* the line being assembled by tr_feed */
	char line[TR_LINE_MAX];
	size_t ll;
	bool line_long;
};

void tr_init(struct tr_state *st, FILE *out, enum tr_mode mode);
/* bytes of trace text, any split: whole lines are handled as they end */
void tr_feed(struct tr_state *st, const char *buf, size_t len);
/* one line (without its newline) */
void tr_line(struct tr_state *st, const char *line, size_t len);
/* the end of the input: what is left is printed, then --stats/--check */
void tr_finish(struct tr_state *st);
/* the number of --check violations: the findings a sentence of the seeds
 * forbids (credits exceeded, a zero grant); the notes (an MR not
 * invalidated, a reply without its call) rest on our reading and never
 * count here, nor in the exit status */
uint64_t tr_findings(const struct tr_state *st);

/* What each --check finding rests on.  A violation: the section of the
 * sentence, as rpcrdma-decode --check cites the same rule (docs/capture.md):
 * V1 4.3.1 "The requester MUST NOT send unacknowledged requests in excess
 * of this granted responder credit limit." and "The granted value MUST NOT
 * be zero".  A note: no sentence of the seeds binds what the trace shows;
 * our reading, docs/spec-decisions.md. */
#define TR_BASIS_CREDITS "V1 4.3.1"
#define TR_BASIS_ZERO "V1 4.3.1"
#define TR_BASIS_MR "our reading, D-KVIEW-1: a note, not a failure"
#define TR_BASIS_NOCALL "our reading, D-KVIEW-2: a note, not a failure"

/* output (tout.c) */
void tr_print_rpc(struct tr_state *st, const struct tr_rpc *r);
void tr_print_stats(struct tr_state *st);
void tr_print_check(struct tr_state *st);

#endif
