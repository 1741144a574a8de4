/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cap_conv.c - conversations: one per RC QP pair (IB, RoCE) or TCP 4-tuple
 * (iWARP), in a fixed table of CAP_MAX_CONVS.  A packet names only its
 * destination QP, so the two halves of a QP pair are joined when the
 * reverse half first appears: the oldest open half between the same two
 * addresses in the other direction (docs/capture.md, "Conversations").
 * Every operation is O(1) whatever the number of conversations: a hash of
 * halves and a hash of half-open pairs, both doubly linked, an LRU list
 * for eviction when the table is full and an id-ordered list for --stats.
 */
#include <stdlib.h>
#include <string.h>
#include "cap_conv_tab.h"

/* buckets: powers of two, at least the number of halves */
#define HALF_NB (2u * CAP_MAX_CONVS < 64u ? 64u : 2u * CAP_MAX_CONVS)
#define OPEN_NB (CAP_MAX_CONVS < 64u ? 64u : CAP_MAX_CONVS)
_Static_assert((CAP_MAX_CONVS & (CAP_MAX_CONVS - 1)) == 0,
	       "CAP_MAX_CONVS must be a power of two");

static size_t alen(uint8_t family)
{
	return family == CAP_AF_INET ? 4 : family == CAP_AF_INET6 ? 16 : 2;
}

static uint64_t load64(const uint8_t *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return v;
}

/* a hash of the two addresses, in order (src, dst matters) */
static uint32_t hash_addrs(const struct cap_addr *a)
{
	uint64_t h;
	if (a->family == CAP_AF_INET6)
		h = (load64(a->src) * 0x9e3779b97f4a7c15u ^ load64(a->src + 8)) *
		    0xff51afd7ed558ccdu ^ (load64(a->dst) * 0xc4ceb9fe1a85ec53u ^
					   load64(a->dst + 8));
	else
		h = (uint64_t)(a->family == CAP_AF_INET ? cap_be32(a->src) :
			       cap_be16(a->src)) << 32 |
		    (a->family == CAP_AF_INET ? cap_be32(a->dst) : cap_be16(a->dst));
	h ^= (uint64_t)a->family << 60;
	h *= 0x9e3779b97f4a7c15u;
	return (uint32_t)(h >> 32 ^ h);
}

static uint32_t mix(uint32_t h)
{
	h *= 2654435761u;
	return h >> 16 ^ h;
}

/* `ah`: hash_addrs(a), computed once per packet */
static uint32_t hash_half(uint32_t ah, const struct cap_addr *a, uint32_t qp,
			  bool tcp)
{
	return mix(ah ^ (tcp ? (uint32_t)a->sport << 16 ^ a->dport : qp));
}

static uint32_t hash_open(enum cap_transport t, uint32_t ah)
{
	return mix(ah ^ (uint32_t)t) & (OPEN_NB - 1);
}

/* Does direction `dir` of `c` carry packets a->src -> a->dst (to qp)? */
/* the first n bytes of two addresses equal: IPv4's 4 as one word, not a
 * call of memcmp (every frame looks its conversation up) */
static inline bool addr_eq(const uint8_t *x, const uint8_t *y, size_t n)
{
	if (n == 4) {
		uint32_t a, b;

		memcpy(&a, x, 4);
		memcpy(&b, y, 4);
		return a == b;
	}
	if (n == 16) {
		uint64_t a[2], b[2];

		memcpy(a, x, 16);
		memcpy(b, y, 16);
		return ((a[0] ^ b[0]) | (a[1] ^ b[1])) == 0;
	}
	return !memcmp(x, y, n);
}

static bool half_is(const struct cap_conv *c, int dir, const struct cap_addr *a,
		    uint32_t qp, bool tcp)
{
	size_t n = alen(a->family);
	if (c->family != a->family || !addr_eq(c->addr[dir], a->src, n) ||
	    !addr_eq(c->addr[1 - dir], a->dst, n))
		return false;
	if (tcp)
		return c->transport == CAP_T_IWARP && c->port[dir] == a->sport &&
		       c->port[1 - dir] == a->dport;
	return c->transport != CAP_T_IWARP && c->d[dir].have_qp &&
	       c->d[dir].qp == qp;
}

/* -------- doubly linked lists of slots (index + 1, 0 ends), their links
 * in an array of their own */
static inline void list_append(struct cap_link *lk, uint32_t *head, uint32_t *tail,
			uint32_t slot)
{
	lk[slot].prev = *tail;
	lk[slot].next = 0;
	if (*tail)
		lk[*tail - 1].next = slot + 1;
	else
		*head = slot + 1;
	*tail = slot + 1;
}

static inline void list_remove(struct cap_link *lk, uint32_t *head, uint32_t *tail,
			uint32_t slot)
{
	struct cap_link *l = &lk[slot];
	if (l->prev)
		lk[l->prev - 1].next = l->next;
	else
		*head = l->next;
	if (l->next)
		lk[l->next - 1].prev = l->prev;
	else
		*tail = l->prev;
	l->prev = l->next = 0;
}

/* -------- halves: node = slot * 2 + dir */
static void link_half(struct cap_state *st, uint32_t slot, int dir,
		      uint32_t key)
{
	struct cap_conv_tab *t = st->ct;
	uint32_t b = key & (HALF_NB - 1);
	uint32_t node = slot * 2 + (uint32_t)dir;
	struct cap_hnode *h = &t->hnode[node];

	h->key = key;
	h->bucket = b;
	h->prev = 0;
	h->next = t->half[b];
	if (h->next)
		t->hnode[h->next - 1].prev = node + 1;
	t->half[b] = node + 1;
	h->linked = true;
}

static void unlink_half(struct cap_state *st, uint32_t slot, int dir)
{
	struct cap_conv_tab *t = st->ct;
	struct cap_hnode *h = &t->hnode[slot * 2 + (uint32_t)dir];

	if (!h->linked)
		return;
	if (h->prev)
		t->hnode[h->prev - 1].next = h->next;
	else
		t->half[h->bucket] = h->next;
	if (h->next)
		t->hnode[h->next - 1].prev = h->prev;
	h->linked = false;
}

static struct cap_conv *lookup_key(struct cap_state *st,
				   const struct cap_addr *a, uint32_t qp,
				   bool tcp, uint32_t key, int *dir)
{
	struct cap_conv_tab *t = st->ct;
	for (uint32_t n = t->half[key & (HALF_NB - 1)]; n;
	     n = t->hnode[n - 1].next) {
		if (t->hnode[n - 1].key != key)
			continue;
		struct cap_conv *c = &st->ct->convs[(n - 1) / 2];
		int d = (int)((n - 1) & 1);
		if (half_is(c, d, a, qp, tcp)) {
			*dir = d;
			return c;
		}
	}
	return NULL;
}

static struct cap_conv *lookup(struct cap_state *st, const struct cap_addr *a,
			       uint32_t qp, bool tcp, int *dir)
{
	return lookup_key(st, a, qp, tcp, hash_half(hash_addrs(a), a, qp, tcp),
			  dir);
}

/* -------- half-open QP pairs, waiting for packets a->src -> a->dst */
static void open_add(struct cap_state *st, struct cap_conv *c,
		     uint32_t reverse_ah)
{
	uint32_t b = hash_open(c->transport, reverse_ah);
	c->open_bucket = b;
	c->in_open = true;
	list_append(st->ct->open, &st->ct->open_head[b], &st->ct->open_tail[b],
		    (uint32_t)(c - st->ct->convs));
}

static void open_remove(struct cap_state *st, struct cap_conv *c)
{
	uint32_t b = c->open_bucket;
	if (!c->in_open)
		return;
	list_remove(st->ct->open, &st->ct->open_head[b], &st->ct->open_tail[b],
		    (uint32_t)(c - st->ct->convs));
	c->in_open = false;
}

/* the oldest half-open pair whose missing half is a->src -> a->dst: each
 * bucket lists its pairs in the order they opened */
static struct cap_conv *open_find(struct cap_state *st, enum cap_transport t,
				  const struct cap_addr *a, uint32_t ah, int *dir)
{
	size_t n = alen(a->family);
	for (uint32_t s = st->ct->open_head[hash_open(t, ah)]; s;
	     s = st->ct->open[s - 1].next) {
		struct cap_conv *o = &st->ct->convs[s - 1];
		int d = o->d[0].have_qp ? 1 : 0;     /* the missing half */
		if (o->transport == t && o->family == a->family &&
		    !memcmp(o->addr[d], a->src, n) &&
		    !memcmp(o->addr[1 - d], a->dst, n)) {
			*dir = d;
			return o;
		}
	}
	return NULL;
}

/* "198.18.0.1:20049" (iWARP), "198.18.0.1", "lid 0x0011": made when first
 * wanted, not for every conversation a packet opens */
const char *cap_dir_name(struct cap_conv *c, int dir)
{
	struct cap_dir *d = &c->d[dir];
	char *name = c->txt[dir].name;
	if (!d->name_ok) {
		cap_addr_text(name, sizeof(c->txt[dir].name), c->family,
			      c->addr[dir], c->port[dir], c->transport == CAP_T_IWARP);
		d->name_ok = true;
	}
	return name;
}

/* the RDMA Read requests a direction keeps, NULL over the budget */
struct cap_rdreq *cap_dir_rdreqs(struct cap_state *st, struct cap_conv *c,
				 int dir)
{
	struct cap_dir *d = &c->d[dir];

	c->heap = true;
	if (!d->rd) {
		d->rd = cap_budget_alloc(st, CAP_RDREQ_MAX * sizeof(*d->rd));
		if (d->rd)
			memset(d->rd, 0, CAP_RDREQ_MAX * sizeof(*d->rd));
	}
	return d->rd;
}

/* The conversation ends: first every layer's part, in the run's own order
 * (st->ct->end, cap_end.c, set by cap_open: this table names no layer
 * above it), then its slot goes back to the free list */
void cap_conv_close(struct cap_state *st, struct cap_conv *c)
{
	uint32_t slot = (uint32_t)(c - st->ct->convs);

	if (!c->used)
		return;
	if (st->ct->end)
		st->ct->end(st, c);
	for (int d = 0; d < 2; d++)
		unlink_half(st, slot, d);
	open_remove(st, c);
	list_remove(st->ct->lru, &st->ct->lru_head[c->busy], &st->ct->lru_tail[c->busy],
		    slot);
	list_remove(st->ct->ord, &st->ct->ord_head, &st->ct->ord_tail, slot);
	c->used = false;             /* new_conv() clears the rest */
	c->id = 0;
	st->ct->lru[slot].next = st->ct->free;   /* the free list */
	st->ct->free = slot + 1;
	st->ct->nused--;
}

/* a packet of `c`: it becomes the most recently active */
static void touch(struct cap_state *st, struct cap_conv *c,
		  const struct cap_frame *f)
{
	uint32_t slot = (uint32_t)(c - st->ct->convs);
	int b = c->busy;
	c->last_frame = f->num;
	st->frame_conv = c->id;  /* for violations outside a message */
	st->frame_cv = c;
	if (st->ct->lru_tail[b] != slot + 1) {
		list_remove(st->ct->lru, &st->ct->lru_head[b], &st->ct->lru_tail[b], slot);
		list_append(st->ct->lru, &st->ct->lru_head[b], &st->ct->lru_tail[b], slot);
	}
}

void cap_conv_busy(struct cap_state *st, struct cap_conv *c)
{
	uint32_t slot = (uint32_t)(c - st->ct->convs);
	bool busy = c->ncalls != 0;

	if (busy == c->busy || !c->used)
		return;
	list_remove(st->ct->lru, &st->ct->lru_head[c->busy], &st->ct->lru_tail[c->busy],
		    slot);
	c->busy = busy;
	list_append(st->ct->lru, &st->ct->lru_head[busy], &st->ct->lru_tail[busy], slot);
}

static struct cap_conv *new_conv(struct cap_state *st,
				 const struct cap_frame *f,
				 enum cap_transport t, const struct cap_addr *a)
{
	if (!st->ct->free) {
		/* full: the least recently active goes, an idle one if
		 * any; what it held in flight is counted lost */
		uint32_t victim = st->ct->lru_head[0] ? st->ct->lru_head[0] :
						       st->ct->lru_head[1];
		struct cap_conv *old = &st->ct->convs[victim - 1];
		cap_warn_once(st, CAP_W_CONVS, "more than %u open conversations: "
			      "closing the least recently active", CAP_MAX_CONVS);
		st->lost.evicted++;
		bool inflight = old->ncalls;
		for (int d = 0; d < 2 && old->heap; d++)
			inflight |= old->d[d].sactive || old->d[d].tcp.len ||
				    old->d[d].tcp.nooo;
		st->lost.convs += inflight;
		st->lost.calls += old->ncalls;
		cap_conv_close(st, old);
	}
	uint32_t slot = st->ct->free - 1;
	struct cap_conv *c = &st->ct->convs[slot];
	st->ct->free = st->ct->lru[slot].next;
	st->ct->nused++;
	memset(c, 0, offsetof(struct cap_conv, stats) + CAP_STATS_SIZES_OFF);
	c->used = true;
	c->id = ++st->ct->nconv_ids;
	c->transport = t;
	c->family = a->family;
	c->client = -1;
	c->requester = -1;
	memcpy(c->addr[0], a->src, 16);
	memcpy(c->addr[1], a->dst, 16);
	c->port[0] = a->sport;
	c->port[1] = a->dport;
	c->stats.first_frame = f->num;
	list_append(st->ct->lru, &st->ct->lru_head[0], &st->ct->lru_tail[0], slot);
	list_append(st->ct->ord, &st->ct->ord_head, &st->ct->ord_tail, slot);
	c->last_frame = f->num;
	st->frame_conv = c->id;  /* for violations outside a message */
	st->frame_cv = c;
	return c;
}

__attribute__((noinline))            /* the hint's path saves no registers */
static struct cap_conv *conv_ib_find(struct cap_state *st,
				      const struct cap_frame *f,
				      enum cap_transport t,
				      const struct cap_addr *a, uint32_t dqp,
				      bool create, int *dir);

struct cap_conv *cap_conv_ib(struct cap_state *st, const struct cap_frame *f,
			     enum cap_transport t, const struct cap_addr *a,
			     uint32_t dqp, bool create, int *dir)
{
	struct cap_conv_tab *tab = st->ct;
	uint32_t hint = tab->ib_hint[dqp & (CAP_IB_HINTS - 1)];

	if (hint) {                        /* most packets: the last half again */
		uint32_t n = hint - 1, slot = n / 2;
		int d = (int)(n & 1);
		struct cap_conv *c = &tab->convs[slot];
		uint32_t w[2];
		if (tab->hnode[n].linked && c->used && a->family == CAP_AF_INET &&
		    c->family == CAP_AF_INET && c->transport != CAP_T_IWARP &&
		    c->d[d].have_qp && c->d[d].qp == dqp) {
			memcpy(&w[0], c->addr[d], 4);
			memcpy(&w[1], c->addr[1 - d], 4);
			uint32_t s4, d4;
			memcpy(&s4, a->src, 4);
			memcpy(&d4, a->dst, 4);
			if (w[0] == s4 && w[1] == d4) {   /* half_is, IPv4 */
				*dir = d;
				c->last_frame = f->num;
				st->frame_conv = c->id;
				st->frame_cv = c;
				if (tab->lru_tail[c->busy] != slot + 1)
					touch(st, c, f);
				return c;
			}
		}
	}
	return conv_ib_find(st, f, t, a, dqp, create, dir);
}

/* cap_conv_ib past its hint: the hash, a half-open pair, or a new one */
static struct cap_conv *conv_ib_find(struct cap_state *st,
				      const struct cap_frame *f,
				      enum cap_transport t,
				      const struct cap_addr *a, uint32_t dqp,
				      bool create, int *dir)
{
	struct cap_conv_tab *tab = st->ct;
	uint32_t ah = hash_addrs(a), key = hash_half(ah, a, dqp, false);
	struct cap_conv *c = lookup_key(st, a, dqp, false, key, dir);
	if (c) {
		tab->ib_hint[dqp & (CAP_IB_HINTS - 1)] =
			(uint32_t)(c - tab->convs) * 2 + (uint32_t)*dir + 1;
		touch(st, c, f);
		return c;
	}
	/* the reverse half of an open QP pair? */
	c = open_find(st, t, a, ah, dir);
	if (c) {
		open_remove(st, c);
		touch(st, c, f);
	} else if (!create) {
		return NULL;
	} else {
		c = new_conv(st, f, t, a);
		*dir = 0;
		struct cap_addr r = *a;        /* its other half: dst -> src */
		memcpy(r.src, a->dst, 16);
		memcpy(r.dst, a->src, 16);
		open_add(st, c, hash_addrs(&r));
	}
	c->d[*dir].qp = dqp;
	c->d[*dir].have_qp = true;
	c->d[0].txt_ok = c->d[1].txt_ok = false;
	link_half(st, (uint32_t)(c - st->ct->convs), *dir, key);
	return c;
}

struct cap_conv *cap_conv_cm(struct cap_state *st, const struct cap_frame *f,
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
	uint32_t slot = (uint32_t)(c - st->ct->convs);
	c->d[0].qp = qpn_rep;
	c->d[0].have_qp = true;
	c->d[1].qp = qpn_req;
	c->d[1].have_qp = true;
	c->started = true;
	link_half(st, slot, 0, hash_half(hash_addrs(a), a, qpn_rep, false));
	link_half(st, slot, 1, hash_half(hash_addrs(&r), &r, qpn_req, false));
	return c;
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
		touch(st, c, f);
		return c;
	}
	if (!create)
		return NULL;
	c = new_conv(st, f, CAP_T_IWARP, a);
	c->heap = true;                    /* TCP and MPA buffers */
	uint32_t slot = (uint32_t)(c - st->ct->convs);
	struct cap_addr r = *a;
	memcpy(r.src, a->dst, 16);
	memcpy(r.dst, a->src, 16);
	r.sport = a->dport;
	r.dport = a->sport;
	link_half(st, slot, 0, hash_half(hash_addrs(a), a, 0, true));
	link_half(st, slot, 1, hash_half(hash_addrs(&r), &r, 0, true));
	*dir = 0;
	return c;
}

struct cap_conv *cap_conv_by_slot(struct cap_state *st, uint32_t slot,
				  uint32_t id)
{
	if (slot >= CAP_MAX_CONVS || !st->ct->convs[slot].used ||
	    st->ct->convs[slot].id != id)
		return NULL;
	return &st->ct->convs[slot];
}

uint32_t cap_conv_slot(const struct cap_state *st, const struct cap_conv *c)
{
	return (uint32_t)(c - st->ct->convs);
}

bool cap_conv_init(struct cap_state *st,
		   void (*end)(struct cap_state *st, struct cap_conv *c))
{
	struct cap_conv_tab *t = st->ct = calloc(1, sizeof(*st->ct));

	if (!t)
		return false;
	t->end = end;

	/* a conversation is cleared when opened (new_conv); before, only
	 * `used` and `id` are read (cap_conv_by_slot) */
	st->ct->convs = malloc(CAP_MAX_CONVS * sizeof(*st->ct->convs));
	t->lru = calloc(CAP_MAX_CONVS, sizeof(*t->lru));
	t->ord = calloc(CAP_MAX_CONVS, sizeof(*t->ord));
	t->open = calloc(CAP_MAX_CONVS, sizeof(*t->open));
	t->hnode = calloc(2 * CAP_MAX_CONVS, sizeof(*t->hnode));
	t->half = calloc(HALF_NB, sizeof(*t->half));
	t->open_head = calloc(OPEN_NB, sizeof(*t->open_head));
	t->open_tail = calloc(OPEN_NB, sizeof(*t->open_tail));
	if (!st->ct->convs || !t->lru || !t->ord || !t->open || !t->hnode ||
	    !t->half || !t->open_head || !t->open_tail)
		return false;
	for (uint32_t i = 0; i < CAP_MAX_CONVS; i++) {
		st->ct->convs[i].used = false;
		st->ct->convs[i].id = 0;
		t->lru[i].next = i + 2 <= CAP_MAX_CONVS ? i + 2 : 0;
	}
	t->free = 1;
	return true;
}

/* every open conversation, in id order (so --stats lists them in order) */
void cap_conv_close_all(struct cap_state *st)
{
	while (st->ct && st->ct->convs && st->ct->ord_head)
		cap_conv_close(st, &st->ct->convs[st->ct->ord_head - 1]);
}

void cap_conv_free(struct cap_state *st)
{
	if (!st->ct)
		return;
	cap_conv_close_all(st);
	free(st->ct->convs);
	free(st->ct->lru);
	free(st->ct->ord);
	free(st->ct->open);
	free(st->ct->hnode);
	free(st->ct->half);
	free(st->ct->open_head);
	free(st->ct->open_tail);
	free(st->ct);
	st->ct = NULL;
}
