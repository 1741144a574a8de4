/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * nfs3_serve.h - the NFSv3 (read-only but for /sink) and MOUNT v3 responder of
 * rpcrdma-conform --requester over the tree of nfs3_tree.h: one RPC call
 * in, the whole RPC reply out.  Pure: no I/O, no allocation, no global
 * state; the transport (RPC-over-RDMA for NFS, TCP record marking for
 * MOUNT) is the caller's.
 *
 * NFS (100003) version 3: NULL, GETATTR, LOOKUP, ACCESS, READ, READDIR,
 * READDIRPLUS, FSSTAT, FSINFO, PATHCONF; WRITE and COMMIT of /sink
 * (acknowledged FILE_SYNC, the data dropped: a client's WRITE can be
 * watched); the other procedures that change anything answer NFS3ERR_ROFS, the rest PROC_UNAVAIL.  MOUNT (100005)
 * version 3: NULL, MNT (export "/" only), UMNT, UMNTALL; the rest
 * PROC_UNAVAIL.  Other programs PROG_UNAVAIL, other versions PROG_MISMATCH
 * (3 to 3); arguments that do not decode GARBAGE_ARGS.
 */
#ifndef RPCRDMA_NFS3_SERVE_H
#define RPCRDMA_NFS3_SERVE_H

#include <stddef.h>
#include <stdint.h>

/* what the server tells FSINFO: the largest READ and READDIR it answers */
#define NFS3_SERVE_RTMAX (256u * 1024u)
#define NFS3_SERVE_DTMAX (64u * 1024u)
/* the largest reply: a READ of RTMAX with its header and attributes */
#define NFS3_SERVE_REPLY_MAX (NFS3_SERVE_RTMAX + 512u)

struct nfs3_served {
	uint32_t xid, prog, vers, proc;
	uint32_t accept_stat;           /* RPC accept_stat of the reply */
	uint32_t status;                /* nfsstat3 / mountstat3 when accepted
					 * and the procedure has one */
	size_t ddp_off, ddp_len;        /* READ: the data's bytes in the reply
					 * (after the opaque's length word); 0/0
					 * for every other reply */
};

/* Answers the call msg[len] into out[cap]: the reply's length, or 0 when
 * msg is no RPC call (nothing to answer: the caller drops it) or the reply
 * does not fit cap. */
size_t nfs3_serve(const uint8_t *msg, size_t len, uint8_t *out, size_t cap,
		  struct nfs3_served *s);
/* the name of an NFSv3 procedure ("READDIRPLUS"), of a MOUNT one with
 * mount set; "?" when unknown */
const char *nfs3_proc_name(uint32_t proc, int mount);

#endif
