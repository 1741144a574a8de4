/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * nfs4_ops.h - the operations of an NFSv4 COMPOUND or CB_COMPOUND call
 * (RFC 7530 §16, RFC 8881 §16 and §18-20, RFC 7862 §15, RFC 8276 §8), named
 * in order, as nfsstat and mountstats users read them (nfs4_ops.c).
 */
#ifndef RPCRDMA_NFS4_OPS_H
#define RPCRDMA_NFS4_OPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NFS4_OPS_MAX 16u             /* operations named per COMPOUND */

struct nfs4_ops {
	uint32_t minorversion;
	uint32_t n;                  /* operations named, in ops[] */
	uint32_t ops[NFS4_OPS_MAX];
	bool more;                   /* the COMPOUND holds more than ops[] names
				      * (beyond NFS4_OPS_MAX, or after an
				      * operation whose arguments do not decode) */
};

/* The operations of the COMPOUND (cb: CB_COMPOUND) whose arguments start
 * at `args` (the RPC call body, RFC 5531 §9).  False when not even the
 * header and the first operation decode. */
bool nfs4_compound_ops(const uint8_t *args, size_t len, bool cb,
		       struct nfs4_ops *out);

/* The same walk telling a visitor what each piece of the arguments is
 * (rpcrdma-decode --redact, tools/capture/cap_redact_rpc.c): `off` from
 * `args`, `len` the bytes (an opaque's without its padding; its length word
 * comes first as a 'w'), `kind` one of NFS_XDR_FORMS's letters:
 *   w uint32 (also bool, enums, counts, lengths, operation codes)
 *   u a uid or gid   h uint64 (also nfstime3, specdata)   v verifier (8)
 *   t nfstime4 (12)   s stateid4 (16)   S sessionid4 (16)   b bitmap words
 *   o opaque<>/string<> of other kinds   n a name (component4, filename3)
 *   F a file handle   M a machine name   f fattr4's attribute values
 * Item lists (nfs_xdr_items) also take L lock_owner4 (h + o), A sattr3. */
struct nfs_xdr_visit {
	void (*fn)(void *ctx, char kind, uint32_t op, size_t off, size_t len);
	void *ctx;
};
bool nfs4_compound_walk(const uint8_t *args, size_t len, bool cb,
			struct nfs4_ops *out, const struct nfs_xdr_visit *v);
/* Walk buf[*off..len) by `form`, moving *off past it; false when it does
 * not decode (the visitor saw what did) */
bool nfs_xdr_items(const uint8_t *buf, size_t len, size_t *off,
		   const char *form, const struct nfs_xdr_visit *v);

/* "READ", "CB_RECALL", NULL when unknown */
const char *nfs4_op_name(uint32_t op, bool cb);
/* an operation by name, any case (the --procedure names) */
bool nfs4_op_by_name(const char *name, bool cb, uint32_t *op);
/* The operation a COMPOUND is counted under in --stats, as the Linux client
 * names its procedures (SEQUENCE PUTFH READ is a READ): the first that is
 * not SEQUENCE, PUTFH, PUTROOTFH, PUTPUBFH, SAVEFH, RESTOREFH, GETATTR or
 * GETFH; else the first GETATTR or GETFH; else the first (CB_COMPOUND: the
 * first but CB_SEQUENCE); NFS4_OP_NONE when there is none. */
#define NFS4_OP_NONE UINT32_MAX
uint32_t nfs4_main_op(const struct nfs4_ops *o, bool cb);

#endif
