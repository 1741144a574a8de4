/* mkpcap.c - writes the plugin's RoCEv2 test captures (v1, v2, chunks, RDMA data, planted faults; --ddp: Write chunk data) and their expected decode. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "roce.h"

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
	/* READ3resok reduced (V1 4.4.6): NFS3_OK, no attributes, count, eof,
	 * the data's length word; its 12288 bytes went to the write chunk
	 * (Writes not in this capture: zero-filled, noted) */
	r = nfs_reply(rpc, 0x2000, 20);
	put32(rpc + r - 12, 12288);
	put32(rpc + r - 8, 1);
	put32(rpc + r - 4, 12288);
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
	bool ddp = argc > 1 && strcmp(argv[1], "--ddp") == 0;

	if (other || ddp) {
		argv++;
		argc--;
	}
	if (argc < 2) {
		fprintf(stderr, "usage: mkpcap [--other-ulp | --ddp] OUT.pcap [EXPECT.jsonl]\n");
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
	else if (ddp)
		ddp_scenarios(&o);
	else
		scenarios(&o);
	if (fclose(o.pcap) || (o.expect && fclose(o.expect))) {
		perror("mkpcap");
		return 1;
	}
	return 0;
}
