/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * xprt_verbs_rdma.c - struct xprt_verbs over rdma-core: librdmacm for the
 * connection (event channel, CM ids, private data) and libibverbs for the
 * queues and memory (one PD, one CQ with its completion channel and one RC
 * QP per connection, as rping does).  This file: the event channel, the
 * CM ids and the connection's queues; xprt_verbs_rdma_mem.c: memory and
 * work requests.  These two are the only files of the transport that
 * include rdma-core's headers.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>
#include "xprt_verbs_rdma.h"

struct xv_chan {
	struct rdma_event_channel *ch;
};

static int set_nonblock(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	return fl < 0 ? -1 : fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

static struct xv_chan *r_chan_create(void)
{
	struct xv_chan *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->ch = rdma_create_event_channel();
	if (!c->ch || set_nonblock(c->ch->fd) < 0) {
		int e = errno;

		if (c->ch)
			rdma_destroy_event_channel(c->ch);
		free(c);
		errno = e;
		return NULL;
	}
	return c;
}

static void r_chan_destroy(struct xv_chan *c)
{
	if (!c)
		return;
	rdma_destroy_event_channel(c->ch);
	free(c);
}

static int r_chan_fd(struct xv_chan *c)
{
	return c->ch->fd;
}

static void name_device(struct rid *r)
{
	if (r->cm && r->cm->verbs && !r->pub.dev_name[0])
		snprintf(r->pub.dev_name, sizeof(r->pub.dev_name), "%s",
			 ibv_get_device_name(r->cm->verbs->device));
}

static enum xv_event_type map_event(enum rdma_cm_event_type t)
{
	switch (t) {
	case RDMA_CM_EVENT_ADDR_RESOLVED: return XV_EV_ADDR_RESOLVED;
	case RDMA_CM_EVENT_ADDR_ERROR: return XV_EV_ADDR_ERROR;
	case RDMA_CM_EVENT_ROUTE_RESOLVED: return XV_EV_ROUTE_RESOLVED;
	case RDMA_CM_EVENT_ROUTE_ERROR: return XV_EV_ROUTE_ERROR;
	case RDMA_CM_EVENT_CONNECT_REQUEST: return XV_EV_CONNECT_REQUEST;
	case RDMA_CM_EVENT_ESTABLISHED: return XV_EV_ESTABLISHED;
	case RDMA_CM_EVENT_REJECTED: return XV_EV_REJECTED;
	case RDMA_CM_EVENT_UNREACHABLE: return XV_EV_UNREACHABLE;
	case RDMA_CM_EVENT_CONNECT_ERROR: return XV_EV_CONNECT_ERROR;
	case RDMA_CM_EVENT_DISCONNECTED: return XV_EV_DISCONNECTED;
	case RDMA_CM_EVENT_DEVICE_REMOVAL: return XV_EV_DEVICE_REMOVAL;
	default: return XV_EV_OTHER;
	}
}

static int r_get_event(struct xv_chan *c, struct xv_event *ev)
{
	struct rdma_cm_event *e;
	struct rid *r;

	if (rdma_get_cm_event(c->ch, &e))
		return -1;                       /* EAGAIN: none */
	memset(ev, 0, sizeof(*ev));
	ev->type = map_event(e->event);
	ev->status = e->status;
	if (e->event == RDMA_CM_EVENT_CONNECT_REQUEST) {
		r = calloc(1, sizeof(*r));
		if (!r) {
			rdma_reject(e->id, NULL, 0);
			rdma_ack_cm_event(e);
			rdma_destroy_id(e->id);
			errno = EAGAIN;
			return -1;
		}
		r->cm = e->id;
		e->id->context = r;
		name_device(r);
		ev->listen_id = e->listen_id ? e->listen_id->context : NULL;
	} else {
		r = e->id ? e->id->context : NULL;
		if (r)
			name_device(r);
	}
	ev->id = r ? &r->pub : NULL;
	if ((e->event == RDMA_CM_EVENT_CONNECT_REQUEST ||
	     e->event == RDMA_CM_EVENT_ESTABLISHED ||
	     e->event == RDMA_CM_EVENT_REJECTED) && e->param.conn.private_data) {
		ev->pdata_len = e->param.conn.private_data_len;
		if (ev->pdata_len > XV_PDATA_MAX)
			ev->pdata_len = XV_PDATA_MAX;
		memcpy(ev->pdata, e->param.conn.private_data, ev->pdata_len);
	}
	rdma_ack_cm_event(e);
	return 0;
}

static struct xv_id *r_create_id(struct xv_chan *c, void *ctx)
{
	struct rid *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->pub.ctx = ctx;
	if (rdma_create_id(c->ch, &r->cm, r, RDMA_PS_TCP)) {
		int e = errno;

		free(r);
		errno = e;
		return NULL;
	}
	return &r->pub;
}

static void r_qp_destroy(struct xv_id *pub)
{
	struct rid *r = (struct rid *)pub;

	if (r->has_qp)
		rdma_destroy_qp(r->cm);
	r->has_qp = false;
	if (r->cq)
		ibv_destroy_cq(r->cq);
	r->cq = NULL;
	if (r->cc)
		ibv_destroy_comp_channel(r->cc);
	r->cc = NULL;
}

static int r_destroy_id(struct xv_id *pub)
{
	struct rid *r = (struct rid *)pub;

	r_qp_destroy(pub);
	if (r->pd)
		ibv_dealloc_pd(r->pd);
	rdma_destroy_id(r->cm);
	free(r);
	return 0;
}

static int r_resolve_addr(struct xv_id *pub, const struct sockaddr *dst,
			  int timeout_ms)
{
	return rdma_resolve_addr(((struct rid *)pub)->cm, NULL,
				 (struct sockaddr *)dst, timeout_ms);
}

static int r_resolve_route(struct xv_id *pub, int timeout_ms)
{
	return rdma_resolve_route(((struct rid *)pub)->cm, timeout_ms);
}

static int r_listen(struct xv_id *pub, const struct sockaddr *addr, int backlog)
{
	struct rid *r = (struct rid *)pub;
	int afonly = 1;

	/* IPv6 only, as svcrdma: IPv4 has its own listener (xprt_cm.c), and an
	 * IPv6 wildcard taking IPv4 rejects it over iWARP */
	if (addr->sa_family == AF_INET6)
		rdma_set_option(r->cm, RDMA_OPTION_ID, RDMA_OPTION_ID_AFONLY,
				&afonly, sizeof(afonly));
	if (rdma_bind_addr(r->cm, (struct sockaddr *)addr))
		return -1;
	name_device(r);
	return rdma_listen(r->cm, backlog);
}

static void conn_param(struct rdma_conn_param *cp, const struct xv_conn_param *p)
{
	memset(cp, 0, sizeof(*cp));
	cp->private_data = p->pdata;
	cp->private_data_len = (uint8_t)p->pdata_len;
	cp->responder_resources = p->responder_resources;
	cp->initiator_depth = p->initiator_depth;
	cp->retry_count = p->retry_count;
	cp->rnr_retry_count = p->rnr_retry_count;
}

static int r_connect(struct xv_id *pub, const struct xv_conn_param *p)
{
	struct rdma_conn_param cp;

	conn_param(&cp, p);
	return rdma_connect(((struct rid *)pub)->cm, &cp);
}

static int r_accept(struct xv_id *pub, const struct xv_conn_param *p)
{
	struct rdma_conn_param cp;

	conn_param(&cp, p);
	return rdma_accept(((struct rid *)pub)->cm, &cp);
}

static int r_reject(struct xv_id *pub, const void *pdata, uint32_t len)
{
	return rdma_reject(((struct rid *)pub)->cm, pdata, (uint8_t)len);
}

static int r_disconnect(struct xv_id *pub)
{
	return rdma_disconnect(((struct rid *)pub)->cm);
}

/* the QP's first Receive came before the RTU was handled: what a device's
 * IBV_EVENT_COMM_EST tells, told to the CM (as svcrdma does for its QPs).
 * The IB CM moves from REP_SENT to ESTABLISHED; iWARP has nothing to do. */
static int r_notify_established(struct xv_id *pub)
{
	return rdma_notify(((struct rid *)pub)->cm, IBV_EVENT_COMM_EST);
}

static void copy_sa(struct sockaddr_storage *to, const struct sockaddr *sa)
{
	memset(to, 0, sizeof(*to));
	if (!sa)
		return;
	if (sa->sa_family == AF_INET)
		memcpy(to, sa, sizeof(struct sockaddr_in));
	else if (sa->sa_family == AF_INET6)
		memcpy(to, sa, sizeof(struct sockaddr_in6));
}

static int r_addrs(struct xv_id *pub, struct sockaddr_storage *local,
		   struct sockaddr_storage *peer)
{
	struct rid *r = (struct rid *)pub;

	if (local)
		copy_sa(local, rdma_get_local_addr(r->cm));
	if (peer)
		copy_sa(peer, rdma_get_peer_addr(r->cm));
	return 0;
}

static int r_query_device(struct xv_id *pub, struct xv_dev_info *di)
{
	struct rid *r = (struct rid *)pub;
	struct ibv_device_attr a;

	memset(di, 0, sizeof(*di));
	if (!r->cm->verbs) {
		errno = ENODEV;
		return -1;
	}
	if (ibv_query_device(r->cm->verbs, &a))
		return -1;
	snprintf(di->name, sizeof(di->name), "%s",
		 ibv_get_device_name(r->cm->verbs->device));
	di->max_qp_wr = (uint32_t)a.max_qp_wr;
	di->max_sge = (uint32_t)a.max_sge;
	di->max_qp_rd_atom = (uint32_t)a.max_qp_rd_atom;
	di->max_mr_size = a.max_mr_size;
	di->has_mw = (a.device_cap_flags & (IBV_DEVICE_MEM_WINDOW_TYPE_2A |
					   IBV_DEVICE_MEM_WINDOW_TYPE_2B)) &&
		     a.max_mw > 0;
	di->iwarp = r->cm->verbs->device->transport_type == IBV_TRANSPORT_IWARP;
	return 0;
}

static int r_device_count(void)
{
	int n = 0;
	struct ibv_device **l = ibv_get_device_list(&n);

	if (!l)
		return 0;
	ibv_free_device_list(l);
	return n;
}

static int r_qp_create(struct xv_id *pub, const struct xv_qp_caps *caps)
{
	struct rid *r = (struct rid *)pub;
	struct ibv_qp_init_attr qa;
	int e;

	if (!r->cm->verbs) {
		errno = ENODEV;
		return -1;
	}
	r->pd = ibv_alloc_pd(r->cm->verbs);
	if (!r->pd)
		goto fail;
	r->cc = ibv_create_comp_channel(r->cm->verbs);
	if (!r->cc || set_nonblock(r->cc->fd) < 0)
		goto fail;
	r->cq = ibv_create_cq(r->cm->verbs, (int)(caps->max_send_wr + caps->max_recv_wr),
			      r, r->cc, 0);
	if (!r->cq || ibv_req_notify_cq(r->cq, 0))
		goto fail;
	memset(&qa, 0, sizeof(qa));
	qa.send_cq = qa.recv_cq = r->cq;
	qa.qp_type = IBV_QPT_RC;
	qa.cap.max_send_wr = caps->max_send_wr;
	qa.cap.max_recv_wr = caps->max_recv_wr;
	qa.cap.max_send_sge = caps->max_send_sge;
	qa.cap.max_recv_sge = 1;
	if (rdma_create_qp(r->cm, r->pd, &qa))
		goto fail;
	r->has_qp = true;
	return 0;
fail:
	e = errno ? errno : ENOMEM;
	if (r->cq)
		ibv_destroy_cq(r->cq);
	if (r->cc)
		ibv_destroy_comp_channel(r->cc);
	if (r->pd)
		ibv_dealloc_pd(r->pd);
	r->cq = NULL;
	r->cc = NULL;
	r->pd = NULL;
	errno = e;
	return -1;
}

static int r_cq_fd(struct xv_id *pub)
{
	struct rid *r = (struct rid *)pub;

	return r->cc ? r->cc->fd : -1;
}

static int r_cq_event(struct xv_id *pub)
{
	struct rid *r = (struct rid *)pub;
	struct ibv_cq *cq;
	void *ctx;

	if (!r->cc)
		return 0;
	while (!ibv_get_cq_event(r->cc, &cq, &ctx))
		ibv_ack_cq_events(cq, 1);
	if (errno != EAGAIN)
		return -1;
	return ibv_req_notify_cq(r->cq, 0);
}

static enum xv_wc_status map_status(enum ibv_wc_status s)
{
	switch (s) {
	case IBV_WC_SUCCESS: return XV_WC_SUCCESS;
	case IBV_WC_LOC_LEN_ERR: return XV_WC_LOC_LEN_ERR;
	case IBV_WC_LOC_PROT_ERR: return XV_WC_LOC_PROT_ERR;
	case IBV_WC_WR_FLUSH_ERR: return XV_WC_WR_FLUSH_ERR;
	case IBV_WC_REM_ACCESS_ERR: return XV_WC_REM_ACCESS_ERR;
	case IBV_WC_REM_INV_REQ_ERR: return XV_WC_REM_INV_REQ_ERR;
	case IBV_WC_RNR_RETRY_EXC_ERR: return XV_WC_RNR_RETRY_EXC_ERR;
	case IBV_WC_RETRY_EXC_ERR: return XV_WC_RETRY_EXC_ERR;
	case IBV_WC_REM_OP_ERR: return XV_WC_REM_OP_ERR;
	default: return XV_WC_OTHER_ERR;
	}
}

static enum xv_opcode map_wc_opcode(enum ibv_wc_opcode o)
{
	switch (o) {
	case IBV_WC_RDMA_WRITE: return XV_OP_RDMA_WRITE;
	case IBV_WC_RDMA_READ: return XV_OP_RDMA_READ;
	case IBV_WC_LOCAL_INV: return XV_OP_LOCAL_INV;
	case IBV_WC_BIND_MW: return XV_OP_BIND_MW;
	case IBV_WC_RECV: return XV_OP_RECV;
	default: return XV_OP_SEND;
	}
}

static int r_cq_poll(struct xv_id *pub, struct xv_wc *wc, int n)
{
	struct rid *r = (struct rid *)pub;
	struct ibv_wc w[16];
	int got, i;

	if (!r->cq)
		return 0;
	if (n > 16)
		n = 16;
	got = ibv_poll_cq(r->cq, n, w);
	for (i = 0; i < got; i++) {
		memset(&wc[i], 0, sizeof(wc[i]));
		wc[i].wr_id = w[i].wr_id;
		wc[i].status = map_status(w[i].status);
		wc[i].opcode = map_wc_opcode(w[i].opcode);
		wc[i].byte_len = w[i].byte_len;
		if (w[i].status == IBV_WC_SUCCESS && (w[i].wc_flags & IBV_WC_WITH_INV)) {
			wc[i].with_inv = true;
			wc[i].inv_rkey = w[i].invalidated_rkey;
		}
	}
	return got;
}

const struct xprt_verbs xprt_verbs_rdma = {
	.name = "rdma-core",
	.chan_create = r_chan_create,
	.chan_destroy = r_chan_destroy,
	.chan_fd = r_chan_fd,
	.get_event = r_get_event,
	.create_id = r_create_id,
	.destroy_id = r_destroy_id,
	.resolve_addr = r_resolve_addr,
	.resolve_route = r_resolve_route,
	.listen = r_listen,
	.connect = r_connect,
	.accept = r_accept,
	.reject = r_reject,
	.disconnect = r_disconnect,
	.notify_established = r_notify_established,
	.addrs = r_addrs,
	.query_device = r_query_device,
	.device_count = r_device_count,
	.qp_create = r_qp_create,
	.qp_destroy = r_qp_destroy,
	.cq_fd = r_cq_fd,
	.cq_event = r_cq_event,
	.cq_poll = r_cq_poll,
	.reg_mr = xv_rdma_reg_mr,
	.dereg_mr = xv_rdma_dereg_mr,
	.alloc_mw = xv_rdma_alloc_mw,
	.dealloc_mw = xv_rdma_dealloc_mw,
	.post_recv = xv_rdma_post_recv,
	.post_send = xv_rdma_post_send,
};
