/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * xprt_int.h - the transport's internals, shared by its files (see
 * docs/architecture.md "Transport"):
 *   xprt_loop.c     the event loop: poll(2) or busy polling, completions
 *   xprt_cm.c       connect, listen, accept, private data, disconnects
 *   xprt_mem.c      registered buffers, per-RPC registration, fencing
 *   xprt_send.c     the requester: credits, chunk choice, V2 negotiation
 *   xprt_reply_in.c the requester's side of a reply: matching, assembly
 *   xprt_recv.c     every Receive: libcodec's verdict, error replies
 *   xprt_respond.c  the responder: calls in, xprt_reply()
 *   xprt_chunks.c   RDMA Read of read chunks, RDMA Write of write/reply
 */
#ifndef RPCRDMA_XPRT_INT_H
#define RPCRDMA_XPRT_INT_H

#include <stdio.h>
#include <signal.h>
#include "xprt.h"
#include "xprt_verbs.h"

#define XPRT_MAX_SEGS 16u        /* segments per chunk this end serves */
#define XPRT_MAX_WCHUNKS 4u      /* write chunks per call it serves */
#define XPRT_MAX_RCHUNKS 2u      /* read chunks (positions) per call */
#define XPRT_DEFAULT_CREDITS 32u
#define XPRT_MAX_CREDITS 1024u
#define XPRT_DEFAULT_INLINE 4096u
#define XPRT_DEFAULT_MAX_MESSAGE ((1u << 20) + 4096u)
#define XPRT_V1_HDR 28u          /* prefix + three empty lists */
#define XPRT_V2_HDR 32u

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
};

/* the reassembled call: pieces of the inline payload (src -1) and of the
 * read chunks (src k), in order (xprt_chunks.c) */
struct xpiece {
	int src;
	uint64_t src_off, len, asm_off;
};
#define XPRT_MAX_PIECES (2 * XPRT_MAX_RCHUNKS + 1)

struct xreq {                    /* a call received (responder) */
	struct xprt_req r;       /* first: xprt_reply() gets it back */
	bool busy, answered, failed;
	bool answered_inside;    /* on_call is running */
	uint8_t *hdr;            /* copy of the transport header */
	struct rpcrdma_msg m;    /* decoded over hdr (+ inline payload) */
	uint8_t *buf;            /* the reassembled call */
	size_t len;
	struct xv_mr *mr;
	uint32_t reads_pending;
	/* its read chunks: by position, segments in list order */
	uint32_t nrch;
	struct { uint32_t pos, first, nsegs; uint64_t len; } rch[XPRT_MAX_RCHUNKS];
	struct rpcrdma_read_segment rdseg[XPRT_MAX_RCHUNKS * XPRT_MAX_SEGS];
	struct xpiece piece[XPRT_MAX_PIECES];
	unsigned npieces;
	/* the requester's write list and reply chunk */
	uint32_t nwchunks, wsegs[XPRT_MAX_WCHUNKS];
	struct rpcrdma_segment wseg[XPRT_MAX_WCHUNKS][XPRT_MAX_SEGS];
	uint32_t nrsegs;
	struct rpcrdma_segment rseg[XPRT_MAX_SEGS];
	uint32_t inv_rkey;       /* the one rkey of all its chunks, or 0 */
	bool inv_ok;
};

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
	struct xcall *q_head, *q_tail;
	uint32_t next_xid;
	/* responder */
	uint32_t grant;
	struct xreq *reqs;
	uint32_t nreqs;
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
};

/* xprt_loop.c */
uint64_t xprt_now_ns(void);
void xprt_err(struct xprt_error *e, enum xprt_errcode c, int sys,
	      const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void xprt_trace(const struct xprt *x, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void xprt_opts_copy(struct xprt_opts *to, char *host, size_t hcap, char *port,
		    size_t pcap, const struct xprt_opts *from);
void xprt_poll_cq(struct xprt *x);
void xprt_stats_retire(struct xprt *x);
int xprt_loop_once(struct xprt_loop *l, int timeout_ms);

/* xprt_cm.c */
void xprt_cm_event(struct xprt_loop *l, const struct xv_event *ev);
void xprt_fatal(struct xprt *x, const char *why);   /* error: disconnect */
void xprt_teardown(struct xprt *x);
void xprt_established_early(struct xprt *x);
const char *xprt_versions_key(const struct xprt *x);
void xprt_remember_version(struct xprt *x, uint32_t vers, bool dropped);

/* xprt_mem.c */
int xprt_bufs_create(struct xprt *x);
void xprt_bufs_destroy(struct xprt *x);
int xprt_post_recv(struct xprt *x, uint32_t slot);
uint8_t *xprt_recv_buf(struct xprt *x, uint32_t slot);
int xprt_send_slot(struct xprt *x);
void xprt_send_slot_put(struct xprt *x, int s);
uint8_t *xprt_send_space(struct xprt *x, int s, size_t len, uint32_t *lkey);
int xprt_post(struct xprt *x, const struct xv_send_wr *wr);
int xprt_reg(struct xprt *x, void *addr, size_t len, bool remote_write,
	     struct xreg *r);
void xprt_unreg(struct xprt *x, struct xreg *r);
void xprt_mems_release_all(struct xprt *x);

/* xprt_send.c */
void xprt_send_queued(struct xprt *x);
void xprt_call_finish(struct xcall *xc, enum xprt_errcode code, const char *msg);
void xprt_calls_fail_all(struct xprt *x, enum xprt_errcode code, const char *msg);
void xprt_calls_check_timeouts(struct xprt *x, uint64_t now);
uint64_t xprt_calls_next_deadline(const struct xprt *x);
uint32_t xprt_send_threshold(const struct xprt *x);
void xprt_update_thresholds(struct xprt *x);

/* xprt_reply_in.c */
void xprt_reply_in(struct xprt *x, uint32_t slot, const uint8_t *buf,
		   size_t len, struct rpcrdma_msg *m);

/* xprt_recv.c */
void xprt_recv_done(struct xprt *x, uint32_t slot, const struct xv_wc *wc);
int xprt_send_error(struct xprt *x, const struct rpcrdma_msg *m,
		    enum rpcrdma_action a);
uint32_t xprt_grant(const struct xprt *x);

/* xprt_respond.c */
void xprt_call_in(struct xprt *x, uint32_t slot, const uint8_t *buf,
		  size_t len, struct rpcrdma_msg *m);
void xprt_req_read_done(struct xprt *x, uint32_t idx, bool ok);
void xprt_reqs_release_all(struct xprt *x);
void xprt_read_chunk_fill(struct xreq *q, const uint8_t *payload);

/* xprt_chunks.c */
int xprt_read_chunk_plan(struct xreq *q, const uint8_t *payload,
			 size_t payload_len, uint64_t max_len);
int xprt_read_chunk_pull(struct xprt *x, struct xreq *q, uint32_t idx);
int xprt_write_chunk_push(struct xprt *x, int slot,
			  const struct rpcrdma_segment *segs, uint32_t nsegs,
			  const uint8_t *src, uint32_t lkey, size_t len,
			  uint32_t *written);

#endif /* RPCRDMA_XPRT_INT_H */
