/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * capgen.h - the test-capture generator's layers: capture files (pcap,
 * pcapng), links and networks (Ethernet, 802.1Q, SLL, SLL2, IPv4, IPv6, UDP,
 * TCP), InfiniBand transport (IBTA vol. 1 ch. 9, RoCEv2 annex A17), iWARP
 * (RFC 5040/5041/5044) and the RPC-over-RDMA conversations built on them.
 */
#ifndef CAPGEN_H
#define CAPGEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ---- byte helpers ---- */
static inline void put16(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}
static inline void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}
static inline void put64(uint8_t *p, uint64_t v)
{
	put32(p, (uint32_t)(v >> 32));
	put32(p + 4, (uint32_t)v);
}
static inline void putle16(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}
static inline void putle32(uint8_t *p, uint32_t v)
{
	putle16(p, v);
	putle16(p + 2, v >> 16);
}

/* ---- crc.c: RFC 1952 CRC-32 (ICRC), RFC 3385 CRC32c (MPA), IB VCRC ---- */
uint32_t crc32_ieee(uint32_t crc, const uint8_t *p, size_t n); /* start 0 */
uint32_t crc32c(uint32_t crc, const uint8_t *p, size_t n);     /* start 0 */
uint16_t crc16_vcrc(const uint8_t *p, size_t n);

/* ---- pcapw.c: capture files ---- */
enum capfmt { FMT_PCAP, FMT_PCAPNG };

#define LINKTYPE_ETHERNET 1
#define LINKTYPE_LINUX_SLL 113
#define LINKTYPE_ERF 197
#define LINKTYPE_INFINIBAND 247
#define LINKTYPE_LINUX_SLL2 276

struct capw {
	FILE *f;
	char *iobuf;
	enum capfmt fmt;
	uint32_t linktype;
	uint32_t snaplen;
	uint64_t ts_us;            /* time stamp of the next frame */
	uint64_t nframes;          /* frames written so far */
	uint64_t cut_at;           /* write only part of this frame (1-based), 0: never */
	uint32_t cut_len;          /* bytes of that frame's record to keep */
	bool failed;
};

int capw_open(struct capw *w, const char *path, enum capfmt fmt,
	      uint32_t linktype, uint32_t snaplen);
/* Write one frame of `len` bytes; it is recorded with caplen = min(len,
 * snaplen).  Returns the 1-based frame number. */
uint64_t capw_frame(struct capw *w, const uint8_t *p, uint32_t len);
/* --drop: frames (1-based, as generated) not written, to plant capture
 * loss at known places; n at most CAPW_DROP_MAX */
#define CAPW_DROP_MAX 64u
void capw_drop(const uint64_t *frames, unsigned n);
int capw_close(struct capw *w);

/* ---- eth_ip.c: links and networks ---- */
enum linkkind { LK_ETH, LK_VLAN, LK_SLL, LK_SLL2, LK_IB, LK_ERF };
/* NET_LRH_GRH: native IB, LRH with LNH = IBA global then a GRH (routed) */
enum netkind { NET_IPV4, NET_IPV6, NET_GRH, NET_LRH, NET_LRH_GRH };

struct path {
	struct capw *w;
	enum linkkind link;
	enum netkind net;
	uint16_t vlan;
	uint16_t ipid[2];
	uint16_t lid[2];           /* native IB */
};

#define ETH_P_IP 0x0800
#define ETH_P_IPV6 0x86dd
#define ETH_P_ROCEV1 0x8915
#define IPPROTO_UDP_ 17
#define IPPROTO_TCP_ 6
#define ROCEV2_PORT 4791
#define NFSRDMA_PORT 20049

/* Write the link header for a frame from side `dir` (0: 198.18.0.1, the
 * client; 1: 198.18.0.2, the server) carrying `ethertype`. Returns bytes. */
size_t link_header(const struct path *pa, int dir, uint16_t ethertype,
		   uint8_t *out);
/* IPv4 (20) or IPv6 (40) header for `paylen` bytes of `proto`. */
size_t ip_header(struct path *pa, int dir, uint8_t proto, uint32_t paylen,
		 uint8_t *out);
/* 16-byte source/destination addresses for GIDs (IPv6 or IPv4-mapped). */
void side_gid(const struct path *pa, int dir, uint8_t gid[16]);
uint16_t inet_csum(uint32_t sum, const uint8_t *p, size_t n);
uint32_t csum_add(uint32_t sum, const uint8_t *p, size_t n);
/* Fill the UDP or TCP checksum of the L4 segment at l4 (after ip). */
void l4_checksum(const struct path *pa, const uint8_t *ip, uint8_t *l4,
		 uint32_t l4len, uint8_t proto);

/* ---- ib.c: InfiniBand transport (BTH and extended headers, ICRC/VCRC) ---- */
enum ib_opcode {
	IB_SEND_FIRST = 0x00, IB_SEND_MIDDLE = 0x01, IB_SEND_LAST = 0x02,
	IB_SEND_ONLY = 0x04, IB_WRITE_FIRST = 0x06, IB_WRITE_MIDDLE = 0x07,
	IB_WRITE_LAST = 0x08, IB_WRITE_ONLY = 0x0a, IB_READ_REQUEST = 0x0c,
	IB_READ_RESP_FIRST = 0x0d, IB_READ_RESP_MIDDLE = 0x0e,
	IB_READ_RESP_LAST = 0x0f, IB_READ_RESP_ONLY = 0x10, IB_ACK = 0x11,
	IB_SEND_LAST_INV = 0x16, IB_SEND_ONLY_INV = 0x17,
};

/* ---- a reliable connection: one QP pair (RoCE/IB) or one TCP stream (iWARP) */
struct conn {
	struct path pa;
	bool iwarp;
	uint32_t mtu;              /* IB path MTU / iWARP max ULPDU payload */
	/* IB */
	uint32_t qpn[2];
	uint32_t psn[2];           /* next request PSN sent by side d */
	uint32_t msn[2];           /* messages completed at responder side d */
	bool bad_crc_next;         /* corrupt the CRC of the next packet */
	bool bad_read_first;       /* ... of the next RDMA Read's first response */
	uint64_t read_first_frame; /* the frame of the last one's first response */
	/* iWARP */
	uint32_t seq[2];           /* next TCP sequence number of side d */
	uint32_t stream_base[2];   /* TCP SN of the first FPDU octet (markers) */
	uint32_t umsn[2][3];       /* DDP MSN per untagged queue, side d sends */
	bool markers, crc;
	int split;                 /* FPDU segmentation mode (iwarp.c) */
	uint32_t split_at;         /* bytes per TCP segment when split */
	bool tcp_open;
	uint16_t udp_sport;         /* RoCEv2 UDP source port (both sides) */
	/* frame numbers */
	uint64_t last_frame;       /* the last frame written for this conn */
};

void conn_init_roce(struct conn *c, struct capw *w, enum linkkind link,
		    enum netkind net, uint32_t mtu);
void conn_init_iwarp(struct conn *c, struct capw *w, enum linkkind link,
		     enum netkind net, bool markers, bool crc);

uint64_t ib_send(struct conn *c, int dir, const uint8_t *msg, size_t len,
		 uint32_t inv_rkey);
uint64_t ib_write(struct conn *c, int dir, uint32_t rkey, uint64_t va,
		  const uint8_t *data, size_t len);
uint64_t ib_read(struct conn *c, int dir, uint32_t rkey, uint64_t va,
		 const uint8_t *data, size_t len);
uint64_t ib_ack(struct conn *c, int dir);
/* One packet from dir: hdr = BTH + extended headers, then the payload. */
uint64_t ib_emit(struct conn *c, int dir, const uint8_t *hdr, size_t hlen,
		 const uint8_t *pay, size_t plen);
/* ib_cm.c: CM REQ, REP, RTU on QP1 (IBTA vol. 1 §12.6) before the traffic */
void ib_cm_connect(struct conn *c);

uint64_t iw_send(struct conn *c, int dir, const uint8_t *msg, size_t len,
		 uint32_t inv_stag);
uint64_t iw_write(struct conn *c, int dir, uint32_t stag, uint64_t to,
		  const uint8_t *data, size_t len);
uint64_t iw_read(struct conn *c, int dir, uint32_t stag, uint64_t to,
		 uint32_t lstag, uint64_t lto, const uint8_t *data, size_t len);
void iw_connect(struct conn *c);
void iw_terminate(struct conn *c, int dir, uint8_t layer_etype, uint8_t code);

#endif
