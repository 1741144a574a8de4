/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * encode.c - writing transport headers into a caller's buffer.
 * The size is computed first (exact, in 64 bits so that no count can wrap
 * it), then the header is written in one pass: nothing is written when it
 * does not fit.
 *
 * Encoding key (V1 §5.7): HLOO = handle32 length32 offset64, P = position
 *   RDMA_MSG/NOMSG: XID VERS CRED PROC [DIR(v2)] {1 PHLOO}* 0 {1 N HLOO*}* 0 (0 | 1 N HLOO*)
 *   RDMA_MSGP (v1): XID VERS CRED 2 ALIGN THRESH <chunk lists as above>
 *   RDMA_ERROR:     XID VERS CRED 4 ERR [LOW HIGH]
 *   RDMA2_OPTIONAL: XID VERS CRED 5 OPTDIR OPTTYPE LEN INFO... PAD
 */
#include "internal.h"

static uint64_t chunk_size(const struct rpcrdma_write_chunk *c)
{
	return 4 + (uint64_t)c->nsegs * RPCRDMA_SEGMENT_SIZE;
}

static uint64_t chunk_lists_size(const struct rpcrdma_hdr *h)
{
	uint64_t n = 4 + (uint64_t)h->nreads * (4 + RPCRDMA_READ_SEGMENT_SIZE);
	uint32_t i;

	for (i = 0; i < h->nwrites; i++)
		n += 4 + chunk_size(&h->writes[i]);
	n += 4;                                  /* end of write list */
	n += 4 + (h->reply ? chunk_size(h->reply) : 0);
	return n;
}

static uint64_t body_size(const struct rpcrdma_hdr *h)
{
	bool v2 = h->rdma_vers == RPCRDMA_VERSION_TWO;

	switch (h->rdma_proc) {
	case RDMA_MSG:
	case RDMA_NOMSG:
		return (v2 ? 4 : 0) + chunk_lists_size(h);
	case RDMA_MSGP:
		return v2 ? 0 : 8 + chunk_lists_size(h);
	case RDMA_ERROR:
		return h->rdma_err == RDMA_ERR_VERS ? 12 : 4;
	case RDMA2_OPTIONAL:
		return v2 ? 12 + xdrc_roundup(h->optinfo_len) : 0;
	default:
		return 0;
	}
}

static uint8_t *put32(uint8_t *p, uint32_t v)
{
	xdrc_put32(p, v);
	return p + 4;
}

static uint8_t *put_segment(uint8_t *p, const struct rpcrdma_segment *s)
{
	p = put32(p, s->rdma_handle);
	p = put32(p, s->rdma_length);
	xdrc_put64(p, s->rdma_offset);
	return p + 8;
}

static uint8_t *put_write_chunk(uint8_t *p, const struct rpcrdma_write_chunk *c)
{
	uint32_t i;

	p = put32(p, c->nsegs);
	for (i = 0; i < c->nsegs; i++)
		p = put_segment(p, &c->segs[i]);
	return p;
}

static uint8_t *put_chunk_lists(uint8_t *p, const struct rpcrdma_hdr *h)
{
	uint32_t i;

	for (i = 0; i < h->nreads; i++) {
		p = put32(p, 1);
		p = put32(p, h->reads[i].rdma_position);
		p = put_segment(p, &h->reads[i].rdma_target);
	}
	p = put32(p, 0);
	for (i = 0; i < h->nwrites; i++) {
		p = put32(p, 1);
		p = put_write_chunk(p, &h->writes[i]);
	}
	p = put32(p, 0);
	if (!h->reply)
		return put32(p, 0);
	p = put32(p, 1);
	return put_write_chunk(p, h->reply);
}

size_t rpcrdma_encode(const struct rpcrdma_hdr *h, uint8_t *buf, size_t cap,
		      size_t *need)
{
	bool v2 = h->rdma_vers == RPCRDMA_VERSION_TWO;
	uint64_t size = 16 + body_size(h);
	uint8_t *p = buf;

	if (need)
		*need = size > SIZE_MAX ? SIZE_MAX : (size_t)size;
	if (size > cap)
		return 0;
	p = put32(p, h->rdma_xid);
	p = put32(p, h->rdma_vers);
	p = put32(p, h->rdma_credit);
	p = put32(p, h->rdma_proc);
	switch (h->rdma_proc) {
	case RDMA_MSG:
	case RDMA_NOMSG:
		if (v2)
			p = put32(p, h->direction);
		p = put_chunk_lists(p, h);
		break;
	case RDMA_MSGP:
		if (v2)
			break;
		p = put32(p, h->rdma_align);
		p = put32(p, h->rdma_thresh);
		p = put_chunk_lists(p, h);
		break;
	case RDMA_ERROR:
		p = put32(p, h->rdma_err);
		if (h->rdma_err == RDMA_ERR_VERS) {
			p = put32(p, h->rdma_vers_low);
			p = put32(p, h->rdma_vers_high);
		}
		break;
	case RDMA2_OPTIONAL:
		if (!v2)
			break;
		p = put32(p, h->rdma_optdir);
		p = put32(p, h->rdma_opttype);
		p = put32(p, h->optinfo_len);
		if (h->optinfo_len)
			memcpy(p, h->optinfo, h->optinfo_len);
		memset(p + h->optinfo_len, 0,
		       (size_t)(xdrc_roundup(h->optinfo_len) - h->optinfo_len));
		p += xdrc_roundup(h->optinfo_len);
		break;
	}
	return (size_t)(p - buf);
}

size_t rpcrdma_encode_error_reply(const struct rpcrdma_msg *m,
				  uint32_t credits, uint8_t *buf, size_t cap,
				  size_t *need)
{
	struct rpcrdma_hdr h = {
		.rdma_xid = m->rdma_xid,
		.rdma_vers = m->rdma_vers,       /* V1 §5.5: same version */
		.rdma_credit = credits,
		.rdma_proc = RDMA_ERROR,
	};

	switch (m->action) {
	case RPCRDMA_REPLY_ERR_VERS:
		h.rdma_err = RDMA_ERR_VERS;
		h.rdma_vers_low = RPCRDMA_VERSION_ONE;
		h.rdma_vers_high = RPCRDMA_VERSION_TWO;
		break;
	case RPCRDMA_REPLY_BAD_HEADER:
		h.rdma_err = RDMA_ERR_BADHEADER;
		break;
	case RPCRDMA_REPLY_INVAL_OPTION:
		h.rdma_err = RDMA2_ERR_INVAL_OPTION;
		break;
	default:
		if (need)
			*need = 0;
		return 0;
	}
	return rpcrdma_encode(&h, buf, cap, need);
}

bool rpcrdma_msg_to_hdr(const struct rpcrdma_msg *m, struct rpcrdma_hdr *h,
			struct rpcrdma_read_segment *reads, uint32_t cap_reads,
			struct rpcrdma_write_chunk *chunks, uint32_t cap_chunks,
			struct rpcrdma_segment *segs, uint32_t cap_segs)
{
	struct rpcrdma_read_iter ri;
	struct rpcrdma_chunk_iter ci;
	struct rpcrdma_seg_iter si;
	uint32_t nsegs = 0, nchunks = 0;

	memset(h, 0, sizeof(*h));
	h->rdma_xid = m->rdma_xid;
	h->rdma_vers = m->rdma_vers;
	h->rdma_credit = m->rdma_credit;
	h->rdma_proc = m->rdma_proc;
	h->direction = m->direction == RPCRDMA_REPLY;
	h->rdma_err = m->rdma_err;
	h->rdma_vers_low = m->rdma_vers_low;
	h->rdma_vers_high = m->rdma_vers_high;
	h->rdma_optdir = m->rdma_optdir;
	h->rdma_opttype = m->rdma_opttype;
	h->optinfo_len = m->optinfo_len;
	h->optinfo = m->has_optional ? m->buf + m->optinfo_off : NULL;

	if (m->nreads > cap_reads || m->nwrites + m->has_reply > cap_chunks ||
	    m->nwrite_segs + m->nreply_segs > cap_segs)
		return false;
	rpcrdma_read_iter_init(m, &ri);
	while (rpcrdma_read_next(&ri, &reads[h->nreads]))
		h->nreads++;
	h->reads = reads;
	rpcrdma_write_iter_init(m, &ci);
	while (rpcrdma_write_next(&ci, &si)) {
		chunks[nchunks].segs = &segs[nsegs];
		chunks[nchunks].nsegs = si.nsegs;
		while (rpcrdma_seg_next(&si, &segs[nsegs]))
			nsegs++;
		nchunks++;
	}
	h->writes = chunks;
	h->nwrites = nchunks;
	if (rpcrdma_reply_chunk(m, &si)) {
		chunks[nchunks].segs = &segs[nsegs];
		chunks[nchunks].nsegs = si.nsegs;
		while (rpcrdma_seg_next(&si, &segs[nsegs]))
			nsegs++;
		h->reply = &chunks[nchunks];
	}
	return true;
}
