/* chunks.c - rebuilding RPC messages carried in chunks (Long Call, Long Reply, DDP read chunks). */
#include "rpcrdma_plugin.h"
#include "chunks.h"
#include "reasm.h"

#include <string.h>

#define MAX_SEGS 64u     /* more read segments than this: do not rebuild */
#define ZERO_FILL_MAX (16u * 1024u * 1024u)

static expert_field ei_missing = EI_INIT;

void rpcrdma_register_chunks(void)
{
	static ei_register_info ei[] = {
		{ &ei_missing, { "rpcrdma.expert.chunk_not_captured",
		  PI_REASSEMBLE, PI_NOTE,
		  "Read chunk data not in the capture", EXPFILL } },
	};

	expert_register_field_array(expert_register_protocol(proto_rpcrdma),
				    ei, array_length(ei));
}

static uint32_t chunk_len(const struct rpcrdma_segment *s, uint32_t n)
{
	uint64_t sum = 0;
	uint32_t i;

	for (i = 0; i < n; i++)
		sum += s[i].rdma_length;
	return sum > UINT32_MAX ? UINT32_MAX : (uint32_t)sum;
}

struct rchunk {
	uint32_t position;
	uint32_t first, n;       /* segments segs[first .. first+n) */
};

/* A subtree for one rebuilt message; its text says whether it worked */
static proto_tree *reasm_tree(proto_tree *tree, tvbuff_t *tvb, const char *what)
{
	proto_item *it = proto_tree_add_item(tree, rpcrdma_hf.reasm_from, tvb,
					     0, 0, ENC_NA);
	proto_item_set_generated(it);
	proto_item_set_text(it, "%s: data not in the capture", what);
	return proto_item_add_subtree(it, rpcrdma_ett.reasm);
}

static void reasm_done(proto_tree *rt, tvbuff_t *tvb, const char *what,
		       unsigned len)
{
	proto_item *it;

	proto_item_set_text(proto_tree_get_parent(rt), "%s: %u bytes", what, len);
	it = proto_tree_add_uint(rt, rpcrdma_hf.reasm_len, tvb, 0, 0, len);
	proto_item_set_generated(it);
}

/* Read list -> chunks: consecutive segments with one position form a chunk */
static uint32_t read_chunks(const struct rpcrdma_msg *m,
			    struct rpcrdma_segment *segs, struct rchunk *ch)
{
	struct rpcrdma_read_iter it;
	struct rpcrdma_read_segment rs;
	uint32_t n = 0, nch = 0;

	rpcrdma_read_iter_init(m, &it);
	while (n < MAX_SEGS && rpcrdma_read_next(&it, &rs)) {
		segs[n] = rs.rdma_target;
		if (nch && ch[nch - 1].position == rs.rdma_position) {
			ch[nch - 1].n++;
		} else {
			ch[nch].position = rs.rdma_position;
			ch[nch].first = n;
			ch[nch].n = 1;
			nch++;
		}
		n++;
	}
	return n == m->nreads ? nch : 0;
}

tvbuff_t *rpcrdma_rebuild_call(tvbuff_t *tvb, packet_info *pinfo,
			       proto_tree *tree, const struct rpcrdma_msg *m,
			       tvbuff_t *inline_payload,
			       const struct rpcrdma_where *where)
{
	uint32_t owner = rpcrdma_requester(where, m);
	struct rpcrdma_segment segs[MAX_SEGS];
	struct rchunk ch[MAX_SEGS];
	uint32_t nch, i, len = 0;
	uint8_t *buf = NULL;
	proto_tree *rt;
	tvbuff_t *t;
	bool zero_filled = false;

	if (!rpcrdma_prefs.reassemble || m->nreads == 0 || m->nreads > MAX_SEGS)
		return NULL;
	nch = read_chunks(m, segs, ch);
	if (!nch)
		return NULL;
	rt = reasm_tree(tree, tvb, "RPC call rebuilt from the read list");
	i = 0;
	if (ch[0].position == 0) {          /* Long Call: Position Zero chunk */
		struct rpcrdma_waiting *w = rpcrdma_reasm_waiting(owner,
							segs[0].rdma_handle);

		if (w && w->frame == pinfo->num && w->done_frame &&
		    w->done_frame != pinfo->num) {
			/* dissected where its last Read Response arrived */
			proto_item_set_text(proto_tree_get_parent(rt),
				"RPC call rebuilt from the read list: in frame %u",
				w->done_frame);
			return NULL;
		}
		t = rpcrdma_reasm_chunk(tvb, pinfo, owner, segs, ch[0].n, 0, rt);
		if (!t) {
			rpcrdma_reasm_wait(pinfo, tvb, where, owner, segs, ch[0].n);
			return NULL;
		}
		len = tvb_captured_length(t);
		buf = (uint8_t *)tvb_memdup(pinfo->pool, t, 0, len);
		i = 1;
	} else if (inline_payload) {
		len = tvb_captured_length(inline_payload);
		buf = (uint8_t *)tvb_memdup(pinfo->pool, inline_payload, 0, len);
	} else {
		return NULL;
	}
	for (; i < nch; i++) {           /* DDP-eligible data at its position */
		uint32_t clen, pad, pos = ch[i].position;
		uint8_t *nb;

		t = rpcrdma_reasm_chunk(tvb, pinfo, owner, segs + ch[i].first,
					ch[i].n, 0, rt);
		if (pos > len)
			return NULL;
		if (t) {
			clen = tvb_captured_length(t);
		} else {
			/* data not captured: zeros of the chunk's length keep
			 * the XDR above decodable; say so */
			clen = chunk_len(segs + ch[i].first, ch[i].n);
			if (clen == 0 || clen > ZERO_FILL_MAX)
				return NULL;
			proto_tree_add_expert_format(rt, pinfo, &ei_missing, tvb,
				0, 0, "chunk_not_captured: read chunk at position "
				"%u (%u bytes): no RDMA Read of it seen%s; "
				"zero-filled [V1 4.4.5]", pos, clen,
				PINFO_FD_VISITED(pinfo) ? " in the capture"
				: " yet (one pass: it comes later)");
			zero_filled = true;
		}
		pad = (4 - (clen & 3)) & 3;
		/* every byte written once: no zeroing of the whole (issue 27) */
		nb = wmem_alloc(pinfo->pool, (size_t)len + clen + pad);
		memcpy(nb, buf, pos);
		if (t)
			tvb_memcpy(t, nb + pos, 0, clen);
		else
			memset(nb + pos, 0, clen);
		memset(nb + pos + clen, 0, pad);
		memcpy(nb + pos + clen + pad, buf + pos, len - pos);
		buf = nb;
		len += clen + pad;
	}
	if (!len)
		return NULL;
	t = tvb_new_child_real_data(tvb, buf, len, (int)len);
	add_new_data_source(pinfo, t, "Rebuilt RPC call");
	reasm_done(rt, tvb, zero_filled ? "RPC call (read chunk data zero-filled)"
			    : "RPC call rebuilt from the read list", len);
	return t;
}

tvbuff_t *rpcrdma_rebuild_reply(tvbuff_t *tvb, packet_info *pinfo,
				proto_tree *tree, const struct rpcrdma_msg *m,
				uint32_t owner)
{
	struct rpcrdma_segment segs[MAX_SEGS];
	struct rpcrdma_seg_iter si;
	uint32_t n = 0;
	proto_tree *rt;
	tvbuff_t *t;

	if (!rpcrdma_prefs.reassemble || !rpcrdma_reply_chunk(m, &si) ||
	    si.nsegs > MAX_SEGS)
		return NULL;
	while (rpcrdma_seg_next(&si, &segs[n]))
		n++;
	/* the responder Wrote the reply before it Sent this header */
	rt = reasm_tree(tree, tvb, "RPC reply from the reply chunk");
	t = rpcrdma_reasm_chunk(tvb, pinfo, owner, segs, n, pinfo->num, rt);
	if (!t)
		return NULL;
	add_new_data_source(pinfo, t, "Reply chunk");
	reasm_done(rt, tvb, "RPC reply from the reply chunk",
		   tvb_captured_length(t));
	return t;
}

void rpcrdma_show_write_chunks(tvbuff_t *tvb, packet_info *pinfo,
			       proto_tree *tree, const struct rpcrdma_msg *m,
			       uint32_t owner)
{
	struct rpcrdma_segment segs[MAX_SEGS];
	struct rpcrdma_chunk_iter ci;
	struct rpcrdma_seg_iter si;

	if (!rpcrdma_prefs.reassemble || m->direction != RPCRDMA_REPLY)
		return;
	rpcrdma_write_iter_init(m, &ci);
	while (rpcrdma_write_next(&ci, &si)) {
		uint32_t n = 0;
		uint64_t got, total;
		proto_tree *rt;

		if (si.nsegs > MAX_SEGS)
			continue;
		while (rpcrdma_seg_next(&si, &segs[n]))
			n++;
		rt = reasm_tree(tree, tvb, "Write chunk data");
		got = rpcrdma_reasm_coverage(tvb, pinfo, owner, segs, n,
					     pinfo->num, rt, &total);
		if (got)
			proto_item_set_text(proto_tree_get_parent(rt),
				"Write chunk data: %" PRIu64 " of %" PRIu64
				" bytes written", got, total);
	}
}

static void advertise(packet_info *pinfo, uint32_t owner,
		      struct rpcrdma_seg_iter *si, enum rpcrdma_chunk_kind kind)
{
	struct rpcrdma_segment s;

	while (rpcrdma_seg_next(si, &s))
		rpcrdma_reasm_advertise(pinfo, owner, s.rdma_handle, kind);
}

void rpcrdma_advertise_chunks(packet_info *pinfo, const struct rpcrdma_msg *m,
			      uint32_t owner)
{
	struct rpcrdma_read_iter ri;
	struct rpcrdma_read_segment rs;
	struct rpcrdma_chunk_iter ci;
	struct rpcrdma_seg_iter si;

	if (PINFO_FD_VISITED(pinfo) || !rpcrdma_prefs.reassemble)
		return;
	rpcrdma_read_iter_init(m, &ri);
	while (rpcrdma_read_next(&ri, &rs))
		rpcrdma_reasm_advertise(pinfo, owner, rs.rdma_target.rdma_handle,
					rs.rdma_position == 0 ? RPCRDMA_CHUNK_MSG
							      : RPCRDMA_CHUNK_READ);
	rpcrdma_write_iter_init(m, &ci);
	while (rpcrdma_write_next(&ci, &si))
		advertise(pinfo, owner, &si, RPCRDMA_CHUNK_WRITE);
	if (rpcrdma_reply_chunk(m, &si))
		advertise(pinfo, owner, &si, RPCRDMA_CHUNK_MSG);
}

bool rpcrdma_late_call(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree)
{
	struct rpcrdma_waiting *w = p_get_proto_data(wmem_file_scope(), pinfo,
						     proto_rpcrdma, rpcrdma_key(KEY_LATE, tvb));
	struct rpcrdma_msg m;
	proto_item *top;
	proto_tree *sub;
	tvbuff_t *hdr, *call;

	if (!w)
		return false;
	rpcrdma_decode(w->msg, w->len, &m);
	hdr = tvb_new_child_real_data(tvb, w->msg, w->len, (int)w->len);
	col_set_str(pinfo->cinfo, COL_PROTOCOL, "RPC-over-RDMA");
	col_clear(pinfo->cinfo, COL_INFO);
	col_add_fstr(pinfo->cinfo, COL_INFO, "Long Call xid 0x%08x (%s in frame %u)",
		     m.rdma_xid, rpcrdma_proc_name(m.rdma_vers, m.rdma_proc),
		     w->frame);
	top = proto_tree_add_item(tree, proto_rpcrdma, tvb, 0, 0, ENC_NA);
	proto_item_set_text(top, "RPC-over-RDMA, Long Call xid 0x%08x: header in "
			    "frame %u, its Position Zero read chunk completed here",
			    m.rdma_xid, w->frame);
	sub = proto_item_add_subtree(top, rpcrdma_ett.top);
	call = rpcrdma_rebuild_call(hdr, pinfo, sub, &m, NULL, &w->where);
	if (call) {
		rpcrdma_ddp_call(pinfo, w->owner, &m, call);
		rpcrdma_to_rpc(call, pinfo, tree, &w->where);
	}
	return true;
}
