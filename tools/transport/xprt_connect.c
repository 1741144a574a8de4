/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * xprt_connect.c - the public connect and listen.  Connect: the host
 * resolved, each address tried (a new cm_id when iWARP's rdma_connect finds
 * its port held by a host TCP socket, EADDRINUSE), the loop run until the
 * connection is established, refused or timed out (the CM events are
 * handled in xprt_cm.c), the version a reconnect starts with recalled
 * (xprt_params.c).  Listen: one listener per address, the wildcard on the
 * IPv6 address that takes IPv4 too, else on IPv4's.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "xprt_int.h"

/* -------- client -------- */
#define CONNECT_ADDRINUSE_TRIES 5
/* connection requests the RDMA stack itself gave up on (siw's timer for the
 * MPA Reply, IB CM's REQ retries) made again, while the connect timeout
 * lasts: at most this many in all */
#define CONNECT_TIMEDOUT_TRIES 16

static struct xprt *connect_one(struct xprt_loop *l, const struct xprt_opts *o,
				const struct xprt_handlers *h,
				const struct addrinfo *ai, uint64_t end,
				struct xprt_error *err)
{
	struct xprt *x = xprt_conn_new(l, o, h, false);

	if (!x) {
		xprt_err(err, XPRT_E_RESOURCE, ENOMEM, "out of memory");
		return NULL;
	}
	snprintf(x->key, sizeof(x->key), "%s:%s", x->host, x->port);
	xprt_recall_version(x);
	memcpy(x->target, x->key, sizeof(x->target) < sizeof(x->key) ? sizeof(x->target) : sizeof(x->key));
	x->state = X_RESOLVING;
	x->busy++;
	x->id = l->v->create_id(l->ch, x);
	if (!x->id)
		xprt_conn_failed(x, XPRT_E_RESOURCE, errno, "rdma_create_id: %s",
			    strerror(errno));
	else if (l->v->resolve_addr(x->id, ai->ai_addr, x->o.timeout_ms))
		xprt_conn_failed(x, errno == ENODEV ? XPRT_E_NODEV : XPRT_E_UNREACHABLE,
			    errno, "rdma_resolve_addr: %s", strerror(errno));
	while (x->state == X_RESOLVING || x->state == X_CONNECTING) {
		uint64_t now = xprt_now_ns();

		if (now >= end) {
			xprt_conn_failed(x, XPRT_E_TIMEOUT, ETIMEDOUT,
				    "connecting timed out after %d ms", x->o.timeout_ms);
			break;
		}
		if (xprt_loop_once(l, (int)((end - now) / 1000000u + 1)) < 0)
			xprt_conn_failed(x, XPRT_E_RESOURCE, errno, "poll: %s",
				    strerror(errno));
	}
	x->busy--;
	if (x->state == X_CONNECTED)
		return x;
	*err = x->cerr;
	return NULL;
}

struct xprt *xprt_connect_opts(struct xprt_loop *l, const struct xprt_opts *o,
			       const struct xprt_handlers *h,
			       struct xprt_error *err)
{
	struct addrinfo hints, *res = NULL, *ai;
	struct xprt_error e = { 0 };
	struct xprt *x = NULL;
	const char *port;
	int rc;

	if (!o)
		o = &l->o;
	if (!o->host || !*o->host) {
		xprt_err(err, XPRT_E_USAGE, EINVAL, "no host to connect to");
		return NULL;
	}
	port = o->port ? o->port : XPRT_DEFAULT_PORT;
	memset(&hints, 0, sizeof(hints));
	hints.ai_family = o->family;
	hints.ai_socktype = SOCK_STREAM;
	rc = getaddrinfo(o->host, port, &hints, &res);
	if (rc) {
		xprt_err(err, XPRT_E_RESOURCE, 0, "%s: %s", o->host, gai_strerror(rc));
		err->code = XPRT_E_RESOLVE;
		return NULL;
	}
	l->depth++;
	for (ai = res; ai && !x; ai = ai->ai_next) {
		if (ai->ai_family != AF_INET && ai->ai_family != AF_INET6)
			continue;
		/* iWARP: the port rdma_cm chose for us may be held by a TCP
		 * socket of the host (one in TIME_WAIT after an earlier
		 * connection): rdma_connect says EADDRINUSE; a new identifier
		 * gets a new port */
		uint64_t t0 = xprt_now_ns(), tn = t0;
		uint64_t end = t0 + (uint64_t)(o->timeout_ms > 0 ? o->timeout_ms
						  : XPRT_DEFAULT_TIMEOUT_MS) * 1000000u;
		for (int tries = 0, again = 0; tries < CONNECT_ADDRINUSE_TRIES;
		     tries++) {
			x = connect_one(l, o, h, ai, end, &e);
			if (x)
				break;
			if (e.sys_errno == EADDRINUSE)
				continue;
			/* the stack timed out before the connect timeout
			 * did (a loaded peer that accepts late): again,
			 * said on standard error, never silently */
			uint64_t now = xprt_now_ns();
			if (e.code != XPRT_E_TIMEOUT || now >= end ||
			    ++again >= CONNECT_TIMEDOUT_TRIES)
				break;
			fprintf(stderr, "rpcrdma: %s: no answer to the "
				"connection request after %.1f s (the RDMA "
				"stack gave up on it); connecting again (%d) "
				"within the connect timeout\n", o->host,
				(double)(now - tn) / 1e9, again);
			tn = now;
			tries--;
		}
		if (x)
			break;
		/* another address may route where this one did not */
		if (!x && e.code != XPRT_E_UNREACHABLE)
			break;
	}
	l->depth--;
	freeaddrinfo(res);
	xprt_cm_refused(&e);
	if (!x && err)
		*err = e.code ? e : (struct xprt_error){ XPRT_E_RESOLVE, 0,
							 "no IPv4 or IPv6 address" };
	return x;
}

struct xprt *xprt_connect(struct xprt_loop *l, const struct xprt_handlers *h,
			  struct xprt_error *err)
{
	return xprt_connect_opts(l, NULL, h, err);
}

/* -------- server -------- */
/* rdma_cm answers EADDRNOTAVAIL both for an address no RDMA device has and
 * for a port another RDMA listener holds (the kernel's NFS server on 20049:
 * issue 30 item 1).  The same address with port 0 tells them apart: when
 * that listens, the address is fine and the port is taken.  The port, or 0
 * when the address is at fault (or the test could not be made). */
static unsigned listen_port_taken(struct xprt_loop *l, struct xprt_listener *ls,
				  const struct addrinfo *ai)
{
	struct sockaddr_storage ss;
	in_port_t *port;
	unsigned taken;

	if (ai->ai_addrlen > sizeof(ss))
		return 0;
	memset(&ss, 0, sizeof(ss));
	memcpy(&ss, ai->ai_addr, ai->ai_addrlen);
	if (ss.ss_family == AF_INET)
		port = &((struct sockaddr_in *)(void *)&ss)->sin_port;
	else if (ss.ss_family == AF_INET6)
		port = &((struct sockaddr_in6 *)(void *)&ss)->sin6_port;
	else
		return 0;
	taken = ntohs(*port);
	*port = 0;
	struct xv_id *id = taken ? l->v->create_id(l->ch, ls) : NULL;
	if (!id)
		return 0;
	if (l->v->listen(id, (struct sockaddr *)&ss, 1) != 0)
		taken = 0;
	l->v->destroy_id(id);
	return taken;
}

static int listen_on(struct xprt_loop *l, struct xprt_listener *ls,
		     const struct addrinfo *ai, struct xprt_error *err)
{
	char a[80];

	ls->id = l->v->create_id(l->ch, ls);
	if (!ls->id) {
		xprt_err(err, XPRT_E_RESOURCE, errno, "rdma_create_id: %s",
			 strerror(errno));
		return -1;
	}
	if (l->v->listen(ls->id, ai->ai_addr, ls->o.backlog) == 0)
		return 0;
	xprt_format_addr((const struct sockaddr_storage *)(const void *)ai->ai_addr, a,
		    sizeof(a));
	unsigned taken;
	if (errno == EADDRINUSE)
		xprt_err(err, XPRT_E_RESOURCE, errno, "%s: port in use", a);
	else if (errno == EADDRNOTAVAIL && (taken = listen_port_taken(l, ls, ai)))
		xprt_err(err, XPRT_E_RESOURCE, EADDRINUSE, "%s: port %u is in use%s",
			 a, taken, taken == 20049 ? " (the kernel's NFS server?)" : "");
	else if (errno == EADDRNOTAVAIL || errno == ENODEV)
		xprt_err(err, XPRT_E_UNREACHABLE, errno,
			 "%s: no RDMA device has this address: %s", a, strerror(errno));
	else
		xprt_err(err, XPRT_E_RESOURCE, errno, "rdma_listen %s: %s", a,
			 strerror(errno));
	l->v->destroy_id(ls->id);
	ls->id = NULL;
	return -1;
}

/* No address and no family: one listener per family on its wildcard, as the
 * kernel's NFS server does (svcrdma: AF_INET 0.0.0.0 and AF_INET6 :: with
 * rdma_set_afonly(1)).  A single IPv6 wildcard that also takes IPv4 does not
 * work over iWARP: siw listens with a TCP socket per device, bound to ::, and
 * rdma_cm then rejects the IPv4 client whose address arrives v4-mapped
 * (the client sees a reject, reason -104).  IPv4 must listen; IPv6 may be
 * missing from the kernel or the resolver, nothing else is forgiven. */
static int listen_wildcards(struct xprt_loop *l, const struct xprt_opts *o,
			    const struct xprt_handlers *h, struct xprt_error *err)
{
	struct xprt_opts fo = *o;
	struct xprt_error e6 = { 0 };
	struct xprt_listener *v4;

	fo.family = AF_INET;
	if (xprt_listen_opts(l, &fo, h, err))
		return -1;
	v4 = l->listeners;
	fo.family = AF_INET6;
	if (xprt_listen_opts(l, &fo, h, &e6) == 0 || e6.sys_errno == EAFNOSUPPORT ||
	    e6.code == XPRT_E_RESOLVE)
		return 0;
	l->listeners = v4->next;
	l->v->destroy_id(v4->id);
	free(v4);
	if (err)
		*err = e6;
	return -1;
}

int xprt_listen_opts(struct xprt_loop *l, const struct xprt_opts *o,
		     const struct xprt_handlers *h, struct xprt_error *err)
{
	struct xprt_listener *ls;
	struct addrinfo hints, *res = NULL, *ai;
	int rc;

	if (!o)
		o = &l->o;
	if (!o->host && o->family == AF_UNSPEC)
		return listen_wildcards(l, o, h, err);
	ls = calloc(1, sizeof(*ls));
	if (!ls) {
		xprt_err(err, XPRT_E_RESOURCE, ENOMEM, "out of memory");
		return -1;
	}
	xprt_opts_copy(&ls->o, ls->host, sizeof(ls->host), ls->port,
		       sizeof(ls->port), o);
	if (h)
		ls->h = *h;
	memset(&hints, 0, sizeof(hints));
	hints.ai_family = ls->o.family;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_PASSIVE;
	rc = getaddrinfo(ls->o.host, ls->o.port, &hints, &res);
	if (rc) {
		xprt_err(err, XPRT_E_RESOLVE, 0, "%s: %s",
			 ls->o.host ? ls->o.host : "*", gai_strerror(rc));
		free(ls);
		return -1;
	}
	rc = -1;
	for (ai = res; ai && rc; ai = ai->ai_next)
		rc = listen_on(l, ls, ai, err);
	freeaddrinfo(res);
	if (rc) {
		free(ls);
		return -1;
	}
	ls->next = l->listeners;
	l->listeners = ls;
	return 0;
}

int xprt_listen(struct xprt_loop *l, const struct xprt_handlers *h,
		struct xprt_error *err)
{
	return xprt_listen_opts(l, NULL, h, err);
}
