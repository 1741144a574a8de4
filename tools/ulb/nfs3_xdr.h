/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * nfs3_xdr.h - the part of NFS version 3 (RFC 1813) and MOUNT version 3
 * (RFC 1813 Appendix I) that rpcrdma-conform's read-only export speaks:
 * bounds-checked decoders of the arguments, one per XDR element and named
 * after it (nfs3_dec_READ3args() decodes READ3args), and encoders of the
 * results, over tools/common/xdrcur.h.  A decoder never reads past its
 * bytes: a short or oversized element sets the cursor's `bad` and returns
 * -1.  Pure: no I/O, no allocation, no global state.
 */
#ifndef RPCRDMA_NFS3_XDR_H
#define RPCRDMA_NFS3_XDR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "xdrcur.h"

#define NFS3_PROG 100003u
#define NFS3_VERS 3u
#define MOUNT3_PROG 100005u
#define MOUNT3_VERS 3u

/* RFC 1813 §2.2 constants, Appendix I's */
#define NFS3_FHSIZE 64u
#define NFS3_COOKIEVERFSIZE 8u
#define MNTPATHLEN 1024u
#define MNTNAMLEN 255u
#define FHSIZE3 64u
#define NFS3_NAME_MAX 255u             /* our PATHCONF name_max */

enum nfs3_proc {
	NFSPROC3_NULL = 0, NFSPROC3_GETATTR = 1, NFSPROC3_SETATTR = 2,
	NFSPROC3_LOOKUP = 3, NFSPROC3_ACCESS = 4, NFSPROC3_READLINK = 5,
	NFSPROC3_READ = 6, NFSPROC3_WRITE = 7, NFSPROC3_READDIR = 16,
	NFSPROC3_READDIRPLUS = 17, NFSPROC3_FSSTAT = 18, NFSPROC3_FSINFO = 19,
	NFSPROC3_PATHCONF = 20, NFSPROC3_COMMIT = 21,
};
enum mount3_proc {
	MOUNTPROC3_NULL = 0, MOUNTPROC3_MNT = 1, MOUNTPROC3_DUMP = 2,
	MOUNTPROC3_UMNT = 3, MOUNTPROC3_UMNTALL = 4, MOUNTPROC3_EXPORT = 5,
};

/* nfsstat3 (§2.6) and mountstat3 (Appendix I) share their values */
enum nfsstat3 {
	NFS3_OK = 0, NFS3ERR_PERM = 1, NFS3ERR_NOENT = 2, NFS3ERR_IO = 5,
	NFS3ERR_ACCES = 13, NFS3ERR_NOTDIR = 20, NFS3ERR_ISDIR = 21,
	NFS3ERR_INVAL = 22, NFS3ERR_ROFS = 30, NFS3ERR_NAMETOOLONG = 63,
	NFS3ERR_STALE = 70, NFS3ERR_BADHANDLE = 10001, NFS3ERR_BAD_COOKIE = 10003,
	NFS3ERR_NOTSUPP = 10004, NFS3ERR_TOOSMALL = 10005,
	NFS3ERR_SERVERFAULT = 10006,
};
enum ftype3 { NF3REG = 1, NF3DIR = 2, NF3BLK = 3, NF3CHR = 4, NF3LNK = 5, NF3SOCK = 6, NF3FIFO = 7 };

/* ACCESS3args.access bits (§3.3.4) */
#define ACCESS3_READ 0x0001u
#define ACCESS3_LOOKUP 0x0002u
#define ACCESS3_MODIFY 0x0004u
#define ACCESS3_EXTEND 0x0008u
#define ACCESS3_DELETE 0x0010u
#define ACCESS3_EXECUTE 0x0020u
/* FSINFO3resok.properties (§3.3.19) */
#define FSF3_LINK 0x0001u
#define FSF3_SYMLINK 0x0002u
#define FSF3_HOMOGENEOUS 0x0008u
#define FSF3_CANSETTIME 0x0010u

/* nfs_fh3: opaque data<NFS3_FHSIZE> (the bytes point into the message) */
struct nfs3_fh {
	const uint8_t *data;
	uint32_t len;
};
/* filename3 (string<>), dirpath (string<MNTPATHLEN>) */
struct nfs3_str {
	const uint8_t *s;
	uint32_t len;
};
struct nfs3_diropargs3 { struct nfs3_fh dir; struct nfs3_str name; };
struct nfs3_ACCESS3args { struct nfs3_fh object; uint32_t access; };
struct nfs3_READ3args { struct nfs3_fh file; uint64_t offset; uint32_t count; };
/* stable_how (§3.3.7) */
#define NFS3_UNSTABLE 0u
#define NFS3_DATA_SYNC 1u
#define NFS3_FILE_SYNC 2u
#define NFS3_WRITEVERFSIZE 8u
/* WRITE3args: the data's bytes point into the message */
struct nfs3_WRITE3args {
	struct nfs3_fh file;
	uint64_t offset;
	uint32_t count, stable;
	const uint8_t *data;
	uint32_t len;
};
struct nfs3_COMMIT3args { struct nfs3_fh file; uint64_t offset; uint32_t count; };
struct nfs3_READDIR3args {
	struct nfs3_fh dir;
	uint64_t cookie;
	uint8_t cookieverf[NFS3_COOKIEVERFSIZE];
	uint32_t count;
};
struct nfs3_READDIRPLUS3args {
	struct nfs3_fh dir;
	uint64_t cookie;
	uint8_t cookieverf[NFS3_COOKIEVERFSIZE];
	uint32_t dircount, maxcount;
};

/* ---- decoders: 0, or -1 with r->bad set ---- */
int nfs3_dec_nfs_fh3(struct xdr_r *r, struct nfs3_fh *fh);
int nfs3_dec_filename3(struct xdr_r *r, struct nfs3_str *name);
int nfs3_dec_diropargs3(struct xdr_r *r, struct nfs3_diropargs3 *a);
int nfs3_dec_GETATTR3args(struct xdr_r *r, struct nfs3_fh *object);
int nfs3_dec_LOOKUP3args(struct xdr_r *r, struct nfs3_diropargs3 *what);
int nfs3_dec_ACCESS3args(struct xdr_r *r, struct nfs3_ACCESS3args *a);
int nfs3_dec_READ3args(struct xdr_r *r, struct nfs3_READ3args *a);
int nfs3_dec_WRITE3args(struct xdr_r *r, struct nfs3_WRITE3args *a);
int nfs3_dec_COMMIT3args(struct xdr_r *r, struct nfs3_COMMIT3args *a);
int nfs3_dec_READDIR3args(struct xdr_r *r, struct nfs3_READDIR3args *a);
int nfs3_dec_READDIRPLUS3args(struct xdr_r *r, struct nfs3_READDIRPLUS3args *a);
int nfs3_dec_FSSTAT3args(struct xdr_r *r, struct nfs3_fh *fsroot);
int nfs3_dec_FSINFO3args(struct xdr_r *r, struct nfs3_fh *fsroot);
int nfs3_dec_PATHCONF3args(struct xdr_r *r, struct nfs3_fh *object);
/* MOUNT: dirpath, the argument of MNT and UMNT */
int mnt3_dec_dirpath(struct xdr_r *r, struct nfs3_str *path);

/* ---- encoders (a write that does not fit sets w->bad) ---- */
struct nfs3_fattr3 {
	uint32_t type, mode, nlink, uid, gid;
	uint64_t size, used;
	uint32_t rdev1, rdev2;
	uint64_t fsid, fileid;
	uint32_t atime_s, atime_ns, mtime_s, mtime_ns, ctime_s, ctime_ns;
};
void nfs3_enc_fattr3(struct xdr_w *w, const struct nfs3_fattr3 *a);
/* post_op_attr: attributes_follow, then the fattr3 when a is not NULL */
void nfs3_enc_post_op_attr(struct xdr_w *w, const struct nfs3_fattr3 *a);
void nfs3_enc_nfs_fh3(struct xdr_w *w, const uint8_t *fh, uint32_t len);
/* post_op_fh3: handle_follows, then the nfs_fh3 when fh is not NULL */
void nfs3_enc_post_op_fh3(struct xdr_w *w, const uint8_t *fh, uint32_t len);
/* the fixed part of FSINFO3resok after its post_op_attr (§3.3.19) */
struct nfs3_FSINFO3resok {
	uint32_t rtmax, rtpref, rtmult, wtmax, wtpref, wtmult, dtpref;
	uint64_t maxfilesize;
	uint32_t time_delta_s, time_delta_ns, properties;
};
void nfs3_enc_FSINFO3resok(struct xdr_w *w, const struct nfs3_FSINFO3resok *f);
/* mountres3_ok (Appendix I): fhandle3, auth_flavors<> */
void mnt3_enc_mountres3_ok(struct xdr_w *w, const uint8_t *fh, uint32_t len,
			   const uint32_t *flavors, uint32_t nflavors);

#endif
