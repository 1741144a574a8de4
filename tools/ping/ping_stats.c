/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ping_stats.c - the summary of a run, as ping(8) gives it: calls sent,
 * replies received, errors, loss, and the round-trip times' min, avg, max
 * and mdev (the population standard deviation, ping's
 * sqrt(mean(x^2) - mean(x)^2), kept with Welford's update so that it does
 * not cancel out), plus exact nearest-rank p50 and p99 over every sample
 * (the first PING_MAX_SAMPLES of a run).  And the exit status it makes.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "ping.h"

void ping_stats_init(struct ping_stats *s)
{
	memset(s, 0, sizeof(*s));
}

void ping_stats_free(struct ping_stats *s)
{
	free(s->rtt);
	s->rtt = NULL;
	s->n = s->cap = 0;
}

static void store(struct ping_stats *s, uint64_t v)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 256;
		uint64_t *p;

		if (cap > PING_MAX_SAMPLES)
			cap = PING_MAX_SAMPLES;
		if (cap <= s->n) {
			s->oom = true;     /* the percentiles cover the first ones */
			return;
		}
		p = realloc(s->rtt, cap * sizeof(*p));
		if (!p) {
			s->oom = true;
			return;
		}
		s->rtt = p;
		s->cap = cap;
	}
	s->rtt[s->n++] = v;
}

void ping_stats_add(struct ping_stats *s, uint64_t rtt_ns)
{
	double delta;

	s->received++;
	if (s->received == 1 || rtt_ns < s->min)
		s->min = rtt_ns;
	if (rtt_ns > s->max)
		s->max = rtt_ns;
	delta = (double)rtt_ns - s->mean;
	s->mean += delta / (double)s->received;
	s->m2 += delta * ((double)rtt_ns - s->mean);
	store(s, rtt_ns);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

uint64_t ping_percentile(const uint64_t *sorted, size_t n, unsigned p)
{
	size_t rank;

	if (!n)
		return 0;
	if (p > 100)
		p = 100;
	/* ceil(p * n / 100), at least 1; n <= PING_MAX_SAMPLES: no overflow */
	rank = ((size_t)p * n + 99) / 100;
	if (rank == 0)
		rank = 1;
	return sorted[rank - 1];
}

void ping_stats_summary(struct ping_stats *s, struct ping_summary *out)
{
	memset(out, 0, sizeof(*out));
	out->sent = s->sent;
	out->received = s->received;
	out->errors = s->errors;
	if (s->sent)
		out->loss_pct = s->received >= s->sent ? 0.0 :
			(double)(s->sent - s->received) * 100.0 / (double)s->sent;
	if (!s->received)
		return;
	out->have_rtt = true;
	out->min = s->min;
	out->max = s->max;
	out->avg = s->mean;
	out->mdev = sqrt(s->m2 / (double)s->received);
	if (s->n) {
		qsort(s->rtt, s->n, sizeof(*s->rtt), cmp_u64);
		out->p50 = ping_percentile(s->rtt, s->n, 50);
		out->p99 = ping_percentile(s->rtt, s->n, 99);
	}
}

int ping_exit_status(const struct ping_summary *s, bool lost_at_end)
{
	if (!s->received || lost_at_end)
		return PING_EXIT_NOREPLY;
	return PING_EXIT_OK;
}
