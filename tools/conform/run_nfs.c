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
	a = r->setup_ans;
	alen = r->setup_len;
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

void cf_nfs_grade_write(const struct cf_case *c, struct cf_obs *o, const struct rpcrdma_msg *m,
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
		if (cf_grade_write_used(o, wm, nch, got, back, len))
			;
		else if (memcmp(wm->buf, ref, len))
			cf_fault(o, "V1-5.3.2-write", "the write chunk does not hold the file's data "
				 "(as an inline READ of the same range returned them)");
		else if (res.rest)
			cf_fault(o, "V1-5.3.2-write", "the result is inline too (%zu payload bytes "
				 "after its length word)", res.rest);
		break;
	case CF_K_WRITE_SEGCOUNT:
	case CF_K_WRITE_UNFILLED:
		cf_grade_write_segs(c, o, nch, got, back);
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

void cf_nfs_grade_reply(struct cf_obs *o, const struct rpcrdma_msg *m, const struct cf_mem *wm,
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
	unsigned nseg = 1;
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
		cf_write_segs(&h, &wc, segs, &wm, nseg, seglen);
	}
	n = cf_build(k, xid, RDMA_MSG, &h, rpc, rpclen, buf, sizeof(buf));
	cf_call(r, k, o, buf, n, xid);
	if (cf_answer_ok(o, &m, &wv)) {
		if (c->kind == CF_K_REPLY_CHUNK)
			cf_nfs_grade_reply(o, &m, &wm, wmlen, ref, nref, len, xid);
		else
			cf_nfs_grade_write(c, o, &m, &wm, ref, len);
	}
	cf_mem_put(k, &wm);
}

/* A client's state gone (errors do not matter): knfsd forgets a file
 * whose delegation was recalled only once nothing holds it */
static void nfs41_destroy(struct cf_run *r, struct cf_conn *k, const uint8_t sessionid[16],
			  uint64_t clientid)
{
	uint8_t rpc[256];
	const uint8_t *a;
	size_t alen, n;
	uint32_t xid;
	char why[160];

	if (!k->x)
		return;
	xid = cf_xid(r);
	n = cf_nfs41_destroy(rpc, sizeof(rpc), xid, sessionid, 0);
	setup_call(r, k, rpc, n, xid, &a, &alen, why, sizeof(why));
	xid = cf_xid(r);
	n = cf_nfs41_destroy(rpc, sizeof(rpc), xid, NULL, clientid);
	setup_call(r, k, rpc, n, xid, &a, &alen, why, sizeof(why));
}

static bool never(const struct cf_run *r, unsigned want)
{
	(void)r;
	(void)want;
	return false;
}

/* One NFSv4.1 client on connection k: EXCHANGE_ID, CREATE_SESSION with
 * CONN_BACK_CHAN (sessionid out); -1 after cf_skip */
static int nfs41_client(struct cf_run *r, struct cf_conn *k, const char *who, uint64_t *clientid,
			uint8_t sessionid[16], struct cf_obs *o)
{
	uint8_t rpc[512];
	const uint8_t *a;
	size_t alen, n;
	uint32_t seq, flags, xid = cf_xid(r);
	char why[160];

	n = cf_nfs41_exchange_id(rpc, sizeof(rpc), xid, r->o->xid_base ^ xid);
	if (setup_call(r, k, rpc, n, xid, &a, &alen, why, sizeof(why)) < 0 ||
	    cf_nfs41_exchange_id_reply(a, alen, clientid, &seq, why, sizeof(why)) < 0) {
		cf_skip(o, "NFSv4.1 EXCHANGE_ID (%s): %s", who, why);
		return -1;
	}
	xid = cf_xid(r);
	n = cf_nfs41_create_session(rpc, sizeof(rpc), xid, *clientid, seq);
	if (setup_call(r, k, rpc, n, xid, &a, &alen, why, sizeof(why)) < 0 ||
	    cf_nfs41_create_session_reply(a, alen, sessionid, &flags, why, sizeof(why)) < 0) {
		cf_skip(o, "NFSv4.1 CREATE_SESSION (%s): %s", who, why);
		return -1;
	}
	if (!(flags & CF_NFS41_CONN_BACK_CHAN)) {
		cf_skip(o, "the server did not bind the connection to the back channel "
			"(csr_flags 0x%x)", flags);
		return -1;
	}
	xid = cf_xid(r);
	n = cf_nfs41_reclaim_complete(rpc, sizeof(rpc), xid, sessionid, 1);
	if (setup_call(r, k, rpc, n, xid, &a, &alen, why, sizeof(why)) < 0 ||
	    cf_nfs41_reclaim_complete_reply(a, alen, why, sizeof(why)) < 0) {
		cf_skip(o, "NFSv4.1 RECLAIM_COMPLETE (%s): %s", who, why);
		return -1;
	}
	return 0;
}

/* The backward call: knfsd sends no CB_NULL to an NFSv4.1 client
 * (nfsd4_run_cb_work: "Don't send probe messages for 4.1 or later"), so
 * the case makes it recall a delegation: client A (the case's connection,
 * with a back channel) OPENs the file for READ with a read delegation;
 * client B (a second connection) OPENs it for WRITE, which conflicts
 * (RFC 8881 §10.4.4): the server sends A a CB_COMPOUND { CB_SEQUENCE,
 * CB_RECALL } on A's connection (answered NFS4_OK by run.c's on_call).
 * B's OPEN is the case's message; A returns the delegation and closes. */
/* Client A's OPEN of the file for reading, asking for a read delegation.
 * NFS4ERR_GRACE (the server's grace period after its start, RFC 8881
 * §8.4.2.1: the client retries later) is retried once a second, counted;
 * an OPEN that grants no delegation is closed and tried again, up to three
 * times.  0, or -1 with the case skipped; *seqp: the last seqid used */
static int open_for_read(struct cf_run *r, struct cf_conn *k, const uint8_t sa[16], uint64_t ca,
			 uint32_t *seqp, uint8_t osid[16], uint32_t *deleg, uint8_t dsid[16],
			 uint32_t *ngrace, uint32_t *nnodeleg, struct cf_obs *o)
{
	uint8_t rpc[512];
	const uint8_t *a;
	size_t alen, n;
	uint32_t xid, seq;
	char why[160];

	for (seq = 2;; seq++) {
		unsigned mark = r->nrec;

		*seqp = seq;
		xid = cf_xid(r);
		n = cf_nfs41_open(rpc, sizeof(rpc), xid, sa, seq, r->nfs_fh, r->nfs_fhlen, ca,
				  false);
		if (setup_call(r, k, rpc, n, xid, &a, &alen, why, sizeof(why)) == 0 &&
		    cf_nfs41_open_reply(a, alen, osid, deleg, dsid, why, sizeof(why)) == 0) {
			if (*deleg == 1 || *deleg == 2 || *nnodeleg >= 3)
				return 0;
			/* no delegation: knfsd refuses one on a file whose
			 * last delegation was recalled until it forgets the
			 * file (the previous case); close, try again */
			(*nnodeleg)++;
			*seqp = ++seq;
			xid = cf_xid(r);
			n = cf_nfs41_return(rpc, sizeof(rpc), xid, sa, seq, r->nfs_fh,
					    r->nfs_fhlen, osid, NULL);
			setup_call(r, k, rpc, n, xid, &a, &alen, why, sizeof(why));
			cf_rec_drop(r, mark);
			cf_wait(r, never, 0, cf_now_ms() + 1000);
			continue;
		}
		if (!strstr(why, "OPEN: NFS4 status 10013") || *ngrace >= 30) {
			cf_skip(o, "NFSv4.1 OPEN for READ: %s%s", why,
				*ngrace ? " (grace: retried)" : "");
			return -1;
		}
		(*ngrace)++;
		cf_rec_drop(r, mark);   /* the recording keeps the last try */
		cf_wait(r, never, 0, cf_now_ms() + 1000);
	}
}

void cf_nfs_backward(struct cf_run *r, const struct cf_case *c, struct cf_obs *o)
{
	struct cf_conn *k = cf_conn_for(r, c, o), *b = &r->nfs_b;
	bool spaces = c->kind == CF_K_BIDI_XID_SPACES;
	uint8_t rpc[512], buf[1024], sa[16], sb[16], osid[16], dsid[16];
	const uint8_t *a, *bc;
	size_t alen, blen, n;
	uint64_t ca, cb;
	uint32_t xid, deleg = 0, seq, ngrace = 0, nnodeleg = 0;
	bool bclient = false;
	char why[160];
	struct rpcrdma_msg m;
	struct xprt_error err;

	if (!k || nfs_fh(r, k, o) < 0 || nfs41_client(r, k, "A", &ca, sa, o) < 0)
		return;
	if (open_for_read(r, k, sa, ca, &seq, osid, &deleg, dsid, &ngrace, &nnodeleg, o) < 0)
		goto out;
	if ((deleg != 1 && deleg != 2) && !spaces && r->nfs_bc_len) {
		/* knfsd remembers that the file's delegation was recalled
		 * (a conflict) and grants none on it until it forgets the
		 * file, which took longer than 20 s in the test bed: the
		 * backward call graded is the one an earlier case of this
		 * run drew, said so */
		o->react_set = true;
		o->react = CF_R_REPLY;
		snprintf(o->note, sizeof(o->note), "no new delegation on the file (%u tries a second "
			 "apart): graded the CB_RECALL that %s drew in this run", nnodeleg + 1,
			 r->nfs_bc_case);
		cf_grade_backward_form(o, r->nfs_bc, r->nfs_bc_len, k->vers);
		goto out;
	}
	if (deleg != 1 && deleg != 2) {
		cf_skip(o, "the server granted no delegation on the file (type %u, %u tries a "
			"second apart): nothing to recall", deleg, nnodeleg + 1);
		goto out;
	}
	/* client B on a connection of its own */
	cf_conn_close(r, b);
	if (cf_conn_open(r, b, 1, &err) < 0) {
		cf_skip(o, "a second connection: %.120s", err.msg);
		goto out;
	}
	if (nfs41_client(r, b, "B", &cb, sb, o) < 0)
		goto out_b;
	bclient = true;
	xid = cf_xid(r);
	n = cf_nfs41_open(rpc, sizeof(rpc), xid, sb, 2, r->nfs_fh, r->nfs_fhlen, cb, true);
	n = cf_build(b, xid, RDMA_MSG, NULL, rpc, n, buf, sizeof(buf));
	o->sent_action = (int)rpcrdma_decode(buf, n, &m);
	cf_send_for_backward(r, b, o, buf, n, xid, spaces);
	/* B's OPEN may wait for the recall: the answer is not the point */
	r->watch = k;
	cf_finish(r, k, o, r->answer_idx < 0);
	bc = cf_backward_call(r, &blen);
	if (!bc) {
		cf_skip(o, "the server sent no backward call (CB_RECALL) within %d ms of a "
			"conflicting OPEN", r->o->timeout_ms);
		goto out_b;
	}
	r->nfs_bc_len = blen < sizeof(r->nfs_bc) ? blen : sizeof(r->nfs_bc);
	memcpy(r->nfs_bc, bc, r->nfs_bc_len);
	snprintf(r->nfs_bc_case, sizeof(r->nfs_bc_case), "%s", c->name);
	snprintf(o->note, sizeof(o->note), "NFSv4.1: a read delegation recalled by a conflicting "
		 "OPEN; the server's backward call: xid 0x%08x", r->backward_xid);
	if (ngrace || nnodeleg) {
		size_t l = strlen(o->note);

		snprintf(o->note + l, sizeof(o->note) - l, " (OPEN tried again: %u NFS4ERR_GRACE, "
			 "%u without a delegation)", ngrace, nnodeleg);
	}
	if (!spaces)
		cf_grade_backward_form(o, bc, blen, k->vers);
	else if (r->ncase_xid < 2 || !cf_answer_for(r, r->case_xid[1], &alen))
		cf_fault(o, "D-CONF-8", "the forward call with the backward call's "
			 "xid 0x%08x was not answered", r->backward_xid);
out_b:
	if (bclient)
		nfs41_destroy(r, b, sb, cb);
	cf_conn_close(r, b);
out:
	if (k->x) {
		/* give the delegation back and close (errors do not matter) */
		xid = cf_xid(r);
		n = cf_nfs41_return(rpc, sizeof(rpc), xid, sa, seq + 1, r->nfs_fh, r->nfs_fhlen, osid,
				    deleg == 1 || deleg == 2 ? dsid : NULL);
		setup_call(r, k, rpc, n, xid, &a, &alen, why, sizeof(why));
		nfs41_destroy(r, k, sa, ca);
	}
}

/* The NFS form of an ECHO case against an NFS server (CF_F_NFS): write and
 * reply chunks through an NFSv3 READ, the backward-call rules through an
 * NFSv4.1 delegation recall */
void cf_run_nfs(struct cf_run *r, const struct cf_case *c, struct cf_obs *o)
{
	if (c->kind == CF_K_BIDI_XID_SPACES || c->kind == CF_K_BIDI_CALL_FORM)
		cf_nfs_backward(r, c, o);
	else if (c->kind >= CF_K_WRITE_USED && c->kind <= CF_K_REPLY_CHUNK_SHORT)
		cf_nfs_write_chunk(r, c, o);
	else
		cf_skip(o, "no NFS form of this case");
}
