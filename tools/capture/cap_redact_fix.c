/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cap_redact_fix.c - the checksums of a redacted capture.  Each is checked
 * when its packet is first parsed, before any byte of it changes, and
 * noted only when it was right (in the byte order it was written in);
 * once every byte is final, rdx_fix_all() writes the noted ones anew,
 * inner before outer (MPA CRCs before TCP checksums, ICRCs before VCRCs
 * and UDP checksums).  A wrong one stays as
 * it was (counted): a receiver dropped that packet, and so does a decoder.
 */
#include <stdlib.h>
#include <string.h>
#include "be.h"
#include "cap_redact.h"
#include "cap_state.h"

static uint16_t be16_get(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static void be16_put(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static struct rdx_fix *note(struct rdx *x)
{
	if (x->nfix == x->capfix) {
		size_t cap = x->capfix ? x->capfix * 2 : 1024;
		struct rdx_fix *v = realloc(x->fix, cap * sizeof(*v));
		if (!v) {
			x->oom = true;
			return NULL;
		}
		x->fix = v;
		x->capfix = cap;
	}
	struct rdx_fix *f = &x->fix[x->nfix++];
	memset(f, 0, sizeof(*f));
	return f;
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static void put_le32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* 1 little-endian, 0 big-endian, -1 neither */
static int order(uint32_t crc, const uint8_t *w)
{
	return crc == le32(w) ? 1 : crc == be32_get(w) ? 0 : -1;
}

static void kept_bad(struct rdx *x)
{
	x->n.crcs_bad_kept++;
}

void rdx_fix_icrc(struct rdx *x, enum cap_transport t, uint8_t *hdr,
		  uint32_t hdr_len, uint8_t *pkt, uint32_t len)
{
	uint32_t crc;
	int o;

	if (!cap_icrc(t, hdr, hdr_len, pkt, len, x->scratch, &crc))
		return;
	if ((o = order(crc, pkt + len - 4)) < 0)
		return kept_bad(x);
	struct rdx_fix *f = note(x);
	if (f)
		*f = (struct rdx_fix){ .kind = FIX_ICRC, .t = (uint8_t)t,
			.le = o == 1, .a = hdr, .alen = hdr_len, .b = pkt,
			.blen = len };
}

void rdx_fix_vcrc(struct rdx *x, uint8_t *lrh, uint32_t pktlen)
{
	uint16_t got = cap_crc16_vcrc(lrh, pktlen);
	uint16_t w = (uint16_t)(lrh[pktlen] << 8 | lrh[pktlen + 1]);
	bool le = (uint16_t)(w >> 8 | w << 8) == got;

	if (!le && w != got)
		return kept_bad(x);
	struct rdx_fix *f = note(x);
	if (f)
		*f = (struct rdx_fix){ .kind = FIX_VCRC, .le = le, .a = lrh,
				       .alen = pktlen };
}

/* The CRC32c of an FPDU in pieces (all but its last 4 bytes), and those
 * 4 bytes in w */
static uint32_t mpa_crc(const struct rdx_piece *pc, uint32_t n, uint8_t w[4])
{
	uint32_t total = 0, crc = 0, at = 0;

	for (uint32_t i = 0; i < n; i++)
		total += pc[i].len;
	for (uint32_t i = 0; i < n; at += pc[i].len, i++) {
		uint32_t body = at >= total - 4 ? 0 :
			total - 4 - at < pc[i].len ? total - 4 - at : pc[i].len;
		crc = cap_crc32c(crc, pc[i].p, body);
		for (uint32_t j = body; j < pc[i].len; j++)
			w[at + j - (total - 4)] = pc[i].p[j];
	}
	return crc;
}

static void mpa_write(const struct rdx_piece *pc, uint32_t n, const uint8_t w[4])
{
	uint32_t total = 0, at = 0;

	for (uint32_t i = 0; i < n; i++)
		total += pc[i].len;
	for (uint32_t i = 0; i < n; at += pc[i].len, i++)
		for (uint32_t j = 0; j < pc[i].len; j++)
			if (at + j >= total - 4)
				pc[i].p[j] = w[at + j - (total - 4)];
}

void rdx_fix_mpa(struct rdx *x, const struct rdx_piece *pc, uint32_t n)
{
	uint8_t w[4];
	uint32_t total = 0;
	int o;

	for (uint32_t i = 0; i < n; i++)
		total += pc[i].len;
	if (total < 8 || n > RDX_FPDU_PIECES)
		return;
	if ((o = order(mpa_crc(pc, n, w), w)) < 0)
		return kept_bad(x);
	if (x->nfpc + n > x->capfpc) {
		size_t cap = x->capfpc ? x->capfpc * 2 : 1024;
		struct rdx_piece *v = realloc(x->fpc, cap * sizeof(*v));
		if (!v) {
			x->oom = true;
			return;
		}
		x->fpc = v;
		x->capfpc = cap;
	}
	struct rdx_fix *f = note(x);
	if (!f)
		return;
	*f = (struct rdx_fix){ .kind = FIX_MPA, .le = o == 1,
			       .pc = (uint32_t)x->nfpc, .npc = n };
	memcpy(x->fpc + x->nfpc, pc, n * sizeof(*pc));
	x->nfpc += n;
}

/* The Internet checksum (RFC 1071) of p[n], continuing `sum` */
static uint32_t sum16(uint32_t sum, const uint8_t *p, uint32_t n)
{
	for (uint32_t i = 0; i + 1 < n; i += 2)
		sum += (uint32_t)p[i] << 8 | p[i + 1];
	if (n & 1)
		sum += (uint32_t)p[n - 1] << 8;
	return sum;
}

static uint16_t fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

static uint16_t l4_sum(const uint8_t *ip, uint8_t proto, const uint8_t *l4,
		       uint32_t len, uint32_t csum_at)
{
	uint32_t sum = 0;
	bool v4 = (ip[0] >> 4) == 4;

	sum = v4 ? sum16(sum, ip + 12, 8) : sum16(sum, ip + 8, 32);
	sum += proto;
	sum += len >> 16;
	sum += len & 0xffff;
	sum = sum16(sum, l4, csum_at);
	sum = sum16(sum, l4 + csum_at + 2, len - csum_at - 2);
	return fold(sum);
}

void rdx_fix_l4(struct rdx *x, uint8_t *ip, uint32_t iplen, uint8_t proto,
		uint8_t *l4, uint32_t l4len)
{
	uint32_t at = proto == 6 ? 16 : 6;

	(void)iplen;
	if (l4len < at + 2 || (proto == 17 && !be16_get(l4 + 6)))
		return;                    /* UDP without a checksum */
	uint16_t got = l4_sum(ip, proto, l4, l4len, at);
	if (proto == 17 && !got)
		got = 0xffff;
	if (got != be16_get(l4 + at))
		return kept_bad(x);        /* offloaded, or wrong */
	struct rdx_fix *f = note(x);
	if (f)
		*f = (struct rdx_fix){ .kind = FIX_L4, .proto = proto, .a = ip,
				       .b = l4, .blen = l4len };
}

void rdx_fix_ip4(struct rdx *x, uint8_t *ip, uint32_t iplen)
{
	uint32_t s = sum16(sum16(0, ip, 10), ip + 12, iplen - 12);

	if (fold(s) != be16_get(ip + 10))
		return kept_bad(x);
	struct rdx_fix *f = note(x);
	if (f)
		*f = (struct rdx_fix){ .kind = FIX_IP4, .a = ip, .alen = iplen };
}

static void apply(struct rdx *x, const struct rdx_fix *f)
{
	uint32_t crc;
	uint8_t w[4];

	switch (f->kind) {
	case FIX_ICRC:
		if (!cap_icrc((enum cap_transport)f->t, f->a, f->alen, f->b,
			      f->blen, x->scratch, &crc))
			return;
		if (f->le)
			put_le32(f->b + f->blen - 4, crc);
		else
			be32_put(f->b + f->blen - 4, crc);
		break;
	case FIX_VCRC: {
		uint16_t v = cap_crc16_vcrc(f->a, f->alen);
		f->a[f->alen] = (uint8_t)(f->le ? v : v >> 8);
		f->a[f->alen + 1] = (uint8_t)(f->le ? v >> 8 : v);
		break;
	}
	case FIX_MPA:
		crc = mpa_crc(x->fpc + f->pc, f->npc, w);
		if (f->le)
			put_le32(w, crc);
		else
			be32_put(w, crc);
		mpa_write(x->fpc + f->pc, f->npc, w);
		break;
	case FIX_L4: {
		uint32_t at = f->proto == 6 ? 16 : 6;
		uint16_t v = l4_sum(f->a, f->proto, f->b, f->blen, at);
		if (f->proto == 17 && !v)
			v = 0xffff;
		be16_put(f->b + at, v);
		break;
	}
	case FIX_IP4:
		be16_put(f->a + 10, fold(sum16(sum16(0, f->a, 10), f->a + 12,
					       f->alen - 12)));
		break;
	}
	x->n.crcs++;
}

/* Inner first: the ICRC and MPA CRC; then what covers them (the VCRC
 * the ICRC, a TCP checksum its FPDUs' CRCs); the IPv4 header last */
void rdx_fix_all(struct rdx *x)
{
	static const uint8_t pass[] = { 1u << FIX_ICRC | 1u << FIX_MPA,
					1u << FIX_VCRC | 1u << FIX_L4,
					1u << FIX_IP4 };

	for (size_t p = 0; p < sizeof(pass); p++)
		for (size_t i = 0; i < x->nfix; i++)
			if (pass[p] & 1u << x->fix[i].kind)
				apply(x, &x->fix[i]);
}

void rdx_remap(struct rdx *x, uint8_t *p, int off)
{
	uint32_t h = be32_get(p);

	if (!x->keys)
		return;
	be32_put(p, rdx_handle(x->map, h));
	if (off >= 0)
		be64_put(p + off, rdx_offset(x->map, h, be64_get(p + off)));
}
