/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * req_mount.c - MOUNT v3 (RFC 1813 Appendix I) over TCP for rpcrdma-conform
 * --requester: the MOUNT protocol is not carried by RPC-over-RDMA, so the
 * Linux client mounts with mountproto=tcp,mountport=M.  RFC 5531 §11
 * record marking: each fragment a 4-byte header (last-fragment bit, 31-bit
 * length); a record over CF_REQ_MOUNT_REC bytes closes the connection (no
 * allocation in proportion to a length from the wire).  Calls answered by
 * tools/ulb/nfs3_serve.c; non-blocking sockets polled from the serve loop.
 */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "be.h"
#include "req.h"

static int nonblock(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	return fl < 0 ? -1 : fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

int cf_req_mount_open(struct cf_req_mount *m, const char *host, const char *port,
		      char *why, size_t whylen)
{
	struct addrinfo hints, *res = NULL, *ai;
	int i, rc, one = 1, n = 0, err = 0;

	for (i = 0; i < CF_REQ_MOUNT_CONNS; i++)
		m->cfd[i] = -1;
	m->lfd[0] = m->lfd[1] = -1;
	memset(&hints, 0, sizeof(hints));
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
	rc = getaddrinfo(host, port, &hints, &res);
	if (rc) {
		snprintf(why, whylen, "MOUNT port %s%s%s: %s", host ? host : "", host ? ":" : "",
			 port, gai_strerror(rc));
		return -1;
	}
	for (ai = res; ai && n < 2; ai = ai->ai_next) {
		int fd = socket(ai->ai_family, ai->ai_socktype, 0);

		if (fd < 0)
			continue;
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (ai->ai_family == AF_INET6)   /* the IPv4 listener is separate */
			setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one));
		if (bind(fd, ai->ai_addr, ai->ai_addrlen) < 0 || listen(fd, 16) < 0 ||
		    nonblock(fd) < 0) {
			err = errno;
			close(fd);
			continue;
		}
		m->lfd[n++] = fd;
	}
	freeaddrinfo(res);
	if (!n) {
		snprintf(why, whylen, "MOUNT over TCP, port %s: %s", port,
			 strerror(err ? err : EADDRNOTAVAIL));
		return -1;
	}
	return 0;
}

static void drop(struct cf_req_mount *m, int i)
{
	close(m->cfd[i]);
	m->cfd[i] = -1;
	m->have[i] = m->body[i] = m->frag_left[i] = 0;
	m->last[i] = m->in_hdr[i] = false;
}

/* one whole record in rec[4..]: answer it, record-marked, then forget it */
static void answer(struct cf_req_mount *m, int i, uint32_t len)
{
	uint8_t out[4 + 512];
	struct nfs3_served s;
	size_t n = nfs3_serve(m->rec[i] + 4, len, out + 4, sizeof(out) - 4, &s);
	ssize_t w;

	m->have[i] = 0;
	if (!n) {
		m->counts->not_rpc++;
		return;
	}
	if (s.prog == MOUNT3_PROG && s.proc < 6)
		m->counts->mount[s.proc]++;
	else
		m->counts->mount_other++;
	be32_put(out, 0x80000000u | (uint32_t)n);
	/* a reply of a few hundred bytes: the socket's buffer takes it whole */
	w = send(m->cfd[i], out, n + 4, MSG_NOSIGNAL);
	if (w != (ssize_t)(n + 4))
		drop(m, i);
}

/* reads what client i sent: fragment headers and bodies into rec[4..];
 * rec[0..3] holds the header of the fragment being read */
static void readable(struct cf_req_mount *m, int i)
{
	uint8_t *r = m->rec[i];
	uint32_t *body = m->body, *frag_left = m->frag_left;
	bool *last = m->last, *in_hdr = m->in_hdr;
	ssize_t got;

	for (;;) {
		if (!in_hdr[i] && !frag_left[i]) {         /* a fragment header next */
			m->have[i] = 0;
			in_hdr[i] = true;
		}
		if (in_hdr[i]) {
			got = recv(m->cfd[i], r + m->have[i], 4 - m->have[i], 0);
			if (got <= 0)
				break;
			m->have[i] += (uint32_t)got;
			if (m->have[i] < 4)
				continue;
			in_hdr[i] = false;
			last[i] = be32_get(r) >> 31;
			frag_left[i] = be32_get(r) & 0x7fffffffu;
			m->have[i] = 0;
			if (frag_left[i] > CF_REQ_MOUNT_REC - body[i]) {
				drop(m, i);
				return;
			}
			if (frag_left[i])
				continue;
		} else {
			got = recv(m->cfd[i], r + 4 + body[i], frag_left[i], 0);
			if (got <= 0)
				break;
			body[i] += (uint32_t)got;
			frag_left[i] -= (uint32_t)got;
			if (frag_left[i])
				continue;
		}
		if (last[i]) {
			answer(m, i, body[i]);
			body[i] = 0;
			if (m->cfd[i] < 0)
				return;
		}
	}
	if (got == 0 || (got < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR))
		drop(m, i);
}

void cf_req_mount_poll(struct cf_req_mount *m, int ms)
{
	struct pollfd p[2 + CF_REQ_MOUNT_CONNS];
	int map[2 + CF_REQ_MOUNT_CONNS];
	int i, np = 0, fd;

	for (i = 0; i < 2; i++)
		if (m->lfd[i] >= 0) {
			p[np] = (struct pollfd){ m->lfd[i], POLLIN, 0 };
			map[np++] = -1 - i;
		}
	for (i = 0; i < CF_REQ_MOUNT_CONNS; i++)
		if (m->cfd[i] >= 0) {
			p[np] = (struct pollfd){ m->cfd[i], POLLIN, 0 };
			map[np++] = i;
		}
	if (!np || poll(p, (nfds_t)np, ms) <= 0)
		return;
	for (i = 0; i < np; i++) {
		if (!p[i].revents)
			continue;
		if (map[i] >= 0) {
			readable(m, map[i]);
			continue;
		}
		fd = accept(p[i].fd, NULL, NULL);
		if (fd < 0)
			continue;
		for (int k = 0; k < CF_REQ_MOUNT_CONNS; k++)
			if (m->cfd[k] < 0 && nonblock(fd) == 0) {
				m->cfd[k] = fd;
				m->have[k] = m->body[k] = m->frag_left[k] = 0;
				m->last[k] = m->in_hdr[k] = false;
				fd = -1;
				break;
			}
		if (fd >= 0)                  /* no room: the client retries */
			close(fd);
	}
}

void cf_req_mount_close(struct cf_req_mount *m)
{
	int i;

	for (i = 0; i < 2; i++)
		if (m->lfd[i] >= 0)
			close(m->lfd[i]);
	for (i = 0; i < CF_REQ_MOUNT_CONNS; i++)
		if (m->cfd[i] >= 0)
			close(m->cfd[i]);
	m->lfd[0] = m->lfd[1] = -1;
}
