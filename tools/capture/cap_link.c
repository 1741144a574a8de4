/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cap_link.c - link layers (pcap-linktype(7)): Ethernet with 802.1Q/802.1ad
 * tags (DLT_EN10MB), Linux cooked v1 (DLT_LINUX_SLL 113) and v2
 * (DLT_LINUX_SLL2 276), ERF records of type INFINIBAND (DLT_ERF 197, what
 * ibdump writes) and raw InfiniBand (DLT_INFINIBAND 247: the LRH first).
 */
#include <string.h>
#include "cap_cur.h"
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
	struct cap_cur c = cur_make(f->p, f->len);
	uint16_t etype;

	if (!cur_skip(&c, 12) || !cur_be16(&c, &etype))
		return short_frame(st, f, "Ethernet header", 14, f->len);
	/* 802.1Q (0x8100), 802.1ad (0x88a8) and the old QinQ 0x9100 */
	for (int tags = 0; etype == 0x8100 || etype == 0x88a8 || etype == 0x9100;
	     tags++) {
		uint32_t left = cur_left(&c);
		if (tags == 4)
			return CAP_NOT_OURS;
		if (!cur_skip(&c, 2) || !cur_be16(&c, &etype))
			return short_frame(st, f, "VLAN tag", 4, left);
	}
	return cap_net_ether(st, f, etype, &c);
}

static enum cap_res sll(struct cap_state *st, const struct cap_frame *f)
{
	struct cap_cur c = cur_make(f->p, f->len);
	uint16_t etype;

	if (!cur_peek16(&c, 14, &etype) || !cur_skip(&c, 16))
		return short_frame(st, f, "Linux cooked header", 16, f->len);
	return cap_net_ether(st, f, etype, &c);
}

static enum cap_res sll2(struct cap_state *st, const struct cap_frame *f)
{
	struct cap_cur c = cur_make(f->p, f->len);
	uint16_t etype;

	if (!cur_peek16(&c, 0, &etype) || !cur_skip(&c, 20))
		return short_frame(st, f, "Linux cooked v2 header", 20, f->len);
	return cap_net_ether(st, f, etype, &c);
}

/* Native InfiniBand from the LRH (IBTA 7.7) */
static enum cap_res ib_lrh(struct cap_state *st, const struct cap_frame *f,
			   struct cap_cur *c)
{
	struct cap_addr a = { .family = CAP_AF_LID };
	const uint8_t *lrh;
	uint16_t w;

	if (!cur_peek16(c, 4, &w) || !cur_has(c, 8))
		return short_frame(st, f, "LRH", 8, cur_left(c));
	lrh = cur_ptr(c);
	unsigned lnh = lrh[1] & 3;
	uint32_t pktlen = (w & 0x7ffu) * 4u;       /* LRH..ICRC */
	memcpy(a.dst, lrh + 2, 2);
	memcpy(a.src, lrh + 6, 2);
	if (lnh < 2)
		return CAP_NOT_OURS;       /* raw packets: not IBA transport */
	/* The VCRC follows the packet (IBTA 7.8.2); a packet whose VCRC is
	 * wrong is dropped by the next hop. */
	uint16_t vcrc;
	if (!st->o->no_crc_check && cur_peek16(c, pktlen, &vcrc)) {
		uint16_t got = cap_crc16_vcrc(lrh, pktlen);
		uint16_t le = (uint16_t)(vcrc >> 8 | vcrc << 8);
		if (!cap_crc_verdict(le == got || vcrc == got, lrh + pktlen, 2)) {
			st->stats.total.crc_fail++;
			cap_lint(st, f->num, "crc-error", "IBTA 7.8.2",
				 "VCRC 0x%04x, computed 0x%04x: packet corrupt, "
				 "not delivered", le, got);
			return CAP_INVALID;
		}
	}
	cur_limit(c, pktlen);              /* without the VCRC, if captured */
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
	struct cap_cur hdr;
	uint32_t left = cur_left(c);
	if (!cur_sub(c, hl, &hdr))
		return short_frame(st, f, lnh == 3 ? "GRH" : "LRH", hl, left);
	if (lnh == 3) {
		a.family = CAP_AF_INET6;
		memcpy(a.src, hdr.p + 8 + 8, 16);
		memcpy(a.dst, hdr.p + 8 + 24, 16);
	}
	return cap_ib_packet(st, f, CAP_T_IB, &a, &hdr, c);
}

static enum cap_res erf_record(struct cap_state *st, const struct cap_frame *f)
{
	struct cap_cur c = cur_make(f->p, f->len);
	uint8_t type, more;

	if (!cur_peek8(&c, 8, &type) || !cur_skip(&c, ERF_HDR_LEN))
		return short_frame(st, f, "ERF record header", ERF_HDR_LEN, f->len);
	/* extension headers: 8 bytes each while the type's top bit chains */
	for (more = type & 0x80; more; more &= 0x80) {
		uint32_t left = cur_left(&c);
		if (!cur_peek8(&c, 0, &more) || !cur_skip(&c, 8))
			return short_frame(st, f, "ERF extension header", 8, left);
	}
	type &= 0x7f;
	if (type != ERF_TYPE_INFINIBAND && type != ERF_TYPE_INFINIBAND_LINK)
		return CAP_NOT_OURS;
	return ib_lrh(st, f, &c);
}

enum cap_res cap_link_frame(struct cap_state *st, int dlt,
			    const struct cap_frame *f)
{
	struct cap_cur c;

	switch (dlt) {
	case DLT_EN10MB_: return ether(st, f);
	case DLT_LINUX_SLL_: return sll(st, f);
	case DLT_LINUX_SLL2_: return sll2(st, f);
	case DLT_ERF_: return erf_record(st, f);
	case DLT_INFINIBAND_:
		c = cur_make(f->p, f->len);
		return ib_lrh(st, f, &c);
	}
	return CAP_NOT_OURS;
}
