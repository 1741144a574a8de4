/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cap_lat.c - RPC round-trip latencies of one procedure for --stats: every
 * sample is kept, so min, max and the percentiles are exact (nearest rank:
 * the smallest sample with at least p % of the samples at or below it),
 * until all procedures together hold CAP_LAT_SAMPLES.  The procedure that
 * would exceed it is folded into a histogram of geometric buckets whose
 * midpoints are within 1 % of every value they hold (values below 128 us
 * stay exact), and its percentiles are then said to be approximate.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cap_lat.h"

#define LINEAR 128u                  /* values 0..127 counted exactly */
#define ALPHA 0.005                  /* a bucket's relative error; with the
				      * rounding to an integer, under 1 % */
#define GAMMA ((1 + ALPHA) / (1 - ALPHA))
#define NBUCKET 4100u                /* > LINEAR + log(2^64 / 128) / log(GAMMA) */

static unsigned bucket_of(uint64_t v)
{
	if (v < LINEAR)
		return (unsigned)v;
	/* bucket LINEAR + i holds (128 * GAMMA^(i-1), 128 * GAMMA^i] */
	double i = ceil(log((double)v / LINEAR) / log(GAMMA));
	unsigned b = LINEAR + (unsigned)(i < 0 ? 0 : i);
	return b < NBUCKET ? b : NBUCKET - 1;
}

/* the value a bucket stands for: within ALPHA of anything in it */
static uint64_t bucket_value(unsigned b)
{
	if (b < LINEAR)
		return b;
	double hi = LINEAR * pow(GAMMA, (double)(b - LINEAR));
	return (uint64_t)llround(2 * hi / (GAMMA + 1));
}

static void fold(struct cap_lat *l, struct cap_lat_pool *pool)
{
	l->hist = calloc(NBUCKET, sizeof(*l->hist));
	if (!l->hist)
		return;
	for (uint32_t i = 0; i < l->nv; i++)
		l->hist[bucket_of(l->v[i])]++;
	pool->held -= l->cap;
	free(l->v);
	l->v = NULL;
	l->nv = l->cap = 0;
}

void cap_lat_add(struct cap_lat *l, struct cap_lat_pool *pool, uint64_t us)
{
	if (!l->n || us < l->min)
		l->min = us;
	if (us > l->max)
		l->max = us;
	l->n++;
	l->sum += us;
	if (!l->hist && l->nv == l->cap) {
		uint32_t ncap = l->cap ? l->cap * 2 : 16;
		if (pool->held - l->cap + ncap > pool->limit || ncap < l->cap)
			fold(l, pool);
		else {
			uint64_t *nv = realloc(l->v, ncap * sizeof(*nv));
			if (!nv)
				fold(l, pool);
			else {
				pool->held += ncap - l->cap;
				l->v = nv;
				l->cap = ncap;
			}
		}
	}
	if (l->hist)
		l->hist[bucket_of(us)]++;
	else if (l->nv < l->cap)
		l->v[l->nv++] = us;
}

static int by_value(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

void cap_lat_done(struct cap_lat *l)
{
	if (l->v)
		qsort(l->v, l->nv, sizeof(*l->v), by_value);
}

uint64_t cap_lat_pct(const struct cap_lat *l, unsigned pct)
{
	uint64_t rank = (l->n * pct + 99) / 100;     /* 1-based, nearest rank */

	if (!l->n)
		return 0;
	if (!rank)
		rank = 1;
	if (!l->hist)
		return l->nv >= rank ? l->v[rank - 1] : l->max;
	uint64_t seen = 0;
	for (unsigned b = 0; b < NBUCKET; b++) {
		seen += l->hist[b];
		if (seen >= rank) {
			uint64_t v = bucket_value(b);
			return v < l->min ? l->min : v > l->max ? l->max : v;
		}
	}
	return l->max;
}

void cap_lat_free(struct cap_lat *l, struct cap_lat_pool *pool)
{
	pool->held -= l->cap;
	free(l->v);
	free(l->hist);
	memset(l, 0, sizeof(*l));
}
