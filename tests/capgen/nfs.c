/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * nfs.c - RPC messages for the captures: ONC RPC headers from libcodec
 * (rpc_encode_call, rpc_encode_accepted_reply; RFC 5531) followed by NFS
 * arguments and results written with a small XDR writer (RFC 4506):
 * NFSv3 GETATTR, READ, WRITE, SYMLINK, READDIR (RFC 1813 §3.3), NFSv4.0
 * COMPOUND { PUTROOTFH, GETFH } (RFC 7530 §16), NFSv4.1 COMPOUND
 * { SEQUENCE, PUTROOTFH, GETFH } and CB_COMPOUND { CB_SEQUENCE }
 * (RFC 8881 §18.46, §20.9).
 */
#include <stdio.h>
#include <string.h>
#include "rpcrdma/rpc.h"
#include "capgen.h"
#include "nfs.h"

/* A write that does not fit is dropped whole: len never exceeds b. */
void xw_u32(struct xw *x, uint32_t v)
{
	if (x->len + 4 > sizeof(x->b))
		return;
	put32(x->b + x->len, v);
	x->len += 4;
}

void xw_u64(struct xw *x, uint64_t v)
{
	xw_u32(x, (uint32_t)(v >> 32));
	xw_u32(x, (uint32_t)v);
}

void xw_fixed(struct xw *x, const void *p, size_t n)
{
	size_t pad = (4 - n % 4) % 4;

	if (x->len + n + pad > sizeof(x->b))
		return;
	memcpy(x->b + x->len, p, n);
	memset(x->b + x->len + n, 0, pad);
	x->len += n + pad;
}

void xw_opaque(struct xw *x, const void *p, size_t n)
{
	xw_u32(x, (uint32_t)n);
	xw_fixed(x, p, n);
}

static const uint8_t fh3[32] = {
	0x01, 0x00, 0x07, 0x01, 0x9a, 0x2b, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x3c, 0x4d, 0x5e, 0x6f, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x11, 0x22, 0x33, 0x44, 0x00, 0x00, 0x00, 0x01,
};

void rpc_call(struct xw *x, uint32_t xid, uint32_t prog, uint32_t vers,
	      uint32_t proc)
{
	x->len = rpc_encode_call(x->b, sizeof(x->b), xid, prog, vers, proc);
}

void rpc_reply(struct xw *x, uint32_t xid)
{
	x->len = rpc_encode_accepted_reply(x->b, sizeof(x->b), xid, RPC_SUCCESS);
}

static void fattr3(struct xw *x, uint32_t type, uint64_t size)
{
	xw_u32(x, type);
	xw_u32(x, type == 2 ? 0755 : 0644);
	xw_u32(x, 1);
	xw_u32(x, 0);
	xw_u32(x, 0);
	xw_u64(x, size);
	xw_u64(x, (size + 4095) & ~4095ull);
	xw_u64(x, 0);                         /* rdev */
	xw_u64(x, 0x2a);                      /* fsid */
	xw_u64(x, 0x1000 + size % 977);       /* fileid */
	for (int i = 0; i < 3; i++) {         /* atime mtime ctime */
		xw_u32(x, 1767225600u);
		xw_u32(x, 0);
	}
}

void nfs3_fh(struct xw *x)
{
	xw_opaque(x, fh3, sizeof(fh3));
}

void nfs3_getattr_call(struct xw *x, uint32_t xid)
{
	rpc_call(x, xid, RPC_PROG_NFS, 3, NFS3_GETATTR);
	nfs3_fh(x);
}

void nfs3_getattr_reply(struct xw *x, uint32_t xid)
{
	rpc_reply(x, xid);
	xw_u32(x, 0);
	fattr3(x, 1, 8192);
}

void nfs3_read_call(struct xw *x, uint32_t xid, uint64_t off, uint32_t count)
{
	rpc_call(x, xid, RPC_PROG_NFS, 3, NFS3_READ);
	nfs3_fh(x);
	xw_u64(x, off);
	xw_u32(x, count);
}

/* Up to and including the data's length word (the data goes in a chunk
 * or is appended by the caller). */
void nfs3_read_reply_head(struct xw *x, uint32_t xid, uint32_t count,
			  bool eof)
{
	rpc_reply(x, xid);
	xw_u32(x, 0);
	xw_u32(x, 1);
	fattr3(x, 1, 65536);
	xw_u32(x, count);
	xw_u32(x, eof);
	xw_u32(x, count);
}

void nfs3_read_reply_err(struct xw *x, uint32_t xid)
{
	rpc_reply(x, xid);
	xw_u32(x, 5);                         /* NFS3ERR_IO */
	xw_u32(x, 0);                         /* no attributes */
}

void nfs3_write_call_head(struct xw *x, uint32_t xid, uint64_t off,
			  uint32_t count)
{
	rpc_call(x, xid, RPC_PROG_NFS, 3, NFS3_WRITE);
	nfs3_fh(x);
	xw_u64(x, off);
	xw_u32(x, count);
	xw_u32(x, 2);                         /* FILE_SYNC */
	xw_u32(x, count);
}

void nfs3_write_reply(struct xw *x, uint32_t xid, uint32_t count)
{
	rpc_reply(x, xid);
	xw_u32(x, 0);
	xw_u32(x, 0);                         /* wcc before: none */
	xw_u32(x, 1);
	fattr3(x, 1, 65536);
	xw_u32(x, count);
	xw_u32(x, 2);
	xw_u64(x, 0x5eed5eed5eed5eedull);     /* writeverf3 */
}

void nfs3_symlink_call(struct xw *x, uint32_t xid, size_t target_len)
{
	char t[4096];
	size_t i;

	if (target_len > sizeof(t))
		target_len = sizeof(t);
	for (i = 0; i < target_len; i++)
		t[i] = (char)('a' + i % 26);
	for (i = 16; i < target_len; i += 17)
		t[i] = '/';
	rpc_call(x, xid, RPC_PROG_NFS, 3, NFS3_SYMLINK);
	nfs3_fh(x);
	xw_opaque(x, "long-link", 9);
	for (i = 0; i < 6; i++)               /* sattr3: change nothing */
		xw_u32(x, 0);
	xw_opaque(x, t, target_len);
}

void nfs3_symlink_reply(struct xw *x, uint32_t xid)
{
	rpc_reply(x, xid);
	xw_u32(x, 0);
	xw_u32(x, 1);
	nfs3_fh(x);
	xw_u32(x, 0);                         /* no attributes */
	xw_u32(x, 0);                         /* wcc: nothing */
	xw_u32(x, 0);
}

void nfs3_readdir_call(struct xw *x, uint32_t xid)
{
	rpc_call(x, xid, RPC_PROG_NFS, 3, NFS3_READDIR);
	nfs3_fh(x);
	xw_u64(x, 0);
	xw_u64(x, 0);
	xw_u32(x, 8192);
}

void nfs3_readdir_reply(struct xw *x, uint32_t xid, unsigned n)
{
	char name[32];

	rpc_reply(x, xid);
	xw_u32(x, 0);
	xw_u32(x, 0);                         /* no dir attributes */
	xw_u64(x, 0x0123456789abcdefull);     /* cookieverf */
	for (unsigned i = 0; i < n; i++) {
		int l = snprintf(name, sizeof(name), "file-%04u.dat", i);

		xw_u32(x, 1);
		xw_u64(x, 0x2000 + i);
		xw_opaque(x, name, (size_t)l);
		xw_u64(x, i + 1);
	}
	xw_u32(x, 0);
	xw_u32(x, 1);                         /* eof */
}

static const uint8_t fh4[24] = {
	0x01, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x9a, 0x2b, 0x3c, 0x4d,
	0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02,
};
static const uint8_t sessionid[16] = {
	0x5f, 0x00, 0xc0, 0xde, 0x00, 0x00, 0x00, 0x01,
	0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00,
};

void nfs4_compound_call(struct xw *x, uint32_t xid, uint32_t minor,
			uint32_t seqid)
{
	rpc_call(x, xid, RPC_PROG_NFS, 4, 1);
	xw_u32(x, 0);                         /* tag */
	xw_u32(x, minor);
	xw_u32(x, minor ? 3 : 2);
	if (minor) {
		xw_u32(x, 53);                /* SEQUENCE */
		xw_fixed(x, sessionid, 16);
		xw_u32(x, seqid);
		xw_u32(x, 0);                 /* slot */
		xw_u32(x, 0);                 /* highest slot */
		xw_u32(x, 0);                 /* cachethis */
	}
	xw_u32(x, 24);                        /* PUTROOTFH */
	xw_u32(x, 10);                        /* GETFH */
}

void nfs4_compound_reply(struct xw *x, uint32_t xid, uint32_t minor,
			 uint32_t seqid)
{
	rpc_reply(x, xid);
	xw_u32(x, 0);
	xw_u32(x, 0);                         /* tag */
	xw_u32(x, minor ? 3 : 2);
	if (minor) {
		xw_u32(x, 53);
		xw_u32(x, 0);
		xw_fixed(x, sessionid, 16);
		xw_u32(x, seqid);
		xw_u32(x, 0);
		xw_u32(x, 63);
		xw_u32(x, 63);
		xw_u32(x, 0);                 /* status flags */
	}
	xw_u32(x, 24);
	xw_u32(x, 0);
	xw_u32(x, 10);
	xw_u32(x, 0);
	xw_opaque(x, fh4, sizeof(fh4));
}

void cb_compound_call(struct xw *x, uint32_t xid, uint32_t seqid)
{
	rpc_call(x, xid, RPC_PROG_NFS_CB, 1, 1);
	xw_u32(x, 0);                         /* tag */
	xw_u32(x, 1);                         /* minorversion */
	xw_u32(x, 1);                         /* callback_ident */
	xw_u32(x, 1);
	xw_u32(x, 11);                        /* CB_SEQUENCE */
	xw_fixed(x, sessionid, 16);
	xw_u32(x, seqid);
	xw_u32(x, 0);
	xw_u32(x, 0);
	xw_u32(x, 0);                         /* cachethis */
	xw_u32(x, 0);                         /* referring call lists */
}

void cb_compound_reply(struct xw *x, uint32_t xid, uint32_t seqid)
{
	rpc_reply(x, xid);
	xw_u32(x, 0);
	xw_u32(x, 0);
	xw_u32(x, 1);
	xw_u32(x, 11);
	xw_u32(x, 0);
	xw_fixed(x, sessionid, 16);
	xw_u32(x, seqid);
	xw_u32(x, 0);
	xw_u32(x, 0);
	xw_u32(x, 0);
}

void fill_data(uint8_t *p, size_t n, uint32_t seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)((i * 31u + seed * 7u) ^ (i >> 8));
}
