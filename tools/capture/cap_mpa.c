/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cap_mpa.c - MPA framing of an iWARP byte stream (RFC 5044 4-6): FPDU
 * bytes gathered across markers, an FPDU validated where it may start,
 * the next FPDU boundary found after a gap, and the framing inferred when
 * the capture lacks the MPA Request and Reply that negotiated it (CRC on
 * or off, markers on or off and their phase): a framing is taken only when
 * several consecutive FPDUs validate (lengths, DDP and RDMAP versions and
 * opcodes, the CRC32c, or with CRCs off their zero CRC field).
 */
#include <string.h>
#include "cap_cur.h"
#include "cap_state.h"

#define MARKER_EVERY 512u
#define DDP_TAGGED_HDR 14u

/* An FPDU header as a sender would start one: DDP version 1, RDMAP 1 */
bool cap_ddp_plausible(const uint8_t *u)
{
	return (u[0] & 0x03) == 0x01 && (u[1] & 0xc0) == 0x40;
}

/* Gather `want` bytes of FPDU from raw b[off..n), skipping markers (every
 * 512 octets of the stream; `phase` = stream position of b[0] mod 512).
 * Returns the raw index after the last byte, 0 when b runs out; *crc_at =
 * raw index of the byte numbered `crc_from`. */
uint32_t cap_mpa_gather(const uint8_t *b, uint32_t n, uint32_t off,
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
static int fpdu_at(bool crc, bool markers, uint32_t mark_pos, const uint8_t *b,
		   uint32_t n, uint32_t o, uint64_t *crc_work)
{
	uint32_t phase = (mark_pos + o) % MARKER_EVERY, dummy = 0, crc_at = 0;
	uint8_t h[4];

	if (markers && phase < 4)
		return 0;                  /* a marker, not an FPDU */
	if (!cap_mpa_gather(b, n, o, mark_pos, markers, h, 4, UINT32_MAX, &dummy))
		return -1;
	uint32_t L = cap_be16(h);
	if (L < DDP_TAGGED_HDR || !cap_ddp_plausible(h + 2))
		return 0;
	uint32_t total = 2 + L + (4 - (2 + L) % 4) % 4 + 4;
	uint32_t end = cap_mpa_gather(b, n, o, mark_pos, markers, NULL, total,
			      total - 4, &crc_at);
	if (!end)
		return -1;
	if (crc) {
		uint8_t w[4];
		uint32_t e2 = cap_mpa_gather(b, n, crc_at, mark_pos, markers, w, 4,
				     UINT32_MAX, &dummy);
		if (!e2)
			return -1;
		if (markers)
			return 1;          /* CRC over the FPDU with markers:
					    * checked when framed */
		*crc_work += crc_at - o;
		uint32_t want = cap_le32(w), got = cap_crc32c(0, b + o, crc_at - o);
		return cap_crc_verdict(got == want || __builtin_bswap32(got) == want,
				       w, 4) ? 1 : 0;
	}
	if (end == n)
		return 1;
	if (!cap_mpa_gather(b, n, end, mark_pos, markers, h, 4, UINT32_MAX, &dummy))
		return -1;
	return cap_be16(h) >= DDP_TAGGED_HDR && cap_ddp_plausible(h + 2);
}

#define HUNT_CRC_MAX (4u << 20)        /* CRC bytes one hunt may spend */

/* After a gap: skip to the next FPDU boundary.  Returns the raw bytes
 * that cannot start one; *found when an FPDU starts right after them. */
uint32_t cap_mpa_hunt(struct cap_state *st, struct cap_tcp_dir *t,
		      const uint8_t *b, uint32_t n, bool *found)
{
	uint64_t work = 0;

	*found = false;
	for (uint32_t o = 0; o < n; o++) {
		int r = fpdu_at(t->crc, t->markers, t->mark_pos, b, n, o, &work);
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

/* The same hunt as a pure function, for a stream without markers (the
 * redactor's, cap_redact_iwarp.c): the first offset of b[0..n) where an
 * FPDU starts, UINT32_MAX when none is found before the bytes run out or
 * HUNT_CRC_MAX CRC bytes are spent. */
uint32_t cap_mpa_resync(bool crc, const uint8_t *b, uint32_t n)
{
	uint64_t work = 0;

	for (uint32_t o = 0; o < n && work <= HUNT_CRC_MAX; o++) {
		int r = fpdu_at(crc, false, 0, b, n, o, &work);
		if (r < 0)
			break;
		if (r > 0)
			return o;
	}
	return UINT32_MAX;
}

/* ------------------------------------------------------------ inference */

#define INFER_FPDUS 3u                 /* consecutive FPDUs to accept ... */
#define INFER_SPAN (MARKER_EVERY + 4u) /* ... spanning a marker's place */
#define INFER_OFFSETS 4096u            /* where the first may start */
#define INFER_CRC_MAX (8u << 20)       /* CRC bytes one candidate may spend */
/* Work one inference may spend over every candidate, CRC or not (markers
 * without CRCs had no bound but the offsets and phases), in units of about
 * a byte examined: the offsets' map 1 each, each FPDU tried INFER_STEP,
 * each marker read 4, each CRC byte 1.  The real captures in
 * tests/captures/ take at most 168,471 (nohandshake/nfs3-late-iwarp-siw,
 * measured 2026-11-26), fuzz_cap_tcp's inputs up to about a million; past
 * the budget the inference ends as if the candidates left had not
 * validated (WAIT or NONE, as the bytes held say). */
#define INFER_STEP 16u
#define INFER_WORK_MAX (4u << 20)

struct work {
	uint64_t crc;                    /* CRC bytes, this candidate */
	uint64_t all;                    /* everything, this inference */
};

static bool work_left(const struct work *w)
{
	return w->crc <= INFER_CRC_MAX && w->all <= INFER_WORK_MAX;
}

struct framing {
	bool crc, markers;
	uint32_t phase;                  /* stream position of b[0] mod 512 */
};

/* Do the markers inside the FPDU at raw b[o..end) point back to its start
 * (RFC 5044 5: the FPDU pointer, the octets from the FPDU's start to the
 * marker; `lead` a marker just before it, which the count may include)? */
static bool markers_point(const struct framing *fr, const uint8_t *b,
			  uint32_t o, uint32_t end, bool lead)
{
	struct cap_cur c = cur_make(b, end);
	uint32_t m = o + (MARKER_EVERY - (fr->phase + o) % MARKER_EVERY) % MARKER_EVERY;
	uint16_t rsvd, fptr;

	for (; m < end; m += MARKER_EVERY) {
		if (!cur_peek16(&c, m, &rsvd) || !cur_peek16(&c, m + 2, &fptr) ||
		    rsvd || (fptr != m - o && !(lead && fptr == m - o + 4)))
			return false;
	}
	return true;
}

/* Could the 4 bytes at h open an FPDU (its length, the DDP and RDMAP
 * versions, an RDMAP opcode RFC 5040 defines)? */
static bool hdr_plausible(const uint8_t *h)
{
	return cap_be16(h) >= DDP_TAGGED_HDR && cap_ddp_plausible(h + 2) &&
	       (h[3] & 0x0f) <= 7;
}

/* One FPDU at raw offset o under framing fr (after a marker there): 1
 * valid (*end after it), 0 not, -1 the bytes end first.  Stricter than
 * fpdu_at(): the RDMAP opcode is one RFC 5040 defines, markers point back
 * to the FPDU, and without CRCs the CRC field is zero (RFC 5044 4.1). */
static int check(const struct framing *fr, const uint8_t *b, uint32_t n,
		 uint32_t o, uint32_t *end, struct work *work)
{
	uint32_t pos = (fr->phase + o) % MARKER_EVERY, dummy = 0, crc_at = 0;
	uint8_t h[4], w[4];
	bool lead = false;

	work->all += INFER_STEP;
	if (fr->markers && pos < 4) {      /* a marker first, then the FPDU */
		o += 4 - pos;
		pos = 4;
		lead = true;
	}
	if (!cap_mpa_gather(b, n, o, fr->phase, fr->markers, h, 4, UINT32_MAX,
			    &dummy))
		return -1;
	if (!hdr_plausible(h))
		return 0;
	uint32_t L = cap_be16(h);
	uint32_t total = 2 + L + (4 - (2 + L) % 4) % 4 + 4;
	*end = cap_mpa_gather(b, n, o, fr->phase, fr->markers, NULL, total,
			      total - 4, &crc_at);
	if (fr->markers)        /* the markers walked: gathering, pointing */
		work->all += 8u * ((total + MARKER_EVERY - 1) / MARKER_EVERY + 1);
	if (!*end || !cap_mpa_gather(b, n, crc_at, fr->phase, fr->markers, w, 4,
				     UINT32_MAX, &dummy))
		return -1;
	if (fr->markers && !markers_point(fr, b, o, *end, lead))
		return 0;
	if (!fr->crc)
		return !memcmp(w, "\0\0\0\0", 4);
	/* over the raw bytes, markers in it; with a marker just before the
	 * FPDU, with it too (cap_iwarp.c accepts both) */
	work->crc += crc_at - o;
	work->all += crc_at - o;
	uint32_t want = cap_le32(w), got = cap_crc32c(0, b + o, crc_at - o);
	bool ok = got == want || __builtin_bswap32(got) == want;
	if (!ok && lead && o >= 4) {    /* (the marker may begin before b) */
		got = cap_crc32c(0, b + o - 4, crc_at - o + 4);
		ok = got == want || __builtin_bswap32(got) == want;
	}
	return cap_crc_verdict(ok, w, 4);
}

/* FPDUs validated one after the other from o (*k of them), until
 * INFER_FPDUS of them span INFER_SPAN bytes (so that a stream with markers
 * cannot pass for one without): 1 done, 0 an FPDU does not validate, -1
 * the bytes ran out first, every FPDU up to there valid */
static int chain(const struct framing *fr, const uint8_t *b, uint32_t n,
		 uint32_t o, unsigned *k, struct work *work)
{
	uint32_t start = o;

	for (*k = 0; *k < INFER_FPDUS || o - start < INFER_SPAN; ++*k) {
		uint32_t end = 0;
		int r = check(fr, b, n, o, &end, work);
		if (r <= 0)
			return r;
		o = end;
		if (o == n) {
			++*k;
			return -1;
		}
	}
	return 1;
}

/* Marker phases b[0..n) allows (RFC 5044 5): every marker position holds
 * 16 reserved zero bits, and its FPDU pointer names the FPDU the marker
 * lies in, the same as the marker before or one that starts after it.
 * Needs `need` markers in the bytes. */
static bool phase_fits(const uint8_t *b, uint32_t n, uint32_t phase,
		       uint32_t need, struct work *work)
{
	struct cap_cur c = cur_make(b, n);
	uint32_t m = (MARKER_EVERY - phase) % MARKER_EVERY, seen = 0;
	int64_t start = INT64_MIN;               /* the last marker's FPDU */
	uint16_t rsvd, fptr;

	for (; cur_peek16(&c, m, &rsvd) && cur_peek16(&c, m + 2, &fptr);
	     m += MARKER_EVERY, seen++) {
		int64_t at = (int64_t)m - fptr;
		work->all += 4;
		if (rsvd || (seen && at != start && at < (int64_t)m - MARKER_EVERY + 4))
			return false;
		start = at;
	}
	return seen >= need;
}

#define SCAN_ALL (MARKER_EVERY + 8u)     /* with markers: every offset below */

/* Bit o of plaus[]: b[o..o+4) could open an FPDU (hdr_plausible()), for
 * o < lim, lim <= INFER_OFFSETS; built once per inference */
static uint32_t plausible_map(const uint8_t *b, uint32_t n,
			      uint64_t plaus[INFER_OFFSETS / 64])
{
	uint32_t lim = n < 4 ? 0 : n - 3;

	if (lim > INFER_OFFSETS)
		lim = INFER_OFFSETS;
	memset(plaus, 0, INFER_OFFSETS / 8);
	for (uint32_t o = 0; o < lim; o++)
		if (hdr_plausible(b + o))
			plaus[o / 64] |= 1ull << (o % 64);
	return lim;
}

/* Would check() reject an FPDU at o under fr at its first test?  Yes when
 * the 4 bytes of its header (after the marker o is in, if any) are in the
 * map and cannot open one; no when they lie across a marker or past the
 * map (check() gathers them then). */
static bool cannot_open(const struct framing *fr, const uint64_t *plaus,
			uint32_t lim, uint32_t o)
{
	if (fr->markers) {
		uint32_t pos = (fr->phase + o) % MARKER_EVERY;
		if (pos < 4)
			o += 4 - pos;      /* the header follows the marker */
		else if (pos > MARKER_EVERY - 4)
			return false;
	}
	return o < lim && !(plaus[o / 64] >> (o % 64) & 1);
}

/* The first offset from o on, of those tried one by one (every offset
 * without markers; with them, those below SCAN_ALL), that cannot_open()
 * does not rule out: whole words of the map at a time between markers.
 * The offsets skipped would each have failed check() at once (0, not -1:
 * their bytes are there). */
static uint32_t skip_implausible(const struct framing *fr, const uint64_t *plaus,
				 uint32_t lim, uint32_t o)
{
	uint32_t end = fr->markers && lim > SCAN_ALL - 1 ? SCAN_ALL - 1 : lim;

	while (o < end) {
		uint32_t stop = end;
		if (fr->markers) {
			uint32_t pos = (fr->phase + o) % MARKER_EVERY;
			if (pos < 4 || pos > MARKER_EVERY - 4) {
				if (!cannot_open(fr, plaus, lim, o))
					return o;
				o++;
				continue;
			}
			if (o + (MARKER_EVERY - 3 - pos) < stop)
				stop = o + (MARKER_EVERY - 3 - pos);
		}
		uint64_t w = plaus[o / 64] >> (o % 64);
		if (w && o + (uint32_t)__builtin_ctzll(w) < stop)
			return o + (uint32_t)__builtin_ctzll(w);
		o = (o / 64 + 1) * 64 < stop ? (o / 64 + 1) * 64 : stop;
	}
	return o;
}

/* Where the next FPDU may start after offset o: every offset without
 * markers; with markers (512 phases to try), every offset up to SCAN_ALL,
 * then only where a marker's FPDU pointer points (RFC 5044 5), *m the next
 * marker to read; UINT32_MAX when there is no more */
static uint32_t next_start(const struct framing *fr, const uint8_t *b,
			   uint32_t n, uint32_t o, uint32_t *m, struct work *work)
{
	struct cap_cur c = cur_make(b, n);
	uint16_t fptr;

	if (!fr->markers || o + 1 < SCAN_ALL)
		return o + 1;
	for (; cur_peek16(&c, *m + 2, &fptr); *m += MARKER_EVERY) {
		work->all += 4;
		if (fptr <= *m && *m - fptr > o) {
			uint32_t at = *m - fptr;
			*m += MARKER_EVERY;
			return at;
		}
	}
	return UINT32_MAX;
}

/*
 * No MPA Request or Reply in the capture: find the framing of b[0..n), the
 * stream bytes held so far (RFC 5044 4-6).  The candidates: CRC on or off
 * (crc_only >= 0: only that one, the other direction's: CRC use is the
 * connection's, 7.1), markers on (every phase the marker fields allow) or
 * off; --mpa-crc and --mpa-markers narrow them.  A framing is taken when
 * INFER_FPDUS consecutive FPDUs validate over INFER_SPAN bytes, or with
 * CAP_INFER_EAGER (the other direction's framing known) or CAP_INFER_LAST
 * (no more bytes will come) when the FPDUs validate up to the end of b.
 * Of the framings taken, the one whose first FPDU starts earliest.
 * CAP_INFER_WAIT: not enough bytes yet; CAP_INFER_NONE: nothing validates.
 */
enum cap_infer cap_mpa_infer(const struct cap_state *st, const uint8_t *b,
			     uint32_t n, unsigned flags, int crc_only,
			     struct cap_mpa_framing *out)
{
	bool promising = false, eager = flags & (CAP_INFER_EAGER | CAP_INFER_LAST);
	static const struct framing cand[4] = {
		{ true, false, 0 }, { false, false, 0 },
		{ true, true, 0 }, { false, true, 0 },
	};

	/* the framing that explains the bytes from the earliest offset */
	uint32_t best = n < INFER_OFFSETS ? n : INFER_OFFSETS;
	bool found = false;
	uint64_t plaus[INFER_OFFSETS / 64];
	uint32_t lim = plausible_map(b, n, plaus);
	struct work work = { 0, lim };
	for (unsigned ci = 0; ci < 4; ci++) {
		struct framing fr = cand[ci];
		work.crc = 0;
		if ((st->o->mpa_crc && fr.crc != (st->o->mpa_crc == CAP_FORCE_ON)) ||
		    (st->o->mpa_markers &&
		     fr.markers != (st->o->mpa_markers == CAP_FORCE_ON)) ||
		    (crc_only >= 0 && fr.crc != (crc_only > 0)))
			continue;
		for (uint32_t p = 0; p < (fr.markers ? MARKER_EVERY : 1u) &&
				     work_left(&work); p++) {
			fr.phase = p;
			if (fr.markers && !phase_fits(b, n, p, eager ? 1 : 2, &work))
				continue;
			uint32_t m = (MARKER_EVERY - p) % MARKER_EVERY;
			for (uint32_t o = 0; o < best && work_left(&work);
			     o = next_start(&fr, b, n, o, &m, &work)) {
				unsigned k;
				if (!fr.markers || o < SCAN_ALL) {
					uint32_t from = o;
					o = skip_implausible(&fr, plaus, lim, o);
					work.all += 1 + (o - from) / 64;
					if (o >= best)
						break;
				} else if (cannot_open(&fr, plaus, lim, o)) {
					continue;  /* where a marker points */
				}
				int r = chain(&fr, b, n, o, &k, &work);
				if (r > 0 || (r < 0 && k && eager)) {
					*out = (struct cap_mpa_framing){
						.crc = fr.crc, .markers = fr.markers,
						.mark_pos = (p + o) % MARKER_EVERY,
						.skip = o, .nvalid = k };
					best = o;
					found = true;
					break;
				}
				promising |= r < 0 && (k || o == 0);
			}
		}
	}
	if (found)
		return CAP_INFER_FOUND;
	/* no FPDU starts in the first INFER_OFFSETS bytes: not MPA, or an
	 * FPDU larger than any a sender makes of one TCP segment */
	if ((flags & CAP_INFER_LAST) || (!promising && n >= INFER_OFFSETS + 4))
		return CAP_INFER_NONE;
	return CAP_INFER_WAIT;
}
