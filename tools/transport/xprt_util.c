/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * xprt_util.c - the small helpers every room of the transport uses and
 * that call none of them: errors a user can act on (xprt_err), the debug
 * trace (xprt_trace), the options with their
 * defaults filled in (xprt_opts_copy), addresses as text, and the fatal
 * mark (xprt_fatal): a connection marked is closing at once (nothing more
 * is sent or handled on it), and the loop carries the disconnect out
 * (xprt_cm_fatal_act) as soon as the completion that marked it returns.
 * The clock, xprt_now_ns(), is a static inline of xprt_int.h (read five
 * times a round trip).
 */
#include <arpa/inet.h>
#include <stdarg.h>
#include <string.h>
#include <time.h>
#include "xprt_int.h"

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

/* A fatal error on a connection: marked here, acted on by the loop (the
 * disconnect: xprt_cm_fatal_act), so that no room below the loop calls
 * back up into the connection manager. */
void xprt_fatal(struct xprt *x, const char *why)
{
	if (x->state != X_CONNECTED)
		return;
	xprt_trace(x, "closing after a fatal error: %s", why);
	x->why = XPRT_DISC_ERROR;
	x->state = X_CLOSING;
	x->fatal = true;
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
		to->timeout_ms = XPRT_DEFAULT_TIMEOUT_MS;
	if (!to->max_message)
		to->max_message = XPRT_DEFAULT_MAX_MESSAGE;
	/* iWARP's connection manager sets aside one event slot per backlog
	 * entry of a listener, and a request that finds none left is not
	 * handed up (drivers/infiniband/core/iwcm.c, iw_cm_listen and
	 * cm_event_handler): with 64, a burst of clients over siw (64 at
	 * once and more, the soak's 200) can lose requests, which the client
	 * sees time out.  IB CM keeps no such limit. */
	if (!to->backlog)
		to->backlog = 1024;
	if (!to->verbs)
		to->verbs = &xprt_verbs_rdma;
}

/* "198.18.0.1:20049", "[fe80::1]:20049" */
void xprt_format_addr(const struct sockaddr_storage *ss, char *buf, size_t cap)
{
	char a[INET6_ADDRSTRLEN] = "?";

	if (ss->ss_family == AF_INET) {
		const struct sockaddr_in *s = (const void *)ss;

		inet_ntop(AF_INET, &s->sin_addr, a, sizeof(a));
		snprintf(buf, cap, "%s:%u", a, ntohs(s->sin_port));
	} else if (ss->ss_family == AF_INET6) {
		const struct sockaddr_in6 *s = (const void *)ss;

		inet_ntop(AF_INET6, &s->sin6_addr, a, sizeof(a));
		snprintf(buf, cap, "[%s]:%u", a, ntohs(s->sin6_port));
	} else {
		snprintf(buf, cap, "?");
	}
}
