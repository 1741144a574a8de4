/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * minmax.h - the least and the greatest of the values seen so far: the
 * credits granted, counted by rpcrdma-decode --stats (tools/capture/
 * cap_stats.c) and rpcrdma-trace --stats (tools/trace/trpc.c).
 */
#ifndef RPCRDMA_MINMAX_H
#define RPCRDMA_MINMAX_H

#include <stdbool.h>
#include <stdint.h>

/* v into [*min, *max]; *have: whether a value was seen before (set) */
static inline void u32_minmax_add(bool *have, uint32_t *min, uint32_t *max, uint32_t v)
{
	if (!*have || v < *min)
		*min = v;
	if (!*have || v > *max)
		*max = v;
	*have = true;
}

#endif
