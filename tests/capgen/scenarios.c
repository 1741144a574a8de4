/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * scenarios.c - the clean and transport-variant scenarios on RoCE and
 * native InfiniBand: Version One inline traffic, chunks (V1 §4.4), Sends
 * larger than the path MTU (IBTA §9.7.4 SEND FIRST/MIDDLE/LAST), Version
 * Two (V2 §4.2), bi-directional operation (BIDI §4), and every link type
 * the decoder reads (Ethernet, 802.1Q, SLL, SLL2, DLT 247, ERF), pcapng,
 * a bad ICRC, a cut file and snapped frames.
 */
#include <string.h>
#include "scen.h"

void traffic_basic(struct sess *s)
{
	/* the first call waits for the first credit grant */
	ex_getattr3(s);
	ex_compound4(s, 0, 0, s->xid++);
	ex_getattr3(s);
	ex_compound4(s, 0, 0, s->xid++);
	ex_getattr3(s);
}

void traffic_chunks(struct sess *s)
{
	ex_getattr3(s);
	ex_read3_chunk(s, 3000);
	ex_write3_chunk(s, 3000);
	ex_long_call(s);
	ex_long_reply(s);
}

static int roce(struct gen *g, enum capfmt fmt, uint32_t dlt,
		enum linkkind link, enum netkind net, uint32_t mtu,
		uint32_t vers, void (*traffic)(struct sess *))
{
	struct conn c;
	struct sess s;

	if (gen_open(g, fmt, dlt, 0))
		return -1;
	conn_init_roce(&c, &g->w, link, net, mtu);
	sess_init(&s, &c, vers, 0x5a000001u);
	traffic(&s);
	return gen_close(g);
}

static int basic(struct gen *g)
{
	return roce(g, FMT_PCAP, LINKTYPE_ETHERNET, LK_ETH, NET_IPV4, 1024, 1,
		    traffic_basic);
}

static int chunks(struct gen *g)
{
	return roce(g, FMT_PCAP, LINKTYPE_ETHERNET, LK_ETH, NET_IPV4, 1024, 1,
		    traffic_chunks);
}

static void traffic_multisend(struct sess *s)
{
	struct rpcrdma_hdr h;
	struct xw x;
	uint32_t xid;

	ex_getattr3(s);
	/* a 700-byte call and a ~900-byte reply, both inline (under the
	 * 1024-byte V1 threshold) but over the 256-byte path MTU */
	xid = s->xid++;
	nfs3_symlink_call(&x, xid, 600);
	sess_hdr(s, &h, xid, RDMA_MSG, RPCRDMA_CALL);
	sess_send(s, 0, &h, x.b, x.len, 0);
	nfs3_symlink_reply(&x, xid);
	sess_hdr(s, &h, xid, RDMA_MSG, RPCRDMA_REPLY);
	sess_send(s, 1, &h, x.b, x.len, 0);
	xid = s->xid++;
	nfs3_readdir_call(&x, xid);
	sess_hdr(s, &h, xid, RDMA_MSG, RPCRDMA_CALL);
	sess_send(s, 0, &h, x.b, x.len, 0);
	nfs3_readdir_reply(&x, xid, 22);
	sess_hdr(s, &h, xid, RDMA_MSG, RPCRDMA_REPLY);
	sess_send(s, 1, &h, x.b, x.len, 0);
	ex_getattr3(s);
}

static int multichunk(struct gen *g)
{
	return roce(g, FMT_PCAP, LINKTYPE_ETHERNET, LK_ETH, NET_IPV4, 1024, 1,
		    traffic_multichunk);
}

/* Two QP pairs between the same hosts, calls interleaved, equal XIDs on
 * both: a reader must keep XIDs, credits and chunks per connection. */
static int two_qps(struct gen *g)
{
	struct conn a, b;
	struct sess sa, sb;
	struct rpcrdma_hdr h;
	struct xw x;
	int i;

	if (gen_open(g, FMT_PCAP, LINKTYPE_ETHERNET, 0))
		return -1;
	conn_init_roce(&a, &g->w, LK_ETH, NET_IPV4, 1024);
	conn_init_roce(&b, &g->w, LK_ETH, NET_IPV4, 1024);
	b.qpn[0] = 0x000789;
	b.qpn[1] = 0x000abc;
	b.psn[0] = 0x20000;
	b.psn[1] = 0x90000;
	sess_init(&sa, &a, 1, 0x5a000001u);
	sess_init(&sb, &b, 1, 0x5a000001u);
	sb.handle = 0x2000c0d1u;
	sb.va = 0x00007f4b2d000000ull;
	ex_getattr3(&sa);
	ex_getattr3(&sb);
	for (i = 0; i < 3; i++) {
		uint32_t xa = sa.xid++, xb = sb.xid++;   /* equal values */

		nfs3_getattr_call(&x, xa);
		sess_hdr(&sa, &h, xa, RDMA_MSG, RPCRDMA_CALL);
		sess_send(&sa, 0, &h, x.b, x.len, 0);
		nfs4_compound_call(&x, xb, 0, 0);
		sess_hdr(&sb, &h, xb, RDMA_MSG, RPCRDMA_CALL);
		sess_send(&sb, 0, &h, x.b, x.len, 0);
		nfs4_compound_reply(&x, xb, 0, 0);
		sess_hdr(&sb, &h, xb, RDMA_MSG, RPCRDMA_REPLY);
		sess_send(&sb, 1, &h, x.b, x.len, 0);
		nfs3_getattr_reply(&x, xa);
		sess_hdr(&sa, &h, xa, RDMA_MSG, RPCRDMA_REPLY);
		sess_send(&sa, 1, &h, x.b, x.len, 0);
	}
	ex_read3_chunk(&sb, 2000);
	ex_read3_chunk(&sa, 3000);
	return gen_close(g);
}

static int multisend(struct gen *g)
{
	return roce(g, FMT_PCAP, LINKTYPE_ETHERNET, LK_ETH, NET_IPV4, 256, 1,
		    traffic_multisend);
}

static void traffic_v2(struct sess *s)
{
	struct rpcrdma_hdr h;
	static const uint8_t info[8] = { 0xc0, 0xff, 0xee, 0, 0, 0, 0, 1 };
	uint32_t xid;

	traffic_chunks(s);              /* RDMA2_MSG, RDMA2_NOMSG, chunks */
	/* RDMA2_OPTIONAL of a type the server does not know, answered with
	 * RDMA2_ERROR / RDMA2_ERR_INVAL_OPTION (V2 §4.3) */
	xid = s->xid++;
	sess_hdr(s, &h, xid, RDMA2_OPTIONAL, RPCRDMA_CALL);
	h.rdma_optdir = RPCRDMA_CALL;
	h.rdma_opttype = 0x00c0ffeeu;
	h.optinfo = info;
	h.optinfo_len = sizeof(info);
	sess_send(s, 0, &h, NULL, 0, 0);
	sess_hdr(s, &h, xid, RDMA2_ERROR, RPCRDMA_REPLY);
	h.rdma_err = RDMA2_ERR_INVAL_OPTION;
	sess_send(s, 1, &h, NULL, 0, 0);
	/* a backward-direction exchange: server calls, client replies */
	ex_compound4(s, 1, 1, 0x7b000001u);
	ex_getattr3(s);
}

static int v2(struct gen *g)
{
	return roce(g, FMT_PCAP, LINKTYPE_ETHERNET, LK_ETH, NET_IPV4, 1024, 2,
		    traffic_v2);
}

/* A peer on a later Version Two draft (issue 28, held-out style): the
 * layout of draft-ietf-nfsv4-rpcrdma-version-two-07 as the issue describes
 * it, {xid, vers 2, credit, htype} and ietf-07's header types (GRANT 5,
 * CONNPROP_FINAL 7, CALL_INLINE 10, REPLY_INLINE 13, ERROR 4 with code
 * 100).  Written by hand, not by libcodec (which decodes cel-01 only);
 * the bodies after the prefix are RPC messages or single words, not
 * ietf-07's XDR, which we do not have: only the prefix is tested. */
static void ietf07_msg(struct sess *s, int dir, uint32_t xid, uint32_t htype,
		       const struct xw *body)
{
	uint8_t b[1024];
	size_t n = 16;

	put32(b, xid);
	put32(b + 4, 2);
	put32(b + 8, s->credits);
	put32(b + 12, htype);
	if (body && body->len <= sizeof(b) - 16) {
		memcpy(b + 16, body->b, body->len);
		n += body->len;
	}
	sess_xmit(s, dir, b, n, 0);
}

static void traffic_ietf07(struct sess *s)
{
	struct xw x;
	uint32_t xid;

	x.len = 0;
	xw_u32(&x, 6);                  /* CONNPROP_FINAL: a property count */
	ietf07_msg(s, 0, 0, 7, &x);
	x.len = 0;
	xw_u32(&x, 32);                 /* GRANT: credits */
	ietf07_msg(s, 1, 0, 5, &x);
	for (int i = 0; i < 3; i++) {   /* CALL_INLINE, REPLY_INLINE */
		xid = s->xid++;
		nfs3_getattr_call(&x, xid);
		ietf07_msg(s, 0, xid, 10, &x);
		nfs3_getattr_reply(&x, xid);
		ietf07_msg(s, 1, xid, 13, &x);
	}
	xid = s->xid++;                 /* an ERROR with ietf-07's code 100 */
	nfs3_getattr_call(&x, xid);
	ietf07_msg(s, 0, xid, 10, &x);
	x.len = 0;
	xw_u32(&x, 100);
	ietf07_msg(s, 1, xid, 4, &x);
}

static int v2_ietf07(struct gen *g)
{
	return roce(g, FMT_PCAP, LINKTYPE_ETHERNET, LK_ETH, NET_IPV4, 1024, 2,
		    traffic_ietf07);
}

static void traffic_bidir(struct sess *s)
{
	uint32_t xid;

	ex_compound4(s, 0, 1, s->xid++);
	/* the same XID in both directions: a forward call and a backward
	 * call may carry equal XIDs (BIDI §4.2: they are separate streams) */
	xid = s->xid++;
	ex_compound4(s, 0, 1, xid);
	ex_compound4(s, 1, 1, xid);
	ex_compound4(s, 1, 1, 0x7b000002u);
	ex_compound4(s, 0, 1, s->xid++);
}

static int bidir(struct gen *g)
{
	return roce(g, FMT_PCAP, LINKTYPE_ETHERNET, LK_ETH, NET_IPV4, 1024, 1,
		    traffic_bidir);
}

static int vlan(struct gen *g)
{
	return roce(g, FMT_PCAP, LINKTYPE_ETHERNET, LK_VLAN, NET_IPV4, 1024, 1,
		    traffic_chunks);
}

static int ipv6(struct gen *g)
{
	return roce(g, FMT_PCAP, LINKTYPE_ETHERNET, LK_ETH, NET_IPV6, 1024, 1,
		    traffic_chunks);
}

static int pcapng(struct gen *g)
{
	return roce(g, FMT_PCAPNG, LINKTYPE_ETHERNET, LK_ETH, NET_IPV4, 1024, 1,
		    traffic_chunks);
}

static int badcrc(struct gen *g)
{
	struct conn c;
	struct sess s;

	if (gen_open(g, FMT_PCAP, LINKTYPE_ETHERNET, 0))
		return -1;
	conn_init_roce(&c, &g->w, LK_ETH, NET_IPV4, 1024);
	sess_init(&s, &c, 1, 0x5a000001u);
	ex_getattr3(&s);
	ex_getattr3(&s);
	/* the next reply goes out with a wrong ICRC: the client drops it
	 * without an ACK and the server retransmits it (same PSN) */
	{
		struct rpcrdma_hdr h;
		struct xw x;
		uint32_t xid = s.xid++;

		nfs3_getattr_call(&x, xid);
		sess_hdr(&s, &h, xid, RDMA_MSG, RPCRDMA_CALL);
		sess_send(&s, 0, &h, x.b, x.len, 0);
		nfs3_getattr_reply(&x, xid);
		sess_hdr(&s, &h, xid, RDMA_MSG, RPCRDMA_REPLY);
		c.bad_crc_next = true;
		gen_expect(g, sess_send(&s, 1, &h, x.b, x.len, 0), "crc-error");
		sess_send(&s, 1, &h, x.b, x.len, 0);
	}
	ex_getattr3(&s);
	return gen_close(g);
}

/* A long call (RDMA_NOMSG, position-zero read chunk) that the server
 * pulls with two RDMA Reads, the first 1024 bytes and the rest: the first
 * one's response corrupt (the capture lost it), then the reply.  The
 * call's RPC message was never seen whole: no RPC message and no false
 * xid-mismatch from the bytes that are missing (they once read as heap
 * garbage) */
static int read_partial(struct gen *g)
{
	struct conn c;
	struct sess s;
	struct rpcrdma_hdr h;
	struct rpcrdma_read_segment rs;
	struct rpcrdma_segment head, rest;
	struct xw x;
	uint32_t xid;

	if (gen_open(g, FMT_PCAP, LINKTYPE_ETHERNET, 0))
		return -1;
	conn_init_roce(&c, &g->w, LK_ETH, NET_IPV4, 1024);
	sess_init(&s, &c, 1, 0x5a000001u);
	ex_getattr3(&s);
	xid = s.xid++;
	nfs3_symlink_call(&x, xid, 1500);
	rs.rdma_position = 0;
	rs.rdma_target = sess_seg(&s, (uint32_t)x.len);
	sess_hdr(&s, &h, xid, RDMA_NOMSG, RPCRDMA_CALL);
	h.reads = &rs;
	h.nreads = 1;
	sess_send(&s, 0, &h, NULL, 0, 0);
	head = rest = rs.rdma_target;
	head.rdma_length = 1024;
	rest.rdma_length -= 1024;
	rest.rdma_offset += 1024;
	c.bad_read_first = true;
	sess_rdma_read(&s, 1, &head, x.b, 1024);
	gen_expect(g, c.read_first_frame, "crc-error");
	sess_rdma_read(&s, 1, &rest, x.b + 1024, x.len - 1024);
	nfs3_symlink_reply(&x, xid);
	sess_hdr(&s, &h, xid, RDMA_MSG, RPCRDMA_REPLY);
	sess_send(&s, 1, &h, x.b, x.len, 0);
	ex_getattr3(&s);
	return gen_close(g);
}

static int truncated(struct gen *g)
{
	struct conn c;
	struct sess s;

	if (gen_open(g, FMT_PCAP, LINKTYPE_ETHERNET, 0))
		return -1;
	g->w.cut_at = 13;               /* the reply of the third call */
	g->w.cut_len = 16 + 60;         /* record header + 60 bytes */
	conn_init_roce(&c, &g->w, LK_ETH, NET_IPV4, 1024);
	sess_init(&s, &c, 1, 0x5a000001u);
	traffic_basic(&s);
	return gen_close(g);
}

static int snaplen(struct gen *g)
{
	struct conn c;
	struct sess s;

	if (gen_open(g, FMT_PCAP, LINKTYPE_ETHERNET, 128))
		return -1;
	conn_init_roce(&c, &g->w, LK_ETH, NET_IPV4, 1024);
	sess_init(&s, &c, 1, 0x5a000001u);
	traffic_basic(&s);
	return gen_close(g);
}

static int rocev1(struct gen *g)
{
	return roce(g, FMT_PCAP, LINKTYPE_ETHERNET, LK_ETH, NET_GRH, 1024, 1,
		    traffic_chunks);
}

static int ib247(struct gen *g)
{
	return roce(g, FMT_PCAP, LINKTYPE_INFINIBAND, LK_IB, NET_LRH, 1024, 1,
		    traffic_chunks);
}

static int iberf(struct gen *g)
{
	return roce(g, FMT_PCAP, LINKTYPE_ERF, LK_ERF, NET_LRH, 1024, 1,
		    traffic_chunks);
}

/* routed native IB (LNH = IBA global, a GRH), in ERF records so that
 * tshark reads them too */
static int ibgrh(struct gen *g)
{
	return roce(g, FMT_PCAP, LINKTYPE_ERF, LK_ERF, NET_LRH_GRH, 1024, 1,
		    traffic_chunks);
}

static int cm(struct gen *g)
{
	struct conn c;
	struct sess s;

	if (gen_open(g, FMT_PCAP, LINKTYPE_ETHERNET, 0))
		return -1;
	conn_init_roce(&c, &g->w, LK_ETH, NET_IPV4, 1024);
	ib_cm_connect(&c);
	sess_init(&s, &c, 1, 0x5a000001u);
	traffic_chunks(&s);
	return gen_close(g);
}

static int sll(struct gen *g)
{
	return roce(g, FMT_PCAP, LINKTYPE_LINUX_SLL, LK_SLL, NET_IPV4, 1024, 1,
		    traffic_chunks);
}

static int sll2(struct gen *g)
{
	return roce(g, FMT_PCAP, LINKTYPE_LINUX_SLL2, LK_SLL2, NET_IPV4, 1024, 1,
		    traffic_chunks);
}

const struct scenario scenarios_transport[] = {
	{ "rocev2-v1-basic", "rocev2-v1-basic.pcap", basic,
	  "RoCEv2/IPv4: NFSv3 GETATTR, NFSv4.0 COMPOUND, inline, SEND ONLY + ACK" },
	{ "rocev2-v1-chunks", "rocev2-v1-chunks.pcap", chunks,
	  "write chunk (READ), read chunk (WRITE), long call, long reply" },
	{ "rocev2-v1-multichunk", "rocev2-v1-multichunk.pcap", multichunk,
	  "chunks of two segments: write chunk, read chunk, reply chunk" },
	{ "rocev2-two-qps", "rocev2-two-qps.pcap", two_qps,
	  "two QP pairs, interleaved calls with equal XIDs on both" },
	{ "rocev2-v1-multisend", "rocev2-v1-multisend.pcap", multisend,
	  "path MTU 256: SEND FIRST/MIDDLE/LAST" },
	{ "rocev2-v2", "rocev2-v2.pcap", v2,
	  "Version Two: MSG, NOMSG, chunks, OPTIONAL + ERROR, backward call" },
	{ "rocev2-v2-ietf07", "rocev2-v2-ietf07.pcap", v2_ietf07,
	  "a later Version Two draft's layout (ietf-07 header types): named, not decoded" },
	{ "rocev2-bidir", "rocev2-bidir.pcap", bidir,
	  "NFSv4.1 forward + CB_COMPOUND backward, one XID both ways" },
	{ "rocev2-vlan", "rocev2-vlan.pcap", vlan, "802.1Q VLAN 100, chunks" },
	{ "rocev2-ipv6", "rocev2-ipv6.pcap", ipv6, "RoCEv2 over IPv6, chunks" },
	{ "rocev2-pcapng", "rocev2-pcapng.pcapng", pcapng, "pcapng, chunks" },
	{ "rocev2-badcrc", "rocev2-badcrc.pcap", badcrc,
	  "one Send with a wrong ICRC" },
	{ "rocev2-read-partial", "rocev2-read-partial.pcap", read_partial,
	  "a long call read in two RDMA Reads, the first one's response lost" },
	{ "rocev2-truncated", "rocev2-truncated.pcap", truncated,
	  "file cut in the middle of frame 13" },
	{ "rocev2-snaplen", "rocev2-snaplen.pcap", snaplen,
	  "snaplen 128: long frames have caplen < len" },
	{ "rocev1", "rocev1.pcap", rocev1, "RoCEv1: ethertype 0x8915 + GRH, chunks" },
	{ "ib-247", "ib-247.pcap", ib247,
	  "DLT_INFINIBAND: LRH, ICRC, VCRC, chunks" },
	{ "ib-erf", "ib-erf.pcap", iberf,
	  "DLT_ERF type 21 (InfiniBand) records, chunks" },
	{ "ib-grh", "ib-grh.pcap", ibgrh,
	  "routed InfiniBand: LRH (LNH global, VL 2, SL 5) + GRH (traffic class, flow label, hop limit set) in ERF records, chunks" },
	{ "rocev2-cm", "rocev2-cm.pcap", cm,
	  "CM REQ/REP/RTU on QP1 (UD), then the chunks traffic" },
	{ "sll", "sll.pcap", sll, "Linux cooked v1 (DLT 113), chunks" },
	{ "sll2", "sll2.pcap", sll2, "Linux cooked v2 (DLT 276), chunks" },
	{ NULL, NULL, NULL, NULL },
};
