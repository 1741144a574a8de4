/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * xprt_loop.c - the transport's event loop, rping-shaped: one loop per
 * program, single threaded, over the rdma_cm event channel and every
 * connection's completion channel with poll(2) (xprt_opts.busy_poll: the
 * CQs are polled without sleeping).  Completions are dispatched by the kind
 * in their wr_id; connections that went away are freed here, after their
 * callbacks have returned.
 */
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>
#include "xprt_int.h"

uint64_t xprt_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void xprt_err(struct xprt_error *e, enum xprt_errcode c, int sys,
	      const char *fmt, ...)
{
	va_list ap;

	if (!e)
		return;
	e->code = c;
	e->sys_errno = sys;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
}

void xprt_trace(const struct xprt *x, const char *fmt, ...)
{
	va_list ap;

	if (!x || x->o.debug <= 0)
		return;
	fprintf(stderr, "xprt %s: ", x->peer.addr[0] ? x->peer.addr : "-");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* the options, with their strings copied and the defaults filled in */
void xprt_opts_copy(struct xprt_opts *to, char *host, size_t hcap, char *port,
		    size_t pcap, const struct xprt_opts *from)
{
	*to = *from;
	host[0] = 0;
	if (from->host)
		snprintf(host, hcap, "%s", from->host);
	to->host = host[0] ? host : NULL;
	snprintf(port, pcap, "%s", from->port ? from->port : XPRT_DEFAULT_PORT);
	to->port = port;
	if (!(to->versions & (XPRT_V1 | XPRT_V2)))
		to->versions = XPRT_V1 | XPRT_V2;
	if (!to->credits)
		to->credits = XPRT_DEFAULT_CREDITS;
	if (to->credits > XPRT_MAX_CREDITS)
		to->credits = XPRT_MAX_CREDITS;
	if (!to->inline_recv)
		to->inline_recv = XPRT_DEFAULT_INLINE;
	if (!to->inline_send)
		to->inline_send = XPRT_DEFAULT_INLINE;
	if (to->inline_recv < 1024)
		to->inline_recv = 1024;
	if (to->inline_send < 1024)
		to->inline_send = 1024;
	if (!to->timeout_ms)
		to->timeout_ms = 5000;
	if (!to->max_message)
		to->max_message = XPRT_DEFAULT_MAX_MESSAGE;
	if (!to->backlog)
		to->backlog = 64;
	if (!to->verbs)
		to->verbs = &xprt_verbs_rdma;
}

struct xprt_loop *xprt_loop_create(const struct xprt_opts *o,
				   struct xprt_error *err)
{
	struct xprt_loop *l = calloc(1, sizeof(*l));
	int e;

	if (!l) {
		xprt_err(err, XPRT_E_RESOURCE, ENOMEM, "out of memory");
		return NULL;
	}
	xprt_opts_copy(&l->o, l->host, sizeof(l->host), l->port,
		       sizeof(l->port), o);
	l->v = l->o.verbs;
	l->stop_fd = -1;
	if (l->v->device_count() <= 0) {
		xprt_err(err, XPRT_E_NODEV, ENODEV,
			 "no RDMA device (for Soft-RoCE as root: modprobe rdma_rxe; "
			 "rdma link add rxe0 type rxe netdev eth0)");
		free(l);
		return NULL;
	}
	l->ch = l->v->chan_create();
	if (!l->ch) {
		e = errno;
		if (e == ENODEV || e == ENOENT)
			xprt_err(err, XPRT_E_NODEV, e,
				 "rdma_create_event_channel: %s (no RDMA CM: modprobe "
				 "rdma_ucm; for Soft-RoCE: rdma link add rxe0 type rxe "
				 "netdev eth0)", strerror(e));
		else
			xprt_err(err, XPRT_E_RESOURCE, e,
				 "rdma_create_event_channel: %s", strerror(e));
		free(l);
		return NULL;
	}
	l->stop_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	l->xid_seed = (uint32_t)(xprt_now_ns() ^ ((uint64_t)getpid() << 16));
	return l;
}

/* connections that went away are freed here, outside their callbacks */
static void reap(struct xprt_loop *l)
{
	struct xprt **pp = &l->conns, *x;

	if (l->depth > 1)
		return;
	while ((x = *pp)) {
		if (x->state == X_DEAD && x->defer_free && !x->busy) {
			*pp = x->next;
			xprt_bufs_destroy(x);
			free(x->calls);
			free(x->reqs);
			free(x);
			continue;
		}
		pp = &x->next;
	}
}

void xprt_loop_destroy(struct xprt_loop *l)
{
	struct xprt *x;
	struct xprt_listener *ls;

	if (!l)
		return;
	l->depth++;
	for (x = l->conns; x; x = x->next)
		if (x->state != X_DEAD) {
			x->why = XPRT_DISC_LOCAL;
			xprt_teardown(x);
		}
	while ((ls = l->listeners)) {
		l->listeners = ls->next;
		l->v->destroy_id(ls->id);
		free(ls);
	}
	l->depth = 0;
	for (x = l->conns; x; x = x->next)
		x->busy = 0;
	reap(l);
	l->v->chan_destroy(l->ch);
	if (l->stop_fd >= 0)
		close(l->stop_fd);
	free(l);
}

void xprt_loop_stop(struct xprt_loop *l)
{
	uint64_t one = 1;

	l->stop = 1;
	if (l->stop_fd >= 0 && write(l->stop_fd, &one, sizeof(one)) < 0) {
		/* the flag alone stops the loop at its next wake-up */
	}
}

static void dispatch_wc(struct xprt *x, const struct xv_wc *wc)
{
	unsigned kind = XW_KIND(wc->wr_id);
	uint32_t idx = XW_IDX(wc->wr_id);
	bool ok = wc->status == XV_WC_SUCCESS;

	if (kind == XW_RECV) {
		if (x->rq_posted)
			x->rq_posted--;
		if (idx < x->nrecv)
			xprt_recv_done(x, idx, wc);
		return;
	}
	if (x->sq_used)
		x->sq_used--;
	if (!ok && wc->status != XV_WC_WR_FLUSH_ERR) {
		char why[128];

		snprintf(why, sizeof(why), "%s: %s",
			 kind == XW_READ ? "RDMA Read" : kind == XW_WRITE ?
			 "RDMA Write" : kind == XW_LOCAL ? "local operation" : "Send",
			 xv_wc_status_name(wc->status));
		xprt_fatal(x, why);
	}
	switch (kind) {
	case XW_SEND:
	case XW_WRITE:
		if (idx < x->nsend && x->sends[idx].pending &&
		    !--x->sends[idx].pending)
			xprt_send_slot_put(x, (int)idx);
		break;
	case XW_READ:
		xprt_req_read_done(x, idx, ok);
		break;
	default:
		break;
	}
}

void xprt_poll_cq(struct xprt *x)
{
	struct xv_wc wc[16];
	int n, i;

	if (!x->id || x->state == X_DEAD)
		return;
	x->busy++;
	do {
		n = x->l->v->cq_poll(x->id, wc, 16);
		for (i = 0; i < n && x->state != X_DEAD; i++)
			dispatch_wc(x, &wc[i]);
	} while (n > 0 && x->state != X_DEAD);
	if (x->state == X_CONNECTED)
		xprt_send_queued(x);
	x->busy--;
}

static uint64_t next_deadline(const struct xprt_loop *l)
{
	const struct xprt *x;
	uint64_t d = UINT64_MAX, t;

	for (x = l->conns; x; x = x->next)
		if (x->state != X_DEAD && (t = xprt_calls_next_deadline(x)) < d)
			d = t;
	return d;
}

/* One round: sleep in poll(2) for at most timeout_ms (0: do not sleep),
 * then CM events, completions, timeouts; frees what went away. */
int xprt_loop_once(struct xprt_loop *l, int timeout_ms)
{
	struct pollfd stackfds[70], *fds = stackfds;
	struct xprt *x;
	struct xv_event ev;
	unsigned n = 0, cap = 70, i;
	uint64_t now, dl, v;
	int rc;

	for (x = l->conns; x; x = x->next)
		cap += x->id ? 1u : 0u;
	if (cap > 70 && !(fds = calloc(cap, sizeof(*fds))))
		return -1;
	fds[n++] = (struct pollfd){ .fd = l->stop_fd, .events = POLLIN };
	fds[n++] = (struct pollfd){ .fd = l->v->chan_fd(l->ch), .events = POLLIN };
	for (x = l->conns; x; x = x->next)
		if (x->id && x->state != X_DEAD && l->v->cq_fd(x->id) >= 0)
			fds[n++] = (struct pollfd){ .fd = l->v->cq_fd(x->id),
						    .events = POLLIN };
	dl = next_deadline(l);
	now = xprt_now_ns();
	if (dl != UINT64_MAX) {
		uint64_t ms = dl > now ? (dl - now) / 1000000u + 1 : 0;

		if (timeout_ms < 0 || ms < (uint64_t)timeout_ms)
			timeout_ms = (int)ms;
	}
	if (l->o.busy_poll)
		timeout_ms = 0;
	rc = poll(fds, n, timeout_ms);
	if (rc < 0 && errno != EINTR) {
		if (fds != stackfds)
			free(fds);
		return -1;
	}
	if (fds[0].revents && read(l->stop_fd, &v, sizeof(v)) < 0) {
		/* drained */
	}
	l->depth++;
	/* the CM channel only when poll says it holds events (level
	 * triggered: what one turn leaves, the next poll reports again);
	 * a busy-polling loop saves a read(2) per turn */
	if (rc > 0 && fds[1].revents)
		while (l->v->get_event(l->ch, &ev) == 0)
			xprt_cm_event(l, &ev);
	/* completion channels that woke: consume, re-arm; then every CQ */
	for (i = 2; i < n; i++)
		if (fds[i].revents)
			for (x = l->conns; x; x = x->next)
				if (x->id && x->state != X_DEAD &&
				    l->v->cq_fd(x->id) == fds[i].fd)
					l->v->cq_event(x->id);
	for (x = l->conns; x; x = x->next)
		xprt_poll_cq(x);
	now = xprt_now_ns();
	for (x = l->conns; x; x = x->next)
		if (x->state == X_CONNECTED)
			xprt_calls_check_timeouts(x, now);
	l->depth--;
	reap(l);
	if (fds != stackfds)
		free(fds);
	return 0;
}

int xprt_loop_run(struct xprt_loop *l, int timeout_ms)
{
	uint64_t end = timeout_ms < 0 ? UINT64_MAX :
		       xprt_now_ns() + (uint64_t)timeout_ms * 1000000u;

	for (;;) {
		uint64_t now;
		int left;

		if (l->stop) {
			l->stop = 0;
			return 0;
		}
		now = xprt_now_ns();
		if (now >= end)
			return 0;
		left = end == UINT64_MAX ? -1 :
		       (int)((end - now) / 1000000u + 1);
		if (xprt_loop_once(l, left) < 0)
			return -1;
	}
}

/* -------- stats and contexts -------- */
static void stats_add(struct xprt_stats *to, const struct xprt_stats *s)
{
	to->calls_sent += s->calls_sent;
	to->replies_received += s->replies_received;
	to->calls_received += s->calls_received;
	to->replies_sent += s->replies_sent;
	to->backward_calls_sent += s->backward_calls_sent;
	to->backward_calls_received += s->backward_calls_received;
	to->errors_sent += s->errors_sent;
	to->errors_received += s->errors_received;
	to->discarded += s->discarded;
	to->bytes_sent += s->bytes_sent;
	to->bytes_received += s->bytes_received;
	to->rdma_read_bytes += s->rdma_read_bytes;
	to->rdma_write_bytes += s->rdma_write_bytes;
	to->credit_waits += s->credit_waits;
	if (s->max_outstanding > to->max_outstanding)
		to->max_outstanding = s->max_outstanding;
}

void xprt_get_stats(const struct xprt *x, struct xprt_stats *s)
{
	*s = x->st;
}

void xprt_loop_get_stats(const struct xprt_loop *l, struct xprt_stats *s)
{
	const struct xprt *x;

	*s = l->closed;
	for (x = l->conns; x; x = x->next)
		if (x->state != X_DEAD)
			stats_add(s, &x->st);
	s->connections = l->accepted;
}

/* a connection's counts join the loop's when it goes */
void xprt_stats_retire(struct xprt *x)
{
	stats_add(&x->l->closed, &x->st);
}

void xprt_set_ctx(struct xprt *x, void *ctx)
{
	x->ctx = ctx;
}

void *xprt_get_ctx(const struct xprt *x)
{
	return x->ctx;
}

const struct xprt_peer_info *xprt_peer(const struct xprt *x)
{
	return &x->peer;
}
