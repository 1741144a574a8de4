/* reasm.h - pending-transfer bookkeeping shared by reasm.c, ib.c and iwarp.c. */
#ifndef RPCRDMA_REASM_H
#define RPCRDMA_REASM_H

#include <stdint.h>
#include <epan/address.h>

/* 64-bit map keys: a connection side (rpcrdma_side_id) and a 32-bit value
 * (a handle, PSN, MSN or STag).  Side ids start at 2, so 0 never names a
 * side (a packet whose connection is unknown). */
#define RPCRDMA_KEY(side_id, v) ((uint64_t)(side_id) << 32 | (uint32_t)(v))

/* Chunk bytes kept for the capture: malloc'd outside wmem, all freed when
 * the capture is closed (reasm.c) */
void *rpcrdma_big_alloc(size_t n, bool zero);
void rpcrdma_big_free(void *p, size_t n);   /* n: as allocated */

/* Transfers in progress, one map per kind so that sequence spaces never mix */
enum rpcrdma_pend {
	PEND_SEQ,      /* next PSN (IB) or MSN (iWARP) of a multi-packet
			* Write or Send, keyed by the sending side */
	PEND_READ,     /* an RDMA Read Request, keyed by the side that answers
			* and the request's PSN (IB) or sink STag (iWARP) */
	PEND_COUNT_
};
void rpcrdma_pending_put(enum rpcrdma_pend kind, uint64_t key, void *val);
void *rpcrdma_pending_take(enum rpcrdma_pend kind, uint64_t key);  /* removes */
void *rpcrdma_pending_peek(enum rpcrdma_pend kind, uint64_t key);

/* A multi-packet Send being put together (first pass only) */
struct rpcrdma_send_asm {
	uint8_t *buf;
	uint32_t len, cap;
	uint32_t done_frame;       /* frame holding the last part; 0: not yet */
};

/* p_add_proto_data keys (proto_rpcrdma, file scope).  One frame can carry
 * several Sends (iWARP FPDUs in one TCP segment): a key is made per Send
 * from its kind and where the Send's bytes start in the frame. */
enum { KEY_SEND = 1, KEY_FRAG = 2, KEY_CLAIM = 3, KEY_LATE = 4, KEY_DDP = 5,
       KEY_RETX = 6, KEY_BIDI = 7 };
static inline guint32 rpcrdma_key(int kind, tvbuff_t *tvb)
{
	return (guint32)kind << 24 | ((guint32)tvb_raw_offset(tvb) & 0xffffffu);
}
/* Append tvb's bytes; false when the message would grow too large. */
bool rpcrdma_send_append(struct rpcrdma_send_asm *s, tvbuff_t *tvb);
/* A complete multi-packet Send (first pass) or the one cached for this
 * frame (later passes) as a new tvb, or NULL. */
tvbuff_t *rpcrdma_send_done(tvbuff_t *parent, packet_info *pinfo,
			    struct rpcrdma_send_asm *s);

#endif
