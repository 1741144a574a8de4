/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fake_xprt.h - for rpcrdma-conform's runner test: the transport API
 * (tools/transport/xprt.h) implemented in process over a model ECHO
 * responder built on libcodec's verdicts (fake_xprt.c).  The model answers
 * what the drafts ask; the knobs below break it the ways the suite must
 * catch.
 */
#ifndef RPCRDMA_FAKE_XPRT_H
#define RPCRDMA_FAKE_XPRT_H

#include <stdbool.h>
#include <stdint.h>
#include "xprt.h"

struct fake_cfg {
	enum xprt_misbehave misbehave;  /* as rpcrdma-echo -s --misbehave */
	unsigned versions;              /* XPRT_V1|XPRT_V2 (0: both) */
	uint32_t credits;               /* the grant (0: 32) */
	uint32_t inline_recv;           /* its receive buffers (0: 4096) */
	bool crash_on_done;             /* RDMA_DONE kills the listener */
	bool hang_on_msgp;              /* RDMA_MSGP hangs that connection */
	bool ignore_roundup;            /* no pad after an odd read chunk */
	bool answer_short;              /* a message under 8 bytes answered
					 * ERR_BADHEADER, the missing bytes read
					 * as zero (as knfsd answers 4 and 7) */
	bool stray_answer;              /* every RPC reply followed by a second
					 * one with an xid nobody sent */
	unsigned lose_first_of;         /* the first Send of the Nth connection
					 * (1-based) is lost (the siw race) */
	uint32_t late_drop_ms;          /* drop-bad: the connection goes silent
					 * at once, its disconnect is seen this
					 * much later (rxe under load), counted
					 * again from the next message it gets
					 * (the runner's probe), so the disconnect
					 * comes after the probe's deadline
					 * whatever the host's load did before */
};
void fake_xprt_config(const struct fake_cfg *c);

#endif
