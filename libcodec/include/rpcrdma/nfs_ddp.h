/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * rpcrdma/nfs_ddp.h - the NFS Upper-Layer Binding (RFC 8267) for replies:
 * where the DDP-eligible results (READ data, READLINK path) sit in a reply
 * Payload stream that the responder reduced into Write chunks (V1 §4.4.1,
 * §4.4.6; Version Two moves them the same way).
 *
 * A reduced item keeps its length word in the Payload stream; its bytes and
 * XDR padding are removed (V1 §4.4.6.1).  The k-th Write chunk the responder
 * used holds the k-th DDP-eligible item of the reply (V1 §5.3.2); an unused
 * chunk (all segment lengths zero, V1 §4.4.6.2) leaves its item inline.
 * A reply does not say which procedure it answers: the caller passes the
 * program, version and procedure of the call.
 */
#ifndef RPCRDMA_NFS_DDP_H
#define RPCRDMA_NFS_DDP_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define RPCRDMA_DDP_MAX_ITEMS 16u

struct rpcrdma_ddp_item {
	uint32_t off;      /* where the bytes go back: right after the length
			    * word, as an offset into the reduced stream */
	uint32_t len;      /* the length word: the item's size in bytes */
	uint32_t chunk;    /* index of the Write chunk that holds them */
};

struct rpcrdma_ddp_reply {
	/* in: the call this reply answers, and what each Write chunk of the
	 * reply's Write list holds (the sum of its returned segment lengths) */
	uint32_t prog, vers, proc;
	const uint32_t *written;
	uint32_t nchunks;
	/* out */
	uint32_t nitems;   /* one per used Write chunk, in chunk order */
	struct rpcrdma_ddp_item items[RPCRDMA_DDP_MAX_ITEMS];
	uint32_t fault_off; /* where the walk stopped, on any result but OK */
};

enum rpcrdma_ddp_result {
	RPCRDMA_DDP_OK = 0,       /* every used Write chunk has its item */
	RPCRDMA_DDP_NO_ITEM,      /* a Write chunk holds data, but the reply
				   * has no DDP-eligible item left for it */
	RPCRDMA_DDP_UNKNOWN,      /* cannot tell: a program, procedure or
				   * NFSv4 operation whose layout is not known
				   * here precedes the item, or too many items */
	RPCRDMA_DDP_MISMATCH,     /* the length word disagrees with what its
				   * Write chunk holds, or bytes follow a
				   * reduced item that must end the reply */
	RPCRDMA_DDP_TRUNCATED,    /* the stream ends before the item */
	RPCRDMA_DDP_NOT_REPLY,    /* not an ONC RPC reply (RFC 5531 §9) */
};

/* Locate the reduced items of the RPC reply buf[len] (starting at its XID).
 * Reads only buf[0..len); never allocates. */
enum rpcrdma_ddp_result rpcrdma_ddp_locate_reply(const uint8_t *buf, size_t len,
						 struct rpcrdma_ddp_reply *r);

/* One line of explanation, e.g. "the length word differs from ..." */
const char *rpcrdma_ddp_result_text(enum rpcrdma_ddp_result res);

#ifdef __cplusplus
}
#endif
#endif /* RPCRDMA_NFS_DDP_H */
