/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * run_nfs.c - the write-chunk, reply-chunk and backward-call cases against
 * an NFS server (--program nfs), where no ECHO program makes the responder
 * fill a chunk or call back:
 *   - write chunks (V1 §4.4.6, §4.4.6.1, §5.3.2): an NFSv3 READ (its data
 *     is DDP-eligible, RFC 5667 §4) of a file the user names (--fh, or
 *     --file looked up with NFSv4.0 PUTROOTFH/LOOKUP/GETFH), with a write
 *     chunk; the data are compared with an inline READ of the same range;
 *   - the reply chunk (V1 §4.5.3): a READ larger than our inline
 *     threshold with only a reply chunk;
 *   - the backward call (BIDI §5.1, §2.4.1, V1 §7.2.1): an NFSv4.1
 *     EXCHANGE_ID and a CREATE_SESSION with CONN_BACK_CHAN on the case's
 *     connection, after which the server probes the back channel with
 *     CB_NULL (answered by run.c's on_call).
 * The graders are the same sentences as the ECHO forms (run_chunks.c,
 * run_cases.c).
 */
#include <stdio.h>
#include <string.h>
#include <rpcrdma/rpc.h>
#include "run.h"

#define REF_MAX 1024u              /* an inline READ for reference */

static bool setup_done(const struct cf_run *r, unsigned want)
{
	(void)want;
	return r->setup_idx >= 0;
}

/* One call of the suite's own, not the case's message (recorded with role
 * "setup"): its RPC reply (in the recording), or -1 and why. */
static int setup_call(struct cf_run *r, struct cf_conn *k, const uint8_t *rpc, size_t rpclen,
		      uint32_t xid, const uint8_t **ans, size_t *anslen, char *why, size_t cap)
{
	uint8_t buf[1024];
	struct rpcrdma_msg m;
	const uint8_t *a;
	size_t n = rpclen ? cf_build(k, xid, RDMA_MSG, NULL, rpc, rpclen, buf, sizeof(buf)) : 0;
	size_t alen;
	uint32_t wv;

	if (!n) {
		snprintf(why, cap, "the call does not fit our buffer");
		return -1;
	}
	r->setup_xid = xid;
	r->setup_pending = true;
	r->setup_idx = -1;
	if (cf_send(r, k, "setup", buf, n, NULL) == 0)
		cf_wait(r, setup_done, 0, cf_now_ms() + r->o->timeout_ms);
	r->setup_pending = false;
	if (r->setup_idx < 0) {
		snprintf(why, cap, "%.140s", r->disconnected ? r->event : "no answer within the timeout");
		return -1;
	}
	a = r->rec[r->setup_idx].copy;
	alen = r->rec[r->setup_idx].r.kept;
	if (cf_decode_answer(a, alen, &m, &wv) != RPCRDMA_ACCEPT || m.rdma_proc != RDMA_MSG) {
		char t[160];

		cf_answer_text(a, alen, t, sizeof(t));
		snprintf(why, cap, "answered %.140s", t);
		return -1;
	}
	*ans = rpcrdma_payload(&m);
	*anslen = m.payload_len;
	return 0;
}

/* The file's handle: --fh, or --file looked up once */
static int nfs_fh(struct cf_run *r, struct cf_conn *k, struct cf_obs *o)
{
	uint8_t rpc[1024];
	const uint8_t *a;
	size_t alen, n;
	char why[160];

	if (!r->nfs_fh_state && r->o->nfs_fhlen) {
		memcpy(r->nfs_fh, r->o->nfs_fh, r->o->nfs_fhlen);
		r->nfs_fhlen = r->o->nfs_fhlen;
		r->nfs_fh_state = 1;
	} else if (!r->nfs_fh_state && !r->o->nfs_file) {
		snprintf(r->nfs_fh_why, sizeof(r->nfs_fh_why), "needs a file on the server to READ: "
			 "--file PATH or --fh HEX");
		r->nfs_fh_state = -1;
	} else if (!r->nfs_fh_state) {
		n = cf_nfs4_lookup_call(rpc, sizeof(rpc), cf_xid(r), r->o->nfs_file);
		if (!n) {
			snprintf(r->nfs_fh_why, sizeof(r->nfs_fh_why), "--file %.100s: too long a "
				 "path", r->o->nfs_file);
			r->nfs_fh_state = -1;
		} else if (setup_call(r, k, rpc, n, r->next_xid - 1, &a, &alen, why, sizeof(why)) < 0 ||
			   cf_nfs4_lookup_reply(a, alen, r->nfs_fh, &r->nfs_fhlen, why,
						sizeof(why)) < 0) {
			snprintf(r->nfs_fh_why, sizeof(r->nfs_fh_why), "looking up %.60s with NFSv4 "
				 "(PUTROOTFH, LOOKUP, GETFH): %.80s", r->o->nfs_file, why);
			r->nfs_fh_state = -1;
		} else {
			r->nfs_fh_state = 1;
		}
	}
	if (r->nfs_fh_state < 0) {
		cf_skip(o, "%s", r->nfs_fh_why);
		return -1;
	}
	return 0;
}

/* An inline READ of the file's first `ref` bytes: the data the chunk
 * cases compare with, and the file's size */
static int ref_read(struct cf_run *r, struct cf_conn *k, uint32_t ref, uint8_t *data,
		    uint64_t *size, struct cf_obs *o)
{
	uint8_t rpc[256];
	const uint8_t *a;
	size_t alen, n;
	uint32_t xid = cf_xid(r);
	struct cf_read3 res;
	char why[160];

	n = cf_nfs3_read_call(rpc, sizeof(rpc), xid, r->nfs_fh, r->nfs_fhlen, 0, ref);
	if (setup_call(r, k, rpc, n, xid, &a, &alen, why, sizeof(why)) < 0 ||
	    cf_nfs3_read_reply(a, alen, &res, why, sizeof(why)) < 0) {
		cf_skip(o, "the inline READ of the file: %s", why);
		return -1;
	}
	if (res.count != ref || res.data_len != ref || res.rest < ref) {
		cf_skip(o, "the file holds fewer than %u bytes (an inline READ returned %u)", ref,
			res.count);
		return -1;
	}
	memcpy(data, a + res.data_off, ref);
	*size = res.have_size ? res.size : ref;
	return 0;
}

static void grade_write(const struct cf_case *c, struct cf_obs *o, const struct rpcrdma_msg *m,
			const struct cf_mem *wm, const uint8_t *ref, uint32_t len)
{
	struct rpcrdma_segment back[4];
	struct cf_read3 res;
	unsigned nch, got;
	char why[160];

	if (cf_nfs3_read_reply(rpcrdma_payload(m), m->payload_len, &res, why, sizeof(why)) < 0) {
		cf_skip(o, "the READ was not served: %s", why);
		return;
	}
	nch = cf_write_list(m, &got, back, 4);
	snprintf(o->note, sizeof(o->note), "NFSv3 READ of %u bytes: count %u, %u write chunk(s), "
		 "%u segment(s), the first of %u bytes; %zu Payload bytes after the data's length "
		 "word", len, res.count, nch, got, got ? back[0].rdma_length : 0, res.rest);
	switch (c->kind) {
	case CF_K_WRITE_USED:
		if (nch != 1 || got != 1 || back[0].rdma_length != len ||
		    back[0].rdma_handle != wm->seg.rdma_handle)
			cf_fault(o, "V1-5.3.2-write", "the reply's write list is not one chunk "
				 "of one %u-byte segment (%u chunks, %u segments)", len, nch, got);
		else if (memcmp(wm->buf, ref, len))
			cf_fault(o, "V1-5.3.2-write", "the write chunk does not hold the file's data "
				 "(as an inline READ of the same range returned them)");
		else if (res.rest)
			cf_fault(o, "V1-5.3.2-write", "the result is inline too (%zu payload bytes "
				 "after its length word)", res.rest);
		break;
	case CF_K_WRITE_SEGCOUNT:
		if (nch != 1 || got != 2)
			cf_fault(o, "V1-4.4.6-segcount", "%u chunks, the first with %u segments; "
				 "the call's had 1 and 2", nch, got);
		break;
	case CF_K_WRITE_UNFILLED:
		if (nch == 1 && got == 2 && back[1].rdma_length != 0)
			cf_fault(o, "V1-4.4.6-unfilled", "the unfilled second segment has "
				 "length %u", back[1].rdma_length);
		break;
	case CF_K_WRITE_NOPAD:
		if (nch == 1 && got >= 1 && back[0].rdma_length != len)
			cf_fault(o, "V1-4.4.6.1-nopad", "segment length %u for a %u-byte "
				 "result", back[0].rdma_length, len);
		else if (memcmp(wm->buf, ref, len))
			cf_fault(o, "V1-5.3.2-write", "the write chunk does not hold the file's data");
		else if (wm->buf[5] != CF_CANARY || wm->buf[6] != CF_CANARY ||
			 wm->buf[7] != CF_CANARY)
			cf_fault(o, "V1-4.4.6.1-nopad", "pad bytes written after the result");
		else if (res.rest)
			/* the READ reply's stream ends with the data's length
			 * word: the data and their pad moved out */
			cf_fault(o, "V1-4.4.6.1-resp-pad", "the reply's Payload stream has %zu bytes "
				 "after the data's length word (the moved item or its XDR pad left "
				 "in it)", res.rest);
		break;
	default:
		break;
	}
}

static void grade_reply(struct cf_obs *o, const struct rpcrdma_msg *m, const struct cf_mem *wm,
			size_t wmlen, const uint8_t *ref, uint32_t nref, uint32_t len, uint32_t xid)
{
	struct rpcrdma_seg_iter sit;
	struct rpcrdma_segment s;
	struct rpc_msg_hdr rh;
	struct cf_read3 res;
	char why[160];

	if (m->rdma_proc == RDMA_MSG) {
		cf_fault(o, "V1-4.5.3-reply", "the %u-byte reply came inline (RDMA_MSG), not in "
			 "the reply chunk", m->payload_len);
		return;
	}
	if (!rpcrdma_reply_chunk(m, &sit) || !rpcrdma_seg_next(&sit, &s) ||
	    s.rdma_length > wmlen || s.rdma_length < 24) {
		cf_fault(o, "V1-4.5.3-reply", "RDMA_NOMSG without a usable reply chunk");
		return;
	}
	snprintf(o->note, sizeof(o->note), "NFSv3 READ of %u bytes: RDMA_NOMSG, %u bytes in the "
		 "reply chunk", len, s.rdma_length);
	if (rpc_decode_header(wm->buf, s.rdma_length, &rh) != RPC_OK || rh.xid != xid)
		cf_fault(o, "V1-4.5.3-reply", "the reply chunk does not hold the reply");
	else if (cf_nfs3_read_reply(wm->buf, s.rdma_length, &res, why, sizeof(why)) < 0)
		cf_skip(o, "the READ was not served: %s", why);
	else if (res.count != len || res.data_len != len || res.rest < len ||
		 memcmp(wm->buf + res.data_off, ref, nref))
		cf_fault(o, "V1-4.5.3-reply", "the READ reply in the chunk does not hold the "
			 "file's %u bytes (count %u)", len, res.count);
}

void cf_nfs_write_chunk(struct cf_run *r, const struct cf_case *c, struct cf_obs *o)
{
	struct cf_conn *k = cf_conn_for(r, c, o);
	uint8_t rpc[512], buf[1024], ref[REF_MAX];
	uint32_t xid, wv, len, seglen, nref;
	unsigned nseg = 1, i;
	struct rpcrdma_segment segs[2];
	struct rpcrdma_write_chunk wc;
	struct rpcrdma_hdr h;
	struct rpcrdma_msg m;
	struct cf_mem wm;
	size_t n, rpclen, wmlen;
	uint64_t size;

	if (!k || nfs_fh(r, k, o) < 0)
		return;
	len = c->kind == CF_K_WRITE_NOPAD ? 5 : c->kind == CF_K_REPLY_CHUNK ?
	      xprt_peer(k->x)->inline_recv + 512 : 256;      /* over our threshold */
	seglen = c->kind == CF_K_WRITE_NOPAD ? 8 : len;
	nref = len < REF_MAX ? len : REF_MAX;
	if (ref_read(r, k, nref, ref, &size, o) < 0)
		return;
	if (size < len) {
		cf_skip(o, "the file is %llu bytes; this case READs %u", (unsigned long long)size,
			len);
		return;
	}
	if (c->kind == CF_K_WRITE_SEGCOUNT || c->kind == CF_K_WRITE_UNFILLED)
		nseg = 2;
	xid = cf_xid(r);
	rpclen = cf_nfs3_read_call(rpc, sizeof(rpc), xid, r->nfs_fh, r->nfs_fhlen, 0, len);
	memset(&h, 0, sizeof(h));
	h.direction = RPCRDMA_CALL;
	wmlen = c->kind == CF_K_REPLY_CHUNK ? (size_t)len + 512 : (size_t)seglen * nseg;
	if (cf_mem_get(k, &wm, wmlen, true, o) < 0)
		return;
	if (c->kind == CF_K_REPLY_CHUNK) {
		wc.segs = &wm.seg;
		wc.nsegs = 1;
		h.reply = &wc;
	} else {
		for (i = 0; i < nseg; i++) {
			segs[i] = wm.seg;
			segs[i].rdma_length = seglen;
			segs[i].rdma_offset += (uint64_t)i * seglen;
		}
		wc.segs = segs;
		wc.nsegs = nseg;
		h.writes = &wc;
		h.nwrites = 1;
	}
	n = cf_build(k, xid, RDMA_MSG, &h, rpc, rpclen, buf, sizeof(buf));
	cf_call(r, k, o, buf, n, xid);
	if (cf_answer_ok(o, &m, &wv)) {
		if (c->kind == CF_K_REPLY_CHUNK)
			grade_reply(o, &m, &wm, wmlen, ref, nref, len, xid);
		else
			grade_write(c, o, &m, &wm, ref, len);
	}
	cf_mem_put(k, &wm);
}

/* BIDI §2.4.1: a forward call with the xid of the outstanding CB_NULL */
static void nfs_xid_hook(struct cf_run *r, struct xprt_rcvd_call *req)
{
	struct cf_conn *k = xprt_get_ctx(req->x);
	uint8_t rpc[64], buf[128];
	size_t n;

	if (!k || r->ncase_xid != 1)
		return;
	n = cf_target_null(&r->t, req->xid, rpc, sizeof(rpc));
	n = cf_build(k, req->xid, RDMA_MSG, NULL, rpc, n, buf, sizeof(buf));
	cf_case_xid(r, req->xid);
	cf_send(r, k, "case", buf, n, NULL);
}

static bool backward_done(const struct cf_run *r, unsigned want)
{
	return r->nanswers >= want && r->backward_seen;
}

void cf_nfs_backward(struct cf_run *r, const struct cf_case *c, struct cf_obs *o)
{
	struct cf_conn *k = cf_conn_for(r, c, o);
	bool spaces = c->kind == CF_K_BIDI_XID_SPACES;
	uint8_t rpc[512], buf[1024];
	const uint8_t *a, *b;
	size_t alen, blen, n;
	uint64_t clientid;
	uint32_t seq, flags, xid;
	char why[160];
	struct rpcrdma_msg m;

	if (!k)
		return;
	xid = cf_xid(r);
	n = cf_nfs41_exchange_id(rpc, sizeof(rpc), xid, r->o->xid_base ^ xid);
	if (setup_call(r, k, rpc, n, xid, &a, &alen, why, sizeof(why)) < 0 ||
	    cf_nfs41_exchange_id_reply(a, alen, &clientid, &seq, why, sizeof(why)) < 0) {
		cf_skip(o, "NFSv4.1 EXCHANGE_ID: %s", why);
		return;
	}
	/* the case's message: CREATE_SESSION with CONN_BACK_CHAN, after which
	 * the server probes the back channel (CB_NULL) */
	xid = cf_xid(r);
	n = cf_nfs41_create_session(rpc, sizeof(rpc), xid, clientid, seq);
	n = cf_build(k, xid, RDMA_MSG, NULL, rpc, n, buf, sizeof(buf));
	if (spaces)
		r->on_backward = nfs_xid_hook;
	cf_case_xid(r, xid);
	o->sent_has_xid = o->sent_has_vers = true;
	o->sent_vers = k->vers;
	o->sent_action = (int)rpcrdma_decode(buf, n, &m);
	if (cf_send(r, k, "case", buf, n, o) == 0)
		cf_wait(r, backward_done, spaces ? 2 : 1, cf_now_ms() + r->o->timeout_ms);
	r->on_backward = NULL;
	cf_finish(r, k, o, true);
	a = cf_answer_for(r, xid, &alen);
	if (!a || cf_decode_answer(a, alen, &m, &seq) != RPCRDMA_ACCEPT ||
	    m.rdma_proc != RDMA_MSG)
		return;                 /* graded on the answer (or its absence) */
	if (cf_nfs41_create_session_reply(rpcrdma_payload(&m), m.payload_len, &flags, why,
					  sizeof(why)) < 0) {
		cf_skip(o, "NFSv4.1 CREATE_SESSION: %s", why);
		return;
	}
	if (!(flags & CF_NFS41_CONN_BACK_CHAN)) {
		cf_skip(o, "the server did not bind the connection to the back channel "
			"(csr_flags 0x%x)", flags);
		return;
	}
	b = cf_backward_call(r, &blen);
	if (!b) {
		cf_skip(o, "the server sent no backward call (CB_NULL) within %d ms of "
			"CREATE_SESSION", r->o->timeout_ms);
		return;
	}
	snprintf(o->note, sizeof(o->note), "NFSv4.1 CREATE_SESSION with CONN_BACK_CHAN; the "
		 "server's backward call: xid 0x%08x", r->backward_xid);
	if (!spaces)
		cf_grade_backward_form(o, b, blen, k->vers);
	else if (r->ncase_xid < 2 || !cf_answer_for(r, r->case_xid[1], &alen))
		cf_fault(o, "D-CONF-8", "the forward call with the backward call's "
			 "xid 0x%08x was not answered", r->backward_xid);
}
