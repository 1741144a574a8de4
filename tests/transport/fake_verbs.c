/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fake_verbs.c - the in-process RDMA fabric of fake_verbs.h: rdma_cm ids,
 * event channels, RC queue pairs, memory regions and windows, all in one
 * process, for the unit tests.  Models what a real RC QP does on the
 * errors the transport must survive (RNR, remote access, flush).
 */
#include <errno.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>
#include "fake_verbs_int.h"

struct fake_verbs_config fake_verbs_config = { .ndev = 1 };

struct xv_chan *fake_chans;
struct fid *fake_ids;
struct fmr *fake_mrs;
struct fmw *fake_mws;
uint32_t fake_next_key = 0x1000;
struct fake_verbs_counts fake_counts;

/* -------- events -------- */
void fake_wake(int efd)
{
	uint64_t one = 1;

	if (write(efd, &one, sizeof(one)) < 0) {
		/* an eventfd cannot be full at these fake_counts */
	}
}

void fake_queue_event(struct fid *id, enum xv_event_type t, int status,
			struct fid *listener, const void *pdata, uint32_t len)
{
	struct fev *e = calloc(1, sizeof(*e));

	if (!e || !id->ch)
		abort();
	e->ev.type = t;
	e->ev.id = &id->pub;
	e->ev.listen_id = listener ? &listener->pub : NULL;
	e->ev.status = status;
	if (len > XV_PDATA_MAX)
		len = XV_PDATA_MAX;
	if (pdata && len)
		memcpy(e->ev.pdata, pdata, len);
	e->ev.pdata_len = len;
	if (id->ch->tail)
		id->ch->tail->next = e;
	else
		id->ch->head = e;
	id->ch->tail = e;
	fake_wake(id->ch->efd);
}

/* drop queued events that name id (it is being destroyed) */
static void purge_events(struct fid *id)
{
	struct xv_chan *ch;

	for (ch = fake_chans; ch; ch = ch->next) {
		struct fev **pp = &ch->head, *e;

		ch->tail = NULL;
		while ((e = *pp)) {
			if (e->ev.id == &id->pub || e->ev.listen_id == &id->pub) {
				*pp = e->next;
				free(e);
				continue;
			}
			ch->tail = e;
			pp = &e->next;
		}
	}
}

static struct xv_chan *f_chan_create(void)
{
	struct xv_chan *ch;

	if (fake_verbs_config.ndev <= 0) {
		errno = ENODEV;
		return NULL;
	}
	ch = calloc(1, sizeof(*ch));
	if (!ch)
		return NULL;
	ch->efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (ch->efd < 0) {
		free(ch);
		return NULL;
	}
	ch->next = fake_chans;
	fake_chans = ch;
	return ch;
}

static void f_chan_destroy(struct xv_chan *ch)
{
	struct xv_chan **pp;
	struct fev *e;

	if (!ch)
		return;
	for (pp = &fake_chans; *pp; pp = &(*pp)->next)
		if (*pp == ch) {
			*pp = ch->next;
			break;
		}
	while ((e = ch->head)) {
		ch->head = e->next;
		free(e);
	}
	close(ch->efd);
	free(ch);
}

static int f_chan_fd(struct xv_chan *ch)
{
	return ch->efd;
}

static int f_get_event(struct xv_chan *ch, struct xv_event *ev)
{
	struct fev *e = ch->head;
	uint64_t v;

	if (!e) {
		if (read(ch->efd, &v, sizeof(v)) < 0) {
			/* nothing pending: EAGAIN below */
		}
		errno = EAGAIN;
		return -1;
	}
	ch->head = e->next;
	if (!ch->head)
		ch->tail = NULL;
	*ev = e->ev;
	free(e);
	return 0;
}

/* -------- fake_ids -------- */
static struct xv_id *f_create_id(struct xv_chan *ch, void *ctx)
{
	struct fid *id = calloc(1, sizeof(*id));

	if (!id)
		return NULL;
	id->ch = ch;
	id->pub.ctx = ctx;
	id->cq_efd = -1;
	id->next = fake_ids;
	fake_ids = id;
	return &id->pub;
}

static void peer_gone(struct fid *id)
{
	struct fid *p = id->peer_id;

	id->peer_id = NULL;
	if (!p)
		return;
	p->peer_id = NULL;
	if (p->state == F_CONNECTED) {
		p->state = F_DISCONNECTED;
		fake_queue_event(p, XV_EV_DISCONNECTED, 0, NULL, NULL, 0);
	} else if (p->state == F_CONNECTING) {
		p->state = F_IDLE;
		fake_queue_event(p, XV_EV_REJECTED, XV_REJ_CONSUMER_DEFINED, NULL,
			    NULL, 0);
	} else if (p->state == F_REQ) {
		p->state = F_IDLE;    /* the request's owner destroys it */
	}
}

static int f_destroy_id(struct xv_id *pub)
{
	struct fid *id = (struct fid *)pub, **pp, *o;

	if (id->state == F_LISTEN) {      /* requests nobody took yet */
		id->state = F_IDLE;
		for (o = fake_ids; o; o = o ? o->next : fake_ids)
			if (o->state == F_REQ && o->ch == id->ch && !o->pub.ctx) {
				f_destroy_id(&o->pub);
				o = NULL;     /* the list changed: again */
			}
	}
	peer_gone(id);
	purge_events(id);
	fake_free_qp(id);
	for (pp = &fake_ids; *pp; pp = &(*pp)->next)
		if (*pp == id) {
			*pp = id->next;
			break;
		}
	free(id);
	return 0;
}

static bool in_net4(const struct sockaddr *sa, uint32_t net, unsigned bits)
{
	uint32_t a;

	if (sa->sa_family != AF_INET)
		return false;
	a = ntohl(((const struct sockaddr_in *)sa)->sin_addr.s_addr);
	return (a >> (32 - bits)) == (net >> (32 - bits));
}

static bool doc_net6(const struct sockaddr *sa)
{
	const uint8_t *b;

	if (sa->sa_family != AF_INET6)
		return false;
	b = ((const struct sockaddr_in6 *)sa)->sin6_addr.s6_addr;
	return b[0] == 0x20 && b[1] == 0x01 && b[2] == 0x0d && b[3] == 0xb8;
}

static uint16_t port_of(const struct sockaddr_storage *ss)
{
	if (ss->ss_family == AF_INET)
		return ((const struct sockaddr_in *)ss)->sin_port;
	return ((const struct sockaddr_in6 *)ss)->sin6_port;
}

static size_t sa_len(const struct sockaddr *sa)
{
	return sa->sa_family == AF_INET ? sizeof(struct sockaddr_in)
					: sizeof(struct sockaddr_in6);
}

static int f_resolve_addr(struct xv_id *pub, const struct sockaddr *dst,
			  int timeout_ms)
{
	struct fid *id = (struct fid *)pub;

	(void)timeout_ms;
	if (dst->sa_family != AF_INET && dst->sa_family != AF_INET6) {
		errno = EAFNOSUPPORT;
		return -1;
	}
	memset(&id->peer, 0, sizeof(id->peer));
	memcpy(&id->peer, dst, sa_len(dst));
	/* the local end: loopback, an ephemeral port */
	memset(&id->local, 0, sizeof(id->local));
	id->local.ss_family = dst->sa_family;
	if (dst->sa_family == AF_INET) {
		struct sockaddr_in *l4 = (struct sockaddr_in *)&id->local;

		l4->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		l4->sin_port = htons((uint16_t)(40000 + fake_counts.connects % 20000));
	} else {
		struct sockaddr_in6 *l6 = (struct sockaddr_in6 *)&id->local;

		l6->sin6_addr = in6addr_loopback;
		l6->sin6_port = htons((uint16_t)(40000 + fake_counts.connects % 20000));
	}
	if (in_net4(dst, 0xc0000200u, 24) || doc_net6(dst)) {
		fake_queue_event(id, XV_EV_ADDR_ERROR, -EHOSTUNREACH, NULL, NULL, 0);
		return 0;
	}
	strcpy(id->pub.dev_name, "fake0");
	id->state = F_ADDR;
	fake_queue_event(id, XV_EV_ADDR_RESOLVED, 0, NULL, NULL, 0);
	return 0;
}

static int f_resolve_route(struct xv_id *pub, int timeout_ms)
{
	struct fid *id = (struct fid *)pub;

	(void)timeout_ms;
	if (id->state != F_ADDR) {
		errno = EINVAL;
		return -1;
	}
	id->state = F_ROUTE;
	fake_queue_event(id, XV_EV_ROUTE_RESOLVED, 0, NULL, NULL, 0);
	return 0;
}

static bool addr_is_any(const struct sockaddr_storage *ss)
{
	static const struct in6_addr any6 = IN6ADDR_ANY_INIT;

	if (ss->ss_family == AF_INET)
		return ((const struct sockaddr_in *)ss)->sin_addr.s_addr == 0;
	return !memcmp(&((const struct sockaddr_in6 *)ss)->sin6_addr, &any6,
		       sizeof(any6));
}

static bool listener_takes(const struct fid *l, const struct sockaddr_storage *dst)
{
	if (l->state != F_LISTEN || port_of(&l->local) != port_of(dst))
		return false;
	if (l->local.ss_family != dst->ss_family)
		return false;     /* an AF_INET6 listener is IPv6 only (afonly) */
	if (addr_is_any(&l->local))
		return true;
	if (dst->ss_family == AF_INET)
		return ((const struct sockaddr_in *)&l->local)->sin_addr.s_addr ==
		       ((const struct sockaddr_in *)dst)->sin_addr.s_addr;
	return !memcmp(&((const struct sockaddr_in6 *)&l->local)->sin6_addr,
		       &((const struct sockaddr_in6 *)dst)->sin6_addr, 16);
}

static int f_listen(struct xv_id *pub, const struct sockaddr *addr, int backlog)
{
	struct fid *id = (struct fid *)pub, *o;

	(void)backlog;
	memset(&id->local, 0, sizeof(id->local));
	memcpy(&id->local, addr, sa_len(addr));
	if (fake_verbs_config.rdma_cm_errnos && !addr_is_any(&id->local) &&
	    !(id->local.ss_family == AF_INET ?
	      ((const struct sockaddr_in *)&id->local)->sin_addr.s_addr == htonl(INADDR_LOOPBACK) :
	      IN6_IS_ADDR_LOOPBACK(&((const struct sockaddr_in6 *)&id->local)->sin6_addr))) {
		errno = EADDRNOTAVAIL;         /* no device has this address */
		return -1;
	}
	for (o = fake_ids; o; o = o->next)
		if (o != id && o->state == F_LISTEN && port_of(&id->local) &&
		    o->local.ss_family == id->local.ss_family &&
		    port_of(&o->local) == port_of(&id->local)) {
			errno = fake_verbs_config.rdma_cm_errnos ? EADDRNOTAVAIL : EADDRINUSE;
			return -1;
		}
	strcpy(id->pub.dev_name, "fake0");
	id->state = F_LISTEN;
	return 0;
}

static int f_connect(struct xv_id *pub, const struct xv_conn_param *p)
{
	struct fid *id = (struct fid *)pub, *l, *srv;

	if (id->state != F_ROUTE || !id->has_qp) {
		errno = EINVAL;
		return -1;
	}
	fake_counts.connects++;
	if (fake_verbs_config.connect_addrinuse) {
		fake_verbs_config.connect_addrinuse--;
		errno = EADDRINUSE;
		return -1;
	}
	id->state = F_CONNECTING;
	if (fake_verbs_config.connect_timedout) {
		fake_verbs_config.connect_timedout--;
		id->state = F_IDLE;
		fake_queue_event(id, XV_EV_UNREACHABLE, -ETIMEDOUT, NULL, NULL, 0);
		return 0;
	}
	if (in_net4((const struct sockaddr *)&id->peer, 0xc6336400u, 24))
		return 0;     /* no answer: the caller's timeout fires */
	for (l = fake_ids; l; l = l->next)
		if (listener_takes(l, &id->peer))
			break;
	if (!l) {
		id->state = F_IDLE;
		fake_queue_event(id, XV_EV_REJECTED, XV_REJ_INVALID_SERVICE_ID,
			    NULL, NULL, 0);
		return 0;
	}
	srv = (struct fid *)f_create_id(l->ch, NULL);
	if (!srv)
		return -1;
	srv->state = F_REQ;
	srv->local = id->peer;
	srv->peer = id->local;
	strcpy(srv->pub.dev_name, "fake0");
	srv->peer_id = id;
	id->peer_id = srv;
	id->active = true;
	fake_queue_event(srv, XV_EV_CONNECT_REQUEST, 0, l, p->pdata, p->pdata_len);
	return 0;
}

static int f_accept(struct xv_id *pub, const struct xv_conn_param *p)
{
	struct fid *id = (struct fid *)pub, *c = id->peer_id;

	if (id->state != F_REQ || !id->has_qp) {
		errno = EINVAL;
		return -1;
	}
	if (!c || c->state != F_CONNECTING) {
		errno = ECONNABORTED;
		return -1;
	}
	id->state = c->state = F_CONNECTED;
	if (fake_verbs_config.rtu_lost)
		id->rep_sent = true;
	else if (fake_verbs_config.late_established)
		id->late_est = true;
	else
		fake_queue_event(id, XV_EV_ESTABLISHED, 0, NULL, NULL, 0);
	fake_queue_event(c, XV_EV_ESTABLISHED, 0, NULL, p->pdata, p->pdata_len);
	return 0;
}

static int f_reject(struct xv_id *pub, const void *pdata, uint32_t len)
{
	struct fid *id = (struct fid *)pub, *c = id->peer_id;

	fake_counts.rejects++;
	id->peer_id = NULL;
	id->state = F_IDLE;
	if (c && c->state == F_CONNECTING) {
		c->peer_id = NULL;
		c->state = F_IDLE;
		fake_queue_event(c, XV_EV_REJECTED, XV_REJ_CONSUMER_DEFINED, NULL,
			    pdata, len);
	}
	return 0;
}

static int f_disconnect(struct xv_id *pub)
{
	struct fid *id = (struct fid *)pub, *p = id->peer_id;

	if (id->state != F_CONNECTED && id->state != F_DISCONNECTED) {
		errno = ENOTCONN;
		return -1;
	}
	fake_counts.disconnects++;
	fake_qp_error(id);
	if (id->rep_sent) {
		/* rdma_disconnect() in REP_SENT: the QP in error, no DREQ
		 * (nor DREP), no event at either end, and 0 returned */
		fake_counts.dreqs_skipped++;
		return 0;
	}
	if (id->state == F_CONNECTED) {
		id->state = F_DISCONNECTED;
		fake_queue_event(id, XV_EV_DISCONNECTED, 0, NULL, NULL, 0);
		if (p && p->state == F_CONNECTED) {
			p->state = F_DISCONNECTED;
			fake_queue_event(p, XV_EV_DISCONNECTED, 0, NULL, NULL, 0);
		}
	}
	return 0;
}

/* rdma_notify(IBV_EVENT_COMM_EST): REP_SENT becomes ESTABLISHED, with its
 * event; EISCONN when already there */
static int f_notify_established(struct xv_id *pub)
{
	struct fid *id = (struct fid *)pub;

	fake_counts.notifies++;
	if (id->rep_sent) {
		id->rep_sent = false;
		fake_queue_event(id, XV_EV_ESTABLISHED, 0, NULL, NULL, 0);
		return 0;
	}
	errno = id->state == F_CONNECTED ? EISCONN : EINVAL;
	return -1;
}

static int f_addrs(struct xv_id *pub, struct sockaddr_storage *local,
		   struct sockaddr_storage *peer)
{
	struct fid *id = (struct fid *)pub;

	if (local)
		*local = id->local;
	if (peer)
		*peer = id->peer;
	return 0;
}

static int f_query_device(struct xv_id *pub, struct xv_dev_info *di)
{
	(void)pub;
	memset(di, 0, sizeof(*di));
	strcpy(di->name, "fake0");
	di->max_qp_wr = 4096;
	di->max_sge = 8;
	di->max_qp_rd_atom = 16;
	di->max_mr_size = 1ull << 40;
	di->has_mw = !fake_verbs_config.no_mw;
	di->iwarp = fake_verbs_config.iwarp;
	return 0;
}

static int f_device_count(void)
{
	return fake_verbs_config.ndev;
}

/* -------- test helpers -------- */
void fake_verbs_live(struct fake_verbs_live *l)
{
	struct xv_chan *ch;
	struct fid *id;
	struct fmr *m;
	struct fmw *w;
	struct fev *e;

	memset(l, 0, sizeof(*l));
	for (ch = fake_chans; ch; ch = ch->next) {
		l->chans++;
		for (e = ch->head; e; e = e->next)
			l->events++;
	}
	for (id = fake_ids; id; id = id->next) {
		l->ids++;
		l->qps += id->has_qp;
	}
	for (m = fake_mrs; m; m = m->next)
		l->mrs++;
	for (w = fake_mws; w; w = w->next)
		l->mws++;
}

void fake_verbs_counts(struct fake_verbs_counts *c)
{
	*c = fake_counts;
}

void fake_verbs_reset(void)
{
	while (fake_ids)
		f_destroy_id(&fake_ids->pub);
	while (fake_chans)
		f_chan_destroy(fake_chans);
	while (fake_mrs)
		fake_dereg_mr(&fake_mrs->pub);
	while (fake_mws)
		fake_dealloc_mw(&fake_mws->pub);
	memset(&fake_counts, 0, sizeof(fake_counts));
	fake_verbs_config = (struct fake_verbs_config){ .ndev = 1 };
}

const struct xprt_verbs fake_verbs = {
	.name = "fake",
	.chan_create = f_chan_create,
	.chan_destroy = f_chan_destroy,
	.chan_fd = f_chan_fd,
	.get_event = f_get_event,
	.create_id = f_create_id,
	.destroy_id = f_destroy_id,
	.resolve_addr = f_resolve_addr,
	.resolve_route = f_resolve_route,
	.listen = f_listen,
	.connect = f_connect,
	.accept = f_accept,
	.reject = f_reject,
	.disconnect = f_disconnect,
	.notify_established = f_notify_established,
	.addrs = f_addrs,
	.query_device = f_query_device,
	.device_count = f_device_count,
	.qp_create = fake_qp_create,
	.qp_destroy = fake_qp_destroy,
	.cq_fd = fake_cq_fd,
	.cq_event = fake_cq_event,
	.cq_poll = fake_cq_poll,
	.reg_mr = fake_reg_mr,
	.dereg_mr = fake_dereg_mr,
	.alloc_mw = fake_alloc_mw,
	.dealloc_mw = fake_dealloc_mw,
	.post_recv = fake_post_recv,
	.post_send = fake_post_send,
};
