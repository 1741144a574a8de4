/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * util.c - what rpcrdma-echo's two modes share: the exit status and
 * message for a transport error (man/rpcrdma-echo.1, EXIT STATUS and
 * DIAGNOSTICS).  The clock, names and the rest of the shell are
 * tools/common/live.h's.
 */
#include <stdio.h>
#include "echo.h"

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
	const char *msg = live_error_text(e);

	fprintf(stderr, PROG ": %s%s%s\n", what ? what : "", what ? ": " : "", msg);
	if (e->code == XPRT_E_REFUSED)
		fputs(PROG ": is 'rpcrdma-echo -s' running there, on that port (-p)?\n",
		      stderr);
}

