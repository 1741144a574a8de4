/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * eth_ip.c - link and network headers: Ethernet II (IEEE 802.3), 802.1Q,
 * Linux cooked capture v1 (SLL, 16 bytes) and v2 (SLL2, 20 bytes), IPv4
 * (RFC 791, header checksum RFC 1071), IPv6 (RFC 8200), and the UDP/TCP
 * pseudo-header checksums (RFC 768, RFC 793, RFC 8200 §8.1).
 * Side 0 is the client: 02:00:00:00:00:01, 198.18.0.1, 2001:db8::1; side 1
 * the server: 02:00:00:00:00:02, 198.18.0.2, 2001:db8::2.
 */
#include <string.h>
#include "capgen.h"

static void side_mac(int dir, uint8_t *m)
{
	static const uint8_t base[6] = { 2, 0, 0, 0, 0, 1 };

	memcpy(m, base, 6);
	m[5] = (uint8_t)(1 + dir);
}

size_t link_header(const struct path *pa, int dir, uint16_t ethertype,
		   uint8_t *out)
{
	switch (pa->link) {
	case LK_ETH:
		side_mac(!dir, out);
		side_mac(dir, out + 6);
		put16(out + 12, ethertype);
		return 14;
	case LK_VLAN:
		side_mac(!dir, out);
		side_mac(dir, out + 6);
		put16(out + 12, 0x8100);
		put16(out + 14, (3u << 13) | pa->vlan);   /* PCP 3, the RoCE class */
		put16(out + 16, ethertype);
		return 18;
	case LK_SLL:
		/* captured on the client: its frames are outgoing (4) */
		put16(out, dir == 0 ? 4 : 0);
		put16(out + 2, 1);                         /* ARPHRD_ETHER */
		put16(out + 4, 6);
		memset(out + 6, 0, 8);
		side_mac(dir, out + 6);
		put16(out + 14, ethertype);
		return 16;
	case LK_SLL2:
		put16(out, ethertype);
		put16(out + 2, 0);
		put32(out + 4, 2);                         /* interface index */
		put16(out + 8, 1);                         /* ARPHRD_ETHER */
		out[10] = dir == 0 ? 4 : 0;
		out[11] = 6;
		memset(out + 12, 0, 8);
		side_mac(dir, out + 12);
		return 20;
	case LK_IB:
	case LK_ERF:
		break;
	}
	return 0;
}

void side_gid(const struct path *pa, int dir, uint8_t gid[16])
{
	memset(gid, 0, 16);
	if (pa->net == NET_IPV4) {
		gid[10] = gid[11] = 0xff;
		gid[12] = 198;
		gid[13] = 18;
		gid[15] = (uint8_t)(1 + dir);
	} else {
		gid[0] = 0x20;
		gid[1] = 0x01;
		gid[2] = 0x0d;
		gid[3] = 0xb8;
		gid[15] = (uint8_t)(1 + dir);
	}
}

uint32_t csum_add(uint32_t sum, const uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i + 1 < n; i += 2)
		sum += (uint32_t)p[i] << 8 | p[i + 1];
	if (n & 1)
		sum += (uint32_t)p[n - 1] << 8;
	return sum;
}

uint16_t inet_csum(uint32_t sum, const uint8_t *p, size_t n)
{
	sum = csum_add(sum, p, n);
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

size_t ip_header(struct path *pa, int dir, uint8_t proto, uint32_t paylen,
		 uint8_t *out)
{
	uint8_t gid[16];

	if (pa->net == NET_IPV4) {
		out[0] = 0x45;
		out[1] = 0x00;
		put16(out + 2, 20 + paylen);
		put16(out + 4, pa->ipid[dir]++);
		put16(out + 6, 0x4000);                   /* DF */
		out[8] = 64;
		out[9] = proto;
		put16(out + 10, 0);
		side_gid(pa, dir, gid);
		memcpy(out + 12, gid + 12, 4);
		side_gid(pa, !dir, gid);
		memcpy(out + 16, gid + 12, 4);
		put16(out + 10, inet_csum(0, out, 20));
		return 20;
	}
	put32(out, 6u << 28);
	put16(out + 4, paylen);
	out[6] = proto;
	out[7] = 64;
	side_gid(pa, dir, out + 8);
	side_gid(pa, !dir, out + 24);
	return 40;
}

void l4_checksum(const struct path *pa, const uint8_t *ip, uint8_t *l4,
		 uint32_t l4len, uint8_t proto)
{
	uint32_t sum;
	uint8_t ph[4];
	uint8_t *field = l4 + (proto == IPPROTO_UDP_ ? 6 : 16);
	uint16_t c;

	put16(field, 0);
	if (pa->net == NET_IPV4)
		sum = csum_add(0, ip + 12, 8);
	else
		sum = csum_add(0, ip + 8, 32);
	put32(ph, l4len);
	sum = csum_add(sum, ph, 4);
	ph[0] = ph[1] = ph[2] = 0;
	ph[3] = proto;
	sum = csum_add(sum, ph, 4);
	c = inet_csum(sum, l4, l4len);
	if (proto == IPPROTO_UDP_ && c == 0)
		c = 0xffff;
	put16(field, c);
}
