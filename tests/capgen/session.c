/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * session.c - RPC-over-RDMA exchanges on one connection, every transport
 * header built by libcodec's rpcrdma_encode(): Short calls and replies
 * (V1 §4.3), a Write chunk moved by RDMA Write (§4.4.4, §4.5.4), a Read
 * chunk at a non-zero position pulled by RDMA Read (§4.4.5), a Long Call
 * (RDMA_NOMSG + position-zero Read chunk, §4.4.5.2) and a Long Reply
 * (Reply chunk + RDMA_NOMSG, §4.4.6.3).  V2 messages add the direction word
 * (V2 §4.2.2).
 */
#include <string.h>
#include "nfs.h"

void sess_init(struct sess *s, struct conn *c, uint32_t vers, uint32_t xid)
{
	memset(s, 0, sizeof(*s));
	s->c = c;
	s->vers = vers;
	s->credits = 32;
	s->xid = xid;
	s->handle = 0x1000a0b1u;
	s->va = 0x00007f3a1c000000ull;
}

void sess_hdr(const struct sess *s, struct rpcrdma_hdr *h, uint32_t xid,
	      uint32_t proc, int direction)
{
	memset(h, 0, sizeof(*h));
	h->rdma_xid = xid;
	h->rdma_vers = s->vers;
	h->rdma_credit = s->credits;
	h->rdma_proc = proc;
	h->direction = direction < 0 ? 0 : (uint32_t)direction;
}

size_t sess_build(const struct rpcrdma_hdr *h, const uint8_t *rpc,
		  size_t rpclen, uint8_t *out, size_t cap)
{
	size_t need = 0, n = rpcrdma_encode(h, out, cap, &need);

	if (n == 0 || n + rpclen > cap)
		return 0;
	if (rpclen)
		memcpy(out + n, rpc, rpclen);
	return n + rpclen;
}

uint64_t sess_xmit(struct sess *s, int dir, const uint8_t *msg, size_t len,
		   uint32_t inv)
{
	if (s->c->iwarp)
		return iw_send(s->c, dir, msg, len, inv);
	return ib_send(s->c, dir, msg, len, inv);
}

uint64_t sess_send(struct sess *s, int dir, const struct rpcrdma_hdr *h,
		   const uint8_t *rpc, size_t rpclen, uint32_t inv)
{
	static uint8_t buf[32768];
	size_t n = sess_build(h, rpc, rpclen, buf, sizeof(buf));

	return n ? sess_xmit(s, dir, buf, n, inv) : 0;
}

uint64_t sess_answer_error(struct sess *s, int dir, const uint8_t *msg,
			   size_t len)
{
	struct rpcrdma_msg m;
	uint8_t out[64];
	size_t need = 0, n;

	rpcrdma_decode(msg, len, &m);
	n = rpcrdma_encode_error_reply(&m, s->credits, out, sizeof(out), &need);
	return n ? sess_xmit(s, dir, out, n, 0) : 0;
}

struct rpcrdma_segment sess_seg(struct sess *s, uint32_t len)
{
	struct rpcrdma_segment g;

	g.rdma_handle = s->handle;
	g.rdma_length = len;
	g.rdma_offset = s->va;
	s->handle += 0x100;
	s->va += ((uint64_t)len + 0xfff) & ~0xfffull;
	return g;
}

uint64_t sess_rdma_write(struct sess *s, int dir,
			   const struct rpcrdma_segment *g,
			   const uint8_t *data, size_t len)
{
	if (s->c->iwarp)
		return iw_write(s->c, dir, g->rdma_handle, g->rdma_offset, data, len);
	return ib_write(s->c, dir, g->rdma_handle, g->rdma_offset, data, len);
}

uint64_t sess_rdma_read(struct sess *s, int dir,
			  const struct rpcrdma_segment *g,
			  const uint8_t *data, size_t len)
{
	if (s->c->iwarp)
		return iw_read(s->c, dir, g->rdma_handle, g->rdma_offset,
			       0x2000f00du, 0x00005555a0000000ull, data, len);
	return ib_read(s->c, dir, g->rdma_handle, g->rdma_offset, data, len);
}

uint64_t ex_getattr3(struct sess *s)
{
	struct rpcrdma_hdr h;
	struct xw x;
	uint32_t xid = s->xid++;

	nfs3_getattr_call(&x, xid);
	sess_hdr(s, &h, xid, RDMA_MSG, RPCRDMA_CALL);
	sess_send(s, 0, &h, x.b, x.len, 0);
	nfs3_getattr_reply(&x, xid);
	sess_hdr(s, &h, xid, RDMA_MSG, RPCRDMA_REPLY);
	return sess_send(s, 1, &h, x.b, x.len, 0);
}

uint64_t ex_compound4(struct sess *s, int dir, uint32_t minor, uint32_t xid)
{
	struct rpcrdma_hdr h;
	struct xw x;

	if (dir)
		cb_compound_call(&x, xid, 1);
	else
		nfs4_compound_call(&x, xid, minor, xid & 0xff);
	sess_hdr(s, &h, xid, RDMA_MSG, RPCRDMA_CALL);
	sess_send(s, dir, &h, x.b, x.len, 0);
	if (dir)
		cb_compound_reply(&x, xid, 1);
	else
		nfs4_compound_reply(&x, xid, minor, xid & 0xff);
	sess_hdr(s, &h, xid, RDMA_MSG, RPCRDMA_REPLY);
	return sess_send(s, !dir, &h, x.b, x.len, 0);
}

uint64_t ex_read3_chunk(struct sess *s, uint32_t len)
{
	static uint8_t data[65536];
	struct rpcrdma_hdr h;
	struct rpcrdma_segment g = sess_seg(s, (len + 3u) & ~3u), r;
	struct rpcrdma_write_chunk wc = { &g, 1 }, rc = { &r, 1 };
	struct xw x;
	uint32_t xid = s->xid++;

	if (len > sizeof(data))
		len = sizeof(data);
	nfs3_read_call(&x, xid, 0, len);
	sess_hdr(s, &h, xid, RDMA_MSG, RPCRDMA_CALL);
	h.writes = &wc;
	h.nwrites = 1;
	sess_send(s, 0, &h, x.b, x.len, 0);
	fill_data(data, len, xid);
	sess_rdma_write(s, 1, &g, data, len);
	r = g;
	r.rdma_length = len;
	nfs3_read_reply_head(&x, xid, len, true);
	sess_hdr(s, &h, xid, RDMA_MSG, RPCRDMA_REPLY);
	h.writes = &rc;
	h.nwrites = 1;
	return sess_send(s, 1, &h, x.b, x.len, s->c->iwarp ? g.rdma_handle : 0);
}

uint64_t ex_write3_chunk(struct sess *s, uint32_t len)
{
	static uint8_t data[65536];
	struct rpcrdma_hdr h;
	struct rpcrdma_read_segment rs;
	struct xw x;
	uint32_t xid = s->xid++;

	if (len > sizeof(data))
		len = sizeof(data);
	nfs3_write_call_head(&x, xid, 8192, len);
	rs.rdma_position = (uint32_t)x.len;
	rs.rdma_target = sess_seg(s, (len + 3u) & ~3u);
	sess_hdr(s, &h, xid, RDMA_MSG, RPCRDMA_CALL);
	h.reads = &rs;
	h.nreads = 1;
	sess_send(s, 0, &h, x.b, x.len, 0);
	fill_data(data, len, xid);
	sess_rdma_read(s, 1, &rs.rdma_target, data, (len + 3u) & ~3u);
	nfs3_write_reply(&x, xid, len);
	sess_hdr(s, &h, xid, RDMA_MSG, RPCRDMA_REPLY);
	return sess_send(s, 1, &h, x.b, x.len, 0);
}

uint64_t ex_long_call(struct sess *s)
{
	struct rpcrdma_hdr h;
	struct rpcrdma_read_segment rs;
	struct xw x;
	uint32_t xid = s->xid++;

	nfs3_symlink_call(&x, xid, 1500);
	rs.rdma_position = 0;
	rs.rdma_target = sess_seg(s, (uint32_t)x.len);
	sess_hdr(s, &h, xid, RDMA_NOMSG, RPCRDMA_CALL);
	h.reads = &rs;
	h.nreads = 1;
	sess_send(s, 0, &h, NULL, 0, 0);
	sess_rdma_read(s, 1, &rs.rdma_target, x.b, x.len);
	nfs3_symlink_reply(&x, xid);
	sess_hdr(s, &h, xid, RDMA_MSG, RPCRDMA_REPLY);
	return sess_send(s, 1, &h, x.b, x.len, 0);
}

uint64_t ex_long_reply(struct sess *s)
{
	struct rpcrdma_hdr h;
	struct rpcrdma_segment g = sess_seg(s, 8192), r;
	struct rpcrdma_write_chunk wc = { &g, 1 }, rc = { &r, 1 };
	struct xw x;
	uint32_t xid = s->xid++;

	nfs3_readdir_call(&x, xid);
	sess_hdr(s, &h, xid, RDMA_MSG, RPCRDMA_CALL);
	h.reply = &wc;
	sess_send(s, 0, &h, x.b, x.len, 0);
	nfs3_readdir_reply(&x, xid, 60);
	sess_rdma_write(s, 1, &g, x.b, x.len);
	r = g;
	r.rdma_length = (uint32_t)x.len;
	sess_hdr(s, &h, xid, RDMA_NOMSG, RPCRDMA_REPLY);
	h.reply = &rc;
	return sess_send(s, 1, &h, NULL, 0, 0);
}
