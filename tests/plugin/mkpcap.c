/* mkpcap.c - writes the plugin's RoCEv2 test capture (v1, v2, chunks, RDMA data, planted faults) and its expected decode. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rpcrdma/codec.h>
#include <rpcrdma/rpc.h>

/* IB BTH opcodes (RC) */
enum {
	SEND_FIRST = 0x00, SEND_LAST = 0x02, SEND_ONLY = 0x04,
	WRITE_ONLY = 0x0a, READ_REQUEST = 0x0c, READ_RESPONSE_ONLY = 0x10,
};

struct out {
	FILE *pcap, *expect;
	uint32_t frame;
	uint32_t psn[2];           /* per direction: 0 client->server */
	uint32_t other_qp;         /* nonzero: send to this QP instead */
};

static void put16(uint8_t *p, uint16_t v) { p[0] = v >> 8; p[1] = v & 0xff; }
static void put32(uint8_t *p, uint32_t v)
{
	put16(p, v >> 16);
	put16(p + 2, v & 0xffff);
}
static void put64(uint8_t *p, uint64_t v)
{
	put32(p, (uint32_t)(v >> 32));
	put32(p + 4, (uint32_t)v);
}
static void le32(uint8_t *p, uint32_t v)
{
	p[0] = v & 0xff; p[1] = (v >> 8) & 0xff;
	p[2] = (v >> 16) & 0xff; p[3] = v >> 24;
}

static uint16_t ip_csum(const uint8_t *p, size_t n)
{
	uint32_t s = 0;
	size_t i;

	for (i = 0; i + 1 < n; i += 2)
		s += (uint32_t)(p[i] << 8 | p[i + 1]);
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return (uint16_t)~s;
}

/* CRC-32 (IEEE, reflected), no final inversion */
static uint32_t crc32_le(uint32_t crc, const uint8_t *p, size_t n)
{
	int k;

	while (n--) {
		crc ^= *p++;
		for (k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1)));
	}
	return crc;
}

/* RoCEv2 ICRC (IBTA Annex A17.3.3): over a masked LRH (8 x 0xff), the IPv4
 * and UDP headers with TOS, TTL and both checksums all ones, the BTH with
 * its reserved byte all ones, then the rest of the packet. */
static void icrc(uint8_t *ip, size_t len_from_ip)
{
	static const uint8_t ones[8] = { 0xff, 0xff, 0xff, 0xff,
					 0xff, 0xff, 0xff, 0xff };
	uint8_t ph[20 + 8 + 12];
	uint32_t crc;
	size_t n = len_from_ip - 4;

	memcpy(ph, ip, sizeof ph);
	ph[1] = 0xff;                  /* TOS */
	ph[8] = 0xff;                  /* TTL */
	ph[10] = ph[11] = 0xff;        /* IP checksum */
	ph[26] = ph[27] = 0xff;        /* UDP checksum */
	ph[32] = 0xff;                 /* BTH resv8a */
	crc = crc32_le(0xffffffffu, ones, sizeof ones);
	crc = crc32_le(crc, ph, sizeof ph);
	crc = crc32_le(crc, ip + sizeof ph, n - sizeof ph);
	le32(ip + n, ~crc);
}

/* One RoCEv2 packet: Ethernet, IPv4, UDP 4791, BTH [, RETH] [, AETH],
 * payload, ICRC (not checked by Wireshark by default). */
static void packet(struct out *o, int dir, uint8_t opcode, const uint8_t *reth,
		   bool aeth, const uint8_t *pl, size_t n)
{
	static uint8_t f[9000];
	uint8_t rec[16];
	size_t ext = (reth ? 16 : 0) + (aeth ? 4 : 0), pad = (4 - n % 4) % 4;
	size_t udp_len = 8 + 12 + ext + n + pad + 4, ip_len = 20 + udp_len;
	size_t len = 14 + ip_len, off;
	uint32_t psn;

	if (opcode == READ_RESPONSE_ONLY)   /* answers the request's PSN */
		psn = o->psn[!dir] - 1;
	else
		psn = o->psn[dir]++;
	memset(f, 0, len);
	memcpy(f, dir ? "\x02\0\0\0\0\x01" : "\x02\0\0\0\0\x02", 6);
	memcpy(f + 6, dir ? "\x02\0\0\0\0\x02" : "\x02\0\0\0\0\x01", 6);
	put16(f + 12, 0x0800);
	off = 14;
	f[off] = 0x45;
	put16(f + off + 2, (uint16_t)ip_len);
	put16(f + off + 6, 0x4000);
	f[off + 8] = 64;
	f[off + 9] = 17;
	memcpy(f + off + 12, dir ? "\x0a\0\0\x02" : "\x0a\0\0\x01", 4);
	memcpy(f + off + 16, dir ? "\x0a\0\0\x01" : "\x0a\0\0\x02", 4);
	put16(f + off + 10, ip_csum(f + off, 20));
	off += 20;
	put16(f + off, dir ? 0xc001 : 0xc002);
	put16(f + off + 2, 4791);
	put16(f + off + 4, (uint16_t)udp_len);
	off += 8;
	f[off] = opcode;
	f[off + 1] = (uint8_t)(pad << 4);                  /* pad count */
	put16(f + off + 2, 0xffff);
	put32(f + off + 4, o->other_qp ? o->other_qp
				       : dir ? 0x11 : 0x12);   /* dest QP */
	put32(f + off + 8, psn & 0xffffff);
	off += 12;
	if (reth) {
		memcpy(f + off, reth, 16);
		off += 16;
	}
	if (aeth) {
		put32(f + off, 0x1f000000 | (psn & 0xffffff));
		off += 4;
	}
	if (n)
		memcpy(f + off, pl, n);
	off += n + pad + 4;
	icrc(f + 14, ip_len);
	o->frame++;
	le32(rec, o->frame);                               /* ts: 1 s apart */
	le32(rec + 4, 0);
	le32(rec + 8, (uint32_t)len);
	le32(rec + 12, (uint32_t)len);
	fwrite(rec, 1, 16, o->pcap);
	fwrite(f, 1, len, o->pcap);
}

static void reth_of(uint8_t *r, uint32_t handle, uint64_t va, uint32_t len)
{
	put64(r, va);
	put32(r + 8, handle);
	put32(r + 12, len);
}

/* ---- expected decode, in rpcrdma-decode --json's keys ---- */
static void seg_json(FILE *f, const struct rpcrdma_segment *s)
{
	fprintf(f, "{\"handle\":%u,\"length\":%u,\"offset\":%llu}",
		s->rdma_handle, s->rdma_length,
		(unsigned long long)s->rdma_offset);
}

static void segs_json(FILE *f, struct rpcrdma_seg_iter *si)
{
	struct rpcrdma_segment s;
	bool first = true;

	fputc('[', f);
	while (rpcrdma_seg_next(si, &s)) {
		if (!first)
			fputc(',', f);
		seg_json(f, &s);
		first = false;
	}
	fputc(']', f);
}

static void expect(struct out *o, const uint8_t *b, size_t n)
{
	struct rpcrdma_msg m;
	struct rpcrdma_read_iter ri;
	struct rpcrdma_read_segment rs;
	struct rpcrdma_chunk_iter ci;
	struct rpcrdma_seg_iter si;
	const char *dir;
	FILE *f = o->expect;
	bool first = true;
	unsigned i;

	if (!f)
		return;
	rpcrdma_decode(b, n, &m);
	fprintf(f, "{\"frame\":%u", o->frame);
	if (m.nfixed >= 1) fprintf(f, ",\"xid\":%u", m.rdma_xid);
	if (m.nfixed >= 2) fprintf(f, ",\"vers\":%u", m.rdma_vers);
	if (m.nfixed >= 3) fprintf(f, ",\"credits\":%u", m.rdma_credit);
	if (m.nfixed >= 4) fprintf(f, ",\"proc\":%u", m.rdma_proc);
	dir = rpcrdma_direction_name(m.direction);
	if (dir)
		fprintf(f, ",\"direction\":\"%s\"", dir);
	else
		fprintf(f, ",\"direction\":null");
	if (m.reads_off) {
		fprintf(f, ",\"reads\":[");
		rpcrdma_read_iter_init(&m, &ri);
		while (rpcrdma_read_next(&ri, &rs)) {
			fprintf(f, "%s{\"position\":%u,\"handle\":%u,\"length\":%u,"
				"\"offset\":%llu}", first ? "" : ",",
				rs.rdma_position, rs.rdma_target.rdma_handle,
				rs.rdma_target.rdma_length,
				(unsigned long long)rs.rdma_target.rdma_offset);
			first = false;
		}
		fputc(']', f);
	}
	if (m.writes_off) {
		fprintf(f, ",\"writes\":[");
		rpcrdma_write_iter_init(&m, &ci);
		first = true;
		while (rpcrdma_write_next(&ci, &si)) {
			if (!first)
				fputc(',', f);
			segs_json(f, &si);
			first = false;
		}
		fputc(']', f);
	}
	if (rpcrdma_reply_chunk(&m, &si)) {
		fprintf(f, ",\"reply\":");
		segs_json(f, &si);
	}
	if (m.has_err) {
		fprintf(f, ",\"error\":{\"code\":%u", m.rdma_err);
		if (m.has_vrange)
			fprintf(f, ",\"low\":%u,\"high\":%u", m.rdma_vers_low,
				m.rdma_vers_high);
		fputc('}', f);
	}
	if (m.has_optional)
		fprintf(f, ",\"optional\":{\"direction\":\"%s\",\"type\":%u,"
			"\"info_length\":%u}",
			rpcrdma_direction_name((int)m.rdma_optdir),
			m.rdma_opttype, m.optinfo_len);
	fprintf(f, ",\"notes\":[");
	for (i = 0, first = true; i < RPCRDMA_NOTE_COUNT_; i++) {
		if (m.notes & (1u << i)) {
			fprintf(f, "%s\"%s\"", first ? "" : ",",
				rpcrdma_note_name(1u << i));
			first = false;
		}
	}
	fprintf(f, "]");
	fprintf(f, ",\"verdict\":{\"action\":\"%s\",\"reason\":\"%s\"}}\n",
		rpcrdma_action_name(m.action), rpcrdma_reason_name(m.reason));
}

/* A whole message in one SEND ONLY */
static void send_msg(struct out *o, int dir, const uint8_t *b, size_t n)
{
	packet(o, dir, SEND_ONLY, NULL, false, b, n);
	expect(o, b, n);
}

/* Header + RPC payload */
static size_t build(uint8_t *buf, size_t cap, const struct rpcrdma_hdr *h,
		    const uint8_t *rpc, size_t rpc_len)
{
	size_t n = rpcrdma_encode(h, buf, cap, NULL);

	if (!n || n + rpc_len > cap) {
		fprintf(stderr, "mkpcap: encode failed\n");
		exit(1);
	}
	if (rpc_len)
		memcpy(buf + n, rpc, rpc_len);
	return n + rpc_len;
}

static size_t nfs_call(uint8_t *b, uint32_t xid, uint32_t proc, size_t extra)
{
	size_t n = rpc_encode_call(b, 512, xid, RPC_PROG_NFS, 3, proc);

	memset(b + n, 0, extra);
	put32(b + n, 8);                    /* a file handle: length 8 */
	memcpy(b + n + 4, "FH000001", 8);
	return n + extra;
}

static size_t nfs_reply(uint8_t *b, uint32_t xid, size_t extra)
{
	size_t n = rpc_encode_accepted_reply(b, 512, xid, RPC_SUCCESS);

	memset(b + n, 0, extra);             /* NFS3_OK and zeroed results */
	return n + extra;
}

static void scenarios(struct out *o)
{
	uint8_t b[4096], rpc[2048], reth[16];
	struct rpcrdma_segment ws[3] = {
		{ 0x1001, 4096, 0x7f0000001000ull },
		{ 0x1002, 8192, 0x7f0000002000ull },
		{ 0x1003, 512, 0x7f0000004000ull },
	};
	struct rpcrdma_write_chunk wc[2] = { { ws, 2 }, { ws + 2, 1 } };
	struct rpcrdma_segment rsg = { 0x2001, 1024, 0x7f0000010000ull };
	struct rpcrdma_write_chunk reply = { &rsg, 1 };
	struct rpcrdma_read_segment rd[2] = {
		{ 48, { 0x3001, 8192, 0x7f0000020000ull } },
		{ 48, { 0x3002, 100, 0x7f0000030000ull } },
	};
	struct rpcrdma_read_segment pos0 = { 0, { 0x4001, 0, 0x7f0000040000ull } };
	struct rpcrdma_hdr h;
	size_t n, r;

	/* 1-2: v1 MSG call and reply (NFSv3 GETATTR) */
	memset(&h, 0, sizeof h);
	h.rdma_xid = 0x1000; h.rdma_vers = 1; h.rdma_credit = 32;
	h.rdma_proc = RDMA_MSG;
	r = nfs_call(rpc, 0x1000, 1, 12);
	send_msg(o, 0, b, build(b, sizeof b, &h, rpc, r));
	r = nfs_reply(rpc, 0x1000, 88);
	send_msg(o, 1, b, build(b, sizeof b, &h, rpc, r));
	/* 3: v1 MSG call, NFS READ, with two write chunks and a reply chunk */
	h.rdma_xid = 0x1001; h.writes = wc; h.nwrites = 2; h.reply = &reply;
	r = nfs_call(rpc, 0x1001, 6, 24);
	send_msg(o, 0, b, build(b, sizeof b, &h, rpc, r));
	/* 4: v1 MSG call, NFS WRITE, with a read chunk at position 48 */
	h.rdma_xid = 0x1002; h.writes = NULL; h.nwrites = 0; h.reply = NULL;
	h.reads = rd; h.nreads = 2;
	r = nfs_call(rpc, 0x1002, 7, 24);
	send_msg(o, 0, b, build(b, sizeof b, &h, rpc, r));
	/* 5: v1 ERROR ERR_BADHEADER */
	memset(&h, 0, sizeof h);
	h.rdma_xid = 0x1003; h.rdma_vers = 1; h.rdma_credit = 32;
	h.rdma_proc = RDMA_ERROR; h.rdma_err = RDMA_ERR_BADHEADER;
	send_msg(o, 1, b, build(b, sizeof b, &h, NULL, 0));

	/* 6-7: v2 MSG call with write list + reply chunk, and its reply */
	memset(&h, 0, sizeof h);
	h.rdma_xid = 0x2000; h.rdma_vers = 2; h.rdma_credit = 128;
	h.rdma_proc = RDMA2_MSG; h.direction = RPCRDMA_CALL;
	h.writes = wc; h.nwrites = 2; h.reply = &reply;
	r = nfs_call(rpc, 0x2000, 6, 24);
	send_msg(o, 0, b, build(b, sizeof b, &h, rpc, r));
	h.direction = RPCRDMA_REPLY; h.rdma_credit = 64;
	h.writes = wc; h.nwrites = 1; h.reply = NULL;
	r = nfs_reply(rpc, 0x2000, 100);
	send_msg(o, 1, b, build(b, sizeof b, &h, rpc, r));

	/* 8-10: v2 Long Reply: call with reply chunk, RDMA Write of the reply
	 * into it, NOMSG reply */
	h.rdma_xid = 0x2001; h.direction = RPCRDMA_CALL; h.writes = NULL;
	h.nwrites = 0; h.reply = &reply;
	r = nfs_call(rpc, 0x2001, 1, 12);
	send_msg(o, 0, b, build(b, sizeof b, &h, rpc, r));
	r = nfs_reply(rpc, 0x2001, 1000);
	reth_of(reth, rsg.rdma_handle, rsg.rdma_offset, (uint32_t)r);
	packet(o, 1, WRITE_ONLY, reth, false, rpc, r);
	rsg.rdma_length = (uint32_t)r;          /* the responder's reply chunk */
	h.rdma_proc = RDMA2_NOMSG; h.direction = RPCRDMA_REPLY;
	send_msg(o, 1, b, build(b, sizeof b, &h, NULL, 0));
	rsg.rdma_length = 1024;

	/* 11-13: v2 Long Call: NOMSG with a Position Zero read chunk; the
	 * responder reads it (READ REQUEST, READ RESPONSE ONLY) */
	r = nfs_call(rpc, 0x2002, 1, 1200);
	pos0.rdma_target.rdma_length = (uint32_t)r;
	memset(&h, 0, sizeof h);
	h.rdma_xid = 0x2002; h.rdma_vers = 2; h.rdma_credit = 128;
	h.rdma_proc = RDMA2_NOMSG; h.direction = RPCRDMA_CALL;
	h.reads = &pos0; h.nreads = 1; h.reply = &reply;
	send_msg(o, 0, b, build(b, sizeof b, &h, NULL, 0));
	reth_of(reth, pos0.rdma_target.rdma_handle, pos0.rdma_target.rdma_offset,
		(uint32_t)r);
	packet(o, 1, READ_REQUEST, reth, false, NULL, 0);
	packet(o, 0, READ_RESPONSE_ONLY, NULL, true, rpc, r);

	/* 14: v2 ERROR ERR_VERS 1-2; 15: v2 OPTIONAL type 7 */
	memset(&h, 0, sizeof h);
	h.rdma_xid = 0x2003; h.rdma_vers = 2; h.rdma_credit = 1;
	h.rdma_proc = RDMA2_ERROR; h.rdma_err = RDMA2_ERR_VERS;
	h.rdma_vers_low = 1; h.rdma_vers_high = 2;
	send_msg(o, 1, b, build(b, sizeof b, &h, NULL, 0));
	memset(&h, 0, sizeof h);
	h.rdma_xid = 0x2004; h.rdma_vers = 2; h.rdma_credit = 16;
	h.rdma_proc = RDMA2_OPTIONAL; h.rdma_optdir = RPCRDMA_CALL;
	h.rdma_opttype = 7; h.optinfo = (const uint8_t *)"hello"; h.optinfo_len = 5;
	send_msg(o, 0, b, build(b, sizeof b, &h, NULL, 0));

	/* 16: v1 reply granting zero credits (note zero_credit) */
	memset(&h, 0, sizeof h);
	h.rdma_xid = 0x1004; h.rdma_vers = 1; h.rdma_credit = 0;
	h.rdma_proc = RDMA_MSG;
	r = nfs_reply(rpc, 0x1004, 88);
	send_msg(o, 1, b, build(b, sizeof b, &h, rpc, r));
	/* 17: v2 MSG whose direction is REPLY but carries an RPC call */
	memset(&h, 0, sizeof h);
	h.rdma_xid = 0x2005; h.rdma_vers = 2; h.rdma_credit = 8;
	h.rdma_proc = RDMA2_MSG; h.direction = RPCRDMA_REPLY;
	r = nfs_call(rpc, 0x2005, 1, 12);
	send_msg(o, 0, b, build(b, sizeof b, &h, rpc, r));
	/* 18: v2 MSG with a bad read-list discriminant */
	h.direction = RPCRDMA_CALL; h.rdma_xid = 0x2006;
	r = nfs_call(rpc, 0x2006, 1, 12);
	n = build(b, sizeof b, &h, rpc, r);
	put32(b + 20, 7);
	send_msg(o, 0, b, n);
	/* 19: v2 NOMSG without chunks; 20: v2 MSG, RPC xid differs */
	h.rdma_xid = 0x2007; h.rdma_proc = RDMA2_NOMSG;
	send_msg(o, 0, b, build(b, sizeof b, &h, NULL, 0));
	h.rdma_xid = 0x2008; h.rdma_proc = RDMA2_MSG;
	r = nfs_call(rpc, 0x9999, 1, 12);
	send_msg(o, 0, b, build(b, sizeof b, &h, rpc, r));
	/* 21: v1 RDMA_DONE; 22: v1 RDMA_MSGP; 23: rdma_vers 7 */
	memset(&h, 0, sizeof h);
	h.rdma_xid = 0x1005; h.rdma_vers = 1; h.rdma_credit = 32;
	h.rdma_proc = RDMA_DONE;
	send_msg(o, 0, b, build(b, sizeof b, &h, NULL, 0));
	h.rdma_xid = 0x1006; h.rdma_proc = RDMA_MSGP; h.rdma_align = 4096;
	h.rdma_thresh = 1024;
	r = nfs_call(rpc, 0x1006, 1, 12);
	send_msg(o, 0, b, build(b, sizeof b, &h, rpc, r));
	h.rdma_xid = 0x1007; h.rdma_proc = RDMA_MSG;
	r = nfs_call(rpc, 0x1007, 1, 12);
	n = build(b, sizeof b, &h, rpc, r);
	put32(b + 4, 7);
	send_msg(o, 0, b, n);
	/* 24: v2 MSG truncated inside the write list */
	memset(&h, 0, sizeof h);
	h.rdma_xid = 0x2009; h.rdma_vers = 2; h.rdma_credit = 8;
	h.rdma_proc = RDMA2_MSG; h.writes = wc; h.nwrites = 1;
	n = build(b, sizeof b, &h, NULL, 0);
	send_msg(o, 0, b, 40);
	(void)n;

	/* 25-26: a v2 call larger than one packet: SEND FIRST + SEND LAST */
	memset(&h, 0, sizeof h);
	h.rdma_xid = 0x200a; h.rdma_vers = 2; h.rdma_credit = 128;
	h.rdma_proc = RDMA2_MSG; h.direction = RPCRDMA_CALL;
	r = nfs_call(rpc, 0x200a, 1, 1500);
	n = build(b, sizeof b, &h, rpc, r);
	packet(o, 0, SEND_FIRST, NULL, false, b, 1024);
	packet(o, 0, SEND_LAST, NULL, false, b + 1024, n - 1024);
	expect(o, b, n);

	/* 27-29: v2 NFS WRITE with its data in a read chunk at position 72,
	 * then read by the responder (READ REQUEST, READ RESPONSE ONLY) */
	{
		static uint8_t data[512];
		struct rpcrdma_read_segment ddp = { 72, { 0x5001, sizeof data,
						   0x7f0000050000ull } };
		size_t i;

		for (i = 0; i < sizeof data; i++)
			data[i] = (uint8_t)("WRITE-DATA:"[i % 11]);
		memset(&h, 0, sizeof h);
		h.rdma_xid = 0x200b; h.rdma_vers = 2; h.rdma_credit = 128;
		h.rdma_proc = RDMA2_MSG; h.direction = RPCRDMA_CALL;
		h.reads = &ddp; h.nreads = 1;
		/* WRITE3args after the 40-byte call header: fh (12), offset
		 * (8), count (4), stable (4), data length (4); the data itself
		 * (position 72) travels in the read chunk */
		r = nfs_call(rpc, 0x200b, 7, 32);
		put32(rpc + 60, sizeof data);              /* count */
		put32(rpc + 68, sizeof data);              /* opaque length */
		send_msg(o, 0, b, build(b, sizeof b, &h, rpc, r));
		reth_of(reth, 0x5001, 0x7f0000050000ull, sizeof data);
		packet(o, 1, READ_REQUEST, reth, false, NULL, 0);
		packet(o, 0, READ_RESPONSE_ONLY, NULL, true, data, sizeof data);
	}
}

/* --other-ulp: 1 a v2 call on QP 0x12; 2 a Send of another upper layer
 * between the same hosts on QP 0x99 (not to be claimed); 3 the same bytes
 * on QP 0x12, a known RPC-over-RDMA connection (claimed: bad_vers). */
static void other_ulp(struct out *o)
{
	uint8_t b[512], rpc[256], junk[64];
	struct rpcrdma_hdr h;
	size_t r;

	memset(&h, 0, sizeof h);
	h.rdma_xid = 0x3000; h.rdma_vers = 2; h.rdma_credit = 8;
	h.rdma_proc = RDMA2_MSG; h.direction = RPCRDMA_CALL;
	r = nfs_call(rpc, 0x3000, 1, 12);
	send_msg(o, 0, b, build(b, sizeof b, &h, rpc, r));
	memset(junk, 0xa5, sizeof junk);
	o->other_qp = 0x99;
	packet(o, 0, SEND_ONLY, NULL, false, junk, sizeof junk);
	o->other_qp = 0;
	send_msg(o, 0, junk, sizeof junk);
}

int main(int argc, char **argv)
{
	struct out o = { 0 };
	uint8_t gh[24] = { 0 };

	bool other = argc > 1 && strcmp(argv[1], "--other-ulp") == 0;

	if (other) {
		argv++;
		argc--;
	}
	if (argc < 2) {
		fprintf(stderr, "usage: mkpcap [--other-ulp] OUT.pcap [EXPECT.jsonl]\n");
		return 2;
	}
	o.pcap = fopen(argv[1], "wb");
	o.expect = argc > 2 ? fopen(argv[2], "w") : NULL;
	if (!o.pcap || (argc > 2 && !o.expect)) {
		perror("mkpcap");
		return 1;
	}
	le32(gh, 0xa1b2c3d4);
	gh[4] = 2; gh[6] = 4;          /* version 2.4 */
	le32(gh + 16, 65535);          /* snaplen */
	le32(gh + 20, 1);              /* LINKTYPE_ETHERNET */
	fwrite(gh, 1, sizeof gh, o.pcap);
	if (other)
		other_ulp(&o);
	else
		scenarios(&o);
	if (fclose(o.pcap) || (o.expect && fclose(o.expect))) {
		perror("mkpcap");
		return 1;
	}
	return 0;
}
