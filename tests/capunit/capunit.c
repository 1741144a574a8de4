/* SPDX-License-Identifier: BSD-3-Clause */
/* capunit.c - see capunit.h */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include "capunit.h"

static void put16(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, v >> 16);
	put16(p + 2, v);
}

void run_open(struct run *r)
{
	struct cap_opts o = { .roce_port = 4791 };

	memset(r, 0, sizeof(*r));
	r->out = open_memstream(&r->buf, &r->len);
	r->st = cap_open(&o, r->out);
	if (!r->out || !r->st)
		abort();
	cap_source_begin(r->st, "unit");
}

unsigned run_lines(struct run *r)
{
	unsigned n = 0;

	fflush(r->out);
	for (size_t i = 0; i < r->len; i++)
		n += r->buf[i] == '\n';
	return n;
}

bool run_has(struct run *r, const char *s)
{
	fflush(r->out);
	return r->buf && strstr(r->buf, s);
}

void run_end_source(struct run *r)
{
	cap_source_end(r->st);
}

int run_close(struct run *r)
{
	cap_source_end(r->st);
	int rc = cap_close(r->st);
	fclose(r->out);
	free(r->buf);
	free(r->pcap);
	r->pcap = NULL;
	return rc;
}

void run_frame(struct run *r, int dlt, const uint8_t *p, uint32_t len)
{
	struct cap_frame f = {
		.num = ++r->frame, .ts_sec = 1700000000, .ts_usec = (uint32_t)r->frame,
		.p = p, .len = len, .wire_len = len,
	};
	cap_frame_in(r->st, dlt, &f);
	if (r->pcap && dlt == 1 && r->pcap_len + 16 + len <= r->pcap_cap) {
		uint8_t *h = r->pcap + r->pcap_len;
		uint32_t v[4] = { (uint32_t)f.ts_sec, (uint32_t)f.ts_usec, len, len };
		memcpy(h, v, 16);               /* host order, as the magic */
		memcpy(h + 16, p, len);
		r->pcap_len += 16 + len;
	}
}

void run_record(struct run *r, size_t cap)
{
	const uint32_t magic = 0xa1b2c3d4, snap = 262144, dlt = 1;
	uint16_t ver[2] = { 2, 4 };

	r->pcap = calloc(1, cap);
	r->pcap_cap = r->pcap ? cap : 0;
	if (cap < 24 || !r->pcap)
		return;
	memcpy(r->pcap, &magic, 4);
	memcpy(r->pcap + 4, ver, 4);
	memcpy(r->pcap + 16, &snap, 4);
	memcpy(r->pcap + 20, &dlt, 4);
	r->pcap_len = 24;
}

void run_pcap(struct run *r, const uint8_t *b, size_t n)
{
	for (size_t o = 24; o + 16 <= n;) {
		uint32_t v[4];
		memcpy(v, b + o, 16);
		if (v[2] > n - o - 16)
			break;
		run_frame(r, 1, b + o + 16, v[2]);
		o += 16 + v[2];
	}
}

uint32_t msg_null(uint8_t *b, uint32_t xid, bool reply)
{
	static const uint32_t call[] = { 0, 2, 100003, 3, 0, 0, 0, 0, 0 };
	static const uint32_t rep[] = { 1, 0, 0, 0, 0 };
	uint32_t o = 0;

	put32(b + o, xid); o += 4;
	put32(b + o, 1); o += 4;
	put32(b + o, 32); o += 4;
	put32(b + o, 0); o += 4;                   /* RDMA_MSG */
	for (int i = 0; i < 3; i++, o += 4)
		put32(b + o, 0);
	put32(b + o, xid); o += 4;
	for (unsigned i = 0; i < (reply ? 5u : 9u); i++, o += 4)
		put32(b + o, reply ? rep[i] : call[i]);
	return o;
}

uint32_t fpdu_send(uint8_t *b, uint32_t msn, const uint8_t *msg,
		   uint32_t len, bool crc)
{
	uint32_t o = 2;

	b[o++] = 0x41;                             /* untagged, last, DV 1 */
	b[o++] = 0x43;                             /* RDMAP 1, Send */
	put32(b + o, 0); o += 4;                   /* reserved */
	put32(b + o, 0); o += 4;                   /* QN 0 */
	put32(b + o, msn); o += 4;
	put32(b + o, 0); o += 4;                   /* MO 0 */
	memcpy(b + o, msg, len);
	o += len;
	put16(b, o - 2);                           /* ULPDU_Length */
	while (o % 4)
		b[o++] = 0;
	put32(b + o, crc ? cap_crc32c_sw(0, b, o) : 0);
	return o + 4;
}

uint32_t mpa_frame(uint8_t *b, bool req, bool crc)
{
	memcpy(b, req ? "MPA ID Req Frame" : "MPA ID Rep Frame", 16);
	b[16] = crc ? 0x40 : 0;
	b[17] = 1;
	put16(b + 18, 0);
	return 20;
}

void tcp_frame(struct run *r, int from, uint32_t seq, uint32_t ack,
	       uint8_t flags, const uint8_t *data, uint32_t len)
{
	static uint8_t f[70000];
	static const uint8_t ip[2][4] = { { 198, 18, 0, 2 }, { 198, 18, 0, 1 } };
	static const uint16_t port[2] = { 40001, 20049 };
	uint32_t o = 0;

	memset(f, 2, 6);
	memset(f + 6, 4, 6);
	put16(f + 12, 0x0800);
	o = 14;
	f[o] = 0x45;
	f[o + 1] = 0;
	put16(f + o + 2, 40 + len);
	put32(f + o + 4, 0x4000);                  /* DF */
	f[o + 8] = 64;
	f[o + 9] = 6;
	put16(f + o + 10, 0);
	memcpy(f + o + 12, ip[from], 4);
	memcpy(f + o + 16, ip[1 - from], 4);
	o += 20;
	put16(f + o, port[from]);
	put16(f + o + 2, port[1 - from]);
	put32(f + o + 4, seq);
	put32(f + o + 8, ack);
	f[o + 12] = 5 << 4;
	f[o + 13] = flags;
	put16(f + o + 14, 65535);
	put32(f + o + 16, 0);
	o += 20;
	if (len)
		memcpy(f + o, data, len);
	run_frame(r, 1, f, o + len);
}

uint32_t ib_packet(uint8_t *b, uint16_t slid, uint16_t dlid, uint8_t op,
		   uint32_t dqp, uint32_t psn, const uint8_t *pl, uint32_t n)
{
	uint8_t m[8192];
	uint32_t pad = (4 - n % 4) % 4, len = 8 + 12 + n + pad + 4;

	b[0] = 0x00;                               /* VL 0, LVer 0 */
	b[1] = 0x02;                               /* SL 0, LNH IBA local */
	put16(b + 2, dlid);
	put16(b + 4, len / 4);                     /* PktLen, words */
	put16(b + 6, slid);
	b[8] = op;
	b[9] = (uint8_t)(pad << 4);
	put16(b + 10, 0xffff);
	put32(b + 12, dqp & 0xffffff);
	put32(b + 16, psn & 0xffffff);
	memcpy(b + 20, pl, n);
	memset(b + 20 + n, 0, pad);
	/* ICRC (IBTA 7.8.1): VL and BTH resv8a as ones, low byte first */
	memcpy(m, b, len - 4);
	m[0] |= 0xf0;
	m[12] = 0xff;
	uint32_t icrc = cap_crc32_sw(0, m, len - 4);
	for (int i = 0; i < 4; i++)
		b[len - 4 + i] = (uint8_t)(icrc >> (8 * i));
	/* VCRC (7.8.2) over LRH..ICRC, low byte first as ibdump writes */
	uint16_t v = cap_crc16_vcrc(b, len);
	b[len] = (uint8_t)v;
	b[len + 1] = (uint8_t)(v >> 8);
	return len + 2;
}
