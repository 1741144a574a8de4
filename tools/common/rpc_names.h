/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * rpc_names.h - the program names --program accepts (rpc_proc_name() itself
 * is declared in msgprint.h), and program names beyond libcodec's.
 */
#ifndef RPCRDMA_RPC_NAMES_H
#define RPCRDMA_RPC_NAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RPC_PROG_NFS_ACL 100227u

/* rpc_program_name(), and the programs libcodec does not name (NFS_ACL) */
const char *msgprint_program_name(uint32_t prog);

/* "nfs", "nfs-cb", "mount", "nlm", "portmap", "echo", "nfs_acl", every
 * name the output prints ("NFS callback", "rpcrdma-echo", "NFS_ACL", ...)
 * and a few other spellings (nfs_cb, rpcbind, ...), in any case */
bool rpc_prog_by_name(const char *name, uint32_t *prog);
/* the i-th short name, NULL past the end */
const char *rpc_prog_short_name(size_t i);
/* a procedure name of any program we name ("READ", "MNT", "CB_COMPOUND") */
bool rpc_proc_name_known(const char *name);

#endif
