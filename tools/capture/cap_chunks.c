/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cap_chunks.c - outstanding calls and the segments they advertise (V1
 * 4.4.3-4.4.6, 5.3): each RDMA Read or Write is matched to a segment by
 * handle (rkey/STag) and address, chunk payloads are gathered for the
 * rebuild, and a reply's returned chunks are checked against the call's
 * (V1 4.4.6, 4.4.6.2, 5.3.3).  Fixed pools with hash chains; no allocation
 * follows a count from the wire.
 */
#include <stdlib.h>
#include <string.h>
#include "cap_calls.h"


/* the pools, their free lists threaded through hnext; an entry is
 * cleared when it is taken, only `used` and the link are read before */
bool cap_calls_init(struct cap_state *st)
{
	struct cap_call_tab *t = st->kt = calloc(1, sizeof(*st->kt));

	if (!t)
		return false;
	t->calls = malloc(CAP_MAX_CALLS * sizeof(*t->calls));
	t->segs = malloc(CAP_MAX_SEGS * sizeof(*t->segs));
	if (!t->calls || !t->segs)
		return false;
	for (uint32_t i = 0; i < CAP_MAX_CALLS; i++) {
		t->calls[i].used = false;
		t->calls[i].hnext = i + 2 <= CAP_MAX_CALLS ? i + 2 : 0;
	}
	t->call_free = 1;
	for (uint32_t i = 0; i < CAP_MAX_SEGS; i++) {
		t->segs[i].used = false;
		t->segs[i].hnext = i + 2 <= CAP_MAX_SEGS ? i + 2 : 0;
	}
	t->seg_free = 1;
	return true;
}

void cap_calls_free(struct cap_state *st)
{
	if (!st->kt)
		return;
	free(st->kt->calls);
	free(st->kt->segs);
	free(st->kt);
	st->kt = NULL;
}

static uint32_t call_bucket(uint32_t conv, int dir, uint32_t xid)
{
	uint32_t h = (xid ^ conv * 0x9e3779b1u ^ (uint32_t)dir << 31) * 2654435761u;
	return (h >> 16 ^ h) & (CAP_CALL_BUCKETS - 1);
}

static uint32_t seg_bucket(uint32_t conv, uint32_t handle)
{
	uint32_t h = (handle ^ conv * 0x9e3779b1u) * 2654435761u;
	return (h >> 16 ^ h) & (CAP_SEG_BUCKETS - 1);
}

static void seg_unlink(struct cap_state *st, uint32_t i)
{
	struct cap_seg *s = &st->kt->segs[i];
	uint32_t *pp = &st->kt->seg_hash[seg_bucket(s->conv, s->handle)];
	while (*pp) {
		if (*pp - 1 == i) {
			*pp = s->hnext;
			break;
		}
		pp = &st->kt->segs[*pp - 1].hnext;
	}
	s->used = false;
	s->hnext = st->kt->seg_free;
	st->kt->seg_free = i + 1;
	st->kt->nsegs--;
}

/* the calls' two lists: every call, and each conversation's */
static struct cap_link *all_of(struct cap_call *k) { return &k->all; }
static struct cap_link *conv_of(struct cap_call *k) { return &k->in_conv; }

static void call_append(struct cap_call *calls, uint32_t *head, uint32_t *tail,
			uint32_t i, struct cap_link *(*lk)(struct cap_call *))
{
	struct cap_link *l = lk(&calls[i]);
	l->prev = *tail;
	l->next = 0;
	if (*tail)
		lk(&calls[*tail - 1])->next = i + 1;
	else
		*head = i + 1;
	*tail = i + 1;
}

static void call_remove(struct cap_call *calls, uint32_t *head, uint32_t *tail,
			uint32_t i, struct cap_link *(*lk)(struct cap_call *))
{
	struct cap_link *l = lk(&calls[i]);
	if (l->prev)
		lk(&calls[l->prev - 1])->next = l->next;
	else
		*head = l->next;
	if (l->next)
		lk(&calls[l->next - 1])->prev = l->prev;
	else
		*tail = l->prev;
}

void cap_call_free(struct cap_state *st, struct cap_call *k)
{
	uint32_t i = (uint32_t)(k - st->kt->calls);
	uint32_t *pp = &st->kt->call_hash[call_bucket(k->conv, k->dir, k->xid)];
	while (*pp) {
		if (*pp - 1 == i) {
			*pp = k->hnext;
			break;
		}
		pp = &st->kt->calls[*pp - 1].hnext;
	}
	for (uint32_t s = k->segs; s; ) {
		uint32_t nx = st->kt->segs[s - 1].cnext;
		seg_unlink(st, s - 1);
		s = nx;
	}
	cap_budget_free(st, k->msg, k->msg_len);
	cap_budget_free(st, k->rb, k->rb_cap);
	call_remove(st->kt->calls, &st->kt->calls_head, &st->kt->calls_tail, i, all_of);
	struct cap_conv *c = cap_conv_by_slot(st, k->conv_slot, k->conv);
	if (c) {
		call_remove(st->kt->calls, &c->calls_head, &c->calls_tail, i, conv_of);
		if (c->ncalls && !--c->ncalls)
			cap_conv_busy(st, c);
		if (k->untracked && c->untracked)
			c->untracked--;
	}
	/* unreachable now (hash, lists); cap_call_new clears it whole */
	k->used = false;
	k->msg = k->rb = NULL;
	k->hnext = st->kt->call_free;
	st->kt->call_free = i + 1;
	st->kt->ncalls--;
}

struct cap_call *cap_call_find(struct cap_state *st, struct cap_conv *c,
			       int dir, uint32_t xid)
{
	for (uint32_t n = st->kt->call_hash[call_bucket(c->id, dir, xid)]; n;
	     n = st->kt->calls[n - 1].hnext) {
		struct cap_call *k = &st->kt->calls[n - 1];
		if (k->xid == xid && k->conv == c->id && k->dir == dir)
			return k;
	}
	return NULL;
}

/* When the table is full: the oldest call, which the next cap_call_new()
 * forgets (counted lost); its caller prints it first if it waits for its
 * read chunks.  NULL when there is room. */
struct cap_call *cap_call_full(struct cap_state *st)
{
	if (st->kt->call_free)
		return NULL;
	cap_warn_once(st, CAP_W_CALLS, "more than %u calls without a "
		      "reply: forgetting the oldest", CAP_MAX_CALLS);
	return &st->kt->calls[st->kt->calls_head - 1];
}

struct cap_call *cap_call_new(struct cap_state *st, struct cap_conv *c,
			      int dir, uint32_t xid)
{
	if (!st->kt->call_free) {
		/* full: the oldest call is forgotten (cap_call_full), and
		 * counted lost */
		st->lost.calls++;
		cap_call_free(st, &st->kt->calls[st->kt->calls_head - 1]);
	}
	uint32_t i = st->kt->call_free - 1;
	struct cap_call *k = &st->kt->calls[i];
	st->kt->call_free = k->hnext;
	memset(k, 0, sizeof(*k));
	k->used = true;
	k->conv = c->id;
	k->conv_slot = cap_conv_slot(st, c);
	k->dir = (uint8_t)dir;
	k->xid = xid;
	if (!c->ncalls++)
		cap_conv_busy(st, c);
	uint32_t b = call_bucket(c->id, dir, xid);
	k->hnext = st->kt->call_hash[b];
	st->kt->call_hash[b] = i + 1;
	call_append(st->kt->calls, &st->kt->calls_head, &st->kt->calls_tail, i, all_of);
	call_append(st->kt->calls, &c->calls_head, &c->calls_tail, i, conv_of);
	st->kt->ncalls++;
	return k;
}

/* The calls of conversation `c` (NULL: of all), oldest first (the order
 * they arrived in): the first after `k` (NULL: the first) */
struct cap_call *cap_calls_next(struct cap_state *st, struct cap_conv *c,
				struct cap_call *k)
{
	uint32_t i = !k ? (c ? c->calls_head : st->kt->calls_head) :
		     c ? k->in_conv.next : k->all.next;
	return i ? &st->kt->calls[i - 1] : NULL;
}

/* Forget every call of conversation `c` (NULL: of all conversations).
 * O(the calls forgotten). */
void cap_calls_forget(struct cap_state *st, struct cap_conv *c)
{
	uint32_t *head = c ? &c->calls_head : &st->kt->calls_head;
	while (*head)
		cap_call_free(st, &st->kt->calls[*head - 1]);
}

static uint32_t add_seg(struct cap_state *st, struct cap_call *k,
			uint32_t *tail, enum cap_seg_kind kind,
			const struct rpcrdma_segment *sg, uint32_t pos,
			uint32_t idx)
{
	uint32_t i = st->kt->seg_free - 1;
	struct cap_seg *s = &st->kt->segs[i];
	st->kt->seg_free = s->hnext;
	memset(s, 0, sizeof(*s));
	s->used = true;
	s->kind = (uint8_t)kind;
	s->call = (uint32_t)(k - st->kt->calls);
	s->conv = k->conv;
	s->handle = sg->rdma_handle;
	s->len = sg->rdma_length;
	s->va = sg->rdma_offset;
	s->position = pos;
	s->idx = idx;
	uint32_t b = seg_bucket(s->conv, s->handle);
	s->hnext = st->kt->seg_hash[b];
	st->kt->seg_hash[b] = i + 1;
	if (*tail)
		st->kt->segs[*tail - 1].cnext = i + 1;
	else
		k->segs = i + 1;
	*tail = i + 1;
	st->kt->nsegs++;
	return i + 1;
}

static uint32_t clamp32(uint64_t v, uint32_t max)
{
	return v > max ? max : (uint32_t)v;
}

void cap_chunks_register(struct cap_state *st, const struct cap_frame *f,
			 struct cap_conv *c, struct cap_call *k,
			 const struct rpcrdma_msg *m)
{
	struct rpcrdma_read_iter ri;
	struct rpcrdma_read_segment rs;
	struct rpcrdma_chunk_iter ci;
	struct rpcrdma_seg_iter si;
	struct rpcrdma_segment sg;
	uint32_t tail = 0, idx = 0, s;
	uint64_t rtot = 0, ptot = 0;

	(void)f;
	if (!m->nreads && !m->nwrites && !m->has_reply) {
		k->read_total = 0;         /* no chunks: what the walk finds */
		return;
	}
	/* all of the call's segments, or none: a call half registered would
	 * make its reply look changed (V1 4.4.6) */
	uint64_t need = (uint64_t)m->nreads + m->nwrite_segs + m->nreply_segs;
	if (need > CAP_MAX_SEGS - st->kt->nsegs) {
		cap_warn_once(st, CAP_W_SEGS, "more than %u advertised segments "
			      "outstanding: calls past that are not tracked "
			      "(no chunk data, no chunk checks)", CAP_MAX_SEGS);
		k->untracked = true;
		c->untracked++;
		st->lost.untracked++;
		return;
	}
	rpcrdma_read_iter_init(m, &ri);
	while (rpcrdma_read_next(&ri, &rs)) {
		s = add_seg(st, k, &tail, CAP_SEG_READ, &rs.rdma_target,
			    rs.rdma_position, idx++);
		if (!s)
			return;
		st->kt->segs[s - 1].rb_off = clamp32(rtot, UINT32_MAX);
		rtot += rs.rdma_target.rdma_length;
	}
	k->read_total = clamp32(rtot, UINT32_MAX);
	uint32_t rcap = clamp32(rtot, CAP_REBUILD_MAX);

	rpcrdma_write_iter_init(m, &ci);
	for (uint32_t chunk = 0; rpcrdma_write_next(&ci, &si); chunk++) {
		idx = 0;
		while (rpcrdma_seg_next(&si, &sg))
			if (!add_seg(st, k, &tail, CAP_SEG_WRITE, &sg, chunk, idx++))
				return;
		k->nwrite_chunks = chunk + 1;
	}
	if (rpcrdma_reply_chunk(m, &si)) {
		idx = 0;
		while (rpcrdma_seg_next(&si, &sg)) {
			s = add_seg(st, k, &tail, CAP_SEG_REPLY, &sg, 0, idx++);
			if (!s)
				return;
			st->kt->segs[s - 1].rb_off = rcap + clamp32(ptot, CAP_REBUILD_MAX);
			ptot += sg.rdma_length;
		}
	}
	uint32_t pcap = clamp32(ptot, CAP_REBUILD_MAX);
	if (rcap + pcap) {
		k->rb = cap_budget_alloc(st, rcap + pcap);
		if (k->rb) {
			/* bytes the capture never shows read as zeros (a
			 * message rebuilt before, or without, all its data):
			 * zeroed up to where data comes (cap_chunks_data), the
			 * rest read as zeros (cap_msg.c) */
			k->rb_zeroed = 0;
			k->rb_cap = rcap + pcap;
			k->rb_split = rcap;
		}
	}
}

/* RDMA data moved to (write) or from (read) advertised memory: matched
 * to its segment, counted, kept for the rebuild.  Returns the call whose
 * read chunks this completes while it waits to be printed, else NULL. */
struct cap_call *cap_chunks_data(struct cap_state *st, const struct cap_frame *f,
				 struct cap_conv *c, enum cap_rdma_op op,
				 uint32_t rkey, uint64_t va, const uint8_t *p,
				 uint32_t len)
{
	struct cap_seg *s = NULL;

	if (!len)
		return NULL;
	c->stats.rdma_bytes += len;
	for (uint32_t n = st->kt->seg_hash[seg_bucket(c->id, rkey)]; n;
	     n = st->kt->segs[n - 1].hnext) {
		struct cap_seg *t = &st->kt->segs[n - 1];
		if (t->conv == c->id && t->handle == rkey && va >= t->va &&
		    va - t->va < t->len) {
			s = t;
			break;
		}
	}
	const char *opn = op == CAP_OP_READ ? "RDMA Read" : "RDMA Write";
	if (!s && ((!c->started && !c->synced) || c->untracked)) {
		/* the capture began mid-conversation, or a call's segments
		 * are not tracked: this may move data for such a call */
		c->stats.unmatched++;
		return NULL;
	}
	if (!s || (op == CAP_OP_READ) != (s->kind == CAP_SEG_READ)) {
		cap_lint(st, f->num, "unadvertised-rdma", "V1 4.4.3",
			 "%s of %u bytes to handle 0x%08x offset 0x%llx: no %s "
			 "chunk advertises it", opn, len, rkey,
			 (unsigned long long)va,
			 op == CAP_OP_READ ? "read" : "write or reply");
		return NULL;
	}
	uint64_t rel = va - s->va;
	uint32_t n = len;
	if (rel + n > s->len) {
		cap_lint(st, f->num, "unadvertised-rdma", "V1 4.4.3",
			 "%s of %u bytes at handle 0x%08x offset 0x%llx runs %llu "
			 "bytes past the advertised %u-byte segment", opn, len,
			 rkey, (unsigned long long)va,
			 (unsigned long long)(rel + n - s->len), s->len);
		n = (uint32_t)(s->len - rel);
	}
	/* a segment fills in order: count new bytes only (a repeated
	 * response or write is not new data) */
	uint32_t fresh = rel + n > s->got ? (uint32_t)(rel + n - s->got) : 0;
	if (fresh > n)
		fresh = n;
	s->got += fresh;
	struct cap_call *k = &st->kt->calls[s->call];
	if (s->kind == CAP_SEG_READ) {
		if (!k->rd_first)
			k->rd_first = f->num;
		k->rd_last = f->num;
		k->rd_bytes += fresh;
	} else {
		if (!k->wr_first)
			k->wr_first = f->num;
		k->wr_last = f->num;
		if (s->kind == CAP_SEG_WRITE)
			k->wr_bytes += fresh;
		else
			k->rp_bytes += fresh;
	}
	if (k->rb && s->kind != CAP_SEG_WRITE) {
		uint32_t end = s->kind == CAP_SEG_READ ? k->rb_split : k->rb_cap;
		uint64_t dst = (uint64_t)s->rb_off + rel;
		if (dst < end) {
			uint32_t m = clamp32(end - dst, n);
			if (dst > k->rb_zeroed)
				memset(k->rb + k->rb_zeroed, 0, dst - k->rb_zeroed);
			memcpy(k->rb + dst, p, m);
			if (dst + m > k->rb_zeroed)
				k->rb_zeroed = (uint32_t)(dst + m);
			if (s->kind == CAP_SEG_READ && dst <= k->read_prefix &&
			    dst + m > k->read_prefix)
				k->read_prefix = (uint32_t)(dst + m);
		}
	}
	if (s->kind == CAP_SEG_READ) {
		k->read_got += fresh;
		if (k->msg && k->read_got >= k->read_total)
			return k;
	}
	return NULL;
}

/* the call's segments of one kind and chunk, in order */
static uint32_t segs_of(struct cap_state *st, const struct cap_call *k,
			enum cap_seg_kind kind, uint32_t chunk,
			struct cap_seg **out, uint32_t cap)
{
	uint32_t n = 0;
	for (uint32_t i = k->segs; i; i = st->kt->segs[i - 1].cnext) {
		struct cap_seg *s = &st->kt->segs[i - 1];
		if (s->kind == kind && (kind != CAP_SEG_WRITE || s->position == chunk)) {
			if (n < cap)
				out[n] = s;
			n++;
		}
	}
	return n;
}

/* Chunk bytes the capture lacks for an answered call: read chunk bytes the
 * call's sender gave (RDMA Read responses), write chunk bytes the reply
 * says were written (RDMA Writes) that the capture did not see */
static void chunk_missing(struct cap_state *st, struct cap_call *k,
			  uint64_t wrote, uint64_t seen)
{
	struct cap_conv *c = cap_conv_by_slot(st, k->conv_slot, k->conv);
	uint64_t rd = k->read_total > k->read_got ? k->read_total - k->read_got : 0;
	uint64_t wr = wrote > seen ? wrote - seen : 0;

	if (!c)
		return;
	c->stats.chunk_missing[k->dir] += rd;
	c->stats.chunk_missing[1 - k->dir] += wr;
	st->stats.total.chunk_missing[k->dir] += rd;
	st->stats.total.chunk_missing[1 - k->dir] += wr;
}

void cap_chunks_check_reply(struct cap_state *st, const struct cap_frame *f,
			    struct cap_call *k, const struct rpcrdma_msg *m)
{
	struct rpcrdma_chunk_iter ci;
	struct rpcrdma_seg_iter si;
	struct rpcrdma_segment sg;
	struct cap_seg *adv[64];
	uint64_t wrote = 0, seen = 0;

	if (!m->nwrites && !m->has_reply) {   /* no chunks to compare */
		chunk_missing(st, k, 0, 0);
		return;
	}
	rpcrdma_write_iter_init(m, &ci);
	for (uint32_t chunk = 0; rpcrdma_write_next(&ci, &si); chunk++) {
		uint32_t na = segs_of(st, k, CAP_SEG_WRITE, chunk, adv, 64);
		if (chunk >= k->nwrite_chunks || si.nsegs != na) {
			cap_lint(st, f->num, "write-chunk-segments-changed", "V1 4.4.6",
				 "reply returns write chunk %u with %u segments; the "
				 "call advertised %u", chunk, si.nsegs,
				 chunk >= k->nwrite_chunks ? 0 : na);
			continue;
		}
		bool used = false;
		for (uint32_t i = 0; i < na && i < 64; i++)
			used |= adv[i]->got > 0;
		for (uint32_t i = 0; rpcrdma_seg_next(&si, &sg) && i < 64; i++) {
			struct cap_seg *a = adv[i];
			wrote += sg.rdma_length < a->len ? sg.rdma_length : a->len;
			seen += a->got;
			if (sg.rdma_handle != a->handle || sg.rdma_offset != a->va)
				cap_lint(st, f->num, "write-chunk-segments-changed",
					 "V1 4.4.6", "write chunk %u segment %u returned "
					 "as 0x%08x@0x%llx; advertised 0x%08x@0x%llx",
					 chunk, i, sg.rdma_handle,
					 (unsigned long long)sg.rdma_offset, a->handle,
					 (unsigned long long)a->va);
			if (sg.rdma_length > a->len)
				cap_lint(st, f->num, "write-chunk-overrun", "V1 4.4.6",
					 "write chunk %u segment %u returned with length "
					 "%u; only %u advertised", chunk, i,
					 sg.rdma_length, a->len);
			else if (!used && sg.rdma_length)
				cap_lint(st, f->num, "unused-write-chunk-nonzero",
					 "V1 4.4.6.2", "write chunk %u carried no data "
					 "but segment %u returns length %u", chunk, i,
					 sg.rdma_length);
		}
	}
	if (rpcrdma_reply_chunk(m, &si)) {
		uint32_t na = segs_of(st, k, CAP_SEG_REPLY, 0, adv, 64);
		for (uint32_t i = 0; rpcrdma_seg_next(&si, &sg); i++) {
			uint32_t alen = i < na && i < 64 ? adv[i]->len : 0;
			if (sg.rdma_length > alen)
				cap_lint(st, f->num, "reply-chunk-overrun", "V1 5.3.3",
					 "reply chunk segment %u returned with length %u; "
					 "%s", i, sg.rdma_length,
					 i < na ? "the call advertised less" :
						  "the call advertised no such segment");
		}
	}
	chunk_missing(st, k, wrote, seen);
}
