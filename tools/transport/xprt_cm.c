/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * xprt_cm.c - a connection's life over rdma_cm: its control block and
 * resources (one RC queue pair: V1 §3.2.2 asks for reliable, in-order),
 * the CM events (address and route resolved, our RFC 8797 private data in
 * the connect, the peer's read from the request and sent with the accept,
 * established, rejected, unreachable, disconnected), the errors a user can
 * act on (unreachable, refused, rejected, timed out), orderly and
 * disorderly disconnects, a fatal mark acted on, and the teardown.  The
 * public connect and listen, which drive these events by running the loop,
 * are in xprt_connect.c.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include "xprt_int.h"

struct xprt *xprt_conn_new(struct xprt_loop *l, const struct xprt_opts *o,
			     const struct xprt_handlers *h, bool server)
{
	struct xprt *x = calloc(1, sizeof(*x));

	if (!x)
		return NULL;
	x->l = l;
	xprt_opts_copy(&x->o, x->host, sizeof(x->host), x->port, sizeof(x->port), o);
	if (h)
		x->h = *h;
	x->server = server;
	x->vlow = (x->o.versions & XPRT_V1) ? 1 : 2;
	x->vhigh = (x->o.versions & XPRT_V2) ? 2 : 1;
	x->vers = server ? 0 : x->vhigh;
	xprt_credits_init(x);
	x->next_xid = l->xid_seed += 0x9e3779b9u;
	x->next = l->conns;
	l->conns = x;
	l->nconns++;
	return x;
}

/* QP, buffers, tables: everything a connection needs before it connects */
static int conn_resources(struct xprt *x, struct xprt_error *err)
{
	const struct xprt_verbs *v = x->l->v;
	struct xv_qp_caps caps;
	uint32_t c = x->o.credits;

	if (v->query_device(x->id, &x->dev)) {
		xprt_err(err, XPRT_E_RESOURCE, errno, "ibv_query_device: %s",
			 strerror(errno));
		return -1;
	}
	snprintf(x->peer.device, sizeof(x->peer.device), "%s", x->dev.name);
	x->use_mw = x->o.remote_invalidate && x->dev.has_mw;
	/* Receives: the forward and backward credits, and some slack */
	x->nrecv = 2 * c + 4;
	x->nsend = 2 * c + 4;
	x->rsize = x->o.inline_recv;
	x->ssize = x->o.inline_send;
	x->sq_depth = x->nsend * (XPRT_MAX_SEGS + 2);
	if (x->dev.max_qp_wr && x->sq_depth > x->dev.max_qp_wr)
		x->sq_depth = x->dev.max_qp_wr;
	if (x->dev.max_qp_wr && x->nrecv > x->dev.max_qp_wr)
		x->nrecv = x->dev.max_qp_wr;
	caps = (struct xv_qp_caps){ .max_send_wr = x->sq_depth,
				    .max_recv_wr = x->nrecv,
				    .max_send_sge = x->dev.max_sge < 2 ? 1 : 2,
				    .max_rd_atomic = x->dev.max_qp_rd_atom };
	x->ncalls = c;
	x->nrcvd = c + 4;
	x->calls = calloc(x->ncalls, sizeof(*x->calls));
	x->rcvd = calloc(x->nrcvd, sizeof(*x->rcvd));
	if (!x->calls || !x->rcvd) {
		xprt_err(err, XPRT_E_RESOURCE, ENOMEM, "out of memory");
		return -1;
	}
	if (v->qp_create(x->id, &caps)) {
		xprt_err(err, XPRT_E_RESOURCE, errno,
			 "rdma_create_qp on %s (%u send, %u receive WRs): %s",
			 x->dev.name, caps.max_send_wr, caps.max_recv_wr,
			 strerror(errno));
		return -1;
	}
	if (xprt_bufs_create(x)) {
		int e = errno;
		struct rlimit rl;
		char hint[120] = "";

		/* ENOMEM from ibv_reg_mr is most often the locked-memory
		 * limit: siw charges every registration to it, even root's */
		if ((e == ENOMEM || e == EAGAIN || e == EPERM) &&
		    !getrlimit(RLIMIT_MEMLOCK, &rl) && rl.rlim_cur != RLIM_INFINITY)
			snprintf(hint, sizeof(hint), " (the locked-memory limit, "
				 "RLIMIT_MEMLOCK, is %llu KiB: raise it with ulimit -l)",
				 (unsigned long long)rl.rlim_cur / 1024);
		xprt_err(err, XPRT_E_RESOURCE, e,
			 "registering %u receive and %u send buffers: %s%s",
			 x->nrecv, x->nsend, strerror(e), hint);
		return -1;
	}
	return 0;
}

/* ours: inline sizes, and remote invalidation when our chunks go through
 * memory windows (a region from ibv_reg_mr cannot be invalidated by the
 * peer: spec-decisions D-XPRT-6) */
static void conn_param(const struct xprt *x, struct xv_conn_param *p,
		       uint8_t pd[RPCRDMA_CM_PRIVATE_SIZE])
{
	struct rpcrdma_cm_private ours = {
		.pd_flags = x->use_mw ? RPCRDMA_CM_FLAG_REMOTE_INVALIDATE : 0,
		.max_send_size = x->o.inline_send,
		.max_recv_size = x->o.inline_recv,
	};
	uint8_t rd = (uint8_t)(x->dev.max_qp_rd_atom > 16 ? 16 :
			       x->dev.max_qp_rd_atom);

	memset(p, 0, sizeof(*p));
	if (!x->o.no_private_data) {
		rpcrdma_cm_private_encode(&ours, pd, RPCRDMA_CM_PRIVATE_SIZE);
		p->pdata = pd;
		p->pdata_len = RPCRDMA_CM_PRIVATE_SIZE;
	}
	p->responder_resources = p->initiator_depth = rd ? rd : 1;
	p->retry_count = 7;
	p->rnr_retry_count = 7;
}

static void peer_private(struct xprt *x, const struct xv_event *ev)
{
	x->peer.has_private_data =
		rpcrdma_cm_private_decode(ev->pdata, ev->pdata_len,
					  &x->peer.priv) == RPCRDMA_CM_OK;
	x->peer_inv = x->peer.has_private_data &&
		      (x->peer.priv.pd_flags & RPCRDMA_CM_FLAG_REMOTE_INVALIDATE);
	xprt_update_thresholds(x);
}

void xprt_conn_failed(struct xprt *x, enum xprt_errcode c, int sys,
		      const char *fmt, ...)
{
	va_list ap;
	int n;

	x->cerr.code = c;
	x->cerr.sys_errno = sys;
	n = snprintf(x->cerr.msg, sizeof(x->cerr.msg), "%s: ", x->target);
	if (n < 0 || (size_t)n >= sizeof(x->cerr.msg))
		n = 0;
	va_start(ap, fmt);
	vsnprintf(x->cerr.msg + n, sizeof(x->cerr.msg) - (size_t)n, fmt, ap);
	va_end(ap);
	xprt_teardown(x);
}

/* Over iWARP, rdma_connect() itself fails with ECONNREFUSED when nothing
 * listens (siw answers the TCP SYN with a reset); the connect reports it
 * as unreachable while it tries the host's other addresses, and as
 * "refused" when none answered (the code the user and the tools' exit
 * statuses see) */
void xprt_cm_refused(struct xprt_error *e)
{
	if (e->code == XPRT_E_UNREACHABLE && e->sys_errno == ECONNREFUSED)
		e->code = XPRT_E_REFUSED;
}

static void on_established(struct xprt *x, const struct xv_event *ev)
{
	struct sockaddr_storage peer;

	if (x->state != X_RESOLVING && x->state != X_ACCEPTING)
		return;              /* a server's first Receive came first */
	x->l->v->addrs(x->id, NULL, &peer);
	xprt_format_addr(&peer, x->peer.addr, sizeof(x->peer.addr));
	if (!x->server && ev)
		peer_private(x, ev);
	x->state = X_CONNECTED;
	xprt_trace(x, "established on %s, peer private data %s, inline send %u recv %u, "
		   "remote invalidation: we accept %s, the peer %s",
		   x->peer.device, x->peer.has_private_data ? "yes" : "none",
		   x->peer.inline_send, x->peer.inline_recv,
		   x->use_mw ? "yes" : "no", x->peer_inv ? "yes" : "no");
	if (x->server) {
		x->l->accepted++;
		x->announced = true;
		if (x->h.on_connect) {
			x->busy++;
			x->h.on_connect(x, x->h.arg);
			x->busy--;
		}
	}
}

/* A server's first Receive can complete before rdma_cm reports the
 * connection established (the client may Send as soon as it has the
 * accept): the connection is established then. */
void xprt_established_early(struct xprt *x)
{
	if (!x->server || x->state != X_ACCEPTING)
		return;
	on_established(x, NULL);
	/* and the CM told so: an IB CM that has not handled the client's
	 * RTU yet (lost, or behind the first Send under load) is still in
	 * REP_SENT, where a disconnect sends no DREQ: a connection we drop
	 * would stay up at the client, which waits for an answer forever.
	 * EISCONN (the RTU came meanwhile) is no error. */
	if (x->l->v->notify_established && x->l->v->notify_established(x->id) &&
	    errno != EISCONN)
		xprt_trace(x, "rdma_notify(IBV_EVENT_COMM_EST): %s", strerror(errno));
}

static void on_rejected(struct xprt *x, const struct xv_event *ev)
{
	/* IB CM: no listener is "invalid service id"; iWARP: a TCP reset
	 * (refused, no private data) or an MPA reject */
	if (ev->status == XV_REJ_INVALID_SERVICE_ID ||
	    (ev->status == -ECONNREFUSED && !ev->pdata_len))
		xprt_conn_failed(x, XPRT_E_REFUSED, ECONNREFUSED,
			    "connection refused (nothing listens on the port)");
	else
		xprt_conn_failed(x, XPRT_E_REJECTED, ECONNREFUSED,
			    "connection rejected by the peer (reason %d)",
			    ev->status);
}

static struct xprt_listener *listener_of(struct xprt_loop *l, const struct xv_id *id)
{
	struct xprt_listener *ls;

	for (ls = l->listeners; ls; ls = ls->next)
		if (ls->id == id)
			return ls;
	return NULL;
}

static void on_connect_request(struct xprt_loop *l, const struct xv_event *ev)
{
	struct xprt_listener *ls = listener_of(l, ev->listen_id);
	struct xprt_error err = { 0 };
	struct xv_conn_param p;
	uint8_t pd[RPCRDMA_CM_PRIVATE_SIZE];
	struct xprt *x = ls ? xprt_conn_new(l, &ls->o, &ls->h, true) : NULL;

	if (!x) {
		l->v->reject(ev->id, NULL, 0);
		l->v->destroy_id(ev->id);
		return;
	}
	x->id = ev->id;
	x->id->ctx = x;
	x->state = X_ACCEPTING;
	peer_private(x, ev);
	if (conn_resources(x, &err)) {
		/* never a silent refusal: the server's user must see the limit */
		struct sockaddr_storage peer = { 0 };
		char a[80] = "a peer";

		if (l->v->addrs(x->id, NULL, &peer) == 0 && peer.ss_family)
			xprt_format_addr(&peer, a, sizeof(a));
		fprintf(stderr, "rpcrdma: refusing a connection from %s: %s\n", a, err.msg);
		l->v->reject(ev->id, NULL, 0);
		xprt_teardown(x);
		return;
	}
	conn_param(x, &p, pd);
	if (l->v->accept(x->id, &p)) {
		xprt_trace(x, "rdma_accept: %s", strerror(errno));
		xprt_teardown(x);
	}
}

void xprt_cm_event(struct xprt_loop *l, const struct xv_event *ev)
{
	struct xprt *x;
	struct xv_conn_param p;
	struct xprt_error err = { 0 };
	uint8_t pd[RPCRDMA_CM_PRIVATE_SIZE];

	if (ev->type == XV_EV_CONNECT_REQUEST) {
		on_connect_request(l, ev);
		return;
	}
	if (!ev->id || listener_of(l, ev->id))
		return;              /* listeners: nothing else to do */
	x = ev->id->ctx;
	if (!x || x->state == X_DEAD)
		return;
	if (x->o.debug > 1)
		xprt_trace(x, "cm event %s status %d", xv_event_name(ev->type),
			   ev->status);
	switch (ev->type) {
	case XV_EV_ADDR_RESOLVED:
		if (l->v->resolve_route(x->id, x->o.timeout_ms))
			xprt_conn_failed(x, XPRT_E_UNREACHABLE, errno,
				    "rdma_resolve_route: %s", strerror(errno));
		break;
	case XV_EV_ADDR_ERROR:
		xprt_conn_failed(x, XPRT_E_UNREACHABLE, -ev->status,
			    "not reachable over RDMA (no RDMA device routes "
			    "there; rdma_resolve_addr status %d)", ev->status);
		break;
	case XV_EV_ROUTE_RESOLVED:
		if (conn_resources(x, &err)) {
			x->cerr = err;
			xprt_teardown(x);
			break;
		}
		conn_param(x, &p, pd);
		if (l->v->connect(x->id, &p))
			xprt_conn_failed(x, XPRT_E_UNREACHABLE, errno,
				    "rdma_connect: %s", strerror(errno));
		break;
	case XV_EV_ROUTE_ERROR:
		xprt_conn_failed(x, XPRT_E_UNREACHABLE, -ev->status,
			    "no route over RDMA (status %d)", ev->status);
		break;
	case XV_EV_ESTABLISHED:
		on_established(x, ev);
		break;
	case XV_EV_REJECTED:
		on_rejected(x, ev);
		break;
	case XV_EV_UNREACHABLE:
	case XV_EV_CONNECT_ERROR:
		if (ev->status == -ETIMEDOUT || ev->status == ETIMEDOUT)
			xprt_conn_failed(x, XPRT_E_TIMEOUT, ETIMEDOUT,
				    "no answer to the connection request (timed out)");
		else if (ev->status == -ECONNREFUSED)
			xprt_conn_failed(x, XPRT_E_REFUSED, ECONNREFUSED,
				    "connection refused");
		else
			xprt_conn_failed(x, XPRT_E_UNREACHABLE, -ev->status,
				    "unreachable over RDMA (status %d)", ev->status);
		break;
	case XV_EV_DISCONNECTED:
	case XV_EV_DEVICE_REMOVAL:
		if (x->state == X_CONNECTED)
			x->why = ev->type == XV_EV_DEVICE_REMOVAL ? XPRT_DISC_ERROR :
				 XPRT_DISC_PEER;
		if (x->state == X_CONNECTED || x->state == X_CLOSING)
			l->v->disconnect(x->id);
		xprt_teardown(x);
		break;
	default:
		break;
	}
}

/* -------- going away -------- */
/* the loop acts on a fatal mark (xprt_fatal): the connection, closing
 * since it was marked, is disconnected (or torn down when that fails) */
void xprt_cm_fatal_act(struct xprt *x)
{
	if (!x->fatal)
		return;
	x->fatal = false;
	if (x->state == X_CLOSING && x->l->v->disconnect(x->id))
		xprt_teardown(x);
}

void xprt_close(struct xprt *x)
{
	if (!x || x->state == X_DEAD || x->state == X_CLOSING)
		return;
	if (x->state == X_CONNECTED) {
		x->why = XPRT_DISC_LOCAL;
		x->state = X_CLOSING;
		if (x->l->v->disconnect(x->id) == 0)
			return;
	}
	x->why = XPRT_DISC_LOCAL;
	xprt_teardown(x);
}

void xprt_abort(struct xprt *x)
{
	if (!x || x->state == X_DEAD)
		return;
	x->why = XPRT_DISC_LOCAL;
	xprt_teardown(x);
}

/* Everything goes at once: the QP first (nothing completes after it), the
 * memory, then the id; calls fail, on_disconnect runs, the struct is
 * freed by the loop once no callback holds it. */
void xprt_teardown(struct xprt *x)
{
	enum xstate was = x->state;
	const struct xprt_verbs *v = x->l->v;

	if (was == X_DEAD)
		return;
	x->state = X_DEAD;
	x->busy++;
	/* V2 §5.2: the first V2 message lost with the connection */
	if (!x->server && x->vers == RPCRDMA_VERSION_TWO && !x->vers_settled &&
	    x->st.calls_sent && x->vlow == RPCRDMA_VERSION_ONE &&
	    (was == X_CONNECTED || was == X_CLOSING)) {
		x->peer.v2_dropped = true;
		xprt_remember_version(x, RPCRDMA_VERSION_ONE, true);
	}
	if (x->id)
		v->qp_destroy(x->id);        /* nothing completes after this */
	xprt_calls_fail_all(x, XPRT_E_DISCONNECTED, "the connection went away");
	xprt_rcvd_release_all(x);
	if (x->id) {
		xprt_bufs_destroy(x);
		xprt_mems_release_all(x);
		v->destroy_id(x->id);
		x->id = NULL;
	}
	if ((x->announced || (!x->server && (was == X_CONNECTED || was == X_CLOSING))) &&
	    !x->disc_reported) {
		x->disc_reported = true;
		if (x->h.on_disconnect)
			x->h.on_disconnect(x, x->why, x->h.arg);
	}
	xprt_stats_retire(x);
	x->busy--;
	x->defer_free = true;
	x->l->ndead++;
}
