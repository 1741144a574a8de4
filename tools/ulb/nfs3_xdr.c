/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * nfs3_xdr.c - NFSv3 and MOUNT v3 XDR (RFC 1813 §2, §3, Appendix I): the
 * arguments' decoders and the results' pieces (nfs3_xdr.h).  Every length
 * read is checked against its bound (nfs_fh3 at most NFS3_FHSIZE, dirpath
 * at most MNTPATHLEN) and the bytes there before anything is taken.
 */
#include "nfs3_xdr.h"

static int done(struct xdr_r *r)
{
	return r->bad ? -1 : 0;
}

/* typedef opaque data<NFS3_FHSIZE> inside struct nfs_fh3 (§2.5) */
int nfs3_dec_nfs_fh3(struct xdr_r *r, struct nfs3_fh *fh)
{
	fh->data = xdr_get_opaque(r, NFS3_FHSIZE, &fh->len);
	if (!fh->data)
		fh->len = 0;
	return done(r);
}

/* typedef string filename3<> (§2.5); our names are at most NFS3_NAME_MAX,
 * a longer one is taken whole (the caller answers NAMETOOLONG) */
int nfs3_dec_filename3(struct xdr_r *r, struct nfs3_str *name)
{
	name->s = xdr_get_opaque(r, UINT32_MAX, &name->len);
	if (!name->s)
		name->len = 0;
	return done(r);
}

/* struct diropargs3 { nfs_fh3 dir; filename3 name; } (§2.6) */
int nfs3_dec_diropargs3(struct xdr_r *r, struct nfs3_diropargs3 *a)
{
	nfs3_dec_nfs_fh3(r, &a->dir);
	nfs3_dec_filename3(r, &a->name);
	return done(r);
}

/* struct GETATTR3args { nfs_fh3 object; } (§3.3.1) */
int nfs3_dec_GETATTR3args(struct xdr_r *r, struct nfs3_fh *object)
{
	return nfs3_dec_nfs_fh3(r, object);
}

/* struct LOOKUP3args { diropargs3 what; } (§3.3.3) */
int nfs3_dec_LOOKUP3args(struct xdr_r *r, struct nfs3_diropargs3 *what)
{
	return nfs3_dec_diropargs3(r, what);
}

/* struct ACCESS3args { nfs_fh3 object; uint32 access; } (§3.3.4) */
int nfs3_dec_ACCESS3args(struct xdr_r *r, struct nfs3_ACCESS3args *a)
{
	nfs3_dec_nfs_fh3(r, &a->object);
	a->access = xdr_get32(r);
	return done(r);
}

/* struct READ3args { nfs_fh3 file; offset3 offset; count3 count; } (§3.3.6) */
int nfs3_dec_READ3args(struct xdr_r *r, struct nfs3_READ3args *a)
{
	nfs3_dec_nfs_fh3(r, &a->file);
	a->offset = xdr_get64(r);
	a->count = xdr_get32(r);
	return done(r);
}

/* struct WRITE3args { nfs_fh3 file; offset3 offset; count3 count;
 * stable_how stable; opaque data<>; } (§3.3.7): the data's length is
 * taken as sent (at most what the message holds); count against it is the
 * caller's to judge */
int nfs3_dec_WRITE3args(struct xdr_r *r, struct nfs3_WRITE3args *a)
{
	nfs3_dec_nfs_fh3(r, &a->file);
	a->offset = xdr_get64(r);
	a->count = xdr_get32(r);
	a->stable = xdr_get32(r);
	a->data = xdr_get_opaque(r, UINT32_MAX, &a->len);
	if (!a->data)
		a->len = 0;
	return done(r);
}

/* struct COMMIT3args { nfs_fh3 file; offset3 offset; count3 count; }
 * (§3.3.21) */
int nfs3_dec_COMMIT3args(struct xdr_r *r, struct nfs3_COMMIT3args *a)
{
	nfs3_dec_nfs_fh3(r, &a->file);
	a->offset = xdr_get64(r);
	a->count = xdr_get32(r);
	return done(r);
}

/* struct READDIR3args { nfs_fh3 dir; cookie3 cookie; cookieverf3
 * cookieverf; count3 count; } (§3.3.16) */
int nfs3_dec_READDIR3args(struct xdr_r *r, struct nfs3_READDIR3args *a)
{
	nfs3_dec_nfs_fh3(r, &a->dir);
	a->cookie = xdr_get64(r);
	xdr_get_fixed(r, a->cookieverf, NFS3_COOKIEVERFSIZE);
	a->count = xdr_get32(r);
	return done(r);
}

/* struct READDIRPLUS3args { nfs_fh3 dir; cookie3 cookie; cookieverf3
 * cookieverf; count3 dircount; count3 maxcount; } (§3.3.17) */
int nfs3_dec_READDIRPLUS3args(struct xdr_r *r, struct nfs3_READDIRPLUS3args *a)
{
	nfs3_dec_nfs_fh3(r, &a->dir);
	a->cookie = xdr_get64(r);
	xdr_get_fixed(r, a->cookieverf, NFS3_COOKIEVERFSIZE);
	a->dircount = xdr_get32(r);
	a->maxcount = xdr_get32(r);
	return done(r);
}

/* struct FSSTAT3args { nfs_fh3 fsroot; } (§3.3.18) */
int nfs3_dec_FSSTAT3args(struct xdr_r *r, struct nfs3_fh *fsroot)
{
	return nfs3_dec_nfs_fh3(r, fsroot);
}

/* struct FSINFO3args { nfs_fh3 fsroot; } (§3.3.19) */
int nfs3_dec_FSINFO3args(struct xdr_r *r, struct nfs3_fh *fsroot)
{
	return nfs3_dec_nfs_fh3(r, fsroot);
}

/* struct PATHCONF3args { nfs_fh3 object; } (§3.3.20) */
int nfs3_dec_PATHCONF3args(struct xdr_r *r, struct nfs3_fh *object)
{
	return nfs3_dec_nfs_fh3(r, object);
}

/* typedef string dirpath<MNTPATHLEN> (Appendix I) */
int mnt3_dec_dirpath(struct xdr_r *r, struct nfs3_str *path)
{
	path->s = xdr_get_opaque(r, MNTPATHLEN, &path->len);
	if (!path->s)
		path->len = 0;
	return done(r);
}

/* struct fattr3 (§2.6): type, mode, nlink, uid, gid, size, used, rdev
 * (specdata3), fsid, fileid, atime, mtime, ctime (nfstime3): 84 bytes */
void nfs3_enc_fattr3(struct xdr_w *w, const struct nfs3_fattr3 *a)
{
	xdr_put32(w, a->type);
	xdr_put32(w, a->mode);
	xdr_put32(w, a->nlink);
	xdr_put32(w, a->uid);
	xdr_put32(w, a->gid);
	xdr_put64(w, a->size);
	xdr_put64(w, a->used);
	xdr_put32(w, a->rdev1);
	xdr_put32(w, a->rdev2);
	xdr_put64(w, a->fsid);
	xdr_put64(w, a->fileid);
	xdr_put32(w, a->atime_s);
	xdr_put32(w, a->atime_ns);
	xdr_put32(w, a->mtime_s);
	xdr_put32(w, a->mtime_ns);
	xdr_put32(w, a->ctime_s);
	xdr_put32(w, a->ctime_ns);
}

/* union post_op_attr switch (bool attributes_follow) (§2.6) */
void nfs3_enc_post_op_attr(struct xdr_w *w, const struct nfs3_fattr3 *a)
{
	xdr_put32(w, a != NULL);
	if (a)
		nfs3_enc_fattr3(w, a);
}

void nfs3_enc_nfs_fh3(struct xdr_w *w, const uint8_t *fh, uint32_t len)
{
	if (len > NFS3_FHSIZE) {
		w->bad = true;
		return;
	}
	xdr_put_opaque(w, fh, len);
}

/* union post_op_fh3 switch (bool handle_follows) (§2.6) */
void nfs3_enc_post_op_fh3(struct xdr_w *w, const uint8_t *fh, uint32_t len)
{
	xdr_put32(w, fh != NULL);
	if (fh)
		nfs3_enc_nfs_fh3(w, fh, len);
}

/* FSINFO3resok after obj_attributes (§3.3.19) */
void nfs3_enc_FSINFO3resok(struct xdr_w *w, const struct nfs3_FSINFO3resok *f)
{
	xdr_put32(w, f->rtmax);
	xdr_put32(w, f->rtpref);
	xdr_put32(w, f->rtmult);
	xdr_put32(w, f->wtmax);
	xdr_put32(w, f->wtpref);
	xdr_put32(w, f->wtmult);
	xdr_put32(w, f->dtpref);
	xdr_put64(w, f->maxfilesize);
	xdr_put32(w, f->time_delta_s);
	xdr_put32(w, f->time_delta_ns);
	xdr_put32(w, f->properties);
}

/* struct mountres3_ok { fhandle3 fhandle; int auth_flavors<>; } */
void mnt3_enc_mountres3_ok(struct xdr_w *w, const uint8_t *fh, uint32_t len,
			   const uint32_t *flavors, uint32_t nflavors)
{
	uint32_t i;

	if (len > FHSIZE3) {
		w->bad = true;
		return;
	}
	xdr_put_opaque(w, fh, len);
	xdr_put32(w, nflavors);
	for (i = 0; i < nflavors; i++)
		xdr_put32(w, flavors[i]);
}
