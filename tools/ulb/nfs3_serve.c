/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * nfs3_serve.c - the NFSv3 (read-only but for /sink) and MOUNT v3 responder of
 * nfs3_serve.h over the tree of nfs3_tree.h (RFC 1813 §3.3, Appendix I).
 */
#include <string.h>
#include <rpcrdma/rpc.h>
#include "nfs3_serve.h"
#include "nfs3_tree.h"
#include "nfs3_xdr.h"

#define STAMP 1767225600u               /* 2026-01-01T00:00:00Z: every time */
#define FSID 0x7271747265653033ull      /* "rqtree03" */
#define ENTRYPLUS_FIXED (4u + 8u + 4u + 8u + 4u + 84u + 4u + 4u + NFS3_TREE_FHLEN)

static const uint8_t cookieverf[NFS3_COOKIEVERFSIZE] = { 'r', 'q', 'v', 'e', 'r', 'f', '0', '1' };

static void attrs_of(const struct nfs3_node *n, struct nfs3_fattr3 *a)
{
	memset(a, 0, sizeof(*a));
	a->type = n->dir ? NF3DIR : NF3REG;
	a->mode = n->dir ? 0555 : n->fileid == NFS3_TREE_SINK ? 0666 : 0444;
	a->nlink = !n->dir ? 1 : n->fileid == NFS3_TREE_ROOT ? 3 : 2;
	a->size = n->size;
	a->used = (n->size + 4095) & ~(uint64_t)4095;
	a->fsid = FSID;
	a->fileid = n->fileid;
	a->atime_s = a->mtime_s = a->ctime_s = STAMP;
}

/* post_op_attr of a fileid (none when 0 or unknown) */
static void post_attr(struct xdr_w *w, uint64_t fileid)
{
	struct nfs3_node n;
	struct nfs3_fattr3 a;

	if (fileid && nfs3_tree_get(fileid, &n)) {
		attrs_of(&n, &a);
		nfs3_enc_post_op_attr(w, &a);
	} else {
		nfs3_enc_post_op_attr(w, NULL);
	}
}

static void put_fh(struct xdr_w *w, uint64_t fileid)
{
	uint8_t fh[NFS3_TREE_FHLEN];

	nfs3_tree_fh(fileid, fh);
	nfs3_enc_nfs_fh3(w, fh, sizeof(fh));
}

/* a handle's fileid, or 0 with *st the error (BADHANDLE: not ours;
 * STALE: ours, no such file) */
static uint64_t fh_node(const struct nfs3_fh *fh, struct nfs3_node *n, uint32_t *st)
{
	bool stale;
	uint64_t id = nfs3_tree_fh_fileid(fh->data, fh->len, &stale);

	*st = NFS3_OK;
	if (!id || !nfs3_tree_get(id, n)) {
		*st = stale ? NFS3ERR_STALE : NFS3ERR_BADHANDLE;
		return 0;
	}
	return id;
}

static int do_getattr(struct xdr_r *r, struct xdr_w *w, uint32_t *st)
{
	struct nfs3_fh fh;
	struct nfs3_node n;
	struct nfs3_fattr3 a;

	if (nfs3_dec_GETATTR3args(r, &fh) < 0)
		return -1;
	fh_node(&fh, &n, st);
	xdr_put32(w, *st);
	if (*st == NFS3_OK) {
		attrs_of(&n, &a);
		nfs3_enc_fattr3(w, &a);
	}
	return 0;
}

static int do_lookup(struct xdr_r *r, struct xdr_w *w, uint32_t *st)
{
	struct nfs3_diropargs3 a;
	struct nfs3_node d;
	uint64_t dir, id = 0;

	if (nfs3_dec_LOOKUP3args(r, &a) < 0)
		return -1;
	dir = fh_node(&a.dir, &d, st);
	if (dir && !d.dir)
		*st = NFS3ERR_NOTDIR;
	else if (dir && a.name.len > NFS3_NAME_MAX)
		*st = NFS3ERR_NAMETOOLONG;
	else if (dir && !(id = nfs3_tree_lookup(dir, a.name.s, a.name.len)))
		*st = NFS3ERR_NOENT;
	xdr_put32(w, *st);
	if (*st == NFS3_OK) {
		put_fh(w, id);
		post_attr(w, id);
	}
	post_attr(w, dir);
	return 0;
}

static int do_access(struct xdr_r *r, struct xdr_w *w, uint32_t *st)
{
	struct nfs3_ACCESS3args a;
	struct nfs3_node n;
	uint64_t id;

	if (nfs3_dec_ACCESS3args(r, &a) < 0)
		return -1;
	id = fh_node(&a.object, &n, st);
	xdr_put32(w, *st);
	post_attr(w, id);
	if (*st == NFS3_OK)
		xdr_put32(w, a.access & (n.dir ? ACCESS3_READ | ACCESS3_LOOKUP | ACCESS3_EXECUTE
				       : id == NFS3_TREE_SINK ? ACCESS3_READ | ACCESS3_MODIFY |
				       ACCESS3_EXTEND : ACCESS3_READ));
	return 0;
}

static const uint8_t writeverf[NFS3_WRITEVERFSIZE] = { 'r', 'q', 's', 'i', 'n', 'k', '0', '1' };

/* the status of a WRITE or COMMIT and its wcc_data: on NFS3_OK no
 * pre_op_attr and the file's attributes after (true: the resok's rest
 * follows); on an error both absent (false) */
static bool put_status_wcc(struct xdr_w *w, uint32_t st, uint64_t id)
{
	xdr_put32(w, st);
	xdr_put32(w, 0);
	if (st != NFS3_OK) {
		xdr_put32(w, 0);
		return false;
	}
	post_attr(w, id);
	return true;
}

/* WRITE (§3.3.7): to /sink, acknowledged FILE_SYNC and the data dropped
 * (a count past the data sent is INVAL); anywhere else NFS3ERR_ROFS (or the
 * handle's error) with an empty wcc_data */
static int do_write(struct xdr_r *r, struct xdr_w *w, uint32_t *st)
{
	struct nfs3_WRITE3args a;
	struct nfs3_node n;
	uint64_t id;

	if (nfs3_dec_WRITE3args(r, &a) < 0)
		return -1;
	id = fh_node(&a.file, &n, st);
	if (id && n.dir)
		*st = NFS3ERR_ISDIR;
	else if (id && id != NFS3_TREE_SINK)
		*st = NFS3ERR_ROFS;
	else if (id && a.count > a.len)
		*st = NFS3ERR_INVAL;
	if (!put_status_wcc(w, *st, id))
		return 0;
	xdr_put32(w, a.count);
	xdr_put32(w, NFS3_FILE_SYNC);
	xdr_put_fixed(w, writeverf, sizeof(writeverf));
	return 0;
}

/* COMMIT (§3.3.21): of /sink, done (nothing is kept); elsewhere ROFS */
static int do_commit(struct xdr_r *r, struct xdr_w *w, uint32_t *st)
{
	struct nfs3_COMMIT3args a;
	struct nfs3_node n;
	uint64_t id;

	if (nfs3_dec_COMMIT3args(r, &a) < 0)
		return -1;
	id = fh_node(&a.file, &n, st);
	if (id && id != NFS3_TREE_SINK)
		*st = NFS3ERR_ROFS;
	if (put_status_wcc(w, *st, id))
		xdr_put_fixed(w, writeverf, sizeof(writeverf));
	return 0;
}

static int do_read(struct xdr_r *r, struct xdr_w *w, uint32_t *st, struct nfs3_served *s)
{
	struct nfs3_READ3args a;
	struct nfs3_node n;
	uint64_t id;
	size_t got, room;
	bool eof;

	if (nfs3_dec_READ3args(r, &a) < 0)
		return -1;
	id = fh_node(&a.file, &n, st);
	if (id && n.dir)
		*st = NFS3ERR_ISDIR;
	xdr_put32(w, *st);
	post_attr(w, id);
	if (*st != NFS3_OK)
		return 0;
	if (a.count > NFS3_SERVE_RTMAX)
		a.count = NFS3_SERVE_RTMAX;
	room = w->bad || w->cap - w->n < 12 ? 0 : (w->cap - w->n - 12) & ~(size_t)3;
	got = nfs3_tree_read(id, a.offset, a.count < room ? a.count : room, w->p + w->n + 12, &eof);
	xdr_put32(w, (uint32_t)got);          /* count */
	xdr_put32(w, eof);
	xdr_put32(w, (uint32_t)got);          /* data<> */
	if (w->bad)
		return 0;
	s->ddp_off = w->n;
	s->ddp_len = got;
	memset(w->p + w->n + got, 0, (4 - got % 4) % 4);
	w->n += (got + 3) & ~(size_t)3;
	return 0;
}

/* the entries of READDIR (plus false) or READDIRPLUS (plus true) from
 * cookie's index while they fit max bytes of the resok (`used` so far) and
 * dircount bytes of names (0: no bound); *eof when the last was put */
static uint32_t put_entries(struct xdr_w *w, uint64_t dir, uint64_t cookie, size_t used,
			    size_t max, uint32_t dircount, bool plus, bool *eof)
{
	uint64_t i, id, n = nfs3_tree_nentries(dir);
	size_t names = 0, len, padded;
	uint32_t put = 0;
	char name[NFS3_TREE_NAME_MAX];

	*eof = true;
	for (i = cookie; i < n; i++) {
		if (!nfs3_tree_entry(dir, i, name, &id))
			break;
		len = strlen(name);
		padded = (len + 3) & ~(size_t)3;
		names += 8 + 4 + padded + 8;
		len = plus ? ENTRYPLUS_FIXED + padded : 4 + 8 + 4 + padded + 8;
		if (used + len + 8 > max || (plus && dircount && names > dircount)) {
			*eof = false;
			break;
		}
		used += len;
		xdr_put32(w, 1);              /* value_follows */
		xdr_put64(w, id);
		xdr_put_opaque(w, name, strlen(name));
		xdr_put64(w, i + 1);          /* cookie: the next entry's index */
		if (plus) {
			uint8_t fh[NFS3_TREE_FHLEN];

			post_attr(w, id);
			nfs3_tree_fh(id, fh);
			nfs3_enc_post_op_fh3(w, fh, sizeof(fh));
		}
		put++;
	}
	xdr_put32(w, 0);                      /* no next entry */
	xdr_put32(w, *eof);
	return put;
}

static int do_readdir(struct xdr_r *r, struct xdr_w *w, uint32_t *st, bool plus)
{
	struct nfs3_READDIRPLUS3args a;
	struct nfs3_node n;
	uint64_t id;
	size_t start, max;
	bool eof;

	if (plus) {
		if (nfs3_dec_READDIRPLUS3args(r, &a) < 0)
			return -1;
	} else {
		struct nfs3_READDIR3args b;

		if (nfs3_dec_READDIR3args(r, &b) < 0)
			return -1;
		a.dir = b.dir;
		a.cookie = b.cookie;
		memcpy(a.cookieverf, b.cookieverf, sizeof(a.cookieverf));
		a.dircount = 0;
		a.maxcount = b.count;
	}
	id = fh_node(&a.dir, &n, st);
	if (id && !n.dir)
		*st = NFS3ERR_NOTDIR;
	else if (id && a.cookie && (a.cookie > nfs3_tree_nentries(id) ||
				    memcmp(a.cookieverf, cookieverf, sizeof(cookieverf))))
		*st = NFS3ERR_BAD_COOKIE;
	start = w->n;
	xdr_put32(w, *st);
	post_attr(w, id);
	if (*st != NFS3_OK)
		return 0;
	xdr_put_fixed(w, cookieverf, sizeof(cookieverf));
	max = a.maxcount < NFS3_SERVE_DTMAX ? a.maxcount : NFS3_SERVE_DTMAX;
	/* not even one entry fits, or (at the end: no entry to put) not even
	 * the resok's fixed part and its end of list: READDIR3resfail, the
	 * resok never larger than count/maxcount (§3.3.16, §3.3.17) */
	if (w->n - start - 4 + 8 > max ||
	    (!put_entries(w, id, a.cookie, w->n - start - 4, max, a.dircount, plus, &eof) && !eof)) {
		w->n = start;
		*st = NFS3ERR_TOOSMALL;
		xdr_put32(w, *st);
		post_attr(w, id);
	}
	return 0;
}

/* FSSTAT, FSINFO, PATHCONF: the file system's figures */
static int do_fs(struct xdr_r *r, struct xdr_w *w, uint32_t *st, uint32_t proc)
{
	static const struct nfs3_FSINFO3resok fi = {
		.rtmax = NFS3_SERVE_RTMAX, .rtpref = NFS3_SERVE_RTMAX, .rtmult = 4096,
		.wtmax = NFS3_SERVE_RTMAX, .wtpref = NFS3_SERVE_RTMAX, .wtmult = 4096,
		.dtpref = NFS3_SERVE_DTMAX, .maxfilesize = 1ull << 32,
		.time_delta_s = 1, .properties = FSF3_HOMOGENEOUS,
	};
	struct nfs3_fh fh;
	struct nfs3_node n;
	uint64_t id;

	if (nfs3_dec_FSSTAT3args(r, &fh) < 0)  /* the three take one nfs_fh3 */
		return -1;
	id = fh_node(&fh, &n, st);
	xdr_put32(w, *st);
	post_attr(w, id);
	if (*st != NFS3_OK)
		return 0;
	if (proc == NFSPROC3_FSSTAT) {
		xdr_put64(w, 2ull << 20);     /* tbytes */
		xdr_put64(w, 0);              /* fbytes */
		xdr_put64(w, 0);              /* abytes */
		xdr_put64(w, 2 + 7 + NFS3_TREE_MANY);  /* tfiles */
		xdr_put64(w, 0);              /* ffiles */
		xdr_put64(w, 0);              /* afiles */
		xdr_put32(w, 0xffffffffu);    /* invarsec: never changes */
	} else if (proc == NFSPROC3_FSINFO) {
		nfs3_enc_FSINFO3resok(w, &fi);
	} else {
		xdr_put32(w, 1);              /* linkmax */
		xdr_put32(w, NFS3_NAME_MAX);  /* name_max */
		xdr_put32(w, 1);              /* no_trunc */
		xdr_put32(w, 1);              /* chown_restricted */
		xdr_put32(w, 0);              /* case_insensitive */
		xdr_put32(w, 1);              /* case_preserving */
	}
	return 0;
}

/* the procedures that would change something: NFS3ERR_ROFS and the words
 * of their resfail (wcc_data: two absent attributes; RENAME two wcc_data,
 * LINK a post_op_attr and a wcc_data); READLINK: no links here, INVAL */
static int rofs_words(uint32_t proc)
{
	switch (proc) {
	case NFSPROC3_SETATTR: case NFSPROC3_WRITE: case 8: case 9: case 10: case 11:
	case 12: case 13: case NFSPROC3_COMMIT:
		return 2;
	case 14: return 4;
	case 15: return 3;
	default: return -1;
	}
}

/* the NFS program's results after the accepted reply header: 0, -1 for
 * GARBAGE_ARGS, -2 for PROC_UNAVAIL */
static int nfs_proc(struct xdr_r *r, struct xdr_w *w, struct nfs3_served *s)
{
	int k;

	switch (s->proc) {
	case NFSPROC3_NULL: return 0;
	case NFSPROC3_GETATTR: return do_getattr(r, w, &s->status);
	case NFSPROC3_LOOKUP: return do_lookup(r, w, &s->status);
	case NFSPROC3_ACCESS: return do_access(r, w, &s->status);
	case NFSPROC3_READ: return do_read(r, w, &s->status, s);
	case NFSPROC3_WRITE: return do_write(r, w, &s->status);
	case NFSPROC3_COMMIT: return do_commit(r, w, &s->status);
	case NFSPROC3_READDIR: return do_readdir(r, w, &s->status, false);
	case NFSPROC3_READDIRPLUS: return do_readdir(r, w, &s->status, true);
	case NFSPROC3_FSSTAT: case NFSPROC3_FSINFO: case NFSPROC3_PATHCONF:
		return do_fs(r, w, &s->status, s->proc);
	case NFSPROC3_READLINK:
		s->status = NFS3ERR_INVAL;
		xdr_put32(w, s->status);
		xdr_put32(w, 0);
		return 0;
	default:
		if ((k = rofs_words(s->proc)) < 0)
			return -2;
		s->status = NFS3ERR_ROFS;
		xdr_put32(w, s->status);
		while (k--)
			xdr_put32(w, 0);
		return 0;
	}
}

static int mount_proc(struct xdr_r *r, struct xdr_w *w, struct nfs3_served *s)
{
	static const uint32_t flavors[] = { RPC_AUTH_SYS, RPC_AUTH_NONE };
	struct nfs3_str path;
	uint8_t fh[NFS3_TREE_FHLEN];

	switch (s->proc) {
	case MOUNTPROC3_NULL: case MOUNTPROC3_UMNTALL: return 0;
	case MOUNTPROC3_DUMP: xdr_put32(w, 0); return 0;     /* no mountlist */
	case MOUNTPROC3_MNT:
		if (mnt3_dec_dirpath(r, &path) < 0)
			return -1;
		s->status = path.len == 1 && path.s[0] == '/' ? NFS3_OK : NFS3ERR_NOENT;
		xdr_put32(w, s->status);
		nfs3_tree_fh(NFS3_TREE_ROOT, fh);
		if (s->status == NFS3_OK)
			mnt3_enc_mountres3_ok(w, fh, sizeof(fh), flavors, 2);
		return 0;
	case MOUNTPROC3_UMNT:
		return mnt3_dec_dirpath(r, &path);
	case MOUNTPROC3_EXPORT:               /* exports: "/" to every host */
		xdr_put32(w, 1);
		xdr_put_opaque(w, "/", 1);
		xdr_put32(w, 0);              /* ex_groups: none */
		xdr_put32(w, 0);
		return 0;
	default:
		return -2;
	}
}

size_t nfs3_serve(const uint8_t *msg, size_t len, uint8_t *out, size_t cap,
		  struct nfs3_served *s)
{
	struct rpc_msg_hdr h;
	struct xdr_w w = { out, cap, 0, false };
	struct xdr_r r;
	bool mount;
	int rc = -2;

	memset(s, 0, sizeof(*s));
	enum rpc_result dr = rpc_decode_header(msg, len, &h);

	if (!(dr == RPC_OK && h.msg_type == RPC_CALL) && !rpc_call_other_version(dr, &h))
		return 0;
	s->xid = h.xid;
	s->prog = h.prog;
	s->vers = h.vers;
	s->proc = h.proc;
	if (h.rpcvers != RPC_VERSION) {       /* MSG_DENIED, RPC_MISMATCH 2..2 */
		const uint32_t d[] = { h.xid, RPC_REPLY, RPC_MSG_DENIED, RPC_MISMATCH, 2, 2 };

		for (size_t i = 0; i < 6; i++)
			xdr_put32(&w, d[i]);
		return w.bad ? 0 : w.n;
	}
	mount = h.prog == MOUNT3_PROG;
	s->accept_stat = h.prog != NFS3_PROG && !mount ? RPC_PROG_UNAVAIL
		: h.vers != 3 ? RPC_PROG_MISMATCH : RPC_SUCCESS;
	w.n = rpc_encode_accepted_reply(out, cap, h.xid, s->accept_stat);
	w.bad = w.n == 0;
	if (s->accept_stat == RPC_PROG_MISMATCH) {
		xdr_put32(&w, 3);
		xdr_put32(&w, 3);
	}
	if (s->accept_stat == RPC_SUCCESS) {
		r = (struct xdr_r){ msg, len, h.body_off, false };
		rc = mount ? mount_proc(&r, &w, s) : nfs_proc(&r, &w, s);
		if (rc < 0) {                 /* the header again, another status */
			s->accept_stat = rc == -1 ? RPC_GARBAGE_ARGS : RPC_PROC_UNAVAIL;
			s->status = 0;
			s->ddp_off = s->ddp_len = 0;
			w.n = rpc_encode_accepted_reply(out, cap, h.xid, s->accept_stat);
			w.bad = w.n == 0;
		}
	}
	return w.bad ? 0 : w.n;
}

const char *nfs3_proc_name(uint32_t proc, int mount)
{
	static const char *const nfs[] = {
		"NULL", "GETATTR", "SETATTR", "LOOKUP", "ACCESS", "READLINK", "READ",
		"WRITE", "CREATE", "MKDIR", "SYMLINK", "MKNOD", "REMOVE", "RMDIR", "RENAME",
		"LINK", "READDIR", "READDIRPLUS", "FSSTAT", "FSINFO", "PATHCONF", "COMMIT",
	};
	static const char *const mnt[] = { "NULL", "MNT", "DUMP", "UMNT", "UMNTALL", "EXPORT" };

	if (mount)
		return proc < 6 ? mnt[proc] : "?";
	return proc < sizeof(nfs) / sizeof(nfs[0]) ? nfs[proc] : "?";
}
