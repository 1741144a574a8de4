/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cap_conv.c - conversations: one per RC QP pair (IB, RoCE) or TCP 4-tuple
 * (iWARP), in a fixed table of CAP_MAX_CONVS with a chained hash of their
 * two directions.  A packet names only its destination QP, so the two
 * halves of a QP pair are joined when the reverse half first appears: the
 * oldest open half between the same two addresses in the other direction
 * (docs/capture.md, "Conversations").
 */
#include <stdlib.h>
#include <string.h>
#include "cap_state.h"

#define NBUCKET 8192u

static uint32_t hnext[2 * CAP_MAX_CONVS];   /* node = slot * 2 + dir, +1 */

static uint32_t hash_half(const struct cap_addr *a, uint32_t qp, bool tcp)
{
	uint32_t h = 2166136261u;
	size_t n = a->family == CAP_AF_INET ? 4 : a->family == CAP_AF_INET6 ? 16 : 2;
	for (size_t i = 0; i < n; i++)
		h = (h ^ a->src[i]) * 16777619u;
	for (size_t i = 0; i < n; i++)
		h = (h ^ a->dst[i]) * 16777619u;
	h ^= tcp ? (uint32_t)a->sport << 16 ^ a->dport : qp;
	h *= 2654435761u;
	return (h >> 16 ^ h) & (NBUCKET - 1);
}

static size_t alen(uint8_t family)
{
	return family == CAP_AF_INET ? 4 : family == CAP_AF_INET6 ? 16 : 2;
}

/* Does direction `dir` of `c` carry packets a->src -> a->dst (to qp)? */
static bool half_is(const struct cap_conv *c, int dir, const struct cap_addr *a,
		    uint32_t qp, bool tcp)
{
	size_t n = alen(a->family);
	if (c->family != a->family ||
	    memcmp(c->addr[dir], a->src, n) || memcmp(c->addr[1 - dir], a->dst, n))
		return false;
	if (tcp)
		return c->transport == CAP_T_IWARP && c->port[dir] == a->sport &&
		       c->port[1 - dir] == a->dport;
	return c->transport != CAP_T_IWARP && c->d[dir].have_qp &&
	       c->d[dir].qp == qp;
}

static void link_half(struct cap_state *st, uint32_t slot, int dir,
		      const struct cap_addr *a, uint32_t qp, bool tcp)
{
	uint32_t b = hash_half(a, qp, tcp);
	uint32_t node = slot * 2 + (uint32_t)dir;
	hnext[node] = st->conv_hash[b];
	st->conv_hash[b] = node + 1;
}

static void unlink_half(struct cap_state *st, uint32_t slot, int dir)
{
	uint32_t node = slot * 2 + (uint32_t)dir;
	for (uint32_t b = 0; b < NBUCKET; b++) {
		uint32_t *pp = &st->conv_hash[b];
		while (*pp) {
			if (*pp - 1 == node) {
				*pp = hnext[node];
				return;
			}
			pp = &hnext[*pp - 1];
		}
	}
}

static struct cap_conv *lookup(struct cap_state *st, const struct cap_addr *a,
			       uint32_t qp, bool tcp, int *dir)
{
	uint32_t b = hash_half(a, qp, tcp);
	for (uint32_t n = st->conv_hash[b]; n; n = hnext[n - 1]) {
		struct cap_conv *c = &st->convs[(n - 1) / 2];
		int d = (int)((n - 1) & 1);
		if (half_is(c, d, a, qp, tcp)) {
			*dir = d;
			return c;
		}
	}
	return NULL;
}

static void dir_free(struct cap_state *st, struct cap_dir *d)
{
	cap_reasm_free(st, d);
	cap_budget_free(st, d->tcp.buf, d->tcp.cap);
	for (unsigned i = 0; i < CAP_OOO_MAX && d->tcp.ooo; i++)
		cap_budget_free(st, d->tcp.ooo[i].data, d->tcp.ooo[i].len);
	cap_budget_free(st, d->tcp.ooo, d->tcp.ooo ? CAP_OOO_MAX * sizeof(*d->tcp.ooo) : 0);
}

void cap_conv_close(struct cap_state *st, struct cap_conv *c)
{
	uint32_t slot = (uint32_t)(c - st->convs);

	if (!c->used)
		return;
	if (c->ncalls)
		cap_calls_flush(st, c->id);
	cap_stats_conv_done(st, c);
	for (int d = 0; d < 2; d++) {
		if (c->transport == CAP_T_IWARP || c->d[d].have_qp)
			unlink_half(st, slot, d);
		dir_free(st, &c->d[d]);
	}
	memset(c, 0, sizeof(*c));
}

static struct cap_conv *new_conv(struct cap_state *st,
				 const struct cap_frame *f,
				 enum cap_transport t, const struct cap_addr *a)
{
	struct cap_conv *c = NULL, *old = NULL;

	for (uint32_t i = 0; i < CAP_MAX_CONVS; i++) {
		if (!st->convs[i].used) {
			c = &st->convs[i];
			break;
		}
		if (!old || st->convs[i].last_frame < old->last_frame)
			old = &st->convs[i];
	}
	if (!c) {
		cap_warn_once(st, CAP_W_CONVS, "more than %u open conversations: "
			      "closing the least recently active", CAP_MAX_CONVS);
		cap_conv_close(st, old);
		c = old;
	}
	memset(c, 0, sizeof(*c));
	c->used = true;
	c->id = ++st->nconv_ids;
	c->transport = t;
	c->family = a->family;
	c->client = -1;
	memcpy(c->addr[0], a->src, 16);
	memcpy(c->addr[1], a->dst, 16);
	c->port[0] = a->sport;
	c->port[1] = a->dport;
	c->stats.first_frame = f->num;
	for (int d = 0; d < 2; d++) {
		cap_addr_text(c->d[d].name, sizeof(c->d[d].name), a->family,
			      c->addr[d], c->port[d], t == CAP_T_IWARP);
	}
	return c;
}

struct cap_conv *cap_conv_ib(struct cap_state *st, const struct cap_frame *f,
			     enum cap_transport t, const struct cap_addr *a,
			     uint32_t dqp, int *dir)
{
	struct cap_conv *c = lookup(st, a, dqp, false, dir);
	if (c) {
		c->last_frame = f->num;
		return c;
	}
	/* the reverse half of an open QP pair? */
	size_t n = alen(a->family);
	for (uint32_t i = 0; i < CAP_MAX_CONVS; i++) {
		struct cap_conv *o = &st->convs[i];
		if (!o->used || o->transport != t || o->family != a->family)
			continue;
		for (int d = 0; d < 2; d++) {
			if (o->d[d].have_qp || !o->d[1 - d].have_qp ||
			    memcmp(o->addr[d], a->src, n) ||
			    memcmp(o->addr[1 - d], a->dst, n))
				continue;
			if (!c || o->id < c->id) {
				c = o;
				*dir = d;
			}
		}
	}
	if (!c) {
		c = new_conv(st, f, t, a);
		*dir = 0;
	}
	c->d[*dir].qp = dqp;
	c->d[*dir].have_qp = true;
	c->d[0].txt_ok = c->d[1].txt_ok = false;
	link_half(st, (uint32_t)(c - st->convs), *dir, a, dqp, false);
	c->last_frame = f->num;
	return c;
}

void cap_conv_cm(struct cap_state *st, const struct cap_frame *f,
		 enum cap_transport t, const struct cap_addr *a,
		 uint32_t qpn_req, uint32_t qpn_rep)
{
	struct cap_addr r = *a;
	int dir;

	memcpy(r.src, a->dst, 16);
	memcpy(r.dst, a->src, 16);
	/* requester -> responder packets go to the responder's QP; a new
	 * CM exchange on a known QP pair is a new connection */
	struct cap_conv *c;
	while ((c = lookup(st, a, qpn_rep, false, &dir)) ||
	       (c = lookup(st, &r, qpn_req, false, &dir)))
		cap_conv_close(st, c);
	c = new_conv(st, f, t, a);
	uint32_t slot = (uint32_t)(c - st->convs);
	c->d[0].qp = qpn_rep;
	c->d[0].have_qp = true;
	c->d[1].qp = qpn_req;
	c->d[1].have_qp = true;
	c->started = true;
	link_half(st, slot, 0, a, qpn_rep, false);
	link_half(st, slot, 1, &r, qpn_req, false);
	c->last_frame = f->num;
}

struct cap_conv *cap_conv_find_ib(struct cap_state *st,
				  const struct cap_addr *a, uint32_t dqp,
				  int *dir)
{
	return lookup(st, a, dqp, false, dir);
}

struct cap_conv *cap_conv_tcp(struct cap_state *st, const struct cap_frame *f,
			      const struct cap_addr *a, int *dir, bool create)
{
	struct cap_conv *c = lookup(st, a, 0, true, dir);
	if (c) {
		c->last_frame = f->num;
		return c;
	}
	if (!create)
		return NULL;
	c = new_conv(st, f, CAP_T_IWARP, a);
	uint32_t slot = (uint32_t)(c - st->convs);
	struct cap_addr r = *a;
	memcpy(r.src, a->dst, 16);
	memcpy(r.dst, a->src, 16);
	r.sport = a->dport;
	r.dport = a->sport;
	link_half(st, slot, 0, a, 0, true);
	link_half(st, slot, 1, &r, 0, true);
	*dir = 0;
	c->last_frame = f->num;
	return c;
}

struct cap_conv *cap_conv_by_slot(struct cap_state *st, uint32_t slot,
				  uint32_t id)
{
	if (slot >= CAP_MAX_CONVS || !st->convs[slot].used ||
	    st->convs[slot].id != id)
		return NULL;
	return &st->convs[slot];
}

void cap_conv_init(struct cap_state *st)
{
	st->convs = calloc(CAP_MAX_CONVS, sizeof(*st->convs));
	memset(st->conv_hash, 0, sizeof(st->conv_hash));
}

void cap_conv_fini(struct cap_state *st)
{
	if (!st->convs)
		return;
	/* close in id order so --stats lists conversations in order */
	for (;;) {
		struct cap_conv *first = NULL;
		for (uint32_t i = 0; i < CAP_MAX_CONVS; i++)
			if (st->convs[i].used &&
			    (!first || st->convs[i].id < first->id))
				first = &st->convs[i];
		if (!first)
			break;
		cap_conv_close(st, first);
	}
	free(st->convs);
	st->convs = NULL;
}
