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

static bool v4_ok(uint32_t a)
{
	return (a & 0xfffe0000u) == 0xc6120000u ||  /* 198.18.0.0/15 */
	       (a & 0xff000000u) == 0x7f000000u;    /* 127.0.0.0/8 */
}

bool cf_addr_is_testbed(const struct sockaddr *sa)
{
	sa_family_t fam;

	/* copies, not casts: struct sockaddr_in* must not alias the caller's
	 * struct sockaddr under strict aliasing */
	memcpy(&fam, &sa->sa_family, sizeof(fam));
	if (fam == AF_INET) {
		struct sockaddr_in s4;

		memcpy(&s4, sa, sizeof(s4));
		return v4_ok(ntohl(s4.sin_addr.s_addr));
	}
	if (fam == AF_INET6) {
		struct sockaddr_in6 s6;
		static const uint8_t bench[6] = { 0x20, 0x01, 0x00, 0x02, 0x00, 0x00 };
		const uint8_t *b = s6.sin6_addr.s6_addr;

		memcpy(&s6, sa, sizeof(s6));
		if (IN6_IS_ADDR_LOOPBACK(&s6.sin6_addr) || !memcmp(b, bench, sizeof(bench)))
			return true;
		if (IN6_IS_ADDR_V4MAPPED(&s6.sin6_addr))
			return v4_ok((uint32_t)b[12] << 24 | (uint32_t)b[13] << 16 |
				     (uint32_t)b[14] << 8 | b[15]);
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
