/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * xprt.h - one RPC-over-RDMA transport on rdma-core (librdmacm, libibverbs),
 * shared by rpcrdma-echo, rpcrdma-ping (and its conformance mode) and
 * rpcrdma-bench.  The tools call only what is declared here.
 *
 *   V1:   draft-ietf-nfsv4-rfc5666bis-04 (RFC 8166)
 *   V2:   draft-cel-nfsv4-rpcrdma-version-two-01 (§5 version negotiation)
 *   BIDI: draft-ietf-nfsv4-rpcrdma-bidirection-05 (RFC 8167)
 *   Connection private data: RFC 8797
 *
 * Model (rping-shaped): one event loop (struct xprt_loop) per program, single
 * threaded, over the rdma_cm event channel and the completion channels
 * (poll(2); busy polling with xprt_opts.busy_poll).  One control block
 * (struct xprt) per connection, one RC queue pair each.  Every transport
 * header is built and judged by libcodec; the protocol rules both peers need
 * (credits, inline thresholds, chunk choice, private data) are libcodec's
 * pure functions; this layer moves bytes and owns the verbs resources.
 *
 * Both ends of a connection are requesters and responders (RFC 8166's
 * terms): the client is the forward-direction requester, the server the
 * backward-direction one.  xprt_call() sends a call (struct xprt_call) in
 * whichever direction the connection's role gives; xprt_handlers.on_call
 * receives calls from the peer (struct xprt_rcvd_call), answered with
 * xprt_reply().  Forward and backward credits and XID spaces are kept
 * apart.
 *
 * The verbs live behind struct xprt_verbs (xprt_verbs.h): rdma-core by
 * default, an in-process fake in the unit tests, so that everything above
 * the verbs runs without RDMA hardware.
 */
#ifndef RPCRDMA_XPRT_H
#define RPCRDMA_XPRT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <rpcrdma/codec.h>

#define XPRT_DEFAULT_PORT "20049"

struct xprt_loop;
struct xprt;
struct xprt_verbs;

/* -------- errors a user can act on (tools map them to messages and exit
 * statuses; msg is "context: cause", e.g. "rdma_resolve_addr
 * 192.0.2.1:20049: No route to host", and for XPRT_E_NODEV it says how to
 * add Soft-RoCE: "rdma link add rxe0 type rxe netdev eth0") -------- */
enum xprt_errcode {
	XPRT_E_OK = 0,
	XPRT_E_NODEV,          /* no RDMA device at all */
	XPRT_E_RESOLVE,        /* host name or address cannot be resolved */
	XPRT_E_UNREACHABLE,    /* address/route not reachable over RDMA */
	XPRT_E_REFUSED,        /* nothing listens on the port */
	XPRT_E_REJECTED,       /* the peer's consumer rejected the connection */
	XPRT_E_TIMEOUT,        /* resolve, connect or a call timed out */
	XPRT_E_DISCONNECTED,   /* the connection went away */
	XPRT_E_RESOURCE,       /* verbs resource could not be created */
	XPRT_E_PROTOCOL,       /* the peer broke the protocol (detail in msg) */
	XPRT_E_USAGE,          /* bad argument */
};
struct xprt_error {
	enum xprt_errcode code;
	int sys_errno;         /* errno behind it, 0 if none */
	char msg[256];
};
const char *xprt_errcode_name(enum xprt_errcode c);

/* -------- options -------- */
#define XPRT_V1 (1u << RPCRDMA_VERSION_ONE)
#define XPRT_V2 (1u << RPCRDMA_VERSION_TWO)

/* Test only: a deliberately broken responder, so that the conformance suite
 * can show it fails exactly the cases it should (rpcrdma-echo -s
 * --misbehave=NAME).  Never on by default. */
enum xprt_misbehave {
	XPRT_MISBEHAVE_NONE = 0,
	XPRT_MISBEHAVE_WRONG_ERROR,  /* "wrong-error": a malformed header is
				      * answered with ERR_VERS, not BADHEADER */
	XPRT_MISBEHAVE_DROP_BAD,     /* "drop-bad": disconnects on a header the
				      * verdict says to answer */
	XPRT_MISBEHAVE_SILENT_VERS,  /* "silent-vers": an unsupported version is
				      * discarded, not answered with ERR_VERS */
	XPRT_MISBEHAVE_ZERO_CREDIT,  /* "zero-credit": grants 0 credits */
	/* the requester's (rpcrdma-conform --requester's cases must fail) */
	XPRT_MISBEHAVE_NO_FIRST_WAIT, /* "no-first-wait": before the first
				       * reply, every call it has goes, not
				       * one (V1 §4.3.3) */
	XPRT_MISBEHAVE_IGNORE_GRANT, /* "ignore-grant": once a grant came,
				      * calls go past it (V1 §4.3.1) */
	XPRT_MISBEHAVE_KEEP_READ_PAD, /* "keep-read-pad": an item reduced into
				       * a read chunk leaves its XDR pad in
				       * the Payload stream (V1 §4.4.5.1) */
	XPRT_MISBEHAVE_SEND_DONE,    /* "send-done": after the first reply on a
				      * connection, an RDMA_DONE for its xid
				      * (V1 §5.6.2: senders MUST NOT) */
};

struct xprt_opts {
	const char *host;          /* client: the peer; server: bind address
				    * (NULL: any).  Names, IPv4 and IPv6. */
	const char *port;          /* NULL: XPRT_DEFAULT_PORT */
	int family;                /* AF_UNSPEC (default), AF_INET, AF_INET6 */
	unsigned versions;         /* XPRT_V1|XPRT_V2 the endpoint speaks;
				    * 0 means both.  A client that has V2
				    * starts with it (V2 §5) */
	uint32_t credits;          /* server: forward credits granted; client:
				    * credits requested and backward credits
				    * granted.  0: 32 */
	uint32_t inline_recv;      /* our inline receive size (announced in the
				    * private data); 0: version default */
	uint32_t inline_send;      /* our inline send size; 0: version default */
	bool no_private_data;      /* send no RFC 8797 private data */
	bool remote_invalidate;    /* accept Send With Invalidate: chunks go
				    * through type 2 memory windows and the
				    * RFC 8797 flag is announced -- where the
				    * device has memory windows (rxe: yes,
				    * siw: no); else plain registrations and
				    * no flag.  A peer's flag is honoured. */
	bool busy_poll;            /* spin on the CQs instead of sleeping */
	int timeout_ms;            /* resolve/connect; 0: 5000 */
	uint32_t max_message;      /* largest RPC message either way, incl. chunk
				    * data; sizes registered memory.  0: 1 MiB+ */
	int backlog;               /* server listen backlog; 0: 1024 */
	const struct xprt_verbs *verbs; /* NULL: rdma-core; tests: the fake */
	int debug;                 /* >0: trace connection events on stderr */
	enum xprt_misbehave misbehave; /* test only, see above */
};

/* -------- what the peer told us at connect time -------- */
struct xprt_peer_info {
	bool has_private_data;                /* RFC 8797 private data seen */
	struct rpcrdma_cm_private priv;       /* libcodec's decoded form */
	uint32_t inline_send;                 /* thresholds in force (bytes) */
	uint32_t inline_recv;
	char addr[64];                        /* "198.18.0.1:20049", "[fe80::1]:20049" */
	char device[32];                      /* local RDMA device, e.g. "rxe1" */
	uint32_t vers;                        /* RPC-over-RDMA version in use:
					       * 0 until negotiated */
	uint32_t vers_low, vers_high;         /* range from a version error, 0 if none */
	bool v2_refused;                      /* our V2 attempt got ERR_VERS */
	bool v2_dropped;                      /* peer dropped the connection on V2 */
	uint32_t credits_granted;             /* last grant from the peer (forward
					       * for a client, backward for a server) */
};
const struct xprt_peer_info *xprt_peer(const struct xprt *x);

/* -------- a call this endpoint sends (and its reply) -------- */
enum xprt_chunk_mode {         /* --chunk auto|inline|read|write|reply */
	XPRT_CHUNK_AUTO = 0,       /* libcodec's rpcrdma_chunks_needed() */
	XPRT_CHUNK_INLINE,         /* everything inline (may exceed the peer's
				    * threshold on purpose) */
	XPRT_CHUNK_READ,           /* call's DDP data in a read chunk */
	XPRT_CHUNK_WRITE,          /* provide a write chunk for reply DDP data */
	XPRT_CHUNK_REPLY,          /* provide a reply chunk (reply as NOMSG) */
	XPRT_CHUNK_POS0,           /* whole call as RDMA_NOMSG + position-zero
				    * read chunk */
};

/* How a message went (filled for calls sent and replies received) */
enum xprt_path {
	XPRT_PATH_INLINE = 0,
	XPRT_PATH_READ,            /* call with a read chunk */
	XPRT_PATH_POS0,            /* call as NOMSG, position-zero read chunk */
	XPRT_PATH_WRITE,           /* reply data came in a write chunk */
	XPRT_PATH_REPLY,           /* reply came in the reply chunk */
};
const char *xprt_path_name(enum xprt_path p);

struct xprt_call;
typedef void xprt_call_done_fn(struct xprt_call *c);

struct xprt_call {
	/* in: the whole RPC call message, XDR (RPC header + arguments).  The
	 * transport sets the RPC xid word (bytes 0..3) to c->xid. */
	uint8_t *msg;
	size_t len;
	size_t ddp_off, ddp_len;   /* the DDP-eligible data item (an opaque's
				    * bytes, after its length word); ddp_len 0:
				    * none.  A read chunk carries exactly it. */
	size_t reply_max;          /* largest reply the ULB allows */
	size_t reply_ddp_max;      /* largest DDP-eligible result (write chunk
				    * size); 0: none */
	enum xprt_chunk_mode chunk;
	int timeout_ms;            /* 0: none.  When the first call of a
				    * connection times out (no reply has
				    * granted credits yet), the connection is
				    * closed: V1 §4.3.3 lets no other call go
				    * on it before a valid reply */
	xprt_call_done_fn *done;   /* called once, from the loop */
	void *ctx;

	/* out (valid in done) */
	uint32_t xid;                  /* assigned by xprt_call() */
	struct xprt_error err;         /* code XPRT_E_OK when a reply came */
	enum xprt_path call_path;      /* how the call went */
	enum xprt_path reply_path;     /* how the reply came */
	struct rpcrdma_msg hdr;        /* the reply's transport header; its
				        * buf points at a copy of the header
				        * bytes that is valid until done
				        * returns, its other fields stay */
	uint32_t rhdr_len;             /* the header's length in bytes */
	bool rdma_error;               /* the reply was RDMA_ERROR (hdr has it) */
	/* the reply's RPC message as the responder meant it: inline payload,
	 * reply chunk or NOMSG contents, with write-chunk data put back at
	 * the position the ULB gives (reply_ddp_off, from the ULB callback
	 * below) */
	const uint8_t *reply;          /* valid until done returns */
	size_t reply_len;
	/* the ULB tells where the reduced data item sits in the reply payload:
	 * called with the inline payload; returns its offset (the position of
	 * the data after its length word) or (size_t)-1 when unknown.  NULL:
	 * write chunk data is appended where the payload ends. */
	size_t (*reply_ddp_pos)(const uint8_t *payload, size_t len, void *ctx);
	uint32_t write_bytes;          /* bytes the responder wrote into our
				        * write chunk (from its reply's list) */
	/* timings, ns, CLOCK_MONOTONIC */
	uint64_t t_start, t_sent, t_done;
	uint64_t t_reg_ns;             /* memory registration for this RPC */
	uint64_t t_inv_ns;             /* invalidation / deregistration */
	bool remote_invalidated;       /* the reply came with Send With
					* Invalidate of one of our rkeys, as
					* the provider reports it (rxe in
					* Linux 6.1 does not); the windows
					* are deallocated either way */
};

/* Queue a call.  It is sent as soon as a credit allows (a requester never
 * has more calls outstanding than granted; one until the first non-error
 * reply: V1 §4.3.1) and completes through c->done.  Returns 0, or -1 with
 * c->err set (then done is not called).  The call struct and its buffers
 * stay the caller's and must live until done. */
int xprt_call(struct xprt *x, struct xprt_call *c);

/* -------- a call this endpoint receives (as the responder, RFC 8166's
 * term; the requester's own call is struct xprt_call above, what the
 * kernel's xprtrdma calls rpcrdma_req) -------- */
struct xprt_rcvd_call {
	struct xprt *x;
	uint32_t xid;
	bool backward;                 /* a backward-direction call */
	uint32_t vers;                 /* RPC-over-RDMA version it came in */
	const struct rpcrdma_msg *hdr; /* its transport header */
	/* the whole RPC call with read-chunk data pulled in (RDMA Read) and
	 * put at its position; valid until the handler returns */
	const uint8_t *msg;
	size_t len;
	enum xprt_path call_path;
	/* what the requester provided for the reply */
	uint32_t nwrite_chunks;
	uint64_t write_chunk_len;      /* bytes of the first write chunk */
	bool has_reply_chunk;
	uint64_t reply_chunk_len;
};

/* Answer a call, from on_call (the request is valid only until it returns).  msg: the
 * whole RPC reply; ddp_off/ddp_len: its DDP-eligible result, which goes into
 * the requester's write chunk when it provided one.  The transport chooses
 * inline, write chunk, or reply chunk (RDMA_NOMSG) per libcodec's rules;
 * when nothing fits it answers as the spec says.  Returns 0 or -1. */
int xprt_reply(struct xprt_rcvd_call *r, const uint8_t *msg, size_t len,
	       size_t ddp_off, size_t ddp_len);

/* -------- raw access (conformance suite, probes) -------- */

/* The forward grant this responder puts in its replies and error replies
 * from now on, at most the credits it was opened with (their Receives are
 * posted); the conformance suite lowers it mid-connection. */
void xprt_set_grant(struct xprt *x, uint32_t grant);

/* Send `len` bytes as one RDMA Send, unchecked: no header is built or
 * judged, no credit is taken.  For sending malformed headers on purpose.
 * Returns 0 or -1 (err). */
int xprt_send_raw(struct xprt *x, const uint8_t *buf, size_t len,
		  struct xprt_error *err);

/* Register `len` bytes of `buf` for the peer to read (remote_read) or write;
 * the segment to advertise comes back in *seg.  Released by
 * xprt_mem_release() or at disconnect (then the handle is gone: do not
 * release it after on_disconnect). */
struct xprt_mem;
struct xprt_mem *xprt_mem_register(struct xprt *x, void *buf, size_t len,
				   bool remote_write, struct rpcrdma_segment *seg,
				   struct xprt_error *err);
void xprt_mem_release(struct xprt_mem *m);

/* -------- event handlers -------- */
enum xprt_disc_reason {
	XPRT_DISC_LOCAL = 0,       /* xprt_close() */
	XPRT_DISC_PEER,            /* orderly disconnect by the peer */
	XPRT_DISC_ERROR,           /* flush / QP error / device removal */
};
struct xprt_handlers {
	/* a call from the peer (forward on a server, backward on a client);
	 * without a handler the call is dropped and counted (discarded) */
	void (*on_call)(struct xprt_rcvd_call *r, void *arg);
	void (*on_connect)(struct xprt *x, void *arg);    /* server: new peer */
	void (*on_disconnect)(struct xprt *x, enum xprt_disc_reason why,
			      void *arg);
	/* every message received, raw, with libcodec's verdict, before the
	 * transport acts on it (for probes and the conformance suite).  A
	 * reply that matches no outstanding call is shown here, then dropped. */
	void (*on_recv)(struct xprt *x, const uint8_t *buf, size_t len,
			const struct rpcrdma_msg *m, void *arg);
	void *arg;
};

/* -------- the loop -------- */
struct xprt_loop *xprt_loop_create(const struct xprt_opts *o,
				   struct xprt_error *err);
/* Closes every connection (in reverse of setup) and frees everything. */
void xprt_loop_destroy(struct xprt_loop *l);
/* Process events for at most timeout_ms (-1: until xprt_loop_stop()); 0 on
 * timeout or stop, -1 on a fatal error of the loop itself. */
int xprt_loop_run(struct xprt_loop *l, int timeout_ms);
/* Async-signal-safe: makes xprt_loop_run() return. */
void xprt_loop_stop(struct xprt_loop *l);

/* Client: resolve, route, connect (private data), wait until established,
 * both with the timeout; then the version negotiation happens on the first
 * call.  NULL with *err on failure. */
struct xprt *xprt_connect(struct xprt_loop *l, const struct xprt_handlers *h,
			  struct xprt_error *err);
/* Server: listen on opts.host:opts.port; every accepted connection is
 * announced through h->on_connect and served until it goes. */
int xprt_listen(struct xprt_loop *l, const struct xprt_handlers *h,
		struct xprt_error *err);
/* The same, with options of their own instead of the loop's (NULL: the
 * loop's).  A server and its clients in one process share one loop (the
 * unit tests over the fake verbs do: xprt_connect waits by running the
 * loop, which must also serve the listener), each end with its own
 * versions, credits, thresholds, misbehaviour. */
struct xprt *xprt_connect_opts(struct xprt_loop *l, const struct xprt_opts *o,
			       const struct xprt_handlers *h,
			       struct xprt_error *err);
int xprt_listen_opts(struct xprt_loop *l, const struct xprt_opts *o,
		     const struct xprt_handlers *h, struct xprt_error *err);
/* Orderly disconnect; outstanding calls complete with XPRT_E_DISCONNECTED.
 * The struct is freed after on_disconnect has run. */
void xprt_close(struct xprt *x);
/* Abrupt: destroy the QP without a disconnect (robustness tests). */
void xprt_abort(struct xprt *x);

/* -------- counters (per connection, and summed over the loop) -------- */
struct xprt_stats {
	uint64_t calls_sent, replies_received;
	uint64_t calls_received, replies_sent;
	uint64_t backward_calls_sent, backward_calls_received;
	uint64_t errors_sent, errors_received;  /* RDMA_ERROR messages */
	uint64_t discarded;                     /* received, dropped per verdict */
	uint64_t bytes_sent, bytes_received;    /* Send payload bytes */
	uint64_t rdma_read_bytes, rdma_write_bytes;
	uint64_t credit_waits;                  /* calls held back for a credit */
	uint32_t max_outstanding;               /* most calls outstanding at once */
	uint32_t connections;                   /* loop: accepted so far */
};
void xprt_get_stats(const struct xprt *x, struct xprt_stats *s);
void xprt_loop_get_stats(const struct xprt_loop *l, struct xprt_stats *s);
/* to += s: every counter summed (max_outstanding: the larger), the one
 * sum of the transport and of the tools that total connections */
void xprt_stats_add(struct xprt_stats *to, const struct xprt_stats *s);
void xprt_set_ctx(struct xprt *x, void *ctx);
void *xprt_get_ctx(const struct xprt *x);

#endif /* RPCRDMA_XPRT_H */
