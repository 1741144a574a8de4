/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cap_stats.h - --stats counters: per conversation and overall message
 * counts by version and type, calls and replies by direction (BIDI 2.4),
 * credits granted (V1 4.3.1), inline vs chunked sizes (V1 4.5), RPC
 * round-trip latency per program/procedure/NFSv4 operation, faults.
 */
#ifndef RPCRDMA_CAP_STATS_H
#define RPCRDMA_CAP_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cap_lat.h"

#define CAP_HIST_N 10u      /* <256 <512 <1K <2K <4K <8K <16K <64K <1M >=1M */
#define CAP_PROCS_MAX 512u  /* distinct program/version/procedure[/operation] */

/* One direction of RPC (BIDI 2.4): calls from the client (forward) or
 * from the server (backward), the replies to them, and the credits the
 * replies granted the caller (V1 4.3.1) */
enum { CAP_FWD, CAP_BWD };
struct cap_stats_rpc {
	uint64_t calls, replies, orphans; /* orphans: replies without a call */
	bool have_credit;
	uint32_t cmin, cmax, cfinal;
};

struct cap_stats_conv {
	uint64_t bad_headers, retrans, crc_fail, violations, unmatched;
	uint64_t rdma_bytes;
	uint64_t first_frame, last_frame;
	/* the connection's start: RFC 8797 private data of the CM REQ/REP or
	 * MPA Request/Reply, [0] the requester's, [1] the responder's */
	uint8_t pd_seen[2];          /* 0 not in the capture, 1 seen */
	uint8_t pd_len[2];           /* bytes kept (at most 8) */
	uint8_t pd[2][8];
	/* iWARP: the MPA framing inferred (no MPA handshake in the capture),
	 * a bit per direction, and what was found: CRC use, markers (a bit per
	 * direction) */
	uint8_t mpa_inferred;
	bool mpa_crc;
	uint8_t mpa_markers;
	/* Version Two messages of a later draft's layout (not decoded: libcodec's
	 * rpcrdma_v2_draft_family()), the families they fit, noted once */
	uint64_t v2_later;
	uint8_t v2_fam_any, v2_fam_all; /* fit by one of them, by all of them */
	bool v2_noted;
	bool v2_named;               /* line output: cel-01 named for it */
	/* capture loss per direction (what endpoint i sent; docs/capture.md,
	 * "Capture loss"): PSNs never seen (request packets and RDMA Read
	 * responses, by their sender), request PSNs skipped and seen later (the
	 * network retransmitted them); TCP stream holes given up, as bytes and
	 * segments; chunk bytes an answered chunk lacks; replies without a
	 * call before the first matched reply */
	uint64_t psn_gap[2], psn_fill[2];
	uint64_t tcp_lost_bytes[2], tcp_lost_segs[2];
	uint64_t chunk_missing[2];
	uint64_t orphans_start[2];
	/* the counts of messages, last: cleared by the first message
	 * (cap_stats_sizes), so that a conversation that never carries one
	 * (most QPs of a busy fabric) costs nothing to open */
	bool have_sizes;
	uint64_t msgs[3][7];         /* [vers 1, 2, other][proc 0..5, other] */
	uint64_t inline_hist[CAP_HIST_N], chunked_hist[CAP_HIST_N];
	struct cap_stats_rpc rpc[2]; /* CAP_FWD, CAP_BWD */
};
#define CAP_STATS_SIZES_OFF offsetof(struct cap_stats_conv, msgs)

/* RPC latency of one procedure (for an NFSv4 COMPOUND: of its main
 * operation, nfs4_main_op()) */
struct cap_stats_proc {
	bool used;
	uint32_t prog, vers, proc, op; /* op: NFS4_OP_NONE for none */
	struct cap_lat lat;
};

struct cap_stats_all {
	struct cap_stats_conv total;
	struct cap_stats_proc *procs; /* CAP_PROCS_MAX, with the first latency */
	struct cap_lat_pool pool;
	uint64_t frames, frames_rdma, frames_truncated, frames_invalid;
	/* frames stamped over a second before the frame before them (a
	 * capture that mixes two clocks: Linux 6.12's rxe stamps received
	 * frames with the time since boot, docs/kernels.md): how many, the
	 * first one and how many seconds back it went; the last frame's
	 * seconds */
	uint64_t ts_back, ts_back_frame, ts_back_sec;
	int64_t ts_last_sec;
	bool ts_have_last;
	uint64_t messages;           /* RPC-over-RDMA messages decoded, all */
	FILE *closed;                /* summaries of conversations closed early */
	uint32_t nclosed;
};

/* packets the capture lost of direction `dir` (PSNs never seen once out
 * of the window or at the end, TCP segments of the holes given up) */
static inline uint64_t cap_lost_packets(const struct cap_stats_conv *s, int dir)
{
	return s->psn_gap[dir] + s->tcp_lost_segs[dir];
}

struct cap_state;
struct cap_conv;
struct cap_call;
void cap_stats_sizes(struct cap_stats_conv *s);
void cap_stats_msg(struct cap_stats_conv *s, uint32_t vers, uint32_t proc,
		   bool chunked, uint32_t size, uint64_t frame);
void cap_stats_credit(struct cap_stats_rpc *r, uint32_t credit);
/* The private data a connection's requester (who 0) or responder (1) sent
 * (the consumer's bytes, after any rdma_cm or MPA v2 header) */
void cap_stats_private(struct cap_stats_conv *s, int who, const uint8_t *pd,
		       uint32_t len);
/* returns the procedure's slot in st->stats.procs, -1 when not timed */
int cap_stats_latency(struct cap_state *st, const struct cap_call *k,
		      uint64_t us);
void cap_stats_conv_done(struct cap_state *st, struct cap_conv *c);
void cap_stats_print(struct cap_state *st, FILE *out);
void cap_stats_free(struct cap_state *st);
/* cap_stats_print.c: one conversation's summary, text or JSON */
void cap_stats_conv_print(FILE *out, struct cap_conv *c, bool json,
			  const char *file, bool name_file);
/* "NFS v3 READ", "NFS v4 READ" (a COMPOUND by its main operation) */
void cap_stats_proc_label(const struct cap_stats_proc *p, char *name,
			  size_t cap);
/* "  private data: requester RFC 8797 v1, send 4096, ...; responder ..." */
void cap_stats_private_print(FILE *out, const struct cap_stats_conv *s);
struct cap_lost;
bool cap_lost_any(const struct cap_lost *l);
void cap_lost_print(const struct cap_lost *l, FILE *out, bool json);

#endif
