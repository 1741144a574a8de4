/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * scenarios_iwarp.c - iWARP scenarios (RFC 5040/5041/5044) on TCP port
 * 20049: the TCP handshake, MPA Request/Reply, CRC on, Markers off or on;
 * Send and Send with Invalidate, RDMA Write, RDMA Read Request/Response,
 * and a Terminate before the FIN.  Variants: Markers, FPDUs split across
 * TCP segments, segments out of order plus a retransmission, a bad CRC.
 */
#include "scen.h"

static void traffic_iwarp(struct sess *s)
{
	ex_getattr3(s);
	ex_read3_chunk(s, 3000);        /* reply: Send with Invalidate */
	ex_write3_chunk(s, 3000);
	ex_long_call(s);
	ex_long_reply(s);
	ex_compound4(s, 0, 0, s->xid++);
}

static int iwarp(struct gen *g, bool markers, int split, uint32_t split_at)
{
	struct conn c;
	struct sess s;

	if (gen_open(g, FMT_PCAP, LINKTYPE_ETHERNET, 0))
		return -1;
	conn_init_iwarp(&c, &g->w, LK_ETH, NET_IPV4, markers, true);
	c.split = split;
	c.split_at = split_at;
	iw_connect(&c);
	sess_init(&s, &c, 1, 0x6b000001u);
	traffic_iwarp(&s);
	iw_terminate(&c, 0, 0x00, 0x00);   /* RDMAP layer, local: closing */
	return gen_close(g);
}

static int basic(struct gen *g)
{
	return iwarp(g, false, 0, 0);
}

static int markers(struct gen *g)
{
	return iwarp(g, true, 0, 0);
}

static int split(struct gen *g)
{
	return iwarp(g, false, 1, 300);
}

static int ooo(struct gen *g)
{
	return iwarp(g, false, 2, 400);
}

/* A 60 KiB NFS READ whose RDMA Write stream loses its first TCP segment:
 * the 59 segments after it arrive first, then the fast retransmit. */
static int window(struct gen *g)
{
	struct conn c;
	struct sess s;

	if (gen_open(g, FMT_PCAP, LINKTYPE_ETHERNET, 0))
		return -1;
	conn_init_iwarp(&c, &g->w, LK_ETH, NET_IPV4, false, true);
	iw_connect(&c);
	sess_init(&s, &c, 1, 0x6c000001u);
	ex_getattr3(&s);
	c.split = 3;
	ex_read3_chunk(&s, 60 * 1024);
	c.split = 0;
	ex_getattr3(&s);
	iw_terminate(&c, 0, 0x00, 0x00);
	return gen_close(g);
}

/* Sends larger than one DDP segment (here at most 256 payload octets, so
 * that Version One messages stay under their 1024-byte inline threshold):
 * each goes out as 2 to 4 untagged DDP segments of one MSN, with rising MO
 * and L on the last (RFC 5041 §5.3). */
static int multisend(struct gen *g)
{
	struct conn c;
	struct sess s;
	struct rpcrdma_hdr h;
	struct rpcrdma_segment segs[50];
	struct rpcrdma_write_chunk wc = { segs, 50 };
	struct xw x;
	uint32_t xid, i;

	if (gen_open(g, FMT_PCAP, LINKTYPE_ETHERNET, 0))
		return -1;
	conn_init_iwarp(&c, &g->w, LK_ETH, NET_IPV4, false, true);
	c.mtu = 256;
	iw_connect(&c);
	sess_init(&s, &c, 1, 0x6d000001u);
	ex_getattr3(&s);
	/* a 700-byte SYMLINK call, its short reply */
	xid = s.xid++;
	nfs3_symlink_call(&x, xid, 600);
	sess_hdr(&s, &h, xid, RDMA_MSG, RPCRDMA_CALL);
	sess_send(&s, 0, &h, x.b, x.len, 0);
	nfs3_symlink_reply(&x, xid);
	sess_hdr(&s, &h, xid, RDMA_MSG, RPCRDMA_REPLY);
	sess_send(&s, 1, &h, x.b, x.len, 0);
	/* a READ call whose header alone (a Write chunk of 50 segments, 836
	 * bytes) spans four segments; its NFS3ERR_IO reply returns them unused */
	xid = s.xid++;
	for (i = 0; i < 50; i++)
		segs[i] = sess_seg(&s, 4096);
	nfs3_read_call(&x, xid, 0, 4096);
	sess_hdr(&s, &h, xid, RDMA_MSG, RPCRDMA_CALL);
	h.writes = &wc;
	h.nwrites = 1;
	sess_send(&s, 0, &h, x.b, x.len, 0);
	nfs3_read_reply_err(&x, xid);
	for (i = 0; i < 50; i++)
		segs[i].rdma_length = 0;         /* unused (V1 4.4.6.2) */
	sess_hdr(&s, &h, xid, RDMA_MSG, RPCRDMA_REPLY);
	h.writes = &wc;
	h.nwrites = 1;
	sess_send(&s, 1, &h, x.b, x.len, 0);
	/* a READDIR reply of about 900 bytes, inline */
	xid = s.xid++;
	nfs3_readdir_call(&x, xid);
	sess_hdr(&s, &h, xid, RDMA_MSG, RPCRDMA_CALL);
	sess_send(&s, 0, &h, x.b, x.len, 0);
	nfs3_readdir_reply(&x, xid, 20);
	sess_hdr(&s, &h, xid, RDMA_MSG, RPCRDMA_REPLY);
	sess_send(&s, 1, &h, x.b, x.len, 0);
	ex_getattr3(&s);
	iw_terminate(&c, 0, 0x00, 0x00);
	return gen_close(g);
}

static int badcrc(struct gen *g)
{
	struct conn c;
	struct sess s;
	struct rpcrdma_hdr h;
	struct xw x;
	uint32_t xid;

	if (gen_open(g, FMT_PCAP, LINKTYPE_ETHERNET, 0))
		return -1;
	conn_init_iwarp(&c, &g->w, LK_ETH, NET_IPV4, false, true);
	iw_connect(&c);
	sess_init(&s, &c, 1, 0x6b000001u);
	ex_getattr3(&s);
	ex_read3_chunk(&s, 3000);
	/* the reply to the next call has a wrong MPA CRC: the client
	 * terminates the connection (RFC 5044 §8: LLP, MPA, CRC error) */
	xid = s.xid++;
	nfs3_getattr_call(&x, xid);
	sess_hdr(&s, &h, xid, RDMA_MSG, RPCRDMA_CALL);
	sess_send(&s, 0, &h, x.b, x.len, 0);
	nfs3_getattr_reply(&x, xid);
	sess_hdr(&s, &h, xid, RDMA_MSG, RPCRDMA_REPLY);
	c.bad_crc_next = true;
	gen_expect(g, sess_send(&s, 1, &h, x.b, x.len, 0), "crc-error");
	iw_terminate(&c, 0, 0x20, 0x02);
	return gen_close(g);
}

const struct scenario scenarios_iwarp[] = {
	{ "iwarp-basic", "iwarp-basic.pcap", basic,
	  "iWARP: TCP+MPA handshake, CRC, Send/Send-Inv, Write, Read, Terminate" },
	{ "iwarp-markers", "iwarp-markers.pcap", markers,
	  "iWARP with MPA Markers every 512 octets" },
	{ "iwarp-split", "iwarp-split.pcap", split,
	  "iWARP: the stream cut into 300-byte TCP segments" },
	{ "iwarp-ooo", "iwarp-ooo.pcap", ooo,
	  "iWARP: 400-byte segments, out of order, one retransmitted" },
	{ "iwarp-window", "iwarp-window.pcap", window,
	  "iWARP: a 60 KiB RDMA Write whose first TCP segment comes last" },
	{ "iwarp-multisend", "iwarp-multisend.pcap", multisend,
	  "iWARP: Sends of 2 to 4 DDP segments (long call, long header, long reply)" },
	{ "iwarp-badcrc", "iwarp-badcrc.pcap", badcrc,
	  "iWARP: one FPDU with a wrong CRC32c, then Terminate" },
	{ NULL, NULL, NULL, NULL },
};
