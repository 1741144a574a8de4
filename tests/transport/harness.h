/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * harness.h - a server and clients of the transport in one process, over
 * the fake verbs, with a tiny test program: an RPC call or reply of a
 * 40-/24-byte RPC header and one opaque<> that is DDP-eligible both ways
 * (the shape of the ECHO ULB, written out here so that the transport's
 * tests do not depend on it).
 */
#ifndef RPCRDMA_TEST_HARNESS_H
#define RPCRDMA_TEST_HARNESS_H

#include <stdbool.h>
#include "xprt.h"
#include "fake_verbs.h"

#define H_PROG 0x20000099u
#define H_CALL_HDR 40u
#define H_REPLY_HDR 24u

struct h_server {
	struct xprt_loop *l;
	struct xprt_opts o;
	unsigned connects, disconnects, calls;
	enum xprt_path last_call_path;
	uint32_t last_vers;
	bool last_backward;
	struct xprt *last;                 /* the newest connection */
	enum xprt_disc_reason last_why;
	int backward_on_call;              /* make N backward calls per call */
	unsigned backward_ok, backward_failed;
	bool no_reply;                     /* on_call answers nothing */
};

struct h_client {
	struct xprt *x;
	unsigned disconnects, backward_calls;
	enum xprt_disc_reason why;
	unsigned errors_seen;              /* RDMA_ERROR messages on_recv saw */
	uint32_t last_err;                 /* their rdma_err */
	uint32_t last_low, last_high;
};

struct h_call {
	struct xprt_call c;
	uint8_t *msg;
	uint8_t *data;
	size_t len;
	bool done;
};

extern const struct xprt_handlers h_server_handlers, h_client_handlers;

/* a loop over the fake with a listener on 127.0.0.1:20049; so = server's options */
struct xprt_loop *h_setup(struct h_server *sv, const struct xprt_opts *so);
struct xprt_opts h_client_opts(void);
struct xprt *h_connect(struct h_server *sv, struct h_client *cl,
		       const struct xprt_opts *co, struct xprt_error *err);
/* a call with `len` data bytes (a byte pattern from seed) */
void h_call_init(struct h_call *hc, size_t len, unsigned seed,
		 enum xprt_chunk_mode mode);
void h_call_free(struct h_call *hc);
/* xprt_call, its done() setting hc->done (and keeping the reply); 0 or -1 */
int h_call_start(struct xprt *x, struct h_call *hc);
/* h_call_start, then run the loop until done (or 2 s); true when a reply came */
bool h_call_run(struct h_server *sv, struct xprt *x, struct h_call *hc);
/* the reply holds exactly the call's data */
bool h_reply_ok(const struct h_call *hc);
void h_run(struct h_server *sv, int ms);
bool h_no_leaks(void);
/* close, run until every disconnect ran, destroy, reset the fake */
void h_teardown(struct h_server *sv);

#endif
