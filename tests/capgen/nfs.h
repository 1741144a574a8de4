/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * nfs.h - RPC and NFS message bodies for the captures (nfs.c), and the
 * RPC-over-RDMA sessions that carry them (session.c; V1 §4-5, V2 §4,
 * BIDI §4).
 */
#ifndef CAPGEN_NFS_H
#define CAPGEN_NFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "rpcrdma/codec.h"
#include "capgen.h"

struct xw {
	uint8_t b[16384];
	size_t len;
};

enum { NFS3_GETATTR = 1, NFS3_READ = 6, NFS3_WRITE = 7, NFS3_SYMLINK = 10,
       NFS3_READDIR = 16 };

void xw_u32(struct xw *x, uint32_t v);
void xw_u64(struct xw *x, uint64_t v);
void xw_fixed(struct xw *x, const void *p, size_t n);
void xw_opaque(struct xw *x, const void *p, size_t n);
void rpc_call(struct xw *x, uint32_t xid, uint32_t prog, uint32_t vers,
	      uint32_t proc);
void rpc_reply(struct xw *x, uint32_t xid);
void nfs3_fh(struct xw *x);
void nfs3_getattr_call(struct xw *x, uint32_t xid);
void nfs3_getattr_reply(struct xw *x, uint32_t xid);
void nfs3_read_call(struct xw *x, uint32_t xid, uint64_t off, uint32_t count);
void nfs3_read_reply_head(struct xw *x, uint32_t xid, uint32_t count,
			  bool eof);
void nfs3_read_reply_err(struct xw *x, uint32_t xid);
void nfs3_write_call_head(struct xw *x, uint32_t xid, uint64_t off,
			  uint32_t count);
void nfs3_write_reply(struct xw *x, uint32_t xid, uint32_t count);
void nfs3_symlink_call(struct xw *x, uint32_t xid, size_t target_len);
void nfs3_symlink_reply(struct xw *x, uint32_t xid);
void nfs3_readdir_call(struct xw *x, uint32_t xid);
void nfs3_readdir_reply(struct xw *x, uint32_t xid, unsigned n);
void nfs4_compound_call(struct xw *x, uint32_t xid, uint32_t minor,
			uint32_t seqid);
void nfs4_compound_reply(struct xw *x, uint32_t xid, uint32_t minor,
			 uint32_t seqid);
void cb_compound_call(struct xw *x, uint32_t xid, uint32_t seqid);
void cb_compound_reply(struct xw *x, uint32_t xid, uint32_t seqid);
void fill_data(uint8_t *p, size_t n, uint32_t seed);

/* ---- session.c ---- */
struct sess {
	struct conn *c;
	uint32_t vers;             /* 1 or 2 */
	uint32_t credits;          /* requested in calls, granted in replies */
	uint32_t xid;              /* next XID */
	uint32_t handle;           /* next memory handle to advertise */
	uint64_t va;               /* next virtual address to advertise */
};

void sess_init(struct sess *s, struct conn *c, uint32_t vers, uint32_t xid);
/* A header with the prefix filled (credits from the session), direction
 * for V2 MSG/NOMSG. */
void sess_hdr(const struct sess *s, struct rpcrdma_hdr *h, uint32_t xid,
	      uint32_t proc, int direction);
/* Encode h, append rpc[rpclen], send from dir.  Returns the frame that
 * completes the Send. */
uint64_t sess_send(struct sess *s, int dir, const struct rpcrdma_hdr *h,
		   const uint8_t *rpc, size_t rpclen, uint32_t inv);
size_t sess_build(const struct rpcrdma_hdr *h, const uint8_t *rpc,
		  size_t rpclen, uint8_t *out, size_t cap);
uint64_t sess_xmit(struct sess *s, int dir, const uint8_t *msg, size_t len,
		   uint32_t inv);
/* The error reply libcodec's verdict on msg calls for, sent from dir. */
uint64_t sess_answer_error(struct sess *s, int dir, const uint8_t *msg,
			   size_t len);
/* RDMA Write of data into segment g (its handle and offset) from dir. */
uint64_t sess_rdma_write(struct sess *s, int dir,
			 const struct rpcrdma_segment *g,
			 const uint8_t *data, size_t len);
/* RDMA Read by dir of len bytes of segment g (data: what the peer holds). */
uint64_t sess_rdma_read(struct sess *s, int dir,
			const struct rpcrdma_segment *g,
			const uint8_t *data, size_t len);
/* A fresh segment of len bytes (handle, offset advance). */
struct rpcrdma_segment sess_seg(struct sess *s, uint32_t len);

/* Whole exchanges; each returns the frame of the reply's last packet.
 * `dir` is the requester's side (0 forward, 1 backward). */
uint64_t ex_getattr3(struct sess *s);
uint64_t ex_compound4(struct sess *s, int dir, uint32_t minor, uint32_t xid);
uint64_t ex_read3_chunk(struct sess *s, uint32_t len);
uint64_t ex_write3_chunk(struct sess *s, uint32_t len);
uint64_t ex_long_call(struct sess *s);
uint64_t ex_long_reply(struct sess *s);

#endif
