/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_cap_icrc.c - the ICRC of routed native InfiniBand packets (LNH =
 * IBA global; IBTA vol. 1 7.8.1): it covers the GRH's IPVer, PayLen,
 * NxtHdr, SGID and DGID, the BTH but Resv8a, and the payload; the LRH is
 * replaced by 64 one bits (a router rewrites it) and TClass, FlowLabel and
 * HopLmt are masked.  The packet and its ICRC are built here, field by
 * field from that text; changing a masked field keeps the packet good,
 * changing a covered one makes it a crc-error.
 */
#include <string.h>
#include "capunit.h"

enum { LRH = 0, GRH = 8, BTH = 48, PAY = 60 };

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

static uint16_t vcrc_bitwise(const uint8_t *p, size_t n)
{
	uint16_t c = 0xffff;
	while (n--) {
		c ^= *p++;
		for (int k = 0; k < 8; k++)
			c = c & 1 ? (uint16_t)(c >> 1 ^ 0xd008) : (uint16_t)(c >> 1);
	}
	return (uint16_t)~c;
}

/* the ICRC and VCRC of b[0..len) (LRH..ICRC), written in place */
static void seal(uint8_t *b, uint32_t len)
{
	uint8_t m[512];
	uint32_t n = 0;

	memset(m, 0xff, 8);                        /* instead of the LRH */
	n = 8;
	memcpy(m + n, b + GRH, 40);
	m[n] |= 0x0f;                              /* TClass (low nibble) */
	m[n + 1] |= 0xff;                          /* TClass, FlowLabel */
	m[n + 2] = m[n + 3] = 0xff;                /* FlowLabel */
	m[n + 7] = 0xff;                           /* HopLmt */
	n += 40;
	memcpy(m + n, b + BTH, 12);
	m[n + 4] = 0xff;                           /* Resv8a */
	n += 12;
	memcpy(m + n, b + PAY, len - 4 - PAY);
	n += len - 4 - PAY;
	uint32_t icrc = crc32_bitwise(m, n);
	for (int i = 0; i < 4; i++)
		b[len - 4 + i] = (uint8_t)(icrc >> 8 * i);
	uint16_t v = vcrc_bitwise(b, len);
	b[len] = (uint8_t)v;
	b[len + 1] = (uint8_t)(v >> 8);
}

/* a global SEND ONLY carrying an NFS NULL call; returns the frame length */
static uint32_t packet(uint8_t *b, uint32_t xid)
{
	uint8_t msg[128];
	uint32_t n = msg_null(msg, xid, false);
	uint32_t len = PAY + n + 4;                /* n is a multiple of 4 */

	memset(b, 0, len + 2);
	b[LRH] = 0x20;                             /* VL 2 */
	b[LRH + 1] = 0x53;                         /* SL 5, LNH IBA global */
	b[LRH + 2] = 0x00; b[LRH + 3] = 0x22;      /* DLID */
	b[LRH + 4] = (uint8_t)(len / 4 >> 8);
	b[LRH + 5] = (uint8_t)(len / 4);
	b[LRH + 6] = 0x00; b[LRH + 7] = 0x11;      /* SLID */
	b[GRH] = 0x61; b[GRH + 1] = 0x2a; b[GRH + 2] = 0xbc; b[GRH + 3] = 0xde;
	b[GRH + 4] = (uint8_t)((len - BTH) >> 8);  /* PayLen: BTH..ICRC */
	b[GRH + 5] = (uint8_t)(len - BTH);
	b[GRH + 6] = 0x1b;                         /* NxtHdr: BTH */
	b[GRH + 7] = 0x40;                         /* HopLmt */
	b[GRH + 8] = 0xfe; b[GRH + 9] = 0x80; b[GRH + 23] = 0x01;   /* SGID */
	b[GRH + 24] = 0xfe; b[GRH + 25] = 0x80; b[GRH + 39] = 0x02; /* DGID */
	b[BTH] = 0x04;                             /* SEND ONLY */
	b[BTH + 2] = 0xff; b[BTH + 3] = 0xff;      /* P_Key */
	b[BTH + 7] = 0x33;                         /* DestQP */
	b[BTH + 11] = (uint8_t)xid;                /* PSN */
	memcpy(b + PAY, msg, n);
	seal(b, len);
	return len + 2;
}

/* one packet changed by `edit` after sealing (VCRC made right again) */
static bool decodes(void (*edit)(uint8_t *b, uint32_t len))
{
	uint8_t b[512];
	struct run r;
	uint32_t len = packet(b, 7);

	if (edit) {
		edit(b, len - 2);
		uint16_t v = vcrc_bitwise(b, len - 2);
		b[len - 2] = (uint8_t)v;
		b[len - 1] = (uint8_t)(v >> 8);
	}
	run_open(&r);
	run_frame(&r, 247, b, len);
	bool ok = run_lines(&r) == 1 && r.st->stats.total.crc_fail == 0;
	run_close(&r);
	return ok;
}

static void tclass(uint8_t *b, uint32_t n) { (void)n; b[GRH] ^= 0x0f; b[GRH + 1] ^= 0xf0; }
static void flow(uint8_t *b, uint32_t n) { (void)n; b[GRH + 1] ^= 0x0f; b[GRH + 3] ^= 0x5a; }
static void hops(uint8_t *b, uint32_t n) { (void)n; b[GRH + 7] = 0x01; }
static void lrh(uint8_t *b, uint32_t n) { (void)n; b[LRH] = 0x70; b[LRH + 1] = 0xf3; b[LRH + 3] = 0x99; b[LRH + 7] = 0x98; }
static void resv8a(uint8_t *b, uint32_t n) { (void)n; b[BTH + 4] = 0x5a; }
static void sgid(uint8_t *b, uint32_t n) { (void)n; b[GRH + 23] ^= 1; }
static void dgid(uint8_t *b, uint32_t n) { (void)n; b[GRH + 30] ^= 0x80; }
static void nxthdr_paylen(uint8_t *b, uint32_t n) { (void)n; b[GRH + 4] ^= 0x80; }
static void ipver(uint8_t *b, uint32_t n) { (void)n; b[GRH] ^= 0x10; }
static void pkey(uint8_t *b, uint32_t n) { (void)n; b[BTH + 3] = 0xfe; }
static void payload(uint8_t *b, uint32_t n) { b[n - 8] ^= 1; }

int main(void)
{
	tap_ok(decodes(NULL), "global IB packet with a by-hand ICRC: decoded, ICRC good");
	tap_ok(decodes(tclass), "TClass changed: masked, still good");
	tap_ok(decodes(flow), "FlowLabel changed: masked, still good");
	tap_ok(decodes(hops), "HopLmt changed: masked, still good");
	tap_ok(decodes(lrh), "LRH VL, SL, DLID, SLID changed (a router): not covered, still good");
	tap_ok(decodes(resv8a), "BTH Resv8a changed: masked, still good");
	tap_ok(!decodes(sgid), "SGID changed: covered, a crc-error");
	tap_ok(!decodes(dgid), "DGID changed: covered, a crc-error");
	tap_ok(!decodes(nxthdr_paylen), "PayLen changed: covered, dropped");
	tap_ok(!decodes(ipver), "IPVer changed: covered, dropped");
	tap_ok(!decodes(pkey), "BTH P_Key changed: covered, a crc-error");
	tap_ok(!decodes(payload), "payload changed: covered, a crc-error");
	return tap_done();
}
