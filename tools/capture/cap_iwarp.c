/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cap_iwarp.c - iWARP over one TCP byte stream: the MPA Request/Reply
 * handshake and FPDUs with or without markers, CRC32c checked (RFC 5044
 * 7.1, 4-6), DDP tagged and untagged headers (RFC 5041 4, 5) and the RDMAP
 * operations RPC-over-RDMA uses: Send (with Invalidate / Solicited Event),
 * RDMA Write, Read Request, Read Response, Terminate (RFC 5040 4, 5).
 * Without the handshake in the capture, the framing is inferred
 * (cap_mpa.c) while both directions' bytes are held with their frames.
 */
#include <stdlib.h>
#include <string.h>
#include "cap_cur.h"
#include "cap_state.h"

#define MPA_KEY_LEN 16
#define MPA_HS_LEN 20
#define MPA_FLAG_M 0x80
#define MPA_FLAG_C 0x40
#define MARKER_EVERY 512u
#define MPA_BUF_MAX (256u << 10)

static const char key_req[] = "MPA ID Req Frame";
static const char key_rep[] = "MPA ID Rep Frame";

enum { RDMAP_WRITE = 0, RDMAP_READ_REQ, RDMAP_READ_RESP, RDMAP_SEND,
       RDMAP_SEND_INV, RDMAP_SEND_SE, RDMAP_SEND_SE_INV, RDMAP_TERMINATE };

#define DDP_TAGGED_HDR 14u
#define DDP_UNTAGGED_HDR 18u

bool cap_iwarp_plausible(const uint8_t *p, uint32_t len)
{
	struct cap_cur c = cur_make(p, len);
	uint16_t ulpdu_len;

	if (cur_has(&c, MPA_KEY_LEN) && (!memcmp(p, key_req, MPA_KEY_LEN) ||
					 !memcmp(p, key_rep, MPA_KEY_LEN)))
		return true;
	return cur_has(&c, 2 + DDP_TAGGED_HDR) && cur_peek16(&c, 0, &ulpdu_len) &&
	       ulpdu_len >= DDP_TAGGED_HDR && cap_ddp_plausible(p + 2);
}

static void read_response(struct cap_state *st, const struct cap_frame *f,
			  struct cap_conv *c, int dir, uint32_t stag,
			  uint64_t to, bool last, const uint8_t *p, uint32_t n)
{
	struct cap_dir *req = &c->d[1 - dir];          /* the requester */

	for (unsigned i = 0; i < CAP_RDREQ_MAX && req->rd; i++) {
		struct cap_rdreq *r = &req->rd[i];
		if (!r->used || r->sink_stag != stag || to < r->sink_to ||
		    to - r->sink_to >= r->len)
			continue;
		cap_msg_rdma(st, f, c, CAP_OP_READ, r->rkey,
			     r->va + (to - r->sink_to), p, n);
		if (last)
			r->used = false;
		return;
	}
	c->stats.unmatched++;
}

/* One ULPDU: DDP header, RDMAP header, payload */
static void ulpdu(struct cap_state *st, const struct cap_frame *f,
		  struct cap_conv *c, int dir, const uint8_t *u, uint32_t n)
{
	struct cap_cur h = cur_make(u, n), body;
	uint8_t ctrl, rdmap;

	if (!cur_peek8(&h, 0, &ctrl) || !cur_peek8(&h, 1, &rdmap) ||
	    !cap_ddp_plausible(u)) {
		cap_frame_error(st, f, "DDP/RDMAP header with an unknown version");
		return;
	}
	bool tagged = ctrl & 0x80, last = ctrl & 0x40;
	unsigned op = rdmap & 0x0f;
	uint32_t hl = tagged ? DDP_TAGGED_HDR : DDP_UNTAGGED_HDR;
	body = h;
	if (!cur_skip(&body, hl)) {
		cap_frame_error(st, f, "DDP header cut short (need %u bytes, have %u)",
				hl, n);
		return;
	}
	const uint8_t *p = cur_ptr(&body);
	uint32_t pl = cur_left(&body);
	if (tagged) {
		uint32_t stag;
		uint64_t to;
		(void)cur_peek32(&h, 2, &stag);
		(void)cur_peek64(&h, 6, &to);
		if (op == RDMAP_WRITE)
			cap_msg_rdma(st, f, c, CAP_OP_WRITE, stag, to, p, pl);
		else if (op == RDMAP_READ_RESP)
			read_response(st, f, c, dir, stag, to, last, p, pl);
		return;
	}
	uint32_t qn, msn, mo;
	(void)cur_peek32(&h, 6, &qn);
	(void)cur_peek32(&h, 10, &msn);
	(void)cur_peek32(&h, 14, &mo);
	switch (op) {
	case RDMAP_SEND: case RDMAP_SEND_INV: case RDMAP_SEND_SE:
	case RDMAP_SEND_SE_INV:
		/* a zero-length Send is the MPA v2 ready-to-receive marker
		 * (RFC 6581 3), not a message */
		if (qn == 0 && !(pl == 0 && mo == 0 && last))
			cap_reasm_ddp_send(st, f, c, dir, msn, mo, last, p, pl);
		break;
	case RDMAP_READ_REQ:
		/* RFC 5040 4.4: sink STag, TO, length, source STag, TO */
		if (qn == 1 && cur_has(&body, 28) && cap_dir_rdreqs(st, c, dir)) {
			struct cap_dir *d = &c->d[dir];
			struct cap_rdreq *r = &d->rd[d->rd_next];
			d->rd_next = (d->rd_next + 1) % CAP_RDREQ_MAX;
			r->used = true;
			(void)cur_peek32(&body, 0, &r->sink_stag);
			(void)cur_peek64(&body, 4, &r->sink_to);
			(void)cur_peek32(&body, 12, &r->len);
			(void)cur_peek32(&body, 16, &r->rkey);
			(void)cur_peek64(&body, 20, &r->va);
			r->frame = f->num;
		}
		break;
	case RDMAP_TERMINATE:
		cap_frame_error(st, f, "RDMAP Terminate: the peer closed the stream "
				"on an error");
		break;
	default:
		break;
	}
}

static void held_stream(struct cap_state *st, const struct cap_frame *f,
			struct cap_conv *c, int dir, unsigned flags);

uint32_t cap_iwarp_gap(struct cap_state *st, struct cap_conv *c, int dir,
		       uint32_t gap)
{
	struct cap_tcp_dir *t = &c->d[dir].tcp;

	if (t->nheld) {
		/* held while inferring: the bytes before the gap are all
		 * there will be of them */
		struct cap_frame f = { .num = c->last_frame };
		held_stream(st, &f, c, dir, CAP_INFER_LAST);
		if (!c->used)
			return 0;
		t->nheld = 0;
		t->infer_tried = 0;
	}
	uint32_t dropped = t->len;         /* a partial FPDU, now useless */

	t->mark_pos = (uint32_t)(((uint64_t)t->mark_pos + t->len + gap) %
				 MARKER_EVERY);
	t->len = 0;
	if (t->mpa == MPA_FULL)
		t->hunt = true;
	return dropped;
}

/* --mpa-crc, --mpa-markers: what the user knows the connection uses,
 * over what the handshake said or what was assumed without it */
static void forced(const struct cap_state *st, struct cap_tcp_dir *t)
{
	if (st->o->mpa_crc)
		t->crc = st->o->mpa_crc == CAP_FORCE_ON;
	if (st->o->mpa_markers)
		t->markers = st->o->mpa_markers == CAP_FORCE_ON;
}

/* An MPA Request or Reply (RFC 5044 7.1; rev 2: RFC 6581 3, whose private
 * data starts with the 4-byte IRD/ORD): CRC and marker use, and the
 * consumer's private data (RFC 8797) for --stats.  b holds the 20-byte
 * header and pd bytes of private data. */
static void handshake(struct cap_state *st, const struct cap_frame *f,
		      struct cap_conv *c, int dir, const uint8_t *b,
		      uint32_t pd, bool req)
{
	struct cap_tcp_dir *t = &c->d[dir].tcp, *o = &c->d[1 - dir].tcp;
	uint8_t flags = b[16];
	uint32_t skip = b[17] == 2 && pd >= 4 ? 4 : 0;

	cap_conn_private(c, dir, req, b + MPA_HS_LEN + skip, pd - skip);
	if (!req)
		cap_conn_established(st, f, c, "MPA Reply");

	t->hs_seen = true;
	/* M: the sender of the frame wants markers in what it receives */
	o->markers = flags & MPA_FLAG_M;
	bool crc = flags & MPA_FLAG_C;
	if (req) {
		t->crc = o->crc = crc;
	} else {
		t->crc = o->crc = crc || t->crc || o->crc;
	}
}

/* The first bytes of a direction: its MPA Request or Reply (*used: its
 * bytes), or none (the framing inferred, or assumed from the options).
 * False when the handshake frame is not whole yet. */
static bool mpa_start(struct cap_state *st, const struct cap_frame *f,
		      struct cap_conv *c, int dir, const uint8_t *b, uint32_t n,
		      uint32_t *used)
{
	struct cap_tcp_dir *t = &c->d[dir].tcp;
	uint32_t k = n < MPA_KEY_LEN ? n : MPA_KEY_LEN;
	bool req = !memcmp(b, key_req, k);
	bool rep = !memcmp(b, key_rep, k);

	*used = 0;
	if ((req || rep) && n < MPA_HS_LEN)
		return false;
	if (req || rep) {
		struct cap_cur hs = cur_make(b, n);
		uint16_t pd;
		(void)cur_peek16(&hs, 18, &pd);
		if (!cur_has(&hs, MPA_HS_LEN + (uint32_t)pd))
			return false;
		handshake(st, f, c, dir, b, pd, req);
		forced(st, &c->d[0].tcp);
		forced(st, &c->d[1].tcp);
		c->started = req || c->started;
		*used = MPA_HS_LEN + pd;
		t->mpa = MPA_FULL;
		t->mark_pos = 0;       /* markers count from here */
		return true;
	}
	if (!t->hs_seen && !c->d[1 - dir].tcp.hs_seen &&
	    !(st->o->mpa_crc && st->o->mpa_markers)) {
		/* no handshake: find the framing from the stream itself
		 * (cap_mpa.c) */
		t->mpa = MPA_INFER;
		return true;
	}
	if (!t->hs_seen && !c->d[1 - dir].tcp.hs_seen) {
		static const char *const how[3][2] = {
			{ "on (assumed: --mpa-crc)",
			  "off (assumed: --mpa-markers)" },
			{ "off (--mpa-crc)", "off (--mpa-markers)" },
			{ "on (--mpa-crc)", "on (--mpa-markers)" },
		};
		if (!st->o->mpa_crc || !st->o->mpa_markers)
			cap_warn_once(st, CAP_W_MPA_ASSUMED, "no MPA handshake in "
				      "the capture: CRC %s, markers %s",
				      how[st->o->mpa_crc % 3][0],
				      how[st->o->mpa_markers % 3][1]);
		t->crc = true;
		t->markers = false;
		forced(st, t);
	}
	t->mpa = MPA_FULL;
	return true;
}

/* Frame what b[0..n) holds; returns the raw bytes consumed. */
static uint32_t frame_stream(struct cap_state *st, const struct cap_frame *f,
			     struct cap_conv *c, int dir, const uint8_t *b,
			     uint32_t n)
{
	struct cap_tcp_dir *t = &c->d[dir].tcp;
	uint32_t done = 0;

	while (n && t->mpa != MPA_BAD) {
		if (t->mpa == MPA_START) {
			uint32_t used;
			if (!mpa_start(st, f, c, dir, b, n, &used))
				return done;               /* wait for more */
			b += used;
			n -= used;
			done += used;
			continue;
		}
		if (t->mpa == MPA_INFER)
			return done;           /* held (cap_iwarp_stream) */
		if (t->hunt) {
			bool found;
			uint32_t skip = cap_mpa_hunt(st, t, b, n, &found);
			t->mark_pos = (t->mark_pos + skip) % MARKER_EVERY;
			b += skip;
			n -= skip;
			done += skip;
			if (!found)
				break;
			t->hunt = false;
			if (!n)
				break;
		}
		/* an FPDU: ULPDU_Length, ULPDU, pad, CRC (RFC 5044 4.1) */
		uint32_t phase = t->mark_pos, dummy = 0;
		uint8_t lb[2];
		if (!cap_mpa_gather(b, n, 0, phase, t->markers, lb, 2, UINT32_MAX, &dummy))
			return done;
		uint32_t L = cap_be16(lb);
		uint32_t pad = (4 - (2 + L) % 4) % 4;
		/* the CRC field is there even when CRCs are off (then 0) */
		uint32_t total = 2 + L + pad + 4;
		uint32_t crc_at = 0;
		bool copy = t->markers;
		if (copy && !st->work.fpdu && !(st->work.fpdu = malloc(CAP_FPDU_MAX))) {
			t->mpa = MPA_BAD;          /* out of memory */
			break;
		}
		uint32_t end = cap_mpa_gather(b, n, 0, phase, t->markers,
				      copy ? st->work.fpdu : NULL, total, total - 4,
				      &crc_at);
		if (!end)
			return done;
		const uint8_t *fp = copy ? st->work.fpdu : b;
		bool ok = true;
		if (t->crc && !st->o->no_crc_check) {
			uint32_t want = cap_le32(fp + total - 4);
			uint32_t got = cap_crc32c(0, b, crc_at);
			ok = got == want || __builtin_bswap32(got) == want;
			if (!ok && t->markers && phase == 0 && crc_at >= 4) {
				got = cap_crc32c(0, b + 4, crc_at - 4);
				ok = got == want || __builtin_bswap32(got) == want;
			}
			ok = cap_crc_verdict(ok, fp + total - 4, 4);
		}
		if (!ok && !t->good && !t->hs_seen) {
			t->mpa = MPA_BAD;          /* not iWARP after all */
			return done + n;
		}
		if (!ok) {
			c->stats.crc_fail++;
			st->stats.total.crc_fail++;
			cap_lint(st, f->num, "crc-error", "RFC 5044 6",
				 "MPA CRC32c mismatch on a %u-byte FPDU: dropped", L);
		} else {
			t->good++;
			ulpdu(st, f, c, dir, fp + 2, L);
			if (!c->used)
				return done + n;
		}
		t->mark_pos = (phase + end) % MARKER_EVERY;
		b += end;
		n -= end;
		done += end;
	}
	return t->mpa == MPA_BAD ? done + n : done;
}

/* ---------------------------------------------- no handshake (cap_mpa.c)
 * While a direction's framing is inferred its bytes are held, with the
 * frames that brought them; so are the other direction's, once it has
 * bytes held, until both are known.  Then what was held is framed frame by
 * frame in the order the frames came, as if the framing had been known
 * from the start: every message in its place, calls before their replies.
 */

#define INFER_WINDOW (64u << 10)       /* bytes held before deciding */

/* frame f brought the bytes now ending buf; false when the table is full */
static bool hold_frame(struct cap_state *st, struct cap_tcp_dir *t,
		       const struct cap_frame *f)
{
	if (!t->held &&
	    !(t->held = cap_budget_alloc(st, CAP_INFER_FRAMES * sizeof(*t->held))))
		return false;
	if (t->nheld == CAP_INFER_FRAMES)
		t->nheld--;                /* the last one stands for the rest */
	t->held[t->nheld++] = (struct cap_held){ .end = t->len, .num = f->num,
		.ts_sec = f->ts_sec, .ts_usec = f->ts_usec };
	return t->nheld < CAP_INFER_FRAMES;
}

/* `used` bytes of buf were framed: drop them and the frames that brought
 * them */
static void consumed(struct cap_tcp_dir *t, uint32_t used)
{
	memmove(t->buf, t->buf + used, t->len - used);
	t->len -= used;
	uint32_t k = 0;
	for (uint32_t i = 0; i < t->nheld; i++)
		if (t->held[i].end > used) {
			t->held[k] = t->held[i];
			t->held[k++].end -= used;
		}
	t->nheld = k;
}

/* Try to infer direction dir's framing from the bytes it holds */
static void infer(struct cap_state *st, const struct cap_frame *f,
		  struct cap_conv *c, int dir, unsigned flags)
{
	struct cap_tcp_dir *t = &c->d[dir].tcp, *o = &c->d[1 - dir].tcp;
	struct cap_mpa_framing fr;
	int crc_only = -1;

	if (o->mpa == MPA_FULL) {          /* CRC use is the connection's */
		flags |= CAP_INFER_EAGER;
		crc_only = o->crc;
	}
	/* retry as the bytes double (bounded work per byte), or at once to
	 * decide */
	if (!(flags & CAP_INFER_LAST) && t->len < INFER_WINDOW &&
	    t->nheld < CAP_INFER_FRAMES && t->len < 2 * t->infer_tried)
		return;
	if (t->len >= INFER_WINDOW || t->nheld >= CAP_INFER_FRAMES)
		flags |= CAP_INFER_LAST;
	t->infer_tried = t->len;
	switch (cap_mpa_infer(st, t->buf, t->len, flags, crc_only, &fr)) {
	case CAP_INFER_WAIT:
		return;
	case CAP_INFER_NONE:
		t->mpa = MPA_BAD;              /* not iWARP after all */
		return;
	case CAP_INFER_FOUND:
		break;
	}
	t->crc = fr.crc;
	t->markers = fr.markers;
	t->mark_pos = fr.mark_pos;
	t->mpa = MPA_FULL;
	consumed(t, fr.skip);
	o->infer_tried = 0;                /* eager now: try it again at once */
	c->stats.mpa_inferred |= (uint8_t)(1u << dir);
	c->stats.mpa_crc = fr.crc;
	c->stats.mpa_markers |= (uint8_t)(fr.markers << dir);
	cap_warn_once(st, CAP_W_MPA_ASSUMED, "no MPA handshake in the capture: "
		      "the framing is inferred from the stream (-V, --stats)");
	if (st->o->verbose && !st->o->json && !st->o->check && !st->o->stats &&
	    !st->o->quiet)
		fprintf(st->out, "frame %llu MPA framing of %s > %s inferred (no MPA "
			"handshake in the capture): CRC %s, markers %s, %u FPDUs "
			"validated, %u bytes before the first\n",
			(unsigned long long)f->num, cap_dir_name(c, dir),
			cap_dir_name(c, 1 - dir), fr.crc ? "on" : "off",
			fr.markers ? "on" : "off", fr.nvalid, fr.skip);
}

/* Frame what both directions held, frame by frame in the order the
 * frames came; a direction still inferring keeps its bytes */
static void replay(struct cap_state *st, struct cap_conv *c)
{
	for (;;) {
		int d = -1;
		for (int i = 0; i < 2; i++) {
			const struct cap_tcp_dir *t = &c->d[i].tcp;
			if (t->mpa != MPA_INFER && t->nheld &&
			    (d < 0 || t->held[0].num < c->d[d].tcp.held[0].num))
				d = i;
		}
		if (d < 0)
			return;
		struct cap_tcp_dir *t = &c->d[d].tcp;
		struct cap_held h = t->held[0];
		memmove(t->held, t->held + 1, --t->nheld * sizeof(*t->held));
		struct cap_frame fr = { .num = h.num, .ts_sec = h.ts_sec,
					.ts_usec = h.ts_usec };
		uint32_t used = t->mpa == MPA_FULL ?
			frame_stream(st, &fr, c, d, t->buf, h.end) : h.end;
		if (!c->used)
			return;
		consumed(t, used < h.end ? used : h.end);
	}
}

/* Are direction dir's bytes held: its framing not known yet, or the
 * other's, which has bytes held (so that both come out in order)? */
static bool holding(const struct cap_conv *c, int dir)
{
	const struct cap_tcp_dir *t = &c->d[dir].tcp, *o = &c->d[1 - dir].tcp;
	return t->mpa == MPA_INFER || t->nheld || (o->mpa == MPA_INFER && o->nheld);
}

/* Bytes of a direction whose framing is not known yet, or held so that
 * the other's come out in order: hold them, infer, frame when both are
 * known (or the bytes held reach INFER_WINDOW) */
static void held_stream(struct cap_state *st, const struct cap_frame *f,
			struct cap_conv *c, int dir, unsigned flags)
{
	struct cap_tcp_dir *t = &c->d[dir].tcp, *o = &c->d[1 - dir].tcp;

	if (t->mpa == MPA_INFER)
		infer(st, f, c, dir, flags);
	if (o->mpa == MPA_INFER && o->nheld && t->mpa == MPA_FULL)
		infer(st, f, c, 1 - dir, flags & ~CAP_INFER_LAST);
	bool wait = t->mpa == MPA_INFER || (o->mpa == MPA_INFER && o->nheld);
	if (wait && !(flags & CAP_INFER_LAST) && t->len < INFER_WINDOW &&
	    t->nheld < CAP_INFER_FRAMES)
		return;
	replay(st, c);
}

/* The conversation ends: the bytes held are all there will be */
void cap_iwarp_end(struct cap_state *st, struct cap_conv *c)
{
	struct cap_frame f = { .num = c->last_frame };

	for (int d = 0; d < 2; d++)
		if (c->d[d].tcp.mpa == MPA_INFER && c->d[d].tcp.nheld)
			infer(st, &f, c, d, CAP_INFER_LAST);
	replay(st, c);
}

void cap_iwarp_stream(struct cap_state *st, const struct cap_frame *f,
		      struct cap_conv *c, int dir, const uint8_t *p,
		      uint32_t len)
{
	struct cap_tcp_dir *t = &c->d[dir].tcp;

	if (t->mpa == MPA_BAD)
		return;
	if (!t->len && (t->mpa == MPA_START || !holding(c, dir))) {
		/* nothing waiting: in place (a first segment: its handshake,
		 * or no handshake and its framing to infer) */
		uint32_t used = frame_stream(st, f, c, dir, p, len);
		if (!c->used || t->mpa == MPA_BAD)
			return;
		p += used;
		len -= used;
		if (!len)
			return;
	}
	if (len > MPA_BUF_MAX - t->len) {
		cap_frame_error(st, f, "MPA framing lost (more than %u bytes "
				"without a whole FPDU)", MPA_BUF_MAX);
		t->mpa = MPA_BAD;
		return;
	}
	if (!cap_budget_grow(st, &t->buf, &t->cap, t->len, t->len + len, 8192)) {
		t->mpa = MPA_BAD;
		return;
	}
	memcpy(t->buf + t->len, p, len);
	t->len += len;
	if (holding(c, dir)) {
		held_stream(st, f, c, dir, hold_frame(st, t, f) ? 0 : CAP_INFER_LAST);
		return;
	}
	if (p != NULL && t->len == len && len != 0) {
		/* just buffered a partial FPDU: nothing more to frame yet */
		return;
	}
	uint32_t used = frame_stream(st, f, c, dir, t->buf, t->len);
	if (!c->used)
		return;
	consumed(t, used);
}
