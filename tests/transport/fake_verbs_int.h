/* SPDX-License-Identifier: BSD-3-Clause */
/* fake_verbs_int.h - the fake fabric's objects, shared by fake_verbs.c
 * (CM: channels, ids, connections) and fake_verbs_qp.c (queues, memory,
 * work requests).  Tests include fake_verbs.h only. */
#ifndef RPCRDMA_FAKE_VERBS_INT_H
#define RPCRDMA_FAKE_VERBS_INT_H

#include <netinet/in.h>
#include "fake_verbs.h"

struct fev {
	struct xv_event ev;
	struct fev *next;
};
struct xv_chan {
	int efd;
	struct fev *head, *tail;
	struct xv_chan *next;
};
enum fstate { F_IDLE, F_ADDR, F_ROUTE, F_LISTEN, F_REQ, F_CONNECTING,
	      F_CONNECTED, F_DISCONNECTED };
struct fid {
	struct xv_id pub;        /* first */
	struct xv_chan *ch;
	enum fstate state;
	struct sockaddr_storage local, peer;
	struct fid *peer_id;
	bool has_qp, qp_err;
	bool late_est;           /* ESTABLISHED held back (late_established) */
	bool rep_sent;           /* the CM waits for an RTU (rtu_lost) */
	bool active;             /* the connecting side (f_connect) */
	unsigned long nsends;    /* Sends posted (lose_first_send) */
	int cq_efd;
	struct xv_wc *cq;
	unsigned cq_head, cq_n, cq_cap;
	struct { uint64_t wr_id; struct xv_sge sge; } *rq;
	unsigned rq_head, rq_n, rq_cap;
	struct fid *next;
};
struct fmr {
	struct xv_mr pub;
	struct fid *owner;
	unsigned access;
	struct fmr *next;
};
struct fmw {
	struct xv_mw pub;
	struct fid *owner;
	bool bound;
	uint64_t addr;
	size_t len;
	unsigned access;
	struct fmw *next;
};

extern struct xv_chan *fake_chans;
extern struct fid *fake_ids;
extern struct fmr *fake_mrs;
extern struct fmw *fake_mws;
extern uint32_t fake_next_key;
extern struct fake_verbs_counts fake_counts;

void fake_wake(int efd);
void fake_push_wc(struct fid *id, uint64_t wr_id, enum xv_opcode op,
		  enum xv_wc_status st, uint32_t len);
void fake_qp_error(struct fid *id);
void fake_free_qp(struct fid *id);
void fake_queue_event(struct fid *id, enum xv_event_type t, int status,
		      struct fid *listener, const void *pdata, uint32_t len);

int fake_qp_create(struct xv_id *pub, const struct xv_qp_caps *caps);
void fake_qp_destroy(struct xv_id *pub);
int fake_cq_fd(struct xv_id *pub);
int fake_cq_event(struct xv_id *pub);
int fake_cq_poll(struct xv_id *pub, struct xv_wc *wc, int n);
struct xv_mr *fake_reg_mr(struct xv_id *pub, void *addr, size_t len,
			  unsigned access);
int fake_dereg_mr(struct xv_mr *pub);
struct xv_mw *fake_alloc_mw(struct xv_id *pub);
int fake_dealloc_mw(struct xv_mw *pub);
int fake_post_recv(struct xv_id *pub, uint64_t wr_id, const struct xv_sge *sge);
int fake_post_send(struct xv_id *pub, const struct xv_send_wr *wr);

#endif
