/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * run_chunks.c - the cases with chunks the suite registers itself: read
 * chunks that move more or less than the Payload stream says (V1
 * §4.4.4.1), an odd one without round-up (§4.4.5.1), one the responder
 * cannot read (§5.5.3), one holding more than the DDP-eligible item
 * (§8.1.1); write chunks the responder fills (§4.4.6, §4.4.6.1, §4.4.6.2,
 * §5.3.2) and reply chunks (§4.5.3, §5.3.3).
 */
#include <stdlib.h>
#include <string.h>
#include <rpcrdma/rpc.h>
#include "echo_ulb.h"
#include "run.h"

#define CANARY CF_CANARY

int cf_mem_get(struct cf_conn *k, struct cf_mem *mm, size_t len, bool write, struct cf_obs *o)
{
	struct xprt_error err;

	memset(mm, 0, sizeof(*mm));
	mm->buf = malloc(len);
	if (!mm->buf) {
		cf_skip(o, "out of memory");
		return -1;
	}
	memset(mm->buf, CANARY, len);
	mm->gen = k->gen;
	mm->m = xprt_mem_register(k->x, mm->buf, len, write, &mm->seg, &err);
	if (!mm->m) {
		cf_skip(o, "memory registration: %s", err.msg);
		free(mm->buf);
		mm->buf = NULL;
		return -1;
	}
	return 0;
}

void cf_mem_put(struct cf_conn *k, struct cf_mem *mm)
{
	if (mm->m && k->x && k->gen == mm->gen)
		xprt_mem_release(mm->m);
	free(mm->buf);
	memset(mm, 0, sizeof(*mm));
}

/* A call whose DDP-eligible argument goes in a read chunk (V1 §4.4.5) that
 * moves more, less, an odd length without pad, or nothing readable */
void cf_read_chunk(struct cf_run *r, const struct cf_case *c, struct cf_obs *o)
{
	struct cf_conn *k = cf_conn_for(r, c, o);
	uint8_t rpc[1024], buf[1024];
	uint32_t xid = cf_xid(r), len = c->kind == CF_K_CHUNK_ROUNDUP ? 5 : 256, wv, reg = len;
	struct rpcrdma_read_segment rs;
	struct rpcrdma_hdr h;
	struct rpcrdma_msg m;
	struct cf_mem mm;
	size_t off, n;

	if (!k)
		return;
	n = cf_target_data_call(&r->t, xid, len, rpc, sizeof(rpc), &off);
	if (!n) {
		cf_skip(o, "no such call for this program");
		return;
	}
	if (c->kind == CF_K_CHUNK_LONG || c->kind == CF_K_CHUNK_NOT_DDP)
		reg = len + 8;
	if (cf_mem_get(k, &mm, reg, false, o) < 0)
		return;
	cf_pattern(mm.buf, reg, xid);
	memset(&h, 0, sizeof(h));
	h.direction = RPCRDMA_CALL;
	rs.rdma_position = (uint32_t)off;
	rs.rdma_target = mm.seg;
	rs.rdma_target.rdma_length = c->kind == CF_K_CHUNK_SHORT ? len - 8 : reg;
	if (c->kind == CF_K_CHUNK_NOT_DDP) {
		/* the opaque's length word moved too: not DDP-eligible (V1 §4.4.4.1) */
		memcpy(mm.buf, rpc + off - 4, 4);
		cf_pattern(mm.buf + 4, len, xid);
		off -= 4;
		rs.rdma_position = (uint32_t)off;
		rs.rdma_target.rdma_length = len + 4;
	}
	if (c->kind == CF_K_CHUNK_BADHANDLE) {
		rs.rdma_target.rdma_handle ^= 0xffu;    /* the key byte: no such region */
		o->rdma_fault = true;
	}
	h.reads = &rs;
	h.nreads = 1;
	/* the reduced call: the data (and its pad) left out, V1 §4.4.5.1 */
	n = cf_build(k, xid, RDMA_MSG, &h, rpc, off, buf, sizeof(buf));
	snprintf(o->note, sizeof(o->note), "opaque length %u, read chunk of %u bytes at position %zu",
		 len, rs.rdma_target.rdma_length, off);
	cf_call(r, k, o, buf, n, xid);
	if (c->kind == CF_K_CHUNK_ROUNDUP && r->t.prof == CF_PROF_ECHO && cf_answer_ok(o, &m, &wv)) {
		struct rpc_msg_hdr rh;
		const uint8_t *d;
		uint32_t dl;
		uint8_t want[8];

		cf_pattern(want, len, xid);
		if (echo_decode_reply(rpcrdma_payload(&m), m.payload_len, ECHO_PROC_ECHO, &rh, &d,
				      &dl, NULL) == 0 && (dl != len || memcmp(d, want, len)))
			cf_fault(o, "V1-4.4.5.1-roundup", "the echoed data differ from the chunk's");
	}
	cf_mem_put(k, &mm);
}

/* The write list of an accepted answer: chunks, segments of the first and
 * their lengths */
unsigned cf_write_list(const struct rpcrdma_msg *m, unsigned *nsegs,
		       struct rpcrdma_segment *segs, unsigned cap)
{
	struct rpcrdma_chunk_iter it;
	struct rpcrdma_seg_iter ch;
	unsigned nch = 0;

	*nsegs = 0;
	rpcrdma_write_iter_init(m, &it);
	while (rpcrdma_write_next(&it, &ch)) {
		struct rpcrdma_segment s;

		while (rpcrdma_seg_next(&ch, &s))
			if (nch == 0 && (*nsegs)++ < cap)
				segs[*nsegs - 1] = s;
		nch++;
	}
	return nch;
}

/* V1 §5.3.2: the result went into the write chunk, one segment of len bytes
 * in the memory the call offered; true when not (the fault set), for a
 * case's ECHO and NFS forms */
bool cf_grade_write_used(struct cf_obs *o, const struct cf_mem *wm, unsigned nch, unsigned got,
			 const struct rpcrdma_segment *back, uint32_t len)
{
	if (nch == 1 && got == 1 && back[0].rdma_length == len &&
	    back[0].rdma_handle == wm->seg.rdma_handle)
		return false;
	cf_fault(o, "V1-5.3.2-write", "the reply's write list is not one chunk "
		 "of one %u-byte segment (%u chunks, %u segments)", len, nch, got);
	return true;
}

/* V1 §4.4.6: the reply's write chunk has the call's segment count, and an
 * unfilled segment length zero; the same for a case's ECHO and NFS forms */
void cf_grade_write_segs(const struct cf_case *c, struct cf_obs *o, unsigned nch, unsigned got,
			 const struct rpcrdma_segment *back)
{
	if (c->kind == CF_K_WRITE_SEGCOUNT && (nch != 1 || got != 2))
		cf_fault(o, "V1-4.4.6-segcount", "%u chunks, the first with %u segments; "
			 "the call's had 1 and 2", nch, got);
	else if (c->kind == CF_K_WRITE_UNFILLED && nch == 1 && got == 2 &&
		 back[1].rdma_length != 0)
		cf_fault(o, "V1-4.4.6-unfilled", "the unfilled second segment has "
			 "length %u", back[1].rdma_length);
}

/* The write list of the reply (V1 §4.4.6, §5.3.2) against the call's */
static void grade_write_list(const struct cf_run *r, const struct cf_case *c,
			     struct cf_obs *o, const struct rpcrdma_msg *m,
			     const struct cf_mem *wm, const uint8_t *data, uint32_t len,
			     uint32_t xid)
{
	struct rpcrdma_segment back[4];
	uint8_t want[8];
	unsigned nch, got;

	nch = cf_write_list(m, &got, back, 4);
	switch (c->kind) {
	case CF_K_WRITE_USED:
		if (cf_grade_write_used(o, wm, nch, got, back, len))
			;
		else if (memcmp(wm->buf, data, len))
			cf_fault(o, "V1-5.3.2-write", "the write chunk does not hold the result");
		else if (m->payload_len > ECHO_REPLY_HDR_LEN + 4)
			cf_fault(o, "V1-5.3.2-write", "the result is inline too (%u payload bytes)",
				 m->payload_len);
		break;
	case CF_K_WRITE_SEGCOUNT:
	case CF_K_WRITE_UNFILLED:
		cf_grade_write_segs(c, o, nch, got, back);
		break;
	case CF_K_WRITE_NOPAD:
		cf_pattern(want, len, xid);
		if (nch == 1 && got >= 1 && back[0].rdma_length != len)
			cf_fault(o, "V1-4.4.6.1-nopad", "segment length %u for a %u-byte "
				 "result", back[0].rdma_length, len);
		else if (memcmp(wm->buf, want, len))
			cf_fault(o, "V1-5.3.2-write", "the write chunk does not hold the result");
		else if (wm->buf[5] != CANARY || wm->buf[6] != CANARY || wm->buf[7] != CANARY)
			cf_fault(o, "V1-4.4.6.1-nopad", "pad bytes written after the result");
		else if (r->t.prof == CF_PROF_ECHO && m->payload_len != ECHO_REPLY_HDR_LEN + 4)
			/* the ECHO reply's stream: its header and the
			 * length word; the data and its pad moved out */
			cf_fault(o, "V1-4.4.6.1-resp-pad", "the reply's Payload stream is %u "
				 "bytes, not the %u of its header and the length word (the "
				 "moved item or its XDR pad left in it)", m->payload_len,
				 ECHO_REPLY_HDR_LEN + 4);
		break;
	case CF_K_WRITE_UNUSED:
		if (nch == 0)
			cf_fault(o, "V1-4.4.6.2-unused", "the reply's write list is empty: the "
				 "unused chunk was dropped, not returned with zero lengths");
		else if (got != 1 || back[0].rdma_length != 0)
			cf_fault(o, "V1-4.4.6.2-unused", "the unused chunk came back with %u "
				 "segments, length %u", got, back[0].rdma_length);
		break;
	default:
		break;
	}
}

/* A reply chunk (V1 §4.5.3, §5.3.3): the reply by RDMA Write into it,
 * announced by RDMA_NOMSG; or inline where the case allows it */
static void grade_reply_chunk(const struct cf_case *c, struct cf_obs *o,
			      const struct rpcrdma_msg *m, const struct cf_mem *wm,
			      const uint8_t *data, uint32_t len, uint32_t xid, bool null)
{
	struct rpcrdma_seg_iter sit;
	struct rpcrdma_segment s;
	struct rpc_msg_hdr rh;
	const uint8_t *d;
	uint32_t dl;

	if (m->rdma_proc == RDMA_MSG) {
		if (c->kind == CF_K_REPLY_CHUNK) {
			cf_fault(o, "V1-4.5.3-reply", "the %u-byte reply came inline "
				 "(RDMA_MSG), not in the reply chunk", m->payload_len);
		} else {
			/* the case's own sentence is this MAY: both
			 * branches conform, neither is the exception */
			snprintf(o->note, sizeof(o->note), "answered inline (RDMA_MSG, %u "
				 "payload bytes): the branch V1 §5.3.3 MAY gives",
				 m->payload_len);
		}
		return;
	}
	if (!rpcrdma_reply_chunk(m, &sit) || !rpcrdma_seg_next(&sit, &s) ||
	    s.rdma_length > 256 + len + 64 || s.rdma_length < 24) {
		cf_fault(o, "V1-4.5.3-reply", "RDMA_NOMSG without a usable reply chunk");
		return;
	}
	if (rpc_decode_header(wm->buf, s.rdma_length, &rh) != RPC_OK || rh.xid != xid)
		cf_fault(o, "V1-4.5.3-reply", "the reply chunk does not hold the reply");
	else if (!null && (echo_decode_reply(wm->buf, s.rdma_length, ECHO_PROC_ECHO,
					       &rh, &d, &dl, NULL) || dl != len ||
			   memcmp(d, data, len)))
		cf_fault(o, "V1-4.5.3-reply", "the reply in the chunk is not the echo");
	snprintf(o->note, sizeof(o->note), "RDMA_NOMSG, %u bytes in the reply chunk",
		 s.rdma_length);
}

/* Write chunks and reply chunks the responder fills (V1 §4.4.6, §4.5.3,
 * §5.3.2, §5.3.3) */
void cf_write_chunk(struct cf_run *r, const struct cf_case *c, struct cf_obs *o)
{
	struct cf_conn *k;
	uint8_t rpc[6000], buf[1024];
	uint32_t xid = cf_xid(r), wv, len = c->kind == CF_K_WRITE_NOPAD ? 5 : 256, seglen = len;
	unsigned nseg = 1;
	struct rpcrdma_segment segs[2];
	struct rpcrdma_write_chunk wc;
	struct rpcrdma_read_segment rs;
	struct rpcrdma_hdr h;
	struct rpcrdma_msg m;
	struct cf_mem wm, rm;
	size_t off = 0, n, rpclen;
	bool reply_chunk = c->kind == CF_K_REPLY_CHUNK || c->kind == CF_K_REPLY_CHUNK_SHORT;
	bool null = c->kind == CF_K_WRITE_UNUSED || c->kind == CF_K_REPLY_CHUNK_SHORT;

	k = cf_conn_for(r, c, o);
	if (!k)
		return;
	memset(&rm, 0, sizeof(rm));
	memset(&h, 0, sizeof(h));
	h.direction = RPCRDMA_CALL;
	if (c->kind == CF_K_REPLY_CHUNK)
		len = xprt_peer(k->x)->inline_recv + 512;   /* over our threshold */
	if (c->kind == CF_K_WRITE_SEGCOUNT || c->kind == CF_K_WRITE_UNFILLED)
		nseg = 2;
	if (c->kind == CF_K_WRITE_NOPAD)
		seglen = 8;
	if (c->kind == CF_K_WRITE_UNUSED)
		seglen = 64;
	if (null)
		rpclen = cf_target_null(&r->t, xid, rpc, sizeof(rpc));
	else
		rpclen = cf_target_data_call(&r->t, xid, len, rpc, sizeof(rpc), &off);
	if (!rpclen) {
		cf_skip(o, "no such call for this program");
		return;
	}
	if (reply_chunk) {
		/* the call's data goes by RDMA Read, the reply into the chunk */
		size_t max = null ? 256 : echo_reply_max(ECHO_PROC_ECHO, len);

		if (cf_mem_get(k, &wm, max, true, o) < 0)
			return;
		wc.segs = &wm.seg;
		wc.nsegs = 1;
		h.reply = &wc;
		if (!null) {
			if (cf_mem_get(k, &rm, len, false, o) < 0) {
				cf_mem_put(k, &wm);
				return;
			}
			memcpy(rm.buf, rpc + off, len);
			rs.rdma_position = (uint32_t)off;
			rs.rdma_target = rm.seg;
			h.reads = &rs;
			h.nreads = 1;
			rpclen = off;
		}
	} else {
		if (cf_mem_get(k, &wm, (size_t)seglen * nseg, true, o) < 0)
			return;
		cf_write_segs(&h, &wc, segs, &wm, nseg, seglen);
	}
	n = cf_build(k, xid, RDMA_MSG, &h, rpc, rpclen, buf, sizeof(buf));
	cf_call(r, k, o, buf, n, xid);
	if (cf_answer_ok(o, &m, &wv)) {
		if (reply_chunk)
			grade_reply_chunk(c, o, &m, &wm, rpc + off, len, xid, null);
		else
			grade_write_list(r, c, o, &m, &wm, rpc + off, len, xid);
	}
	cf_mem_put(k, &rm);
	cf_mem_put(k, &wm);
}

