/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cap_link.c - link layers (pcap-linktype(7)): Ethernet with 802.1Q/802.1ad
 * tags (DLT_EN10MB), Linux cooked v1 (DLT_LINUX_SLL 113) and v2
 * (DLT_LINUX_SLL2 276), ERF records of type INFINIBAND (DLT_ERF 197, what
 * ibdump writes) and raw InfiniBand (DLT_INFINIBAND 247: the LRH first).
 */
#include <string.h>
#include "cap_state.h"

#define DLT_EN10MB_ 1
#define DLT_LINUX_SLL_ 113
#define DLT_ERF_ 197
#define DLT_INFINIBAND_ 247
#define DLT_LINUX_SLL2_ 276

#define ERF_TYPE_INFINIBAND 21
#define ERF_TYPE_INFINIBAND_LINK 22
#define ERF_HDR_LEN 16

const char cap_link_names[] =
	"EN10MB (1), LINUX_SLL (113), ERF (197, InfiniBand records), "
	"INFINIBAND (247), LINUX_SLL2 (276)";

bool cap_link_supported(int dlt)
{
	return dlt == DLT_EN10MB_ || dlt == DLT_LINUX_SLL_ ||
	       dlt == DLT_ERF_ || dlt == DLT_INFINIBAND_ ||
	       dlt == DLT_LINUX_SLL2_;
}

static enum cap_res short_frame(struct cap_state *st,
				const struct cap_frame *f, const char *what,
				uint32_t need, uint32_t have)
{
	st->stats.frames_truncated++;
	cap_frame_error(st, f, "%s cut short (need %u bytes, have %u)", what,
			need, have);
	return CAP_TRUNCATED;
}

static enum cap_res ether(struct cap_state *st, const struct cap_frame *f)
{
	const uint8_t *p = f->p;
	uint32_t len = f->len;

	if (len < 14)
		return short_frame(st, f, "Ethernet header", 14, len);
	uint16_t etype = cap_be16(p + 12);
	p += 14;
	len -= 14;
	/* 802.1Q (0x8100), 802.1ad (0x88a8) and the old QinQ 0x9100 */
	for (int tags = 0; etype == 0x8100 || etype == 0x88a8 || etype == 0x9100;
	     tags++) {
		if (tags == 4)
			return CAP_NOT_OURS;
		if (len < 4)
			return short_frame(st, f, "VLAN tag", 4, len);
		etype = cap_be16(p + 2);
		p += 4;
		len -= 4;
	}
	return cap_net_ether(st, f, etype, p, len);
}

static enum cap_res sll(struct cap_state *st, const struct cap_frame *f)
{
	if (f->len < 16)
		return short_frame(st, f, "Linux cooked header", 16, f->len);
	return cap_net_ether(st, f, cap_be16(f->p + 14), f->p + 16, f->len - 16);
}

static enum cap_res sll2(struct cap_state *st, const struct cap_frame *f)
{
	if (f->len < 20)
		return short_frame(st, f, "Linux cooked v2 header", 20, f->len);
	return cap_net_ether(st, f, cap_be16(f->p), f->p + 20, f->len - 20);
}

/* Native InfiniBand from the LRH (IBTA 7.7) */
static enum cap_res ib_lrh(struct cap_state *st, const struct cap_frame *f,
			   const uint8_t *p, uint32_t len)
{
	struct cap_addr a = { .family = CAP_AF_LID };

	if (len < 8)
		return short_frame(st, f, "LRH", 8, len);
	unsigned lnh = p[1] & 3;
	uint32_t pktlen = (cap_be16(p + 4) & 0x7ff) * 4u;  /* LRH..ICRC */
	memcpy(a.dst, p + 2, 2);
	memcpy(a.src, p + 6, 2);
	if (lnh < 2)
		return CAP_NOT_OURS;       /* raw packets: not IBA transport */
	/* The VCRC follows the packet (IBTA 7.8.2); a packet whose VCRC is
	 * wrong is dropped by the next hop. */
	if (len >= pktlen + 2) {
		uint16_t got = cap_crc16_vcrc(p, pktlen);
		uint16_t le = (uint16_t)(p[pktlen] | p[pktlen + 1] << 8);
		if (!cap_crc_verdict(le == got || cap_be16(p + pktlen) == got,
				     p + pktlen, 2)) {
			st->stats.total.crc_fail++;
			cap_lint(st, f->num, "crc-error", "IBTA 7.8.2",
				 "VCRC 0x%04x, computed 0x%04x: packet corrupt, "
				 "not delivered", le, got);
			return CAP_INVALID;
		}
		len = pktlen;
	} else if (len >= pktlen) {
		len = pktlen;              /* no VCRC captured */
	}
	uint32_t hl = lnh == 3 ? 48 : 8;
	if (pktlen < hl) {
		/* a receiver's link layer drops it; nothing above may see a
		 * length below its own headers */
		st->stats.frames_truncated++;
		cap_lint(st, f->num, "truncated-frame", "IBTA 7.7.8",
			 "LRH PktLen says %u bytes, less than the %s (%u)",
			 pktlen, lnh == 3 ? "LRH and GRH" : "LRH", hl);
		return CAP_TRUNCATED;
	}
	if (lnh == 3) {
		if (len < 8 + 40)
			return short_frame(st, f, "GRH", 48, len);
		a.family = CAP_AF_INET6;
		memcpy(a.src, p + 8 + 8, 16);
		memcpy(a.dst, p + 8 + 24, 16);
		hl = 48;
	}
	return cap_ib_packet(st, f, CAP_T_IB, &a, p, hl, p + hl, len - hl);
}

static enum cap_res erf_record(struct cap_state *st, const struct cap_frame *f)
{
	const uint8_t *p = f->p;
	uint32_t len = f->len;

	if (len < ERF_HDR_LEN)
		return short_frame(st, f, "ERF record header", ERF_HDR_LEN, len);
	uint8_t type = p[8];
	uint32_t hl = ERF_HDR_LEN;
	/* extension headers: 8 bytes each while the type's top bit chains */
	for (uint8_t more = type & 0x80; more; ) {
		if (len < hl + 8)
			return short_frame(st, f, "ERF extension header", hl + 8, len);
		more = p[hl] & 0x80;
		hl += 8;
	}
	type &= 0x7f;
	if (type != ERF_TYPE_INFINIBAND && type != ERF_TYPE_INFINIBAND_LINK)
		return CAP_NOT_OURS;
	return ib_lrh(st, f, p + hl, len - hl);
}

enum cap_res cap_link_frame(struct cap_state *st, int dlt,
			    const struct cap_frame *f)
{
	switch (dlt) {
	case DLT_EN10MB_: return ether(st, f);
	case DLT_LINUX_SLL_: return sll(st, f);
	case DLT_LINUX_SLL2_: return sll2(st, f);
	case DLT_ERF_: return erf_record(st, f);
	case DLT_INFINIBAND_: return ib_lrh(st, f, f->p, f->len);
	}
	return CAP_NOT_OURS;
}
