/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * xprt_rs_chunks.c - the responder's RDMA: the RDMA Read that pulls a call's
 * read chunks into place (V1 §4.4.5: segments of one position concatenated
 * in list order and inserted into the Payload stream at that position,
 * with the XDR round-up the requester may have left out, §4.4.5.1), and
 * the RDMA Writes that push a result into a write chunk or a reply into
 * the reply chunk (§4.4.6: segments filled in order; their lengths come
 * back in the reply).
 *
 * Reassembly: the stream starts as the inline payload (empty for
 * RDMA_NOMSG); each read chunk, in ascending position, is inserted at its
 * position in the stream built so far (so a position-zero chunk holds the
 * whole call, and a further chunk lands inside it).  The result is a list
 * of pieces, each from the payload, a chunk, or zero pad.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "xprt_int.h"

#define SRC_PAYLOAD (-1)
#define SRC_PAD (-2)

static int insert_piece(struct xrcvd *q, uint64_t pos, struct xpiece ins)
{
	uint64_t at = 0;
	unsigned i, j;

	for (i = 0; i < q->npieces; i++) {
		struct xpiece *p = &q->piece[i];

		if (pos < at + p->len && pos > at) {     /* split p */
			if (q->npieces + 2 > XPRT_MAX_PIECES)
				return -1;
			for (j = q->npieces; j > i + 1; j--)
				q->piece[j] = q->piece[j - 1];
			q->piece[i + 1] = *p;
			q->piece[i + 1].src_off += pos - at;
			q->piece[i + 1].len -= pos - at;
			p->len = pos - at;
			q->npieces++;
			i++;
			break;
		}
		if (pos == at)
			break;
		at += p->len;
	}
	if (i == q->npieces && pos != at)
		return -1;                      /* beyond the stream */
	if (q->npieces + 1 > XPRT_MAX_PIECES)
		return -1;
	for (j = q->npieces; j > i; j--)
		q->piece[j] = q->piece[j - 1];
	q->piece[i] = ins;
	q->npieces++;
	return 0;
}

/* Group the read list into chunks and lay out the reassembled call;
 * -1 when the list is beyond what this responder serves or does not fit
 * the stream (a position past its end). */
int xprt_read_chunk_plan(struct xrcvd *q, const uint8_t *payload,
			 size_t payload_len, uint64_t max_len)
{
	struct rpcrdma_read_iter it;
	struct rpcrdma_read_segment s;
	uint64_t total = payload_len, off = 0;
	unsigned i, nseg = 0;

	(void)payload;
	q->nrch = 0;
	q->npieces = 0;
	if (payload_len)
		q->piece[q->npieces++] = (struct xpiece){ SRC_PAYLOAD, 0, payload_len, 0 };
	rpcrdma_read_iter_init(&q->m, &it);
	while (rpcrdma_read_next(&it, &s)) {
		if (!q->nrch || q->rch[q->nrch - 1].pos != s.rdma_position) {
			if (q->nrch == XPRT_MAX_RCHUNKS ||
			    (q->nrch && s.rdma_position < q->rch[q->nrch - 1].pos))
				return -1;
			q->rch[q->nrch].pos = s.rdma_position;
			q->rch[q->nrch].first = nseg;
			q->rch[q->nrch].nsegs = 0;
			q->rch[q->nrch].len = 0;
			q->nrch++;
		}
		if (q->rch[q->nrch - 1].nsegs == XPRT_MAX_SEGS)
			return -1;
		q->rdseg[nseg++] = s;
		q->rch[q->nrch - 1].nsegs++;
		q->rch[q->nrch - 1].len += s.rdma_target.rdma_length;
		total += s.rdma_target.rdma_length + 3;
		if (total > max_len)
			return -1;
	}
	for (i = 0; i < q->nrch; i++) {
		uint64_t n = q->rch[i].len, pad = (4 - (n & 3)) & 3;

		if (pad && insert_piece(q, q->rch[i].pos,
					(struct xpiece){ SRC_PAD, 0, pad, 0 }))
			return -1;
		if (n && insert_piece(q, q->rch[i].pos,
				      (struct xpiece){ (int)i, 0, n, 0 }))
			return -1;
	}
	for (i = 0; i < q->npieces; i++) {
		q->piece[i].asm_off = off;
		off += q->piece[i].len;
	}
	q->len = (size_t)off;
	return 0;
}

/* Post the RDMA Reads of every read chunk straight into the reassembly
 * buffer (one Read per segment, or per part of a segment that a later
 * chunk's insertion split); the inline pieces are copied at once. */
int xprt_read_chunk_pull(struct xprt *x, struct xrcvd *q, uint32_t idx)
{
	struct xv_sge sge;
	unsigned k, i, p;

	for (k = 0; k < q->nrch; k++) {
		uint64_t coff = 0;

		for (i = 0; i < q->rch[k].nsegs; i++) {
			const struct rpcrdma_read_segment *s = &q->rdseg[q->rch[k].first + i];
			uint64_t a = coff, b = coff + s->rdma_target.rdma_length;

			for (p = 0; p < q->npieces; p++) {
				const struct xpiece *pc = &q->piece[p];
				uint64_t lo = a > pc->src_off ? a : pc->src_off;
				uint64_t hi = b < pc->src_off + pc->len ? b :
					      pc->src_off + pc->len;

				if (pc->src != (int)k || lo >= hi)
					continue;
				sge = (struct xv_sge){ q->buf + pc->asm_off + (lo - pc->src_off),
						       (uint32_t)(hi - lo), q->mr->lkey };
				if (xprt_post_rdma(x, XV_OP_RDMA_READ, XW_ID(XW_READ, idx), &sge,
						   s->rdma_target.rdma_offset + (lo - a),
						   s->rdma_target.rdma_handle))
					return -1;
				q->reads_pending++;
				x->st.rdma_read_bytes += hi - lo;
			}
			coff = b;
		}
	}
	return 0;
}

/* copy the pieces that are not read: the inline payload and the pads */
void xprt_read_chunk_fill(struct xrcvd *q, const uint8_t *payload)
{
	unsigned p;

	for (p = 0; p < q->npieces; p++) {
		const struct xpiece *pc = &q->piece[p];

		if (pc->src == SRC_PAYLOAD)
			memcpy(q->buf + pc->asm_off, payload + pc->src_off, pc->len);
		else if (pc->src == SRC_PAD)
			memset(q->buf + pc->asm_off, 0, pc->len);
	}
}

/* RDMA Write `len` bytes of src into the segments in order; written[i]
 * gets what went into segment i (0 for those not reached) */
int xprt_write_chunk_push(struct xprt *x, int slot,
			  const struct rpcrdma_segment *segs, uint32_t nsegs,
			  const uint8_t *src, uint32_t lkey, size_t len,
			  uint32_t *written)
{
	struct xv_sge sge;
	size_t off = 0;
	uint32_t i;

	for (i = 0; i < nsegs; i++) {
		size_t n = len - off < segs[i].rdma_length ? len - off :
			   segs[i].rdma_length;

		written[i] = (uint32_t)n;
		if (!n)
			continue;
		sge = (struct xv_sge){ (uint8_t *)src + off, (uint32_t)n, lkey };
		if (xprt_post_rdma(x, XV_OP_RDMA_WRITE, XW_ID(XW_WRITE, slot), &sge,
				   segs[i].rdma_offset, segs[i].rdma_handle))
			return -1;
		x->sends[slot].pending++;
		x->st.rdma_write_bytes += n;
		off += n;
	}
	return off == len ? 0 : -1;
}

/* the bytes of n segments */
uint64_t xprt_chunk_len(const struct rpcrdma_segment *s, uint32_t n)
{
	uint64_t t = 0;
	uint32_t i;

	for (i = 0; i < n; i++)
		t += s[i].rdma_length;
	return t;
}
