/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_cap_tcp.c - TCP reassembly (RFC 9293) and MPA framing (RFC 5044)
 * of the capture pipeline, through whole Ethernet frames: in order,
 * reversed, repeated and overlapping segments; a gap the capture lost,
 * given up at the end, on the peer's acknowledgement, or when the slots
 * run out; sequence numbers across 2^32 and half the space away; an FPDU
 * cut at every byte; a bad CRC32c; finding the next FPDU after a gap, with
 * and without CRCs.
 */
#include <string.h>
#include "capunit.h"

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
	return tap_done();
}
