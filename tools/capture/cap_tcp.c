/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cap_tcp.c - TCP (RFC 9293) byte-stream reassembly for iWARP: per
 * direction, in sequence order; retransmitted bytes dropped, out-of-order
 * segments held (at most CAP_OOO_MAX per direction) until the gap fills;
 * in-order bytes go to the MPA layer (cap_iwarp.c).  A connection is
 * followed only once it looks like MPA (RFC 5044 7.1, 6).
 */
#include <string.h>
#include "cap_state.h"

#define TH_FIN 0x01
#define TH_SYN 0x02
#define TH_RST 0x04

static int32_t seq_diff(uint32_t a, uint32_t b)
{
	return (int32_t)(a - b);
}

static void deliver(struct cap_state *st, const struct cap_frame *f,
		    struct cap_conv *c, int dir, const uint8_t *p, uint32_t len)
{
	struct cap_tcp_dir *t = &c->d[dir].tcp;
	t->next_seq += len;
	cap_iwarp_stream(st, f, c, dir, p, len);
}

/* In-order bytes after a delivery may now be waiting in the OOO slots */
static void drain_ooo(struct cap_state *st, const struct cap_frame *f,
		      struct cap_conv *c, int dir)
{
	struct cap_tcp_dir *t = &c->d[dir].tcp;

	for (bool again = t->nooo != 0; again; ) {
		again = false;
		for (unsigned i = 0; i < CAP_OOO_MAX && t->ooo; i++) {
			struct cap_ooo *o = &t->ooo[i];
			if (!o->data)
				continue;
			int32_t d = seq_diff(o->seq, t->next_seq);
			if (d > 0)
				continue;
			uint32_t skip = (uint32_t)-d;
			uint8_t *data = o->data;
			uint32_t len = o->len;

			/* take the slot first: a delivery that closes the
			 * conversation frees every slot and the slot array */
			o->data = NULL;
			t->nooo--;
			if (skip < len)
				deliver(st, f, c, dir, data + skip, len - skip);
			cap_budget_free(st, data, len);
			if (!c->used)
				return;
			again = t->nooo != 0;
		}
	}
}

static void hold(struct cap_state *st, struct cap_conv *c, int dir,
		 uint32_t seq, const uint8_t *p, uint32_t len)
{
	struct cap_tcp_dir *t = &c->d[dir].tcp;

	/* the slots exist only for streams that need them */
	if (!t->ooo) {
		t->ooo = cap_budget_alloc(st, CAP_OOO_MAX * sizeof(*t->ooo));
		if (!t->ooo)
			return;
		memset(t->ooo, 0, CAP_OOO_MAX * sizeof(*t->ooo));
	}
	for (unsigned i = 0; i < CAP_OOO_MAX; i++) {
		struct cap_ooo *o = &t->ooo[i];
		if (o->data && o->seq == seq && o->len >= len)
			return;                /* already held */
	}
	for (unsigned i = 0; i < CAP_OOO_MAX; i++) {
		struct cap_ooo *o = &t->ooo[i];
		if (o->data)
			continue;
		o->data = cap_budget_alloc(st, len);
		if (!o->data)
			return;
		memcpy(o->data, p, len);
		o->seq = seq;
		o->len = len;
		t->nooo++;
		return;
	}
	cap_warn_once(st, CAP_W_OOO, "more than %u out-of-order TCP segments "
		      "in one direction: the stream is resynchronised",
		      CAP_OOO_MAX);
}

enum cap_res cap_tcp_segment(struct cap_state *st, const struct cap_frame *f,
			     const struct cap_addr *a0, const uint8_t *tcp,
			     uint32_t len)
{
	struct cap_addr a = *a0;
	int dir;

	if (len < 20) {
		st->stats.frames_truncated++;
		return CAP_TRUNCATED;
	}
	uint32_t hl = (tcp[12] >> 4) * 4u;
	if (hl < 20 || hl > len)
		return CAP_TRUNCATED;
	a.sport = cap_be16(tcp);
	a.dport = cap_be16(tcp + 2);
	uint32_t seq = cap_be32(tcp + 4);
	unsigned flags = tcp[13];
	const uint8_t *p = tcp + hl;
	uint32_t n = len - hl;
	bool snapped = f->len < f->wire_len;

	struct cap_conv *c = cap_conv_tcp(st, f, &a, &dir, false);
	if (!c) {
		if (!n || snapped || !cap_iwarp_plausible(p, n))
			return CAP_NOT_OURS;
		c = cap_conv_tcp(st, f, &a, &dir, true);
	}
	struct cap_tcp_dir *t = &c->d[dir].tcp;
	if (flags & TH_RST) {
		cap_conv_close(st, c);
		return CAP_OK;
	}
	if (flags & TH_SYN) {
		t->have_seq = true;
		t->next_seq = seq + 1;
		return CAP_OK;
	}
	if (n && snapped) {
		cap_frame_error(st, f, "TCP segment cut short by the snapshot length "
				"(need %u bytes, have %u): the stream cannot be "
				"followed", f->wire_len, f->len);
		t->have_seq = false;       /* resynchronise later */
		t->len = 0;
		n = 0;
	}
	if (n) {
		st->stats.frames_rdma++;
		if (!t->have_seq) {
			t->have_seq = true;
			t->next_seq = seq;
		}
		int32_t d = seq_diff(seq, t->next_seq);
		if (d > 0) {
			hold(st, c, dir, seq, p, n);
		} else if ((uint32_t)-d >= n) {
			c->stats.retrans++;
			st->stats.total.retrans++;
		} else {
			uint32_t skip = (uint32_t)-d;
			if (skip) {
				c->stats.retrans++;
				st->stats.total.retrans++;
			}
			deliver(st, f, c, dir, p + skip, n - skip);
			if (c->used)
				drain_ooo(st, f, c, dir);
		}
	}
	if (c->used && (flags & TH_FIN)) {
		t->fin = true;
		if (c->d[1 - dir].tcp.fin)
			cap_conv_close(st, c);
	}
	return CAP_OK;
}
