/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * decode.c - rpcrdma_decode(): the rpcrdma_prefix (V1 §5.1.2, §5.2), the
 * version and procedure dispatch, and the checks that need the whole header
 * (V1 §5.2.4, §5.5; V2 §4.2.1, §4.2.2).  The rules: docs/verdicts.md.
 */
#include "internal.h"

static enum rpcrdma_action judge(struct rpcrdma_msg *m, enum rpcrdma_action a,
				 enum rpcrdma_reason r, uint32_t off)
{
	codec_fault(m, r, off);
	m->action = a;
	return a;
}

/* The first words of an inline RPC message, for the XID and direction
 * checks; the full header is rpc_decode_header()'s business. */
static inline __attribute__((always_inline)) void peek_rpc(struct rpcrdma_msg *m)
{
	const uint8_t *p = m->buf + m->header_len;

	if (m->payload_len >= 4) {
		m->rpc_xid = xdrc_be32(p);
		m->has_rpc_xid = true;
	}
	if (m->payload_len >= 8) {
		m->rpc_msg_type = xdrc_be32(p + 4);
		m->has_rpc_msg_type = true;
	}
}

static void set_lengths(struct rpcrdma_msg *m, const struct xdrc *x)
{
	m->header_len = x->off;
	m->payload_len = x->len - x->off;
}

/* RDMA_MSG / RDMA_NOMSG of either version, once the lists are decoded */
static enum rpcrdma_action judge_chunked(struct rpcrdma_msg *m)
{
	bool v2 = m->rdma_vers == RPCRDMA_VERSION_TWO;

	if (m->rdma_proc == RDMA_NOMSG) {
		if (!v2) {          /* Long Call carries reads; Long Reply not */
			m->direction = m->nreads ? RPCRDMA_CALL : RPCRDMA_REPLY;
			m->direction_inferred = true;
		}
		if (m->payload_len)
			m->notes |= RPCRDMA_NOTE_TRAILING_BYTES;
		if (!m->nreads && !m->nwrites && !m->has_reply)
			return judge(m, RPCRDMA_REPLY_BAD_HEADER,
				     RPCRDMA_R_NOMSG_WITHOUT_CHUNKS, m->reads_off);
		return RPCRDMA_ACCEPT;
	}

	/* RDMA_MSG: an RPC Payload stream MUST follow */
	peek_rpc(m);
	if (!v2 && m->has_rpc_msg_type) {
		if (m->rpc_msg_type <= RPCRDMA_REPLY)
			m->direction = (int8_t)m->rpc_msg_type;
		else
			m->notes |= RPCRDMA_NOTE_V1_MSG_TYPE;
	}
	if (!m->has_rpc_msg_type)
		return judge(m, RPCRDMA_REPLY_BAD_HEADER,
			     RPCRDMA_R_MISSING_PAYLOAD, m->header_len);
	if (m->rpc_xid != m->rdma_xid)
		return judge(m, RPCRDMA_REPLY_BAD_HEADER,
			     RPCRDMA_R_XID_MISMATCH, m->header_len);
	if (v2 && m->rpc_msg_type != (uint32_t)m->direction)
		return judge(m, RPCRDMA_REPLY_BAD_HEADER,
			     RPCRDMA_R_DIRECTION_MISMATCH, m->header_len + 4);
	return RPCRDMA_ACCEPT;
}

static enum rpcrdma_action decode_body(struct xdrc *x, struct rpcrdma_msg *m)
{
	bool v2 = m->rdma_vers == RPCRDMA_VERSION_TWO;
	enum rpcrdma_reason r;

	switch (m->rdma_proc) {
	case RDMA_MSG:
	case RDMA_NOMSG:
		if (v2)
			r = rpcrdma2_decode_chunk_lists(x, m);
		else if (rpcrdma_decode_empty_lists(x, m))  /* inline: hot */
			r = RPCRDMA_R_OK;
		else
			r = rpcrdma1_decode_chunks(x, m);
		if (r)
			return judge(m, RPCRDMA_REPLY_BAD_HEADER, r, m->fault_off);
		set_lengths(m, x);
		return judge_chunked(m);
	case RDMA_ERROR:
		/* never answer an error with an error (V1 §5.5) */
		m->direction = RPCRDMA_REPLY;
		r = v2 ? rpcrdma2_decode_error(x, m) : rpcrdma1_decode_error(x, m);
		if (r)
			return judge(m, RPCRDMA_DISCARD, r, m->fault_off);
		set_lengths(m, x);
		if (m->payload_len)
			m->notes |= RPCRDMA_NOTE_TRAILING_BYTES;
		return RPCRDMA_ACCEPT;
	case RDMA2_OPTIONAL:
		if (!v2)
			break;
		r = rpcrdma2_decode_optional(x, m);
		if (r)
			return judge(m, RPCRDMA_REPLY_BAD_HEADER, r, m->fault_off);
		set_lengths(m, x);
		peek_rpc(m);
		/* the base protocol defines no option type (V2 §3.1) */
		return judge(m, RPCRDMA_REPLY_INVAL_OPTION,
			     RPCRDMA_R_UNKNOWN_OPTION, 20);
	case RDMA_MSGP:
		if (!v2)
			return judge(m, RPCRDMA_REPLY_BAD_HEADER, RPCRDMA_R_MSGP, 12);
		break;
	case RDMA_DONE:
		if (!v2)
			return judge(m, RPCRDMA_REPLY_BAD_HEADER, RPCRDMA_R_DONE, 12);
		break;
	}
	return judge(m, RPCRDMA_REPLY_BAD_HEADER, RPCRDMA_R_BAD_PROC, 12);
}

/* The whole result zeroed, padding and reserve included, as memset()
 * would: 16-byte stores (memset of a 200-byte struct became `rep stos`,
 * a third of the cost of a chunkless header) */
typedef unsigned char codec_v16 __attribute__((vector_size(16)));
#define ZERO16(p, off) \
	do { if ((off) + 16 <= sizeof(*(p))) \
		memcpy((unsigned char *)(p) + (off), &z, 16); } while (0)
static inline __attribute__((always_inline)) void zero_msg(struct rpcrdma_msg *m)
{
	const codec_v16 z = { 0 };

	_Static_assert(sizeof(*m) >= 16 && sizeof(*m) <= 256,
		       "zero_msg covers 16 to 256 bytes");
	ZERO16(m, 0);   ZERO16(m, 16);  ZERO16(m, 32);  ZERO16(m, 48);
	ZERO16(m, 64);  ZERO16(m, 80);  ZERO16(m, 96);  ZERO16(m, 112);
	ZERO16(m, 128); ZERO16(m, 144); ZERO16(m, 160); ZERO16(m, 176);
	ZERO16(m, 192); ZERO16(m, 208); ZERO16(m, 224); ZERO16(m, 240);
	if (sizeof(*m) % 16)    /* the tail, overlapping the last store */
		memcpy((unsigned char *)m + sizeof(*m) - 16, &z, 16);
}

/*
 * The commonest header of all: an RDMA_MSG (V1) or RDMA2_MSG (V2) with
 * three empty chunk lists and an inline RPC message whose XID matches,
 * taken in one straight pass.  Its checks are those of the general path
 * for this shape (the bytes present, the direction word, the empty lists,
 * the RPC XID and message type); anything else, including every header
 * this path would judge other than "accept", goes the general way, so the
 * result is the same field for field (tests/unit, tests/vectors).
 * Returns false, m untouched, when the header is not of this shape.
 */
static inline __attribute__((always_inline)) bool
decode_plain_msg(const uint8_t *buf, size_t len, struct rpcrdma_msg *m)
{
	uint32_t vers, hlen, w[3], xid, type, dir = 0;

	if (len < 36 || len > UINT32_MAX || xdrc_be32(buf + 12) != RDMA_MSG)
		return false;
	vers = xdrc_be32(buf + 4);
	if (vers == RPCRDMA_VERSION_ONE) {
		hlen = 28;
	} else if (vers == RPCRDMA_VERSION_TWO && len >= 40) {
		dir = xdrc_be32(buf + 16);
		if (dir > RPCRDMA_REPLY)
			return false;
		hlen = 32;
	} else {
		return false;
	}
	memcpy(w, buf + hlen - 12, sizeof(w));  /* zero in any byte order */
	if (w[0] | w[1] | w[2])
		return false;
	xid = xdrc_be32(buf);
	type = xdrc_be32(buf + hlen + 4);
	if (xdrc_be32(buf + hlen) != xid ||
	    (vers == RPCRDMA_VERSION_TWO && type != dir))
		return false;

	zero_msg(m);
	m->buf = buf;
	m->len = len;
	m->rdma_xid = xid;
	m->rdma_vers = vers;
	m->rdma_credit = xdrc_be32(buf + 8);
	m->rdma_proc = RDMA_MSG;
	m->nfixed = 4;
	m->direction = RPCRDMA_DIR_UNKNOWN;
	if (vers == RPCRDMA_VERSION_TWO) {
		m->direction = (int8_t)dir;
		m->has_direction_word = true;
	} else if (type <= RPCRDMA_REPLY) {
		m->direction = (int8_t)type;
	} else {
		m->notes = RPCRDMA_NOTE_V1_MSG_TYPE;
	}
	m->reads_off = hlen - 12;
	m->writes_off = hlen - 8;
	m->reply_off = hlen - 4;
	m->header_len = hlen;
	m->payload_len = (uint32_t)len - hlen;
	m->rpc_xid = xid;
	m->has_rpc_xid = true;
	m->rpc_msg_type = type;
	m->has_rpc_msg_type = true;
	if (m->direction == RPCRDMA_REPLY && m->rdma_credit == 0)
		m->notes |= RPCRDMA_NOTE_ZERO_CREDIT;
	return true;
}

/* rpcrdma_prefix: rdma_xid, rdma_vers, rdma_credit, rdma_proc; then the
 * body.  Every header but the plain one above. */
static __attribute__((noinline)) enum rpcrdma_action
decode_general(const uint8_t *buf, size_t len, struct rpcrdma_msg *m)
{
	enum rpcrdma_action a;
	uint32_t *fixed[4];
	struct xdrc x;
	bool vers_ok;

	zero_msg(m);
	m->buf = buf;
	m->len = len;
	m->direction = RPCRDMA_DIR_UNKNOWN;
	xdrc_init(&x, buf, len);

	if (len >= 16) {                      /* the common case: whole prefix */
		m->rdma_xid = xdrc_be32(buf);
		m->rdma_vers = xdrc_be32(buf + 4);
		m->rdma_credit = xdrc_be32(buf + 8);
		m->rdma_proc = xdrc_be32(buf + 12);
		m->nfixed = 4;
		x.off = 16;
	} else {
		fixed[0] = &m->rdma_xid;
		fixed[1] = &m->rdma_vers;
		fixed[2] = &m->rdma_credit;
		fixed[3] = &m->rdma_proc;
		while (m->nfixed < 4 && xdrc_get_u32(&x, fixed[m->nfixed]))
			m->nfixed++;
	}

	if (m->nfixed < 2)
		return judge(m, RPCRDMA_DISCARD, RPCRDMA_R_SHORT_PREFIX,
			     4u * m->nfixed);
	vers_ok = m->rdma_vers == RPCRDMA_VERSION_ONE ||
		  m->rdma_vers == RPCRDMA_VERSION_TWO;
	if (!vers_ok) {
		/* RDMA_ERROR means the same in every version (V1 §5.1.2) and
		 * an error is never answered (V1 §5.5): no ERR_VERS ping-pong */
		if (m->nfixed == 4 && m->rdma_proc == RDMA_ERROR) {
			m->direction = RPCRDMA_REPLY;
			/* rdma_err's place and the ERR_VERS arm are the same
			 * in every version (V1 §9.1): the range an answer to
			 * our unknown version names is read out for the
			 * requester; the verdict stays discard (D-ERR-3) */
			if (xdrc_get_u32(&x, &m->rdma_err)) {
				m->has_err = true;
				if (m->rdma_err == RDMA_ERR_VERS &&
				    xdrc_get_u32(&x, &m->rdma_vers_low) &&
				    xdrc_get_u32(&x, &m->rdma_vers_high))
					m->has_vrange = true;
			}
			return judge(m, RPCRDMA_DISCARD, RPCRDMA_R_BAD_VERS, 4);
		}
		return judge(m, RPCRDMA_REPLY_ERR_VERS, RPCRDMA_R_BAD_VERS, 4);
	}
	if (m->nfixed < 4)
		return judge(m, RPCRDMA_REPLY_BAD_HEADER, RPCRDMA_R_TRUNCATED,
			     4u * m->nfixed);

	a = decode_body(&x, m);
	if (m->direction == RPCRDMA_REPLY && m->rdma_credit == 0)
		m->notes |= RPCRDMA_NOTE_ZERO_CREDIT;
	return a;
}

enum rpcrdma_action rpcrdma_decode(const uint8_t *buf, size_t len,
				   struct rpcrdma_msg *m)
{
	if (decode_plain_msg(buf, len, m))
		return RPCRDMA_ACCEPT;
	return decode_general(buf, len, m);
}

const uint8_t *rpcrdma_payload(const struct rpcrdma_msg *m)
{
	return m->payload_len ? m->buf + m->header_len : NULL;
}
