/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * target.h - the Upper Layer rpcrdma-conform's own calls speak (target.c):
 * ECHO (docs/echo-ulb.md) or NFSv3 (WRITE with a file handle that names
 * nothing, for the DDP-eligible argument).
 */
#ifndef RPCRDMA_CONFORM_TARGET_H
#define RPCRDMA_CONFORM_TARGET_H

#include <stddef.h>
#include <stdint.h>

enum cf_profile { CF_PROF_AUTO = 0, CF_PROF_ECHO, CF_PROF_NFS3 };

struct cf_target {
	enum cf_profile prof;
	uint32_t prog, vers;       /* of the probes (NULL calls) */
};

const char *cf_profile_name(enum cf_profile p);   /* "echo" "nfs" "auto" */
void cf_target_init(struct cf_target *t, enum cf_profile p);
/* A NULL call of the target's program (40 bytes); 0 when cap is short. */
size_t cf_target_null(const struct cf_target *t, uint32_t xid, uint8_t *buf, size_t cap);
/* A call whose last argument is `len` bytes of DDP-eligible data, written
 * inline (pattern cf_pattern(xid)); *data_off: where the data starts (after
 * its length word).  0 when cap is short or the target has no such call. */
size_t cf_target_data_call(const struct cf_target *t, uint32_t xid, uint32_t len,
			   uint8_t *buf, size_t cap, size_t *data_off);
/* RPC bytes of that call besides the data and its pad */
size_t cf_target_data_overhead(const struct cf_target *t);
/* ECHO CALLBACK {count, data}; 0 unless the target is ECHO */
size_t cf_target_callback(const struct cf_target *t, uint32_t xid, uint32_t count,
			  const uint8_t *data, uint32_t len, uint8_t *buf, size_t cap);
/* The data pattern of the calls above */
void cf_pattern(uint8_t *p, size_t len, uint32_t seed);

/* -------- target_nfs.c: NFS calls that drive a real NFS server's write
 * chunks, reply chunks and back channel (RFC 1813, RFC 7530, RFC 8881) -------- */
#include <stdbool.h>
#define CF_NFS_FHMAX 128u              /* NFSv4 nfs_fh4 */
#define CF_NFS41_CONN_BACK_CHAN 0x2u   /* CREATE_SESSION4_FLAG_CONN_BACK_CHAN */
#define CF_NFS41_CB_PROG 0x40000000u   /* our csa_cb_program */
/* an RPC call header with AUTH_SYS (root) credentials; 0 when cap is short */
size_t cf_nfs_call_hdr(uint8_t *buf, size_t cap, uint32_t xid, uint32_t prog, uint32_t vers,
		       uint32_t proc);
/* NFSv4.0 COMPOUND { PUTROOTFH, LOOKUP each component of path, GETFH } */
size_t cf_nfs4_lookup_call(uint8_t *buf, size_t cap, uint32_t xid, const char *path);
/* its reply (the RPC message): the file handle (at most 64 bytes, NFSv3's
 * limit), or -1 and why */
int cf_nfs4_lookup_reply(const uint8_t *p, size_t len, uint8_t *fh, size_t *fhlen,
			 char *why, size_t cap);
/* NFSv3 READ3args */
size_t cf_nfs3_read_call(uint8_t *buf, size_t cap, uint32_t xid, const uint8_t *fh,
			 size_t fhlen, uint64_t offset, uint32_t count);
struct cf_read3 {
	uint32_t status, count, data_len;
	bool eof, have_size;
	uint64_t size;                 /* the file's, from post_op_attr */
	size_t data_off;               /* where the data (after its length word) starts */
	size_t rest;                   /* bytes of the message from data_off on */
};
/* an NFSv3 READ reply (the RPC message) up to its data; -1 and why unless
 * accepted, NFS3_OK and whole up to the data's length word */
int cf_nfs3_read_reply(const uint8_t *p, size_t len, struct cf_read3 *res, char *why,
		       size_t cap);
/* NFSv4.1 COMPOUND { EXCHANGE_ID } (SP4_NONE, the owner from seed) */
size_t cf_nfs41_exchange_id(uint8_t *buf, size_t cap, uint32_t xid, uint32_t seed);
int cf_nfs41_exchange_id_reply(const uint8_t *p, size_t len, uint64_t *clientid,
			       uint32_t *seq, char *why, size_t cap);
/* NFSv4.1 COMPOUND { CREATE_SESSION } with CONN_BACK_CHAN, cb_program
 * CF_NFS41_CB_PROG, AUTH_NONE on the back channel */
size_t cf_nfs41_create_session(uint8_t *buf, size_t cap, uint32_t xid, uint64_t clientid,
			       uint32_t seq);
/* its sessionid and csr_flags */
int cf_nfs41_create_session_reply(const uint8_t *p, size_t len, uint8_t sessionid[16],
				  uint32_t *flags, char *why, size_t cap);
/* COMPOUND { SEQUENCE (slot 0, seq), RECLAIM_COMPLETE }: a new client
 * has nothing to reclaim; until it says so, knfsd answers its OPENs
 * NFS4ERR_GRACE (RFC 8881 §18.51.3) */
size_t cf_nfs41_reclaim_complete(uint8_t *buf, size_t cap, uint32_t xid,
				 const uint8_t sessionid[16], uint32_t seq);
int cf_nfs41_reclaim_complete_reply(const uint8_t *p, size_t len, char *why, size_t cap);
/* COMPOUND { SEQUENCE (slot 0, seq), PUTFH fh, OPEN (CLAIM_FH, NOCREATE) }:
 * READ asking for a read delegation, or WRITE (which recalls it) */
size_t cf_nfs41_open(uint8_t *buf, size_t cap, uint32_t xid, const uint8_t sessionid[16],
		     uint32_t seq, const uint8_t *fh, size_t fhlen, uint64_t clientid, bool write);
/* its open stateid, the delegation type (0 none, 1 read, 2 write) and stateid */
int cf_nfs41_open_reply(const uint8_t *p, size_t len, uint8_t open_sid[16], uint32_t *deleg,
			uint8_t deleg_sid[16], char *why, size_t cap);
/* COMPOUND { SEQUENCE, PUTFH, DELEGRETURN (unless deleg_sid is NULL), CLOSE } */
size_t cf_nfs41_return(uint8_t *buf, size_t cap, uint32_t xid, const uint8_t sessionid[16],
		       uint32_t seq, const uint8_t *fh, size_t fhlen, const uint8_t open_sid[16],
		       const uint8_t deleg_sid[16]);
/* COMPOUND { DESTROY_SESSION sessionid } or, sessionid NULL,
 * { DESTROY_CLIENTID clientid }: a client's state gone at once */
size_t cf_nfs41_destroy(uint8_t *buf, size_t cap, uint32_t xid, const uint8_t sessionid[16],
			uint64_t clientid);
/* the reply to a backward call (the RPC message): CB_NULL SUCCESS; a
 * CB_COMPOUND whose first op is CB_SEQUENCE: that slot, then each op in
 * order until one fails (CB_RECALL NFS4_OK, another callback op
 * NFS4ERR_NOTSUPP, an unknown one CB_ILLEGAL); arguments cut short
 * GARBAGE_ARGS; other procedures PROC_UNAVAIL.  0: not a call we can
 * answer */
size_t cf_nfs41_cb_reply(const uint8_t *call, size_t len, uint8_t *buf, size_t cap);

#endif
