/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_cap_tcp.c - TCP reassembly (RFC 9293) and MPA framing (RFC 5044)
 * of the capture pipeline, through whole Ethernet frames: in order,
 * reversed, repeated and overlapping segments; a gap the capture lost,
 * given up at the end, on the peer's acknowledgement, or when the slots
 * run out; sequence numbers across 2^32 and half the space away; an FPDU
 * cut at every byte; a bad CRC32c; finding the next FPDU after a gap, with
 * and without CRCs, by the decoder and by the redactor.  Without the MPA Request/Reply (RFC 5044 4-7.1) the
 * framing inferred: CRC on and off, markers at any phase (their FPDU
 * pointers checked), the stream starting inside an FPDU, random bytes
 * refused, too few bytes waited for, --mpa-crc narrowing the candidates;
 * whole frames of both directions decoded in capture order, calls before
 * their replies; a segment lost before the framing is known.
 */
#include <stdlib.h>
#include <string.h>
#include "capunit.h"
#include "cap_conv_tab.h"           /* st->ct->end */

#define ISN_C 1000u         /* client's first stream byte */
#define ISN_S 900000u

struct stream {
	uint8_t b[1 << 17];
	uint32_t len;
	uint32_t at[400];           /* where each FPDU starts */
	uint32_t n;
};

/* handshake (both sides) and `k` calls, one FPDU each, in s */
static void calls(struct stream *s, unsigned k, bool crc)
{
	uint8_t m[128];

	s->len = s->n = 0;
	for (unsigned i = 0; i < k; i++) {
		s->at[s->n++] = s->len;
		s->len += fpdu_send(s->b + s->len, i + 1, m,
				    msg_null(m, 0x100 + i, false), crc);
	}
}

static void handshake(struct run *r, uint32_t isn_c, bool crc)
{
	uint8_t h[20];

	mpa_frame(h, true, crc);
	tcp_frame(r, 0, isn_c - 20, ISN_S, 0x18, h, 20);
	mpa_frame(h, false, crc);
	tcp_frame(r, 1, ISN_S, isn_c, 0x18, h, 20);
}

/* FPDU i of s as one segment; ack is what the server has (none: ISN_S) */
static void seg(struct run *r, const struct stream *s, uint32_t isn, unsigned i)
{
	uint32_t end = i + 1 < s->n ? s->at[i + 1] : s->len;
	tcp_frame(r, 0, isn + s->at[i], ISN_S + 20, 0x18, s->b + s->at[i],
		  end - s->at[i]);
}

static void in_order_and_reversed(void)
{
	static struct stream s;
	struct run r;

	calls(&s, 5, true);
	run_open(&r);
	handshake(&r, ISN_C, true);
	for (unsigned i = 0; i < 5; i++)
		seg(&r, &s, ISN_C, i);
	tap_ok(run_lines(&r) == 5 && run_close(&r) == 0, "TCP: five FPDUs in order, five messages");

	run_open(&r);
	handshake(&r, ISN_C, true);
	for (unsigned i = 5; i-- > 1; )
		seg(&r, &s, ISN_C, i);
	bool held = run_lines(&r) == 0 && r.st->stats.total.retrans == 0;
	seg(&r, &s, ISN_C, 0);
	/* delivered in stream order once the first arrives */
	bool order = run_lines(&r) == 5 && strstr(r.buf, "0x00000100") < strstr(r.buf, "0x00000104");
	tap_ok(held && order && run_close(&r) == 0,
	       "TCP: four segments ahead are held, delivered in order when the gap fills");
}

static void repeated(void)
{
	static struct stream s;
	struct run r;

	calls(&s, 3, true);
	run_open(&r);
	handshake(&r, ISN_C, true);
	seg(&r, &s, ISN_C, 0);
	seg(&r, &s, ISN_C, 0);                       /* retransmitted */
	/* FPDUs 1 and 2 as one segment, then again from the middle of 1 */
	uint32_t a = s.at[1], mid = a + (s.at[2] - a) / 2;
	tcp_frame(&r, 0, ISN_C + a, ISN_S + 20, 0x18, s.b + a, s.len - a);
	tcp_frame(&r, 0, ISN_C + mid, ISN_S + 20, 0x18, s.b + mid, s.len - mid);
	tap_ok(run_lines(&r) == 3 && r.st->stats.total.retrans == 2 && run_close(&r) == 0,
	       "TCP: repeated and overlapping segments: each message once, retransmissions counted");
}

static void lost_segment(void)
{
	static struct stream s;
	struct run r;

	calls(&s, 6, true);
	/* the capture lost FPDU 2; nothing acknowledges it */
	run_open(&r);
	handshake(&r, ISN_C, true);
	for (unsigned i = 0; i < 6; i++)
		if (i != 2)
			seg(&r, &s, ISN_C, i);
	bool held = run_lines(&r) == 2;
	run_end_source(&r);
	uint32_t gap = s.at[3] - s.at[2];
	tap_ok(held && run_lines(&r) == 5 && r.st->lost.resyncs == 1 &&
	       r.st->lost.stream_bytes == gap && run_close(&r) == 3,
	       "TCP: a segment the capture lost: the rest is held, then given up at the end (5 of 6, %u bytes lost, exit 3)", gap);

	/* the same, the server acknowledging everything the client sent */
	run_open(&r);
	handshake(&r, ISN_C, true);
	for (unsigned i = 0; i < 6; i++)
		if (i != 2)
			seg(&r, &s, ISN_C, i);
	tcp_frame(&r, 1, ISN_S + 20, ISN_C + s.len, 0x10, NULL, 0);
	tap_ok(run_lines(&r) == 5 && r.st->lost.resyncs == 1,
	       "TCP: the peer acknowledges past the gap: resynchronised at once");
	run_close(&r);

	/* an acknowledgement past what the capture has, nothing held */
	run_open(&r);
	handshake(&r, ISN_C, true);
	seg(&r, &s, ISN_C, 0);
	tcp_frame(&r, 1, ISN_S + 20, ISN_C + s.at[2], 0x10, NULL, 0);
	seg(&r, &s, ISN_C, 2);                       /* 1 never captured */
	tap_ok(run_lines(&r) == 2 && r.st->lost.stream_bytes == s.at[2] - s.at[1],
	       "TCP: acknowledged bytes never seen: the stream goes on after them");
	run_close(&r);
}

static void slots_full(void)
{
	static struct stream s;
	struct run r;

	calls(&s, CAP_OOO_MAX + 40, true);
	run_open(&r);
	handshake(&r, ISN_C, true);
	for (unsigned i = 0; i < s.n; i++)
		if (i != 1)
			seg(&r, &s, ISN_C, i);
	tap_ok(run_lines(&r) == s.n - 1 && r.st->lost.resyncs == 1,
	       "TCP: more out-of-order segments than the %u slots: resynchronised, %u of %u", CAP_OOO_MAX, s.n - 1, s.n);
	run_close(&r);
}

static void wrap(void)
{
	static struct stream s;
	struct run r;

	calls(&s, 6, true);
	/* the stream crosses 2^32 in the middle of FPDU 2 */
	uint32_t isn = 0u - s.at[2] - 10;
	run_open(&r);
	handshake(&r, isn, true);
	for (unsigned i = 6; i-- > 0; )
		seg(&r, &s, isn, i);
	tap_ok(run_lines(&r) == 6 && r.st->lost.resyncs == 0 && run_close(&r) == 0,
	       "TCP: sequence numbers across 2^32, segments in reverse: all six");

	/* a segment exactly half the sequence space away (INT32_MIN as a
	 * signed distance): neither ahead nor a repeat; no overflow */
	run_open(&r);
	handshake(&r, ISN_C, true);
	seg(&r, &s, ISN_C, 0);
	tcp_frame(&r, 0, ISN_C + s.at[1] + 0x80000000u, ISN_S + 20, 0x18,
		  s.b + s.at[1], s.at[2] - s.at[1]);
	tcp_frame(&r, 0, ISN_C + s.at[1] - 0x80000000u, ISN_S + 20, 0x18,
		  s.b + s.at[1], s.at[2] - s.at[1]);
	tap_ok(run_lines(&r) >= 1, "TCP: a segment 2^31 away (signed distance INT32_MIN) handled without overflow");
	run_close(&r);
}

static void split_everywhere(void)
{
	static struct stream s;
	bool all = true;

	calls(&s, 1, true);
	for (uint32_t k = 1; k < s.len; k++) {
		struct run r;
		run_open(&r);
		handshake(&r, ISN_C, true);
		tcp_frame(&r, 0, ISN_C, ISN_S + 20, 0x18, s.b, k);
		tcp_frame(&r, 0, ISN_C + k, ISN_S + 20, 0x18, s.b + k, s.len - k);
		all &= run_lines(&r) == 1 && r.st->violations == 0;
		run_close(&r);
	}
	tap_ok(all, "MPA: an FPDU cut into two segments at each of its %u bytes: framed once", s.len - 1);
}

static void bad_crc(void)
{
	static struct stream s;
	struct run r;

	calls(&s, 3, true);
	s.b[s.at[1] + 30] ^= 1;                      /* inside FPDU 1 */
	run_open(&r);
	handshake(&r, ISN_C, true);
	for (unsigned i = 0; i < 3; i++)
		seg(&r, &s, ISN_C, i);
	tap_ok(run_lines(&r) == 2 && r.st->stats.total.crc_fail == 1,
	       "MPA: a CRC32c mismatch drops that FPDU only");
	run_close(&r);
}

/* FPDUs 0-4; segment A = FPDU 0 + half of 1, B (lost) = the rest of 1 +
 * half of 2, C = the rest of 2 + 3 + 4 */
static void hunt(bool crc)
{
	static struct stream s;
	struct run r;

	calls(&s, 5, crc);
	uint32_t a = s.at[1] + 7, b = s.at[2] + 9;
	run_open(&r);
	handshake(&r, ISN_C, crc);
	tcp_frame(&r, 0, ISN_C, ISN_S + 20, 0x18, s.b, a);
	tcp_frame(&r, 0, ISN_C + b, ISN_S + 20, 0x18, s.b + b, s.len - b);
	tcp_frame(&r, 1, ISN_S + 20, ISN_C + s.len, 0x10, NULL, 0);
	tap_ok(run_lines(&r) == 3 && run_has(&r, "0x00000103") &&
	       run_has(&r, "0x00000104") && r.st->lost.resyncs == 1,
	       "MPA: after a gap that cut FPDUs, the next FPDU boundary is found (CRC %s)",
	       crc ? "on" : "off");
	run_close(&r);
}

/* The redactor past the same gap (cap_redact_iwarp.c: a gap that never
 * fills, here at the end of the file, gone past at the next FPDU boundary
 * by cap_mpa_resync): the redacted copy, decoded, still holds the calls
 * before the gap and after it, and cap_mpa_resync finds the boundary the
 * decoder found.  With the old redactor (the rest of the direction zeroed)
 * the copy lost 0x103 and 0x104. */
static void redact_gap(bool crc)
{
	static struct stream s;
	struct run r, d;
	const struct cap_redact_opts o = { .roce_port = 4791 };

	calls(&s, 5, crc);
	uint32_t a = s.at[1] + 7, b = s.at[2] + 9;
	uint32_t o3 = cap_mpa_resync(crc, s.b + b, s.len - b);
	run_open(&r);
	run_record(&r, 1u << 20);
	handshake(&r, ISN_C, crc);
	tcp_frame(&r, 0, ISN_C, ISN_S + 20, 0x18, s.b, a);
	tcp_frame(&r, 0, ISN_C + b, ISN_S + 20, 0x18, s.b + b, s.len - b);
	size_t n = r.pcap_len;
	int rc = cap_redact_mem(&o, "unit", r.pcap, &n);
	run_open(&d);
	run_pcap(&d, r.pcap, n);
	run_end_source(&d);
	tap_ok(rc == 0 && o3 == s.at[3] - b && n == r.pcap_len &&
	       run_has(&d, "0x00000100") && run_has(&d, "0x00000103") &&
	       run_has(&d, "0x00000104") && !run_has(&d, "0x00000102"),
	       "--redact: past a gap the capture never filled, at the next FPDU "
	       "boundary (%u bytes in; CRC %s): the calls after it kept",
	       o3, crc ? "on" : "off");
	run_close(&d);
	run_close(&r);
	uint8_t junk[600];
	for (unsigned i = 0; i < sizeof(junk); i++)
		junk[i] = (uint8_t)(i * 37u + 11u);
	tap_ok(cap_mpa_resync(crc, junk, sizeof(junk)) == UINT32_MAX &&
	       cap_mpa_resync(crc, s.b, 0) == UINT32_MAX,
	       "cap_mpa_resync: no boundary in bytes that hold none (CRC %s)",
	       crc ? "on" : "off");
}

/* ------------------------------------------- no MPA handshake (cap_mpa.c) */

#define MARK 512u

struct mstream {
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
static void mput(struct mstream *s, uint32_t start, uint8_t v)
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
static void mfpdu(struct mstream *s, uint32_t xid, bool reply, bool crc)
{
	uint8_t m[128], f[256];
	uint32_t n = fpdu_send(f, s->n + 1, m, msg_null(m, xid, reply), false);
	uint32_t start = s->len;

	s->at[s->n++] = start;
	for (uint32_t i = 0; i < n - 4; i++)
		mput(s, start, f[i]);
	uint32_t c = crc ? cap_crc32c(0, s->b + start, s->len - start) : 0;
	for (int i = 0; i < 4; i++)
		mput(s, start, (uint8_t)(c >> (8 * i)));
}

static void mmake(struct mstream *s, unsigned k, bool crc, bool markers,
		 uint32_t pos0, uint32_t xid0)
{
	memset(s, 0, sizeof(*s));
	s->markers = markers;
	s->pos0 = pos0;
	for (unsigned i = 0; i < k; i++)
		mfpdu(s, xid0 + i, false, crc);
}

static enum cap_infer try_infer(const struct cap_state *st, const uint8_t *b,
			    uint32_t n, unsigned flags, struct cap_mpa_framing *fr)
{
	memset(fr, 0xee, sizeof(*fr));
	return cap_mpa_infer(st, b, n, flags, -1, fr);
}

static void infer_variants(void)
{
	static struct mstream s;
	struct cap_mpa_framing fr;
	struct run r;

	run_open(&r);
	for (int crc = 0; crc < 2; crc++) {
		mmake(&s, 8, crc, false, 0, 0x100);
		/* the capture starts 7 bytes into FPDU 0 */
		uint32_t cut = 7;
		enum cap_infer v = try_infer(r.st, s.b + cut, s.len - cut, 0, &fr);
		tap_ok(v == CAP_INFER_FOUND && fr.crc == crc && !fr.markers &&
		       fr.skip == s.at[1] - cut && fr.nvalid >= 3,
		       "infer: CRC %s, no markers, from inside an FPDU: the next FPDU (skip %u)",
		       crc ? "on" : "off", fr.skip);
	}
	for (int crc = 0; crc < 2; crc++) {
		/* markers at stream positions 0 mod 512, b[0] at 300 */
		mmake(&s, 24, crc, true, 300, 0x200);
		uint32_t cut = s.at[2] + 5;
		enum cap_infer v = try_infer(r.st, s.b + cut, s.len - cut, 0, &fr);
		uint32_t first = s.at[3];
		tap_ok(v == CAP_INFER_FOUND && fr.crc == crc && fr.markers &&
		       fr.skip == first - cut &&
		       fr.mark_pos == (300 + first) % MARK,
		       "infer: CRC %s, markers on at phase 300: found, marker position %u",
		       crc ? "on" : "off", fr.mark_pos);
	}
	run_close(&r);
}

static void infer_refused_and_waiting(void)
{
	static struct mstream s;
	static uint8_t rnd[8192];
	struct cap_mpa_framing fr;
	struct run r;
	uint32_t x = 2463534242u;

	for (uint32_t i = 0; i < sizeof(rnd); i++) {
		x ^= x << 13; x ^= x >> 17; x ^= x << 5;
		rnd[i] = (uint8_t)x;
	}
	run_open(&r);
	tap_ok(try_infer(r.st, rnd, sizeof(rnd), 0, &fr) == CAP_INFER_NONE &&
	       try_infer(r.st, rnd, 200, 0, &fr) == CAP_INFER_WAIT &&
	       try_infer(r.st, rnd, 200, CAP_INFER_LAST, &fr) == CAP_INFER_NONE,
	       "infer: random bytes: refused (8 KiB), waited for (200 bytes), refused at the end");

	mmake(&s, 2, true, false, 0, 0x300);
	bool wait = try_infer(r.st, s.b, s.len, 0, &fr) == CAP_INFER_WAIT;
	bool last = try_infer(r.st, s.b, s.len, CAP_INFER_LAST, &fr) == CAP_INFER_FOUND &&
		    fr.crc && fr.skip == 0;
	bool eager = try_infer(r.st, s.b, s.at[1], CAP_INFER_EAGER, &fr) == CAP_INFER_FOUND;
	tap_ok(wait && last && eager,
	       "infer: two FPDUs are not enough to decide, unless no more bytes come or the other direction is known");
	run_close(&r);

	/* --mpa-crc off: a stream with CRCs does not pass for one without */
	struct cap_opts o = { .roce_port = 4791, .mpa_crc = CAP_FORCE_OFF };
	FILE *out = fopen("/dev/null", "w");
	struct cap_state *st = cap_open(&o, out);
	mmake(&s, 8, true, false, 0, 0x400);
	tap_ok(st && try_infer(st, s.b, s.len, 0, &fr) != CAP_INFER_FOUND,
	       "infer: --mpa-crc off narrows the candidates: a stream with CRCs is not taken");
	cap_close(st);
	fclose(out);
}

/* both directions, no handshake, the capture starting inside the client's
 * first FPDU: every message after it, in the order of the frames */
static void infer_frames(bool crc)
{
	static struct mstream c, sv;
	struct run r;
	uint32_t cseq = 5000, sseq = 70000;

	mmake(&c, 10, crc, false, 0, 0x500);
	memset(&sv, 0, sizeof(sv));
	for (unsigned i = 0; i < 10; i++)
		mfpdu(&sv, 0x500 + i, true, crc);
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
static void infer_gap(void)
{
	static struct mstream c;
	struct run r;
	uint32_t cseq = 5000;

	mmake(&c, 10, false, false, 0, 0x600);
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

/* A conversation ends once, through the table's callback (st->ct->end,
 * cap_end.c): at a RST the segments held past a gap are delivered by the
 * teardown, and the end of the source finds nothing left to end */
static unsigned ends;
static void (*real_end)(struct cap_state *st, struct cap_conv *c);
static void counted_end(struct cap_state *st, struct cap_conv *c)
{
	ends++;
	real_end(st, c);
}

static void end_through_callback(void)
{
	static struct stream s;
	struct run r;

	calls(&s, 4, true);
	run_open(&r);
	real_end = r.st->ct->end;
	r.st->ct->end = counted_end;
	ends = 0;
	handshake(&r, ISN_C, true);
	seg(&r, &s, ISN_C, 0);
	seg(&r, &s, ISN_C, 2);                       /* 1 lost: 2, 3 held */
	seg(&r, &s, ISN_C, 3);
	bool held = run_lines(&r) == 1 && ends == 0;
	tcp_frame(&r, 0, ISN_C + s.len, ISN_S + 20, 0x04, NULL, 0);   /* RST */
	bool closed = ends == 1 && run_lines(&r) == 3 && run_has(&r, "0x00000103");
	run_end_source(&r);
	tap_ok(real_end && held && closed && ends == 1 && run_close(&r) == 3,
	       "conversation end: once, through st->ct->end; at a RST the teardown "
	       "delivers what was held past a gap");
}

int main(void)
{
	in_order_and_reversed();
	repeated();
	lost_segment();
	slots_full();
	wrap();
	split_everywhere();
	bad_crc();
	hunt(true);
	hunt(false);
	redact_gap(true);
	redact_gap(false);
	infer_variants();
	infer_refused_and_waiting();
	infer_frames(false);
	infer_frames(true);
	infer_gap();
	end_through_callback();
	return tap_done();
}
