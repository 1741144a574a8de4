/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * read_rules.c - a call's read list against the requester's rules (V1
 * 4.4.4.1, 4.4.5, 4.4.5.1): one pure function, for the capture's lint
 * (rpcrdma-decode --check) and for a responder grading its requesters
 * (rpcrdma-conform --requester).  Walks only what rpcrdma_decode()
 * bounds-checked.
 */
#include "internal.h"

/* V1 4.4.5: a read chunk of an RDMA_MSG call is re-inserted into the
 * inline Payload stream, so its position is at most the inline bytes plus
 * the chunks inserted before it.  Positions come in list order; lengths of
 * earlier chunks (lower positions) may lie before a later one. */
static void position_past(const struct rpcrdma_msg *m, struct rpcrdma_read_check *c)
{
	struct rpcrdma_read_iter it;
	struct rpcrdma_read_segment s;
	uint64_t before = 0;
	uint32_t last = 0;

	rpcrdma_read_iter_init(m, &it);
	while (rpcrdma_read_next(&it, &s)) {
		if (s.rdma_position > (uint64_t)m->payload_len + before) {
			c->faults |= RPCRDMA_READ_POSITION_PAST;
			c->past_position = s.rdma_position;
			c->past_before = before;
			return;
		}
		if (s.rdma_position >= last)
			before += s.rdma_target.rdma_length;
		last = s.rdma_position;
	}
}

/* the first chunk past position zero and the word before it in the
 * Payload stream: false for a Long Call (a position-zero chunk holds the
 * whole stream), for no such chunk, or for no word before it */
static bool first_reduced(const struct rpcrdma_msg *m, struct rpcrdma_read_check *c)
{
	struct rpcrdma_read_iter it;
	struct rpcrdma_read_segment s;
	const uint8_t *p = rpcrdma_payload(m);
	bool found = false;

	if (!p)
		return false;
	rpcrdma_read_iter_init(m, &it);
	while (rpcrdma_read_next(&it, &s)) {
		if (s.rdma_position == 0)
			return false;
		if (found && s.rdma_position != c->position)
			break;
		found = true;
		c->position = s.rdma_position;
		c->chunk_len += s.rdma_target.rdma_length;
	}
	if (!found || c->position < 4 || c->position > m->payload_len)
		return false;
	c->count = xdrc_be32(p + c->position - 4);
	return true;
}

unsigned rpcrdma_read_chunks_check(const struct rpcrdma_msg *m, struct rpcrdma_read_check *c)
{
	memset(c, 0, sizeof(*c));
	if (m->action != RPCRDMA_ACCEPT || m->rdma_proc != RDMA_MSG ||
	    m->direction != RPCRDMA_CALL || !m->nreads)
		return 0;
	position_past(m, c);
	c->reduced = first_reduced(m, c);
	if (!c->reduced) {
		c->position = 0;
		c->chunk_len = 0;
		return c->faults;
	}
	/* the chunk may carry the round-up (V1 4.4.5.1: the requester MAY
	 * leave it out), so either length agrees */
	if (c->chunk_len != c->count && c->chunk_len != ((uint64_t)c->count + 3) / 4 * 4)
		c->faults |= RPCRDMA_READ_COUNT_MISMATCH;
	if (m->payload_len & 3)
		c->faults |= RPCRDMA_READ_PAD_INLINE;
	return c->faults;
}
