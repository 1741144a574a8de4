/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cap_redact_rpc.c - one RPC-over-RDMA message redacted in place.  What is
 * kept is said, everything else is zero: the message is copied aside,
 * zeroed, and the parts known to be structure are copied back (or their
 * replacement written):
 *
 *   transport header (libcodec's rpcrdma_decode): whole, chunk lists too
 *   RPC call header: xid .. procedure, credential and verifier flavors and
 *     lengths; AUTH_SYS: stamp, machine name as host-N, uid/gid/gids
 *     mapped (cap_redact_map.c); other credential and verifier bodies zero
 *   NFSv3 and NFSv4 (CB_)COMPOUND arguments: walked by their XDR forms
 *     (tools/common/nfs4_ops.c, nfs_xdr_items): numbers, bitmaps and
 *     verifiers kept, stateids (but their seqid), session ids and file
 *     handles hashed, names as name-N, every other opaque (file data,
 *     symlink targets, attribute values, owners) zero; the arguments
 *     after one that does not decode stay zero
 *   RPC reply header kept but its verifier's body; of NFS results the
 *     status alone (and a COMPOUND's tag length and result count), but
 *     for directory listings: NFSv3 READDIR and READDIRPLUS results and
 *     an NFSv4 READDIR result (with the results before it in its
 *     COMPOUND: SEQUENCE, PUTFH, ...) keep their structure (bools,
 *     cookies, verifiers, bitmaps), names as name-N (the numbers LOOKUP's
 *     names get), READDIRPLUS's handles hashed as in calls, attributes
 *     and fileids zero
 */
#include <string.h>
#include "be.h"
#include "cap_redact.h"
#include "nfs4_ops.h"
#include "rpcrdma/codec.h"
#include "rpcrdma/rpc.h"

struct vis {
	struct rdx *x;
	uint8_t *m;                  /* the output */
	const uint8_t *o;            /* the original */
};

static void keep(struct vis *v, size_t off, size_t len)
{
	memcpy(v->m + off, v->o + off, len);
}

static void visit(void *ctx, char kind, uint32_t op, size_t off, size_t len)
{
	struct vis *v = ctx;
	struct rdx_map *map = rdx_map(v->x);
	struct rdx_counts *n = rdx_counts(v->x);
	uint8_t *d = v->m + off;

	(void)op;
	switch (kind) {
	case 'w': case 'h': case 'v': case 't': case 'b':
		keep(v, off, len);
		break;
	case 'u':
		if (len == 4)
			be32_put(d, rdx_id(map, be32_get(v->o + off)));
		break;
	case 's':                          /* the seqid stays */
		keep(v, off, len);
		if (len == 16)
			rdx_hash_bytes(map, d + 4, 12);
		break;
	case 'S': case 'F':
		keep(v, off, len);
		rdx_hash_bytes(map, d, (uint32_t)len);
		n->handles++;
		break;
	case 'n': case 'M':
		keep(v, off, len);
		rdx_name(map, kind == 'n' ? "name" : "host", d, (uint32_t)len);
		n->names++;
		break;
	default:                           /* o, f: zero */
		break;
	}
}

/* NFSv3 arguments (RFC 1813 §3.3) by procedure; SETATTR, CREATE and MKNOD
 * end with a union, after their first items */
static const char *const nfs3_forms[22] = {
	[0] = "", [1] = "F", [2] = "FAw", [3] = "Fn", [4] = "Fw", [5] = "F",
	[6] = "Fhw", [7] = "Fhwwo", [8] = "Fnw", [9] = "FnA", [10] = "FnAo",
	[11] = "Fnw", [12] = "Fn", [13] = "Fn", [14] = "FnFn", [15] = "FFn",
	[16] = "Fhvw", [17] = "Fhvww", [18] = "F", [19] = "F", [20] = "F",
	[21] = "Fhw",
};

static void nfs3_args(struct vis *v, uint32_t proc, size_t len)
{
	const struct nfs_xdr_visit nv = { visit, v };
	size_t off = 0;

	if (proc >= 22 || !nfs3_forms[proc] ||
	    !nfs_xdr_items(v->o, len, &off, nfs3_forms[proc], &nv) || off < 4)
		return;
	uint32_t sel = be32_get(v->o + off - 4);
	const char *tail = "";
	if (proc == 2 && sel)                          /* sattrguard3 */
		tail = "h";
	else if (proc == 8)                            /* createhow3 */
		tail = sel <= 1 ? "A" : "v";
	else if (proc == 11)                           /* mknoddata3 */
		tail = sel == 3 || sel == 4 ? "Ah" : sel == 6 || sel == 7 ? "A" : "";
	(void)nfs_xdr_items(v->o, len, &off, tail, &nv);
}

static bool is_compound(uint32_t prog, uint32_t vers, uint32_t proc, bool *cb)
{
	*cb = prog == RPC_PROG_NFS_CB;
	return proc == 1 && (*cb || (prog == RPC_PROG_NFS && vers == 4));
}

static void call_body(struct vis *v, const struct rpc_msg_hdr *h, size_t len)
{
	bool cb;
	struct nfs4_ops ops;

	if (is_compound(h->prog, h->vers, h->proc, &cb)) {
		const struct nfs_xdr_visit nv = { visit, v };
		(void)nfs4_compound_walk(v->o, len, cb, &ops, &nv);
	} else if (h->prog == RPC_PROG_NFS && h->vers == 3) {
		nfs3_args(v, h->proc, len);
	}
}

/* AUTH_SYS (RFC 5531 Appendix A): stamp, machinename<255>, uid, gid,
 * gids<16> */
static void auth_sys(struct vis *v, size_t len)
{
	const struct nfs_xdr_visit nv = { visit, v };
	size_t off = 0;

	if (!nfs_xdr_items(v->o, len, &off, "wMuuw", &nv))
		return;
	uint32_t n = be32_get(v->o + off - 4);
	for (uint32_t i = 0; i < n && i < 16; i++)
		if (!nfs_xdr_items(v->o, len, &off, "u", &nv))
			return;
}

static void remember(struct rdx *x, const struct rpc_msg_hdr *h)
{
	struct rdx_call *c = &rdx_calls(x)[h->xid % RDX_CALLS];

	*c = (struct rdx_call){ h->xid, h->prog, h->vers, h->proc, true };
}

static void call(struct vis *v, const struct rpc_msg_hdr *h, uint32_t len)
{
	keep(v, 0, 32);                    /* xid .. proc, cred flavor, len */
	if (h->cred_flavor == RPC_AUTH_SYS) {
		struct vis a = { v->x, v->m + 32, v->o + 32 };
		auth_sys(&a, h->cred_len);
	}
	uint32_t vf = 32 + ((h->cred_len + 3) & ~3u);
	if (vf + 8 <= len)
		keep(v, vf, 8);            /* verifier flavor, length */
	remember(v->x, h);
	if (h->body_off < len) {
		struct vis b = { v->x, v->m + h->body_off, v->o + h->body_off };
		call_body(&b, h, len - h->body_off);
	}
}

/* ------------------------------------------ directory listings (results) */

/* post_op_attr (RFC 1813 2.6): attributes_follow, then a fattr3 (84 bytes,
 * left zero) */
static bool post_op_attr(const uint8_t *o, size_t len, size_t *off,
			 const struct nfs_xdr_visit *nv)
{
	if (!nfs_xdr_items(o, len, off, "w", nv))
		return false;
	if (!be32_get(o + *off - 4))
		return true;
	if (len - *off < 84)
		return false;
	*off += 84;
	return true;
}

/* READDIR3resok and READDIRPLUS3resok (RFC 1813 3.3.16, 3.3.17) after the
 * status: dir_attributes, cookieverf, then each entry (value_follows,
 * fileid, name, cookie; PLUS: name_attributes, name_handle) and eof.  Every
 * entry takes 24 bytes or more, so the walk ends within the message. */
static void nfs3_readdir(struct vis *b, size_t len, bool plus)
{
	const struct nfs_xdr_visit nv = { visit, b };
	const uint8_t *o = b->o;
	size_t off = 4;

	if (!post_op_attr(o, len, &off, &nv) ||
	    !nfs_xdr_items(o, len, &off, "v", &nv))
		return;
	for (;;) {
		if (!nfs_xdr_items(o, len, &off, "w", &nv))
			return;
		if (!be32_get(o + off - 4))
			break;
		if (len - off < 8)
			return;
		off += 8;                          /* fileid: zero */
		if (!nfs_xdr_items(o, len, &off, "nh", &nv))
			return;
		if (!plus)
			continue;
		if (!post_op_attr(o, len, &off, &nv) ||
		    !nfs_xdr_items(o, len, &off, "w", &nv))
			return;
		if (be32_get(o + off - 4) &&
		    !nfs_xdr_items(o, len, &off, "F", &nv))
			return;
	}
	(void)nfs_xdr_items(o, len, &off, "w", &nv);     /* eof */
}

/* READDIR4resok (RFC 8881 18.23.2): cookieverf, then each entry4
 * (value_follows, cookie, name, attrs) and eof */
static bool nfs4_readdir(const uint8_t *o, size_t len, size_t *off,
			 const struct nfs_xdr_visit *nv)
{
	if (!nfs_xdr_items(o, len, off, "v", nv))
		return false;
	for (;;) {
		if (!nfs_xdr_items(o, len, off, "w", nv))
			return false;
		if (!be32_get(o + *off - 4))
			break;
		if (!nfs_xdr_items(o, len, off, "hnf", nv))
			return false;
	}
	return nfs_xdr_items(o, len, off, "w", nv);      /* eof */
}

/* The results a COMPOUND holding READDIR has before it and after it
 * (RFC 8881 18): the form of each resok4, what nfs_xdr_items takes; NULL
 * for the others (the walk stops there, the rest stays zero) */
static const char *nfs4_resok(uint32_t op)
{
	switch (op) {
	case 53: return "Swwwww";  /* SEQUENCE: sessionid, sequenceid, slotid,
				    * highest, target highest, status flags */
	case 15: case 16: case 22: case 23: case 24: case 31: case 32:
		return "";         /* LOOKUP(P), PUT(PUB,ROOT)FH, RESTORE/SAVEFH */
	case 3: return "ww";       /* ACCESS: supported, access */
	case 9: return "f";        /* GETATTR: the bitmap; values zero */
	case 10: return "o";       /* GETFH: the handle zero, as elsewhere */
	default: return NULL;
	}
}

/* COMPOUND4res after the status, tag and count: walked only when it holds
 * a READDIR (the others keep their status alone, as before) */
static void nfs4_results(struct vis *b, size_t len, size_t off)
{
	const struct nfs_xdr_visit nv = { visit, b };
	const uint8_t *o = b->o;
	uint32_t n = be32_get(o + off - 4);
	size_t at = off;
	bool found = false;

	/* look first, without a visitor: is there a READDIR result? */
	for (uint32_t i = 0; i < n && !found; i++) {
		if (!nfs_xdr_items(o, len, &at, "ww", NULL))
			return;
		uint32_t op = be32_get(o + at - 8), st = be32_get(o + at - 4);
		const char *f = nfs4_resok(op);
		if (st == 0 && op == 26)
			found = true;
		else if (st || !f || !nfs_xdr_items(o, len, &at, f, NULL))
			return;
	}
	if (!found)
		return;
	for (uint32_t i = 0; i < n; i++) {
		if (!nfs_xdr_items(o, len, &off, "ww", &nv))
			return;
		uint32_t op = be32_get(o + off - 8), st = be32_get(o + off - 4);
		const char *f = nfs4_resok(op);
		if (st)
			return;                    /* the last result */
		if (op == 26 ? !nfs4_readdir(o, len, &off, &nv) :
		    !f || !nfs_xdr_items(o, len, &off, f, &nv))
			return;
	}
}

static void reply(struct vis *v, const struct rpc_msg_hdr *h, uint32_t len)
{
	keep(v, 0, h->body_off);
	if (h->reply_stat == RPC_MSG_ACCEPTED && len >= 20) {
		uint32_t vl = be32_get(v->o + 16);
		if (20 + (uint64_t)vl <= len)
			memset(v->m + 20, 0, vl);  /* verifier body */
	}
	const struct rdx_call *c = &rdx_calls(v->x)[h->xid % RDX_CALLS];
	bool cb;
	if (!c->used || c->xid != h->xid || h->body_off + 4 > len ||
	    h->reply_stat != RPC_MSG_ACCEPTED || h->accept_stat != RPC_SUCCESS)
		return;
	if (c->prog != RPC_PROG_NFS && c->prog != RPC_PROG_NFS_CB)
		return;
	keep(v, h->body_off, 4);           /* nfsstat3, nfsstat4 */
	struct vis b = { v->x, v->m + h->body_off, v->o + h->body_off };
	size_t blen = len - h->body_off;
	if (c->prog == RPC_PROG_NFS && c->vers == 3 &&
	    (c->proc == 16 || c->proc == 17) && !be32_get(b.o)) {
		nfs3_readdir(&b, blen, c->proc == 17);
		return;
	}
	if (!is_compound(c->prog, c->vers, c->proc, &cb))
		return;
	const struct nfs_xdr_visit nv = { visit, &b };
	size_t off = 4;
	if (nfs_xdr_items(b.o, blen, &off, "ow", &nv) && !cb)
		nfs4_results(&b, blen, off);
}

void rdx_rpc(struct rdx *x, uint8_t *m, uint32_t len)
{
	uint8_t *o = rdx_orig(x);
	struct rpc_msg_hdr h;

	if (len > RDX_MAX_SEND) {
		memset(m, 0, len);
		rdx_counts(x)->unparsed++;
		return;
	}
	memcpy(o, m, len);
	memset(m, 0, len);
	struct vis v = { x, m, o };
	if (rpc_decode_header(o, len, &h) != RPC_OK || h.body_off > len) {
		keep(&v, 0, len < 8 ? len : 8);   /* xid, msg_type */
		rdx_counts(x)->unparsed++;
		return;
	}
	if (h.msg_type == RPC_CALL)
		call(&v, &h, len);
	else
		reply(&v, &h, len);
}

/* ------------------------------------------------- the transport header */

static void adv(struct rdx_sent *out, uint32_t handle, uint32_t length,
		uint64_t offset, bool rpc, uint64_t *pos)
{
	if (out->nadv < sizeof(out->adv) / sizeof(out->adv[0]))
		out->adv[out->nadv++] = (struct rdx_adv){
			out->xid, handle, length, offset, rpc ? *pos : 0, rpc };
	if (rpc)
		*pos += length;
}

static void advertised(const struct rpcrdma_msg *msg, struct rdx_sent *out)
{
	struct rpcrdma_read_iter ri;
	struct rpcrdma_read_segment rs;
	struct rpcrdma_chunk_iter ci;
	struct rpcrdma_seg_iter si;
	struct rpcrdma_segment s;
	uint64_t pos = 0;

	rpcrdma_read_iter_init(msg, &ri);
	while (rpcrdma_read_next(&ri, &rs)) {
		adv(out, rs.rdma_target.rdma_handle, rs.rdma_target.rdma_length,
		    rs.rdma_target.rdma_offset, rs.rdma_position == 0, &pos);
		uint32_t p = rs.rdma_position;
		if (p && out->nrpos < 8 &&
		    (!out->nrpos || out->rpos[out->nrpos - 1] != p))
			out->rpos[out->nrpos++] = p;
	}
	rpcrdma_write_iter_init(msg, &ci);
	while (rpcrdma_write_next(&ci, &si))
		while (rpcrdma_seg_next(&si, &s))
			adv(out, s.rdma_handle, s.rdma_length, s.rdma_offset,
			    false, &pos);
	pos = 0;
	if (rpcrdma_reply_chunk(msg, &si))
		while (rpcrdma_seg_next(&si, &s))
			adv(out, s.rdma_handle, s.rdma_length, s.rdma_offset,
			    true, &pos);
}

/* --redact=keys: every segment of the chunk lists (handle, offset) */
static void remap_lists(struct rdx *x, uint8_t *m, const struct rpcrdma_msg *msg)
{
	uint32_t end = msg->header_len, o = msg->reads_off;

	for (uint32_t i = 0; i < msg->nreads && o + 24 <= end; i++, o += 24)
		rdx_remap(x, m + o + 8, 8);    /* discriminator, position, HLOO */
	o = msg->writes_off;
	for (uint32_t c = 0; c < msg->nwrites && o + 8 <= end; c++) {
		uint32_t n = be32_get(m + o + 4);
		o += 8;
		for (uint32_t i = 0; i < n && o + 16 <= end; i++, o += 16)
			rdx_remap(x, m + o, 8);
	}
	o = msg->reply_off;
	if (msg->has_reply && o + 8 <= end) {
		uint32_t n = be32_get(m + o + 4);
		o += 8;
		for (uint32_t i = 0; i < n && o + 16 <= end; i++, o += 16)
			rdx_remap(x, m + o, 8);
	}
}

/* A call whose DDP-eligible items went to read chunks (RFC 8166 3.4.5):
 * the item's bytes are not here, only its length word before the chunk's
 * position.  The arguments are walked with that length as 0 (an empty
 * opaque, so what follows it is found), and the length put back. */
static void reduced(struct rdx *x, uint8_t *pl, uint32_t n,
		    const struct rdx_sent *s)
{
	uint8_t saved[8][4];
	bool done[8] = { false };

	for (uint32_t i = 0; i < s->nrpos; i++) {
		uint32_t p = s->rpos[i];
		if (p < 4 || p > n || p % 4)
			continue;
		memcpy(saved[i], pl + p - 4, 4);
		memset(pl + p - 4, 0, 4);
		done[i] = true;
	}
	rdx_rpc(x, pl, n);
	for (uint32_t i = 0; i < s->nrpos; i++)
		if (done[i])
			memcpy(pl + s->rpos[i] - 4, saved[i], 4);
}

void rdx_send(struct rdx *x, uint8_t *m, uint32_t len, struct rdx_sent *out)
{
	struct rpcrdma_msg msg;

	memset(out, 0, sizeof(*out));
	rdx_counts(x)->sends++;
	(void)rpcrdma_decode(m, len, &msg);
	if (msg.nfixed < 4 || !msg.header_len || msg.header_len > len) {
		uint32_t k = len < 16 ? len : 16;      /* the four fixed words */
		memset(m + k, 0, len - k);
		rdx_counts(x)->unparsed++;
		return;
	}
	out->valid = true;
	out->xid = msg.rdma_xid;
	out->reply = msg.direction == RPCRDMA_REPLY;
	advertised(&msg, out);
	if (x->keys)
		remap_lists(x, m, &msg);
	uint8_t *pl = m + msg.header_len;
	uint32_t n = len - msg.header_len;
	if (!n)
		return;
	if (msg.has_rpc_msg_type) {
		out->reply = msg.rpc_msg_type == RPC_REPLY;
		reduced(x, pl, n, out);
	} else {
		memset(pl, 0, n);
	}
}
