/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fuzz_nfs3_serve.c - libFuzzer target: the NFSv3 and MOUNT v3 responder of
 * rpcrdma-conform --requester (tools/ulb/nfs3_serve.c over nfs3_xdr.c and
 * nfs3_tree.c) on any bytes, and the nfs3_xdr.c decoders directly.
 *
 * Byte 0 chooses:
 *   0xf0..0xff  one decoder of nfs3_xdr.h (0xf0 + index into decs[]) on the
 *               rest: it never reads past the bytes, a handle is at most
 *               NFS3_FHSIZE, a dirpath at most MNTPATHLEN, every pointer it
 *               returns lies inside the input;
 *   else        the rest is an RPC call to nfs3_serve(), with an output
 *               buffer of (byte 0 % 4) 0, 3: NFS3_SERVE_REPLY_MAX (the
 *               RPC-over-RDMA caller, req_nfs.c), 1: 512 (the MOUNT-over-TCP
 *               caller, req_mount.c), 2: byte 1 * 2 (a reply cut short).
 *
 * What must hold of a reply: at most cap bytes, placed at the end of a
 * buffer so that one byte past cap faults; when the bytes are an RPC call,
 * a reply whenever the NFS caller's cap is given (and the MOUNT caller's
 * for MOUNT); an RPC reply (RFC 5531 §9) with the call's xid,
 * MSG_DENIED/RPC_MISMATCH 2..2 for another RPC version, else accepted with
 * the accept_stat reported, PROG_MISMATCH 3..3; a SUCCESS reply's results
 * walk, by RFC 1813's XDR (written here from §3.3 and Appendix I, not from
 * nfs3_xdr.c), to exactly its last byte, with its status the one reported,
 * booleans 0 or 1, a READ's data where ddp_off/ddp_len say and no longer
 * than asked, a READDIR(PLUS) resok no larger than the count asked.
 */
#include <assert.h>
#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>
#include <string.h>
#include "rpcrdma/rpc.h"
#include "nfs3_serve.h"
#include "nfs3_xdr.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* ---- the decoders directly ---- */

static const uint8_t *in_lo, *in_hi;

static void inside(const void *p, size_t n)
{
	if (!n)
		return;
	assert((const uint8_t *)p >= in_lo && (const uint8_t *)p <= in_hi &&
	       n <= (size_t)(in_hi - (const uint8_t *)p));
}

static void fh_ok(const struct nfs3_fh *fh)
{
	assert(fh->len <= NFS3_FHSIZE);
	inside(fh->data, fh->len);
}

static void decoders(unsigned k, const uint8_t *b, size_t n)
{
	struct xdr_r r = { b, n, 0, false };
	struct nfs3_fh fh;
	struct nfs3_str str;
	struct nfs3_diropargs3 dop;
	struct nfs3_ACCESS3args ac;
	struct nfs3_READ3args rd;
	struct nfs3_WRITE3args wr;
	struct nfs3_COMMIT3args cm;
	struct nfs3_READDIR3args rdd;
	struct nfs3_READDIRPLUS3args rdp;
	int rc = 0;

	in_lo = b;
	in_hi = b + n;
	switch (k % 16) {
	case 0: rc = nfs3_dec_nfs_fh3(&r, &fh); if (!rc) fh_ok(&fh); break;
	case 1: rc = nfs3_dec_filename3(&r, &str); if (!rc) inside(str.s, str.len); break;
	case 2: rc = nfs3_dec_diropargs3(&r, &dop);
		if (!rc) { fh_ok(&dop.dir); inside(dop.name.s, dop.name.len); }
		break;
	case 3: rc = nfs3_dec_GETATTR3args(&r, &fh); if (!rc) fh_ok(&fh); break;
	case 4: rc = nfs3_dec_LOOKUP3args(&r, &dop);
		if (!rc) { fh_ok(&dop.dir); inside(dop.name.s, dop.name.len); }
		break;
	case 5: rc = nfs3_dec_ACCESS3args(&r, &ac); if (!rc) fh_ok(&ac.object); break;
	case 6: rc = nfs3_dec_READ3args(&r, &rd); if (!rc) fh_ok(&rd.file); break;
	case 7: rc = nfs3_dec_WRITE3args(&r, &wr);
		if (!rc) { fh_ok(&wr.file); inside(wr.data, wr.len); }
		break;
	case 8: rc = nfs3_dec_COMMIT3args(&r, &cm); if (!rc) fh_ok(&cm.file); break;
	case 9: rc = nfs3_dec_READDIR3args(&r, &rdd); if (!rc) fh_ok(&rdd.dir); break;
	case 10: rc = nfs3_dec_READDIRPLUS3args(&r, &rdp); if (!rc) fh_ok(&rdp.dir); break;
	case 11: rc = nfs3_dec_FSSTAT3args(&r, &fh); if (!rc) fh_ok(&fh); break;
	case 12: rc = nfs3_dec_FSINFO3args(&r, &fh); if (!rc) fh_ok(&fh); break;
	case 13: rc = nfs3_dec_PATHCONF3args(&r, &fh); if (!rc) fh_ok(&fh); break;
	default: rc = mnt3_dec_dirpath(&r, &str);
		if (!rc) { assert(str.len <= MNTPATHLEN); inside(str.s, str.len); }
		break;
	}
	/* 0 exactly when the cursor is good, and it never went past the end */
	assert((rc == 0) == !r.bad);
	assert(r.off <= n);
	assert(r.off % 4 == 0);
}

/* ---- an independent walker of the replies (RFC 1813 §3.3, Appendix I) ---- */

struct walk {
	const uint8_t *p;
	size_t n, off;
};

static uint32_t w32(struct walk *w)
{
	uint32_t v;

	assert(w->n - w->off >= 4);
	v = (uint32_t)w->p[w->off] << 24 | (uint32_t)w->p[w->off + 1] << 16 |
	    (uint32_t)w->p[w->off + 2] << 8 | w->p[w->off + 3];
	w->off += 4;
	return v;
}

static void wskip(struct walk *w, size_t n)
{
	assert(w->n - w->off >= n);
	w->off += n;
}

static bool wbool(struct walk *w)
{
	uint32_t v = w32(w);

	assert(v <= 1);
	return v;
}

/* opaque<max>: length, bytes, zero pad; the length */
static uint32_t wopaque(struct walk *w, uint32_t max)
{
	uint32_t n = w32(w), i, pad;

	assert(n <= max);
	wskip(w, n);
	pad = (4 - n % 4) % 4;
	assert(w->n - w->off >= pad);
	for (i = 0; i < pad; i++)
		assert(w->p[w->off + i] == 0);
	w->off += pad;
	return n;
}

static void wfattr3(struct walk *w)
{
	uint32_t type = w32(w);

	assert(type >= NF3REG && type <= NF3FIFO);
	wskip(w, 84 - 4);
}

static void wpost_op_attr(struct walk *w)
{
	if (wbool(w))
		wfattr3(w);
}

/* wcc_data: pre_op_attr (size, mtime, ctime: 24 bytes), post_op_attr */
static void wwcc(struct walk *w)
{
	if (wbool(w))
		wskip(w, 24);
	wpost_op_attr(w);
}

static void wpost_op_fh3(struct walk *w)
{
	if (wbool(w))
		(void)wopaque(w, NFS3_FHSIZE);
}

/* the call's arguments the walker needs: READ's count, READDIR(PLUS)'s
 * count/maxcount (UINT32_MAX when they do not decode: no bound) */
static uint32_t call_count(const uint8_t *call, size_t len, size_t off, uint32_t proc)
{
	struct walk c = { call, len, off };
	uint32_t fh;

	if (len - off < 4)
		return UINT32_MAX;
	fh = w32(&c);
	if (fh > NFS3_FHSIZE)
		return UINT32_MAX;
	fh = (fh + 3) & ~3u;
	/* READ: offset, count; READDIR: cookie, verf, count; READDIRPLUS:
	 * cookie, verf, dircount, maxcount */
	off = c.off + fh + (proc == NFSPROC3_READ ? 8 : proc == NFSPROC3_READDIR ? 16 : 20);
	if (off > len || len - off < 4)
		return UINT32_MAX;
	c.off = off;
	return w32(&c);
}

static void walk_nfs(struct walk *w, const struct nfs3_served *s, const uint8_t *call,
		     size_t len, size_t args)
{
	uint32_t st, count, n;
	size_t start;
	bool plus = s->proc == NFSPROC3_READDIRPLUS;

	if (s->proc == NFSPROC3_NULL)
		return;
	start = w->off;
	st = w32(w);
	assert(st == s->status);
	switch (s->proc) {
	case NFSPROC3_GETATTR:
		if (!st)
			wfattr3(w);
		break;
	case NFSPROC3_LOOKUP:
		if (!st) {
			(void)wopaque(w, NFS3_FHSIZE);
			wpost_op_attr(w);
		}
		wpost_op_attr(w);
		break;
	case NFSPROC3_ACCESS:
		wpost_op_attr(w);
		if (!st)
			(void)w32(w);
		break;
	case NFSPROC3_READLINK:
		wpost_op_attr(w);
		if (!st)
			(void)wopaque(w, UINT32_MAX);
		break;
	case NFSPROC3_READ:
		wpost_op_attr(w);
		if (st)
			break;
		count = w32(w);
		(void)wbool(w);
		assert(w->off + 4 == s->ddp_off);
		n = wopaque(w, NFS3_SERVE_RTMAX);
		assert(n == count && n == s->ddp_len);
		assert(n <= call_count(call, len, args, s->proc));
		break;
	case NFSPROC3_WRITE:
		wwcc(w);
		if (!st) {
			(void)w32(w);
			n = w32(w);
			assert(n <= NFS3_FILE_SYNC);
			wskip(w, NFS3_WRITEVERFSIZE);
		}
		break;
	case 8: case 9: case 10: case 11:     /* CREATE, MKDIR, SYMLINK, MKNOD */
		if (!st) {
			wpost_op_fh3(w);
			wpost_op_attr(w);
		}
		wwcc(w);
		break;
	case NFSPROC3_SETATTR: case 12: case 13:   /* SETATTR, REMOVE, RMDIR */
		wwcc(w);
		break;
	case 14:                              /* RENAME */
		wwcc(w);
		wwcc(w);
		break;
	case 15:                              /* LINK */
		wpost_op_attr(w);
		wwcc(w);
		break;
	case NFSPROC3_READDIR: case NFSPROC3_READDIRPLUS:
		wpost_op_attr(w);
		if (st)
			break;
		wskip(w, NFS3_COOKIEVERFSIZE);
		while (wbool(w)) {
			wskip(w, 8);          /* fileid */
			(void)wopaque(w, UINT32_MAX);
			wskip(w, 8);          /* cookie */
			if (plus) {
				wpost_op_attr(w);
				wpost_op_fh3(w);
			}
		}
		(void)wbool(w);               /* eof */
		/* the resok (after the status) no larger than count/maxcount */
		assert(w->off - start - 4 <= call_count(call, len, args, s->proc));
		break;
	case NFSPROC3_FSSTAT:
		wpost_op_attr(w);
		if (!st)
			wskip(w, 6 * 8 + 4);
		break;
	case NFSPROC3_FSINFO:
		wpost_op_attr(w);
		if (!st)
			wskip(w, 7 * 4 + 8 + 8 + 4);
		break;
	case NFSPROC3_PATHCONF:
		wpost_op_attr(w);
		if (!st) {
			wskip(w, 8);
			for (n = 0; n < 4; n++)
				(void)wbool(w);
		}
		break;
	case NFSPROC3_COMMIT:
		wwcc(w);
		if (!st)
			wskip(w, NFS3_WRITEVERFSIZE);
		break;
	default:
		assert(!"a SUCCESS reply to a procedure NFSv3 does not have");
	}
}

static void walk_mount(struct walk *w, const struct nfs3_served *s)
{
	uint32_t n;

	switch (s->proc) {
	case MOUNTPROC3_NULL: case MOUNTPROC3_UMNT: case MOUNTPROC3_UMNTALL:
		break;
	case MOUNTPROC3_MNT:
		if (w32(w) != s->status)
			assert(!"MNT: the status reported is not the one sent");
		if (s->status)
			break;
		(void)wopaque(w, FHSIZE3);
		n = w32(w);
		assert(n <= (w->n - w->off) / 4);
		wskip(w, 4 * (size_t)n);
		break;
	case MOUNTPROC3_DUMP:                 /* mountlist: hostname, directory */
		while (wbool(w)) {
			(void)wopaque(w, MNTNAMLEN);
			(void)wopaque(w, MNTPATHLEN);
		}
		break;
	case MOUNTPROC3_EXPORT:               /* exports: dir, groups (names) */
		while (wbool(w)) {
			(void)wopaque(w, MNTPATHLEN);
			while (wbool(w))
				(void)wopaque(w, MNTNAMLEN);
		}
		break;
	default:
		assert(!"a SUCCESS reply to a procedure MOUNT v3 does not have");
	}
}

/* the reply at the end of a buffer of the largest cap: one byte past cap
 * is past the object (ASan's redzone) */
static uint8_t buf[NFS3_SERVE_REPLY_MAX];

static void serve(const uint8_t *call, size_t len, size_t cap)
{
	uint8_t *out = buf + sizeof(buf) - cap;
	struct nfs3_served s;
	struct rpc_msg_hdr c, h;
	bool is_call;
	size_t n;
	struct walk w;

	enum rpc_result dr = rpc_decode_header(call, len, &c);

	/* a call, or a call of another RPC version */
	is_call = (dr == RPC_OK && c.msg_type == RPC_CALL) || rpc_call_other_version(dr, &c);
	n = nfs3_serve(call, len, out, cap, &s);
	assert(n <= cap);
	if (!is_call) {
		assert(n == 0);
		return;
	}
	if (cap == NFS3_SERVE_REPLY_MAX || (cap >= 512 && c.prog == MOUNT3_PROG))
		assert(n > 0);
	assert(s.xid == c.xid && s.prog == c.prog && s.vers == c.vers && s.proc == c.proc);
	if (!n)
		return;
	assert(rpc_decode_header(out, n, &h) == RPC_OK);
	assert(h.msg_type == RPC_REPLY && h.xid == c.xid);
	if (c.rpcvers != RPC_VERSION) {
		assert(h.reply_stat == RPC_MSG_DENIED && h.reject_stat == RPC_MISMATCH);
		assert(h.mismatch_low == 2 && h.mismatch_high == 2 && h.body_off == n);
		return;
	}
	assert(h.reply_stat == RPC_MSG_ACCEPTED && h.accept_stat == s.accept_stat);
	if (s.accept_stat != RPC_SUCCESS) {
		if (s.accept_stat == RPC_PROG_MISMATCH)
			assert(h.mismatch_low == 3 && h.mismatch_high == 3);
		else
			assert(s.accept_stat == RPC_PROG_UNAVAIL || s.accept_stat == RPC_PROC_UNAVAIL ||
			       s.accept_stat == RPC_GARBAGE_ARGS);
		assert(h.body_off == n && s.ddp_len == 0 && s.status == 0);
		return;
	}
	assert(c.prog == NFS3_PROG || c.prog == MOUNT3_PROG);
	w = (struct walk){ out, n, h.body_off };
	if (c.prog == MOUNT3_PROG)
		walk_mount(&w, &s);
	else
		walk_nfs(&w, &s, call, len, c.body_off);
	assert(w.off == n);
	if (s.ddp_len)
		assert(s.ddp_off <= n && s.ddp_len <= n - s.ddp_off);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t cap;

	if (size < 1)
		return 0;
	if (data[0] >= 0xf0) {
		decoders(data[0] - 0xf0u, data + 1, size - 1);
		return 0;
	}
	switch (data[0] % 4) {
	case 1: cap = 512; break;
	case 2:
		if (size < 2)
			return 0;
		cap = (size_t)data[1] * 2;
		data++, size--;
		break;
	default: cap = NFS3_SERVE_REPLY_MAX; break;
	}
	serve(data + 1, size - 1, cap);
	return 0;
}
