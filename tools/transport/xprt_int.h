/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * xprt_int.h - the transport's internals, shared by its files (see
 * docs/architecture.md "The transport").  The rooms, each calling only
 * the rooms below it:
 *   on top      xprt_connect.c     public connect and listen (run the loop)
 *               xprt_loop.c        the event loop: poll(2), timeouts, reaping
 *               xprt_completion.c  completions dispatched, every Receive judged
 *               xprt_cm.c          CM events, a connection's life, teardown
 *   requester   xprt_rq_send.c     xprt_call(): queue, marshal, one Send
 *               xprt_rq_reply.c    a reply: matching, V2 fallback, assembly
 *               xprt_rq_end.c      the end of a call: fence, done, timeouts
 *   responder   xprt_rs_call.c     a call received: chunks noted, on_call
 *               xprt_rs_reply.c    xprt_reply(): inline, write or reply chunk
 *               xprt_rs_error.c    error replies (and the test-only misbehaviour)
 *               xprt_rs_chunks.c   the RDMA Read of a read chunk, RDMA Writes
 *   resources   xprt_post.c        work requests posted; the one Send builder
 *               xprt_mr.c          per-RPC registration, xprt_mem_register()
 *               xprt_bufs.c        the Send/Receive region, Receives, Send slots
 *               xprt_verbs_rdma*.c the verbs table on rdma-core
 *   helpers     xprt_credits.c     the credit accounting
 *               xprt_params.c      thresholds in force, the version memory
 *               xprt_util.c        errors, trace, clock, options, fatal mark
 *               xprt_stats.c       counters, context, peer info
 *               xprt_names.c       names of enumerations
 */
#ifndef RPCRDMA_XPRT_INT_H
#define RPCRDMA_XPRT_INT_H

#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <signal.h>
#include <time.h>
#include "xprt.h"
#include "xprt_verbs.h"

#define XPRT_MAX_SEGS 16u        /* segments per chunk this end serves */
#define XPRT_MAX_WCHUNKS 4u      /* write chunks per call it serves */
#define XPRT_MAX_RCHUNKS 2u      /* read chunks (positions) per call */
#define XPRT_DEFAULT_CREDITS 32u
#define XPRT_MAX_CREDITS 1024u
#define XPRT_DEFAULT_INLINE 4096u
#define XPRT_DEFAULT_TIMEOUT_MS 5000  /* resolve and connect (xprt_opts.timeout_ms 0) */
#define XPRT_DEFAULT_MAX_MESSAGE ((1u << 20) + 4096u)
#define XPRT_V1_HDR 28u          /* prefix + three empty lists */
#define XPRT_V2_HDR 32u
#define XPRT_RHDR_MAX 1024u      /* the largest reply header we take: no
				  * answer to our calls comes near it */

/* work request ids: kind << 56 | index */
enum xw_kind { XW_RECV = 1, XW_SEND, XW_READ, XW_WRITE, XW_LOCAL };
#define XW_ID(k, i) ((uint64_t)(k) << 56 | (uint64_t)(uint32_t)(i))
#define XW_KIND(w) ((unsigned)((w) >> 56))
#define XW_IDX(w) ((uint32_t)(w))

enum xstate { X_RESOLVING = 0, X_CONNECTING, X_ACCEPTING, X_CONNECTED,
	      X_CLOSING, X_DEAD };

struct xreg {                    /* one per-RPC registration */
	struct xv_mr *mr;
	struct xv_mw *mw;        /* a memory window over mr (use_mw) */
	uint32_t rkey;           /* what the peer gets: mr's or mw's */
	uint64_t addr;
	uint32_t len;
};

struct xsend {                   /* one Send slot (and what hangs on it) */
	uint8_t *buf;            /* in the connection's region */
	uint8_t *big;            /* a Send larger than the slot */
	struct xv_mr *big_mr;
	uint8_t *stage;          /* a reply's chunk data (RDMA Write source) */
	struct xv_mr *stage_mr;
	uint32_t pending;        /* its WRs not completed */
	bool busy;
	int next_free;
};

struct xcall {                   /* a call this end sent, until done */
	struct xprt_call *c;
	struct xprt *x;
	uint32_t xid, vers;
	int slot;                /* index in x->calls while outstanding */
	struct xcall *next;      /* the queue of calls waiting for a credit */
	struct xreg read, write, reply;
	uint8_t *wbuf, *rbuf;    /* write-chunk and reply-chunk receptacles */
	size_t wlen, rlen;
	uint8_t *assembled;
	uint64_t deadline_ns;
	bool resent;             /* already resent after ERR_VERS */
	/* last: cleared per call only up to here (XCALL_CLEAR) */
	uint8_t rhdr[XPRT_RHDR_MAX];   /* the reply's header bytes (c->hdr.buf) */
};
#define XCALL_CLEAR offsetof(struct xcall, rhdr)

/* the reassembled call: pieces of the inline payload (src -1) and of the
 * read chunks (src k), in order (xprt_rs_chunks.c) */
struct xpiece {
	int src;
	uint64_t src_off, len, asm_off;
};
#define XPRT_MAX_PIECES (2 * XPRT_MAX_RCHUNKS + 1)

struct xrcvd {                   /* a call received (responder) */
	struct xprt_rcvd_call r;       /* first: xprt_reply() gets it back */
	bool busy, answered, failed;
	bool answered_inside;    /* on_call is running */
	uint8_t *hdr;            /* copy of the transport header */
	struct rpcrdma_msg m;    /* decoded over hdr (+ inline payload) */
	uint8_t *buf;            /* the reassembled call */
	size_t len;
	struct xv_mr *mr;
	uint32_t reads_pending;
	uint32_t nrch;           /* read chunks (rch[]) */
	unsigned npieces;        /* piece[] */
	uint32_t nwchunks, wsegs[XPRT_MAX_WCHUNKS]; /* write list (wseg[]) */
	uint32_t nrsegs;         /* reply chunk (rseg[]) */
	uint32_t inv_rkey;       /* the one rkey of all its chunks, or 0 */
	bool inv_ok;
	/* The arrays, read only below their counts above: a slot is cleared
	 * up to here (XRCVD_CLEAR), not through them, once per call (when
	 * xprt_call_in() takes it; rcvd_release() frees it and marks it free). */
	/* its read chunks: by position, segments in list order */
	struct { uint32_t pos, first, nsegs; uint64_t len; } rch[XPRT_MAX_RCHUNKS];
	struct rpcrdma_read_segment rdseg[XPRT_MAX_RCHUNKS * XPRT_MAX_SEGS];
	struct xpiece piece[XPRT_MAX_PIECES];
	/* the requester's write list and reply chunk */
	struct rpcrdma_segment wseg[XPRT_MAX_WCHUNKS][XPRT_MAX_SEGS];
	struct rpcrdma_segment rseg[XPRT_MAX_SEGS];
};
#define XRCVD_CLEAR offsetof(struct xrcvd, rch)
#define XRCVD_M_END (offsetof(struct xrcvd, m) + sizeof(struct rpcrdma_msg))

struct xmem {                    /* xprt_mem_register() */
	struct xv_mr *mr;
	struct xprt *x;
	struct xmem *next;
};

struct xprt {
	struct xprt_loop *l;
	struct xprt_opts o;
	char host[256], port[16];
	struct xprt_handlers h;
	struct xv_id *id;
	enum xstate state;
	bool server;             /* accepted by a listener */
	bool announced;          /* on_connect ran */
	void *ctx;
	struct xprt_peer_info peer;
	struct xprt_stats st;
	struct xprt_error cerr;  /* how connecting ended */
	struct xv_dev_info dev;
	char key[300];           /* the peer, for the version memory */
	char target[300];        /* "host:port" as the user gave it */

	/* version: what our calls carry; settled once the peer answered */
	uint32_t vers;
	bool vers_settled;
	uint32_t vlow, vhigh;    /* versions we speak */

	/* requester */
	struct rpcrdma_credits cred;
	struct xcall **calls;    /* outstanding, by slot */
	uint32_t ncalls, nout;
	struct xcall *spare_xc;  /* a finished call's block, for the next one */
	struct xcall *q_head, *q_tail;
	uint32_t next_xid;
	/* responder */
	uint32_t grant;
	struct xrcvd *rcvd;      /* calls received, in progress */
	uint32_t nrcvd;
	bool peer_inv;           /* the peer accepts Send With Invalidate */
	bool use_mw;             /* chunks through memory windows: we accept
				  * Send With Invalidate (RFC 8797 flag) */
	bool rx_inv;             /* the Receive being handled came with */
	uint32_t rx_inv_rkey;    /* Send With Invalidate of this rkey */

	/* buffers */
	uint8_t *region;
	struct xv_mr *region_mr;
	uint32_t nrecv, rsize, nsend, ssize;
	struct xsend *sends;
	int send_free;
	uint32_t sq_depth, sq_used, rq_posted;
	struct xmem *mems;

	/* life */
	enum xprt_disc_reason why;
	bool disc_reported, defer_free;
	bool fatal;              /* xprt_fatal() marked it: the loop
				  * disconnects (xprt_cm_fatal_act) */
	int busy;                /* inside a callback that may close it */
	struct xprt *next;
};

struct xprt_listener {
	struct xv_id *id;
	struct xprt_opts o;
	char host[256], port[16];
	struct xprt_handlers h;
	struct xprt_listener *next;
};

#define XPRT_PEER_MEMORY 32
struct xprt_loop {
	struct xprt_opts o;
	char host[256], port[16];
	const struct xprt_verbs *v;
	struct xv_chan *ch;
	int stop_fd;
	volatile sig_atomic_t stop;
	struct xprt *conns;
	struct xprt_listener *listeners;
	struct xprt_stats closed;        /* of connections gone */
	uint32_t accepted;
	struct { char key[300]; uint32_t vers, low, high; bool dropped; } mem[XPRT_PEER_MEMORY];
	unsigned mem_next;
	uint32_t xid_seed;
	int depth;                       /* nested runs (connect waits) */
	unsigned nconns;                 /* in conns (freed by reap()) */
	unsigned ndead;                  /* connections torn down, not yet
					  * freed (reap() has work) */
	int ch_fd;                       /* the CM channel's fd (v->chan_fd) */
	uint64_t next_dl;                /* no call's deadline is earlier
					  * (a stale one only wakes poll early) */
};

/* ---- helpers ---- */
/* The first n bytes at p zeroed, n a constant of 16 to 256: 16-byte
 * stores, unrolled.  gcc makes a memset of 100 bytes or more `rep stosq`,
 * a start-up and a step per 8 bytes; these are what a round trip clears
 * (a call's block, a received call's slot, a header to encode), as
 * libcodec's zero_msg() does for its result. */
typedef unsigned char xprt_v16 __attribute__((vector_size(16)));
#define XPRT_Z16(p, n, off) \
	do { if ((off) + 16 <= (n)) \
		memcpy((unsigned char *)(p) + (off), &z, 16); } while (0)
static inline __attribute__((always_inline)) void xprt_zero(void *p, size_t n)
{
	const xprt_v16 z = { 0 };

	XPRT_Z16(p, n, 0);   XPRT_Z16(p, n, 16);  XPRT_Z16(p, n, 32);
	XPRT_Z16(p, n, 48);  XPRT_Z16(p, n, 64);  XPRT_Z16(p, n, 80);
	XPRT_Z16(p, n, 96);  XPRT_Z16(p, n, 112); XPRT_Z16(p, n, 128);
	XPRT_Z16(p, n, 144); XPRT_Z16(p, n, 160); XPRT_Z16(p, n, 176);
	XPRT_Z16(p, n, 192); XPRT_Z16(p, n, 208); XPRT_Z16(p, n, 224);
	XPRT_Z16(p, n, 240);
	if (n % 16)     /* the tail, overlapping the last store */
		memcpy((unsigned char *)p + n - 16, &z, 16);
}
#define XPRT_ZERO(p, n) do { \
	_Static_assert((n) >= 16 && (n) <= 256, "XPRT_ZERO: 16 to 256 bytes"); \
	xprt_zero((p), (n)); } while (0)

/* xprt_util.c (the clock inline: five reads a round trip) */
static inline uint64_t xprt_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
void xprt_err(struct xprt_error *e, enum xprt_errcode c, int sys,
	      const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void xprt_trace(const struct xprt *x, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void xprt_fatal(struct xprt *x, const char *why);   /* a mark: see x->fatal */
void xprt_opts_copy(struct xprt_opts *to, char *host, size_t hcap, char *port,
		    size_t pcap, const struct xprt_opts *from);
struct sockaddr_storage;
void xprt_format_addr(const struct sockaddr_storage *ss, char *buf, size_t cap);

/* xprt_credits.c */
void xprt_credits_init(struct xprt *x);
bool xprt_credit_available(const struct xprt *x);
void xprt_credit_take(struct xprt *x);
void xprt_credit_reply(struct xprt *x, uint32_t credit);
void xprt_credit_error_reply(struct xprt *x, uint32_t credit);
void xprt_credit_forget(struct xprt *x);
bool xprt_credit_timeout(struct xprt *x);   /* true: close (V1 §4.3.3) */
uint32_t xprt_credit_grant(const struct xprt *x);

/* xprt_params.c */
void xprt_update_thresholds(struct xprt *x);
uint32_t xprt_send_threshold(const struct xprt *x);
void xprt_remember_version(struct xprt *x, uint32_t vers, bool dropped);
void xprt_recall_version(struct xprt *x);

/* xprt_stats.c */
void xprt_stats_retire(struct xprt *x);

/* ---- resources ---- */
/* xprt_bufs.c */
int xprt_bufs_create(struct xprt *x);
void xprt_bufs_destroy(struct xprt *x);
int xprt_post_recv(struct xprt *x, uint32_t slot);
uint8_t *xprt_recv_buf(struct xprt *x, uint32_t slot);
int xprt_send_slot(struct xprt *x);
void xprt_send_slot_put(struct xprt *x, int s);
uint8_t *xprt_send_space(struct xprt *x, int s, size_t len, uint32_t *lkey);

/* xprt_post.c */
int xprt_post(struct xprt *x, const struct xv_send_wr *wr);
/* the one RDMA Read or Write work request builder: one signaled WR of
 * `op` (XV_OP_RDMA_READ or XV_OP_RDMA_WRITE), the local bytes `sge`, the
 * peer's memory at remote_addr under rkey */
int xprt_post_rdma(struct xprt *x, enum xv_opcode op, uint64_t wr_id,
		   const struct xv_sge *sge, uint64_t remote_addr, uint32_t rkey);
int xprt_post_send(struct xprt *x, int s, void *buf, size_t len, uint32_t lkey,
		   bool with_inv, uint32_t inv_rkey);

/* xprt_mr.c */
int xprt_reg(struct xprt *x, void *addr, size_t len, bool remote_write,
	     struct xreg *r);
void xprt_unreg(struct xprt *x, struct xreg *r);
void xprt_mems_release_all(struct xprt *x);

/* ---- the requester ---- */
/* xprt_rq_send.c */
void xprt_send_queued(struct xprt *x);

/* xprt_rq_reply.c */
void xprt_reply_in(struct xprt *x, uint32_t slot, const uint8_t *buf,
		   size_t len, struct rpcrdma_msg *m);

/* xprt_rq_end.c */
void xprt_call_unreg(struct xprt *x, struct xcall *xc);
void xprt_call_finish(struct xcall *xc, enum xprt_errcode code, const char *msg);
void xprt_calls_fail_all(struct xprt *x, enum xprt_errcode code, const char *msg);
uint64_t xprt_calls_check_timeouts(struct xprt *x, uint64_t now);

/* ---- the responder ---- */
/* xprt_rs_call.c */
void xprt_call_in(struct xprt *x, uint32_t slot, const uint8_t *buf,
		  size_t len, struct rpcrdma_msg *m);
void xprt_rcvd_read_done(struct xprt *x, uint32_t idx, bool ok);
void xprt_rcvd_release_all(struct xprt *x);

/* xprt_rs_error.c */
int xprt_send_error(struct xprt *x, const struct rpcrdma_msg *m,
		    enum rpcrdma_action a);

/* xprt_rs_chunks.c */
int xprt_read_chunk_plan(struct xrcvd *q, const uint8_t *payload,
			 size_t payload_len, uint64_t max_len);
int xprt_read_chunk_pull(struct xprt *x, struct xrcvd *q, uint32_t idx);
void xprt_read_chunk_fill(struct xrcvd *q, const uint8_t *payload);
int xprt_write_chunk_push(struct xprt *x, int slot,
			  const struct rpcrdma_segment *segs, uint32_t nsegs,
			  const uint8_t *src, uint32_t lkey, size_t len,
			  uint32_t *written);
uint64_t xprt_chunk_len(const struct rpcrdma_segment *s, uint32_t n);

/* ---- on top ---- */
/* xprt_cm.c */
struct xprt *xprt_conn_new(struct xprt_loop *l, const struct xprt_opts *o,
			   const struct xprt_handlers *h, bool server);
/* an iWARP connect refused (rdma_connect: ECONNREFUSED): XPRT_E_REFUSED */
void xprt_cm_refused(struct xprt_error *e);
void xprt_conn_failed(struct xprt *x, enum xprt_errcode c, int sys,
		      const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void xprt_cm_event(struct xprt_loop *l, const struct xv_event *ev);
void xprt_cm_fatal_act(struct xprt *x);
void xprt_teardown(struct xprt *x);
void xprt_established_early(struct xprt *x);

/* xprt_completion.c */
void xprt_poll_cq(struct xprt *x);

/* xprt_loop.c */
int xprt_loop_once(struct xprt_loop *l, int timeout_ms);

#endif /* RPCRDMA_XPRT_INT_H */
