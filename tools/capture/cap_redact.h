/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cap_redact.h - rpcrdma-decode --redact's parts (docs/capture.md,
 * "Redaction"; man rpcrdma-decode, REDACTION).  The capture is read whole
 * into memory and changed in place, then written with the same file format
 * and link types:
 *
 *   cap_redact.c       the file (pcap, pcapng records), link, IP, UDP, TCP;
 *                      other traffic's payload zeroed; the checksums
 *                      written anew at the end (rdx_fix)
 *   cap_redact_rdma.c  IB/RoCE BTH and iWARP MPA/DDP/RDMAP: Sends put
 *                      together, RDMA data zeroed unless it carries an RPC
 *                      message (reply chunk, position-zero read chunk)
 *   cap_redact_rpc.c   one message: transport header kept, the RPC header
 *                      kept but its credentials, NFS arguments walked
 *                      (tools/common/nfs4_ops.c's forms) with only what
 *                      is structure kept, handles and names replaced
 *   cap_redact_map.c   the keyed hash (SipHash-2-4) and name-N tables
 */
#ifndef RPCRDMA_CAP_REDACT_H
#define RPCRDMA_CAP_REDACT_H

#include <stdbool.h>
#include <stdint.h>
#include "capture.h"

struct rdx;
struct rdx_map;
struct rdx_rdma;

/* A byte range of the file in memory: one piece of a message or FPDU */
struct rdx_piece {
	uint8_t *p;
	uint32_t len;
	uint64_t pos;                /* where it goes in what it is part of */
};

/* What the run counts (printed on stderr at the end) */
struct rdx_counts {
	uint64_t frames, sends, rpc_chunks, rdma_zeroed, other_zeroed;
	uint64_t unparsed;           /* frames or messages whose payload was
				      * zeroed whole: could not be parsed */
	uint64_t names, handles, crcs, crcs_bad_kept, addresses;
	uint64_t addr_full;          /* addresses past a full table */
	uint64_t gaps;               /* iWARP: TCP gaps never filled, gone
				      * past at the next FPDU boundary */
};

/* ---- cap_redact_fix.c: checksums written once every byte is final,
 * in the order they were noted (inner before outer); each only when it
 * was right in the original (checked when noted) */
enum rdx_fix_kind { FIX_ICRC, FIX_VCRC, FIX_MPA, FIX_L4, FIX_IP4 };
struct rdx_fix {
	uint8_t kind, t;             /* enum rdx_fix_kind, cap_transport */
	bool le;                     /* ICRC stored little-endian */
	uint8_t *a, *b;              /* ICRC: headers, packet; VCRC: LRH;
				      * L4: IP header, TCP/UDP; IP4 header */
	uint32_t alen, blen;
	uint32_t pc, npc;            /* MPA: its pieces in rdx.fpc */
	uint8_t proto;               /* L4: 6 TCP, 17 UDP */
};
#define RDX_FPDU_PIECES 8u

/* the run */
#ifndef CAP_FUZZ_CRC
#define RDX_CALLS 65536u
#define RDX_MAX_SEND CAP_MAX_SEND    /* the largest message put together */
#else                                /* the fuzz build: small tables (a
				      * 1 MiB buffer cost ASan most of a run) */
#define RDX_CALLS 256u
#define RDX_MAX_SEND 16384u
#endif
struct rdx_call { uint32_t xid, prog, vers, proc; bool used; };
struct rdx {
	struct rdx_counts n;
	struct rdx_map *map;
	struct rdx_call *calls;      /* RDX_CALLS, by xid, for their replies */
	uint8_t *orig;               /* RDX_MAX_SEND: a message copied aside */
	uint8_t *scratch;            /* CAP_CRCBUF */
	struct rdx_rdma *rdma;
	struct rdx_fix *fix;
	size_t nfix, capfix;
	struct rdx_piece *fpc;
	size_t nfpc, capfpc;
	bool oom;
	bool keys;                   /* --redact=keys */
	bool addresses;              /* --redact=addresses */
	uint16_t roce_port;
};
static inline struct rdx_counts *rdx_counts(struct rdx *x) { return &x->n; }
static inline struct rdx_map *rdx_map(struct rdx *x) { return x->map; }
static inline struct rdx_call *rdx_calls(struct rdx *x) { return x->calls; }
static inline uint8_t *rdx_orig(struct rdx *x) { return x->orig; }

void rdx_fix_icrc(struct rdx *x, enum cap_transport t, uint8_t *hdr,
		  uint32_t hdr_len, uint8_t *pkt, uint32_t len);
void rdx_fix_vcrc(struct rdx *x, uint8_t *lrh, uint32_t pktlen);
/* an FPDU in up to RDX_FPDU_PIECES pieces; its CRC the last 4 bytes */
void rdx_fix_mpa(struct rdx *x, const struct rdx_piece *pc, uint32_t n);
/* TCP or UDP over IPv4 or IPv6 (`ip` its header) */
void rdx_fix_l4(struct rdx *x, uint8_t *ip, uint32_t iplen, uint8_t proto,
		uint8_t *l4, uint32_t l4len);
void rdx_fix_ip4(struct rdx *x, uint8_t *ip, uint32_t iplen);
void rdx_fix_all(struct rdx *x);

/* ---- cap_redact.c: --redact=addresses over bytes that may quote an
 * address already replaced (CM MADs) */
void rdx_addr_scrub(struct rdx *x, uint8_t *p, uint32_t n);

/* ---- cap_redact_rdma.c */
struct rdx_rdma;
struct rdx_rdma *rdx_rdma_new(void);
void rdx_rdma_free(struct rdx *x, struct rdx_rdma *r);  /* flushes first */
/* a BTH and what follows (`len` to the ICRC); `src`/`dst` 16 bytes */
void rdx_ib_packet(struct rdx *x, struct rdx_rdma *r, const uint8_t *src,
		   const uint8_t *dst, uint8_t *pkt, uint32_t len);
/* one TCP segment's payload; true when it is (or may be) iWARP */
void rdx_tcp_payload(struct rdx *x, struct rdx_rdma *r, const uint8_t *src,
		     const uint8_t *dst, uint16_t sport, uint16_t dport,
		     uint32_t seq, uint8_t *p, uint32_t len);

/* ---- shared by cap_redact_rdma.c and cap_redact_iwarp.c */
struct rdx_pcs {                     /* a message's pieces */
	struct rdx_piece *v;
	uint32_t n, cap;
	uint64_t end;                /* the largest pos + len */
	bool on, over;               /* gathering; grew past its limit */
};
/* One receiving side: RoCE (destination address, QP), iWARP (a TCP
 * direction) */
struct rdx_stream {
	bool used;
	uint8_t key[40];
	uint8_t src[16], dst[16];
	struct rdx_pcs send;         /* a Send being put together */
	/* RDMA data being moved (RoCE Write, Read Response) */
	bool data_on;
	uint8_t adv[16];
	uint32_t handle;
	uint64_t va;
	/* iWARP */
	bool tcp_on, lost, handshake_done, crc_known, crc, markers, not_iwarp;
	uint32_t next_seq, msn;
	uint32_t skip;               /* after a gap: bytes before the next
				      * FPDU boundary (zeroed) */
	struct rdx_piece *ooo;       /* segments ahead of next_seq (pos: seq) */
	uint32_t nooo;
	struct rdx_piece fp[RDX_FPDU_PIECES];   /* an FPDU being gathered */
	uint32_t nfp, fp_have, fp_want;
	uint8_t fp_len[2];
};
struct rdx_stream *rdx_stream_get(struct rdx_rdma *r, const uint8_t *src,
				  const uint8_t *dst, const uint8_t key[40]);
void rdx_pcs_add(struct rdx *x, struct rdx_pcs *pc, uint8_t *p, uint32_t n,
		 uint64_t pos);
void rdx_pcs_zero(struct rdx *x, struct rdx_pcs *pc);
/* a Send whose pieces are all there */
void rdx_send_done(struct rdx *x, struct rdx_rdma *r, struct rdx_stream *s);
/* RDMA data for (advertiser, handle) at va: zeroed or gathered as RPC */
void rdx_data(struct rdx *x, struct rdx_rdma *r, const uint8_t *adv,
	      uint32_t handle, uint64_t va, uint8_t *p, uint32_t n);
/* RDMA Read Requests: remembered, found by their responses */
struct rdx_rdreq {
	bool used;
	uint8_t req[16], adv[16];    /* the requester; the memory's owner */
	uint32_t psn, sink;          /* RoCE: PSN; iWARP: sink STag */
	uint64_t sink_to;
	uint32_t handle;
	uint64_t va;
};
void rdx_rdreq_add(struct rdx_rdma *r, const struct rdx_rdreq *q);
/* the request whose response this is: RoCE by PSN (iwarp false), iWARP by
 * sink STag */
const struct rdx_rdreq *rdx_rdreq_find(const struct rdx_rdma *r,
				       const uint8_t *req, bool iwarp,
				       uint32_t psn_or_sink);

#define RDX_OOO_MAX 256u             /* segments held per TCP direction */
/* an FPDU never finished, segments held: their bytes zeroed */
void rdx_fpdu_drop(struct rdx *x, struct rdx_stream *s);
/* cap_redact_iwarp.c: at the end, segments still held behind a gap that
 * never filled are gone through from the next FPDU boundary */
void rdx_tcp_end(struct rdx *x, struct rdx_rdma *r, struct rdx_stream *s);

/* ---- cap_redact_rpc.c: one Send's bytes, changed in place */
struct rdx_adv {                     /* an advertised segment */
	uint32_t xid, handle, length;
	uint64_t offset;
	uint64_t pos;                /* where it starts in the RPC message
				      * its chunk carries */
	bool rpc;                    /* reply chunk or position-zero read
				      * chunk: RDMA data that is RPC */
};
struct rdx_sent {                    /* what the Send said */
	bool valid, reply;
	uint32_t xid;
	uint32_t nadv;
	struct rdx_adv adv[64];      /* the first 64 segments advertised */
	uint32_t nrpos;
	uint32_t rpos[8];            /* read chunks' positions past zero */
};
void rdx_send(struct rdx *x, uint8_t *m, uint32_t len, struct rdx_sent *out);
/* an RPC message carried in chunks */
void rdx_rpc(struct rdx *x, uint8_t *m, uint32_t len);

/* ---- cap_redact_map.c */
struct rdx_map *rdx_map_new(const uint8_t key[16]);
void rdx_map_free(struct rdx_map *m);
uint64_t rdx_hash(const struct rdx_map *m, uint32_t domain, const uint8_t *p,
		  uint32_t len);
/* p[len] replaced by len bytes of keyed hash (file handles, stateids) */
void rdx_hash_bytes(const struct rdx_map *m, uint8_t *p, uint32_t len);
/* p[len] (a name) replaced by "PREFIX-N" of the same length */
void rdx_name(struct rdx_map *m, const char *prefix, uint8_t *p, uint32_t len);
uint32_t rdx_id(const struct rdx_map *m, uint32_t id);   /* uid, gid */
uint32_t rdx_handle(const struct rdx_map *m, uint32_t h);
uint64_t rdx_offset(const struct rdx_map *m, uint32_t h, uint64_t va);
/* --redact=addresses: the replacement of an IPv4 (len 4) or IPv6 (16)
 * address in out[len]; 0 kept as it is (0.0.0.0, broadcast, ::, ::1,
 * ff0X::1/2), 1 replaced, -1 out of memory */
int rdx_addr(struct rdx_map *m, const uint8_t *a, uint32_t len,
	     uint8_t out[16]);
/* an address already replaced: its replacement (no new entry) */
bool rdx_addr_find(struct rdx_map *m, const uint8_t *a, uint32_t len,
		   uint8_t out[16]);
uint64_t rdx_addr_full(const struct rdx_map *m);  /* past a full table */
/* --redact=keys: a handle at p[0..4) and the address under it at
 * p[off..off+8) replaced (off < 0: no address) */
void rdx_remap(struct rdx *x, uint8_t *p, int off);

#endif
