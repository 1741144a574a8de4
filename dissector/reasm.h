/* reasm.h - pending-transfer bookkeeping shared by reasm.c, ib.c and iwarp.c. */
#ifndef RPCRDMA_REASM_H
#define RPCRDMA_REASM_H

#include <stdint.h>
#include <epan/address.h>

/* A key naming a sequence number (PSN, MSN) on the flow from or to `peer` */
uint64_t rpcrdma_flow_key(const address *peer, uint32_t seq);
void rpcrdma_pending_put(uint64_t key, void *val);   /* file-scope val */
void *rpcrdma_pending_take(uint64_t key);            /* removes */
void *rpcrdma_pending_peek(uint64_t key);

/* A multi-packet Send being put together (first pass only) */
struct rpcrdma_send_asm {
	uint8_t *buf;
	uint32_t len, cap;
	uint32_t done_frame;       /* frame holding the last part; 0: not yet */
};

/* p_add_proto_data keys (proto_rpcrdma, file scope).  One frame can carry
 * several Sends (iWARP FPDUs in one TCP segment): a key is made per Send
 * from its kind and where the Send's bytes start in the frame. */
enum { KEY_SEND = 1, KEY_FRAG = 2, KEY_CLAIM = 3, KEY_LATE = 4 };
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
