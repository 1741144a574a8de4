/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cm_private.c - RPC-over-RDMA connection private data (RFC 8797) and
 * the inline thresholds a connection uses because of it.
 *
 * Wire form (8 bytes, big-endian), as RFC 8797 draws it and Linux sends it:
 *   0..3  Format Identifier  0xf6ab0e18
 *   4     Version            1
 *   5     Flags              bit 0 (0x01): the sender accepts Send With
 *                            Invalidate; the other bits are reserved (sent
 *                            as zero, ignored on receipt)
 *   6     Send Size          (size / 1024) - 1: largest Send the sender
 *                            will post
 *   7     Receive Size       (size / 1024) - 1: its Receive buffers
 */
#include "internal.h"

#define CM_SIZE_UNIT 1024u
#define CM_SIZE_MAX (256u * CM_SIZE_UNIT)

static uint8_t cm_size_encode(uint32_t size)
{
	if (size < CM_SIZE_UNIT)
		size = CM_SIZE_UNIT;
	if (size > CM_SIZE_MAX)
		size = CM_SIZE_MAX;
	return (uint8_t)(size / CM_SIZE_UNIT - 1);
}

static uint32_t cm_size_decode(uint8_t v)
{
	return ((uint32_t)v + 1) * CM_SIZE_UNIT;
}

enum rpcrdma_cm_result rpcrdma_cm_private_decode(const uint8_t *buf,
						 size_t len,
						 struct rpcrdma_cm_private *out)
{
	if (!buf || len < RPCRDMA_CM_PRIVATE_SIZE ||
	    xdrc_be32(buf) != RPCRDMA_CM_PRIVATE_MAGIC)
		return RPCRDMA_CM_ABSENT;
	/* a format version the receiver does not know is ignored (RFC 8797:
	 * the data is an optional extension; without it, the defaults) */
	if (buf[4] != RPCRDMA_CM_PRIVATE_VERSION)
		return RPCRDMA_CM_BAD_VERSION;
	out->pd_magic = RPCRDMA_CM_PRIVATE_MAGIC;
	out->pd_version = buf[4];
	out->pd_flags = buf[5];
	out->max_send_size = cm_size_decode(buf[6]);
	out->max_recv_size = cm_size_decode(buf[7]);
	return RPCRDMA_CM_OK;
}

size_t rpcrdma_cm_private_encode(const struct rpcrdma_cm_private *in,
				 uint8_t *buf, size_t cap)
{
	if (cap < RPCRDMA_CM_PRIVATE_SIZE)
		return 0;
	xdrc_put32(buf, in->pd_magic ? in->pd_magic : RPCRDMA_CM_PRIVATE_MAGIC);
	buf[4] = in->pd_version ? in->pd_version : RPCRDMA_CM_PRIVATE_VERSION;
	buf[5] = in->pd_flags;
	buf[6] = cm_size_encode(in->max_send_size);
	buf[7] = cm_size_encode(in->max_recv_size);
	return RPCRDMA_CM_PRIVATE_SIZE;
}

static uint32_t min32(uint32_t a, uint32_t b)
{
	return a < b ? a : b;
}

void rpcrdma_cm_thresholds(const struct rpcrdma_cm_private *peer,
			   uint32_t our_send, uint32_t our_recv,
			   uint32_t vers, bool peer_speaks_v2,
			   uint32_t *send, uint32_t *recv)
{
	uint32_t dflt = rpcrdma_inline_threshold(vers, peer_speaks_v2);

	if (!our_send)
		our_send = dflt;
	if (!our_recv)
		our_recv = dflt;
	if (peer) {
		/* never Send more than the peer's Receive Size; expect
		 * no more than its Send Size (RFC 8797) */
		*send = min32(our_send, peer->max_recv_size);
		*recv = min32(our_recv, peer->max_send_size);
	} else {
		/* the version's default: what each side must assume */
		*send = min32(our_send, dflt);
		*recv = min32(our_recv, dflt);
	}
}
