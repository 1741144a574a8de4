/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cap_calls.h - the calls and advertised segments (cap_chunks.c's part
 * of struct cap_state, st->kt): fixed pools with hash chains.  Seen by cap_chunks.c,
 * which keeps them, and cap_msg.c, which lays out a call's read chunks
 * and a reply chunk from them.
 */
#ifndef RPCRDMA_CAP_CALLS_H
#define RPCRDMA_CAP_CALLS_H

#include "cap_state.h"

enum cap_seg_kind { CAP_SEG_READ, CAP_SEG_WRITE, CAP_SEG_REPLY };

/* An advertised segment (handle/length/offset), until the call completes */
struct cap_seg {
	bool used;
	uint8_t kind;                /* enum cap_seg_kind */
	uint32_t hnext;              /* hash chain, index + 1 */
	uint32_t cnext;              /* next segment of the same call */
	uint32_t call;               /* index of the call */
	uint32_t conv;
	uint32_t handle, len, got;
	uint64_t va;
	uint32_t position;           /* read: position; write: chunk index */
	uint32_t idx;                /* segment index within its chunk */
	uint32_t rb_off;             /* where its bytes go in the rebuild */
};

/* The calls and segments (cap_chunks.c): fixed pools with hash chains */
struct cap_call_tab {
	struct cap_call *calls;      /* CAP_MAX_CALLS */
	uint32_t call_hash[CAP_CALL_BUCKETS];
	uint32_t call_free, ncalls;
	uint32_t calls_head, calls_tail; /* every call, oldest first */
	struct cap_seg *segs;        /* CAP_MAX_SEGS */
	uint32_t seg_hash[CAP_SEG_BUCKETS];
	uint32_t seg_free, nsegs;
};


#endif
