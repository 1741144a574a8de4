/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * iwarp.c - iWARP on TCP port 20049: TCP (RFC 793) handshake and segments,
 * MPA (RFC 5044: Request/Reply frames §7.1, FPDU framing §4, Markers every
 * 512 octets of TCP sequence space from the first FPDU octet §4.3, CRC32c
 * §4.4 over the FPDU including Markers, sent least significant byte first as iSCSI does), DDP (RFC 5041 §4:
 * tagged 14-byte and untagged 18-byte headers) and RDMAP (RFC 5040 §4:
 * Send, Send with Invalidate, RDMA Write, Read Request/Response, Terminate).
 * FPDUs go one per TCP segment, or the stream is cut at fixed sizes (split),
 * optionally with segments reordered and one retransmitted (ooo), or the
 * first segment of a long stream delivered after all the others (window).
 */
#include <string.h>
#include "capgen.h"

#define MPA_MARKER 512u
#define DDP_MAX 1024u              /* DDP payload bytes per FPDU */
#define STREAM_MAX (1u << 18)

enum { RDMAP_WRITE = 0, RDMAP_READ_REQ = 1, RDMAP_READ_RESP = 2,
       RDMAP_SEND = 3, RDMAP_SEND_INV = 4, RDMAP_TERMINATE = 7 };
enum { TH_FIN = 0x01, TH_SYN = 0x02, TH_PSH = 0x08, TH_ACK = 0x10 };

static uint64_t tcp_seg(struct conn *c, int dir, uint32_t seq, uint8_t flags,
			const uint8_t *data, size_t len)
{
	static uint8_t f[8192];
	struct path *pa = &c->pa;
	size_t o, l3, l4;

	o = link_header(pa, dir, pa->net == NET_IPV4 ? ETH_P_IP : ETH_P_IPV6, f);
	l3 = o;
	o += ip_header(pa, dir, IPPROTO_TCP_, (uint32_t)(20 + len), f + o);
	l4 = o;
	put16(f + o, dir == 0 ? 40001 : NFSRDMA_PORT);
	put16(f + o + 2, dir == 0 ? NFSRDMA_PORT : 40001);
	put32(f + o + 4, seq);
	put32(f + o + 8, (flags & TH_ACK) ? c->seq[!dir] : 0);
	f[o + 12] = 5 << 4;
	f[o + 13] = flags;
	put16(f + o + 14, 0xffff);
	put16(f + o + 16, 0);
	put16(f + o + 18, 0);
	o += 20;
	if (len)
		memcpy(f + o, data, len);
	o += len;
	l4_checksum(pa, f + l3, f + l4, (uint32_t)(o - l4), IPPROTO_TCP_);
	c->last_frame = capw_frame(pa->w, f, (uint32_t)o);
	return c->last_frame;
}

static void tcp_ack(struct conn *c, int dir)
{
	tcp_seg(c, dir, c->seq[dir], TH_ACK, NULL, 0);
}

void iw_connect(struct conn *c)
{
	static const char req[] = "MPA ID Req Frame", rep[] = "MPA ID Rep Frame";
	uint8_t m[20];
	uint8_t flags = (uint8_t)((c->markers ? 0x80 : 0) | (c->crc ? 0x40 : 0));

	c->seq[0] = 0x1000;
	c->seq[1] = 0x8000;
	tcp_seg(c, 0, c->seq[0]++, TH_SYN, NULL, 0);
	tcp_seg(c, 1, c->seq[1]++, TH_SYN | TH_ACK, NULL, 0);
	tcp_ack(c, 0);
	memcpy(m, req, 16);
	m[16] = flags;
	m[17] = 1;                                        /* Rev */
	put16(m + 18, 0);                                 /* no private data */
	tcp_seg(c, 0, c->seq[0], TH_PSH | TH_ACK, m, 20);
	c->seq[0] += 20;
	memcpy(m, rep, 16);
	tcp_seg(c, 1, c->seq[1], TH_PSH | TH_ACK, m, 20);
	c->seq[1] += 20;
	c->stream_base[0] = c->seq[0];
	c->stream_base[1] = c->seq[1];
	c->umsn[0][0] = c->umsn[0][1] = c->umsn[0][2] = 1;
	c->umsn[1][0] = c->umsn[1][1] = c->umsn[1][2] = 1;
	c->tcp_open = true;
}

/* The byte stream one message makes, and where its FPDUs start. */
struct stream {
	uint8_t b[STREAM_MAX];
	size_t len;
	size_t fpdu_start[512];
	unsigned nfpdu;
};

static void mpa_put(const struct conn *c, int dir, struct stream *s,
		    size_t fpdu_at, const uint8_t *p, size_t n)
{
	uint32_t sn0 = c->seq[dir];

	while (n) {
		uint32_t rel = sn0 + (uint32_t)s->len - c->stream_base[dir];

		if (c->markers && rel % MPA_MARKER == 0) {
			put16(s->b + s->len, 0);
			put16(s->b + s->len + 2, (uint32_t)(s->len - fpdu_at));
			s->len += 4;
			continue;
		}
		s->b[s->len++] = *p++;
		n--;
	}
}

/* Frame one DDP segment (header + payload) as an FPDU. */
static void mpa_fpdu(struct conn *c, int dir, struct stream *s,
		     const uint8_t *ddp, size_t dlen, const uint8_t *pay,
		     size_t plen, bool bad_crc)
{
	static const uint8_t zero[4];
	size_t at = s->len, pad = (4 - (2 + dlen + plen) % 4) % 4;
	uint8_t l[2], crc[4];
	uint32_t v;

	/* room for the FPDU, its markers and its CRC, or nothing is framed */
	if (s->nfpdu >= sizeof(s->fpdu_start) / sizeof(s->fpdu_start[0]) ||
	    s->len + 2 + dlen + plen + pad + 4 + 4 * ((2 + dlen + plen + 8) / MPA_MARKER + 2)
	    > sizeof(s->b))
		return;
	s->fpdu_start[s->nfpdu++] = at;
	put16(l, (uint32_t)(dlen + plen));
	mpa_put(c, dir, s, at, l, 2);
	mpa_put(c, dir, s, at, ddp, dlen);
	mpa_put(c, dir, s, at, pay, plen);
	mpa_put(c, dir, s, at, zero, pad);
	v = c->crc ? crc32c(0, s->b + at, s->len - at) : 0;
	if (bad_crc)
		v ^= 0x00ff00ffu;
	putle32(crc, v);
	mpa_put(c, dir, s, at, crc, 4);
}

/* Send the stream as TCP segments, then the peer's ACK. */
static uint64_t tcp_stream(struct conn *c, int dir, const struct stream *s)
{
	size_t cuts[1024], n = 0, i;
	uint64_t last = 0;

	if (c->split == 1 || c->split == 2) {   /* fixed-size cuts */
		for (size_t o = 0; o < s->len && n + 1 < sizeof(cuts) / sizeof(cuts[0]);
		     o += c->split_at)
			cuts[n++] = o;
	} else {
		for (i = 0; i < s->nfpdu; i++)
			cuts[n++] = s->fpdu_start[i];
	}
	cuts[n] = s->len;
	if (c->split == 2 && n >= 3) {
		/* 0, 2, 1, then 0 again (a retransmission) */
		unsigned order[4] = { 0, 2, 1, 0 };

		for (i = 0; i < 4; i++) {
			size_t k = order[i];

			last = tcp_seg(c, dir, c->seq[dir] + (uint32_t)cuts[k],
				       TH_ACK, s->b + cuts[k], cuts[k + 1] - cuts[k]);
		}
		for (i = 3; i < n; i++)
			last = tcp_seg(c, dir, c->seq[dir] + (uint32_t)cuts[i],
				       TH_PSH | TH_ACK, s->b + cuts[i],
				       cuts[i + 1] - cuts[i]);
	} else if (c->split == 3 && n >= 8) {
		/* the first segment lost on the wire: every other one arrives,
		 * then the fast retransmit of the first (a whole window out of
		 * order, as in live siw captures) */
		for (i = 1; i < n; i++)
			last = tcp_seg(c, dir, c->seq[dir] + (uint32_t)cuts[i],
				       TH_PSH | TH_ACK, s->b + cuts[i],
				       cuts[i + 1] - cuts[i]);
		last = tcp_seg(c, dir, c->seq[dir], TH_PSH | TH_ACK, s->b,
			       cuts[1]);
	} else {
		for (i = 0; i < n; i++)
			last = tcp_seg(c, dir, c->seq[dir] + (uint32_t)cuts[i],
				       TH_PSH | TH_ACK, s->b + cuts[i],
				       cuts[i + 1] - cuts[i]);
	}
	c->seq[dir] += (uint32_t)s->len;
	tcp_ack(c, !dir);
	return last;
}

static size_t ddp_untagged(uint8_t *h, bool last, uint8_t op, uint32_t inv,
			   uint32_t qn, uint32_t msn, uint32_t mo)
{
	h[0] = (uint8_t)((last ? 0x40 : 0) | 0x01);
	h[1] = (uint8_t)(0x40 | op);
	put32(h + 2, inv);
	put32(h + 6, qn);
	put32(h + 10, msn);
	put32(h + 14, mo);
	return 18;
}

static size_t ddp_tagged(uint8_t *h, bool last, uint8_t op, uint32_t stag,
			 uint64_t to)
{
	h[0] = (uint8_t)(0x80 | (last ? 0x40 : 0) | 0x01);
	h[1] = (uint8_t)(0x40 | op);
	put32(h + 2, stag);
	put64(h + 6, to);
	return 14;
}

static struct stream st;

static void untagged_msg(struct conn *c, int dir, uint8_t op, uint32_t inv,
			 uint32_t qn, const uint8_t *msg, size_t len)
{
	uint8_t h[20];
	size_t off = 0;
	uint32_t msn = c->umsn[dir][qn]++;

	do {
		size_t l = len - off < c->mtu ? len - off : c->mtu;
		bool last = off + l == len;
		size_t hl = ddp_untagged(h, last, op, inv, qn, msn, (uint32_t)off);

		mpa_fpdu(c, dir, &st, h, hl, msg + off, l,
			 last && c->bad_crc_next);
		off += l;
	} while (off < len);
}

static void tagged_msg(struct conn *c, int dir, uint8_t op, uint32_t stag,
		       uint64_t to, const uint8_t *data, size_t len)
{
	uint8_t h[16];
	size_t off = 0;

	do {
		size_t l = len - off < c->mtu ? len - off : c->mtu;
		bool last = off + l == len;
		size_t hl = ddp_tagged(h, last, op, stag, to + off);

		mpa_fpdu(c, dir, &st, h, hl, data + off, l, false);
		off += l;
	} while (off < len);
}

uint64_t iw_send(struct conn *c, int dir, const uint8_t *msg, size_t len,
		 uint32_t inv_stag)
{
	st.len = 0;
	st.nfpdu = 0;
	untagged_msg(c, dir, inv_stag ? RDMAP_SEND_INV : RDMAP_SEND, inv_stag, 0,
		     msg, len);
	c->bad_crc_next = false;
	return tcp_stream(c, dir, &st);
}

uint64_t iw_write(struct conn *c, int dir, uint32_t stag, uint64_t to,
		  const uint8_t *data, size_t len)
{
	st.len = 0;
	st.nfpdu = 0;
	tagged_msg(c, dir, RDMAP_WRITE, stag, to, data, len);
	return tcp_stream(c, dir, &st);
}

uint64_t iw_read(struct conn *c, int dir, uint32_t stag, uint64_t to,
		 uint32_t lstag, uint64_t lto, const uint8_t *data, size_t len)
{
	uint8_t rr[28];

	put32(rr, lstag);
	put64(rr + 4, lto);
	put32(rr + 12, (uint32_t)len);
	put32(rr + 16, stag);
	put64(rr + 20, to);
	st.len = 0;
	st.nfpdu = 0;
	untagged_msg(c, dir, RDMAP_READ_REQ, 0, 1, rr, sizeof(rr));
	tcp_stream(c, dir, &st);
	st.len = 0;
	st.nfpdu = 0;
	tagged_msg(c, !dir, RDMAP_READ_RESP, lstag, lto, data, len);
	return tcp_stream(c, !dir, &st);
}

/* Terminate (RFC 5040 §4.8): layer/etype/code, no headers copied. */
void iw_terminate(struct conn *c, int dir, uint8_t layer_etype, uint8_t code)
{
	uint8_t t[4];

	t[0] = layer_etype;
	t[1] = code;
	t[2] = 0;
	t[3] = 0;
	st.len = 0;
	st.nfpdu = 0;
	untagged_msg(c, dir, RDMAP_TERMINATE, 0, 2, t, sizeof(t));
	tcp_stream(c, dir, &st);
	tcp_seg(c, dir, c->seq[dir], TH_FIN | TH_ACK, NULL, 0);
	c->seq[dir]++;
	tcp_seg(c, !dir, c->seq[!dir], TH_FIN | TH_ACK, NULL, 0);
	c->seq[!dir]++;
	tcp_ack(c, dir);
}

void conn_init_iwarp(struct conn *c, struct capw *w, enum linkkind link,
		     enum netkind net, bool markers, bool crc)
{
	memset(c, 0, sizeof(*c));
	c->pa.w = w;
	c->pa.link = link;
	c->pa.net = net;
	c->iwarp = true;
	c->markers = markers;
	c->crc = crc;
	c->mtu = DDP_MAX;
}
