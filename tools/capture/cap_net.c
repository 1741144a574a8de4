/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cap_net.c - network and transport headers: IPv4 (RFC 791), IPv6 (RFC
 * 8200), UDP to the RoCEv2 port (RoCEv2 annex A17.4.2, default 4791), TCP
 * to the iWARP stream layer, and RoCEv1's GRH under ethertype 0x8915
 * (annex A16).
 */
#include <string.h>
#include "cap_state.h"

#define ETH_IPV4 0x0800
#define ETH_IPV6 0x86dd
#define ETH_ROCEV1 0x8915
#define IPPROTO_TCP_ 6
#define IPPROTO_UDP_ 17

static enum cap_res cut(struct cap_state *st, const struct cap_frame *f,
			const char *what, uint32_t need, uint32_t have)
{
	st->stats.frames_truncated++;
	cap_frame_error(st, f, "%s cut short (need %u bytes, have %u)", what,
			need, have);
	return CAP_TRUNCATED;
}

/* The IP or UDP header claims more bytes than the frame holds, and the
 * snapshot length is not the reason */
static enum cap_res short_packet(struct cap_state *st, const struct cap_frame *f,
				 const char *what, uint32_t need, uint32_t have)
{
	if (f->len < f->wire_len)
		return CAP_OK;
	st->stats.frames_truncated++;
	cap_lint(st, f->num, "truncated-frame", "RFC 791 3.1",
		 "%s length says %u bytes, the frame holds %u", what, need, have);
	return CAP_TRUNCATED;
}

static enum cap_res bad(struct cap_state *st, const struct cap_frame *f,
			const char *what)
{
	st->stats.frames_invalid++;
	cap_frame_error(st, f, "%s", what);
	return CAP_INVALID;
}

/* UDP or TCP above IP; `ip` .. `l4` is the IP header */
static enum cap_res l4(struct cap_state *st, const struct cap_frame *f,
		       struct cap_addr *a, unsigned proto, const uint8_t *ip,
		       const uint8_t *p, uint32_t len)
{
	if (proto == IPPROTO_UDP_) {
		if (len < 8)
			return cut(st, f, "UDP header", 8, len);
		a->sport = cap_be16(p);
		a->dport = cap_be16(p + 2);
		if (a->dport != st->o->roce_port)
			return CAP_NOT_OURS;
		uint32_t ulen = cap_be16(p + 4);
		if (ulen < 8)
			return bad(st, f, "UDP length below 8");
		if (ulen < len)
			len = ulen;            /* Ethernet padding */
		else if (ulen > len && short_packet(st, f, "UDP", ulen, len))
			return CAP_TRUNCATED;
		return cap_ib_packet(st, f, CAP_T_ROCEV2, a, ip,
				     (uint32_t)(p - ip) + 8, p + 8, len - 8);
	}
	if (proto == IPPROTO_TCP_)
		return cap_tcp_segment(st, f, a, p, len);
	return CAP_NOT_OURS;
}

static enum cap_res ipv4(struct cap_state *st, const struct cap_frame *f,
			 const uint8_t *p, uint32_t len)
{
	struct cap_addr a = { .family = CAP_AF_INET };

	if (len < 20)
		return cut(st, f, "IPv4 header", 20, len);
	if (p[0] >> 4 != 4)
		return bad(st, f, "IPv4 header with version not 4");
	uint32_t hl = (p[0] & 15) * 4u;
	uint32_t tot = cap_be16(p + 2);
	if (hl < 20 || tot < hl)
		return bad(st, f, "IPv4 header length invalid");
	if (len < hl)
		return cut(st, f, "IPv4 options", hl, len);
	if ((cap_be16(p + 6) & 0x3fff) != 0)
		return CAP_NOT_OURS;           /* fragment */
	if (tot < len)
		len = tot;                     /* Ethernet padding */
	else if (tot > len && short_packet(st, f, "IPv4 total", tot, len))
		return CAP_TRUNCATED;
	memcpy(a.src, p + 12, 4);
	memcpy(a.dst, p + 16, 4);
	return l4(st, f, &a, p[9], p, p + hl, len - hl);
}

static enum cap_res ipv6(struct cap_state *st, const struct cap_frame *f,
			 const uint8_t *p, uint32_t len)
{
	struct cap_addr a = { .family = CAP_AF_INET6 };

	if (len < 40)
		return cut(st, f, "IPv6 header", 40, len);
	if (p[0] >> 4 != 6)
		return bad(st, f, "IPv6 header with version not 6");
	uint32_t plen = cap_be16(p + 4);
	if (40 + plen < len)
		len = 40 + plen;
	else if (40 + plen > len && short_packet(st, f, "IPv6 payload", 40 + plen, len))
		return CAP_TRUNCATED;
	memcpy(a.src, p + 8, 16);
	memcpy(a.dst, p + 24, 16);
	unsigned nh = p[6];
	uint32_t off = 40;
	/* hop-by-hop, routing, destination options */
	for (int i = 0; i < 8 && (nh == 0 || nh == 43 || nh == 60); i++) {
		if (len < off + 8)
			return cut(st, f, "IPv6 extension header", off + 8, len);
		uint32_t el = (p[off + 1] + 1u) * 8u;
		nh = p[off];
		off += el;
		if (len < off)
			return cut(st, f, "IPv6 extension header", off, len);
	}
	/* The RoCEv2 ICRC covers the fixed header and the UDP header only. */
	if (off != 40 && nh == IPPROTO_UDP_)
		return CAP_NOT_OURS;
	return l4(st, f, &a, nh, p, p + off, len - off);
}

/* RoCEv1: a GRH, then the BTH */
static enum cap_res rocev1(struct cap_state *st, const struct cap_frame *f,
			   const uint8_t *p, uint32_t len)
{
	struct cap_addr a = { .family = CAP_AF_INET6 };

	if (len < 40)
		return cut(st, f, "GRH", 40, len);
	if (p[6] != 0x1b)
		return CAP_NOT_OURS;           /* next header is not the BTH */
	uint32_t plen = cap_be16(p + 4);
	if (40 + plen < len)
		len = 40 + plen;
	memcpy(a.src, p + 8, 16);
	memcpy(a.dst, p + 24, 16);
	return cap_ib_packet(st, f, CAP_T_ROCEV1, &a, p, 40, p + 40, len - 40);
}

enum cap_res cap_net_ether(struct cap_state *st, const struct cap_frame *f,
			   uint16_t etype, const uint8_t *p, uint32_t len)
{
	switch (etype) {
	case ETH_IPV4: return ipv4(st, f, p, len);
	case ETH_IPV6: return ipv6(st, f, p, len);
	case ETH_ROCEV1: return rocev1(st, f, p, len);
	}
	return CAP_NOT_OURS;
}
