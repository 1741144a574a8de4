/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ib.c - InfiniBand reliable-connection packets (IBTA vol. 1 ch. 9: BTH
 * §9.2, RETH §9.3.3, AETH §9.3.5, IETH §9.3.8; packet sequencing §9.7) in
 * three encapsulations: RoCEv2 (annex A17: UDP port 4791 over IPv4/IPv6),
 * RoCEv1 (annex A16: ethertype 0x8915, GRH) and native InfiniBand (LRH §7.7,
 * DLT 247 or ERF type 21).  ICRC (§7.8.1) is CRC-32 over the packet with the
 * variant fields set to ones (RoCE: 64 one bits stand in for the LRH; IPv4
 * TOS, TTL and checksum, IPv6 traffic class, flow label and hop limit, UDP
 * checksum, BTH resv8a), sent least significant byte first; VCRC (§7.8.2)
 * covers LRH..ICRC on native InfiniBand.
 */
#include <string.h>
#include "capgen.h"

#define FRAME_MAX 16384
#define ERF_TYPE_INFINIBAND 21

static uint32_t npkts(size_t len, uint32_t mtu)
{
	return len == 0 ? 1 : (uint32_t)((len + mtu - 1) / mtu);
}

/* Write one packet: `hdr` = BTH + extended headers, then payload. */
uint64_t ib_emit(struct conn *c, int dir, const uint8_t *hdr,
			size_t hlen, const uint8_t *pay, size_t plen)
{
	static uint8_t f[FRAME_MAX], m[128];
	struct path *pa = &c->pa;
	size_t pad = (4 - plen % 4) % 4, ibl = hlen + plen + pad, o = 0, l3,
	       net = 0, ml, icrc_at;
	uint32_t icrc;
	uint8_t *bth;

	if (hlen > 64 || plen > FRAME_MAX - 256)
		return 0;                        /* never: MTU <= 4096 */
	if (pa->link == LK_ERF)
		o = 16;
	switch (pa->net) {
	case NET_IPV4:
	case NET_IPV6:
		o += link_header(pa, dir, pa->net == NET_IPV4 ? ETH_P_IP : ETH_P_IPV6,
				 f + o);
		l3 = o;
		o += ip_header(pa, dir, IPPROTO_UDP_, (uint32_t)(8 + ibl + 4), f + o);
		put16(f + o, c->udp_sport);
		put16(f + o + 2, ROCEV2_PORT);
		put16(f + o + 4, (uint32_t)(8 + ibl + 4));
		put16(f + o + 6, 0);
		o += 8;
		net = o - l3;
		break;
	case NET_GRH:
		o += link_header(pa, dir, ETH_P_ROCEV1, f + o);
		l3 = o;
		put32(f + o, 6u << 28);
		put16(f + o + 4, (uint32_t)(ibl + 4));
		f[o + 6] = 0x1b;                          /* next header: BTH */
		f[o + 7] = 64;
		side_gid(pa, dir, f + o + 8);
		side_gid(pa, !dir, f + o + 24);
		o += 40;
		net = 40;
		break;
	case NET_LRH_GRH:
		/* a routed packet: VL 2, SL 5 in the LRH (a router rewrites
		 * it: not in the ICRC); traffic class 0x12, flow label 0xabcde,
		 * hop limit 0x40 in the GRH (masked) */
		l3 = o;
		f[o] = 0x20;                              /* VL 2, LVer 0 */
		f[o + 1] = 0x53;                          /* SL 5, LNH: IBA global */
		put16(f + o + 2, pa->lid[!dir]);
		put16(f + o + 4, (uint32_t)((8 + 40 + ibl + 4) / 4) & 0x7ff);
		put16(f + o + 6, pa->lid[dir]);
		put32(f + o + 8, 6u << 28 | 0x12u << 20 | 0xabcdeu);
		put16(f + o + 12, (uint32_t)(ibl + 4));   /* PayLen: BTH..ICRC */
		f[o + 14] = 0x1b;                         /* next header: BTH */
		f[o + 15] = 0x40;                         /* hop limit */
		side_gid(pa, dir, f + o + 16);
		side_gid(pa, !dir, f + o + 32);
		o += 48;
		net = 48;
		break;
	case NET_LRH:
	default:
		l3 = o;
		f[o] = 0x00;                              /* VL 0, LVer 0 */
		f[o + 1] = 0x02;                          /* SL 0, LNH: IBA local */
		put16(f + o + 2, pa->lid[!dir]);
		put16(f + o + 4, (uint32_t)((8 + ibl + 4) / 4) & 0x7ff);
		put16(f + o + 6, pa->lid[dir]);
		o += 8;
		net = 8;
		break;
	}
	bth = f + o;
	memcpy(f + o, hdr, hlen);
	bth[1] = (uint8_t)((bth[1] & 0xcf) | (pad << 4));
	o += hlen;
	if (plen)
		memcpy(f + o, pay, plen);
	o += plen;
	memset(f + o, 0, pad);
	o += pad;

	/* ICRC over the masked copy of the network headers, then the rest:
	 * RoCE and a global IB packet replace the LRH with 8 bytes of ones
	 * (IBTA 7.8.1, annexes A16/A17) */
	ml = 0;
	if (pa->net == NET_LRH_GRH) {
		memset(m, 0xff, 8);
		memcpy(m + 8, f + l3 + 8, 40 + 12);
		ml = 8;
		net = 40;                                 /* masked like RoCEv1 */
	} else if (pa->net != NET_LRH) {
		memset(m, 0xff, 8);
		ml = 8;
	}
	if (pa->net != NET_LRH_GRH)
		memcpy(m + ml, f + l3, net + 12);
	if (pa->net == NET_IPV4) {
		m[ml + 1] = 0xff;                         /* TOS */
		m[ml + 8] = 0xff;                         /* TTL */
		m[ml + 10] = m[ml + 11] = 0xff;           /* header checksum */
		m[ml + 26] = m[ml + 27] = 0xff;           /* UDP checksum */
	} else if (pa->net == NET_IPV6 || pa->net == NET_GRH ||
		   pa->net == NET_LRH_GRH) {
		m[ml] |= 0x0f;                            /* traffic class, */
		m[ml + 1] = m[ml + 2] = m[ml + 3] = 0xff; /* flow label */
		m[ml + 7] = 0xff;                         /* hop limit */
		if (pa->net == NET_IPV6)
			m[ml + 46] = m[ml + 47] = 0xff;   /* UDP checksum */
	} else {
		m[ml] |= 0xf0;                            /* LRH VL */
	}
	m[ml + net + 4] = 0xff;                           /* BTH resv8a */
	icrc = crc32_ieee(0, m, ml + net + 12);
	icrc = crc32_ieee(icrc, bth + 12, (size_t)(f + o - bth) - 12);
	if (c->bad_crc_next) {
		icrc ^= 0x5a5a5a5au;
		c->bad_crc_next = false;
	}
	icrc_at = o;
	putle32(f + o, icrc);
	o += 4;
	if (pa->net == NET_LRH || pa->net == NET_LRH_GRH) {
		putle16(f + o, crc16_vcrc(f + l3, o - l3));
		o += 2;
	}
	(void)icrc_at;
	if (pa->net == NET_IPV6)
		l4_checksum(pa, f + l3, f + l3 + 40, (uint32_t)(8 + ibl + 4),
			    IPPROTO_UDP_);
	if (pa->link == LK_ERF) {
		uint64_t ts = pa->w->ts_us;
		uint64_t erfts = ((ts / 1000000u) << 32) |
				 (((ts % 1000000u) << 32) / 1000000u);

		putle32(f, (uint32_t)erfts);
		putle32(f + 4, (uint32_t)(erfts >> 32));
		f[8] = ERF_TYPE_INFINIBAND;
		f[9] = 0x04;                              /* varying length */
		put16(f + 10, (uint32_t)o);
		put16(f + 12, 0);
		put16(f + 14, (uint32_t)(o - 16));
	}
	c->last_frame = capw_frame(pa->w, f, (uint32_t)o);
	return c->last_frame;
}

static size_t bth(struct conn *c, int dir, uint8_t *h, uint8_t op,
		  uint32_t psn, bool ackreq)
{
	h[0] = op;
	h[1] = 0x40;                                      /* MigReq, TVer 0 */
	put16(h + 2, 0xffff);                             /* default P_Key */
	put32(h + 4, c->qpn[!dir] & 0xffffff);
	put32(h + 8, (psn & 0xffffff) | (ackreq ? 0x80000000u : 0));
	return 12;
}

static void reth(uint8_t *p, uint64_t va, uint32_t rkey, uint32_t len)
{
	put64(p, va);
	put32(p + 8, rkey);
	put32(p + 12, len);
}

uint64_t ib_ack(struct conn *c, int dir)
{
	uint8_t h[16];

	bth(c, dir, h, IB_ACK, c->psn[!dir] - 1, false);
	put32(h + 12, (0x1fu << 24) | (c->msn[dir] & 0xffffff));
	return ib_emit(c, dir, h, 16, NULL, 0);
}

uint64_t ib_send(struct conn *c, int dir, const uint8_t *msg, size_t len,
		 uint32_t inv_rkey)
{
	uint32_t n = npkts(len, c->mtu), i, psn0 = c->psn[dir];
	uint64_t last = 0;
	uint8_t h[32];
	bool bad = c->bad_crc_next;

	for (i = 0; i < n; i++) {
		size_t off = (size_t)i * c->mtu, l = len - off < c->mtu ? len - off : c->mtu;
		uint8_t op;
		size_t hl;
		bool lastp = i + 1 == n;

		if (n == 1)
			op = inv_rkey ? IB_SEND_ONLY_INV : IB_SEND_ONLY;
		else if (i == 0)
			op = IB_SEND_FIRST;
		else if (!lastp)
			op = IB_SEND_MIDDLE;
		else
			op = inv_rkey ? IB_SEND_LAST_INV : IB_SEND_LAST;
		hl = bth(c, dir, h, op, c->psn[dir]++, lastp);
		if (lastp && inv_rkey) {
			put32(h + hl, inv_rkey);
			hl += 4;
		}
		last = ib_emit(c, dir, h, hl, msg + off, l);
	}
	if (bad) {
		/* dropped by the receiver: no ACK; the sender will resend */
		c->psn[dir] = psn0;
		return last;
	}
	c->msn[!dir]++;
	ib_ack(c, !dir);
	return last;
}

uint64_t ib_write(struct conn *c, int dir, uint32_t rkey, uint64_t va,
		  const uint8_t *data, size_t len)
{
	uint32_t n = npkts(len, c->mtu), i;
	uint64_t last = 0;
	uint8_t h[32];

	for (i = 0; i < n; i++) {
		size_t off = (size_t)i * c->mtu, l = len - off < c->mtu ? len - off : c->mtu;
		uint8_t op;
		size_t hl;
		bool lastp = i + 1 == n;

		op = n == 1 ? IB_WRITE_ONLY : i == 0 ? IB_WRITE_FIRST :
		     !lastp ? IB_WRITE_MIDDLE : IB_WRITE_LAST;
		hl = bth(c, dir, h, op, c->psn[dir]++, lastp);
		if (i == 0) {
			reth(h + hl, va, rkey, (uint32_t)len);
			hl += 16;
		}
		last = ib_emit(c, dir, h, hl, data + off, l);
	}
	c->msn[!dir]++;
	ib_ack(c, !dir);
	return last;
}

uint64_t ib_read(struct conn *c, int dir, uint32_t rkey, uint64_t va,
		 const uint8_t *data, size_t len)
{
	uint32_t n = npkts(len, c->mtu), i, psn = c->psn[dir];
	uint64_t last = 0;
	uint8_t h[32];
	size_t hl;

	hl = bth(c, dir, h, IB_READ_REQUEST, psn, true);
	reth(h + hl, va, rkey, (uint32_t)len);
	ib_emit(c, dir, h, hl + 16, NULL, 0);
	c->psn[dir] += n;
	c->msn[!dir]++;
	for (i = 0; i < n; i++) {
		size_t off = (size_t)i * c->mtu, l = len - off < c->mtu ? len - off : c->mtu;
		bool lastp = i + 1 == n;
		uint8_t op = n == 1 ? IB_READ_RESP_ONLY : i == 0 ? IB_READ_RESP_FIRST :
			     !lastp ? IB_READ_RESP_MIDDLE : IB_READ_RESP_LAST;

		hl = bth(c, !dir, h, op, psn + i, false);
		if (op != IB_READ_RESP_MIDDLE) {
			put32(h + hl, (0x1fu << 24) | (c->msn[!dir] & 0xffffff));
			hl += 4;
		}
		if (i == 0 && c->bad_read_first) {
			c->bad_crc_next = true;
			c->bad_read_first = false;
		}
		last = ib_emit(c, !dir, h, hl, data + off, l);
		if (i == 0)
			c->read_first_frame = last;
	}
	return last;
}

/* A QP pair; ib_cm_connect() adds the CM exchange that set it up. */
void conn_init_roce(struct conn *c, struct capw *w, enum linkkind link,
		    enum netkind net, uint32_t mtu)
{
	memset(c, 0, sizeof(*c));
	c->pa.w = w;
	c->pa.link = link;
	c->pa.net = net;
	c->pa.vlan = 100;
	c->pa.lid[0] = 0x0011;
	c->pa.lid[1] = 0x0022;
	c->mtu = mtu;
	c->udp_sport = ROCEV2_PORT;
	c->qpn[0] = 0x000123;
	c->qpn[1] = 0x000456;
	c->psn[0] = 0x10000;
	c->psn[1] = 0x80000;
}
