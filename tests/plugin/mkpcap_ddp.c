/* mkpcap_ddp.c - mkpcap --ddp: NFS replies whose READ data or READLINK path the server RDMA-Wrote into Write chunks (V1 4.4.6, RFC 8267), and two connections with the same handles, PSNs and XIDs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "roce.h"

/*
 * Every RPC message is encoded here from the XDR of RFC 1813 (NFSv3) and
 * RFC 8881 (NFSv4.1), reduced the way V1 4.4.6 says: the data item's length
 * word stays in the reply, its bytes (without XDR padding) go by RDMA Write
 * into the Write chunk the call advertised, and the reply's Write list
 * returns the chunk with the lengths actually written.  The test
 * (40-plugin.sh) finds each reply by its XID.
 */

struct xb { uint8_t b[2048]; size_t n; };

static void w32(struct xb *x, uint32_t v)
{
	put32(x->b + x->n, v);
	x->n += 4;
}

static void wbytes(struct xb *x, const void *p, size_t n)
{
	memcpy(x->b + x->n, p, n);
	memset(x->b + x->n + n, 0, (4 - n % 4) % 4);
	x->n += (n + 3) & ~(size_t)3;
}

static void wopaque(struct xb *x, const void *p, size_t n)
{
	w32(x, (uint32_t)n);
	wbytes(x, p, n);
}

static void fill(uint8_t *d, size_t n, const char *tag)
{
	size_t i, t = strlen(tag);

	for (i = 0; i < n; i++)
		d[i] = (uint8_t)tag[i % t];
}

/* The server RDMA-Writes n bytes into segment s: packets of at most 1024 */
static void rdma_write(struct out *o, const struct rpcrdma_segment *s,
		       const uint8_t *d, uint32_t n)
{
	uint8_t reth[16];
	uint32_t off = 0;

	reth_of(reth, s->rdma_handle, s->rdma_offset, n);
	if (n <= 1024) {
		packet(o, 1, WRITE_ONLY, reth, false, d, n);
		return;
	}
	packet(o, 1, WRITE_FIRST, reth, false, d, 1024);
	for (off = 1024; n - off > 1024; off += 1024)
		packet(o, 1, WRITE_MIDDLE, NULL, false, d + off, 1024);
	packet(o, 1, WRITE_LAST, NULL, false, d + off, n - off);
}

/* An RPC-over-RDMA header around an RPC message, in one Send */
static void send_rpc(struct out *o, int dir, struct rpcrdma_hdr *h,
		     const struct xb *rpc)
{
	uint8_t b[4096];

	send_msg(o, dir, b, build(b, sizeof b, h, rpc ? rpc->b : NULL,
				  rpc ? rpc->n : 0));
}

static void hdr(struct rpcrdma_hdr *h, uint32_t vers, uint32_t xid, int dir)
{
	memset(h, 0, sizeof(*h));
	h->rdma_xid = xid;
	h->rdma_vers = vers;
	h->rdma_credit = dir ? 64 : 128;
	h->rdma_proc = RDMA_MSG;
	h->direction = dir ? RPCRDMA_REPLY : RPCRDMA_CALL;
}

static void call3(struct xb *x, uint32_t xid, uint32_t proc)
{
	x->n = nfs_call(x->b, xid, proc, 12);   /* nfs_fh3 of 8 bytes */
	if (proc == 6) {                         /* READ3args: offset, count */
		w32(x, 0); w32(x, 0); w32(x, 65536);
	}
}

static void reply_hdr(struct xb *x, uint32_t xid)
{
	x->n = rpc_encode_accepted_reply(x->b, sizeof x->b, xid, RPC_SUCCESS);
}

enum { OP_GETATTR = 9, OP_PUTFH = 22, OP_READ = 25, OP_READLINK = 27,
       OP_SECINFO_NO_NAME = 52, OP_SEQUENCE = 53 };

/* COMPOUND4args, minor version 1, with these operations */
static void call4(struct xb *x, uint32_t xid, const uint32_t *ops, unsigned n)
{
	unsigned i;

	x->n = rpc_encode_call(x->b, sizeof x->b, xid, RPC_PROG_NFS, 4, 1);
	w32(x, 0); w32(x, 1); w32(x, n);         /* tag<>, minorversion, ops */
	for (i = 0; i < n; i++) {
		w32(x, ops[i]);
		switch (ops[i]) {
		case OP_SEQUENCE:    /* sessionid, seqid, slot, highest, cachethis */
			wbytes(x, "SESSION-ID-0001!", 16);
			w32(x, 7); w32(x, 0); w32(x, 0); w32(x, 0);
			break;
		case OP_PUTFH:
			wopaque(x, "FH000001", 8);
			break;
		case OP_READ:        /* stateid4, offset, count */
			w32(x, 1); wbytes(x, "STATEID-OTHR", 12);
			w32(x, 0); w32(x, 0); w32(x, 65536);
			break;
		case OP_GETATTR:     /* bitmap4: type, size */
			w32(x, 1); w32(x, 0x12);
			break;
		case OP_SECINFO_NO_NAME:   /* SECINFO_STYLE4_CURRENT_FH */
			w32(x, 0);
			break;
		default:
			break;
		}
	}
}

/* COMPOUND4res results; READ's and READLINK's data length is `len`, their
 * bytes reduced away */
static void reply4(struct xb *x, uint32_t xid, const uint32_t *ops, unsigned n,
		   uint32_t len)
{
	unsigned i;

	reply_hdr(x, xid);
	w32(x, 0); w32(x, 0); w32(x, n);         /* NFS4_OK, tag<>, results */
	for (i = 0; i < n; i++) {
		w32(x, ops[i]); w32(x, 0);       /* resop, NFS4_OK */
		switch (ops[i]) {
		case OP_SEQUENCE:    /* sessionid, seqid, slot, highest x2, flags */
			wbytes(x, "SESSION-ID-0001!", 16);
			w32(x, 7); w32(x, 0); w32(x, 29); w32(x, 29); w32(x, 0);
			break;
		case OP_READ:        /* eof, data<> */
			w32(x, 1); w32(x, len);
			break;
		case OP_READLINK:    /* linktext4 */
			w32(x, len);
			break;
		case OP_GETATTR:     /* fattr4: bitmap (type, size), attrlist4 */
			w32(x, 1); w32(x, 0x12);
			w32(x, 12); w32(x, 1); w32(x, 0); w32(x, len);
			break;
		case OP_SECINFO_NO_NAME:   /* SECINFO4resok: an empty list */
			w32(x, 0);
			break;
		default:
			break;
		}
	}
}

/* Call with one Write chunk of two segments, the server's Writes, reply.
 * `writes` false: the capture misses the Writes; `call` false: the call.
 * `word`: the length word the reply carries (normally len). */
struct ddp_case {
	uint32_t vers, xid, len, word;
	uint32_t handle;
	const char *tag;
	bool call, writes, long_reply;
};

static void one_case(struct out *o, const struct ddp_case *c,
		     const struct xb *call, void (*reply)(struct xb *,
		     const struct ddp_case *))
{
	static uint8_t data[8192];
	struct rpcrdma_segment seg[2] = {
		{ c->handle, 4096, 0x7f0000100000ull + (uint64_t)c->handle * 0x10000 },
		{ c->handle + 1, 4096, 0x7f0000200000ull + (uint64_t)c->handle * 0x10000 },
	};
	struct rpcrdma_segment rsg = { c->handle + 2, 1024, 0x7f0000300000ull };
	struct rpcrdma_write_chunk wc = { seg, 2 }, rc = { &rsg, 1 };
	struct rpcrdma_hdr h;
	struct xb rep;
	uint32_t first = c->len < 4096 ? c->len : 4096;

	fill(data, c->len, c->tag);
	hdr(&h, c->vers, c->xid, 0);
	h.writes = &wc;
	h.nwrites = 1;
	if (c->long_reply)
		h.reply = &rc;
	if (c->call)
		send_rpc(o, 0, &h, call);
	if (c->writes) {
		rdma_write(o, &seg[0], data, first);
		if (c->len > first)
			rdma_write(o, &seg[1], data + first, c->len - first);
	}
	seg[0].rdma_length = first;              /* lengths actually written */
	seg[1].rdma_length = c->len - first;
	reply(&rep, c);
	hdr(&h, c->vers, c->xid, 1);
	h.writes = &wc;
	h.nwrites = 1;
	if (c->long_reply) {                     /* reduced reply: reply chunk */
		uint8_t reth[16];

		reth_of(reth, rsg.rdma_handle, rsg.rdma_offset, (uint32_t)rep.n);
		packet(o, 1, WRITE_ONLY, reth, false, rep.b, rep.n);
		rsg.rdma_length = (uint32_t)rep.n;
		h.reply = &rc;
		h.rdma_proc = RDMA_NOMSG;
		send_rpc(o, 1, &h, NULL);
		return;
	}
	send_rpc(o, 1, &h, &rep);
}

/* READ3resok: status, post_op_attr FALSE, count, eof, data<> */
static void read3(struct xb *x, const struct ddp_case *c)
{
	reply_hdr(x, c->xid);
	w32(x, 0); w32(x, 0); w32(x, c->len); w32(x, 1); w32(x, c->word);
}

/* READLINK3resok: status, post_op_attr FALSE, nfspath3 */
static void readlink3(struct xb *x, const struct ddp_case *c)
{
	reply_hdr(x, c->xid);
	w32(x, 0); w32(x, 0); w32(x, c->word);
}

static const uint32_t seq_read[] = { OP_SEQUENCE, OP_PUTFH, OP_READ };
static const uint32_t seq_readlink[] = { OP_SEQUENCE, OP_PUTFH, OP_READLINK };
static const uint32_t read_getattr[] = { OP_PUTFH, OP_READ, OP_GETATTR };
static const uint32_t secinfo_read[] = { OP_PUTFH, OP_SECINFO_NO_NAME, OP_READ };

static void r4_seq_read(struct xb *x, const struct ddp_case *c)
{
	reply4(x, c->xid, seq_read, 3, c->word);
}

static void r4_seq_readlink(struct xb *x, const struct ddp_case *c)
{
	reply4(x, c->xid, seq_readlink, 3, c->word);
}

static void r4_read_getattr(struct xb *x, const struct ddp_case *c)
{
	reply4(x, c->xid, read_getattr, 3, c->word);
}

static void r4_secinfo_read(struct xb *x, const struct ddp_case *c)
{
	reply4(x, c->xid, secinfo_read, 3, c->word);
}

/* The same two connections: a two-packet Send on each, interleaved, with
 * equal PSNs (XIDs 0x6001, 0x6002); then a Long Call on each whose
 * Position Zero read chunk has the same handle and offset, read with equal
 * PSNs (XIDs 0x6003, 0x6004). */
static void two_conns_sends(struct out *o)
{
	static uint8_t b[2][4096];
	struct rpcrdma_read_segment pos0 = { 0, { 0x300, 0, 0x7f0000500000ull } };
	struct rpcrdma_hdr h;
	struct xb rpc[2];
	size_t n[2];
	uint8_t reth[16];
	unsigned k;

	for (k = 0; k < 2; k++) {
		hdr(&h, 2, 0x6001 + k, 0);
		rpc[k].n = nfs_call(rpc[k].b, 0x6001 + k, 1, 1500);
		n[k] = build(b[k], sizeof b[k], &h, rpc[k].b, rpc[k].n);
	}
	for (k = 0; k < 2; k++) {
		o->conn = k;
		packet(o, 0, SEND_FIRST, NULL, false, b[k], 1024);
	}
	for (k = 0; k < 2; k++) {
		o->conn = k;
		packet(o, 0, SEND_LAST, NULL, false, b[k] + 1024, n[k] - 1024);
		expect(o, b[k], n[k]);
	}
	for (k = 0; k < 2; k++) {              /* NOMSG, then the server reads */
		o->conn = k;
		rpc[k].n = nfs_call(rpc[k].b, 0x6003 + k, 1, 1200);
		pos0.rdma_target.rdma_length = (uint32_t)rpc[k].n;
		hdr(&h, 2, 0x6003 + k, 0);
		h.rdma_proc = RDMA2_NOMSG;
		h.reads = &pos0;
		h.nreads = 1;
		send_rpc(o, 0, &h, NULL);
	}
	reth_of(reth, 0x300, pos0.rdma_target.rdma_offset,
		pos0.rdma_target.rdma_length);
	for (k = 0; k < 2; k++) {
		o->conn = k;
		packet(o, 1, READ_REQUEST, reth, false, NULL, 0);
	}
	for (k = 0; k < 2; k++) {
		o->conn = k;
		packet(o, 0, READ_RESPONSE_ONLY, NULL, true, rpc[k].b, rpc[k].n);
	}
	o->conn = 0;
}

void ddp_scenarios(struct out *o)
{
	struct xb call;
	struct ddp_case c = { .call = true, .writes = true };

	/* V1 NFSv3 READ of 5093 bytes (3 pad bytes), Writes of 2+1 packets */
	c.vers = 1; c.xid = 0x5001; c.len = c.word = 5093; c.handle = 0x100;
	c.tag = "V1-NFS3-READ:";
	call3(&call, c.xid, 6);
	one_case(o, &c, &call, read3);
	/* V1 NFSv3 READLINK */
	c.xid = 0x5002; c.len = c.word = 25; c.handle = 0x110;
	c.tag = "/export/some/where/target";
	call3(&call, c.xid, 5);
	one_case(o, &c, &call, readlink3);
	/* V2 NFSv4.1 SEQUENCE PUTFH READ */
	c.vers = 2; c.xid = 0x5003; c.len = c.word = 6000; c.handle = 0x120;
	c.tag = "V2-NFS41-READ:";
	call4(&call, c.xid, seq_read, 3);
	one_case(o, &c, &call, r4_seq_read);
	/* V2 NFSv4.1 SEQUENCE PUTFH READLINK */
	c.xid = 0x5004; c.len = c.word = 10; c.handle = 0x130;
	c.tag = "../target2";
	call4(&call, c.xid, seq_readlink, 3);
	one_case(o, &c, &call, r4_seq_readlink);
	/* V2 NFSv4.1 PUTFH READ GETATTR: the data goes back mid-reply */
	c.xid = 0x5005; c.len = c.word = 333; c.handle = 0x140;
	c.tag = "V2-MIDDLE:";
	call4(&call, c.xid, read_getattr, 3);
	one_case(o, &c, &call, r4_read_getattr);
	/* V1 NFSv3 READ whose length word is not what the chunk holds */
	c.vers = 1; c.xid = 0x5006; c.len = 100; c.word = 96; c.handle = 0x150;
	c.tag = "MISMATCH:";
	call3(&call, c.xid, 6);
	one_case(o, &c, &call, read3);
	/* V1 NFSv4.1 with SECINFO_NO_NAME (layout not walked) before READ */
	c.xid = 0x5007; c.len = c.word = 200; c.handle = 0x160;
	c.tag = "UNKNOWN-OP:";
	call4(&call, c.xid, secinfo_read, 3);
	one_case(o, &c, &call, r4_secinfo_read);
	/* V1 NFSv3 READ whose call is not in the capture */
	c.xid = 0x5008; c.len = c.word = 64; c.handle = 0x170;
	c.tag = "NO-CALL:"; c.call = false;
	one_case(o, &c, &call, read3);
	/* V1 NFSv3 READ whose Writes are not in the capture */
	c.xid = 0x5009; c.len = c.word = 4100; c.handle = 0x180;
	c.tag = "NOT-CAPTURED:"; c.call = true; c.writes = false;
	call3(&call, c.xid, 6);
	one_case(o, &c, &call, read3);
	/* V2 NFSv3 READ, reduced reply in the reply chunk (RDMA_NOMSG) */
	c.vers = 2; c.xid = 0x500a; c.len = c.word = 1500; c.handle = 0x190;
	c.tag = "LONG-REPLY:"; c.writes = true; c.long_reply = true;
	call3(&call, c.xid, 6);
	one_case(o, &c, &call, read3);
	c.long_reply = false;

	/* two connections between the same hosts (QPs 0x11/0x12 and
	 * 0x111/0x112), the same XID, handles, offsets and PSNs, interleaved */
	{
		static uint8_t d0[3000], d1[3000];
		struct rpcrdma_segment s = { 0x200, 3000, 0x7f0000400000ull };
		struct rpcrdma_write_chunk wc = { &s, 1 };
		struct rpcrdma_hdr h;
		struct xb rep;
		uint8_t reth[16];
		unsigned k;

		fill(d0, sizeof d0, "CONNECTION-ZERO:");
		fill(d1, sizeof d1, "CONNECTION-ONE:");
		o->psn[1][0] = o->psn[0][0];
		o->psn[1][1] = o->psn[0][1];
		call3(&call, 0x500b, 6);
		for (k = 0; k < 2; k++) {
			o->conn = k;
			hdr(&h, 1, 0x500b, 0);
			h.writes = &wc;
			h.nwrites = 1;
			send_rpc(o, 0, &h, &call);
		}
		reth_of(reth, s.rdma_handle, s.rdma_offset, 3000);
		for (k = 0; k < 2; k++) {
			o->conn = k;
			packet(o, 1, WRITE_FIRST, reth, false, k ? d1 : d0, 1024);
		}
		for (k = 0; k < 2; k++) {
			o->conn = k;
			packet(o, 1, WRITE_MIDDLE, NULL, false, (k ? d1 : d0) + 1024, 1024);
		}
		for (k = 0; k < 2; k++) {
			o->conn = k;
			packet(o, 1, WRITE_LAST, NULL, false, (k ? d1 : d0) + 2048, 952);
		}
		c.xid = 0x500b; c.len = c.word = 3000;
		read3(&rep, &c);
		for (k = 0; k < 2; k++) {
			o->conn = k;
			hdr(&h, 1, 0x500b, 1);
			h.writes = &wc;
			h.nwrites = 1;
			send_rpc(o, 1, &h, &rep);
		}
		o->conn = 0;
	}
	two_conns_sends(o);
}
