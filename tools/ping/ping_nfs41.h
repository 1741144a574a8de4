/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ping_nfs41.h - the NFSv4.1 operations of the back-channel probe (RFC
 * 8881): COMPOUND arguments after the RPC header, and the result fields
 * the probe reads.
 */
#ifndef RPCRDMA_PING_NFS41_H
#define RPCRDMA_PING_NFS41_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NFS4_PROC_COMPOUND 1u
#define NFS4_OK 0u
#define NFS4_OP_EXCHANGE_ID 42u
#define NFS4_OP_CREATE_SESSION 43u
#define NFS4_OP_DESTROY_SESSION 44u
#define NFS4_OP_DESTROY_CLIENTID 57u
#define NFS41_SESSION_CONN_BACK_CHAN 0x2u  /* CREATE_SESSION4_FLAG_CONN_BACK_CHAN */
#define NFS41_SESSIONID_SIZE 16u

/* Each returns the argument bytes written, 0 when cap is too small */
size_t nfs41_exchange_id_args(uint8_t *buf, size_t cap, const char *owner,
			      uint64_t verifier);
size_t nfs41_create_session_args(uint8_t *buf, size_t cap, uint64_t clientid,
				 uint32_t sequence, uint32_t cb_prog);
size_t nfs41_destroy_session_args(uint8_t *buf, size_t cap,
				  const uint8_t sessionid[NFS41_SESSIONID_SIZE]);
size_t nfs41_destroy_clientid_args(uint8_t *buf, size_t cap, uint64_t clientid);

struct nfs41_exchange_id_res {
	uint32_t status;               /* the operation's nfsstat4 */
	uint64_t clientid;
	uint32_t sequence, flags;
};
struct nfs41_create_session_res {
	uint32_t status;
	uint8_t sessionid[NFS41_SESSIONID_SIZE];
	uint32_t sequence, flags;      /* csr_flags: CONN_BACK_CHAN granted? */
};
/* Decode the COMPOUND results (after the RPC reply header); false when
 * they do not decode (status is then meaningless). */
bool nfs41_exchange_id_res(const uint8_t *res, size_t len,
			   struct nfs41_exchange_id_res *out);
bool nfs41_create_session_res(const uint8_t *res, size_t len,
			      struct nfs41_create_session_res *out);
bool nfs41_status_res(const uint8_t *res, size_t len, uint32_t op,
		      uint32_t *status);

#endif
