/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench.c - the benchmark capture: exactly N frames (default 1,000,000) of
 * a realistic RoCEv2 NFS/RDMA mix on one QP pair, path MTU 4096: mostly
 * small NFSv3 GETATTR and NFSv4 COMPOUND calls and replies with their ACKs,
 * some 8 KiB READs through a Write chunk, WRITEs through a Read chunk, and
 * Long Replies.  Each message is built in memory and written through one
 * large stdio buffer; a fixed xorshift seed keeps it reproducible.
 * bench_qps_write: N acknowledgements spread over Q queue pairs (Q = N:
 * every one to a QP not seen before, as on a fabric busy with iSER, NVMe-oF
 * or MPI), from both sides in turn, for the per-packet cost against the
 * number of conversations (issue 14).
 */
#include "scen.h"

int bench_write(const char *path, uint64_t nframes)
{
	struct gen g = { 0 };
	struct conn c;
	struct sess s;
	uint32_t r = 0x9e3779b9u;

	g.path = path;
	if (gen_open(&g, FMT_PCAP, LINKTYPE_ETHERNET, 0))
		return -1;
	g.w.cut_at = nframes + 1;       /* frames past N are not written */
	g.w.cut_len = 0;
	conn_init_roce(&c, &g.w, LK_ETH, NET_IPV4, 4096);
	sess_init(&s, &c, 1, 0x42000001u);
	while (g.w.nframes < nframes) {
		unsigned pick;

		r ^= r << 13;
		r ^= r >> 17;
		r ^= r << 5;
		pick = r % 100;
		if (pick < 50)
			ex_getattr3(&s);
		else if (pick < 88)
			ex_compound4(&s, 0, 0, s.xid++);
		else if (pick < 94)
			ex_read3_chunk(&s, 8192);
		else if (pick < 98)
			ex_write3_chunk(&s, 8192);
		else
			ex_long_reply(&s);
	}
	return gen_close(&g);
}

/* an RDMA_MSG carrying an NFSv3 NULL call or its reply (V1 5.2) */
static size_t null_msg(uint8_t *b, uint32_t xid, bool reply)
{
	static const uint32_t call[] = { 0, 2, 100003, 3, 0, 0, 0, 0, 0 };
	static const uint32_t rep[] = { 1, 0, 0, 0, 0 };
	const uint32_t *w = reply ? rep : call;
	size_t n = reply ? 5 : 9, o = 0;

	put32(b + o, xid); o += 4;
	put32(b + o, 1); o += 4;           /* rdma_vers */
	put32(b + o, 32); o += 4;          /* rdma_credit */
	put32(b + o, 0); o += 4;           /* RDMA_MSG */
	for (int i = 0; i < 3; i++, o += 4)
		put32(b + o, 0);           /* no chunks */
	put32(b + o, xid); o += 4;
	for (size_t i = 0; i < n; i++, o += 4)
		put32(b + o, w[i]);
	return o;
}

/* `sends`: each QP carries a call and its reply (SEND ONLY, each with its
 * ACK); else only ACKs */
int bench_qps_write(const char *path, uint64_t nframes, uint32_t nqps,
		    bool sends)
{
	struct gen g = { 0 };
	struct conn c;
	uint8_t m[128];

	g.path = path;
	if (!nqps || gen_open(&g, FMT_PCAP, LINKTYPE_ETHERNET, 0))
		return -1;
	g.w.cut_at = nframes + 1;          /* frames past N are not written */
	g.w.cut_len = 0;
	conn_init_roce(&c, &g.w, LK_ETH, NET_IPV4, 4096);
	for (uint64_t i = 0; g.w.nframes < nframes; i++) {
		uint32_t q = (uint32_t)(i % nqps);
		c.qpn[0] = 0x100000 + q;       /* QPNs are 24 bits */
		c.qpn[1] = 0x800000 + q;
		if (!sends) {
			ib_ack(&c, (int)(i & 1));
			continue;
		}
		uint32_t xid = 0x10000000u + (uint32_t)i;
		ib_send(&c, 0, m, null_msg(m, xid, false), 0);
		ib_send(&c, 1, m, null_msg(m, xid, true), 0);
	}
	return gen_close(&g);
}
