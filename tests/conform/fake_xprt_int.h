/* SPDX-License-Identifier: BSD-3-Clause */
/* fake_xprt_int.h - shared by fake_xprt.c (the API) and fake_model.c (the
 * model responder). */
#ifndef RPCRDMA_FAKE_XPRT_INT_H
#define RPCRDMA_FAKE_XPRT_INT_H

#include <stdio.h>
#include "echo_ulb.h"
#include "fake_xprt.h"

enum ev_kind { EV_RECV, EV_DISC, EV_CALL };
struct ev {
	enum ev_kind kind;
	struct xprt *x;
	enum xprt_disc_reason why;
	uint8_t *buf;
	size_t len;
	struct ev *next;
};

struct xprt_mem {
	struct xprt *x;
	uint8_t *buf;
	size_t len;
	uint32_t handle;
	bool used;
};
#define MAX_MEMS 64

struct xprt_loop {
	struct xprt_opts o;
	struct ev *head, *tail;
	bool stop;
	struct xprt_mem mems[MAX_MEMS];
	uint32_t next_handle;
	struct xprt *conns;                /* every connection not yet freed */
};

struct xprt {
	struct xprt_loop *l;
	struct xprt *next;
	struct xprt_handlers h;
	void *ctx;
	struct xprt_peer_info peer;
	bool up, hung;
	unsigned nsent;                    /* messages sent on it */
	int64_t drop_at;                   /* late_drop_ms: when it is seen (ms) */
	bool drop_rearmed;                 /* drop_at counted from the probe */
	/* the model's CALLBACK in progress */
	uint32_t cb_xid, cb_vers, cb_count, cb_done, cb_ok, cb_bxid;
	uint8_t cb_data[ECHO_CALLBACK_DATA_MAX];
	uint32_t cb_len;
};

extern struct fake_cfg fake_cfg_now;
extern bool fake_gone;

uint32_t fake_be32(const uint8_t *p);
void fake_put32(uint8_t *p, uint32_t v);
void fake_late_drop_rearm(struct xprt *x);
void fake_push(struct xprt_loop *l, enum ev_kind k, struct xprt *x, const uint8_t *buf,
	       size_t len, enum xprt_disc_reason why);
void fake_drop(struct xprt *x, enum xprt_disc_reason why);
uint8_t *fake_region(struct xprt *x, const struct rpcrdma_segment *s);
/* the model responder: one Send from the client, one reply to a backward call */
int fake_model_recv(struct xprt *x, const uint8_t *buf, size_t len);
int fake_model_backward_reply(struct xprt *x, uint32_t xid, const uint8_t *msg, size_t len);

#endif
