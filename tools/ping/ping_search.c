/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ping_search.c - the search behind --probe-inline: the largest Send (in
 * bytes, a multiple of 4 as every XDR message is) that a peer receives.
 * A Send larger than the Receive buffer it lands in fails on the
 * responder and takes the connection down (V1 §4.3.2: the receiver posts
 * buffers of its inline threshold), so every "no" costs a reconnect: the
 * search starts where the peer's private data (RFC 8797) or the version's
 * default puts it, tries 4 bytes more to confirm it, and only then grows
 * (doubling) or bisects.
 */
#include "ping.h"

#define ALIGN4_DOWN(v) ((v) & ~(uint32_t)3)

void ping_search_init(struct ping_search *s, uint32_t min, uint32_t max,
		      uint32_t claim)
{
	s->min = ALIGN4_DOWN(min + 3);
	if (s->min < 4)
		s->min = 4;
	s->max = ALIGN4_DOWN(max);
	if (s->max < s->min)
		s->max = s->min;
	claim = ALIGN4_DOWN(claim);
	s->claim = claim < s->min ? s->min : claim > s->max ? s->max : claim;
	s->good = s->bad = s->tries = s->round = 0;
	s->claim_tried = s->plus_tried = false;
}

uint32_t ping_search_next(const struct ping_search *s)
{
	uint32_t lo, mid;

	if (!s->claim_tried)
		return s->claim;
	if (!s->bad) {
		/* growing: nothing failed yet.  4 bytes above the last round
		 * size that got through, then twice that size */
		if (!s->good || s->good >= s->max)
			return 0;
		if (s->round == s->good && !s->plus_tried)
			return s->round + 4;
		mid = s->round > s->max / 2 ? s->max : s->round * 2;
		return mid > s->good ? mid : 0;
	}
	if (s->round && s->round == s->good && !s->plus_tried &&
	    s->round + 4 < s->bad)
		return s->round + 4;
	/* bisecting between the largest good (or just below min) and bad */
	lo = s->good ? s->good : s->min - 4;
	if (s->bad <= lo + 4)
		return 0;
	mid = lo + ALIGN4_DOWN((s->bad - lo) / 2);
	return mid > lo ? mid : lo + 4;
}

void ping_search_record(struct ping_search *s, uint32_t size, bool ok)
{
	bool round = !s->claim_tried ? size == s->claim :
		     !s->bad && size != s->round + 4;

	s->tries++;
	s->claim_tried = true;
	if (size == s->round + 4)
		s->plus_tried = true;
	if (ok) {
		if (size > s->good)
			s->good = size;
		if (round) {
			s->round = size;
			s->plus_tried = false;
		}
	} else if (!s->bad || size < s->bad) {
		s->bad = size;
	}
}

uint32_t ping_search_result(const struct ping_search *s, bool *exact)
{
	if (exact)
		*exact = s->bad && s->bad == (s->good ? s->good : s->min - 4) + 4;
	return s->good;
}
