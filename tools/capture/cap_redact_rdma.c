/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cap_redact_rdma.c - --redact over RDMA traffic: InfiniBand and RoCE
 * packets (the BTH and what follows, IBTA 9), and what iWARP
 * (cap_redact_iwarp.c) shares with them.  A Send is put together from its
 * packets, redacted as one message (cap_redact_rpc.c) and its bytes put
 * back where they came from.  RDMA data (Writes, Read Responses) is
 * zeroed, unless it lands in a segment a call advertised as its reply
 * chunk or position-zero read chunk: those bytes are an RPC message,
 * gathered until the reply with that xid comes (or the capture ends) and
 * redacted as one.  Every table is fixed in size: what does not fit is
 * zeroed, never kept.
 */
#include <stdlib.h>
#include <string.h>
#include "be.h"
#include "cap_redact.h"

#ifndef CAP_FUZZ_CRC
#define RDX_STREAMS 4096u            /* receiving sides (power of two) */
#define RDX_ADV 65536u               /* advertised segments (power of two) */
#define RDX_GROUPS 256u              /* RPC messages in chunks at once */
#define RDX_RDREQS 256u              /* RDMA Read Requests remembered */
#else                                /* the fuzz build: a run per input,
				      * small tables (full ones fuzzed too) */
#define RDX_STREAMS 64u
#define RDX_ADV 256u
#define RDX_GROUPS 16u
#define RDX_RDREQS 16u
#endif
#define PROBE 64u

struct adv_slot {
	bool used;
	uint8_t addr[16];
	struct rdx_adv a;
};

struct group {                       /* an RPC message in chunks */
	bool used;
	uint8_t addr[16];
	uint32_t xid;
	uint64_t age;
	struct rdx_pcs pc;
};

struct rdx_rdma {
	struct rdx_stream *st;
	struct adv_slot *adv;
	struct group grp[RDX_GROUPS];
	struct rdx_rdreq rq[RDX_RDREQS];
	uint32_t rq_next;
	uint64_t age;
	uint8_t *buf;                /* RDX_MAX_SEND: a message put together */
};

struct rdx_rdma *rdx_rdma_new(void)
{
	struct rdx_rdma *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->st = calloc(RDX_STREAMS, sizeof(*r->st));
	r->adv = calloc(RDX_ADV, sizeof(*r->adv));
	r->buf = malloc(RDX_MAX_SEND);
	if (!r->st || !r->adv || !r->buf) {
		free(r->st);
		free(r->adv);
		free(r->buf);
		free(r);
		return NULL;
	}
	return r;
}

static uint32_t fnv(const uint8_t *p, size_t n)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 16777619u;
	return h;
}

struct rdx_stream *rdx_stream_get(struct rdx_rdma *r, const uint8_t *src,
				  const uint8_t *dst, const uint8_t key[40])
{
	uint32_t h = fnv(key, 40);

	for (uint32_t i = 0; i < PROBE; i++) {
		struct rdx_stream *s = &r->st[(h + i) & (RDX_STREAMS - 1)];
		if (s->used && !memcmp(s->key, key, 40))
			return s;
		if (!s->used) {
			s->used = true;
			memcpy(s->key, key, 40);
			memcpy(s->src, src, 16);
			memcpy(s->dst, dst, 16);
			return s;
		}
	}
	return NULL;                       /* full: the caller zeroes */
}

/* ------------------------------------------------------------ pieces */

void rdx_pcs_add(struct rdx *x, struct rdx_pcs *pc, uint8_t *p, uint32_t n,
		 uint64_t pos)
{
	if (!n)
		return;
	if (pc->over || pos + n > RDX_MAX_SEND) {
		memset(p, 0, n);
		pc->over = true;
		rdx_counts(x)->unparsed++;
		return;
	}
	if (pc->n == pc->cap) {
		uint32_t cap = pc->cap ? pc->cap * 2 : 8;
		struct rdx_piece *v = realloc(pc->v, cap * sizeof(*v));
		if (!v) {
			memset(p, 0, n);
			pc->over = true;
			return;
		}
		pc->v = v;
		pc->cap = cap;
	}
	pc->v[pc->n++] = (struct rdx_piece){ p, n, pos };
	if (pos + n > pc->end)
		pc->end = pos + n;
}

static void pcs_reset(struct rdx_pcs *pc)
{
	pc->n = 0;
	pc->end = 0;
	pc->on = pc->over = false;
}

void rdx_pcs_zero(struct rdx *x, struct rdx_pcs *pc)
{
	if (pc->n)
		rdx_counts(x)->unparsed++;
	for (uint32_t i = 0; i < pc->n; i++)
		memset(pc->v[i].p, 0, pc->v[i].len);
	pcs_reset(pc);
}

void rdx_fpdu_drop(struct rdx *x, struct rdx_stream *s)
{
	for (uint32_t i = 0; i < s->nfp; i++)
		memset(s->fp[i].p, 0, s->fp[i].len);
	for (uint32_t i = 0; i < s->nooo; i++)
		memset(s->ooo[i].p, 0, s->ooo[i].len);
	if (s->nfp || s->nooo)
		rdx_counts(x)->unparsed++;
	s->nfp = 0;
	s->nooo = 0;
}

static void gather(uint8_t *buf, const struct rdx_pcs *pc)
{
	memset(buf, 0, pc->end);
	for (uint32_t i = 0; i < pc->n; i++)
		memcpy(buf + pc->v[i].pos, pc->v[i].p, pc->v[i].len);
}

static void scatter(const uint8_t *buf, const struct rdx_pcs *pc)
{
	for (uint32_t i = 0; i < pc->n; i++)
		memcpy(pc->v[i].p, buf + pc->v[i].pos, pc->v[i].len);
}

/* ------------------------------------------------ advertised segments */

static struct adv_slot *adv_find(struct rdx_rdma *r, const uint8_t *addr,
				 uint32_t handle, bool add)
{
	uint8_t k[20];

	memcpy(k, addr, 16);
	memcpy(k + 16, &handle, 4);
	uint32_t h = fnv(k, 20);
	for (uint32_t i = 0; i < PROBE; i++) {
		struct adv_slot *a = &r->adv[(h + i) & (RDX_ADV - 1)];
		if (a->used && a->a.handle == handle && !memcmp(a->addr, addr, 16))
			return a;
		if (!a->used)
			return add ? a : NULL;
	}
	return add ? &r->adv[h & (RDX_ADV - 1)] : NULL;  /* evicted */
}

static void adv_add(struct rdx_rdma *r, const uint8_t *addr,
		    const struct rdx_adv *a)
{
	struct adv_slot *s = adv_find(r, addr, a->handle, true);

	s->used = true;
	memcpy(s->addr, addr, 16);
	s->a = *a;
}

/* ------------------------------------------- RPC messages in chunks */

static struct group *group_find(struct rdx_rdma *r, const uint8_t *addr,
				uint32_t xid)
{
	for (uint32_t i = 0; i < RDX_GROUPS; i++)
		if (r->grp[i].used && r->grp[i].xid == xid &&
		    !memcmp(r->grp[i].addr, addr, 16))
			return &r->grp[i];
	return NULL;
}

static void group_flush(struct rdx *x, struct rdx_rdma *r, struct group *g)
{
	if (!g->pc.over && g->pc.end) {
		gather(r->buf, &g->pc);
		rdx_rpc(x, r->buf, (uint32_t)g->pc.end);
		scatter(r->buf, &g->pc);
		rdx_counts(x)->rpc_chunks++;
	} else {
		rdx_pcs_zero(x, &g->pc);
	}
	pcs_reset(&g->pc);
	g->used = false;
}

static struct group *group_new(struct rdx *x, struct rdx_rdma *r,
			       const uint8_t *addr, uint32_t xid)
{
	struct group *old = &r->grp[0];

	for (uint32_t i = 0; i < RDX_GROUPS; i++) {
		if (!r->grp[i].used) {
			old = &r->grp[i];
			break;
		}
		if (r->grp[i].age < old->age)
			old = &r->grp[i];
	}
	if (old->used)
		group_flush(x, r, old);    /* the oldest gives way */
	old->used = true;
	memcpy(old->addr, addr, 16);
	old->xid = xid;
	old->age = ++r->age;
	return old;
}

void rdx_data(struct rdx *x, struct rdx_rdma *r, const uint8_t *adv,
	      uint32_t handle, uint64_t va, uint8_t *p, uint32_t n)
{
	const struct adv_slot *s = adv ? adv_find(r, adv, handle, false) : NULL;

	if (!n)
		return;
	if (!s || !s->a.rpc || va < s->a.offset ||
	    va - s->a.offset + n > s->a.length) {
		memset(p, 0, n);
		rdx_counts(x)->rdma_zeroed++;
		return;
	}
	struct group *g = group_find(r, adv, s->a.xid);
	if (!g)
		g = group_new(x, r, adv, s->a.xid);
	rdx_pcs_add(x, &g->pc, p, n, s->a.pos + (va - s->a.offset));
}

void rdx_send_done(struct rdx *x, struct rdx_rdma *r, struct rdx_stream *s)
{
	struct rdx_pcs *pc = &s->send;
	struct rdx_sent sent;

	if (pc->over || !pc->end) {
		rdx_pcs_zero(x, pc);
		return;
	}
	gather(r->buf, pc);
	if (pc->end >= 4) {
		/* the call carried in chunks first: its reply's body
		 * needs what the call was */
		struct group *g = group_find(r, s->dst, be32_get(r->buf));
		if (g) {
			group_flush(x, r, g);
			gather(r->buf, pc);
		}
	}
	rdx_send(x, r->buf, (uint32_t)pc->end, &sent);
	scatter(r->buf, pc);
	if (sent.valid && !sent.reply)
		for (uint32_t i = 0; i < sent.nadv; i++)
			adv_add(r, s->src, &sent.adv[i]);
	pcs_reset(pc);
}

/* ----------------------------------------------------- Read Requests */

void rdx_rdreq_add(struct rdx_rdma *r, const struct rdx_rdreq *q)
{
	r->rq[r->rq_next++ % RDX_RDREQS] = *q;
	r->rq[(r->rq_next - 1) % RDX_RDREQS].used = true;
}

const struct rdx_rdreq *rdx_rdreq_find(const struct rdx_rdma *r,
				       const uint8_t *req, bool iwarp,
				       uint32_t psn_or_sink)
{
	const struct rdx_rdreq *best = NULL;
	uint32_t best_d = 1u << 16;

	for (uint32_t i = 0; i < RDX_RDREQS; i++) {
		const struct rdx_rdreq *q = &r->rq[i];
		if (!q->used || memcmp(q->req, req, 16))
			continue;
		if (iwarp) {
			if (q->sink == psn_or_sink)
				best = q;  /* the latest wins below */
			continue;
		}
		uint32_t d = (psn_or_sink - q->psn) & 0xffffffu;
		if (d < best_d) {
			best_d = d;
			best = q;
		}
	}
	return best;
}

/* -------------------------------------------------- InfiniBand, RoCE */

enum {
	OP_SEND_FIRST = 0x00, OP_SEND_MIDDLE = 0x01, OP_SEND_LAST = 0x02,
	OP_SEND_LAST_IMM = 0x03, OP_SEND_ONLY = 0x04, OP_SEND_ONLY_IMM = 0x05,
	OP_WRITE_FIRST = 0x06, OP_WRITE_MIDDLE = 0x07, OP_WRITE_LAST = 0x08,
	OP_WRITE_LAST_IMM = 0x09, OP_WRITE_ONLY = 0x0a, OP_WRITE_ONLY_IMM = 0x0b,
	OP_READ_REQ = 0x0c, OP_READ_RESP_FIRST = 0x0d, OP_READ_RESP_MIDDLE = 0x0e,
	OP_READ_RESP_LAST = 0x0f, OP_READ_RESP_ONLY = 0x10,
	OP_SEND_LAST_INV = 0x16, OP_SEND_ONLY_INV = 0x17,
};

/* extended header bytes after the BTH of an RC opcode (IBTA 9.2, 9.3) */
static int ext_len(uint8_t op)
{
	switch (op) {
	case OP_SEND_FIRST: case OP_SEND_MIDDLE: case OP_SEND_LAST:
	case OP_SEND_ONLY: case OP_WRITE_MIDDLE: case OP_WRITE_LAST:
	case OP_READ_RESP_MIDDLE:
		return 0;
	case OP_SEND_LAST_IMM: case OP_SEND_ONLY_IMM: case OP_WRITE_LAST_IMM:
	case OP_SEND_LAST_INV: case OP_SEND_ONLY_INV: case OP_READ_RESP_FIRST:
	case OP_READ_RESP_LAST: case OP_READ_RESP_ONLY:
		return 4;
	case OP_WRITE_FIRST: case OP_WRITE_ONLY: case OP_READ_REQ:
		return 16;
	case OP_WRITE_ONLY_IMM:
		return 20;
	case 0x11: return 4;                   /* ACK: AETH */
	}
	return -1;
}

static void ib_send(struct rdx *x, struct rdx_rdma *r, struct rdx_stream *s,
		    uint8_t op, uint8_t *p, uint32_t n)
{
	bool first = op == OP_SEND_FIRST || op == OP_SEND_ONLY ||
		     op == OP_SEND_ONLY_IMM || op == OP_SEND_ONLY_INV;
	bool last = op != OP_SEND_FIRST && op != OP_SEND_MIDDLE;

	if (first) {
		rdx_pcs_zero(x, &s->send);         /* one never finished */
		s->send.on = true;
	} else if (!s->send.on) {
		memset(p, 0, n);                   /* its start was not seen */
		rdx_counts(x)->unparsed++;
		return;
	}
	rdx_pcs_add(x, &s->send, p, n, s->send.end);
	if (last)
		rdx_send_done(x, r, s);
}

/* RETH (IBTA 9.3.3): VA, R_Key, length */
static void reth_remap(struct rdx *x, uint8_t *reth)
{
	uint8_t t[12];

	if (!x->keys)
		return;
	memcpy(t, reth + 8, 4);            /* as the handle-first layout */
	memcpy(t + 4, reth, 8);
	rdx_remap(x, t, 4);
	memcpy(reth + 8, t, 4);
	memcpy(reth, t + 4, 8);
}

static void ib_rdma(struct rdx *x, struct rdx_rdma *r, struct rdx_stream *s,
		    const uint8_t *src, uint8_t op, uint8_t *ext,
		    uint32_t psn, uint8_t *p, uint32_t n)
{
	if (op == OP_WRITE_FIRST || op == OP_WRITE_ONLY ||
	    op == OP_WRITE_ONLY_IMM) {
		s->data_on = true;
		memcpy(s->adv, s->dst, 16);        /* the target's memory */
		s->va = be64_get(ext);
		s->handle = be32_get(ext + 8);
		reth_remap(x, ext);
	} else if (op == OP_READ_RESP_FIRST || op == OP_READ_RESP_ONLY) {
		const struct rdx_rdreq *q = rdx_rdreq_find(r, s->dst, false, psn);
		s->data_on = q != NULL;
		if (q) {
			memcpy(s->adv, q->adv, 16);
			s->va = q->va;
			s->handle = q->handle;
		}
	} else if (op == OP_READ_REQ) {
		struct rdx_rdreq q = { .psn = psn, .va = be64_get(ext),
				       .handle = be32_get(ext + 8) };
		memcpy(q.req, src, 16);
		memcpy(q.adv, s->dst, 16);
		rdx_rdreq_add(r, &q);
		reth_remap(x, ext);
		return;
	}
	if (s->data_on)
		rdx_data(x, r, s->adv, s->handle, s->va, p, n);
	else if (n) {
		memset(p, 0, n);
		rdx_counts(x)->rdma_zeroed++;
	}
	s->va += n;
	if (op == OP_WRITE_LAST || op == OP_WRITE_LAST_IMM ||
	    op == OP_WRITE_ONLY || op == OP_WRITE_ONLY_IMM ||
	    op == OP_READ_RESP_LAST || op == OP_READ_RESP_ONLY)
		s->data_on = false;
}

void rdx_ib_packet(struct rdx *x, struct rdx_rdma *r, const uint8_t *src,
		   const uint8_t *dst, uint8_t *pkt, uint32_t len)
{
	if (len < 16)
		return;
	uint8_t op = pkt[0];
	uint32_t pad = (pkt[1] >> 4) & 3, qp = be32_get(pkt + 4) & 0xffffff;
	uint32_t psn = be32_get(pkt + 8) & 0xffffff;
	uint8_t *body = pkt + 12;
	uint32_t left = len - 12 - 4;      /* without the ICRC */
	int e = op >> 5 ? -1 : ext_len(op);

	if (op >> 5 == 3 && qp == 1) {
		rdx_addr_scrub(x, body, left);  /* CM MADs: kept, but their */
		return;                         /* GIDs and IP addresses */
	}
	if (e < 0 || (uint32_t)e + pad > left) {
		memset(body, 0, left);         /* not RC as we know it */
		rdx_counts(x)->unparsed++;
		return;
	}
	uint8_t key[40] = { 0 };
	memcpy(key, dst, 16);
	memcpy(key + 16, &qp, 4);
	struct rdx_stream *s = rdx_stream_get(r, src, dst, key);
	uint8_t *p = body + e;
	uint32_t n = left - (uint32_t)e - pad;
	if (!s) {
		memset(p, 0, n);
		rdx_counts(x)->unparsed++;
		return;
	}
	if (op == OP_SEND_LAST_INV || op == OP_SEND_ONLY_INV)
		rdx_remap(x, body, -1);            /* IETH: the R_Key */
	if (op <= OP_SEND_ONLY_IMM || op == OP_SEND_LAST_INV ||
	    op == OP_SEND_ONLY_INV) {
		ib_send(x, r, s, op, p, n);
		return;
	}
	if (op <= OP_READ_RESP_ONLY)
		ib_rdma(x, r, s, src, op, body, psn, p, n);
}

void rdx_rdma_free(struct rdx *x, struct rdx_rdma *r)
{
	if (!r)
		return;
	/* first the iWARP segments still held past a gap: going through
	 * them may add RDMA data to the groups flushed next */
	for (uint32_t i = 0; i < RDX_STREAMS; i++)
		if (r->st[i].used)
			rdx_tcp_end(x, r, &r->st[i]);
	for (uint32_t i = 0; i < RDX_GROUPS; i++)
		if (r->grp[i].used)
			group_flush(x, r, &r->grp[i]);
	for (uint32_t i = 0; i < RDX_GROUPS; i++)
		free(r->grp[i].pc.v);
	for (uint32_t i = 0; i < RDX_STREAMS; i++) {
		if (r->st[i].used) {
			rdx_fpdu_drop(x, &r->st[i]);
			rdx_pcs_zero(x, &r->st[i].send);
		}
		free(r->st[i].send.v);
		free(r->st[i].ooo);
	}
	free(r->st);
	free(r->adv);
	free(r->buf);
	free(r);
}
