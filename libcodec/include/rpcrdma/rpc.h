/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * rpcrdma/rpc.h - minimal ONC RPC (RFC 5531 §9) call and reply headers:
 * enough to read xid, msg_type, program, version, procedure, auth flavours
 * and accept/reject status, and to write a call or an accepted reply.
 */
#ifndef RPCRDMA_RPC_H
#define RPCRDMA_RPC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define RPC_VERSION 2u
#define RPC_MAX_AUTH_BYTES 400u        /* RFC 5531 opaque_auth body<400> */

/* Well-known programs */
#define RPC_PROG_PORTMAP 100000u
#define RPC_PROG_NFS 100003u
#define RPC_PROG_MOUNT 100005u
#define RPC_PROG_NLM 100021u
#define RPC_PROG_NFS_ACL 100227u
#define RPC_PROG_NFS_CB 0x40000000u    /* NFSv4 callback (RFC 8881 §18.36) */
#define RPC_PROG_RPCRDMA_ECHO 0x20524d41u /* ours, user-defined range */

enum rpc_msg_type { RPC_CALL = 0, RPC_REPLY = 1 };
enum rpc_reply_stat { RPC_MSG_ACCEPTED = 0, RPC_MSG_DENIED = 1 };
enum rpc_accept_stat {
	RPC_SUCCESS = 0, RPC_PROG_UNAVAIL = 1, RPC_PROG_MISMATCH = 2,
	RPC_PROC_UNAVAIL = 3, RPC_GARBAGE_ARGS = 4, RPC_SYSTEM_ERR = 5,
};
enum rpc_reject_stat { RPC_MISMATCH = 0, RPC_AUTH_ERROR = 1 };
enum rpc_auth_flavor {
	RPC_AUTH_NONE = 0, RPC_AUTH_SYS = 1, RPC_AUTH_SHORT = 2,
	RPC_AUTH_DH = 3, RPC_AUTH_KERB4 = 4, RPC_AUTH_RSA = 5,
	RPC_RPCSEC_GSS = 6, RPC_AUTH_TLS = 7,
};

enum rpc_result { RPC_OK = 0, RPC_TRUNCATED, RPC_MALFORMED };

struct rpc_msg_hdr {
	uint32_t xid;
	uint32_t msg_type;
	/* CALL */
	uint32_t rpcvers, prog, vers, proc;
	uint32_t cred_flavor, cred_len, verf_flavor, verf_len;
	/* REPLY */
	uint32_t reply_stat;
	uint32_t accept_stat;          /* MSG_ACCEPTED */
	uint32_t reject_stat;          /* MSG_DENIED */
	uint32_t auth_stat;            /* MSG_DENIED / AUTH_ERROR */
	uint32_t mismatch_low, mismatch_high; /* PROG_MISMATCH, RPC_MISMATCH */
	uint32_t body_off;             /* first byte of args / results */
	uint32_t fault_off;            /* where decoding stopped, on error */
};

/* Decode an RPC call or reply header from buf[len].  A call whose rpcvers
 * is not 2 is RPC_MALFORMED with xid, msg_type and rpcvers set (fault_off
 * 8): a server answers it MSG_DENIED, RPC_MISMATCH 2..2 (RFC 5531 §9,
 * "rpcvers ... must be equal to 2"); no other failure leaves rpcvers
 * other than 2 in a CALL's header. */
enum rpc_result rpc_decode_header(const uint8_t *buf, size_t len,
				  struct rpc_msg_hdr *h);
/* Whether rpc_decode_header() said r of a call of another RPC version
 * (one to answer RPC_MISMATCH) */
bool rpc_call_other_version(enum rpc_result r, const struct rpc_msg_hdr *h);

/* Write a call header with AUTH_NONE credential and verifier (40 bytes). */
size_t rpc_encode_call(uint8_t *buf, size_t cap, uint32_t xid, uint32_t prog,
		       uint32_t vers, uint32_t proc);
/* Write an accepted reply header, AUTH_NONE verifier (24 bytes). */
size_t rpc_encode_accepted_reply(uint8_t *buf, size_t cap, uint32_t xid,
				 uint32_t accept_stat);

const char *rpc_program_name(uint32_t prog);      /* "NFS" or NULL */
const char *rpc_auth_flavor_name(uint32_t flavor);
const char *rpc_accept_stat_name(uint32_t stat);
const char *rpc_reject_stat_name(uint32_t stat);

#ifdef __cplusplus
}
#endif
#endif /* RPCRDMA_RPC_H */
