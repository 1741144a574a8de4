/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * target_nfs.c - the NFS calls rpcrdma-conform makes to drive a real NFS
 * server's write chunks, reply chunks and backward calls (no ECHO program
 * there): an NFSv3 READ (RFC 1813 §3.3.6) of a file the user names, the
 * file handle found by an NFSv4.0 COMPOUND PUTROOTFH, LOOKUP..., GETFH
 * (RFC 7530 §16) over the same RPC-over-RDMA connection (the MOUNT
 * protocol is not carried by RPC-over-RDMA), and an NFSv4.1 EXCHANGE_ID and
 * CREATE_SESSION with CREATE_SESSION4_FLAG_CONN_BACK_CHAN (RFC 8881 §18.35,
 * §18.36), after which the server probes the back channel with CB_NULL.
 * Pure XDR (xdrcur.h): no I/O, no allocation; every length read from a reply is
 * checked against the bytes there.
 */
#include <stdio.h>
#include <string.h>
#include <rpcrdma/rpc.h>
#include "target.h"
#include "xdrcur.h"

#define NFS3_READ 6u
#define NFS4_COMPOUND 1u
#define OP_GETFH 10u
#define OP_LOOKUP 15u
#define OP_PUTROOTFH 24u
#define OP_EXCHANGE_ID 42u
#define OP_CREATE_SESSION 43u
#define OP_CLOSE 4u
#define OP_DELEGRETURN 8u
#define OP_OPEN 18u
#define OP_PUTFH 22u
#define OP_SEQUENCE 53u
#define OP_RECLAIM_COMPLETE 58u
#define CB_OP_GETATTR 3u              /* RFC 8881 §20, callback operations */
#define CB_OP_RECALL 4u
#define CB_OP_SEQUENCE 11u
#define CB_OP_OFFLOAD 15u             /* RFC 7862 §16.1 (NFSv4.2) */
#define CB_OP_ILLEGAL 10044u
#define NFS4ERR_NOTSUPP 10004u
#define NFS4ERR_OP_ILLEGAL 10044u

size_t cf_nfs_call_hdr(uint8_t *buf, size_t cap, uint32_t xid, uint32_t prog, uint32_t vers,
		       uint32_t proc)
{
	struct xdr_w w = { buf, cap, 0, false };
	static const char machine[] = "rpcrdma-conform";

	xdr_put32(&w, xid);
	xdr_put32(&w, RPC_CALL);
	xdr_put32(&w, RPC_VERSION);
	xdr_put32(&w, prog);
	xdr_put32(&w, vers);
	xdr_put32(&w, proc);
	/* AUTH_SYS (RFC 5531 Appendix A): root, as the export's no_root_squash
	 * allows; a server that refuses it answers an RPC or NFS error */
	xdr_put32(&w, RPC_AUTH_SYS);
	xdr_put32(&w, 4 + 4 + 16 + 4 + 4 + 4);
	xdr_put32(&w, 0);                     /* stamp */
	xdr_put_opaque(&w, machine, sizeof(machine) - 1);
	xdr_put32(&w, 0);                     /* uid */
	xdr_put32(&w, 0);                     /* gid */
	xdr_put32(&w, 0);                     /* gids<16> */
	xdr_put32(&w, RPC_AUTH_NONE);
	xdr_put32(&w, 0);
	return w.bad ? 0 : w.n;
}

/* the RPC call header, then a COMPOUND4args head (RFC 8881 §16.2.1): an
 * empty tag, the minor version and the number of operations */
static struct xdr_w compound(uint8_t *buf, size_t cap, uint32_t xid, uint32_t minor,
			     uint32_t nops)
{
	size_t n = cf_nfs_call_hdr(buf, cap, xid, RPC_PROG_NFS, 4, NFS4_COMPOUND);
	struct xdr_w w = { buf, cap, n, n == 0 };

	xdr_put32(&w, 0);                     /* tag<> */
	xdr_put32(&w, minor);
	xdr_put32(&w, nops);
	return w;
}

size_t cf_nfs4_lookup_call(uint8_t *buf, size_t cap, uint32_t xid, const char *path)
{
	struct xdr_w w = compound(buf, cap, xid, 0, 0);   /* minor version 0: no session */
	const char *p, *e;
	uint32_t nops = 2;
	size_t nops_at = w.n - 4;

	xdr_put32(&w, OP_PUTROOTFH);
	for (p = path; *p; p = e) {
		while (*p == '/')
			p++;
		if (!*p)
			break;
		for (e = p; *e && *e != '/'; e++)
			;
		if (e - p > 255 || nops > 40)
			return 0;
		xdr_put32(&w, OP_LOOKUP);
		xdr_put_opaque(&w, p, (size_t)(e - p));
		nops++;
	}
	xdr_put32(&w, OP_GETFH);
	if (w.bad)
		return 0;
	be32_put(buf + nops_at, nops);
	return w.n;
}

/* the RPC reply's body: past an accepted SUCCESS header */
static int reply_body(const uint8_t *p, size_t len, struct xdr_r *r, char *why, size_t cap)
{
	struct rpc_msg_hdr h;

	if (rpc_decode_header(p, len, &h) != RPC_OK || h.msg_type != RPC_REPLY) {
		snprintf(why, cap, "not an RPC reply");
		return -1;
	}
	if (h.reply_stat != RPC_MSG_ACCEPTED || h.accept_stat != RPC_SUCCESS) {
		snprintf(why, cap, "RPC %s %s", h.reply_stat ? "MSG_DENIED" : "MSG_ACCEPTED",
			 h.reply_stat ? rpc_reject_stat_name(h.reject_stat) :
			 rpc_accept_stat_name(h.accept_stat));
		return -1;
	}
	r->p = p;
	r->len = len;
	r->off = h.body_off;
	r->bad = false;
	return 0;
}

/* COMPOUND4res up to the first result: status, tag, count */
static int compound_body(const uint8_t *p, size_t len, struct xdr_r *r, char *why, size_t cap)
{
	uint32_t tl, st, n;

	if (reply_body(p, len, r, why, cap) < 0)
		return -1;
	st = xdr_get32(r);                    /* overall status: each op's below */
	xdr_get_opaque(r, 1024, &tl);
	n = xdr_get32(r);
	if (r->bad) {
		snprintf(why, cap, "the COMPOUND reply ends before its result count");
		return -1;
	}
	/* a failed COMPOUND with no result at all: say its status (a server
	 * without NFSv4.0, e.g. sid's nfs-utils 3.1.1 by default, answers an
	 * NFSv4.0 COMPOUND NFS4ERR_MINOR_VERS_MISMATCH, 10021, and no result) */
	if (st && n == 0) {
		snprintf(why, cap, "the COMPOUND reply has NFS4 status %u%s and no result", st,
			 st == 10021 ? " (NFS4ERR_MINOR_VERS_MISMATCH: the server does not serve "
				       "NFSv4.0)" : "");
		return -1;
	}
	return 0;
}

/* one op's result header; -1 with why unless it is op and NFS4_OK */
static int op_ok(struct xdr_r *r, uint32_t op, const char *name, char *why, size_t cap)
{
	uint32_t got = xdr_get32(r), st = xdr_get32(r);

	if (r->bad) {
		snprintf(why, cap, "the COMPOUND reply ends before %s's result", name);
		return -1;
	}
	if (got != op || st) {
		snprintf(why, cap, "%s: NFS4 status %u (op %u)", name, st, got);
		return -1;
	}
	return 0;
}

int cf_nfs4_lookup_reply(const uint8_t *p, size_t len, uint8_t *fh, size_t *fhlen,
			 char *why, size_t cap)
{
	struct xdr_r r;
	const uint8_t *d;
	uint32_t dl;

	if (compound_body(p, len, &r, why, cap) < 0 ||
	    op_ok(&r, OP_PUTROOTFH, "PUTROOTFH", why, cap) < 0)
		return -1;
	for (;;) {
		uint32_t op = xdr_get32(&r), st = xdr_get32(&r);

		if (r.bad) {
			snprintf(why, cap, "the COMPOUND reply has no GETFH result");
			return -1;
		}
		if (st) {
			snprintf(why, cap, "%s: NFS4 status %u", op == OP_LOOKUP ? "LOOKUP" :
				 op == OP_GETFH ? "GETFH" : "an operation", st);
			return -1;
		}
		if (op == OP_GETFH)
			break;
		if (op != OP_LOOKUP) {
			snprintf(why, cap, "op %u in the COMPOUND reply", op);
			return -1;
		}
	}
	d = xdr_get_opaque(&r, CF_NFS_FHMAX, &dl);
	if (!d) {
		snprintf(why, cap, "GETFH: a file handle longer than %u bytes", CF_NFS_FHMAX);
		return -1;
	}
	if (dl > 64) {
		snprintf(why, cap, "the file handle is %u bytes, over NFSv3's 64", dl);
		return -1;
	}
	memcpy(fh, d, dl);
	*fhlen = dl;
	return 0;
}

size_t cf_nfs3_read_call(uint8_t *buf, size_t cap, uint32_t xid, const uint8_t *fh,
			 size_t fhlen, uint64_t offset, uint32_t count)
{
	size_t n = cf_nfs_call_hdr(buf, cap, xid, RPC_PROG_NFS, 3, NFS3_READ);
	struct xdr_w w = { buf, cap, n, n == 0 };

	xdr_put_opaque(&w, fh, fhlen);
	xdr_put32(&w, (uint32_t)(offset >> 32));
	xdr_put32(&w, (uint32_t)offset);
	xdr_put32(&w, count);
	return w.bad ? 0 : w.n;
}

int cf_nfs3_read_reply(const uint8_t *p, size_t len, struct cf_read3 *res, char *why,
		       size_t cap)
{
	struct xdr_r r;

	memset(res, 0, sizeof(*res));
	if (reply_body(p, len, &r, why, cap) < 0)
		return -1;
	res->status = xdr_get32(&r);
	if (r.bad) {
		snprintf(why, cap, "READ3res ends before its status");
		return -1;
	}
	if (res->status) {
		snprintf(why, cap, "READ: NFS3 status %u", res->status);
		return -1;
	}
	if (xdr_get32(&r)) {                  /* post_op_attr: fattr3 (RFC 1813 §2.6) */
		res->have_size = true;
		xdr_skip(&r, 20);          /* type mode nlink uid gid */
		res->size = xdr_get64(&r);
		xdr_skip(&r, 84 - 28);
	}
	res->count = xdr_get32(&r);
	res->eof = xdr_get32(&r) != 0;
	res->data_len = xdr_get32(&r);
	if (r.bad) {
		snprintf(why, cap, "READ3resok ends before its data's length word");
		return -1;
	}
	res->data_off = r.off;
	res->rest = r.len - r.off;
	return 0;
}

size_t cf_nfs41_exchange_id(uint8_t *buf, size_t cap, uint32_t xid, uint32_t seed)
{
	struct xdr_w w = compound(buf, cap, xid, 1, 1);
	uint8_t verf[8];
	char owner[48];
	int ol;

	be32_put(verf, seed);
	be32_put(verf + 4, ~seed);
	ol = snprintf(owner, sizeof(owner), "rpcrdma-conform %08x", seed);
	xdr_put32(&w, OP_EXCHANGE_ID);
	xdr_put_fixed(&w, verf, 8);    /* co_verifier */
	xdr_put_opaque(&w, owner, (size_t)ol);
	xdr_put32(&w, 0);                     /* eia_flags */
	xdr_put32(&w, 0);                     /* SP4_NONE */
	xdr_put32(&w, 0);                     /* eia_client_impl_id<1>: none */
	return w.bad ? 0 : w.n;
}

int cf_nfs41_exchange_id_reply(const uint8_t *p, size_t len, uint64_t *clientid,
			       uint32_t *seq, char *why, size_t cap)
{
	struct xdr_r r;

	if (compound_body(p, len, &r, why, cap) < 0 ||
	    op_ok(&r, OP_EXCHANGE_ID, "EXCHANGE_ID", why, cap) < 0)
		return -1;
	*clientid = xdr_get64(&r);
	*seq = xdr_get32(&r);
	if (r.bad) {
		snprintf(why, cap, "EXCHANGE_ID4resok cut short");
		return -1;
	}
	return 0;
}

size_t cf_nfs41_create_session(uint8_t *buf, size_t cap, uint32_t xid, uint64_t clientid,
			       uint32_t seq)
{
	struct xdr_w w = compound(buf, cap, xid, 1, 1);

	xdr_put32(&w, OP_CREATE_SESSION);
	xdr_put32(&w, (uint32_t)(clientid >> 32));
	xdr_put32(&w, (uint32_t)clientid);
	xdr_put32(&w, seq);
	xdr_put32(&w, CF_NFS41_CONN_BACK_CHAN);
	xdr_nfs41_chan_attrs(&w, 1048576, 1048576, 4096, 8, 4);   /* fore */
	xdr_nfs41_chan_attrs(&w, 4096, 4096, 0, 2, 1);            /* back */
	xdr_put32(&w, CF_NFS41_CB_PROG);
	xdr_put32(&w, 1);                     /* csa_sec_parms<>: AUTH_NONE */
	xdr_put32(&w, RPC_AUTH_NONE);
	return w.bad ? 0 : w.n;
}

int cf_nfs41_create_session_reply(const uint8_t *p, size_t len, uint8_t sessionid[16],
				  uint32_t *flags, char *why, size_t cap)
{
	struct xdr_r r;

	if (compound_body(p, len, &r, why, cap) < 0 ||
	    op_ok(&r, OP_CREATE_SESSION, "CREATE_SESSION", why, cap) < 0)
		return -1;
	if (r.len - r.off >= 16)
		memcpy(sessionid, r.p + r.off, 16);
	xdr_skip(&r, 16 + 4);              /* sessionid, sequence */
	*flags = xdr_get32(&r);
	if (r.bad) {
		snprintf(why, cap, "CREATE_SESSION4resok cut short");
		return -1;
	}
	return 0;
}

/* COMPOUND (minor version 1) { SEQUENCE (slot 0), PUTFH fh, ... }: the
 * header up to the third op; returns the writer's length */
static size_t seq_putfh(struct xdr_w *w, uint32_t xid, const uint8_t sessionid[16], uint32_t seq,
			const uint8_t *fh, size_t fhlen, uint32_t nops)
{
	*w = compound(w->p, w->cap, xid, 1, nops);
	xdr_put32(w, OP_SEQUENCE);
	xdr_put_fixed(w, sessionid, 16);
	xdr_put32(w, seq);
	xdr_put32(w, 0);                      /* slotid */
	xdr_put32(w, 0);                      /* highest_slotid */
	xdr_put32(w, 0);                      /* cachethis */
	xdr_put32(w, OP_PUTFH);
	xdr_put_opaque(w, fh, fhlen);
	return w->n;
}

size_t cf_nfs41_reclaim_complete(uint8_t *buf, size_t cap, uint32_t xid,
				 const uint8_t sessionid[16], uint32_t seq)
{
	struct xdr_w w = compound(buf, cap, xid, 1, 2);

	xdr_put32(&w, OP_SEQUENCE);
	xdr_put_fixed(&w, sessionid, 16);
	xdr_put32(&w, seq);
	xdr_put32(&w, 0);
	xdr_put32(&w, 0);
	xdr_put32(&w, 0);
	xdr_put32(&w, OP_RECLAIM_COMPLETE);
	xdr_put32(&w, 0);                     /* rca_one_fs: false */
	return w.bad ? 0 : w.n;
}

int cf_nfs41_reclaim_complete_reply(const uint8_t *p, size_t len, char *why, size_t cap)
{
	struct xdr_r r;

	if (compound_body(p, len, &r, why, cap) < 0 ||
	    op_ok(&r, OP_SEQUENCE, "SEQUENCE", why, cap) < 0)
		return -1;
	xdr_skip(&r, 16 + 4 * 5);
	return op_ok(&r, OP_RECLAIM_COMPLETE, "RECLAIM_COMPLETE", why, cap);
}

size_t cf_nfs41_open(uint8_t *buf, size_t cap, uint32_t xid, const uint8_t sessionid[16],
		     uint32_t seq, const uint8_t *fh, size_t fhlen, uint64_t clientid, bool write)
{
	struct xdr_w w = { buf, cap, 0, false };
	static const char owner[] = "rpcrdma-conform";

	seq_putfh(&w, xid, sessionid, seq, fh, fhlen, 3);
	xdr_put32(&w, OP_OPEN);
	xdr_put32(&w, 0);                     /* seqid: unused in 4.1 */
	/* READ with WANT_READ_DELEG (RFC 8881 §18.16.3), or WRITE */
	xdr_put32(&w, write ? 2u : 1u | 0x0100u);
	xdr_put32(&w, 0);                     /* share_deny */
	xdr_put32(&w, (uint32_t)(clientid >> 32));
	xdr_put32(&w, (uint32_t)clientid);
	xdr_put_opaque(&w, owner, sizeof(owner) - 1);
	xdr_put32(&w, 0);                     /* OPEN4_NOCREATE */
	xdr_put32(&w, 4);                     /* CLAIM_FH */
	return w.bad ? 0 : w.n;
}

int cf_nfs41_open_reply(const uint8_t *p, size_t len, uint8_t open_sid[16], uint32_t *deleg,
			uint8_t deleg_sid[16], char *why, size_t cap)
{
	struct xdr_r r;
	uint32_t nbm;

	if (compound_body(p, len, &r, why, cap) < 0 ||
	    op_ok(&r, OP_SEQUENCE, "SEQUENCE", why, cap) < 0)
		return -1;
	xdr_skip(&r, 16 + 4 * 5);
	if (op_ok(&r, OP_PUTFH, "PUTFH", why, cap) < 0 || op_ok(&r, OP_OPEN, "OPEN", why, cap) < 0)
		return -1;
	if (r.len - r.off >= 16)
		memcpy(open_sid, r.p + r.off, 16);
	xdr_skip(&r, 16 + 20 + 4);         /* stateid, change_info4, rflags */
	nbm = xdr_get32(&r);
	if (nbm > 8)
		r.bad = true;
	xdr_skip(&r, 4 * (size_t)nbm);     /* attrset */
	*deleg = xdr_get32(&r);
	if (*deleg == 1 || *deleg == 2) {
		if (r.len - r.off >= 16)
			memcpy(deleg_sid, r.p + r.off, 16);
		xdr_skip(&r, 16);
	}
	if (r.bad) {
		snprintf(why, cap, "OPEN4resok cut short");
		return -1;
	}
	return 0;
}

size_t cf_nfs41_return(uint8_t *buf, size_t cap, uint32_t xid, const uint8_t sessionid[16],
		       uint32_t seq, const uint8_t *fh, size_t fhlen, const uint8_t open_sid[16],
		       const uint8_t deleg_sid[16])
{
	struct xdr_w w = { buf, cap, 0, false };

	seq_putfh(&w, xid, sessionid, seq, fh, fhlen, deleg_sid ? 4 : 3);
	if (deleg_sid) {
		xdr_put32(&w, OP_DELEGRETURN);
		xdr_put_fixed(&w, deleg_sid, 16);
	}
	xdr_put32(&w, OP_CLOSE);
	xdr_put32(&w, 0);
	xdr_put_fixed(&w, open_sid, 16);
	return w.bad ? 0 : w.n;
}

/* CB_SEQUENCE4args after its sessionid: sequenceid, slotid, highest_slotid,
 * cachethis, then referring_call_lists<> (RFC 8881 §20.9.1), skipped; each
 * referring_call_list4 is a sessionid and referring_call4<> (two words
 * each), so a count larger than the bytes left allow is cut short */
static void cb_sequence_args(struct xdr_r *r, uint32_t *seq, uint32_t *slot, uint32_t *high)
{
	uint32_t lists, calls;

	*seq = xdr_get32(r);
	*slot = xdr_get32(r);
	*high = xdr_get32(r);
	xdr_get32(r);                          /* csa_cachethis */
	lists = xdr_get32(r);
	for (uint32_t i = 0; i < lists && !r->bad; i++) {
		xdr_skip(r, 16);
		calls = xdr_get32(r);
		if (calls > (r->len - r->off) / 8)
			r->bad = true;
		else
			xdr_skip(r, 8 * (size_t)calls);
	}
}

size_t cf_nfs41_cb_reply(const uint8_t *call, size_t len, uint8_t *buf, size_t cap)
{
	struct rpc_msg_hdr h;
	struct xdr_r r;
	struct xdr_w w = { buf, cap, 0, false };
	uint32_t tl, nops, i, op, st = 0, fhl;
	uint8_t sid[16];
	uint32_t seq, slot, high;
	size_t status_at, count_at;

	if (rpc_decode_header(call, len, &h) != RPC_OK || h.msg_type != RPC_CALL)
		return 0;
	w.n = rpc_encode_accepted_reply(buf, cap, h.xid, h.proc > 1 ? RPC_PROC_UNAVAIL :
					RPC_SUCCESS);
	if (!w.n || h.proc == 0 || h.proc > 1)
		return w.n;
	/* CB_COMPOUND4args: tag, minorversion, callback_ident, ops; the
	 * first a CB_SEQUENCE (RFC 8881 §20.9), whose slot we echo.  Each op
	 * after it is answered in order, as COMPOUND's are (§16.2.3, §19.2.3: the
	 * first that fails ends the reply, its result the last): CB_RECALL
	 * (§20.2; knfsd's one, for a delegation) NFS4_OK, another callback
	 * operation NFS4ERR_NOTSUPP, an unknown number CB_ILLEGAL */
	r.p = call;
	r.len = len;
	r.off = h.body_off;
	r.bad = false;
	xdr_get_opaque(&r, 1024, &tl);
	xdr_get32(&r);
	xdr_get32(&r);
	nops = xdr_get32(&r);
	if (xdr_get32(&r) != CB_OP_SEQUENCE || r.len - r.off < 16 || nops > 16)
		return 0;
	memcpy(sid, r.p + r.off, 16);
	r.off += 16;
	cb_sequence_args(&r, &seq, &slot, &high);
	if (r.bad)                             /* cut short */
		return rpc_encode_accepted_reply(buf, cap, h.xid, RPC_GARBAGE_ARGS);
	status_at = w.n;
	xdr_put32(&w, 0);                     /* status: below */
	xdr_put32(&w, 0);                     /* tag */
	count_at = w.n;
	xdr_put32(&w, 1);                     /* results: below */
	xdr_put32(&w, CB_OP_SEQUENCE);
	xdr_put32(&w, 0);
	xdr_put_fixed(&w, sid, 16);
	xdr_put32(&w, seq);
	xdr_put32(&w, slot);
	xdr_put32(&w, high);
	xdr_put32(&w, high);
	for (i = 1; i < nops && !st; i++) {
		op = xdr_get32(&r);
		if (op == CB_OP_RECALL) {
			xdr_skip(&r, 16 + 4);  /* stateid4, truncate */
			xdr_get_opaque(&r, CF_NFS_FHMAX, &fhl);
			if (r.bad)
				return rpc_encode_accepted_reply(buf, cap, h.xid, RPC_GARBAGE_ARGS);
		} else if (op >= CB_OP_GETATTR && op <= CB_OP_OFFLOAD) {
			st = NFS4ERR_NOTSUPP;
		} else {
			op = CB_OP_ILLEGAL;
			st = NFS4ERR_OP_ILLEGAL;
		}
		xdr_put32(&w, op);
		xdr_put32(&w, st);
	}
	if (w.bad)
		return 0;
	be32_put(buf + status_at, st);
	be32_put(buf + count_at, i);
	return w.n;
}

size_t cf_nfs41_destroy(uint8_t *buf, size_t cap, uint32_t xid, const uint8_t sessionid[16],
			uint64_t clientid)
{
	struct xdr_w w = compound(buf, cap, xid, 1, 1);

	if (sessionid) {
		xdr_put32(&w, 44);            /* DESTROY_SESSION */
		xdr_put_fixed(&w, sessionid, 16);
	} else {
		xdr_put32(&w, 57);            /* DESTROY_CLIENTID */
		xdr_put32(&w, (uint32_t)(clientid >> 32));
		xdr_put32(&w, (uint32_t)clientid);
	}
	return w.bad ? 0 : w.n;
}
