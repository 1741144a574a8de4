/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * multichunk.c - chunks of more than one segment (V1 §4.4: a Read chunk is
 * the read segments that share one position, §4.4.5; a Write chunk or the
 * Reply chunk is a counted array of segments, §4.4.4, §4.4.6): a READ whose
 * data fills one segment and part of the next, a WRITE whose data the
 * server pulls with one RDMA Read per segment, and a Long Reply spread over
 * two Reply chunk segments.
 */
#include <string.h>
#include "scen.h"

static uint8_t data[8192];

static void read_two_segments(struct sess *s)
{
	struct rpcrdma_hdr h;
	struct rpcrdma_segment a[2], r[2];
	struct rpcrdma_write_chunk wc = { a, 2 }, rc = { r, 2 };
	struct xw x;
	uint32_t xid = s->xid++;

	a[0] = sess_seg(s, 2048);
	a[1] = sess_seg(s, 2048);
	nfs3_read_call(&x, xid, 0, 4096);
	sess_hdr(s, &h, xid, RDMA_MSG, RPCRDMA_CALL);
	h.writes = &wc;
	h.nwrites = 1;
	sess_send(s, 0, &h, x.b, x.len, 0);
	fill_data(data, 3000, xid);
	sess_rdma_write(s, 1, &a[0], data, 2048);
	sess_rdma_write(s, 1, &a[1], data + 2048, 952);
	memcpy(r, a, sizeof(r));
	r[1].rdma_length = 952;
	nfs3_read_reply_head(&x, xid, 3000, true);
	sess_hdr(s, &h, xid, RDMA_MSG, RPCRDMA_REPLY);
	h.writes = &rc;
	h.nwrites = 1;
	sess_send(s, 1, &h, x.b, x.len, 0);
}

static void write_two_segments(struct sess *s)
{
	struct rpcrdma_hdr h;
	struct rpcrdma_read_segment rs[2];
	struct xw x;
	uint32_t xid = s->xid++;

	nfs3_write_call_head(&x, xid, 0, 3000);
	rs[0].rdma_position = rs[1].rdma_position = (uint32_t)x.len;
	rs[0].rdma_target = sess_seg(s, 2048);
	rs[1].rdma_target = sess_seg(s, 952);
	sess_hdr(s, &h, xid, RDMA_MSG, RPCRDMA_CALL);
	h.reads = rs;
	h.nreads = 2;
	sess_send(s, 0, &h, x.b, x.len, 0);
	fill_data(data, 3000, xid);
	sess_rdma_read(s, 1, &rs[0].rdma_target, data, 2048);
	sess_rdma_read(s, 1, &rs[1].rdma_target, data + 2048, 952);
	nfs3_write_reply(&x, xid, 3000);
	sess_hdr(s, &h, xid, RDMA_MSG, RPCRDMA_REPLY);
	sess_send(s, 1, &h, x.b, x.len, 0);
}

static void long_reply_two_segments(struct sess *s)
{
	struct rpcrdma_hdr h;
	struct rpcrdma_segment a[2], r[2];
	struct rpcrdma_write_chunk wc = { a, 2 }, rc = { r, 2 };
	struct xw x;
	uint32_t xid = s->xid++;

	a[0] = sess_seg(s, 2048);
	a[1] = sess_seg(s, 2048);
	nfs3_readdir_call(&x, xid);
	sess_hdr(s, &h, xid, RDMA_MSG, RPCRDMA_CALL);
	h.reply = &wc;
	sess_send(s, 0, &h, x.b, x.len, 0);
	nfs3_readdir_reply(&x, xid, 60);          /* 2448 bytes */
	sess_rdma_write(s, 1, &a[0], x.b, 2048);
	sess_rdma_write(s, 1, &a[1], x.b + 2048, x.len - 2048);
	memcpy(r, a, sizeof(r));
	r[1].rdma_length = (uint32_t)(x.len - 2048);
	sess_hdr(s, &h, xid, RDMA_NOMSG, RPCRDMA_REPLY);
	h.reply = &rc;
	sess_send(s, 1, &h, NULL, 0, 0);
}

void traffic_multichunk(struct sess *s)
{
	ex_getattr3(s);
	read_two_segments(s);
	write_two_segments(s);
	long_reply_two_segments(s);
	ex_getattr3(s);
}
