/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cap_tcp.c - TCP (RFC 9293) byte-stream reassembly for iWARP: per
 * direction, in sequence order; retransmitted bytes dropped, out-of-order
 * segments held in sequence order (at most CAP_OOO_MAX per direction, and
 * within the byte budget) until the gap fills.  When the gap does not fill
 * (the capture itself lost a segment) and the slots or the budget run out,
 * or the conversation ends, the stream is resynchronised: the missing bytes
 * are counted lost, the MPA layer is told of the gap (cap_iwarp_gap) and
 * what was held is delivered.  A gap is also known for certain, and given
 * up at once, when the peer acknowledges bytes past it (RFC 9293 3.4: the
 * peer had them, so they will not be sent again; the capture lost them).
 * A connection is followed only once it looks like MPA (RFC 5044 7.1, 6).
 */
#include <string.h>
#include "cap_cur.h"
#include "cap_state.h"

#define TH_FIN 0x01
#define TH_SYN 0x02
#define TH_RST 0x04
#define TH_ACK 0x10

/* Sequence space arithmetic without signed overflow: how far `seq` is
 * ahead of `next` (RFC 9293 3.4: modulo 2^32, within half the space) */
static bool seq_ahead(uint32_t seq, uint32_t next, uint32_t *by)
{
	uint32_t d = seq - next;
	*by = d;
	return d != 0 && d < 0x80000000u;
}

static uint32_t seq_behind(uint32_t seq, uint32_t next)
{
	uint32_t d = next - seq;
	return d < 0x80000000u ? d : 0;
}

/* A hole of `gap` stream bytes given up: the capture lost them.  As
 * segments: the hole over the largest segment this direction carried,
 * rounded up (exact when the lost segments were full-sized or the hole is
 * one segment; docs/capture.md, "Capture loss") */
static void hole_segs(struct cap_state *st, struct cap_conv *c, int dir,
		      uint32_t gap)
{
	uint32_t mss = c->d[dir].tcp.mss;
	uint64_t segs = !gap ? 0 : !mss ? 1 : (gap + (uint64_t)mss - 1) / mss;

	c->stats.tcp_lost_segs[dir] += segs;
	st->stats.total.tcp_lost_segs[dir] += segs;
}

/* (a hole is turned into segments at the end, when the largest segment
 * of the direction is best known; past 8 holes, at once) */
static void tcp_lost(struct cap_state *st, struct cap_conv *c, int dir,
		     uint32_t gap)
{
	struct cap_tcp_dir *t = &c->d[dir].tcp;

	c->stats.tcp_lost_bytes[dir] += gap;
	st->stats.total.tcp_lost_bytes[dir] += gap;
	if (!gap)
		return;
	if (t->nholes < sizeof(t->holes) / sizeof(t->holes[0]))
		t->holes[t->nholes++] = gap;
	else
		hole_segs(st, c, dir, gap);
}

static void deliver(struct cap_state *st, const struct cap_frame *f,
		    struct cap_conv *c, int dir, const uint8_t *p, uint32_t len)
{
	struct cap_tcp_dir *t = &c->d[dir].tcp;
	t->next_seq += len;
	cap_iwarp_stream(st, f, c, dir, p, len);
}

/* take slot 0 (the lowest sequence number) out */
static struct cap_ooo pop_first(struct cap_tcp_dir *t)
{
	struct cap_ooo o = t->ooo[0];
	t->nooo--;
	memmove(&t->ooo[0], &t->ooo[1], t->nooo * sizeof(t->ooo[0]));
	return o;
}

/* In-order bytes after a delivery may now be waiting in the slots: they
 * complete in frame `f`, or (f NULL, after a resynchronisation) each in
 * its own frame */
static void drain_ooo(struct cap_state *st, const struct cap_frame *f,
		      struct cap_conv *c, int dir)
{
	struct cap_tcp_dir *t = &c->d[dir].tcp;
	uint32_t by;

	while (t->nooo && !seq_ahead(t->ooo[0].seq, t->next_seq, &by)) {
		/* out of its slot first: a delivery that closes the
		 * conversation frees every slot */
		struct cap_ooo o = pop_first(t);
		uint32_t skip = seq_behind(o.seq, t->next_seq);
		struct cap_frame own = { .num = o.frame, .ts_sec = o.ts_sec,
					 .ts_usec = o.ts_usec };
		if (skip < o.len)
			deliver(st, f ? f : &own, c, dir, o.data + skip,
				o.len - skip);
		cap_budget_free(st, o.data, o.len);
		if (!c->used)
			return;
	}
}

/* Give up on the gap before the first held segment: count it, tell MPA,
 * deliver what follows it */
static void resync(struct cap_state *st, const struct cap_frame *f,
		   struct cap_conv *c, int dir, const char *why)
{
	struct cap_tcp_dir *t = &c->d[dir].tcp;
	uint32_t gap;

	if (!t->nooo)
		return;
	if (!seq_ahead(t->ooo[0].seq, t->next_seq, &gap))
		gap = 0;
	cap_warn_once(st, CAP_W_OOO, "%s: TCP stream resynchronised past "
		      "missing bytes; the FPDUs they held are lost", why);
	st->lost.resyncs++;
	st->lost.stream_bytes += gap;
	tcp_lost(st, c, dir, gap);
	c->stats.unmatched++;
	cap_frame_error(st, f, "TCP %s -> %s: %u stream bytes missing from the "
			"capture (%s): resynchronised", cap_dir_name(c, dir),
			cap_dir_name(c, 1 - dir), gap, why);
	st->lost.stream_bytes += cap_iwarp_gap(st, c, dir, gap);
	t->next_seq = t->ooo[0].seq;
	drain_ooo(st, NULL, c, dir);
}

/* The peer acknowledged `ack` for direction `dir`: bytes before it that
 * the capture does not hold will never come */
static void peer_acked(struct cap_state *st, const struct cap_frame *f,
		       struct cap_conv *c, int dir, uint32_t ack)
{
	struct cap_tcp_dir *t = &c->d[dir].tcp;
	uint32_t gap;

	if (!t->have_seq || !seq_ahead(ack, t->next_seq, &gap))
		return;
	if (t->nooo) {
		resync(st, f, c, dir, "the peer acknowledged bytes the capture lacks");
		return;
	}
	/* nothing held: the missing bytes end at the acknowledgement */
	cap_warn_once(st, CAP_W_OOO, "the peer acknowledged bytes the capture "
		      "lacks: TCP stream resynchronised past missing bytes");
	st->lost.resyncs++;
	tcp_lost(st, c, dir, gap);
	st->lost.stream_bytes += gap + cap_iwarp_gap(st, c, dir, gap);
	c->stats.unmatched++;
	t->next_seq = ack;
}

/* Hold a segment ahead of the stream, in sequence order.  False when
 * there is no room (slots or budget). */
static bool hold(struct cap_state *st, const struct cap_frame *f,
		 struct cap_tcp_dir *t, uint32_t seq, const uint8_t *p,
		 uint32_t len)
{
	uint32_t ahead, at = 0;

	if (!t->ooo) {               /* slots only for streams that need them */
		t->ooo = cap_budget_alloc(st, CAP_OOO_MAX * sizeof(*t->ooo));
		if (!t->ooo)
			return false;
	}
	(void)seq_ahead(seq, t->next_seq, &ahead);
	/* the place: after every held segment that starts before it */
	uint32_t lo = 0, hi = t->nooo;
	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2, m;
		(void)seq_ahead(t->ooo[mid].seq, t->next_seq, &m);
		if (m <= ahead)
			lo = mid + 1;
		else
			hi = mid;
	}
	at = lo;
	if (at && t->ooo[at - 1].seq == seq && t->ooo[at - 1].len >= len)
		return true;                   /* already held */
	if (t->nooo == CAP_OOO_MAX)
		return false;
	uint8_t *data = cap_budget_alloc(st, len);
	if (!data)
		return false;
	memcpy(data, p, len);
	memmove(&t->ooo[at + 1], &t->ooo[at], (t->nooo - at) * sizeof(t->ooo[0]));
	t->ooo[at] = (struct cap_ooo){ .seq = seq, .len = len, .data = data,
				       .frame = f->num, .ts_sec = f->ts_sec,
				       .ts_usec = f->ts_usec };
	t->nooo++;
	return true;
}

/* payload bytes of one segment, `seq` its first */
static void stream_bytes(struct cap_state *st, const struct cap_frame *f,
			 struct cap_conv *c, int dir, uint32_t seq,
			 const uint8_t *p, uint32_t n)
{
	struct cap_tcp_dir *t = &c->d[dir].tcp;
	uint32_t ahead;

	if (!t->have_seq) {
		t->have_seq = true;
		t->next_seq = seq;
	}
	while (seq_ahead(seq, t->next_seq, &ahead)) {
		if (hold(st, f, t, seq, p, n))
			return;
		if (!t->nooo) {
			/* nothing held, no room even for this one: the
			 * stream goes on from it */
			st->lost.resyncs++;
			st->lost.stream_bytes += ahead;
			tcp_lost(st, c, dir, ahead);
			c->stats.unmatched++;
			cap_warn_once(st, CAP_W_OOO, "out-of-order segment over "
				      "the byte budget: TCP stream "
				      "resynchronised past missing bytes");
			st->lost.stream_bytes += cap_iwarp_gap(st, c, dir, ahead);
			t->next_seq = seq;
			break;
		}
		/* no room: the first gap will not fill in time */
		resync(st, f, c, dir, t->nooo == CAP_OOO_MAX ?
		       "more out-of-order segments than slots" :
		       "out-of-order segments over the byte budget");
		if (!c->used)
			return;
	}
	uint32_t skip = seq_behind(seq, t->next_seq);
	if (skip >= n) {
		c->stats.retrans++;
		st->stats.total.retrans++;
		return;
	}
	if (skip) {
		c->stats.retrans++;
		st->stats.total.retrans++;
	}
	deliver(st, f, c, dir, p + skip, n - skip);
	if (c->used)
		drain_ooo(st, f, c, dir);
}

enum cap_res cap_tcp_segment(struct cap_state *st, const struct cap_frame *f,
			     const struct cap_addr *a0, struct cap_cur *tcp)
{
	struct cap_addr a = *a0;
	uint32_t seq, ack;
	uint8_t off, flags;
	int dir;

	if (!cur_peek16(tcp, 0, &a.sport) || !cur_peek16(tcp, 2, &a.dport) ||
	    !cur_peek32(tcp, 4, &seq) || !cur_peek32(tcp, 8, &ack) ||
	    !cur_peek8(tcp, 12, &off) || !cur_peek8(tcp, 13, &flags) ||
	    !cur_has(tcp, 20)) {
		st->stats.frames_truncated++;
		return CAP_TRUNCATED;
	}
	uint32_t hl = (off >> 4) * 4u;
	if (hl < 20 || !cur_skip(tcp, hl))
		return CAP_TRUNCATED;
	const uint8_t *p = cur_ptr(tcp);
	uint32_t n = cur_left(tcp);
	bool snapped = f->len < f->wire_len;

	struct cap_conv *c = cap_conv_tcp(st, f, &a, &dir, false);
	if (!c) {
		/* a segment may start with a marker (RFC 5044 5: 16 reserved
		 * zero bits, then the FPDU pointer), the FPDU after it */
		uint16_t rsvd;
		bool marker = st->o->mpa_markers != CAP_FORCE_OFF &&
			      cur_peek16(tcp, 0, &rsvd) && !rsvd && n > 4 &&
			      cap_iwarp_plausible(p + 4, n - 4);
		if (!n || snapped || !(cap_iwarp_plausible(p, n) || marker))
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
	if (flags & TH_ACK) {
		peer_acked(st, f, c, 1 - dir, ack);
		if (!c->used)
			return CAP_OK;
	}
	if (n && snapped) {
		cap_frame_error(st, f, "TCP segment cut short by the snapshot length "
				"(need %u bytes, have %u): the stream cannot be "
				"followed", f->wire_len, f->len);
		/* in order: its bytes are a gap of known length */
		uint32_t wire_n = n + (f->wire_len - f->len), by;
		if (!t->have_seq || !seq_ahead(seq, t->next_seq, &by)) {
			uint32_t behind = t->have_seq ? seq_behind(seq, t->next_seq) : 0;
			if (behind < wire_n) {
				(void)cap_iwarp_gap(st, c, dir, wire_n - behind);
				t->next_seq = seq + wire_n;
				t->have_seq = true;
			}
		}
		n = 0;
	}
	if (n) {
		st->stats.frames_rdma++;
		if (n > t->mss)
			t->mss = n;
		stream_bytes(st, f, c, dir, seq, p, n);
	}
	if (c->used && (flags & TH_FIN)) {
		/* the FIN takes one sequence number, after the data */
		uint32_t by;
		if (t->have_seq && !seq_ahead(seq + n, t->next_seq, &by) &&
		    !seq_behind(seq + n, t->next_seq) && !t->fin)
			t->next_seq++;
		t->fin = true;
		if (c->d[1 - dir].tcp.fin)
			cap_conv_close(st, c);
	}
	return CAP_OK;
}

/* The conversation ends: what is still held lies past a gap that can no
 * longer fill; deliver it, then free the direction's buffers */
void cap_tcp_end(struct cap_state *st, struct cap_conv *c, int dir)
{
	struct cap_tcp_dir *t = &c->d[dir].tcp;

	while (c->used && t->nooo) {
		struct cap_frame f = { .num = t->ooo[0].frame };
		uint32_t before = t->nooo;
		resync(st, &f, c, dir, "the conversation ended");
		if (t->nooo >= before)
			break;
	}
	for (uint32_t i = 0; i < t->nholes; i++)
		hole_segs(st, c, dir, t->holes[i]);
	t->nholes = 0;
}

void cap_tcp_free(struct cap_state *st, struct cap_tcp_dir *t)
{
	cap_budget_free(st, t->buf, t->cap);
	t->buf = NULL;
	t->cap = t->len = 0;
	for (uint32_t i = 0; i < t->nooo; i++)
		cap_budget_free(st, t->ooo[i].data, t->ooo[i].len);
	cap_budget_free(st, t->ooo, t->ooo ? CAP_OOO_MAX * sizeof(*t->ooo) : 0);
	t->ooo = NULL;
	t->nooo = 0;
	cap_budget_free(st, t->held, t->held ? CAP_INFER_FRAMES * sizeof(*t->held) : 0);
	t->held = NULL;
	t->nheld = 0;
}
