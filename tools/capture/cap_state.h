/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cap_state.h - the capture pipeline's run state: conversations (QP pair or
 * TCP 4-tuple), per-direction reassembly, outstanding calls and advertised
 * segments (V1 4.4, 5.3; BIDI 2.4), all in fixed-size tables.
 */
#ifndef RPCRDMA_CAP_STATE_H
#define RPCRDMA_CAP_STATE_H

#include "capture.h"
#include "cap_stats.h"
#include "msgprint.h"
#include "nfs4_ops.h"
#include "rpcrdma/codec.h"

/* An RDMA Read in flight: the source is the advertised memory */
struct cap_rdreq {
	bool used;
	uint32_t psn;                /* IB: PSN of the request = first response */
	uint32_t sink_stag;          /* iWARP: where the response lands */
	uint64_t sink_to;
	uint32_t rkey;               /* source memory (the read segment) */
	uint64_t va;
	uint32_t len;
	uint64_t frame;
	bool got_first;              /* IB: its first response (which shares
				      * the request's PSN) seen */
};

struct cap_ooo {                     /* an out-of-order TCP segment */
	uint32_t seq, len;
	uint8_t *data;
	uint64_t frame;              /* the frame that carried it */
	int64_t ts_sec;
	uint32_t ts_usec;
};

/* where the MPA layer of one direction is: before its MPA Request or Reply,
 * framing FPDUs, given up (not iWARP), or inferring the framing of a
 * stream whose handshake the capture lacks (cap_mpa.c) */
enum cap_mpa_state { MPA_START = 0, MPA_FULL, MPA_BAD, MPA_INFER };

#define CAP_INFER_FRAMES 256u        /* frames held while inferring */
struct cap_held {
	uint32_t end;                /* buf offset after its last byte */
	uint64_t num;
	int64_t ts_sec;
	uint32_t ts_usec;
};

/* One TCP direction of an iWARP connection and its MPA framing (RFC 5044) */
struct cap_tcp_dir {
	bool have_seq;
	uint32_t next_seq;           /* next stream byte expected */
	uint8_t *buf;                /* stream bytes not yet framed */
	uint32_t cap, len;
	struct cap_ooo *ooo;         /* CAP_OOO_MAX slots, allocated on need,
				      * ooo[0 .. nooo) in sequence order */
	uint32_t nooo;
	uint8_t mpa;                 /* enum cap_mpa_state (cap_iwarp.c) */
	bool markers, crc;           /* as negotiated (or assumed) */
	uint32_t mark_pos;           /* stream position of buf[0] mod 512 */
	bool hs_seen;                /* this side's MPA Request/Reply seen */
	bool hunt;                   /* after a gap: looking for an FPDU start */
	uint32_t infer_tried;        /* bytes held at the last attempt */
	/* while the framing is inferred, the frames that brought the bytes
	 * held in buf (where each one's bytes end), so that each FPDU is
	 * given its own frame once the framing is known */
	struct cap_held *held;       /* CAP_INFER_FRAMES, allocated on need */
	uint32_t nheld;
	bool fin;
	uint64_t good;               /* FPDUs with a good CRC */
	uint32_t mss;                /* largest segment payload seen */
	uint32_t holes[8];           /* stream holes given up, in bytes: */
	uint32_t nholes;             /* counted as segments at the end */
};

/* One direction of a conversation: what endpoint `i` sends to the other */
struct cap_dir {
	bool name_ok;                /* cap_conv.txt[dir].name made */
	bool txt_ok;                 /* cap_conv.txt[dir].src/dst made */
	uint32_t qp;                 /* IB: destination QP of these packets */
	bool have_qp;
	/* Send reassembly: IB in PSN order, iWARP by MSN and MO */
	uint8_t *sbuf;
	uint32_t scap, slen;
	bool sactive;
	uint32_t snext_psn, smsn;
	uint64_t sfirst;             /* frame of the first fragment */
	uint32_t sfrags;
	/* IB RDMA Write in progress */
	bool wactive;
	uint32_t wrkey, woff, wnext_psn;
	uint64_t wva;
	/* RDMA Reads this endpoint requested; the path MTU of the READ
	 * responses it sends (IB responses carry no address) */
	struct cap_rdreq *rd;        /* CAP_RDREQ_MAX, allocated on need */
	unsigned rd_next;
	uint32_t pmtu;               /* IB: READ response payload per packet */
	uint32_t last_psn;           /* highest request PSN seen */
	bool have_last_psn;
	uint32_t first_psn;          /* of the sequence (capture loss) */
	uint32_t psn_pending;        /* PSNs of the window not seen (yet) */
	/* iWARP */
	struct cap_tcp_dir tcp;
	/* flow control: calls this endpoint has outstanding, credits the
	 * peer granted it (V1 4.3.1) */
	uint32_t outstanding;
	uint32_t granted;
	bool have_err;               /* last RDMA_ERROR sent, V1 5.5 */
	uint32_t err_xid;
	bool have_grant;
	bool speaks_v2;
	/* what this endpoint announced at connect time (RFC 8797, cap_conn.c) */
	bool pd_ok;
	uint32_t pd_recv, pd_send;
};

/* links of intrusive lists of table slots: index + 1, 0 ends */
struct cap_link {
	uint32_t prev, next;
};

struct cap_conv {
	bool used;
	bool in_open;                /* half-open: waiting for its other half */
	bool busy;                   /* on the busy LRU list (ncalls > 0) */
	bool heap;                   /* a direction holds buffers (Send
				      * reassembly, RDMA Reads, TCP): only then
				      * does closing look at the directions */
	uint32_t open_bucket;
	uint32_t calls_head, calls_tail; /* its outstanding calls, oldest first */
	uint32_t id;                 /* 1-based, in order of first packet */
	enum cap_transport transport;
	uint8_t family;
	uint8_t addr[2][16];         /* endpoint 0 = first sender seen */
	uint16_t port[2];
	int8_t requester;            /* endpoint that sent the CM REQ or MPA
				      * Request; -1 until known */
	bool conn_shown;             /* its connection record printed */
	const char *conn_how;        /* set up by: "CM REP", "MPA Reply" */
	struct cap_frame conn_at;    /* ... in this frame (number, time) */
	int8_t client;               /* endpoint that sent the first forward
				      * call; -1 until known (BIDI 2.4) */
	uint64_t last_frame;
	uint32_t ncalls;             /* outstanding calls in st->calls */
	uint32_t untracked;          /* of them, with untracked segments */
	bool started;                /* its CM exchange or MPA handshake seen */
	bool synced;                 /* a reply was matched to a call seen */
	struct cap_dir d[2];
	struct cap_stats_conv stats; /* last of what a new one clears */
	/* not cleared for a new conversation: the request PSNs seen per
	 * direction, bit psn % CAP_PSN_SEEN for PSNs in (last_psn -
	 * CAP_PSN_SEEN, last_psn], cleared by the first (cap_ib.c psn_seen);
	 * the endpoint text, made when first printed (name_ok, txt_ok) */
	uint64_t psn_seen[2][CAP_PSN_SEEN / 64];
	struct {
		char name[64];       /* "198.18.0.1:20049", "198.18.0.1" */
		char src[96], dst[96]; /* as printed, "198.18.0.1/qp=0x11" */
		char addr[48];       /* the address alone, for --json */
	} txt[2];
};

/* hash buckets of calls and segments: as many as entries, at least 64 */
#define CAP_CALL_BUCKETS (CAP_MAX_CALLS < 64u ? 64u : CAP_MAX_CALLS)
#define CAP_SEG_BUCKETS (CAP_MAX_SEGS < 64u ? 64u : CAP_MAX_SEGS)
_Static_assert((CAP_CALL_BUCKETS & (CAP_CALL_BUCKETS - 1)) == 0 &&
	       (CAP_SEG_BUCKETS & (CAP_SEG_BUCKETS - 1)) == 0,
	       "CAP_MAX_CALLS and CAP_MAX_SEGS must be powers of two");

/* An outstanding call, from its Send until its reply */
struct cap_call {
	bool used;
	bool untracked;              /* its segments are not all tracked: no
				      * chunk check, no rebuild (table full) */
	uint32_t hnext;              /* hash chain, index + 1; 0 ends */
	struct cap_link all;         /* every call, oldest first */
	struct cap_link in_conv;     /* its conversation's, oldest first */
	uint32_t conv;               /* conversation id */
	uint32_t conv_slot;
	uint8_t dir;                 /* endpoint that sent the call */
	uint8_t rdma_vers;
	uint32_t xid;
	uint64_t frame;
	int64_t ts_sec;
	uint32_t ts_usec;
	bool have_rpc;
	uint32_t prog, vers, proc;
	bool have_ops;               /* an NFSv4 COMPOUND: its operations */
	struct nfs4_ops ops;
	bool backward;
	uint32_t segs;               /* first segment index + 1 */
	uint32_t nwrite_chunks;
	/* a call waiting for its read chunks before it is printed */
	uint8_t *msg;
	uint32_t msg_len;
	uint32_t read_total, read_got;
	uint32_t read_prefix;        /* rebuild bytes held from offset 0 on,
				      * without a hole */
	/* where chunk data came from, for -V */
	uint64_t rd_first, rd_last, wr_first, wr_last;
	uint64_t rd_bytes, wr_bytes, rp_bytes;
	uint64_t msg_first;          /* first packet of the call's Send */
	uint32_t msg_frags;
	/* the rebuilt RPC message (position-zero read chunk or reply chunk) */
	uint8_t *rb;
	uint32_t rb_cap, rb_split;   /* read data below rb_split, reply above */
	uint32_t rb_zeroed;          /* rb[0, rb_zeroed) written or zeroed;
				      * past it nothing came: read as zeros
				      * (zeroed as data comes, not whole when
				      * registered: most reply chunks stay
				      * unused) */
};

/* State given up because a bounded table or budget was full: counted in
 * --stats and --json, and the run exits 1 (docs/capture.md, "Limits") */
struct cap_lost {
	uint64_t evicted;            /* conversations closed early for room
				      * (alone, not a loss: shown, no status) */
	uint64_t convs;              /* of them, with a message in flight */
	uint64_t calls;              /* calls forgotten before their reply */
	uint64_t untracked;          /* calls whose segments were not tracked */
	uint64_t resyncs;            /* TCP directions resynchronised past a gap */
	uint64_t stream_bytes;       /* TCP stream bytes skipped by those */
	uint64_t budget;             /* reassemblies refused by the byte budget */
	uint64_t sends;              /* Sends too large to reassemble */
};

/* What was not RPC-over-RDMA, to say why nothing was found (cap_none.c) */
#define CAP_SEEN_PORTS 8u
struct cap_seen_ports {
	uint64_t total;
	uint16_t port[CAP_SEEN_PORTS];
	uint64_t n[CAP_SEEN_PORTS];
};
struct cap_seen {
	uint64_t snapped;            /* frames cut by the snapshot length */
	struct cap_seen_ports udp;   /* UDP to other ports than --roce-port */
	struct cap_seen_ports tcp;   /* TCP segments not of an iWARP stream */
	uint64_t filtered;           /* frames the filter expression left out */
};

/* A violation, held until the message it concerns is out (cap_lint.c) */
struct cap_finding {
	uint64_t frame;
	const char *check, *section; /* literals */
	uint32_t conv;               /* 0: not known */
	bool have_xid;
	uint32_t xid;
	bool downgraded;             /* capture loss explains it (cap_lint.c) */
	char text[256];
};
#define CAP_HELD_MAX 16u
struct cap_hold {                    /* the context a nested hold saves */
	unsigned base;
	uint32_t conv;
	bool have_xid;
	uint32_t xid;
};

/* Work areas, allocated once (the first two when first needed), not
 * cleared: always written before they are read */
struct cap_work {
	uint8_t *scratch;            /* CAP_MAX_SEND: rebuilt RPC messages
				      * (cap_msg.c) */
	uint8_t *fpdu;               /* CAP_FPDU_MAX: one FPDU, markers
				      * removed (cap_iwarp.c) */
	uint8_t *crcbuf;             /* CAP_CRCBUF: one packet, ICRC variant
				      * fields masked (cap_ib.c) */
};

/* One run.  The run's own part, which every layer reads or counts into
 * (options, output, exit status, the byte budget, warnings, the losses,
 * --stats totals), then one part per layer, which that layer's file
 * alone reads and writes (but the violations held, cap_lint.c, which
 * cap_emit.c hands out with their message) */
struct cap_conv_tab;
struct cap_call_tab;
struct cap_cm_tab;
struct cap_emit_state;
struct cap_state {
	/* the run */
	struct cap_opts opts;        /* the caller's, copied */
	const struct cap_opts *o;    /* = &opts */
	const char *file;            /* for messages: "-" shows as "stdin" */
	FILE *out;
	uint64_t frame_no;
	int status;                  /* exit status so far */
	bool stop;                   /* no more frames wanted (-c) */
	bool progress;               /* stderr is a terminal */
	bool progress_shown;
	size_t buffered;             /* bytes under CAP_MAX_BUFFERED */
	bool warned[CAP_W_COUNT];
	uint64_t violations;
	struct cap_lost lost;
	struct cap_stats_all stats;
	struct cap_seen seen;        /* not ours: why (cap_none.c) */
	uint32_t frame_conv;         /* conversation of the current frame
				      * (cap_conv.c sets it, for cap_lint.c) */
	const struct cap_conv *frame_cv; /* ... its slot (capture loss so far) */
	uint64_t downgraded;         /* violations capture loss explains */
	/* the layers': each defined where its layer alone sees it (the
	 * conversation table in cap_conv_tab.h, the calls and segments in
	 * cap_calls.h, the CM and output parts inside cap_cm.c and
	 * cap_emit.c), allocated by the layer's init */
	struct cap_conv_tab *ct;     /* cap_conv.c */
	struct cap_call_tab *kt;     /* cap_chunks.c (cap_msg.c reads) */
	struct cap_cm_tab *cm;       /* cap_cm.c */
	struct cap_emit_state *em;   /* cap_emit.c */
	struct cap_work work;
	/* violations of the message being decoded (cap_lint.c) */
	struct cap_finding held[CAP_HELD_MAX];
	unsigned nheld, held_base, hold_depth;
	uint32_t msg_conv, msg_xid;
	bool msg_have_xid;
	struct cap_writer *writer;   /* -w (cap_write.c), or NULL */
	struct cap_bpf *bpf;         /* the filter's programs (cap_bpf.c) */
	struct cap_plot *plot;       /* --plot's points (cap_plot.c), or NULL */
};
#define CAP_FPDU_MAX (65536u + 16u)
#define CAP_CRCBUF 16384u

/* cap_conv.c */
/* the conversation of an IB/RoCE packet to QP `dqp`; a new one only when
 * `create` (else NULL) */
struct cap_conv *cap_conv_ib(struct cap_state *st, const struct cap_frame *f,
			     enum cap_transport t, const struct cap_addr *a,
			     uint32_t dqp, bool create, int *dir);
struct cap_conv *cap_conv_tcp(struct cap_state *st, const struct cap_frame *f,
			      const struct cap_addr *a, int *dir, bool create);
/* the conversation ends: st->ct->end (every layer's part), then its slot
 * is freed; from any layer (TCP FIN/RST, CM DREP, a new CM exchange,
 * eviction for room, the end of a source) */
void cap_conv_close(struct cap_state *st, struct cap_conv *c);
struct cap_conv *cap_conv_find_ib(struct cap_state *st,
				  const struct cap_addr *a, uint32_t dqp,
				  int *dir);
/* a QP pair named by CM: requester a->src with QPN qpn_req, responder
 * a->dst with QPN qpn_rep */
struct cap_conv *cap_conv_cm(struct cap_state *st, const struct cap_frame *f,
		 enum cap_transport t, const struct cap_addr *a,
		 uint32_t qpn_req, uint32_t qpn_rep);

/* cap_end.c: what every layer does when a conversation ends, in one place
 * above them: TCP and MPA deliver what they hold, calls waiting for their
 * read chunks are printed, the connection record and the --stats summary
 * written, every buffer freed (the callback st->ct->end) */
void cap_conv_end(struct cap_state *st, struct cap_conv *c);

/* cap_cm.c */
void cap_cm_mad(struct cap_state *st, const struct cap_frame *f,
		enum cap_transport t, const struct cap_addr *a,
		const struct cap_cur *mad);
bool cap_cm_init(struct cap_state *st);
void cap_cm_reset(struct cap_state *st);
void cap_cm_free(struct cap_state *st);
/* cap_conv.c: the table; `end` is what a conversation's close runs
 * (cap_open: cap_conv_end) */
bool cap_conv_init(struct cap_state *st,
		   void (*end)(struct cap_state *st, struct cap_conv *c));
/* a conversation's slot in the table (its calls name it by slot and id) */
uint32_t cap_conv_slot(const struct cap_state *st, const struct cap_conv *c);
void cap_conv_close_all(struct cap_state *st);
/* its number of outstanding calls changed: idle or busy for eviction */
void cap_conv_busy(struct cap_state *st, struct cap_conv *c);
void cap_conv_free(struct cap_state *st);
struct cap_conv *cap_conv_by_slot(struct cap_state *st, uint32_t slot, uint32_t id);
const char *cap_dir_name(struct cap_conv *c, int dir);
/* cap_loss.c: what the capture lost (docs/capture.md, "Capture loss") */
struct json;
void cap_loss_json(struct json *j, struct cap_conv *c,
		   const struct cap_stats_conv *s);
void cap_loss_text(FILE *out, struct cap_conv *c, const struct cap_stats_conv *s);
void cap_loss_conv_end(struct cap_state *st, struct cap_conv *c);
void cap_loss_overall(struct cap_state *st);
/* cap_ib.c: a direction's PSN sequence ends: what it lacks is lost */
void cap_ib_psn_end(struct cap_state *st, struct cap_conv *c, int dir);
struct cap_rdreq *cap_dir_rdreqs(struct cap_state *st, struct cap_conv *c,
				 int dir);

/* cap_mpa.c: MPA framing (RFC 5044) */
bool cap_ddp_plausible(const uint8_t *u);
uint32_t cap_mpa_gather(const uint8_t *b, uint32_t n, uint32_t off,
			uint32_t phase, bool markers, uint8_t *out,
			uint32_t want, uint32_t crc_from, uint32_t *crc_at);
uint32_t cap_mpa_hunt(struct cap_state *st, struct cap_tcp_dir *t,
		      const uint8_t *b, uint32_t n, bool *found);
/* no MPA handshake: the framing found (cap_iwarp.c holds the bytes) */
struct cap_mpa_framing {
	bool crc, markers;
	uint32_t mark_pos;           /* stream position of b[skip] mod 512 */
	uint32_t skip;               /* bytes before the first FPDU */
	unsigned nvalid;             /* FPDUs validated */
};
enum cap_infer { CAP_INFER_FOUND, CAP_INFER_WAIT, CAP_INFER_NONE };
#define CAP_INFER_EAGER 1u           /* the other direction's framing known */
#define CAP_INFER_LAST 2u            /* no more bytes will come */
enum cap_infer cap_mpa_infer(const struct cap_state *st, const uint8_t *b,
			     uint32_t n, unsigned flags, int crc_only,
			     struct cap_mpa_framing *out);

/* cap_conn.c: RFC 8797 connection parameters */
void cap_conn_private(struct cap_conv *c, int end, bool requester,
		      const uint8_t *pd, uint32_t len);
void cap_conn_established(struct cap_state *st, const struct cap_frame *f,
			  struct cap_conv *c, const char *how);
void cap_conn_close(struct cap_state *st, struct cap_conv *c);
uint32_t cap_conn_threshold(const struct cap_state *st, const struct cap_conv *c,
			    int dir, uint32_t vers, const char **from);

/* cap_iwarp.c: the conversation ends (infer from what is held) */
void cap_iwarp_end(struct cap_state *st, struct cap_conv *c);

/* cap_tcp.c: the conversation ends (deliver what is held past a gap);
 * free a direction's buffers */
void cap_tcp_end(struct cap_state *st, struct cap_conv *c, int dir);
void cap_tcp_free(struct cap_state *st, struct cap_tcp_dir *t);

/* cap_reasm.c: Send fragments; the whole Send goes to cap_msg_send() */
enum cap_frag { CAP_FRAG_FIRST, CAP_FRAG_MIDDLE, CAP_FRAG_LAST, CAP_FRAG_ONLY };
void cap_reasm_ib_send(struct cap_state *st, const struct cap_frame *f,
		       struct cap_conv *c, int dir, enum cap_frag frag,
		       uint32_t psn, const uint8_t *p, uint32_t len, bool partial);
void cap_reasm_ddp_send(struct cap_state *st, const struct cap_frame *f,
			struct cap_conv *c, int dir, uint32_t msn, uint32_t mo,
			bool last, const uint8_t *p, uint32_t len);
void cap_reasm_free(struct cap_state *st, struct cap_dir *d);

/* cap_msg.c: one whole RPC-over-RDMA message; RDMA data (the Y's two arms
 * meet at calls) */
enum cap_rdma_op { CAP_OP_WRITE, CAP_OP_READ };
void cap_msg_rdma(struct cap_state *st, const struct cap_frame *f,
		  struct cap_conv *c, enum cap_rdma_op op, uint32_t rkey,
		  uint64_t va, const uint8_t *p, uint32_t len);
/* partial: the capture holds only the first `len` bytes (snapshot length) */
/* first, frags: the Send's first packet and how many (-V, -w) */
void cap_msg_send(struct cap_state *st, const struct cap_frame *f,
		  struct cap_conv *c, int dir, const uint8_t *p, uint32_t len,
		  bool partial, uint64_t first, uint32_t frags);
void cap_msg_print_call(struct cap_state *st, struct cap_call *k,
			const char *why);
/* the calls of `c` (NULL: all) end: those waiting printed, all forgotten */
void cap_msg_flush(struct cap_state *st, struct cap_conv *c);

/* cap_chunks.c: advertised segments and the RDMA traffic that moves them */
/* returns the call whose read chunks the data completes while it waits to
 * be printed (its caller prints it), else NULL */
struct cap_call *cap_chunks_data(struct cap_state *st, const struct cap_frame *f,
				 struct cap_conv *c, enum cap_rdma_op op,
				 uint32_t rkey, uint64_t va, const uint8_t *p,
				 uint32_t len);
void cap_chunks_register(struct cap_state *st, const struct cap_frame *f,
			 struct cap_conv *c, struct cap_call *k,
			 const struct rpcrdma_msg *m);
void cap_chunks_check_reply(struct cap_state *st, const struct cap_frame *f,
			    struct cap_call *k, const struct rpcrdma_msg *m);
struct cap_call *cap_call_new(struct cap_state *st, struct cap_conv *c,
			      int dir, uint32_t xid);
struct cap_call *cap_call_find(struct cap_state *st, struct cap_conv *c,
			       int dir, uint32_t xid);
void cap_call_free(struct cap_state *st, struct cap_call *k);
bool cap_calls_init(struct cap_state *st);
void cap_calls_free(struct cap_state *st);
/* the table full: the oldest call, which cap_call_new() forgets */
struct cap_call *cap_call_full(struct cap_state *st);
struct cap_call *cap_calls_next(struct cap_state *st, struct cap_conv *c,
				struct cap_call *k);
void cap_calls_forget(struct cap_state *st, struct cap_conv *c);

/* cap_emit.c: one message out: the filters, its --stats tally, the
 * violations found in it, the printer */
struct cap_emit {
	const struct cap_call *k;    /* a call's own, a reply's call, or NULL */
	bool is_call, is_reply, backward;
	bool partial;                /* cut by the snapshot length */
	bool later;                  /* Version Two of a later draft's layout:
				      * not a cel-01 bad header */
	uint8_t fam;                 /* ... the families it fits */
	bool grant;                  /* a reply granting `credit` (V1 4.3.1) */
	uint32_t credit;
	uint64_t first;              /* first packet of the Send */
	uint32_t frags;
};
bool cap_emit_init(struct cap_state *st);
void cap_emit_free(struct cap_state *st);
void cap_emit(struct cap_state *st, struct cap_conv *c, int dir,
	      const struct rpcrdma_msg *m, struct msg_ctx *x,
	      const struct cap_emit *e);
/* any filter given (cap_util.c) */
bool cap_filtering(const struct cap_state *st);
static inline bool cap_in_list(const uint32_t *v, uint32_t n, uint32_t x)
{
	for (uint32_t i = 0; i < n; i++)
		if (v[i] == x)
			return true;
	return false;
}

/* cap_write.c: -w FILE */
struct cap_writer;
bool cap_write_open(struct cap_state *st, const char *path);
void cap_write_frame(struct cap_state *st, int dlt, const struct cap_frame *f);
void cap_write_owner(struct cap_state *st);
void cap_write_mark(struct cap_state *st, uint32_t conv, uint64_t first,
		    uint64_t last);
void cap_write_flush(struct cap_state *st);
bool cap_write_close(struct cap_state *st);
void cap_write_sync(struct cap_state *st);   /* what is written, to the file */

/* cap_plot.c: --plot */
struct cap_plot;
bool cap_plot_open(struct cap_state *st);
void cap_plot_msg(struct cap_state *st, const struct cap_conv *c, int dir,
		  const struct msg_ctx *x, const struct cap_emit *e, int slot);
bool cap_plot_render(struct cap_state *st, const char *file);
void cap_plot_free(struct cap_state *st);

/* cap_bpf.c: the capture filter on a file's frames */
struct cap_bpf;
bool cap_bpf_match(struct cap_state *st, int dlt, const struct cap_frame *f);
void cap_bpf_free(struct cap_state *st);

/* cap_none.c: "no RPC-over-RDMA traffic found" and why */
void cap_seen_port(struct cap_seen_ports *s, uint16_t port);
bool cap_none_report(struct cap_state *st);

/* cap_lint.c; between cap_lint_hold() and cap_lint_release() violations
 * are held for the message decoded (conversation, XID) */
struct cap_hold cap_lint_hold(struct cap_state *st, uint32_t conv,
			      bool have_xid, uint32_t xid);
void cap_lint_release(struct cap_state *st, struct cap_hold saved);
void cap_lint_print(struct cap_state *st, const struct cap_finding *f);
/* the per-message rules of cap_lint.c's table (requirements catalogue) */
void cap_lint_msg_rules(struct cap_state *st, uint64_t frame, const struct rpcrdma_msg *m);
void cap_lint(struct cap_state *st, uint64_t frame, const char *check,
	      const char *section, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

#endif
