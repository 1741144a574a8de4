/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_cap_mpa.c - the MPA framing of an iWARP stream whose MPA
 * Request/Reply the capture lacks (RFC 5044 4-7.1), inferred: CRC on and
 * off, markers on at any phase (RFC 5044 5, their FPDU pointers checked),
 * the stream starting inside an FPDU, random bytes refused, too few bytes
 * waited for, --mpa-crc narrowing the candidates; and through whole frames,
 * both directions without a handshake decoded in the order of the capture,
 * calls before their replies, and a segment lost before the framing is
 * known.
 */
#include <stdlib.h>
#include <string.h>
#include "capunit.h"

#define MARK 512u

struct stream {
	uint8_t b[1 << 16];
	uint32_t len;
	uint32_t pos0;              /* stream position of b[0] (markers) */
	bool markers;
	uint32_t at[64];            /* where each FPDU starts (its marker, if
				     * one comes first) */
	uint32_t n;
};

/* one byte of FPDU `start`, a marker first where the stream has one
 * (RFC 5044 5: 16 reserved zero bits, the octets from the FPDU's start) */
static void put(struct stream *s, uint32_t start, uint8_t v)
{
	if (s->markers && (s->pos0 + s->len) % MARK == 0) {
		uint32_t ptr = s->len - start;
		s->b[s->len++] = 0;
		s->b[s->len++] = 0;
		s->b[s->len++] = (uint8_t)(ptr >> 8);
		s->b[s->len++] = (uint8_t)ptr;
	}
	s->b[s->len++] = v;
}

/* an FPDU of a Send carrying an NFSv3 NULL call (or reply) `xid`; the
 * CRC32c over the FPDU with its markers, least significant byte first */
static void fpdu(struct stream *s, uint32_t xid, bool reply, bool crc)
{
	uint8_t m[128], f[256];
	uint32_t n = fpdu_send(f, s->n + 1, m, msg_null(m, xid, reply), false);
	uint32_t start = s->len;

	s->at[s->n++] = start;
	for (uint32_t i = 0; i < n - 4; i++)
		put(s, start, f[i]);
	uint32_t c = crc ? cap_crc32c(0, s->b + start, s->len - start) : 0;
	for (int i = 0; i < 4; i++)
		put(s, start, (uint8_t)(c >> (8 * i)));
}

static void make(struct stream *s, unsigned k, bool crc, bool markers,
		 uint32_t pos0, uint32_t xid0)
{
	memset(s, 0, sizeof(*s));
	s->markers = markers;
	s->pos0 = pos0;
	for (unsigned i = 0; i < k; i++)
		fpdu(s, xid0 + i, false, crc);
}

static enum cap_infer infer(const struct cap_state *st, const uint8_t *b,
			    uint32_t n, unsigned flags, struct cap_mpa_framing *fr)
{
	memset(fr, 0xee, sizeof(*fr));
	return cap_mpa_infer(st, b, n, flags, -1, fr);
}

static void variants(void)
{
	static struct stream s;
	struct cap_mpa_framing fr;
	struct run r;

	run_open(&r);
	for (int crc = 0; crc < 2; crc++) {
		make(&s, 8, crc, false, 0, 0x100);
		/* the capture starts 7 bytes into FPDU 0 */
		uint32_t cut = 7;
		enum cap_infer v = infer(r.st, s.b + cut, s.len - cut, 0, &fr);
		tap_ok(v == CAP_INFER_FOUND && fr.crc == crc && !fr.markers &&
		       fr.skip == s.at[1] - cut && fr.nvalid >= 3,
		       "infer: CRC %s, no markers, from inside an FPDU: the next FPDU (skip %u)",
		       crc ? "on" : "off", fr.skip);
	}
	for (int crc = 0; crc < 2; crc++) {
		/* markers at stream positions 0 mod 512, b[0] at 300 */
		make(&s, 24, crc, true, 300, 0x200);
		uint32_t cut = s.at[2] + 5;
		enum cap_infer v = infer(r.st, s.b + cut, s.len - cut, 0, &fr);
		uint32_t first = s.at[3];
		tap_ok(v == CAP_INFER_FOUND && fr.crc == crc && fr.markers &&
		       fr.skip == first - cut &&
		       fr.mark_pos == (300 + first) % MARK,
		       "infer: CRC %s, markers on at phase 300: found, marker position %u",
		       crc ? "on" : "off", fr.mark_pos);
	}
	run_close(&r);
}

static void refused_and_waiting(void)
{
	static struct stream s;
	static uint8_t rnd[8192];
	struct cap_mpa_framing fr;
	struct run r;
	uint32_t x = 2463534242u;

	for (uint32_t i = 0; i < sizeof(rnd); i++) {
		x ^= x << 13; x ^= x >> 17; x ^= x << 5;
		rnd[i] = (uint8_t)x;
	}
	run_open(&r);
	tap_ok(infer(r.st, rnd, sizeof(rnd), 0, &fr) == CAP_INFER_NONE &&
	       infer(r.st, rnd, 200, 0, &fr) == CAP_INFER_WAIT &&
	       infer(r.st, rnd, 200, CAP_INFER_LAST, &fr) == CAP_INFER_NONE,
	       "infer: random bytes: refused (8 KiB), waited for (200 bytes), refused at the end");

	make(&s, 2, true, false, 0, 0x300);
	bool wait = infer(r.st, s.b, s.len, 0, &fr) == CAP_INFER_WAIT;
	bool last = infer(r.st, s.b, s.len, CAP_INFER_LAST, &fr) == CAP_INFER_FOUND &&
		    fr.crc && fr.skip == 0;
	bool eager = infer(r.st, s.b, s.at[1], CAP_INFER_EAGER, &fr) == CAP_INFER_FOUND;
	tap_ok(wait && last && eager,
	       "infer: two FPDUs are not enough to decide, unless no more bytes come or the other direction is known");
	run_close(&r);

	/* --mpa-crc off: a stream with CRCs does not pass for one without */
	struct cap_opts o = { .roce_port = 4791, .mpa_crc = CAP_FORCE_OFF };
	FILE *out = fopen("/dev/null", "w");
	struct cap_state *st = cap_open(&o, out);
	make(&s, 8, true, false, 0, 0x400);
	tap_ok(st && infer(st, s.b, s.len, 0, &fr) != CAP_INFER_FOUND,
	       "infer: --mpa-crc off narrows the candidates: a stream with CRCs is not taken");
	cap_close(st);
	fclose(out);
}

/* both directions, no handshake, the capture starting inside the client's
 * first FPDU: every message after it, in the order of the frames */
static void frames(bool crc)
{
	static struct stream c, sv;
	struct run r;
	uint32_t cseq = 5000, sseq = 70000;

	make(&c, 10, crc, false, 0, 0x500);
	memset(&sv, 0, sizeof(sv));
	for (unsigned i = 0; i < 10; i++)
		fpdu(&sv, 0x500 + i, true, crc);
	run_open(&r);
	/* the tail of call 0 (its reply's call is not in the capture) */
	uint32_t cut = 9;
	tcp_frame(&r, 0, cseq + cut, sseq, 0x18, c.b + cut, c.at[1] - cut);
	for (unsigned i = 1; i < 10; i++) {
		uint32_t end = i + 1 < 10 ? c.at[i + 1] : c.len;
		tcp_frame(&r, 0, cseq + c.at[i], sseq, 0x18, c.b + c.at[i],
			  end - c.at[i]);
		uint32_t send = i + 1 < 10 ? sv.at[i + 1] : sv.len;
		tcp_frame(&r, 1, sseq + sv.at[i], cseq + end, 0x18,
			  sv.b + sv.at[i], send - sv.at[i]);
	}
	bool ordered = true;
	char a[16], b[16];
	for (unsigned i = 1; i < 10 && ordered; i++) {
		snprintf(a, sizeof(a), "0x%08x", 0x500 + i);
		snprintf(b, sizeof(b), "0x%08x", 0x500 + i + 1);
		const char *call = strstr(r.buf ? r.buf : "", a);
		const char *next = i + 1 < 10 ? strstr(r.buf, b) : NULL;
		ordered = call && strstr(call + 1, a) &&            /* its reply */
			  (!next || strstr(call + 1, a) < next);
	}
	run_end_source(&r);
	unsigned lines = run_lines(&r);
	tap_ok(lines == 18 && ordered && r.st->violations == 0 &&
	       r.st->stats.total.crc_fail == 0 && run_close(&r) == 0,
	       "frames: no handshake (CRC %s), the capture starting inside an FPDU: "
	       "18 messages, each call before its reply (%u lines)", crc ? "on" : "off", lines);
}

/* a segment lost while the framing is still being inferred: what came
 * before the gap is framed with what it holds, the rest after it */
static void gap_while_inferring(void)
{
	static struct stream c;
	struct run r;
	uint32_t cseq = 5000;

	make(&c, 10, false, false, 0, 0x600);
	run_open(&r);
	for (unsigned i = 0; i < 10; i++) {
		uint32_t end = i + 1 < 10 ? c.at[i + 1] : c.len;
		if (i != 2)                   /* the capture lost FPDU 2 */
			tcp_frame(&r, 0, cseq + c.at[i], 70000, 0x18,
				  c.b + c.at[i], end - c.at[i]);
	}
	bool held = run_lines(&r) == 0;
	run_end_source(&r);
	tap_ok(held && run_lines(&r) == 9 && run_has(&r, "0x00000601") &&
	       !run_has(&r, "0x00000602") && run_has(&r, "0x00000603") &&
	       r.st->lost.resyncs == 1 && run_close(&r) == 3,
	       "frames: a segment lost before the framing is known: 9 of 10, resynchronised");
}

int main(void)
{
	variants();
	refused_and_waiting();
	frames(false);
	frames(true);
	gap_while_inferring();
	return tap_done();
}
