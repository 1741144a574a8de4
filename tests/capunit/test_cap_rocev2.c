/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_cap_rocev2.c - RoCEv2 over IPv4 (RoCE annex A17): the ICRC (A17.3.3:
 * 8 bytes of ones for the LRH, the IPv4 header with TOS, TTL and its
 * checksum as ones, the UDP header with its checksum as ones, the BTH with
 * Resv8a as ones, the payload), computed here bit by bit from that text,
 * against the pipeline's (over fixed-size copies of the headers for IPv4)
 * on its two ways to a packet: the common one (a 20-byte header, no
 * Ethernet padding: straight from the IPv4 header to the BTH) and the
 * general one (the same packet with padding after it, through every IPv4
 * and UDP check).  A masked field changed keeps the packet good, a covered
 * one makes it a crc-error, both ways, for a SEND and an ACK (its own
 * fixed-size copy).  And a conversation that ended is not found again
 * through the hint of its QP's last half.
 */
#include <string.h>
#include "capunit.h"

enum { ETH = 0, IP = 14, UDP = 34, BTH = 42, PAY = 54 };

#define SEND_ONLY 0x04
#define ACK 0x11

static uint32_t crc32_bitwise(const uint8_t *p, size_t n)
{
	uint32_t c = 0xffffffffu;
	while (n--) {
		c ^= *p++;
		for (int k = 0; k < 8; k++)
			c = c & 1 ? c >> 1 ^ 0xedb88320u : c >> 1;
	}
	return ~c;
}

static void put16(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

/* the ICRC of frame b (`len` bytes from the Ethernet header to the ICRC)
 * written in place, low byte first */
static void seal(uint8_t *b, uint32_t len)
{
	uint8_t m[512];
	uint32_t n;

	memset(m, 0xff, 8);
	memcpy(m + 8, b + IP, len - 4 - IP);
	n = 8 + len - 4 - IP;
	m[8 + 1] = 0xff;                           /* TOS */
	m[8 + 8] = 0xff;                           /* TTL */
	m[8 + 10] = m[8 + 11] = 0xff;              /* header checksum */
	m[8 + 20 + 6] = m[8 + 20 + 7] = 0xff;      /* UDP checksum */
	m[8 + 28 + 4] = 0xff;                      /* BTH Resv8a */
	uint32_t icrc = crc32_bitwise(m, n);
	for (int i = 0; i < 4; i++)
		b[len - 4 + i] = (uint8_t)(icrc >> 8 * i);
}

/* side `from` (0: 198.18.0.1, 1: 198.18.0.2) sends opcode `op` to QP dqp
 * with payload pl[0..n) (n a multiple of 4); returns the length up to the
 * ICRC (the frame may be padded after it) */
static uint32_t packet(uint8_t *b, int from, uint8_t op, uint32_t dqp,
		       uint32_t psn, const uint8_t *pl, uint32_t n)
{
	uint32_t len = PAY + n + 4;

	memset(b, 0, len + 64);
	b[ETH + 5] = (uint8_t)(2 - from);
	b[ETH + 11] = (uint8_t)(1 + from);
	put16(b + ETH + 12, 0x0800);
	b[IP] = 0x45;
	b[IP + 1] = 0x02;                          /* ECN ECT(0) */
	put16(b + IP + 2, len - 4 + 4 - IP);       /* IP..ICRC */
	put16(b + IP + 6, 0x4000);                 /* DF */
	b[IP + 8] = 64;
	b[IP + 9] = 17;
	put16(b + IP + 10, 0x1234);                /* not checked */
	b[IP + 12] = 198; b[IP + 13] = 18; b[IP + 15] = (uint8_t)(1 + from);
	b[IP + 16] = 198; b[IP + 17] = 18; b[IP + 19] = (uint8_t)(2 - from);
	put16(b + UDP, 0xc000);
	put16(b + UDP + 2, 4791);
	put16(b + UDP + 4, len - UDP);
	put16(b + UDP + 6, 0xabcd);
	b[BTH] = op;
	put16(b + BTH + 2, 0xffff);
	b[BTH + 5] = (uint8_t)(dqp >> 16);
	b[BTH + 6] = (uint8_t)(dqp >> 8);
	b[BTH + 7] = (uint8_t)dqp;
	b[BTH + 9] = (uint8_t)(psn >> 16);
	b[BTH + 10] = (uint8_t)(psn >> 8);
	b[BTH + 11] = (uint8_t)psn;
	memcpy(b + PAY, pl, n);
	seal(b, len);
	return len;
}

/* a call from side 0, its ACK and its reply from side 1, `pad` bytes of
 * Ethernet padding after each, the call (or the ACK) changed by `edit`
 * after sealing; true when all three pass their ICRC */
static bool good(void (*edit)(uint8_t *b, uint32_t len), bool ack, uint32_t pad)
{
	uint8_t b[512], m[128], aeth[4] = { 0, 0, 0, 1 };
	struct run r;

	run_open(&r);
	uint32_t n = msg_null(m, 7, false);
	uint32_t len = packet(b, 0, SEND_ONLY, 0x456, 10, m, n);
	if (edit && !ack)
		edit(b, len);
	run_frame(&r, 1, b, len + pad);
	len = packet(b, 1, ACK, 0x123, 10, aeth, 4);
	if (edit && ack)
		edit(b, len);
	run_frame(&r, 1, b, len + pad);
	n = msg_null(m, 7, true);
	len = packet(b, 1, SEND_ONLY, 0x123, 20, m, n);
	run_frame(&r, 1, b, len + pad);
	bool ok = r.st->stats.total.crc_fail == 0;
	if (!edit)                         /* the call and the reply */
		ok = ok && run_lines(&r) == 2;
	run_close(&r);
	return ok;
}

static void tos(uint8_t *b, uint32_t n) { (void)n; b[IP + 1] = 0xb8; }
static void ttl(uint8_t *b, uint32_t n) { (void)n; b[IP + 8] = 3; }
static void ipsum(uint8_t *b, uint32_t n) { (void)n; b[IP + 11] ^= 0x55; }
static void udpsum(uint8_t *b, uint32_t n) { (void)n; b[UDP + 7] ^= 0x0f; }
static void resv8a(uint8_t *b, uint32_t n) { (void)n; b[BTH + 4] = 0x5a; }
static void srcip(uint8_t *b, uint32_t n) { (void)n; b[IP + 14] ^= 1; }
static void sport(uint8_t *b, uint32_t n) { (void)n; b[UDP + 1] ^= 1; }
static void destqp(uint8_t *b, uint32_t n) { (void)n; b[BTH + 7] ^= 0x80; }
static void first(uint8_t *b, uint32_t n) { (void)n; b[PAY] ^= 1; }
static void last(uint8_t *b, uint32_t n) { b[n - 5] ^= 0x40; }

static void both(void (*edit)(uint8_t *b, uint32_t len), bool want,
		 const char *what)
{
	for (int ack = 0; ack < 2; ack++) {
		bool fast = good(edit, ack, 0), slow = good(edit, ack, 6);
		tap_ok(fast == want && slow == want, "RoCEv2 %s, %s: %s (no padding: %s, "
		       "padded: %s)", ack ? "ACK" : "SEND", what,
		       want ? "still good" : "a crc-error",
		       fast ? "good" : "bad", slow ? "good" : "bad");
	}
}

/* the same QP pair after its conversation ended: a new conversation (the
 * hint of the QP's last half must not find the old one) */
static void reopened(void)
{
	uint8_t b[512], m[128];
	struct run r;

	run_open(&r);
	for (int round = 0; round < 2; round++) {
		uint32_t n = msg_null(m, 7 + (uint32_t)round, false);
		uint32_t len = packet(b, 0, SEND_ONLY, 0x456, 10 + (uint32_t)round, m, n);
		run_frame(&r, 1, b, len);
		n = msg_null(m, 7 + (uint32_t)round, true);
		len = packet(b, 1, SEND_ONLY, 0x123, 20 + (uint32_t)round, m, n);
		run_frame(&r, 1, b, len);
		if (!round)
			run_end_source(&r);
	}
	tap_ok(run_lines(&r) == 4 && run_has(&r, " conv 1 ") &&
	       run_has(&r, " conv 2 ") && r.st->stats.total.crc_fail == 0,
	       "RoCEv2: a QP pair seen again after its conversation ended is a "
	       "new conversation");
	run_close(&r);
}

int main(void)
{
	both(NULL, true, "by-hand ICRC");
	both(tos, true, "TOS changed: masked");
	both(ttl, true, "TTL changed: masked");
	both(ipsum, true, "IPv4 header checksum changed: masked");
	both(udpsum, true, "UDP checksum changed: masked");
	both(resv8a, true, "BTH Resv8a changed: masked");
	both(srcip, false, "source address changed: covered");
	both(sport, false, "UDP source port changed: covered");
	both(destqp, false, "BTH DestQP changed: covered");
	both(first, false, "first byte after the BTH changed: covered");
	both(last, false, "last byte before the ICRC changed: covered");
	reopened();
	return tap_done();
}
