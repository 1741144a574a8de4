/* SPDX-License-Identifier: BSD-3-Clause */
/* safety.h - which targets rpcrdma-conform runs against without --yes
 * (safety.c, docs/conformance.md "Safety"). */
#ifndef RPCRDMA_CONFORM_SAFETY_H
#define RPCRDMA_CONFORM_SAFETY_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>

/* 198.18.0.0/15, 2001:2::/48, 127.0.0.0/8, ::1 (and v4-mapped forms) */
bool cf_addr_is_testbed(const struct sockaddr *sa);
/* 1: every address of host is a test-bed address; 0: one is not (why
 * says so); -1: it does not resolve (why says so) */
int cf_host_is_testbed(const char *host, char *why, size_t cap);

#endif
