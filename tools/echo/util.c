/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * util.c - what rpcrdma-echo's two modes share: names, the exit status
 * and message for a transport error (man/rpcrdma-echo.1, EXIT STATUS and
 * DIAGNOSTICS), the clock.
 */
#include <stdio.h>
#include <time.h>
#include "echo.h"

const char *echo_chunk_name(enum xprt_chunk_mode m)
{
	switch (m) {
	case XPRT_CHUNK_AUTO: return "auto";
	case XPRT_CHUNK_INLINE: return "inline";
	case XPRT_CHUNK_READ: return "read";
	case XPRT_CHUNK_WRITE: return "write";
	case XPRT_CHUNK_REPLY: return "reply";
	case XPRT_CHUNK_POS0: return "pos0";
	}
	return "unknown";
}

int echo_exit_for(enum xprt_errcode c)
{
	switch (c) {
	case XPRT_E_OK: return ECHO_EXIT_OK;
	case XPRT_E_USAGE: return ECHO_EXIT_USAGE;
	default: return ECHO_EXIT_CONNECT;
	}
}

void echo_print_xprt_error(const char *what, const struct xprt_error *e)
{
	const char *msg = e->msg[0] ? e->msg : xprt_errcode_name(e->code);

	fprintf(stderr, PROG ": %s%s%s\n", what ? what : "", what ? ": " : "", msg);
	if (e->code == XPRT_E_REFUSED)
		fputs(PROG ": is 'rpcrdma-echo -s' running there, on that port (-p)?\n",
		      stderr);
}

uint64_t echo_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
