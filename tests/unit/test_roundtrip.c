/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_roundtrip.c - property tests: random valid headers of both versions
 * encode, decode as accepted with the same fields, and re-encode to the same
 * bytes; random and mutated bytes never read past the buffer and always get
 * a verdict.  Deterministic (fixed seed; RPCRDMA_SEED overrides).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rpcrdma/codec.h"
#include "rpcrdma/rpc.h"
#include "tap.h"

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void)              /* xorshift64* */
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dull;
}

static uint32_t rnd_below(uint32_t n)
{
	return (uint32_t)(rnd() % n);
}

static void rnd_segment(struct rpcrdma_segment *s)
{
	s->rdma_handle = (uint32_t)rnd();
	s->rdma_length = (uint32_t)rnd();
	s->rdma_offset = rnd();
}

struct sample {
	struct rpcrdma_hdr h;
	struct rpcrdma_read_segment reads[8];
	struct rpcrdma_write_chunk writes[4], reply;
	struct rpcrdma_segment segs[40];
	uint8_t optinfo[64];
};

/* A random well-formed header; returns the RPC direction it describes */
static void random_header(struct sample *s)
{
	unsigned i, j, nseg = 0;
	struct rpcrdma_hdr *h = &s->h;
	static const uint32_t procs[] = { RDMA_MSG, RDMA_NOMSG, RDMA_ERROR, RDMA2_OPTIONAL };

	memset(s, 0, sizeof(*s));
	h->rdma_xid = (uint32_t)rnd();
	h->rdma_vers = 1 + rnd_below(2);
	h->rdma_credit = 1 + rnd_below(256);
	h->rdma_proc = procs[rnd_below(h->rdma_vers == 2 ? 4 : 3)];
	h->direction = rnd_below(2);
	switch (h->rdma_proc) {
	case RDMA_MSG:
	case RDMA_NOMSG:
		h->nreads = rnd_below(5);
		for (i = 0; i < h->nreads; i++) {
			s->reads[i].rdma_position = 4 * rnd_below(1024);
			rnd_segment(&s->reads[i].rdma_target);
		}
		h->reads = s->reads;
		h->nwrites = rnd_below(4);
		for (i = 0; i < h->nwrites; i++) {
			s->writes[i].segs = &s->segs[nseg];
			s->writes[i].nsegs = 1 + rnd_below(5);
			for (j = 0; j < s->writes[i].nsegs; j++)
				rnd_segment(&s->segs[nseg++]);
		}
		h->writes = s->writes;
		if (rnd_below(2) || (h->rdma_proc == RDMA_NOMSG && !h->nreads && !h->nwrites)) {
			s->reply.segs = &s->segs[nseg];
			s->reply.nsegs = 1 + rnd_below(5);
			for (j = 0; j < s->reply.nsegs; j++)
				rnd_segment(&s->segs[nseg++]);
			h->reply = &s->reply;
		}
		break;
	case RDMA_ERROR:
		h->rdma_err = 1 + rnd_below(h->rdma_vers == 2 ? 3 : 2);
		h->rdma_vers_low = 1;
		h->rdma_vers_high = 2;
		break;
	default:
		h->rdma_optdir = rnd_below(2);
		h->rdma_opttype = (uint32_t)rnd();
		h->optinfo_len = rnd_below(sizeof(s->optinfo) + 1);
		for (i = 0; i < h->optinfo_len; i++)
			s->optinfo[i] = (uint8_t)rnd();
		h->optinfo = s->optinfo;
	}
}

static bool same_fields(const struct rpcrdma_hdr *a, const struct rpcrdma_msg *m)
{
	return m->rdma_xid == a->rdma_xid && m->rdma_vers == a->rdma_vers &&
	       m->rdma_credit == a->rdma_credit && m->rdma_proc == a->rdma_proc &&
	       (a->rdma_proc > RDMA_NOMSG ||
		(m->nreads == a->nreads && m->nwrites == a->nwrites &&
		 m->has_reply == (a->reply != NULL)));
}

static int encode_decode_encode(unsigned n)
{
	static struct sample s;
	static uint8_t buf[2048], again[2048];
	static struct rpcrdma_read_segment reads[8];
	static struct rpcrdma_write_chunk chunks[8];
	static struct rpcrdma_segment segs[40];
	unsigned bad = 0, i;

	for (i = 0; i < n; i++) {
		struct rpcrdma_msg m;
		struct rpcrdma_hdr back;
		size_t len, need, len2;
		enum rpcrdma_action want;

		random_header(&s);
		len = rpcrdma_encode(&s.h, buf, sizeof(buf) - 64, &need);
		if (!len || need != len) {
			bad++;
			continue;
		}
		if (s.h.rdma_proc == RDMA_MSG)   /* the RPC message must follow */
			len += rpc_encode_call(buf + len, 64, s.h.rdma_xid, RPC_PROG_NFS, 3, 1);
		if (s.h.rdma_proc == RDMA_MSG && s.h.rdma_vers == 2 && s.h.direction)
			buf[need + 7] = 1;       /* msg_type REPLY to match */
		if (s.h.rdma_proc == RDMA_MSG && s.h.rdma_vers == 1)
			s.h.direction = 0;
		want = s.h.rdma_proc == RDMA2_OPTIONAL ? RPCRDMA_REPLY_INVAL_OPTION
						       : RPCRDMA_ACCEPT;
		if (rpcrdma_decode(buf, len, &m) != want || m.header_len != need ||
		    !same_fields(&s.h, &m) ||
		    !rpcrdma_msg_to_hdr(&m, &back, reads, 8, chunks, 8, segs, 40)) {
			if (bad++ < 5)
				tap_diag("iteration %u: vers %u proc %u: action %s reason %s at %u",
					 i, s.h.rdma_vers, s.h.rdma_proc,
					 rpcrdma_action_name(m.action),
					 rpcrdma_reason_name(m.reason), m.fault_off);
			continue;
		}
		len2 = rpcrdma_encode(&back, again, sizeof(again), NULL);
		if (len2 != need || memcmp(again, buf, need))
			bad++;
	}
	return tap_ok(bad == 0, "%u random valid headers round-trip (%u bad)", n, bad);
}

/* The encoder reports the exact size and writes nothing when short */
static void short_buffers(void)
{
	static struct sample s;
	uint8_t buf[1024];
	unsigned i, bad = 0;

	for (i = 0; i < 2000; i++) {
		size_t need, need2, cap;

		random_header(&s);
		rpcrdma_encode(&s.h, NULL, 0, &need);
		cap = rnd_below((uint32_t)need);
		memset(buf, 0xa5, sizeof(buf));
		if (rpcrdma_encode(&s.h, buf, cap, &need2) != 0 || need2 != need ||
		    buf[0] != 0xa5)
			bad++;
	}
	tap_ok(bad == 0, "short buffers: 0 written, exact size reported (%u bad)", bad);
}

/* Random bytes and mutated valid headers: a verdict, no over-read */
static void random_bytes(unsigned n)
{
	static struct sample s;
	uint8_t buf[512];
	unsigned i, j, bad = 0;

	for (i = 0; i < n; i++) {
		struct rpcrdma_msg m, m2;
		size_t len;

		if (i & 1) {
			random_header(&s);
			len = rpcrdma_encode(&s.h, buf, sizeof(buf), NULL);
			for (j = 0; j < 1 + rnd_below(4) && len; j++)
				buf[rnd_below((uint32_t)len)] ^= (uint8_t)(1u << rnd_below(8));
			len = rnd_below((uint32_t)len + 1);
		} else {
			len = rnd_below(sizeof(buf));
			for (j = 0; j < len; j++)
				buf[j] = (uint8_t)(rnd_below(4) ? rnd_below(3) : rnd());
		}
		const uint8_t *g = guard_copy(buf, len);
		rpcrdma_decode(g, len, &m);
		rpcrdma_decode(g, len, &m2);
		if (m.action != m2.action || m.reason != m2.reason ||
		    (m.action == RPCRDMA_ACCEPT) != (m.reason == RPCRDMA_R_OK) ||
		    m.fault_off > len || m.header_len > len)
			bad++;
	}
	tap_ok(bad == 0, "%u random/mutated inputs: consistent verdicts (%u bad)", n, bad);
}

int main(void)
{
	const char *seed = getenv("RPCRDMA_SEED");

	if (seed)
		rng_state = strtoull(seed, NULL, 0) | 1;
	tap_diag("seed 0x%llx", (unsigned long long)rng_state);
	encode_decode_encode(20000);
	short_buffers();
	random_bytes(200000);
	return tap_done();
}
