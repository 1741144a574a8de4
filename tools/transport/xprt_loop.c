/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * xprt_loop.c - the transport's event loop, rping-shaped: one loop per
 * program, single threaded, over the rdma_cm event channel and every
 * connection's completion channel with poll(2) (xprt_opts.busy_poll: the
 * CQs are polled without sleeping).  CM events go to xprt_cm.c,
 * completions to xprt_completion.c; calls whose time is up end; a fatal
 * mark is acted on; connections that went away are freed here, after
 * their callbacks have returned.
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>
#include "xprt_int.h"

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
	l->ch_fd = l->v->chan_fd(l->ch);   /* the channel's for its life */
	l->stop_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	l->next_dl = UINT64_MAX;
	l->xid_seed = (uint32_t)(xprt_now_ns() ^ ((uint64_t)getpid() << 16));
	return l;
}

/* connections that went away are freed here, outside their callbacks */
static void reap(struct xprt_loop *l)
{
	struct xprt **pp = &l->conns, *x;

	if (l->depth > 1 || !l->ndead)
		return;
	while ((x = *pp)) {
		if (x->state == X_DEAD && x->defer_free && !x->busy) {
			*pp = x->next;
			l->nconns--;
			l->ndead--;
			xprt_bufs_destroy(x);
			xprt_mems_release_all(x);
			free(x->calls);
			free(x->rcvd);
			free(x->spare_xc);
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

/* One round: sleep in poll(2) for at most timeout_ms (0: do not sleep),
 * then CM events, completions, timeouts; frees what went away.  *clock
 * holds the time read just before (the poll's limit is counted from it)
 * and, on return, the time read after the completions (for the timeouts):
 * a loop_run() turn reads the clock once, not twice. */
static int loop_turn(struct xprt_loop *l, int timeout_ms, uint64_t *clock)
{
	struct pollfd stackfds[70], *fds = stackfds;
	struct xprt *stackwho[70], **who = stackwho, *x;
	struct xv_event ev;
	/* stop_fd, the CM channel, at most a CQ per connection */
	unsigned n = 0, cap = 2 + l->nconns, i;
	uint64_t now = *clock, dl, v;
	int rc, fd;

	/* on the stack unless there are many connections (the count began
	 * at 70, so that every turn of a loop with a connection allocated) */
	if (cap > 70) {
		fds = calloc(cap, sizeof(*fds));
		who = calloc(cap, sizeof(*who));
		if (!fds || !who) {
			free(fds);
			free(who);
			return -1;
		}
	}
	fds[n++] = (struct pollfd){ .fd = l->stop_fd, .events = POLLIN };
	fds[n++] = (struct pollfd){ .fd = l->ch_fd, .events = POLLIN };
	/* each CQ's fd with its connection beside it (who[]), for the
	 * dispatch below */
	for (x = l->conns; x; x = x->next)
		if (x->id && x->state != X_DEAD && (fd = l->v->cq_fd(x->id)) >= 0) {
			who[n] = x;
			fds[n++] = (struct pollfd){ .fd = fd, .events = POLLIN };
		}
	dl = l->next_dl;
	if (dl != UINT64_MAX) {
		uint64_t ms = dl > now ? (dl - now) / 1000000u + 1 : 0;

		if (timeout_ms < 0 || ms < (uint64_t)timeout_ms)
			timeout_ms = (int)ms;
	}
	if (l->o.busy_poll)
		timeout_ms = 0;
	rc = poll(fds, n, timeout_ms);
	if (rc < 0 && errno != EINTR) {
		if (fds != stackfds) {
			free(fds);
			free(who);
		}
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
	/* completion channels that woke: consume, re-arm (a CM event above
	 * may have ended the connection since); then every CQ */
	for (i = 2; i < n; i++)
		if (fds[i].revents && who[i]->id && who[i]->state != X_DEAD &&
		    l->v->cq_fd(who[i]->id) == fds[i].fd)
			l->v->cq_event(who[i]->id);
	for (x = l->conns; x; x = x->next)
		xprt_poll_cq(x);
	/* calls whose time is up end; the earliest deadline left is the
	 * next poll's limit (a call made meanwhile lowers it: xprt_call) */
	*clock = now = xprt_now_ns();
	l->next_dl = UINT64_MAX;
	for (x = l->conns; x; x = x->next) {
		if (x->state == X_CONNECTED && (x->nout || x->q_head) &&
		    (dl = xprt_calls_check_timeouts(x, now)) < l->next_dl)
			l->next_dl = dl;
		if (x->fatal)
			xprt_cm_fatal_act(x);
	}
	l->depth--;
	if (l->ndead)           /* a connection waits to be freed */
		reap(l);
	if (fds != stackfds) {
		free(fds);
		free(who);
	}
	return 0;
}

int xprt_loop_once(struct xprt_loop *l, int timeout_ms)
{
	uint64_t now = xprt_now_ns();

	return loop_turn(l, timeout_ms, &now);
}

int xprt_loop_run(struct xprt_loop *l, int timeout_ms)
{
	uint64_t now = xprt_now_ns();      /* then the one each turn reads */
	uint64_t end = timeout_ms < 0 ? UINT64_MAX :
		       now + (uint64_t)timeout_ms * 1000000u;

	for (;;) {
		int left;

		if (l->stop) {
			l->stop = 0;
			return 0;
		}
		if (now >= end)
			return 0;
		left = end == UINT64_MAX ? -1 :
		       (int)((end - now) / 1000000u + 1);
		if (loop_turn(l, left, &now) < 0)
			return -1;
	}
}
