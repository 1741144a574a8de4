/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * capture.h - the capture pipeline's shared types, limits and layer entry
 * points (docs/capture.md): read -> link -> net -> ib | iwarp -> reasm ->
 * chunks -> conv -> msg (print, lint, stats).
 */
#ifndef RPCRDMA_CAPTURE_H
#define RPCRDMA_CAPTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "decode.h"

/* What every layer returns.  As in tcpdump, "the capture cut the bytes
 * short" (truncated) is kept apart from "the bytes are wrong" (invalid) and
 * from "not RPC-over-RDMA traffic" (not ours, silently skipped). */
enum cap_res { CAP_OK = 0, CAP_NOT_OURS, CAP_TRUNCATED, CAP_INVALID };

/* Fixed limits: state stays bounded whatever the capture holds.  The
 * table sizes can be set smaller at build time (the capture fuzz target
 * does, so that each input sets up quickly and reaches the limits). */
#ifndef CAP_MAX_CONVS
#define CAP_MAX_CONVS 4096u          /* open conversations */
#endif
#ifndef CAP_MAX_CALLS
#define CAP_MAX_CALLS 65536u         /* outstanding calls (all conversations) */
#endif
#ifndef CAP_MAX_SEGS
#define CAP_MAX_SEGS 65536u          /* outstanding advertised segments */
#endif
#define CAP_MAX_BUFFERED (16u << 20) /* reassembly and rebuild bytes */
#define CAP_MAX_SEND (1u << 20)      /* one reassembled Send */
#define CAP_REBUILD_MAX (256u << 10) /* one rebuilt RPC message */
#define CAP_RDREQ_MAX 32u            /* outstanding RDMA Reads per direction */
#define CAP_PSN_SEEN 1024u          /* request PSNs remembered per direction */
#define CAP_OOO_MAX 256u             /* out-of-order TCP segments per direction:
				      * a fast retransmit of the first segment of
				      * a scaled window (live siw captures hold 45) */

enum cap_transport { CAP_T_ROCEV2, CAP_T_ROCEV1, CAP_T_IB, CAP_T_IWARP };
const char *cap_transport_name(enum cap_transport t);

struct cap_frame {
	uint64_t num;                /* 1-based, as Wireshark counts */
	int64_t ts_sec;
	uint32_t ts_usec;
	const uint8_t *p;            /* captured bytes */
	uint32_t len;                /* captured length */
	uint32_t wire_len;           /* original length */
};

/* Addresses of one packet as the network layer saw them */
enum cap_family { CAP_AF_LID = 0, CAP_AF_INET = 4, CAP_AF_INET6 = 6 };
struct cap_addr {
	uint8_t family;              /* enum cap_family */
	uint8_t src[16], dst[16];    /* IPv4 in the first 4; LID in the first 2 */
	uint16_t sport, dport;       /* TCP/UDP */
};

struct cap_conv;
struct cap_state;

/* cap_read.c: a capture file; each of its frames goes to cap_frame_in(),
 * which returns false when no more frames are wanted (-c) */
int cap_read_file(struct cap_state *st, const char *path);
bool cap_frame_in(struct cap_state *st, int dlt, const struct cap_frame *f);

/* cap_link.c: one frame of link type `dlt` */
enum cap_res cap_link_frame(struct cap_state *st, int dlt,
			    const struct cap_frame *f);
bool cap_link_supported(int dlt);
extern const char cap_link_names[];

/* cap_net.c: from the ethertype on */
enum cap_res cap_net_ether(struct cap_state *st, const struct cap_frame *f,
			   uint16_t etype, const uint8_t *p, uint32_t len);

/* cap_ib.c: BTH and what follows; `icrc_hdr` .. `p` is the ICRC-covered
 * prefix (IP+UDP for RoCEv2, GRH for RoCEv1, LRH[+GRH] for IB). */
enum cap_res cap_ib_packet(struct cap_state *st, const struct cap_frame *f,
			   enum cap_transport t, const struct cap_addr *a,
			   const uint8_t *hdr, uint32_t hdr_len,
			   const uint8_t *p, uint32_t len);

/* cap_tcp.c: one TCP segment of a possible iWARP stream */
enum cap_res cap_tcp_segment(struct cap_state *st, const struct cap_frame *f,
			     const struct cap_addr *a, const uint8_t *tcp,
			     uint32_t len);

/* cap_iwarp.c: MPA stream bytes of one direction, in order */
struct cap_conv;
void cap_iwarp_stream(struct cap_state *st, const struct cap_frame *f,
		      struct cap_conv *c, int dir, const uint8_t *p,
		      uint32_t len);
bool cap_iwarp_plausible(const uint8_t *p, uint32_t len);

/* cap_crc.c */
uint32_t cap_crc32(uint32_t crc, const uint8_t *p, size_t n);   /* IB ICRC */
uint32_t cap_crc32c(uint32_t crc, const uint8_t *p, size_t n);  /* MPA */
uint16_t cap_crc16_vcrc(const uint8_t *p, size_t n);            /* IB VCRC */

/* cap_util.c: big-endian loads, address text, buffer budget, warnings */
static inline uint16_t cap_be16(const uint8_t *p)
{
	return (uint16_t)((unsigned)p[0] << 8 | p[1]);
}
static inline uint32_t cap_be24(const uint8_t *p)
{
	return (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
}
static inline uint32_t cap_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}
static inline uint64_t cap_be64(const uint8_t *p)
{
	return (uint64_t)cap_be32(p) << 32 | cap_be32(p + 4);
}
void cap_addr_text(char *buf, size_t cap, uint8_t family, const uint8_t *a,
		   uint16_t port, bool with_port);
void *cap_budget_alloc(struct cap_state *st, size_t n);
void cap_budget_free(struct cap_state *st, void *p, size_t n);
bool cap_budget_grow(struct cap_state *st, uint8_t **buf, uint32_t *cap,
		     uint32_t used, uint32_t need, uint32_t first);
void cap_warn_once(struct cap_state *st, unsigned which, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void cap_progress_clear(struct cap_state *st);
void cap_frame_error(struct cap_state *st, const struct cap_frame *f,
		     const char *fmt, ...) __attribute__((format(printf, 3, 4)));

enum cap_warn {
	CAP_W_CONVS, CAP_W_CALLS, CAP_W_SEGS, CAP_W_BUDGET, CAP_W_SEND_BIG,
	CAP_W_MPA_ASSUMED, CAP_W_OOO, CAP_W_COUNT
};

#endif
