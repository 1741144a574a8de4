/* tree.c - maps a message decoded by libcodec onto the protocol tree (never parses itself). */
#include "rpcrdma_plugin.h"

#define OFF(m, p) ((int)((const uint8_t *)(p) - (m)->buf))

/* One segment of the read list (`pos` its position), of a write chunk or
 * of the reply chunk: shown with the fields of its list, and with the
 * list-independent rpcrdma.segment.* hidden (all segments in wire order) */
static void add_segment(proto_tree *t, tvbuff_t *tvb, int off,
			const struct rpcrdma_segment *s, enum rpcrdma_list l,
			const uint32_t *pos)
{
	proto_item *it;
	proto_tree *st;

	it = proto_tree_add_item(t, rpcrdma_hf.seg[l], tvb, pos ? off - 8 : off,
				 pos ? 24 : 16, ENC_NA);
	if (pos)
		proto_item_append_text(it, " position %u,", *pos);
	proto_item_append_text(it, " %u@0x%" PRIx64 ":0x%08x", s->rdma_length,
			       s->rdma_offset, s->rdma_handle);
	st = proto_item_add_subtree(it, rpcrdma_ett.segment);
	if (pos)
		proto_tree_add_uint(st, rpcrdma_hf.position, tvb, off - 4, 4, *pos);
	proto_tree_add_uint(st, rpcrdma_hf.seg_handle[l], tvb, off, 4,
			    s->rdma_handle);
	proto_tree_add_uint(st, rpcrdma_hf.seg_length[l], tvb, off + 4, 4,
			    s->rdma_length);
	proto_tree_add_uint64(st, rpcrdma_hf.seg_offset[l], tvb, off + 8, 8,
			      s->rdma_offset);
	proto_item_set_hidden(proto_tree_add_item(st, rpcrdma_hf.segment, tvb,
						  off, 16, ENC_NA));
	proto_item_set_hidden(proto_tree_add_uint(st, rpcrdma_hf.handle, tvb,
						  off, 4, s->rdma_handle));
	proto_item_set_hidden(proto_tree_add_uint(st, rpcrdma_hf.length, tvb,
						  off + 4, 4, s->rdma_length));
	proto_item_set_hidden(proto_tree_add_uint64(st, rpcrdma_hf.offset, tvb,
						    off + 8, 8, s->rdma_offset));
}

static void read_list(proto_tree *tree, tvbuff_t *tvb,
		      const struct rpcrdma_msg *m)
{
	struct rpcrdma_read_iter ri;
	struct rpcrdma_read_segment rs;
	proto_item *it;
	proto_tree *lt;
	int start = (int)m->reads_off, off;

	it = proto_tree_add_uint(tree, rpcrdma_hf.read_list, tvb, start, 4,
				 m->nreads);
	lt = proto_item_add_subtree(it, rpcrdma_ett.read_list);
	rpcrdma_read_iter_init(m, &ri);
	off = start;
	while (ri.p && (off = OFF(m, ri.p), rpcrdma_read_next(&ri, &rs))) {
		add_segment(lt, tvb, off + 8, &rs.rdma_target, RPCRDMA_LIST_READ,
			    &rs.rdma_position);
		off += 24;
	}
	/* the list ends with a 0 discriminator (when it was decoded) */
	if (m->writes_off)
		proto_item_set_len(it, (int)m->writes_off - start);
}

static void seg_list(proto_tree *t, tvbuff_t *tvb, struct rpcrdma_seg_iter *si,
		     enum rpcrdma_list l)
{
	struct rpcrdma_segment s;
	int off = (int)si->wire_off + 4;

	while (rpcrdma_seg_next(si, &s)) {
		add_segment(t, tvb, off, &s, l, NULL);
		off += 16;
	}
}

static void write_list(proto_tree *tree, tvbuff_t *tvb,
		       const struct rpcrdma_msg *m)
{
	struct rpcrdma_chunk_iter ci;
	struct rpcrdma_seg_iter si;
	proto_item *it, *ci_it;
	proto_tree *lt, *ct;
	int start = (int)m->writes_off;

	it = proto_tree_add_uint(tree, rpcrdma_hf.write_list, tvb, start, 4,
				 m->nwrites);
	lt = proto_item_add_subtree(it, rpcrdma_ett.write_list);
	rpcrdma_write_iter_init(m, &ci);
	while (rpcrdma_write_next(&ci, &si)) {
		ci_it = proto_tree_add_uint(lt, rpcrdma_hf.write_chunk, tvb,
					    (int)si.wire_off - 4,
					    8 + 16 * (int)si.nsegs, si.nsegs);
		ct = proto_item_add_subtree(ci_it, rpcrdma_ett.write_chunk);
		seg_list(ct, tvb, &si, RPCRDMA_LIST_WRITE);
	}
	if (m->reply_off)
		proto_item_set_len(it, (int)m->reply_off - start);
}

static void reply_chunk(proto_tree *tree, tvbuff_t *tvb,
			const struct rpcrdma_msg *m)
{
	struct rpcrdma_seg_iter si;
	proto_item *it;

	if (!rpcrdma_reply_chunk(m, &si))
		return;
	it = proto_tree_add_uint(tree, rpcrdma_hf.reply_chunk, tvb,
				 (int)m->reply_off, 8 + 16 * (int)si.nsegs,
				 si.nsegs);
	seg_list(proto_item_add_subtree(it, rpcrdma_ett.reply_chunk), tvb, &si,
		 RPCRDMA_LIST_REPLY);
}

static void prefix(proto_tree *t, tvbuff_t *tvb, const struct rpcrdma_msg *m)
{
	if (m->nfixed >= 1)
		proto_tree_add_uint(t, rpcrdma_hf.xid, tvb, 0, 4, m->rdma_xid);
	if (m->nfixed >= 2)
		proto_tree_add_uint(t, rpcrdma_hf.vers, tvb, 4, 4, m->rdma_vers);
	if (m->nfixed >= 3)
		proto_tree_add_uint(t, rpcrdma_hf.credits, tvb, 8, 4,
				    m->rdma_credit);
	if (m->nfixed >= 4)
		proto_tree_add_uint_format_value(t, rpcrdma_hf.proc, tvb, 12, 4,
			m->rdma_proc, "%s (%u)",
			rpcrdma_proc_name(m->rdma_vers, m->rdma_proc),
			m->rdma_proc);
}

static void direction(proto_tree *t, tvbuff_t *tvb, const struct rpcrdma_msg *m)
{
	proto_item *it;

	if (m->direction < 0)
		return;
	if (m->has_direction_word) {
		proto_tree_add_uint(t, rpcrdma_hf.direction, tvb, 16, 4,
				    (uint32_t)m->direction);
		return;
	}
	it = proto_tree_add_uint(t, rpcrdma_hf.direction, tvb, 0, 0,
				 (uint32_t)m->direction);
	proto_item_set_generated(it);
	proto_item_append_text(it, m->direction_inferred
			       ? " (inferred from the chunk lists)"
			       : " (from the RPC msg_type)");
}

static void error_body(proto_tree *t, tvbuff_t *tvb, const struct rpcrdma_msg *m)
{
	if (!m->has_err)
		return;
	proto_tree_add_uint_format_value(t, rpcrdma_hf.err, tvb, 16, 4,
		m->rdma_err, "%s (%u)", rpcrdma_err_name(m->rdma_vers, m->rdma_err),
		m->rdma_err);
	if (m->has_vrange) {
		proto_tree_add_uint(t, rpcrdma_hf.vers_low, tvb, 20, 4,
				    m->rdma_vers_low);
		proto_tree_add_uint(t, rpcrdma_hf.vers_high, tvb, 24, 4,
				    m->rdma_vers_high);
	}
}

static void optional_body(proto_tree *t, tvbuff_t *tvb,
			  const struct rpcrdma_msg *m)
{
	if (!m->has_optional)
		return;
	proto_tree_add_uint(t, rpcrdma_hf.optdir, tvb, 16, 4, m->rdma_optdir);
	proto_tree_add_uint(t, rpcrdma_hf.opttype, tvb, 20, 4, m->rdma_opttype);
	proto_tree_add_uint(t, rpcrdma_hf.optinfo_len, tvb, 24, 4,
			    m->optinfo_len);
	if (m->optinfo_len &&
	    (uint64_t)m->optinfo_off + m->optinfo_len <= m->len)
		proto_tree_add_item(t, rpcrdma_hf.optinfo, tvb,
				    (int)m->optinfo_off, (int)m->optinfo_len,
				    ENC_NA);
}

static void verdict(proto_tree *t, tvbuff_t *tvb, const struct rpcrdma_msg *m)
{
	proto_item *it;
	unsigned bit;

	if (m->header_len) {
		it = proto_tree_add_uint(t, rpcrdma_hf.header_len, tvb, 0, 0,
					 m->header_len);
		proto_item_set_generated(it);
		it = proto_tree_add_uint(t, rpcrdma_hf.payload_len, tvb, 0, 0,
					 m->payload_len);
		proto_item_set_generated(it);
	}
	if (m->rdma_vers == RPCRDMA_VERSION_TWO) {
		unsigned fam = rpcrdma_v2_draft_family(m);

		it = proto_tree_add_string(t, rpcrdma_hf.draft, tvb, 0, 0,
					   rpcrdma_v2_family_name(fam));
		proto_item_set_generated(it);
	}
	it = proto_tree_add_string(t, rpcrdma_hf.action, tvb, 0, 0,
				   rpcrdma_action_name(m->action));
	proto_item_set_generated(it);
	it = proto_tree_add_string(t, rpcrdma_hf.reason, tvb, 0, 0,
				   rpcrdma_reason_name(m->reason));
	proto_item_set_generated(it);
	for (bit = 0; bit < RPCRDMA_NOTE_COUNT_; bit++) {
		if (!(m->notes & (1u << bit)))
			continue;
		it = proto_tree_add_string(t, rpcrdma_hf.note, tvb, 0, 0,
					   rpcrdma_note_name(1u << bit));
		proto_item_set_generated(it);
	}
}

static bool has_lists(const struct rpcrdma_msg *m)
{
	return (m->rdma_vers == 1 || m->rdma_vers == 2) && m->nfixed == 4 &&
	       (m->rdma_proc == RDMA_MSG || m->rdma_proc == RDMA_NOMSG);
}

proto_item *rpcrdma_tree_header(tvbuff_t *tvb, packet_info *pinfo,
				proto_tree *tree, const struct rpcrdma_msg *m,
				proto_tree **sub)
{
	proto_item *top;
	proto_tree *t;
	int hlen = m->header_len ? (int)m->header_len
				 : (int)tvb_captured_length(tvb);

	if (!tree) {
		/* no tree (tshark without -V, -Y, -T fields...): every item
		 * below would be a no-op; the expert infos still count */
		*sub = NULL;
		rpcrdma_expert_verdict(pinfo, NULL, tvb, m);
		return NULL;
	}
	top = proto_tree_add_item(tree, proto_rpcrdma, tvb, 0, hlen, ENC_NA);
	rpcrdma_compat_fields(tree, tvb, m, hlen);
	t = proto_item_add_subtree(top, rpcrdma_ett.top);
	*sub = t;
	prefix(t, tvb, m);
	direction(t, tvb, m);
	if (has_lists(m)) {
		if (m->reads_off)
			read_list(t, tvb, m);
		if (m->writes_off)
			write_list(t, tvb, m);
		reply_chunk(t, tvb, m);
	}
	error_body(t, tvb, m);
	optional_body(t, tvb, m);
	if (m->has_rpc_xid && m->header_len &&
	    (uint64_t)m->header_len + 4 <= tvb_captured_length(tvb))
		proto_tree_add_uint(t, rpcrdma_hf.rpc_xid, tvb,
				    (int)m->header_len, 4, m->rpc_xid);
	verdict(t, tvb, m);
	rpcrdma_expert_verdict(pinfo, t, tvb, m);
	return top;
}
