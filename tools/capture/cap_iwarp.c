/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cap_iwarp.c - iWARP over one TCP byte stream: the MPA Request/Reply
 * handshake and FPDUs with or without markers, CRC32c checked (RFC 5044
 * 7.1, 4-6), DDP tagged and untagged headers (RFC 5041 4, 5) and the RDMAP
 * operations RPC-over-RDMA uses: Send (with Invalidate / Solicited Event),
 * RDMA Write, Read Request, Read Response, Terminate (RFC 5040 4, 5).
 */
#include <stdlib.h>
#include <string.h>
#include "cap_cur.h"
#include "cap_state.h"

enum cap_mpa_state { MPA_START = 0, MPA_FULL, MPA_BAD };

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

/* An FPDU header as a sender would start one: DDP version 1, RDMAP 1 */
static bool ddp_plausible(const uint8_t *u)
{
	return (u[0] & 0x03) == 0x01 && (u[1] & 0xc0) == 0x40;
}

bool cap_iwarp_plausible(const uint8_t *p, uint32_t len)
{
	struct cap_cur c = cur_make(p, len);
	uint16_t ulpdu_len;

	if (cur_has(&c, MPA_KEY_LEN) && (!memcmp(p, key_req, MPA_KEY_LEN) ||
					 !memcmp(p, key_rep, MPA_KEY_LEN)))
		return true;
	return cur_has(&c, 2 + DDP_TAGGED_HDR) && cur_peek16(&c, 0, &ulpdu_len) &&
	       ulpdu_len >= DDP_TAGGED_HDR && ddp_plausible(p + 2);
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
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
		cap_chunks_data(st, f, c, CAP_OP_READ, r->rkey,
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
	    !ddp_plausible(u)) {
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
			cap_chunks_data(st, f, c, CAP_OP_WRITE, stag, to, p, pl);
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

/* Gather `want` bytes of FPDU from raw b[off..n), skipping markers (every
 * 512 octets of the stream; `phase` = stream position of b[0] mod 512).
 * Returns the raw index after the last byte, 0 when b runs out; *crc_at =
 * raw index of the byte numbered `crc_from`. */
static uint32_t gather(const uint8_t *b, uint32_t n, uint32_t off,
		       uint32_t phase, bool markers, uint8_t *out,
		       uint32_t want, uint32_t crc_from, uint32_t *crc_at)
{
	uint32_t r = off, got = 0;

	while (got < want) {
		if (r >= n)
			return 0;
		if (markers) {
			uint32_t pos = (phase + r) % MARKER_EVERY;
			if (pos < 4) {
				r += 4 - pos;
				continue;
			}
			uint32_t run = MARKER_EVERY - pos;
			if (run > want - got)
				run = want - got;
			if (run > n - r)
				run = n - r;
			if (crc_from >= got && crc_from < got + run)
				*crc_at = r + (crc_from - got);
			if (out)
				memcpy(out + got, b + r, run);
			got += run;
			r += run;
		} else {
			uint32_t run = want - got < n - r ? want - got : n - r;
			if (crc_from >= got && crc_from < got + run)
				*crc_at = r + (crc_from - got);
			if (out)
				memcpy(out + got, b + r, run);
			got += run;
			r += run;
		}
	}
	return r;
}

/* Does an FPDU start at raw offset `o` of b[0..n)?  1 yes, 0 no, -1 not
 * enough bytes to say.  Its length, its DDP/RDMAP versions, its CRC when
 * CRCs are on; without CRCs, the FPDU must end where the bytes end or be
 * followed by another plausible header (RFC 5044 4, RFC 5041 4). */
static int fpdu_at(const struct cap_tcp_dir *t, const uint8_t *b, uint32_t n,
		   uint32_t o, uint64_t *crc_work)
{
	uint32_t phase = (t->mark_pos + o) % MARKER_EVERY, dummy = 0, crc_at = 0;
	uint8_t h[4];

	if (t->markers && phase < 4)
		return 0;                  /* a marker, not an FPDU */
	if (!gather(b, n, o, t->mark_pos, t->markers, h, 4, UINT32_MAX, &dummy))
		return -1;
	uint32_t L = cap_be16(h);
	if (L < DDP_TAGGED_HDR || !ddp_plausible(h + 2))
		return 0;
	uint32_t total = 2 + L + (4 - (2 + L) % 4) % 4 + 4;
	uint32_t end = gather(b, n, o, t->mark_pos, t->markers, NULL, total,
			      total - 4, &crc_at);
	if (!end)
		return -1;
	if (t->crc) {
		uint8_t w[4];
		uint32_t e2 = gather(b, n, crc_at, t->mark_pos, t->markers, w, 4,
				     UINT32_MAX, &dummy);
		if (!e2)
			return -1;
		if (t->markers)
			return 1;          /* CRC over the FPDU with markers:
					    * checked when framed */
		*crc_work += crc_at - o;
		uint32_t want = le32(w), got = cap_crc32c(0, b + o, crc_at - o);
		return cap_crc_verdict(got == want || __builtin_bswap32(got) == want,
				       w, 4) ? 1 : 0;
	}
	if (end == n)
		return 1;
	if (!gather(b, n, end, t->mark_pos, t->markers, h, 4, UINT32_MAX, &dummy))
		return -1;
	return cap_be16(h) >= DDP_TAGGED_HDR && ddp_plausible(h + 2);
}

#define HUNT_CRC_MAX (4u << 20)        /* CRC bytes one hunt may spend */

/* After a gap: skip to the next FPDU boundary.  Returns the raw bytes
 * that cannot start one; *found when an FPDU starts right after them. */
static uint32_t hunt(struct cap_state *st, struct cap_tcp_dir *t,
		     const uint8_t *b, uint32_t n, bool *found)
{
	uint64_t work = 0;

	*found = false;
	for (uint32_t o = 0; o < n; o++) {
		int r = fpdu_at(t, b, n, o, &work);
		if (r < 0)
			return o;
		if (r > 0) {
			*found = true;
			return o;
		}
		if (work > HUNT_CRC_MAX) {
			cap_warn_once(st, CAP_W_HUNT, "MPA framing not found "
				      "again after a gap: the rest of a TCP "
				      "direction is not decoded");
			t->mpa = MPA_BAD;
			return n;
		}
	}
	return n;
}

uint32_t cap_iwarp_gap(struct cap_conv *c, int dir, uint32_t gap)
{
	struct cap_tcp_dir *t = &c->d[dir].tcp;
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

/* Frame what b[0..n) holds; returns the raw bytes consumed. */
static uint32_t frame_stream(struct cap_state *st, const struct cap_frame *f,
			     struct cap_conv *c, int dir, const uint8_t *b,
			     uint32_t n)
{
	struct cap_tcp_dir *t = &c->d[dir].tcp;
	uint32_t done = 0;

	while (n && t->mpa != MPA_BAD) {
		uint32_t used;
		if (t->mpa == MPA_START) {
			uint32_t k = n < MPA_KEY_LEN ? n : MPA_KEY_LEN;
			bool req = !memcmp(b, key_req, k);
			bool rep = !memcmp(b, key_rep, k);
			if ((req || rep) && n < MPA_HS_LEN)
				return done;               /* wait for more */
			if (req || rep) {
				struct cap_cur hs = cur_make(b, n);
				uint16_t pd;
				(void)cur_peek16(&hs, 18, &pd);
				if (!cur_has(&hs, MPA_HS_LEN + (uint32_t)pd))
					return done;
				handshake(st, f, c, dir, b, pd, req);
				forced(st, &c->d[0].tcp);
				forced(st, &c->d[1].tcp);
				c->started = req || c->started;
				used = MPA_HS_LEN + pd;
				t->mpa = MPA_FULL;
				t->mark_pos = 0;       /* markers count from here */
				b += used;
				n -= used;
				done += used;
				continue;
			}
			if (!t->hs_seen && !c->d[1 - dir].tcp.hs_seen) {
				static const char *const how[3][2] = {
					{ "on (assumed: --mpa-crc)",
					  "off (assumed: --mpa-markers)" },
					{ "off (--mpa-crc)", "off (--mpa-markers)" },
					{ "on (--mpa-crc)", "on (--mpa-markers)" },
				};
				if (!st->o->mpa_crc || !st->o->mpa_markers)
					cap_warn_once(st, CAP_W_MPA_ASSUMED, "no MPA "
						      "handshake in the capture: CRC "
						      "%s, markers %s",
						      how[st->o->mpa_crc % 3][0],
						      how[st->o->mpa_markers % 3][1]);
				t->crc = true;
				t->markers = false;
				forced(st, t);
			}
			t->mpa = MPA_FULL;
			continue;
		}
		if (t->hunt) {
			bool found;
			uint32_t skip = hunt(st, t, b, n, &found);
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
		if (!gather(b, n, 0, phase, t->markers, lb, 2, UINT32_MAX, &dummy))
			return done;
		uint32_t L = cap_be16(lb);
		uint32_t pad = (4 - (2 + L) % 4) % 4;
		/* the CRC field is there even when CRCs are off (then 0) */
		uint32_t total = 2 + L + pad + 4;
		uint32_t crc_at = 0;
		bool copy = t->markers;
		if (copy && !st->fpdu && !(st->fpdu = malloc(CAP_FPDU_MAX))) {
			t->mpa = MPA_BAD;          /* out of memory */
			break;
		}
		uint32_t end = gather(b, n, 0, phase, t->markers,
				      copy ? st->fpdu : NULL, total, total - 4,
				      &crc_at);
		if (!end)
			return done;
		const uint8_t *fp = copy ? st->fpdu : b;
		bool ok = true;
		if (t->crc && !st->o->no_crc_check) {
			uint32_t want = le32(fp + total - 4);
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

void cap_iwarp_stream(struct cap_state *st, const struct cap_frame *f,
		      struct cap_conv *c, int dir, const uint8_t *p,
		      uint32_t len)
{
	struct cap_tcp_dir *t = &c->d[dir].tcp;

	if (t->mpa == MPA_BAD)
		return;
	if (!t->len) {                         /* nothing waiting: in place */
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
	if (p != NULL && t->len == len && len != 0) {
		/* just buffered a partial FPDU: nothing more to frame yet */
		return;
	}
	uint32_t used = frame_stream(st, f, c, dir, t->buf, t->len);
	if (!c->used)
		return;
	memmove(t->buf, t->buf + used, t->len - used);
	t->len -= used;
}
