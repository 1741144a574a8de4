/* roce.h - the RoCEv2 frame writer shared by the plugin's test-capture generators (roce.c). */
#ifndef RPCRDMA_TEST_ROCE_H
#define RPCRDMA_TEST_ROCE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <rpcrdma/codec.h>
#include <rpcrdma/rpc.h>

/* IB BTH opcodes (RC) */
enum {
	SEND_FIRST = 0x00, SEND_LAST = 0x02, SEND_ONLY = 0x04,
	WRITE_FIRST = 0x06, WRITE_MIDDLE = 0x07, WRITE_LAST = 0x08,
	WRITE_ONLY = 0x0a, READ_REQUEST = 0x0c, READ_RESPONSE_ONLY = 0x10,
};

struct out {
	FILE *pcap, *expect;
	uint32_t frame;
	uint32_t psn[2][2];        /* per connection and direction (0: client->server) */
	uint32_t other_qp;         /* nonzero: send to this QP instead */
	unsigned conn;             /* 0 or 1: QPs 0x11/0x12 or 0x111/0x112 */
};

void put16(uint8_t *p, uint16_t v);
void put32(uint8_t *p, uint32_t v);
void put64(uint8_t *p, uint64_t v);
void le32(uint8_t *p, uint32_t v);
/* One RoCEv2 packet from the client (dir 0) or the server (dir 1) */
void packet(struct out *o, int dir, uint8_t opcode, const uint8_t *reth,
	    bool aeth, const uint8_t *pl, size_t n);
void reth_of(uint8_t *r, uint32_t handle, uint64_t va, uint32_t len);
/* The codec's decode of a Send, as one line of the expect file */
void expect(struct out *o, const uint8_t *b, size_t n);
/* A whole message in one SEND ONLY, and its expect line */
void send_msg(struct out *o, int dir, const uint8_t *b, size_t n);
/* Header + RPC payload into buf */
size_t build(uint8_t *buf, size_t cap, const struct rpcrdma_hdr *h,
	     const uint8_t *rpc, size_t rpc_len);
/* An NFSv3 call (file handle, then `extra` bytes in all) / accepted reply
 * (`extra` zero bytes) */
size_t nfs_call(uint8_t *b, uint32_t xid, uint32_t proc, size_t extra);
size_t nfs_reply(uint8_t *b, uint32_t xid, size_t extra);

/* mkpcap_ddp.c: replies with Write chunk data, two colliding connections */
void ddp_scenarios(struct out *o);

#endif
