/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * run_wait.c - rpcrdma-conform's clock and its waits: the transport's loop
 * run until a condition of the run holds, the deadline passes or the
 * connection is lost.  A leaf under run.c and the case runners.
 */
#include "live.h"
#include "run.h"

int64_t cf_now_ms(void)
{
	return (int64_t)(live_now_ns() / 1000000);
}

bool cf_wait(struct cf_run *r, bool (*done)(const struct cf_run *, unsigned), unsigned want,
	     int64_t deadline)
{
	for (;;) {
		int64_t left;

		if (done(r, want))
			return true;
		left = deadline - cf_now_ms();
		if (left <= 0 || r->disconnected)
			return done(r, want);
		if (xprt_loop_run(r->loop, (int)left) < 0)
			return done(r, want);
	}
}

static bool answers_done(const struct cf_run *r, unsigned want)
{
	return want ? r->nanswers >= want : r->answer_idx >= 0;
}

static bool probe_done(const struct cf_run *r, unsigned want)
{
	(void)want;
	return r->probe_answered;
}

static bool disconnect_done(const struct cf_run *r, unsigned want)
{
	(void)want;
	return r->disconnected;
}

bool cf_wait_answers(struct cf_run *r, unsigned want, int64_t deadline)
{
	return cf_wait(r, answers_done, want, deadline);
}

bool cf_wait_probe(struct cf_run *r, int64_t deadline)
{
	return cf_wait(r, probe_done, 0, deadline);
}

bool cf_wait_disconnect(struct cf_run *r, int64_t deadline)
{
	return cf_wait(r, disconnect_done, 0, deadline);
}
