/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * scenarios_lint.c - one capture per rpcrdma-decode --check check, each
 * violating exactly that check exactly once among clean exchanges (RoCEv2,
 * IPv4, path MTU 1024, Version One unless said).  The rules: credits V1
 * §4.3.1; inline threshold §4.3.2; XIDs §5.2.1; RDMA_NOMSG §5.2.4; MSGP and
 * DONE §5.6; Write chunks §4.4.4, §4.4.6.2 (unused: lengths zero); Reply
 * chunk §4.4.6.3; RDMA only on advertised segments §4.4; V2 direction V2
 * §4.2.2; a received error is never answered §5.5; reply version §5.2.2;
 * header faults docs/verdicts.md; CRCs IBTA §7.8.
 */
#include <string.h>
#include "scen.h"

struct lint {
	struct conn c;
	struct sess s;
};

static int lint_open(struct gen *g, struct lint *l, uint32_t vers)
{
	if (gen_open(g, FMT_PCAP, LINKTYPE_ETHERNET, 0))
		return -1;
	conn_init_roce(&l->c, &g->w, LK_ETH, NET_IPV4, 1024);
	sess_init(&l->s, &l->c, vers, 0x4c000001u);
	ex_getattr3(&l->s);
	return 0;
}

static uint64_t call_getattr(struct sess *s, uint32_t xid)
{
	struct rpcrdma_hdr h;
	struct xw x;

	nfs3_getattr_call(&x, xid);
	sess_hdr(s, &h, xid, RDMA_MSG, RPCRDMA_CALL);
	return sess_send(s, 0, &h, x.b, x.len, 0);
}

static uint64_t reply_getattr(struct sess *s, uint32_t xid)
{
	struct rpcrdma_hdr h;
	struct xw x;

	nfs3_getattr_reply(&x, xid);
	sess_hdr(s, &h, xid, RDMA_MSG, RPCRDMA_REPLY);
	return sess_send(s, 1, &h, x.b, x.len, 0);
}

/* send a built message and let the server answer what libcodec says */
static uint64_t bad_call(struct sess *s, const uint8_t *msg, size_t len)
{
	uint64_t f = sess_xmit(s, 0, msg, len, 0);

	sess_answer_error(s, 1, msg, len);
	return f;
}

static int credits_exceeded(struct gen *g)
{
	struct lint l;
	uint32_t xid0, i;

	if (lint_open(g, &l, 1))
		return -1;
	l.s.credits = 4;
	ex_getattr3(&l.s);              /* grants 4 */
	xid0 = l.s.xid;
	for (i = 0; i < 5; i++) {
		uint64_t f = call_getattr(&l.s, l.s.xid++);

		if (i == 4)
			gen_expect(g, f, "credits-exceeded");
	}
	for (i = 0; i < 5; i++)
		reply_getattr(&l.s, xid0 + i);
	ex_getattr3(&l.s);
	return gen_close(g);
}

static int zero_credit(struct gen *g)
{
	struct lint l;
	uint32_t xid;

	if (lint_open(g, &l, 1))
		return -1;
	ex_getattr3(&l.s);
	xid = l.s.xid++;
	call_getattr(&l.s, xid);
	l.s.credits = 0;                /* the last reply grants nothing */
	gen_expect(g, reply_getattr(&l.s, xid), "zero-credit");
	/* and a backward-direction call (server to client, BIDI) asking for
	 * zero credits: flagged as well (V1 7.2.1); its reply grants one */
	{
		struct rpcrdma_hdr h;
		struct xw x;

		xid = 0x7b000009u;
		cb_compound_call(&x, xid, 1);
		sess_hdr(&l.s, &h, xid, RDMA_MSG, RPCRDMA_CALL);
		gen_expect(g, sess_send(&l.s, 1, &h, x.b, x.len, 0), "zero-credit");
		l.s.credits = 1;
		cb_compound_reply(&x, xid, 1);
		sess_hdr(&l.s, &h, xid, RDMA_MSG, RPCRDMA_REPLY);
		sess_send(&l.s, 0, &h, x.b, x.len, 0);
	}
	return gen_close(g);
}

static int inline_too_large(struct gen *g)
{
	struct lint l;
	struct rpcrdma_hdr h;
	struct xw x;
	uint32_t xid;

	if (lint_open(g, &l, 1))
		return -1;
	xid = l.s.xid++;
	nfs3_symlink_call(&x, xid, 1000);   /* ~1150 bytes inline > 1024 */
	sess_hdr(&l.s, &h, xid, RDMA_MSG, RPCRDMA_CALL);
	gen_expect(g, sess_send(&l.s, 0, &h, x.b, x.len, 0), "inline-too-large");
	nfs3_symlink_reply(&x, xid);
	sess_hdr(&l.s, &h, xid, RDMA_MSG, RPCRDMA_REPLY);
	sess_send(&l.s, 1, &h, x.b, x.len, 0);
	ex_getattr3(&l.s);
	return gen_close(g);
}

static int xid_mismatch(struct gen *g)
{
	struct lint l;
	struct rpcrdma_hdr h;
	struct xw x;
	uint8_t m[512];
	size_t n;
	uint32_t xid;

	if (lint_open(g, &l, 1))
		return -1;
	xid = l.s.xid++;
	nfs3_getattr_call(&x, xid + 0x100);  /* RPC XID differs */
	sess_hdr(&l.s, &h, xid, RDMA_MSG, RPCRDMA_CALL);
	n = sess_build(&h, x.b, x.len, m, sizeof(m));
	gen_expect(g, bad_call(&l.s, m, n), "xid-mismatch");
	ex_getattr3(&l.s);
	return gen_close(g);
}

static int nomsg_without_chunks(struct gen *g)
{
	struct lint l;
	struct rpcrdma_hdr h;
	uint8_t m[64];
	size_t n;

	if (lint_open(g, &l, 1))
		return -1;
	sess_hdr(&l.s, &h, l.s.xid++, RDMA_NOMSG, RPCRDMA_CALL);
	n = sess_build(&h, NULL, 0, m, sizeof(m));
	gen_expect(g, bad_call(&l.s, m, n), "nomsg-without-chunks");
	ex_getattr3(&l.s);
	return gen_close(g);
}

static int msgp_sent(struct gen *g)
{
	struct lint l;
	struct rpcrdma_hdr h;
	struct xw x;
	uint8_t m[512];
	size_t n;
	uint32_t xid;

	if (lint_open(g, &l, 1))
		return -1;
	xid = l.s.xid++;
	nfs3_getattr_call(&x, xid);
	sess_hdr(&l.s, &h, xid, RDMA_MSGP, RPCRDMA_CALL);
	h.rdma_align = 4096;
	h.rdma_thresh = 1024;
	n = sess_build(&h, x.b, x.len, m, sizeof(m));
	gen_expect(g, bad_call(&l.s, m, n), "msgp-sent");
	ex_getattr3(&l.s);
	return gen_close(g);
}

static int done_sent(struct gen *g)
{
	struct lint l;
	struct rpcrdma_hdr h;
	uint8_t m[64];
	size_t n;
	uint32_t xid;

	if (lint_open(g, &l, 1))
		return -1;
	xid = l.s.xid;
	ex_long_reply(&l.s);
	/* RFC 5666's "reply chunk done" message, no longer allowed */
	sess_hdr(&l.s, &h, xid, RDMA_DONE, RPCRDMA_CALL);
	n = sess_build(&h, NULL, 0, m, sizeof(m));
	gen_expect(g, bad_call(&l.s, m, n), "done-sent");
	ex_getattr3(&l.s);
	return gen_close(g);
}

/* A READ whose reply returns `ret` in place of the call's write chunk. */
static uint64_t read_with(struct sess *s, const struct rpcrdma_segment *adv,
			  uint32_t nadv, const struct rpcrdma_segment *ret,
			  uint32_t nret, uint32_t written, uint32_t reported,
			  bool error)
{
	static uint8_t data[8192];
	struct rpcrdma_write_chunk wc = { adv, nadv }, rc = { ret, nret };
	struct rpcrdma_hdr h;
	struct xw x;
	uint32_t xid = s->xid++;

	nfs3_read_call(&x, xid, 0, adv[0].rdma_length);
	sess_hdr(s, &h, xid, RDMA_MSG, RPCRDMA_CALL);
	h.writes = &wc;
	h.nwrites = 1;
	sess_send(s, 0, &h, x.b, x.len, 0);
	fill_data(data, written, xid);
	if (written)
		sess_rdma_write(s, 1, &adv[0], data, written);
	if (error)
		nfs3_read_reply_err(&x, xid);
	else
		nfs3_read_reply_head(&x, xid, reported, false);
	sess_hdr(s, &h, xid, RDMA_MSG, RPCRDMA_REPLY);
	h.writes = &rc;
	h.nwrites = 1;
	return sess_send(s, 1, &h, x.b, x.len, 0);
}

static int write_chunk_overrun(struct gen *g)
{
	struct lint l;
	struct rpcrdma_segment a, r;

	if (lint_open(g, &l, 1))
		return -1;
	a = sess_seg(&l.s, 4096);
	r = a;
	r.rdma_length = 4200;           /* more than the 4096 advertised */
	/* the RDMA Write stays inside the segment: only the reply is wrong */
	gen_expect(g, read_with(&l.s, &a, 1, &r, 1, 4096, 4200, false),
		   "write-chunk-overrun");
	ex_getattr3(&l.s);
	return gen_close(g);
}

static int reply_chunk_overrun(struct gen *g)
{
	struct lint l;
	struct rpcrdma_hdr h;
	struct rpcrdma_segment a, r;
	struct rpcrdma_write_chunk wc = { &a, 1 }, rc = { &r, 1 };
	struct xw x;
	uint32_t xid;

	if (lint_open(g, &l, 1))
		return -1;
	xid = l.s.xid++;
	a = sess_seg(&l.s, 2048);
	nfs3_readdir_call(&x, xid);
	sess_hdr(&l.s, &h, xid, RDMA_MSG, RPCRDMA_CALL);
	h.reply = &wc;
	sess_send(&l.s, 0, &h, x.b, x.len, 0);
	nfs3_readdir_reply(&x, xid, 60);   /* 2448 bytes, 2048 advertised */
	/* the RDMA Write stays inside the segment: only the reply is wrong */
	sess_rdma_write(&l.s, 1, &a, x.b, a.rdma_length);
	r = a;
	r.rdma_length = (uint32_t)x.len;
	sess_hdr(&l.s, &h, xid, RDMA_NOMSG, RPCRDMA_REPLY);
	h.reply = &rc;
	gen_expect(g, sess_send(&l.s, 1, &h, NULL, 0, 0), "reply-chunk-overrun");
	ex_getattr3(&l.s);
	return gen_close(g);
}

static int write_chunk_segments_changed(struct gen *g)
{
	struct lint l;
	struct rpcrdma_segment a[2], r;

	if (lint_open(g, &l, 1))
		return -1;
	a[0] = sess_seg(&l.s, 4096);
	a[1] = sess_seg(&l.s, 4096);
	r = a[0];
	r.rdma_length = 3000;           /* one segment returned, not two */
	gen_expect(g, read_with(&l.s, a, 2, &r, 1, 3000, 3000, false),
		   "write-chunk-segments-changed");
	ex_getattr3(&l.s);
	return gen_close(g);
}

static int unused_write_chunk_nonzero(struct gen *g)
{
	struct lint l;
	struct rpcrdma_segment a;

	if (lint_open(g, &l, 1))
		return -1;
	a = sess_seg(&l.s, 4096);
	/* NFS3ERR_IO: no data, but the chunk comes back with length 4096 */
	gen_expect(g, read_with(&l.s, &a, 1, &a, 1, 0, 0, true),
		   "unused-write-chunk-nonzero");
	ex_getattr3(&l.s);
	return gen_close(g);
}

static int unadvertised_rdma(struct gen *g)
{
	struct lint l;
	struct rpcrdma_segment bogus = { 0xbad0bad0u, 512, 0x00007f0000000000ull };
	uint8_t data[512];

	if (lint_open(g, &l, 1))
		return -1;
	fill_data(data, sizeof(data), 7);
	gen_expect(g, sess_rdma_write(&l.s, 1, &bogus, data, sizeof(data)),
		   "unadvertised-rdma");
	ex_getattr3(&l.s);
	return gen_close(g);
}

static int direction_mismatch(struct gen *g)
{
	struct lint l;
	struct rpcrdma_hdr h;
	struct xw x;
	uint32_t xid;

	if (lint_open(g, &l, 2))
		return -1;
	xid = l.s.xid++;
	call_getattr(&l.s, xid);
	nfs3_getattr_reply(&x, xid);
	sess_hdr(&l.s, &h, xid, RDMA2_MSG, RPCRDMA_CALL);  /* says CALL */
	gen_expect(g, sess_send(&l.s, 1, &h, x.b, x.len, 0), "direction-mismatch");
	ex_getattr3(&l.s);
	return gen_close(g);
}

static int error_answered_with_error(struct gen *g)
{
	struct lint l;
	struct rpcrdma_hdr h;
	uint32_t xid;

	if (lint_open(g, &l, 1))
		return -1;
	xid = l.s.xid++;
	call_getattr(&l.s, xid);
	sess_hdr(&l.s, &h, xid, RDMA_ERROR, RPCRDMA_REPLY);
	h.rdma_err = RDMA_ERR_BADHEADER;
	sess_send(&l.s, 1, &h, NULL, 0, 0);
	/* the client answers the error with an error */
	gen_expect(g, sess_send(&l.s, 0, &h, NULL, 0, 0),
		   "error-answered-with-error");
	ex_getattr3(&l.s);
	return gen_close(g);
}

static int bad_header(struct gen *g)
{
	struct lint l;
	struct rpcrdma_hdr h;
	struct xw x;
	uint8_t m[512];
	size_t n;
	uint32_t xid;

	if (lint_open(g, &l, 1))
		return -1;
	xid = l.s.xid++;
	nfs3_getattr_call(&x, xid);
	sess_hdr(&l.s, &h, xid, RDMA_MSG, RPCRDMA_CALL);
	n = sess_build(&h, x.b, x.len, m, sizeof(m));
	put32(m + 16, 2);               /* Read list discriminator 2 */
	gen_expect(g, bad_call(&l.s, m, n), "bad-header");
	ex_getattr3(&l.s);
	return gen_close(g);
}

/* V1 4.4.5: a read chunk's Position is an offset in the Payload stream */
static int read_position_past_payload(struct gen *g)
{
	struct lint l;
	struct rpcrdma_hdr h;
	struct rpcrdma_read_segment rs;
	struct xw x;
	uint8_t m[512];
	size_t n;
	uint32_t xid;

	if (lint_open(g, &l, 1))
		return -1;
	xid = l.s.xid++;
	nfs3_getattr_call(&x, xid);
	rs.rdma_position = 4096;        /* a multiple of 4, far past the call */
	rs.rdma_target = sess_seg(&l.s, 8);
	sess_hdr(&l.s, &h, xid, RDMA_MSG, RPCRDMA_CALL);
	h.reads = &rs;
	h.nreads = 1;
	n = sess_build(&h, x.b, x.len, m, sizeof(m));
	gen_expect(g, bad_call(&l.s, m, n), "read-position-past-payload");
	ex_getattr3(&l.s);
	return gen_close(g);
}

/* An NFSv3 WRITE of `count` bytes whose data goes in a read chunk of
 * `chunk` bytes at the opaque's position, `pad` bytes left inline after
 * it; the server reads the chunk and answers.  Returns the call's frame. */
static uint64_t write_reduced(struct sess *s, uint32_t count, uint32_t chunk, size_t pad)
{
	static const uint8_t zero[4];
	static uint8_t data[4096];
	struct rpcrdma_hdr h;
	struct rpcrdma_read_segment rs;
	struct xw x;
	uint32_t xid = s->xid++;
	uint64_t f;

	nfs3_write_call_head(&x, xid, 0, count);
	rs.rdma_position = (uint32_t)x.len;
	rs.rdma_target = sess_seg(s, chunk);
	memcpy(x.b + x.len, zero, pad);         /* raw: no XDR round-up of its own */
	x.len += pad;
	sess_hdr(s, &h, xid, RDMA_MSG, RPCRDMA_CALL);
	h.reads = &rs;
	h.nreads = 1;
	f = sess_send(s, 0, &h, x.b, x.len, 0);
	fill_data(data, chunk, xid);
	sess_rdma_read(s, 1, &rs.rdma_target, data, chunk);
	nfs3_write_reply(&x, xid, count);
	sess_hdr(s, &h, xid, RDMA_MSG, RPCRDMA_REPLY);
	sess_send(s, 1, &h, x.b, x.len, 0);
	return f;
}

/* V1 4.4.4.1: the byte count before a read chunk is the sum of its
 * segments (with or without the round-up) */
static int read_chunk_count_mismatch(struct gen *g)
{
	struct lint l;

	if (lint_open(g, &l, 1))
		return -1;
	write_reduced(&l.s, 5, 5, 0);           /* no round-up: right */
	write_reduced(&l.s, 5, 8, 0);           /* with the round-up: right */
	gen_expect(g, write_reduced(&l.s, 100, 200, 0), "read-chunk-count-mismatch");
	ex_getattr3(&l.s);
	return gen_close(g);
}

/* V1 4.4.5.1: the reduced item's pad leaves the Payload stream with it */
static int read_chunk_pad_inline(struct gen *g)
{
	struct lint l;

	if (lint_open(g, &l, 1))
		return -1;
	write_reduced(&l.s, 6, 6, 0);
	gen_expect(g, write_reduced(&l.s, 6, 6, 2), "read-chunk-pad-inline");
	ex_getattr3(&l.s);
	return gen_close(g);
}

static int reply_version_mismatch(struct gen *g)
{
	struct lint l;
	struct rpcrdma_hdr h;
	struct xw x;
	uint32_t xid;

	if (lint_open(g, &l, 1))
		return -1;
	xid = l.s.xid++;
	call_getattr(&l.s, xid);
	nfs3_getattr_reply(&x, xid);
	l.s.vers = 2;                   /* a V2 reply to a V1 call */
	sess_hdr(&l.s, &h, xid, RDMA2_MSG, RPCRDMA_REPLY);
	gen_expect(g, sess_send(&l.s, 1, &h, x.b, x.len, 0),
		   "reply-version-mismatch");
	l.s.vers = 1;
	ex_getattr3(&l.s);
	return gen_close(g);
}

static int crc_error(struct gen *g)
{
	struct lint l;
	uint32_t xid;

	if (lint_open(g, &l, 1))
		return -1;
	xid = l.s.xid++;
	call_getattr(&l.s, xid);
	l.c.bad_crc_next = true;        /* dropped, then resent */
	gen_expect(g, reply_getattr(&l.s, xid), "crc-error");
	reply_getattr(&l.s, xid);
	ex_getattr3(&l.s);
	return gen_close(g);
}

#define L(name, fn, what) { "lint-" name, "lint-" name ".pcap", fn, what }
const struct scenario scenarios_lint[] = {
	L("credits-exceeded", credits_exceeded, "5 calls outstanding, 4 granted"),
	L("zero-credit", zero_credit, "a reply grants 0 credits; a backward call asks for 0"),
	L("inline-too-large", inline_too_large, "an inline call over the 1024-byte V1 threshold"),
	L("xid-mismatch", xid_mismatch, "rdma_xid != RPC xid, ERR_BADHEADER back"),
	L("nomsg-without-chunks", nomsg_without_chunks, "RDMA_NOMSG, no chunks"),
	L("msgp-sent", msgp_sent, "an RDMA_MSGP call"),
	L("done-sent", done_sent, "an RDMA_DONE after a long reply"),
	L("write-chunk-overrun", write_chunk_overrun, "reply returns 4200 bytes for a 4096-byte write chunk"),
	L("reply-chunk-overrun", reply_chunk_overrun, "reply returns 2448 bytes for a 2048-byte reply chunk"),
	L("write-chunk-segments-changed", write_chunk_segments_changed,
	  "2 segments advertised, 1 returned"),
	L("unused-write-chunk-nonzero", unused_write_chunk_nonzero,
	  "unused write chunk returned with length 4096"),
	L("unadvertised-rdma", unadvertised_rdma, "RDMA Write to rkey 0xbad0bad0"),
	L("direction-mismatch", direction_mismatch, "V2 reply with rdma_direction CALL"),
	L("error-answered-with-error", error_answered_with_error,
	  "client answers RDMA_ERROR with RDMA_ERROR"),
	L("bad-header", bad_header, "read list discriminator 2"),
	L("reply-version-mismatch", reply_version_mismatch, "V2 reply to a V1 call"),
	L("read-position-past-payload", read_position_past_payload,
	  "a read chunk at position 4096 of a 76-byte call"),
	L("read-chunk-count-mismatch", read_chunk_count_mismatch,
	  "a WRITE of 100 bytes with a 200-byte read chunk"),
	L("read-chunk-pad-inline", read_chunk_pad_inline,
	  "a WRITE of 6 bytes in a read chunk, its 2-byte pad left inline"),
	L("crc-error", crc_error, "a reply with a wrong ICRC, then resent"),
	{ NULL, NULL, NULL, NULL },
};
