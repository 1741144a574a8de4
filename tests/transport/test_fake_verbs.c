/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_fake_verbs.c - the fake fabric behaves like an RC queue pair where
 * the transport relies on it: connect/accept/reject with private data,
 * Sends into posted Receives (RNR and length errors otherwise), RDMA Read
 * and Write with rkey and bounds checks, memory windows and invalidation,
 * orderly and disorderly disconnects, flushes.  The transport's own tests
 * stand on this.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "fake_verbs.h"
#include "tap.h"

static const struct xprt_verbs *V = &fake_verbs;

static struct sockaddr_in sin4(const char *a, int port)
{
	struct sockaddr_in s;

	memset(&s, 0, sizeof(s));
	s.sin_family = AF_INET;
	s.sin_port = htons((uint16_t)port);
	inet_pton(AF_INET, a, &s.sin_addr);
	return s;
}

static bool next_event(struct xv_chan *ch, enum xv_event_type t, struct xv_event *ev)
{
	return V->get_event(ch, ev) == 0 && ev->type == t;
}

struct pair {
	struct xv_chan *cc, *sc;
	struct xv_id *cl, *ls, *sv;
};

static const struct xv_qp_caps caps = { 16, 16, 4, 4 };

static bool connect_pair(struct pair *p, const char *pd_req, const char *pd_rep,
			 struct xv_event *ev_req, struct xv_event *ev_est)
{
	struct sockaddr_in la = sin4("0.0.0.0", 20049), da = sin4("127.0.0.1", 20049);
	struct xv_conn_param cq = { .pdata = pd_req, .pdata_len = (uint32_t)strlen(pd_req) };
	struct xv_conn_param cp = { .pdata = pd_rep, .pdata_len = (uint32_t)strlen(pd_rep) };
	struct xv_event ev;

	p->cc = V->chan_create();
	p->sc = V->chan_create();
	p->ls = V->create_id(p->sc, p);
	p->cl = V->create_id(p->cc, p);
	if (V->listen(p->ls, (struct sockaddr *)&la, 4) ||
	    V->resolve_addr(p->cl, (struct sockaddr *)&da, 100) ||
	    !next_event(p->cc, XV_EV_ADDR_RESOLVED, &ev) ||
	    V->resolve_route(p->cl, 100) ||
	    !next_event(p->cc, XV_EV_ROUTE_RESOLVED, &ev) ||
	    V->qp_create(p->cl, &caps) || V->connect(p->cl, &cq) ||
	    !next_event(p->sc, XV_EV_CONNECT_REQUEST, ev_req))
		return false;
	p->sv = ev_req->id;
	p->sv->ctx = p;
	return ev_req->listen_id == p->ls && !V->qp_create(p->sv, &caps) &&
	       !V->accept(p->sv, &cp) && next_event(p->sc, XV_EV_ESTABLISHED, &ev) &&
	       next_event(p->cc, XV_EV_ESTABLISHED, ev_est);
}

static void close_pair(struct pair *p)
{
	V->destroy_id(p->cl);
	V->destroy_id(p->sv);
	V->destroy_id(p->ls);
	V->chan_destroy(p->cc);
	V->chan_destroy(p->sc);
}

static int poll1(struct xv_id *id, struct xv_wc *wc)
{
	return V->cq_poll(id, wc, 1);
}

static void cm_and_sends(void)
{
	struct pair p;
	struct xv_event req, est, ev;
	struct xv_wc wc;
	struct fake_verbs_live l;
	static char sbuf[64] = "hello", rbuf[8], rbuf2[64];
	struct xv_mr *smr, *rmr, *rmr2;
	struct xv_sge s, r;
	struct xv_send_wr wr;

	tap_ok(connect_pair(&p, "REQ", "REPLY", &req, &est), "connect, request, accept, established");
	tap_ok(req.pdata_len == 3 && !memcmp(req.pdata, "REQ", 3) &&
	       est.pdata_len == 5 && !memcmp(est.pdata, "REPLY", 5),
	       "private data of the request and of the accept arrive");
	smr = V->reg_mr(p.cl, sbuf, sizeof(sbuf), 0);
	rmr = V->reg_mr(p.sv, rbuf, sizeof(rbuf), XV_ACCESS_LOCAL_WRITE);
	rmr2 = V->reg_mr(p.sv, rbuf2, sizeof(rbuf2), XV_ACCESS_LOCAL_WRITE);
	s = (struct xv_sge){ sbuf, 6, smr->lkey };
	memset(&wr, 0, sizeof(wr));
	wr.wr_id = 7; wr.opcode = XV_OP_SEND; wr.signaled = true; wr.sge = &s; wr.nsge = 1;
	V->post_send(p.cl, &wr);
	tap_ok(poll1(p.cl, &wc) == 1 && wc.status == XV_WC_RNR_RETRY_EXC_ERR && wc.wr_id == 7,
	       "Send with no Receive posted: RNR retry exceeded");
	V->post_send(p.cl, &wr);
	tap_ok(poll1(p.cl, &wc) == 1 && wc.status == XV_WC_WR_FLUSH_ERR,
	       "the sender's QP is in error: the next Send is flushed");
	V->dereg_mr(smr);
	V->dereg_mr(rmr);
	V->dereg_mr(rmr2);
	close_pair(&p);

	connect_pair(&p, "", "", &req, &est);
	smr = V->reg_mr(p.cl, sbuf, sizeof(sbuf), 0);
	rmr = V->reg_mr(p.sv, rbuf, sizeof(rbuf), XV_ACCESS_LOCAL_WRITE);
	rmr2 = V->reg_mr(p.sv, rbuf2, sizeof(rbuf2), XV_ACCESS_LOCAL_WRITE);
	r = (struct xv_sge){ rbuf2, sizeof(rbuf2), rmr2->lkey };
	V->post_recv(p.sv, 11, &r);
	s = (struct xv_sge){ sbuf, 6, smr->lkey };
	wr.sge = &s;
	V->post_send(p.cl, &wr);
	tap_ok(poll1(p.cl, &wc) == 1 && wc.status == XV_WC_SUCCESS &&
	       poll1(p.sv, &wc) == 1 && wc.status == XV_WC_SUCCESS && wc.wr_id == 11 &&
	       wc.opcode == XV_OP_RECV && wc.byte_len == 6 && !strcmp(rbuf2, "hello"),
	       "a Send lands in the posted Receive");
	r = (struct xv_sge){ rbuf, sizeof(rbuf), rmr->lkey };
	V->post_recv(p.sv, 12, &r);
	V->post_recv(p.sv, 13, &r);
	s.len = 20;
	V->post_send(p.cl, &wr);
	tap_ok(poll1(p.sv, &wc) == 1 && wc.status == XV_WC_LOC_LEN_ERR && wc.wr_id == 12 &&
	       poll1(p.sv, &wc) == 1 && wc.status == XV_WC_WR_FLUSH_ERR && wc.wr_id == 13 &&
	       poll1(p.cl, &wc) == 1 && wc.status == XV_WC_REM_INV_REQ_ERR,
	       "a Send larger than the Receive: length error, the rest flushed");
	V->disconnect(p.cl);
	tap_ok(next_event(p.cc, XV_EV_DISCONNECTED, &ev) &&
	       next_event(p.sc, XV_EV_DISCONNECTED, &ev) && ev.id == p.sv,
	       "disconnect: DISCONNECTED at both ends");
	V->dereg_mr(smr);
	V->dereg_mr(rmr);
	V->dereg_mr(rmr2);
	close_pair(&p);
	fake_verbs_live(&l);
	tap_ok(!l.chans && !l.ids && !l.qps && !l.mrs && !l.mws && !l.events,
	       "nothing left after closing");
	fake_verbs_reset();
}

static void rdma_ops(void)
{
	struct pair p;
	struct xv_event req, est, ev;
	struct xv_wc wc;
	static uint8_t src[4096], dst[4096], win[256];
	struct xv_mr *smr, *dmr, *wmr;
	struct xv_mw *mw;
	struct xv_sge s;
	struct xv_send_wr wr;
	unsigned i;

	for (i = 0; i < sizeof(src); i++)
		src[i] = (uint8_t)(i * 7);
	connect_pair(&p, "", "", &req, &est);
	smr = V->reg_mr(p.cl, src, sizeof(src), XV_ACCESS_REMOTE_READ);
	dmr = V->reg_mr(p.sv, dst, sizeof(dst), XV_ACCESS_LOCAL_WRITE);
	s = (struct xv_sge){ dst, 4096, dmr->lkey };
	memset(&wr, 0, sizeof(wr));
	wr.opcode = XV_OP_RDMA_READ; wr.signaled = true; wr.sge = &s; wr.nsge = 1;
	wr.remote_addr = (uintptr_t)src; wr.rkey = smr->rkey;
	V->post_send(p.sv, &wr);
	tap_ok(poll1(p.sv, &wc) == 1 && wc.status == XV_WC_SUCCESS && !memcmp(src, dst, 4096),
	       "RDMA Read of a registered region");
	wr.opcode = XV_OP_RDMA_WRITE;
	s.len = 16;
	V->post_send(p.sv, &wr);
	tap_ok(poll1(p.sv, &wc) == 1 && wc.status == XV_WC_REM_ACCESS_ERR,
	       "RDMA Write into a read-only region: remote access error");
	close_pair(&p);
	V->dereg_mr(smr);
	V->dereg_mr(dmr);

	connect_pair(&p, "", "", &req, &est);
	smr = V->reg_mr(p.cl, src, sizeof(src), XV_ACCESS_REMOTE_READ);
	dmr = V->reg_mr(p.sv, dst, sizeof(dst), XV_ACCESS_LOCAL_WRITE);
	s = (struct xv_sge){ dst, 17, dmr->lkey };
	wr.opcode = XV_OP_RDMA_READ;
	wr.remote_addr = (uintptr_t)src + 4080; wr.rkey = smr->rkey;
	V->post_send(p.sv, &wr);
	tap_ok(poll1(p.sv, &wc) == 1 && wc.status == XV_WC_REM_ACCESS_ERR,
	       "RDMA Read one byte past the region: remote access error");
	close_pair(&p);
	V->dereg_mr(smr);
	V->dereg_mr(dmr);

	/* a memory window: bind, Write through it, Send With Invalidate */
	connect_pair(&p, "", "", &req, &est);
	wmr = V->reg_mr(p.cl, win, sizeof(win), XV_ACCESS_LOCAL_WRITE | XV_ACCESS_MW_BIND);
	mw = V->alloc_mw(p.cl);
	memset(&wr, 0, sizeof(wr));
	wr.opcode = XV_OP_BIND_MW; wr.signaled = true; wr.mw = mw; wr.bind_mr = wmr;
	wr.bind_addr = (uintptr_t)win; wr.bind_len = 128; wr.bind_access = XV_ACCESS_REMOTE_WRITE;
	i = mw->rkey;
	V->post_send(p.cl, &wr);
	tap_ok(poll1(p.cl, &wc) == 1 && wc.status == XV_WC_SUCCESS && mw->rkey != i,
	       "memory window bound, with a new rkey");
	dmr = V->reg_mr(p.sv, src, sizeof(src), 0);
	s = (struct xv_sge){ src, 128, dmr->lkey };
	memset(&wr, 0, sizeof(wr));
	wr.opcode = XV_OP_RDMA_WRITE; wr.signaled = true; wr.sge = &s; wr.nsge = 1;
	wr.remote_addr = (uintptr_t)win; wr.rkey = mw->rkey;
	V->post_send(p.sv, &wr);
	tap_ok(poll1(p.sv, &wc) == 1 && wc.status == XV_WC_SUCCESS && !memcmp(win, src, 128),
	       "RDMA Write through the window");
	{
		static char rb[64];
		struct xv_mr *rmr = V->reg_mr(p.cl, rb, sizeof(rb), XV_ACCESS_LOCAL_WRITE);
		struct xv_sge r = { rb, sizeof(rb), rmr->lkey };

		V->post_recv(p.cl, 5, &r);
		s.len = 8;
		wr.opcode = XV_OP_SEND_INV; wr.invalidate_rkey = mw->rkey;
		V->post_send(p.sv, &wr);
		tap_ok(poll1(p.cl, &wc) == 1 && wc.status == XV_WC_SUCCESS && wc.with_inv &&
		       wc.inv_rkey == mw->rkey, "Send With Invalidate received, rkey named");
		poll1(p.sv, &wc);
		s.len = 4;
		wr.opcode = XV_OP_RDMA_WRITE;
		V->post_send(p.sv, &wr);
		tap_ok(poll1(p.sv, &wc) == 1 && wc.status == XV_WC_REM_ACCESS_ERR,
		       "the invalidated window is gone: remote access error");
		V->dereg_mr(rmr);
	}
	V->dealloc_mw(mw);
	V->dereg_mr(wmr);
	V->dereg_mr(dmr);
	close_pair(&p);

	/* disorderly: destroying a connected id */
	connect_pair(&p, "", "", &req, &est);
	V->destroy_id(p.cl);
	tap_ok(next_event(p.sc, XV_EV_DISCONNECTED, &ev) && ev.id == p.sv,
	       "a peer's id destroyed: DISCONNECTED");
	p.cl = V->create_id(p.cc, NULL);
	close_pair(&p);
	fake_verbs_reset();
}

static void cm_errors(void)
{
	struct xv_chan *ch = V->chan_create(), *sc;
	struct xv_id *id = V->create_id(ch, NULL), *ls, *sv;
	struct sockaddr_in a = sin4("192.0.2.1", 20049), b = sin4("127.0.0.1", 9999);
	struct xv_conn_param cp = { 0 };
	struct xv_event ev;

	V->resolve_addr(id, (struct sockaddr *)&a, 100);
	tap_ok(next_event(ch, XV_EV_ADDR_ERROR, &ev), "192.0.2.1: address error");
	V->resolve_addr(id, (struct sockaddr *)&b, 100);
	next_event(ch, XV_EV_ADDR_RESOLVED, &ev);
	V->resolve_route(id, 100);
	next_event(ch, XV_EV_ROUTE_RESOLVED, &ev);
	V->qp_create(id, &caps);
	V->connect(id, &cp);
	tap_ok(next_event(ch, XV_EV_REJECTED, &ev) && ev.status == XV_REJ_INVALID_SERVICE_ID,
	       "nobody listens: rejected, invalid service id");
	V->destroy_id(id);
	sc = V->chan_create();
	ls = V->create_id(sc, NULL);
	V->listen(ls, (struct sockaddr *)&b, 1);
	id = V->create_id(ch, NULL);
	V->resolve_addr(id, (struct sockaddr *)&b, 100);
	next_event(ch, XV_EV_ADDR_RESOLVED, &ev);
	V->resolve_route(id, 100);
	next_event(ch, XV_EV_ROUTE_RESOLVED, &ev);
	V->qp_create(id, &caps);
	V->connect(id, &cp);
	next_event(sc, XV_EV_CONNECT_REQUEST, &ev);
	sv = ev.id;
	V->reject(sv, "no", 2);
	tap_ok(next_event(ch, XV_EV_REJECTED, &ev) && ev.status == XV_REJ_CONSUMER_DEFINED &&
	       ev.pdata_len == 2, "consumer reject with private data");
	tap_ok(V->listen(V->create_id(sc, NULL), (struct sockaddr *)&b, 1) < 0 &&
	       errno == EADDRINUSE, "a second listener on the port: EADDRINUSE");
	fake_verbs_reset();
	fake_verbs_config.ndev = 0;
	tap_ok(!V->chan_create() && errno == ENODEV && V->device_count() == 0,
	       "no device: the channel cannot be created, ENODEV");
	fake_verbs_reset();
}

int main(void)
{
	cm_and_sends();
	rdma_ops();
	cm_errors();
	return tap_done();
}
