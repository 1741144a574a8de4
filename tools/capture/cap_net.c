/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cap_net.c - network and transport headers: IPv4 (RFC 791), IPv6 (RFC
 * 8200), UDP to the RoCEv2 port (RoCEv2 annex A17.4.2, default 4791), TCP
 * to the iWARP stream layer, and RoCEv1's GRH under ethertype 0x8915
 * (annex A16).
 */
#include <string.h>
#include "cap_cur.h"
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

/* UDP or TCP above IP; `ip` is the IP header (and options), `c` what
 * follows it */
static enum cap_res l4(struct cap_state *st, const struct cap_frame *f,
		       struct cap_addr *a, unsigned proto,
		       const struct cap_cur *ip, struct cap_cur *c)
{
	if (proto == IPPROTO_UDP_) {
		uint16_t ulen;
		struct cap_cur hdr;
		if (!cur_peek16(c, 4, &ulen) || !cur_has(c, 8))
			return cut(st, f, "UDP header", 8, cur_left(c));
		(void)cur_peek16(c, 0, &a->sport);
		(void)cur_peek16(c, 2, &a->dport);
		if (a->dport != st->o->roce_port) {
			cap_seen_port(&st->seen.udp, a->dport);
			return CAP_NOT_OURS;
		}
		if (ulen < 8)
			return bad(st, f, "UDP length below 8");
		if (ulen < cur_left(c))
			cur_limit(c, ulen);    /* Ethernet padding */
		else if (ulen > cur_left(c) &&
			 short_packet(st, f, "UDP", ulen, cur_left(c)))
			return CAP_TRUNCATED;
		/* the ICRC covers the IP and UDP headers: one view of both */
		hdr = cur_make(ip->p, ip->len + 8);
		(void)cur_skip(c, 8);
		return cap_ib_packet(st, f, CAP_T_ROCEV2, a, &hdr, c);
	}
	if (proto == IPPROTO_TCP_) {
		struct cap_cur ports = *c;
		uint16_t sp, dp;
		enum cap_res r = cap_tcp_segment(st, f, a, c);
		if (r == CAP_NOT_OURS && cur_peek16(&ports, 0, &sp) &&
		    cur_peek16(&ports, 2, &dp))          /* the lower: the service */
			cap_seen_port(&st->seen.tcp, sp < dp ? sp : dp);
		return r;
	}
	return CAP_NOT_OURS;
}

static enum cap_res ipv4(struct cap_state *st, const struct cap_frame *f,
			 struct cap_cur *c)
{
	struct cap_addr a = { .family = CAP_AF_INET };
	struct cap_cur ip;
	uint8_t vhl, proto;
	uint16_t tot, frag;
	if (!cur_peek8(c, 0, &vhl) || !cur_peek16(c, 2, &tot) ||
	    !cur_peek16(c, 6, &frag) || !cur_peek8(c, 9, &proto) ||
	    !cur_has(c, 20))
		return cut(st, f, "IPv4 header", 20, cur_left(c));
	if (vhl >> 4 != 4)
		return bad(st, f, "IPv4 header with version not 4");
	uint32_t hl = (vhl & 15) * 4u;
	if (hl < 20 || tot < hl)
		return bad(st, f, "IPv4 header length invalid");
	if (!cur_has(c, hl))
		return cut(st, f, "IPv4 options", hl, cur_left(c));
	if ((frag & 0x3fff) != 0)
		return CAP_NOT_OURS;           /* fragment */
	if (tot < cur_left(c))
		cur_limit(c, tot);             /* Ethernet padding */
	else if (tot > cur_left(c) &&
		 short_packet(st, f, "IPv4 total", tot, cur_left(c)))
		return CAP_TRUNCATED;
	memcpy(a.src, cur_ptr(c) + 12, 4);
	memcpy(a.dst, cur_ptr(c) + 16, 4);
	(void)cur_sub(c, hl, &ip);
	return l4(st, f, &a, proto, &ip, c);
}

static enum cap_res ipv6(struct cap_state *st, const struct cap_frame *f,
			 struct cap_cur *c)
{
	struct cap_addr a = { .family = CAP_AF_INET6 };
	struct cap_cur ip;
	uint8_t v, nh;
	uint16_t plen;

	if (!cur_peek8(c, 0, &v) || !cur_peek16(c, 4, &plen) ||
	    !cur_peek8(c, 6, &nh) || !cur_has(c, 40))
		return cut(st, f, "IPv6 header", 40, cur_left(c));
	if (v >> 4 != 6)
		return bad(st, f, "IPv6 header with version not 6");
	if (40u + plen < cur_left(c))
		cur_limit(c, 40u + plen);
	else if (40u + plen > cur_left(c) &&
		 short_packet(st, f, "IPv6 payload", 40u + plen, cur_left(c)))
		return CAP_TRUNCATED;
	memcpy(a.src, cur_ptr(c) + 8, 16);
	memcpy(a.dst, cur_ptr(c) + 24, 16);
	const uint8_t *start = cur_ptr(c);
	(void)cur_skip(c, 40);
	uint32_t off = 40;
	/* hop-by-hop, routing, destination options */
	for (int i = 0; i < 8 && (nh == 0 || nh == 43 || nh == 60); i++) {
		uint8_t next, units;
		if (!cur_peek8(c, 0, &next) || !cur_peek8(c, 1, &units) ||
		    !cur_has(c, 8))
			return cut(st, f, "IPv6 extension header", off + 8,
				   off + cur_left(c));
		uint32_t el = (units + 1u) * 8u;
		if (!cur_skip(c, el))
			return cut(st, f, "IPv6 extension header", off + el,
				   off + cur_left(c));
		nh = next;
		off += el;
	}
	/* The RoCEv2 ICRC covers the fixed header and the UDP header only. */
	if (off != 40 && nh == IPPROTO_UDP_)
		return CAP_NOT_OURS;
	ip = cur_make(start, off);
	return l4(st, f, &a, nh, &ip, c);
}

/* RoCEv1: a GRH, then the BTH */
static enum cap_res rocev1(struct cap_state *st, const struct cap_frame *f,
			   struct cap_cur *c)
{
	struct cap_addr a = { .family = CAP_AF_INET6 };
	struct cap_cur grh;
	uint8_t nh;
	uint16_t plen;

	if (!cur_peek8(c, 6, &nh) || !cur_peek16(c, 4, &plen) || !cur_has(c, 40))
		return cut(st, f, "GRH", 40, cur_left(c));
	if (nh != 0x1b)
		return CAP_NOT_OURS;           /* next header is not the BTH */
	cur_limit(c, 40u + plen);
	memcpy(a.src, cur_ptr(c) + 8, 16);
	memcpy(a.dst, cur_ptr(c) + 24, 16);
	(void)cur_sub(c, 40, &grh);
	return cap_ib_packet(st, f, CAP_T_ROCEV1, &a, &grh, c);
}

/* the rest of cap_net_ether, apart so that its fast path stays small */
__attribute__((noinline))
static enum cap_res net_ether(struct cap_state *st, const struct cap_frame *f,
			      uint16_t etype, struct cap_cur *c)
{
	switch (etype) {
	case ETH_IPV4: return ipv4(st, f, c);
	case ETH_IPV6: return ipv6(st, f, c);
	case ETH_ROCEV1: return rocev1(st, f, c);
	}
	return CAP_NOT_OURS;
}

enum cap_res cap_net_ether(struct cap_state *st, const struct cap_frame *f,
			   uint16_t etype, struct cap_cur *c)
{
	if (etype == ETH_IPV4) {
		struct cap_addr a = { .family = CAP_AF_INET };
		const uint8_t *q = cur_ptr(c);
		uint32_t left = cur_left(c);

		/* RoCEv2 as it nearly always comes: a 20-byte IPv4 header,
		 * not a fragment, no padding after it, UDP to the RoCE port
		 * whose length is the rest.  Every check of ipv4() and l4()
		 * passes for it and changes nothing: the same cursors,
		 * without the steps. */
		if (left >= 28 && q[0] == 0x45 && q[9] == IPPROTO_UDP_ &&
		    cap_be16(q + 2) == left && (cap_be16(q + 6) & 0x3fff) == 0 &&
		    cap_be16(q + 22) == st->o->roce_port &&
		    cap_be16(q + 24) == left - 20) {
			memcpy(a.src, q + 12, 4);
			memcpy(a.dst, q + 16, 4);
			a.sport = cap_be16(q + 20);
			a.dport = st->o->roce_port;
			struct cap_cur hdr = cur_make(q, 28);
			(void)cur_skip(c, 28);
			return cap_ib_packet(st, f, CAP_T_ROCEV2, &a, &hdr, c);
		}
	}
	return net_ether(st, f, etype, c);
}
