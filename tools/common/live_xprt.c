/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * live_xprt.c - the parts of the live tools' shell that call the transport
 * (live.h): the stop signals, the loop run until a condition or a
 * deadline, an error's text.  Linked by the live tools alone (not by
 * rpcrdma-decode): TOOLS_LIVE_SRCS in tools/module.mk.
 */
#include <signal.h>
#include <string.h>
#include "live.h"

static struct xprt_loop *volatile signal_loop;
static volatile sig_atomic_t interrupted;
static struct sigaction old_int, old_term;
static bool caught;

static void on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
	if (signal_loop)
		xprt_loop_stop(signal_loop);
}

void live_signals_begin(struct xprt_loop *l)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	interrupted = 0;
	signal_loop = l;
	if (caught)
		return;
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	caught = true;
}

void live_signals_end(void)
{
	signal_loop = NULL;
	if (!caught)
		return;
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	caught = false;
}

bool live_interrupted(void)
{
	return interrupted != 0;
}

int live_run_until(struct xprt_loop *l, bool (*done)(void *arg), void *arg,
		   uint64_t deadline_ns)
{
	for (;;) {
		uint64_t now;
		int slice = 100;

		if (done && done(arg))
			return 0;
		now = live_now_ns();
		if (now >= deadline_ns)
			return 1;
		if (deadline_ns - now < 100000000u)
			slice = (int)((deadline_ns - now + 999999) / 1000000u);
		if (xprt_loop_run(l, slice) < 0)
			return -1;
	}
}

const char *live_error_text(const struct xprt_error *e)
{
	return e->msg[0] ? e->msg : xprt_errcode_name(e->code);
}
