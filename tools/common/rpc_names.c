/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * rpc_names.c - procedure names of the RPC programs carried over RDMA:
 * NFSv3 (RFC 1813 §3), NFSv4 and its callback (RFC 7530 §16, RFC 8881
 * §16, §20), MOUNT v3 (RFC 1813 §5), NLM v4 (RFC 1813 §6 with X/Open NLM),
 * portmap v2 (RFC 1833 §3), NFS_ACL v3 (Linux/Solaris, no RFC) and our
 * echo program; the --program names.
 */
#include <string.h>
#include <strings.h>
#include "msgprint.h"
#include "rpc_names.h"
#include "rpcrdma/rpc.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static const char *const nfs3[] = {
	"NULL", "GETATTR", "SETATTR", "LOOKUP", "ACCESS", "READLINK", "READ",
	"WRITE", "CREATE", "MKDIR", "SYMLINK", "MKNOD", "REMOVE", "RMDIR",
	"RENAME", "LINK", "READDIR", "READDIRPLUS", "FSSTAT", "FSINFO",
	"PATHCONF", "COMMIT",
};
static const char *const nfs4[] = { "NULL", "COMPOUND" };
static const char *const nfs4_cb[] = { "CB_NULL", "CB_COMPOUND" };
static const char *const mount3[] = {
	"NULL", "MNT", "DUMP", "UMNT", "UMNTALL", "EXPORT",
};
static const char *const nlm4[] = {
	"NULL", "TEST", "LOCK", "CANCEL", "UNLOCK", "GRANTED", "TEST_MSG",
	"LOCK_MSG", "CANCEL_MSG", "UNLOCK_MSG", "GRANTED_MSG", "TEST_RES",
	"LOCK_RES", "CANCEL_RES", "UNLOCK_RES", "GRANTED_RES", NULL, NULL,
	NULL, NULL, "SHARE", "UNSHARE", "NM_LOCK", "FREE_ALL",
};
static const char *const pmap2[] = {
	"NULL", "SET", "UNSET", "GETPORT", "DUMP", "CALLIT",
};
static const char *const echo1[] = { "NULL", "ECHO", "CALLBACK" };   /* docs/echo-ulb.md */
static const char *const nfsacl3[] = { "NULL", "GETACL", "SETACL" };

static const char *pick(const char *const *t, size_t n, uint32_t proc)
{
	return proc < n ? t[proc] : NULL;
}

const char *rpc_proc_name(uint32_t prog, uint32_t vers, uint32_t proc)
{
	switch (prog) {
	case RPC_PROG_NFS:
		if (vers == 3)
			return pick(nfs3, N(nfs3), proc);
		if (vers == 4)
			return pick(nfs4, N(nfs4), proc);
		return NULL;
	case RPC_PROG_NFS_CB:
		return vers == 1 || vers == 4 ? pick(nfs4_cb, N(nfs4_cb), proc) : NULL;
	case RPC_PROG_MOUNT:
		return vers == 3 ? pick(mount3, N(mount3), proc) : NULL;
	case RPC_PROG_NLM:
		return vers == 4 ? pick(nlm4, N(nlm4), proc) : NULL;
	case RPC_PROG_PORTMAP:
		return vers == 2 ? pick(pmap2, N(pmap2), proc) : NULL;
	case RPC_PROG_RPCRDMA_ECHO:
		return vers == 1 ? pick(echo1, N(echo1), proc) : NULL;
	case RPC_PROG_NFS_ACL:
		return vers == 3 ? pick(nfsacl3, N(nfsacl3), proc) : NULL;
	default:
		return NULL;
	}
}

/* The short names first (rpc_prog_short_name(), --help, completion), then
 * what the output prints (rpc_program_name(), msgprint_program_name())
 * and other spellings users type */
static const struct {
	const char *name;
	uint32_t prog;
} prog_names[] = {
	{ "nfs", RPC_PROG_NFS },
	{ "nfs-cb", RPC_PROG_NFS_CB },
	{ "mount", RPC_PROG_MOUNT },
	{ "nlm", RPC_PROG_NLM },
	{ "portmap", RPC_PROG_PORTMAP },
	{ "echo", RPC_PROG_RPCRDMA_ECHO },
	{ "nfs_acl", RPC_PROG_NFS_ACL },
};
#define SHORT_NAMES 7u

static const struct {
	const char *name;
	uint32_t prog;
} prog_aliases[] = {
	{ "nfs_cb", RPC_PROG_NFS_CB }, { "nfs callback", RPC_PROG_NFS_CB },
	{ "callback", RPC_PROG_NFS_CB }, { "nfs-acl", RPC_PROG_NFS_ACL },
	{ "nfsacl", RPC_PROG_NFS_ACL }, { "rpcrdma-echo", RPC_PROG_RPCRDMA_ECHO },
	{ "rpcbind", RPC_PROG_PORTMAP }, { "nlockmgr", RPC_PROG_NLM },
	{ "mountd", RPC_PROG_MOUNT },
};

const char *msgprint_program_name(uint32_t prog)
{
	const char *name = rpc_program_name(prog);

	if (name)
		return name;
	return prog == RPC_PROG_NFS_ACL ? "NFS_ACL" : NULL;
}

bool rpc_prog_by_name(const char *name, uint32_t *prog)
{
	size_t i;

	for (i = 0; i < N(prog_names); i++) {
		const char *printed = msgprint_program_name(prog_names[i].prog);
		if (strcasecmp(name, prog_names[i].name) == 0 ||
		    (printed && strcasecmp(name, printed) == 0)) {
			*prog = prog_names[i].prog;
			return true;
		}
	}
	for (i = 0; i < N(prog_aliases); i++) {
		if (strcasecmp(name, prog_aliases[i].name) == 0) {
			*prog = prog_aliases[i].prog;
			return true;
		}
	}
	return false;
}

const char *rpc_prog_short_name(size_t i)
{
	return i < SHORT_NAMES ? prog_names[i].name : NULL;
}

bool rpc_proc_name_known(const char *name)
{
	static const struct { const char *const *t; size_t n; } tabs[] = {
		{ nfs3, N(nfs3) }, { nfs4, N(nfs4) }, { nfs4_cb, N(nfs4_cb) },
		{ mount3, N(mount3) }, { nlm4, N(nlm4) }, { pmap2, N(pmap2) },
		{ echo1, N(echo1) }, { nfsacl3, N(nfsacl3) },
	};

	for (size_t i = 0; i < N(tabs); i++)
		for (size_t k = 0; k < tabs[i].n; k++)
			if (tabs[i].t[k] && !strcasecmp(name, tabs[i].t[k]))
				return true;
	return false;
}
