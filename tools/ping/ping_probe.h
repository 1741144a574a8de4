/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ping_probe.h - the pieces of --probe and --probe-inline: one report item
 * per finding (text: an indented line under its section; JSON: one
 * {"type":"probe"} object each, with the xids involved so that every item
 * can be found in a capture of the same run), and the raw-message probes.
 */
#ifndef RPCRDMA_PING_PROBE_H
#define RPCRDMA_PING_PROBE_H

#include "ping_conn.h"

#define ITEM_MAX_NUMS 8

struct probe_item {
	const char *section;           /* "connection", "versions", ... */
	const char *key;               /* JSON item name: "v2", "credits_first" */
	const char *label;             /* text: "Version Two" */
	const char *result;            /* "accepted", "refused", "answered"... */
	char text[320];                /* the rest of the text line */
	bool has_xid;
	uint32_t xid;                  /* what we sent */
	const struct ping_raw *reply;  /* the peer's answer, if any */
	bool has_spec;                 /* libcodec's verdict on what we sent */
	enum rpcrdma_action spec;
	enum rpcrdma_reason spec_reason;
	struct { const char *k; uint64_t v; } nums[ITEM_MAX_NUMS];
	unsigned nnums;
};

struct probe_report {
	struct ping_out out;
	const char *section;           /* the last section printed (text) */
};

void report_item(struct probe_report *r, const struct probe_item *it);
/* the first NULL call on pc, made once more on a new connection when it
 * got no answer (siw's lost first Send), the retry reported in `section`:
 * true when answered (ping_probe.c) */
bool probe_first_call(struct ping_conn *pc, struct probe_report *rep, const char *section,
		      struct xprt_call *c, uint8_t *buf, size_t cap);
/* an item of `section` cleared and named (key: JSON; label: text) */
void probe_item_init(struct probe_item *it, const char *section,
		     const char *key, const char *label);
void item_num(struct probe_item *it, const char *k, uint64_t v);
__attribute__((format(printf, 2, 3)))
void item_text(struct probe_item *it, const char *fmt, ...);
/* "RDMA_ERROR ERR_VERS vers=2 credits=64 range 1..1" */
void raw_describe(char *b, size_t cap, const struct ping_raw *r);

/* What became of a message sent raw (ping_probe_raw.c) */
enum raw_outcome {
	RAW_ANSWERED,                  /* the peer answered with a transport
					* message (usually RDMA_ERROR) */
	RAW_SILENT,                    /* nothing came, the connection stayed */
	RAW_DROPPED,                   /* the connection went away */
	RAW_NOT_SENT,                  /* no connection to send it on */
};
struct raw_probe {
	uint32_t xid;
	enum rpcrdma_action spec;      /* libcodec's verdict on the bytes */
	enum rpcrdma_reason spec_reason;
	enum raw_outcome outcome;
	struct ping_raw reply;
	struct xprt_error err;
};
/* Sends the header h (encoded by libcodec), cut to `cut` bytes when not 0,
 * followed by an RPC NULL call of the pinged program when with_rpc, and
 * finds out what the peer does with it (answer, silence, drop).
 * Reconnects first when the connection is gone. */
void raw_probe_run(struct ping_conn *pc, const struct rpcrdma_hdr *h,
		   size_t cut, bool with_rpc, struct raw_probe *out);
/* The item for a raw probe: result answered | silent | dropped | not-sent */
void raw_probe_item(struct probe_item *it, const struct raw_probe *rp);

/* The NFSv4.1 back channel (ping_nfs41.c): a session whose CREATE_SESSION
 * asks for the back channel on this connection; item filled. */
void nfs41_backchannel_probe(struct ping_conn *pc, struct probe_item *it);

#endif
