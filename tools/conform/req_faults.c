/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * req_faults.c - issue 26 item 2: the faults rpcrdma-conform --requester
 * --faults injects from the responder's side, a function per fault, and
 * what the requester does next (struct cf_rq_fobs).  req_main.c calls
 * cf_rq_fault_setup() for a case's listener; req_nfs.c calls the rest
 * (a call received, a call to answer, a reply sent, a disconnect, a held
 * reply going out) and nothing else of this file.  Every message is built
 * with libcodec; the requester's calls are judged as they arrive, against
 * the replies sent before them (req_nfs.c's rule).
 */
#include <string.h>
#include <rpcrdma/rpc.h>
#include "be.h"
#include "live.h"
#include "req.h"

/* ---- the listener ---- */
void cf_rq_fault_setup(const struct cf_rq_case *c, struct xprt_opts *xo, struct cf_rq_obs *o,
		       int settle_ms)
{
	o->f.settle_ms = settle_ms < 0 ? 0 : settle_ms ? settle_ms : CF_RQ_SETTLE_MS;
	o->f.fault = cf_rq_fault_of(c->kind);
	o->f.cur_grant = c->grant;
	/* grant 0: the transport's test-only zero-credit mode puts 0 in every
	 * reply and error reply (held ones: o->grant, 0 too); it keeps its
	 * Receives for the credits it was opened with */
	if (o->f.fault == CF_RQ_F_ZERO) {
		xo->misbehave = XPRT_MISBEHAVE_ZERO_CREDIT;
		xo->credits = 32;
	}
}

/* ---- the calls, judged against the grant in effect ---- */

/* rq-grant-shrink: once 3 calls were out (or 24 replies went without: the
 * Linux client's mount takes about 8, its reads at once come after),
 * every reply from now on grants CF_RQ_SHRUNK */
static void shrink_decide(struct cf_rq_obs *o, struct xprt *x, uint64_t out)
{
	if (o->f.shrunk || (out + 1 < 3 && o->replies < 24))
		return;
	o->f.shrunk = true;
	o->f.shrunk_out = (uint32_t)(out + 1);
	o->f.cur_grant = CF_RQ_SHRUNK;
	o->grant = CF_RQ_SHRUNK;           /* replies held from now on */
	xprt_set_grant(x, CF_RQ_SHRUNK);
}

/* a call of the shrink case: against the grant before until
 * CF_RQ_SETTLE_MS after the first reply carrying the smaller one went (it
 * may have crossed that reply: V1 4.3.1, the limit "is known to the
 * requester from the Send ordering properties"), then against the smaller */
static void shrink_judge(struct cf_rq_obs *o, uint64_t out, uint32_t before)
{
	if (o->f.shrink_ms && live_now_ms() >= o->f.shrink_ms + o->f.settle_ms) {
		o->f.after++;
		if (out + 1 > o->f.max_out_after)
			o->f.max_out_after = (uint32_t)(out + 1);
		o->f.over_after += out + 1 > CF_RQ_SHRUNK;
		return;
	}
	if (o->f.shrink_ms) {
		o->f.crossing++;
		if (out + 1 > o->f.max_out_crossing)
			o->f.max_out_crossing = (uint32_t)(out + 1);
	}
	o->f.over += out + 1 > before;
}

void cf_rq_fault_call(struct cf_rq_obs *o, struct xprt *x, const struct rpcrdma_msg *m,
		      uint64_t out)
{
	struct cf_rq_fobs *f = &o->f;
	uint32_t asked = m->rdma_credit, lim;

	if (!f->min_asked || asked < f->min_asked)
		f->min_asked = asked;
	if (asked > f->max_asked)
		f->max_asked = asked;
	if (f->injected) {
		if (m->rdma_xid == f->inj_xid)
			*(f->disc_after ? &f->retrans_other : &f->retrans_same) += 1;
		else
			f->calls_after++;
	}
	if (!o->replies)                   /* before the first reply: V1 4.3.3's */
		return;
	f->judged++;
	if (out + 1 > f->max_out)
		f->max_out = (uint32_t)(out + 1);
	switch (f->fault) {
	case CF_RQ_F_SHRINK:
		shrink_judge(o, out, 32);
		shrink_decide(o, x, out);
		if (f->shrunk)                 /* a new connection too */
			xprt_set_grant(x, CF_RQ_SHRUNK);
		return;
	case CF_RQ_F_ZERO:
		f->over_one += out + 1 > 1;
		return;
	default:
		lim = asked < f->cur_grant ? asked : f->cur_grant;
		if (out + 1 > f->cur_grant)
			f->over++;
		else if (out + 1 > lim)
			f->over_asked++;
		return;
	}
}

void cf_rq_fault_replied(struct cf_rq_obs *o)
{
	if (!o || !o->f.fault)
		return;
	if (o->f.shrunk && !o->f.shrink_ms)
		o->f.shrink_ms = live_now_ms();
	if (o->f.injected)
		o->f.replies_after++;
}

void cf_rq_fault_disconnect(struct cf_rq_obs *o)
{
	if (o->f.fault && o->f.injected)
		o->f.disc_after++;
}

/* a reply held back goes with the grant in effect when it goes (the
 * credit word of its V1 header) */
void cf_rq_fault_held(const struct cf_rq_obs *o, uint8_t *buf, size_t len)
{
	if (o->f.fault == CF_RQ_F_SHRINK && len >= 12)
		be32_put(buf + 8, o->f.cur_grant);
}

/* ---- the replies a fault changes ---- */

/* an NFSv3 call's procedure, and a READ's arguments (*a; the offset of the
 * count word in *count_at): false when it is no NFSv3 call */
static bool nfs_call(const struct xprt_rcvd_call *rc, uint32_t *proc, struct nfs3_READ3args *a,
		     size_t *count_at)
{
	struct rpc_msg_hdr h;
	struct xdr_r r;

	if (rpc_decode_header(rc->msg, rc->len, &h) != RPC_OK || h.msg_type != RPC_CALL ||
	    h.prog != NFS3_PROG || h.vers != NFS3_VERS)
		return false;
	*proc = h.proc;
	if (h.proc != NFSPROC3_READ)
		return true;
	r = (struct xdr_r){ rc->msg, rc->len, h.body_off, false };
	if (nfs3_dec_READ3args(&r, a) < 0 || r.off < 4)
		return false;
	*count_at = r.off - 4;
	return true;
}

static void injected(struct cf_rq_obs *o, uint32_t xid, uint32_t proc)
{
	o->f.injected = true;
	o->f.inj_xid = xid;
	o->f.inj_proc = proc;
	o->f.inj_calls = o->calls;
	o->f.inj_connected = o->connected;
}

/* rq-err-vers, rq-err-badheader: the first READ answered with an
 * RDMA_ERROR (ERR_VERS: we speak Version One only, 1..1) in place of its
 * reply */
static bool answer_error(struct cf_req_nfs *n, struct xprt_rcvd_call *rc, uint32_t proc)
{
	struct cf_rq_obs *o = n->obs;
	struct rpcrdma_hdr h = { .rdma_xid = rc->xid, .rdma_vers = rc->vers,
		.rdma_credit = o->f.cur_grant, .rdma_proc = RDMA_ERROR,
		.direction = RPCRDMA_REPLY };
	struct xprt_error err;
	uint8_t buf[64];
	size_t len;

	if (o->f.injected || proc != NFSPROC3_READ)
		return false;
	if (o->f.fault == CF_RQ_F_ERR_VERS) {
		h.rdma_err = RDMA_ERR_VERS;
		h.rdma_vers_low = h.rdma_vers_high = 1;
	} else {
		h.rdma_err = RDMA_ERR_BADHEADER;
	}
	if (!(len = rpcrdma_encode(&h, buf, sizeof(buf), NULL)) ||
	    xprt_send_raw(rc->x, buf, len, &err) < 0) {
		n->counts->reply_failed++;
		return true;
	}
	injected(o, rc->xid, proc);
	o->replies++;                     /* it completes the transaction (V1 5.5) */
	cf_rq_fault_replied(o);
	return true;
}

/* rq-stray-xid: once 3 replies went, before the reply to an NFS call, the
 * same reply with an xid no call has (in the header and the RPC message);
 * then the call is answered as always (false) */
static bool send_stray(struct cf_req_nfs *n, struct xprt_rcvd_call *rc, uint32_t proc)
{
	static uint8_t out[1024];
	struct cf_rq_obs *o = n->obs;
	struct rpcrdma_hdr h = { .rdma_xid = rc->xid + 0x10000000u, .rdma_vers = 1,
		.rdma_credit = o->f.cur_grant, .rdma_proc = RDMA_MSG,
		.direction = RPCRDMA_REPLY };
	struct nfs3_served s;
	struct xprt_error err;
	uint8_t buf[1024];
	size_t len, hl;

	if (o->f.injected || o->replies < 3 || rc->vers != 1 || proc == NFSPROC3_READ)
		return false;
	len = nfs3_serve(rc->msg, rc->len, out, sizeof(out), &s);
	if (!len || len < 4 || !(hl = rpcrdma_encode(&h, buf, sizeof(buf), NULL)) ||
	    len > sizeof(buf) - hl)
		return false;
	memcpy(buf + hl, out, len);
	be32_put(buf + hl, h.rdma_xid);
	if (xprt_send_raw(rc->x, buf, hl + len, &err) < 0)
		return false;
	injected(o, h.rdma_xid, proc);
	return false;
}

/* rq-write-short: the first READ of 8 KiB or more with a write chunk
 * answered with half its count (a short read, not at the end of the file:
 * NFS3 count and the write chunk's length say so); READs of that file after
 * it counted, and those that go on where it stopped */
static bool answer_short(struct cf_req_nfs *n, struct xprt_rcvd_call *rc, uint32_t proc,
			 const struct nfs3_READ3args *a, size_t count_at)
{
	static uint8_t call[1024];
	struct cf_rq_fobs *f = &n->obs->f;
	struct nfs3_served s;
	size_t len;

	if (proc != NFSPROC3_READ)
		return false;
	if (f->injected) {
		if (a->file.len == f->short_fhlen && !memcmp(a->file.data, f->short_fh, a->file.len)) {
			f->reads_after++;
			f->cont_reads += a->offset == f->short_off + f->short_got;
		}
		return false;
	}
	if (!rc->nwrite_chunks || a->count < 8192 || rc->len > sizeof(call) ||
	    a->file.len > sizeof(f->short_fh) || count_at + 4 > rc->len)
		return false;
	memcpy(call, rc->msg, rc->len);
	be32_put(call + count_at, a->count / 2);
	len = nfs3_serve(call, rc->len, n->out, sizeof(n->out), &s);
	if (!len || s.status != NFS3_OK || !s.ddp_len)
		return false;                   /* answered as always */
	n->counts->nfs[NFSPROC3_READ]++;
	n->counts->read_bytes += s.ddp_len;
	memcpy(f->short_fh, a->file.data, a->file.len);
	f->short_fhlen = a->file.len;
	f->short_off = a->offset;
	f->short_asked = a->count;
	f->short_got = (uint32_t)s.ddp_len;
	injected(n->obs, rc->xid, proc);
	if (xprt_reply(rc, n->out, len, s.ddp_off, s.ddp_len) < 0) {
		n->counts->reply_failed++;
		return true;
	}
	n->obs->replies++;
	cf_rq_fault_replied(n->obs);
	return true;
}

bool cf_rq_fault_answer(struct cf_req_nfs *n, struct xprt_rcvd_call *rc)
{
	struct nfs3_READ3args a;
	uint32_t proc;
	size_t count_at = 0;

	memset(&a, 0, sizeof(a));
	if (!n->obs || !nfs_call(rc, &proc, &a, &count_at))
		return false;
	switch (n->obs->f.fault) {
	case CF_RQ_F_ERR_VERS:
	case CF_RQ_F_ERR_BADHEADER:
		return answer_error(n, rc, proc);
	case CF_RQ_F_STRAY_XID:
		return send_stray(n, rc, proc);
	case CF_RQ_F_SHORT_WRITE:
		return answer_short(n, rc, proc, &a, count_at);
	default:
		return false;
	}
}
