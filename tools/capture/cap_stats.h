/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cap_stats.h - --stats counters: per conversation and overall message
 * counts by version and type, credits granted (V1 4.3.1), inline vs chunked
 * sizes (V1 4.5), RPC round-trip latency per program/procedure, faults.
 */
#ifndef RPCRDMA_CAP_STATS_H
#define RPCRDMA_CAP_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define CAP_HIST_N 10u      /* <256 <512 <1K <2K <4K <8K <16K <64K <1M >=1M */
#define CAP_LAT_N 256u      /* log-linear microsecond buckets */
#define CAP_PROCS_MAX 256u  /* distinct program/version/procedure */

struct cap_stats_conv {
	uint64_t calls, replies, backward;
	bool have_credit;
	uint32_t cmin, cmax, cfinal;
	uint64_t bad_headers, retrans, crc_fail, violations, unmatched;
	uint64_t rdma_bytes;
	uint64_t first_frame, last_frame;
	/* the connection's start: RFC 8797 private data of the CM REQ/REP or
	 * MPA Request/Reply, [0] the requester's, [1] the responder's */
	uint8_t pd_seen[2];          /* 0 not in the capture, 1 seen */
	uint8_t pd_len[2];           /* bytes kept (at most 8) */
	uint8_t pd[2][8];
	/* the counts by kind and size, last: cleared by the first message
	 * (cap_stats_msg), so that a conversation that never carries one
	 * (most QPs of a busy fabric) costs nothing to open */
	bool have_sizes;
	uint64_t msgs[3][7];         /* [vers 1, 2, other][proc 0..5, other] */
	uint64_t inline_hist[CAP_HIST_N], chunked_hist[CAP_HIST_N];
};
#define CAP_STATS_SIZES_OFF offsetof(struct cap_stats_conv, msgs)

struct cap_stats_proc {
	bool used;
	uint32_t prog, vers, proc;
	uint64_t n, sum_us, max_us;
	uint32_t hist[CAP_LAT_N];
};

struct cap_stats_all {
	struct cap_stats_conv total;
	struct cap_stats_proc *procs; /* CAP_PROCS_MAX, with the first latency */
	uint64_t frames, frames_rdma, frames_truncated, frames_invalid;
	FILE *closed;                /* summaries of conversations closed early */
	uint32_t nclosed;
};

struct cap_state;
struct cap_conv;
void cap_stats_sizes(struct cap_stats_conv *s);
void cap_stats_msg(struct cap_stats_conv *s, uint32_t vers, uint32_t proc,
		   bool chunked, uint32_t size, uint64_t frame);
void cap_stats_credit(struct cap_stats_conv *s, uint32_t credit);
/* The private data a connection's requester (who 0) or responder (1) sent
 * (the consumer's bytes, after any rdma_cm or MPA v2 header) */
void cap_stats_private(struct cap_stats_conv *s, int who, const uint8_t *pd,
		       uint32_t len);
void cap_stats_latency(struct cap_state *st, uint32_t prog, uint32_t vers,
		       uint32_t proc, uint64_t us);
void cap_stats_conv_done(struct cap_state *st, struct cap_conv *c);
void cap_stats_print(struct cap_state *st, FILE *out);
struct cap_lost;
bool cap_lost_any(const struct cap_lost *l);
void cap_lost_print(const struct cap_lost *l, FILE *out, bool json);

#endif
