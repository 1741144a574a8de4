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
