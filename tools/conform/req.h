/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * req.h - rpcrdma-conform --requester: the other side.  A responder of our
 * own that requesters (the Linux NFS client, rpcrdma-echo's client, our
 * tests) connect to: the read-only NFSv3 export of tools/ulb/nfs3_serve.c
 * over RPC-over-RDMA on the shared transport (req_nfs.c), MOUNT v3 over
 * TCP on a port of its own (req_mount.c), and the serve loop (req_main.c).
 * Layers: req_main.c over req_nfs.c, req_mount.c and req_report.c; those over the
 * transport (xprt.h) and the NFSv3 program (tools/ulb); none calls up.
 */
#ifndef RPCRDMA_CONFORM_REQ_H
#define RPCRDMA_CONFORM_REQ_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "nfs3_serve.h"
#include "nfs3_xdr.h"
#include "conform.h"
#include "xprt.h"

#define CF_REQ_MOUNT_PORT "20048"
#define CF_REQ_MOUNT_CONNS 8       /* MOUNT clients at once over TCP */
#define CF_REQ_MOUNT_REC 4096u     /* largest MOUNT call record we take */

struct cf_rq_case;
struct cf_req_mount;
struct cf_req_opts {
	const char *host;              /* bind address (NULL: any) */
	const char *port;              /* RPC-over-RDMA (NULL: 20049) */
	const char *mount_port;        /* MOUNT over TCP (NULL: 20048; "0": none) */
	bool serve;                    /* --serve: serve until a signal */
	int debug;
	int connect_timeout_ms;
	const struct xprt_verbs *verbs;  /* NULL: rdma-core */
	uint32_t credits;              /* the forward grant; 0: the transport's */
	int window_ms;                 /* cases: how long each watches */
	/* tests: a case ends once this many calls are all answered; 0: at
	 * the window, or once requesters came, sent min_calls and all left
	 * (the Linux client unmounting) */
	uint32_t end_calls;
	struct cf_req_mount *mount;    /* cases: MOUNT to poll as well (NULL: none) */
	/* tests: called once a case's listener is up, to start requesters in
	 * the same loop */
	void (*on_case)(struct xprt_loop *l, const struct cf_rq_case *c, void *arg);
	void *on_case_arg;
	FILE *json;                    /* the cases' report as JSON Lines too */
	bool json_only;                /* --json: no text report */
	bool faults;                   /* --faults: the fault cases (issue 26 item 2) */
	int settle_ms;                 /* tests: rq-grant-shrink's CF_RQ_SETTLE_MS (0: it,
					 * -1: none) */
};

/* what was served, per program and procedure */
struct cf_req_counts {
	uint64_t nfs[22], nfs_other;   /* NFSv3 calls by procedure */
	uint64_t mount[6], mount_other;
	uint64_t not_rpc;              /* messages that were no RPC call */
	uint64_t reply_failed;         /* xprt_reply() refused */
	uint64_t connections, disconnects;
	uint64_t read_bytes;           /* READ data answered */
};

/* ---- issue 26 item 2: faults from the responder's side (req_faults.c
 * injects them, req_fault_cases.c grades what the requester does next) ---- */
enum cf_rq_fault {
	CF_RQ_F_NONE = 0,
	CF_RQ_F_SHRINK,                /* grant 32, then 2 once 3 calls were out */
	CF_RQ_F_GROW,                  /* grant more than the calls ask */
	CF_RQ_F_ZERO,                  /* grant 0 (V1 4.3.1's MUST NOT broken) */
	CF_RQ_F_ERR_VERS,              /* the first READ answered RDMA_ERROR ERR_VERS */
	CF_RQ_F_ERR_BADHEADER,         /* ... RDMA_ERROR ERR_BADHEADER (RFC 5666's ERR_CHUNK) */
	CF_RQ_F_STRAY_XID,             /* a reply whose xid matches no call */
	CF_RQ_F_SHORT_WRITE,           /* a READ's write chunk filled to half its count */
};
/* the shrunk grant, and how long after the first reply carrying it a call
 * may still have crossed that reply (judged against the grant before:
 * D-RQ-4) */
#define CF_RQ_SHRUNK 2u
#define CF_RQ_SETTLE_MS 250
struct cf_rq_fobs {
	enum cf_rq_fault fault;
	uint32_t cur_grant;            /* the grant replies carry now */
	/* calls against the grant in effect when sent (after the first reply;
	 * out: calls not yet answered when it came) */
	uint64_t judged, over;         /* calls judged; past the grant in effect */
	uint32_t max_out;
	/* rq-grant-shrink */
	bool shrunk;                   /* the smaller grant decided */
	uint32_t shrunk_out;           /* calls out when it was */
	int64_t shrink_ms;             /* the first reply carrying it sent (0: none) */
	int settle_ms;                 /* CF_RQ_SETTLE_MS (tests: other) */
	uint64_t crossing, after;      /* calls within CF_RQ_SETTLE_MS of it; after */
	uint32_t max_out_after, max_out_crossing;   /* most out then */
	uint64_t over_after;
	/* rq-grant-grow and every case: the credits the calls asked for */
	uint32_t min_asked, max_asked;
	uint64_t over_asked;           /* past the lower of asked and granted */
	/* rq-grant-0: calls with another one out */
	uint64_t over_one;
	/* the reply injected (RDMA_ERROR, stray xid, short READ) */
	bool injected;
	uint32_t inj_xid, inj_proc;
	uint64_t inj_calls;            /* calls before it */
	uint32_t inj_connected;        /* connections made before it (later ones:
					 * the requester came back) */
	uint64_t retrans_same, retrans_other;  /* its xid again: on its connection (no
					 * disconnect since: one at a time) / a later one */
	uint64_t calls_after, replies_after;   /* other calls after it; answered */
	uint32_t disc_after;           /* disconnects after it */
	/* rq-write-short: the READ answered short, and READs that follow it on */
	uint8_t short_fh[64];
	uint32_t short_fhlen, short_asked, short_got;
	uint64_t short_off;
	uint64_t cont_reads;           /* a READ of the same file at offset + got */
	uint64_t reads_after;          /* READs of the same file after it */
};

/* What a requester did under a case (req_nfs.c fills it from every
 * message received, before the transport acts on it): its calls, our
 * replies, and the credit rules it broke.  A call's arrival is judged
 * against the replies sent before it: an honest requester cannot have
 * sent a call its credit did not yet allow. */
struct cf_rq_obs {
	uint32_t grant;                /* granted in every reply of the case */
	uint64_t calls, replies;
	uint32_t max_outstanding;      /* calls not yet answered, at most */
	uint64_t before_first;         /* calls beyond the first before any reply */
	uint64_t over_grant;           /* calls past the grant once it was given */
	uint32_t open, connected;      /* connections open now, and in all */
	/* every message the requester sent, judged by libcodec: how many it
	 * does not accept, the first one's reason and xid */
	uint64_t sent, bad;
	enum rpcrdma_reason bad_reason;
	uint32_t bad_xid;
	/* NFSv3 READ calls with a write chunk; those whose first write chunk
	 * is shorter than the count asked (the first such: count, length) */
	uint64_t reads_chunked, reads_short;
	uint32_t short_count, short_len;
	/* calls whose largest possible reply (by the NFSv3 arguments) exceeds
	 * the requester's inline threshold (its RFC 8797 Receive Size, else
	 * 1024: V1 §4.3.3) beyond what a write chunk takes; those with no
	 * reply chunk (the first: procedure, largest reply, threshold) */
	uint64_t big_replies, no_reply_chunk;
	uint32_t nrc_proc, nrc_max, nrc_thresh;
	/* every Send against the inline threshold the requester must keep
	 * to (cases with no_private_data: V1 §4.3.3's 1024; 0: not judged):
	 * the largest, how many exceed it (the first: its length and xid),
	 * and the calls that travel in read chunks (larger than inline) */
	uint32_t inline_limit, max_send;
	uint64_t over_inline, chunked_calls;
	uint32_t over_len, over_xid;
	/* RDMA_MSG calls with an item reduced into a read chunk (past position
	 * zero), and the first call libcodec's rpcrdma_read_chunks_check()
	 * faults (V1 4.4.4.1, 4.4.5, 4.4.5.1): its faults and what they rest on */
	uint64_t reads_reduced, reads_bad;
	unsigned rc_faults;
	uint32_t rc_xid, rc_position, rc_count, rc_payload;
	uint64_t rc_len;
	/* The ECHO forms of rq-read-write-chunk and rq-reply-chunk (issue 26
	 * item 3, the ECHO program's ULB: docs/echo-ulb.md): an ECHO call's
	 * write chunk against the data it asks back, counted in reads_chunked
	 * and reads_short as well (echo_chunked and echo_short of them;
	 * short_echo: the first short one, short_count its data length), and
	 * an ECHO call whose largest reply (echo_reply_max()) exceeds the
	 * requester's inline threshold, counted in big_replies and
	 * no_reply_chunk as well (echo_big of them; nrc_echo: the first with no
	 * reply chunk was an ECHO call, nrc_proc its procedure) */
	uint64_t echo_chunked, echo_short, echo_big;
	bool short_echo, nrc_echo;
	/* issue 26 item 2: the fault cases' own (req_faults.c) */
	struct cf_rq_fobs f;
};

/* the requester cases (req_cases.c): a fault of the responder's side, the
 * catalogue's sentences a requester's next messages are graded on */
enum cf_rq_kind {
	CF_RQ_CREDITS,                 /* calls outstanding against the grant */
	CF_RQ_WELLFORMED,              /* every message libcodec accepts */
	CF_RQ_WRITE_CHUNK,             /* a READ's write chunk holds its count */
	CF_RQ_REPLY_CHUNK,             /* a reply chunk where the reply may not fit */
	CF_RQ_INLINE,                  /* every Send within the inline threshold */
	CF_RQ_READ_CHUNKS,             /* read chunks: position, count, pad */
	/* issue 26 item 2: a fault of the responder's side each (req_faults.c,
	 * graded in req_fault_cases.c), in enum cf_rq_fault's order */
	CF_RQ_GRANT_SHRINK, CF_RQ_GRANT_GROW, CF_RQ_GRANT_ZERO, CF_RQ_ERR_VERS,
	CF_RQ_ERR_BADHEADER, CF_RQ_STRAY_XID, CF_RQ_WRITE_SHORT,
};
struct cf_rq_case {
	const char *name;
	const char *reqs;              /* catalogue ids, comma-separated */
	const char *what;
	uint32_t grant;                /* the credits every reply grants */
	uint64_t min_calls;            /* fewer observed: SKIP (no traffic) */
	enum cf_rq_kind kind;
	bool no_private_data;          /* the listener sends no RFC 8797 data */
};
extern const struct cf_rq_case cf_rq_cases[];
extern const size_t cf_rq_ncases;
struct cf_rq_grade {
	enum cf_result result;
	const char *req_id;            /* FAIL: the sentence it rests on */
	const char *decision;          /* NOTE: docs/spec-decisions.md's id */
	char observed[200];
};
/* the requester sentence a message libcodec does not accept breaks, by
 * libcodec's reason; NULL where no sentence with a keyword binds the
 * requester (then *decision names our reading) */
const char *cf_rq_reason_req(enum rpcrdma_reason r, const char **decision);
void cf_rq_grade(const struct cf_rq_case *c, const struct cf_rq_obs *o, struct cf_rq_grade *g);
/* issue 26 item 2 (req_fault_cases.c): the fault cases, run by
 * --requester --faults instead of the table above, and their grader */
extern const struct cf_rq_case cf_rq_fault_cases[];
extern const size_t cf_rq_nfault_cases;
void cf_rq_fault_grade(const struct cf_rq_case *c, const struct cf_rq_obs *o,
		       struct cf_rq_grade *g);

/* the report (req_report.c): text to `text`, JSON Lines to `json` (either
 * NULL: none) */
struct cf_rq_report {
	FILE *text, *json;
	size_t ncases;                 /* cases in the run (0: cf_rq_ncases) */
};
void cf_rq_report_begin(const struct cf_rq_report *r, const char *port, int window_ms);
void cf_rq_report_case(const struct cf_rq_report *r, const struct cf_rq_case *c,
		       const struct cf_rq_grade *g);
void cf_rq_report_end(const struct cf_rq_report *r, const unsigned n[CF_NRESULTS]);

/* a reply held back (cases): a small inline V1 reply, built here with
 * libcodec and sent raw when due, so that a call the requester sends
 * meanwhile is one it sent without the reply: the responder's count of
 * outstanding calls is then the requester's own */
#define CF_RQ_HELD 32
#define CF_RQ_HOLD_MS 20
struct cf_rq_held {
	struct xprt *x;                /* NULL: a free slot */
	int64_t due_ms;
	size_t len;
	uint8_t buf[1024];
};

/* the NFS (and ECHO) responder on the transport (req_nfs.c) */
struct cf_req_nfs {
	struct cf_req_counts *counts;
	struct cf_rq_obs *obs;         /* NULL: not observed (--serve) */
	int hold_ms;                   /* cases: how long small replies wait */
	struct cf_rq_held held[CF_RQ_HELD];
	uint8_t out[NFS3_SERVE_REPLY_MAX];
};
/* sends the held replies due by now_ms (all of them with force) */
void cf_req_nfs_flush(struct cf_req_nfs *n, int64_t now_ms, bool force);
void cf_req_nfs_handlers(struct cf_req_nfs *n, struct xprt_handlers *h);

/* issue 26 item 2: the faults (req_faults.c), called from req_case and
 * req_nfs.c only: the listener's options for case c; a forward call from
 * the requester (before the transport acts on it; out: calls not yet
 * answered); a call to answer (true: the fault answered it); a reply
 * sent; a disconnect; a held reply about to go (its grant set anew) */
void cf_rq_fault_setup(const struct cf_rq_case *c, struct xprt_opts *xo, struct cf_rq_obs *o,
		       int settle_ms);
enum cf_rq_fault cf_rq_fault_of(enum cf_rq_kind k);  /* CF_RQ_F_NONE: no fault case */
void cf_rq_fault_call(struct cf_rq_obs *o, struct xprt *x, const struct rpcrdma_msg *m,
		      uint64_t out);
bool cf_rq_fault_answer(struct cf_req_nfs *n, struct xprt_rcvd_call *rc);
void cf_rq_fault_replied(struct cf_rq_obs *o);
void cf_rq_fault_disconnect(struct cf_rq_obs *o);
void cf_rq_fault_held(const struct cf_rq_obs *o, uint8_t *buf, size_t len);

/* MOUNT over TCP (req_mount.c): RFC 5531 §11 record marking */
struct cf_req_mount {
	int lfd[2];                    /* listeners: IPv4 and IPv6 (-1: none) */
	int cfd[CF_REQ_MOUNT_CONNS];   /* clients (-1: free) */
	/* per client: bytes of a fragment header so far, of the record's
	 * body so far, left of the fragment being read, its last-fragment
	 * bit, whether a header is being read */
	uint32_t have[CF_REQ_MOUNT_CONNS], body[CF_REQ_MOUNT_CONNS];
	uint32_t frag_left[CF_REQ_MOUNT_CONNS];
	bool last[CF_REQ_MOUNT_CONNS], in_hdr[CF_REQ_MOUNT_CONNS];
	uint8_t rec[CF_REQ_MOUNT_CONNS][CF_REQ_MOUNT_REC + 4];
	struct cf_req_counts *counts;
};
/* listens on host (NULL: any) and port; 0, or -1 with why[] set */
int cf_req_mount_open(struct cf_req_mount *m, const char *host, const char *port,
		      char *why, size_t whylen);
/* accepts, reads and answers for at most ms milliseconds (0: what is ready) */
void cf_req_mount_poll(struct cf_req_mount *m, int ms);
void cf_req_mount_close(struct cf_req_mount *m);

/* req_main.c: one case (a listener of its own granting the case's credits,
 * watched for o->window_ms or until 8 calls are all answered): 0, or -1
 * with why[] when it cannot listen */
int cf_req_run_case(const struct cf_req_opts *o, const struct cf_rq_case *c,
		    struct cf_req_counts *counts, struct cf_rq_obs *ob, char *why, size_t whylen);
/* req_main.c: the whole --requester run; the exit status */
int cf_req_main(const struct cf_req_opts *o, FILE *out);

#endif
