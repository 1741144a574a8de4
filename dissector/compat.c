/* compat.c - the built-in dissector's rpcordma.* fields, hidden, on the Version One messages the plugin claims (preference rpcrdma.rpcordma_fields). */
#include "rpcrdma_plugin.h"

/*
 * With "Claim Version One" on, Wireshark's built-in RPCoRDMA dissector
 * never sees a Version One message, so `rpcordma` display filters and
 * colouring rules would silently match nothing.  The plugin therefore also
 * sets the built-in's own fields (looked up by name once every protocol is
 * registered; a field whose type is not the one expected is left out) as
 * hidden items with the built-in's meanings: msg_type is rdma_proc,
 * reads_count the number of read segments, writes_count the number of write
 * chunks, reply_count 1 when there is a reply chunk, segment_count per write
 * or reply chunk, and the segments in wire order.
 */

static int proto_rpcordma = -1;
static struct {
	int xid, version, flow_control, msg_type;
	int reads_count, writes_count, reply_count, segment_count;
	int handle, length, offset, position;
	int errcode, vers_low, vers_high;
} hf;

static int field(const char *name, enum ftenum type)
{
	int id = proto_registrar_get_id_byname(name);

	return id >= 0 && proto_registrar_get_ftype(id) == type ? id : -1;
}

void rpcrdma_compat_handoff(void)
{
	proto_rpcordma = proto_get_id_by_filter_name("rpcordma");
	hf.xid = field("rpcordma.xid", FT_UINT32);
	hf.version = field("rpcordma.version", FT_UINT32);
	hf.flow_control = field("rpcordma.flow_control", FT_UINT32);
	hf.msg_type = field("rpcordma.msg_type", FT_UINT32);
	hf.reads_count = field("rpcordma.reads_count", FT_UINT32);
	hf.writes_count = field("rpcordma.writes_count", FT_UINT32);
	hf.reply_count = field("rpcordma.reply_count", FT_UINT32);
	hf.segment_count = field("rpcordma.segment_count", FT_UINT32);
	hf.handle = field("rpcordma.rdma_handle", FT_UINT32);
	hf.length = field("rpcordma.rdma_length", FT_UINT32);
	hf.offset = field("rpcordma.rdma_offset", FT_UINT64);
	hf.position = field("rpcordma.position", FT_UINT32);
	hf.errcode = field("rpcordma.errcode", FT_UINT32);
	hf.vers_low = field("rpcordma.vers_low", FT_UINT32);
	hf.vers_high = field("rpcordma.vers_high", FT_UINT32);
}

static void u32(proto_tree *t, int id, tvbuff_t *tvb, int off, uint32_t v)
{
	if (id >= 0)
		proto_item_set_hidden(proto_tree_add_uint(t, id, tvb, off, 4, v));
}

static void segment(proto_tree *t, tvbuff_t *tvb, int off,
		    const struct rpcrdma_segment *s)
{
	u32(t, hf.handle, tvb, off, s->rdma_handle);
	u32(t, hf.length, tvb, off + 4, s->rdma_length);
	if (hf.offset >= 0)
		proto_item_set_hidden(proto_tree_add_uint64(t, hf.offset, tvb,
			off + 8, 8, s->rdma_offset));
}

static void chunk(proto_tree *t, tvbuff_t *tvb, struct rpcrdma_seg_iter *si)
{
	struct rpcrdma_segment s;
	int off = (int)si->wire_off + 4;

	u32(t, hf.segment_count, tvb, off - 4, si->nsegs);
	while (rpcrdma_seg_next(si, &s)) {
		segment(t, tvb, off, &s);
		off += 16;
	}
}

static void lists(proto_tree *t, tvbuff_t *tvb, const struct rpcrdma_msg *m)
{
	struct rpcrdma_read_iter ri;
	struct rpcrdma_read_segment rs;
	struct rpcrdma_chunk_iter ci;
	struct rpcrdma_seg_iter si;
	int off;

	if (m->reads_off) {
		u32(t, hf.reads_count, tvb, (int)m->reads_off, m->nreads);
		rpcrdma_read_iter_init(m, &ri);
		while (ri.p) {
			off = (int)(ri.p - m->buf);
			if (!rpcrdma_read_next(&ri, &rs))
				break;
			u32(t, hf.position, tvb, off + 4, rs.rdma_position);
			segment(t, tvb, off + 8, &rs.rdma_target);
		}
	}
	if (m->writes_off) {
		u32(t, hf.writes_count, tvb, (int)m->writes_off, m->nwrites);
		rpcrdma_write_iter_init(m, &ci);
		while (rpcrdma_write_next(&ci, &si))
			chunk(t, tvb, &si);
	}
	if (m->reply_off) {
		u32(t, hf.reply_count, tvb, (int)m->reply_off, m->has_reply);
		if (rpcrdma_reply_chunk(m, &si))
			chunk(t, tvb, &si);
	}
}

void rpcrdma_compat_fields(proto_tree *tree, tvbuff_t *tvb,
			   const struct rpcrdma_msg *m, int hlen)
{
	proto_item *it;
	proto_tree *t;

	if (!rpcrdma_prefs.rpcordma_fields || proto_rpcordma < 0 ||
	    m->rdma_vers != RPCRDMA_VERSION_ONE || m->nfixed < 4)
		return;
	it = proto_tree_add_item(tree, proto_rpcordma, tvb, 0, hlen, ENC_NA);
	proto_item_set_hidden(it);
	t = proto_item_add_subtree(it, rpcrdma_ett.top);
	u32(t, hf.xid, tvb, 0, m->rdma_xid);
	u32(t, hf.version, tvb, 4, m->rdma_vers);
	u32(t, hf.flow_control, tvb, 8, m->rdma_credit);
	u32(t, hf.msg_type, tvb, 12, m->rdma_proc);
	if (m->rdma_proc == RDMA_MSG || m->rdma_proc == RDMA_NOMSG)
		lists(t, tvb, m);
	if (m->has_err)
		u32(t, hf.errcode, tvb, 16, m->rdma_err);
	if (m->has_vrange) {
		u32(t, hf.vers_low, tvb, 20, m->rdma_vers_low);
		u32(t, hf.vers_high, tvb, 24, m->rdma_vers_high);
	}
}
