/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ping_conn.h - one client connection of rpcrdma-ping over the transport
 * (tools/transport/xprt.h), on the one loop a run shares (the transport
 * remembers per loop what a peer's versions are): the peer information kept
 * past a disconnect, calls waited for with a deadline, raw messages seen by
 * the probes, and the answers to the peer's backward-direction calls.
 */
#ifndef RPCRDMA_PING_CONN_H
#define RPCRDMA_PING_CONN_H

#include "live.h"
#include "ping.h"

#define PING_RAW_SEEN 32

/* A message the peer sent that a probe watches for */
struct ping_raw {
	uint32_t xid, vers, credit, proc, err, low, high;
	bool has_err, has_vrange;
	enum rpcrdma_action action;    /* libcodec's verdict on it */
	uint32_t len;
	bool rpc_reply;                /* a MSG carrying an RPC reply */
};

struct ping_conn {
	const struct ping_opts *o;
	struct xprt_opts xo;           /* this connection's own */
	struct xprt_loop *loop;        /* the run's (ping_loop_get) */
	struct xprt *x;                /* NULL when not connected */
	struct xprt_handlers h;
	struct xprt_peer_info peer;    /* copied while x lived */
	bool have_peer;
	bool disconnected;             /* since the last connect */
	enum xprt_disc_reason why;
	bool stop;                     /* set by callbacks: leave the wait */
	/* messages received whose xid is in [raw_lo, raw_hi], and every
	 * RDMA_ERROR, in arrival order */
	uint32_t raw_lo, raw_hi;
	struct ping_raw raw[PING_RAW_SEEN];
	unsigned nraw;
	/* backward-direction calls the peer made, and how we answered */
	unsigned bc_calls, bc_answered;
	uint32_t bc_prog, bc_vers, bc_proc;  /* the last one */
	uint32_t bc_xid;
	/* the reply of the last ping_conn_call, copied in its done (the
	 * transport's is valid only until done returns) */
	uint8_t *rcopy;
	size_t rcap, rlen;
};

/* xprt options from ours: versions XPRT_V1|XPRT_V2 (0 both); inline_recv
 * and inline_send 0 for the defaults. */
void ping_conn_init(struct ping_conn *pc, const struct ping_opts *o,
		    unsigned versions, uint32_t inline_recv, uint32_t inline_send);
/* The connect timeout: --connect-timeout, or -W when none is set */
int ping_connect_timeout_ms(const struct ping_opts *o);
/* Connects (on the run's loop, created with the first connection).  0, or
 * -1 with *err. */
int ping_conn_open(struct ping_conn *pc, struct xprt_error *err);
/* Orderly disconnect, waited for (bounded). */
void ping_conn_close(struct ping_conn *pc);
/* Closes and frees what the connection holds (the reply copy). */
void ping_conn_free(struct ping_conn *pc);
/* The run's loop: created with the options of o (and o->on_loop run on
 * it) the first time; destroyed, with every connection left, by
 * ping_loop_end(). */
struct xprt_loop *ping_loop_get(const struct ping_opts *o, struct xprt_error *err);
void ping_loop_end(void);
/* The peer information: the live one, or the last copy. */
const struct xprt_peer_info *ping_conn_peer(struct ping_conn *pc);
/* Runs the loop until pc->stop (set by a callback) or timeout_ms passed
 * (-1: no limit). */
void ping_conn_wait(struct ping_conn *pc, int64_t timeout_ms);
/* Sends c and waits for it to complete (its own timeout, and a bound of
 * that plus a second).  Returns 0 when done ran, -1 when the call could
 * not be queued (c->err).  Afterwards c->reply points at a copy of the
 * reply that lives until the next call on pc. */
int ping_conn_call(struct ping_conn *pc, struct xprt_call *c);
/* Prepares a NULL call of the pinged program into buf (pad zero bytes of
 * arguments). */
void ping_conn_null(struct ping_conn *pc, struct xprt_call *c, uint8_t *buf,
		    size_t cap, size_t pad);
void ping_raw_from_msg(struct ping_raw *r, const struct rpcrdma_msg *m,
		       size_t len);
/* The first message seen with this xid (and, when want_err, an RDMA_ERROR),
 * or NULL */
const struct ping_raw *ping_conn_seen(const struct ping_conn *pc, uint32_t xid,
				      bool want_err);

#endif
