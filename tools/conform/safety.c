/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * safety.c - the rule that keeps rpcrdma-conform off production servers:
 * without --yes it runs only against addresses the test bed uses, that is
 * the benchmarking ranges 198.18.0.0/15 (RFC 2544, tests/live) and
 * 2001:2::/48 (RFC 5180), and loopback (127.0.0.0/8, ::1).  A host name
 * qualifies when every address it resolves to does.
 */
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include "safety.h"

bool cf_addr_is_testbed(const struct sockaddr *sa)
{
	if (sa->sa_family == AF_INET) {
		const struct sockaddr_in *s4 = (const struct sockaddr_in *)(const void *)sa;
		uint32_t a = ntohl(s4->sin_addr.s_addr);

		return (a & 0xfffe0000u) == 0xc6120000u ||  /* 198.18.0.0/15 */
		       (a & 0xff000000u) == 0x7f000000u;    /* 127.0.0.0/8 */
	}
	if (sa->sa_family == AF_INET6) {
		const struct sockaddr_in6 *s6 = (const struct sockaddr_in6 *)(const void *)sa;
		const uint8_t *b = s6->sin6_addr.s6_addr;
		static const uint8_t bench[6] = { 0x20, 0x01, 0x00, 0x02, 0x00, 0x00 };

		if (IN6_IS_ADDR_LOOPBACK(&s6->sin6_addr) || !memcmp(b, bench, sizeof(bench)))
			return true;
		if (IN6_IS_ADDR_V4MAPPED(&s6->sin6_addr)) {
			struct sockaddr_in s4;

			memset(&s4, 0, sizeof(s4));
			s4.sin_family = AF_INET;
			memcpy(&s4.sin_addr, b + 12, 4);
			return cf_addr_is_testbed((const struct sockaddr *)(const void *)&s4);
		}
	}
	return false;
}

int cf_host_is_testbed(const char *host, char *why, size_t cap)
{
	struct addrinfo hints, *res, *ai;
	int rc;

	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	rc = getaddrinfo(host, NULL, &hints, &res);
	if (rc) {
		snprintf(why, cap, "%s: %s", host, gai_strerror(rc));
		return -1;
	}
	rc = 1;
	for (ai = res; ai && rc; ai = ai->ai_next)
		if (!cf_addr_is_testbed(ai->ai_addr))
			rc = 0;
	freeaddrinfo(res);
	if (!rc)
		snprintf(why, cap, "%s is outside the test bed's addresses (198.18.0.0/15, "
			 "2001:2::/48, loopback)", host);
	return rc;
}
