/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cap_lat.h - the latencies of one RPC procedure, exact up to a memory cap,
 * then a histogram within 1 % (cap_lat.c).
 */
#ifndef RPCRDMA_CAP_LAT_H
#define RPCRDMA_CAP_LAT_H

#include <stdbool.h>
#include <stdint.h>

#ifndef CAP_LAT_SAMPLES
#define CAP_LAT_SAMPLES (2u << 20)   /* samples kept, all procedures: 16 MiB */
#endif

struct cap_lat_pool {
	uint64_t held;               /* sample slots allocated */
	uint64_t limit;
};

struct cap_lat {
	uint64_t n, sum, min, max;   /* exact, always */
	uint64_t *v;                 /* every sample, while exact */
	uint32_t nv, cap;
	uint64_t *hist;              /* once folded: counts per bucket */
};

void cap_lat_add(struct cap_lat *l, struct cap_lat_pool *pool, uint64_t us);
/* sort, before cap_lat_pct() */
void cap_lat_done(struct cap_lat *l);
/* nearest-rank percentile: exact, or within 1 % once folded */
uint64_t cap_lat_pct(const struct cap_lat *l, unsigned pct);
static inline bool cap_lat_exact(const struct cap_lat *l)
{
	return !l->hist;
}
void cap_lat_free(struct cap_lat *l, struct cap_lat_pool *pool);

#endif
