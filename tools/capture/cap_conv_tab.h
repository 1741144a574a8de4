/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cap_conv_tab.h - the conversation table (cap_conv.c's part of struct
 * cap_state, st->ct): slots, lists and hashes.  Seen by cap_conv.c and its unit test
 * alone; the other layers reach conversations through cap_conv.c's functions.
 */
#ifndef RPCRDMA_CAP_CONV_TAB_H
#define RPCRDMA_CAP_CONV_TAB_H

#include "cap_state.h"

#define CAP_IB_HINTS 16u             /* a power of two */

/* a hash node of one conversation half (slot * 2 + dir) */
struct cap_hnode {
	uint32_t next, prev;         /* node + 1 */
	uint32_t bucket;
	uint32_t key;                /* the whole hash: most misses stop here */
	bool linked;
};

struct cap_conv_tab {
	struct cap_conv *convs;      /* CAP_MAX_CONVS */
	uint32_t nconv_ids;
	/* a conversation ends (cap_conv_close): every layer's part, set by
	 * cap_open to cap_conv_end (cap_end.c), so that the table calls no
	 * layer above it by name */
	void (*end)(struct cap_state *st, struct cap_conv *c);
	/* list links by slot, apart from the conversations (small, hot) */
	struct cap_link *lru;        /* by activity (free list when unused) */
	struct cap_link *ord;        /* by id */
	struct cap_link *open;       /* in its half-open bucket */
	struct cap_hnode *hnode;     /* 2 * CAP_MAX_CONVS */
	uint32_t *half;              /* buckets of halves */
	uint32_t *open_head, *open_tail; /* buckets of half-open pairs */
	/* least recently active first: [0] idle conversations, [1] those
	 * with calls outstanding, evicted only when no idle one is left */
	uint32_t lru_head[2], lru_tail[2];
	uint32_t ord_head, ord_tail; /* lowest id first */
	uint32_t free;               /* free slots, through lru.next */
	/* the half each destination QP (its low bits) last found, node + 1:
	 * a hint, taken only when that half is still linked and matches, so
	 * it finds what the hash would (one half matches a packet at most) */
	uint32_t ib_hint[CAP_IB_HINTS];
	uint32_t nused;
};


#endif
