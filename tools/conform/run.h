/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * run.h - rpcrdma-conform's runner (run.c, run_cases.c): connections over
 * the transport (tools/transport/xprt.h), raw sends, the recording of every
 * message a case sends and receives, and the observation of what the
 * responder did (struct cf_obs) for grade.c.
 */
#ifndef RPCRDMA_CONFORM_RUN_H
#define RPCRDMA_CONFORM_RUN_H

#include <stdbool.h>
#include <stdint.h>
#include "conform.h"
#include "target.h"
#include "xprt.h"

#define CF_REC_MAX 24              /* messages kept per case (the rest counted) */
#define CF_REC_KEEP 8192u          /* bytes kept per message */
#define CF_CREDITS_ASK 32u         /* rdma_credit in our calls */
#define CF_CREDIT_CASE_MAX 128u    /* credit-overrun: larger grants are skipped */
#define CF_MSG_MAX 16384u          /* largest message the suite builds */
#define CF_SEND_MAX 8192u          /* largest Send (our inline send size) */

struct cf_opts {
	const char *host, *port;
	enum cf_profile profile;   /* CF_PROF_AUTO: probe ECHO, then NFSv3 */
	int timeout_ms;            /* per case */
	int connect_timeout_ms;    /* each connect; 0: timeout_ms */
	int settle_ms;             /* after a probe's answer, for a late one */
	uint32_t xid_base;
	const struct cf_select *sel;
	const struct xprt_verbs *verbs;     /* NULL: rdma-core */
	int debug;
	/* tests: called with the loop before the first connect (a listener
	 * in the same process, xprt_listen_opts) */
	void (*on_loop)(struct xprt_loop *l, void *arg);
	void *on_loop_arg;
	/* NFS (--program nfs): the file whose READ drives the write-chunk and
	 * reply-chunk cases: its handle (--fh), or its path on the server
	 * (--file), looked up with NFSv4 PUTROOTFH/LOOKUP/GETFH */
	const char *nfs_file;
	uint8_t nfs_fh[64];
	size_t nfs_fhlen;              /* 0: none given */
};

struct cf_run;
struct cf_conn {
	struct xprt *x;            /* NULL: down */
	struct cf_run *run;
	uint32_t vers;             /* 1 or 2 */
	uint32_t grant;            /* rdma_credit of the last non-error reply */
	bool warm;                 /* its first probe was answered */
	const char *name;          /* "v1", "v2", "fresh", "check" */
	unsigned gen;              /* which connection of the slot (memory
				    * registered on an older one is gone) */
	uint32_t credits;          /* asked at connect (0: the loop's) */
};

struct cf_recmsg {
	struct cf_msgrec r;
	uint8_t *copy;
	uint32_t xid;
	struct cf_conn *conn;
};

enum cf_v2_state { CF_V2_UNKNOWN = 0, CF_V2_YES, CF_V2_NO };

struct cf_run {
	const struct cf_opts *o;
	struct xprt_loop *loop;
	struct xprt_opts xo;                /* the loop's */
	struct xprt_handlers h;
	struct cf_target t;
	struct cf_conn v1, v2, fresh, check;
	struct cf_conn nfs_b;               /* run_nfs.c: a second NFSv4.1 client */
	enum cf_v2_state v2_state;
	uint32_t v2_low, v2_high;          /* from an ERR_VERS to a V2 call */
	uint32_t next_xid;              /* cases: xid_base + n */
	uint32_t nprobes;               /* probes: xid_base + 0x80000 + n */
	unsigned gens;
	bool gone;                          /* the listener went away */
	char gone_why[300];
	unsigned setup_retried;             /* the first connection made again */
	char setup_retry_why[160];
	struct xprt_peer_info peer;         /* of the first connection */
	bool have_peer;

	/* the case being run */
	struct cf_recmsg rec[CF_REC_MAX];
	unsigned nrec, more;
	uint32_t case_xid[CF_MAX_XIDS];
	unsigned ncase_xid;
	uint32_t xid_range_lo, xid_range_n;     /* credit-overrun: many xids */
	int answer_idx;                     /* first answer to a case xid */
	unsigned nanswers, nrpc_errors;
	uint32_t probe_xid;
	bool probe_pending, probe_answered;
	struct cf_conn *watch;              /* its disconnect is the case's */
	bool disconnected;
	char event[300];
	int backward_idx;                   /* a backward call received */
	bool attrib_conn;                   /* every answer on the watched
					     * connection is the case's (a message
					     * too short to carry an xid, sent on a
					     * connection of its own) */
	unsigned nstray;                    /* answers whose xid matches nothing
					     * the suite sent */
	uint32_t stray_xid;
	/* run_cases.c: a backward call arrives during a case */
	void (*on_backward)(struct cf_run *r, struct xprt_rcvd_call *req);
	/* run_nfs.c: a call of the suite's own setup (not the case's
	 * message): its answer is recorded with role "setup" */
	uint32_t setup_xid;
	bool setup_pending;
	int setup_idx;                      /* >= 0: answered (its copy below) */
	uint8_t setup_ans[CF_REC_KEEP];
	size_t setup_len;
	/* the NFS file's handle, found once (0 unknown, 1 found, -1 not) */
	int nfs_fh_state;
	uint8_t nfs_fh[64];
	size_t nfs_fhlen;
	char nfs_fh_why[200];
	/* the last backward call an NFS case drew (knfsd grants no second
	 * delegation on a file whose delegation it recalled) */
	uint8_t nfs_bc[1024];
	size_t nfs_bc_len;
	char nfs_bc_case[48];
	uint32_t backward_xid;
	bool backward_seen;
};

/* run.c */
int cf_run_begin(struct cf_run *r, const struct cf_opts *o, struct xprt_error *err);
void cf_run_end(struct cf_run *r);
/* Run one case: fills *o (and the recording, kept until the next case). */
void cf_run_case(struct cf_run *r, const struct cf_case *c, struct cf_obs *o);
/* the recording of the last case, for the report */
unsigned cf_run_messages(struct cf_run *r, struct cf_msgrec *out, unsigned cap, unsigned *more);
/* a text for the report's header: device, peer, private data, versions */
void cf_run_describe(const struct cf_run *r, char *buf, size_t cap);

/* shared with run_cases.c */
uint32_t cf_xid(struct cf_run *r);
int64_t cf_now_ms(void);
struct cf_conn *cf_conn_for(struct cf_run *r, const struct cf_case *c, struct cf_obs *o);
void cf_conn_close(struct cf_run *r, struct cf_conn *c);
/* connect without a probe (the case's message is the first) */
int cf_conn_open(struct cf_run *r, struct cf_conn *c, uint32_t vers, struct xprt_error *err);
int cf_send(struct cf_run *r, struct cf_conn *c, const char *role, const uint8_t *buf,
	    size_t len, struct cf_obs *o);
/* an RDMA_MSG/RDMA2_MSG (or NOMSG) call in conn's version */
size_t cf_build(const struct cf_conn *c, uint32_t xid, uint32_t proc,
		const struct rpcrdma_hdr *chunks, const uint8_t *rpc, size_t rpclen,
		uint8_t *buf, size_t cap);
int cf_send_probe(struct cf_run *r, struct cf_conn *c, struct cf_obs *o);
/* wait until every case xid has `want` answers (0: the first), the
 * connection went, or the deadline; returns true when answered */
bool cf_wait_answers(struct cf_run *r, unsigned want, int64_t deadline);
bool cf_wait_probe(struct cf_run *r, int64_t deadline);
bool cf_wait_disconnect(struct cf_run *r, int64_t deadline);
/* run the loop until done(r, want), the connection goes or the deadline */
bool cf_wait(struct cf_run *r, bool (*done)(const struct cf_run *, unsigned), unsigned want,
	     int64_t deadline);
void cf_case_xid(struct cf_run *r, uint32_t xid);
/* after the case's exchange: disconnects, probes, the listener; fills o */
void cf_finish(struct cf_run *r, struct cf_conn *c, struct cf_obs *o, bool probe);
const uint8_t *cf_answer(const struct cf_run *r, size_t *len);
/* send one message (and a probe when the grant allows both), wait for its
 * answer or the probe's, then cf_finish() */
void cf_one_message(struct cf_run *r, struct cf_conn *k, struct cf_obs *o,
		    const uint8_t *buf, size_t n);

/* the first answer recorded with rdma_xid xid (a case's, or role's) */
const uint8_t *cf_answer_for(const struct cf_run *r, uint32_t xid, size_t *len);
const uint8_t *cf_answer_for_role(const struct cf_run *r, const char *role, uint32_t xid,
				  size_t *len);
const uint8_t *cf_backward_call(const struct cf_run *r, size_t *len);
void cf_skip(struct cf_obs *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* a fault found by a case's own checks: req is the requirement id it
 * breaks (docs/requirements.tsv), or a decision ("D-...") for a NOTE */
void cf_fault(struct cf_obs *o, const char *req, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

void cf_run_vector(struct cf_run *r, const struct cf_case *c, struct cf_obs *o);
void cf_rec_reset(struct cf_run *r);
/* forget the messages recorded from index `from` on (a retry said in the note) */
void cf_rec_drop(struct cf_run *r, unsigned from);
void cf_run_init_handlers(struct cf_run *r);

/* run_cases.c: the cases other than a single message */
void cf_run_custom(struct cf_run *r, const struct cf_case *c, struct cf_obs *o);
/* the case's call: send, wait for its answer, cf_finish() */
void cf_call(struct cf_run *r, struct cf_conn *k, struct cf_obs *o, const uint8_t *buf,
	     size_t n, uint32_t xid);
/* the answer decoded; false unless an accepted non-error message */
bool cf_answer_ok(const struct cf_obs *o, struct rpcrdma_msg *m, uint32_t *wv);

/* run_chunks.c: memory the responder reads or writes, and the chunk cases */
struct cf_mem {
	struct xprt_mem *m;
	unsigned gen;              /* the connection's (cf_conn.gen) */
	uint8_t *buf;
	struct rpcrdma_segment seg;
};
int cf_mem_get(struct cf_conn *k, struct cf_mem *mm, size_t len, bool write, struct cf_obs *o);
/* released while its connection is up; one that went has released it */
void cf_mem_put(struct cf_conn *k, struct cf_mem *mm);
void cf_read_chunk(struct cf_run *r, const struct cf_case *c, struct cf_obs *o);
/* the write list of a reply: its chunks; the first's segments (up to cap) */
/* V1 §5.3.2: the result in one write-chunk segment of len bytes; true
 * (and the fault set) when not (run_chunks.c) */
bool cf_grade_write_used(struct cf_obs *o, const struct cf_mem *wm, unsigned nch, unsigned got,
			 const struct rpcrdma_segment *back, uint32_t len);
/* V1 §4.4.6's segment-count and unfilled-segment rules (run_chunks.c) */
void cf_grade_write_segs(const struct cf_case *c, struct cf_obs *o, unsigned nch, unsigned got,
			 const struct rpcrdma_segment *back);
unsigned cf_write_list(const struct rpcrdma_msg *m, unsigned *nsegs,
		       struct rpcrdma_segment *segs, unsigned cap);
#define CF_CANARY 0xeeu                /* what registered memory holds before */

/* run_nfs.c: the write-chunk, reply-chunk and backward-call cases through
 * NFS (an NFSv3 READ; an NFSv4.1 session with a back channel) */
void cf_nfs_write_chunk(struct cf_run *r, const struct cf_case *c, struct cf_obs *o);
void cf_nfs_backward(struct cf_run *r, const struct cf_case *c, struct cf_obs *o);
/* a write list of one chunk of nseg seglen-byte segments of wm, on h */
void cf_write_segs(struct rpcrdma_hdr *h, struct rpcrdma_write_chunk *wc,
		   struct rpcrdma_segment *segs, const struct cf_mem *wm, unsigned nseg,
		   uint32_t seglen);
/* r->on_backward: a forward NULL call with the backward call's xid */
void cf_null_xid_hook(struct cf_run *r, struct xprt_rcvd_call *req);
/* the case's call that draws a backward call, sent and waited for
 * (run_cases.c) */
void cf_send_for_backward(struct cf_run *r, struct cf_conn *k, struct cf_obs *o,
			  const uint8_t *buf, size_t n, uint32_t xid, bool spaces);
/* the NFS form of a case (a real NFS server, CF_F_NFS): run_nfs.c */
void cf_run_nfs(struct cf_run *r, const struct cf_case *c, struct cf_obs *o);
/* the backward call's form (BIDI §5.1, V1 §7.2.1) on connection version vers */
void cf_grade_backward_form(struct cf_obs *o, const uint8_t *b, size_t blen, uint32_t vers);
void cf_write_chunk(struct cf_run *r, const struct cf_case *c, struct cf_obs *o);
/* run_nfs.c's graders, given the decoded reply and the registered memory wm the
 * responder wrote (ref: the file's first bytes from an inline READ):
 * the write list of an NFSv3 READ's reply (c->kind CF_K_WRITE_USED,
 * _SEGCOUNT, _UNFILLED, _NOPAD; V1 §4.4.6, §4.4.6.1, §5.3.2), and a READ
 * of len bytes answered through the reply chunk (V1 §4.5.3; wm of wmlen
 * bytes, ref of nref, the call's RPC xid) */
void cf_nfs_grade_write(const struct cf_case *c, struct cf_obs *o, const struct rpcrdma_msg *m,
			const struct cf_mem *wm, const uint8_t *ref, uint32_t len);
void cf_nfs_grade_reply(struct cf_obs *o, const struct rpcrdma_msg *m, const struct cf_mem *wm,
			size_t wmlen, const uint8_t *ref, uint32_t nref, uint32_t len, uint32_t xid);

#endif
