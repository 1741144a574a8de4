/* iwarp.c - iWARP: the iwarp_ddp_rdmap heuristic, multi-segment Sends, RDMA Read/Write tracking. */
#include "rpcrdma_plugin.h"
#include "reasm.h"

#include <epan/dissectors/packet-iwarp-ddp-rdmap.h>

struct iw_read {                 /* an RDMA Read Request: sink -> source */
	rdmap_request_t req;
};

/* RDMA Writes (data into the receiver's memory) and Read Responses (data
 * from the responder's memory, tagged with the requester's sink STag) */
static void track(packet_info *pinfo, tvbuff_t *tvb, const rdmap_info_t *info,
		  const struct rpcrdma_where *w)
{
	uint32_t me = rpcrdma_side_id(w, w->dir), peer = rpcrdma_side_id(w, 1 - w->dir);
	struct rpcrdma_rdma_io io;
	struct iw_read *r;

	if (PINFO_FD_VISITED(pinfo) || !rpcrdma_prefs.reassemble || !w->conn)
		return;
	switch (info->opcode) {
	case RDMA_WRITE:
		if (!info->is_tagged)
			return;
		io.owner = peer;
		io.handle = info->steering_tag;
		io.offset = info->tagged_offset;
		rpcrdma_reasm_add(pinfo, tvb, &io);
		break;
	case RDMA_READ_REQUEST:
		if (!info->read_request)
			return;
		r = wmem_new(wmem_file_scope(), struct iw_read);
		r->req = *info->read_request;
		/* the response comes from the peer, tagged with the sink STag */
		rpcrdma_pending_put(PEND_READ, RPCRDMA_KEY(peer, r->req.sink_stag),
				    r);
		break;
	case RDMA_READ_RESPONSE:
		if (!info->is_tagged)
			return;
		r = rpcrdma_pending_peek(PEND_READ,
					 RPCRDMA_KEY(me, info->steering_tag));
		if (!r || info->tagged_offset < r->req.sink_toffset)
			return;
		io.owner = me;
		io.handle = r->req.source_stag;
		io.offset = r->req.source_toffset +
			    (info->tagged_offset - r->req.sink_toffset);
		rpcrdma_reasm_add(pinfo, tvb, &io);
		break;
	default:
		break;
	}
}

static rpcrdma_ws_bool send_part(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree,
			  const rdmap_info_t *info, const struct rpcrdma_where *w)
{
	uint64_t key = RPCRDMA_KEY(rpcrdma_side_id(w, w->dir), info->message_seq_num);
	struct rpcrdma_send_asm *s;
	tvbuff_t *whole;

	if (PINFO_FD_VISITED(pinfo)) {
		s = p_get_proto_data(wmem_file_scope(), pinfo, proto_rpcrdma,
				     rpcrdma_key(KEY_FRAG, tvb));
		if (info->last_flag) {
			whole = rpcrdma_send_done(tvb, pinfo, NULL);
			if (!whole)
				return FALSE;
			rpcrdma_dissect_msg(whole, pinfo, tree, w, NULL);
			return TRUE;
		}
	} else {
		if (info->message_offset == 0) {
			if (!rpcrdma_claims_partial(tvb, pinfo))
				return FALSE;
			s = wmem_new0(wmem_file_scope(), struct rpcrdma_send_asm);
			rpcrdma_pending_put(PEND_SEQ, key, s);
		} else {
			s = rpcrdma_pending_peek(PEND_SEQ, key);
		}
		if (!s || s->len != info->message_offset ||
		    !rpcrdma_send_append(s, tvb)) {
			rpcrdma_pending_take(PEND_SEQ, key);
			return FALSE;
		}
		if (info->last_flag) {
			rpcrdma_pending_take(PEND_SEQ, key);
			s->done_frame = pinfo->num;
			whole = rpcrdma_send_done(tvb, pinfo, s);
			if (!whole)
				return FALSE;
			rpcrdma_dissect_msg(whole, pinfo, tree, w, NULL);
			return TRUE;
		}
		p_add_proto_data(wmem_file_scope(), pinfo, proto_rpcrdma,
				 rpcrdma_key(KEY_FRAG, tvb), s);
	}
	if (!s)
		return FALSE;
	col_set_str(pinfo->cinfo, COL_PROTOCOL, "RPC-over-RDMA");
	col_set_str(pinfo->cinfo, COL_INFO, "RDMA Send fragment");
	proto_tree_add_item(tree, proto_rpcrdma, tvb, 0, -1, ENC_NA);
	return TRUE;
}

/* The last segment of a Send of several: Wireshark's DDP dissector has put
 * the segments together itself (iwarp_ddp_rdmap.reassemble_iwarp_rdma_send,
 * on by default) and hands us the whole message, unless we have been
 * collecting the segments ourselves (that preference off). */
static bool whole_from_ddp(tvbuff_t *tvb, packet_info *pinfo,
			   const rdmap_info_t *info, const struct rpcrdma_where *w)
{
	if (PINFO_FD_VISITED(pinfo))
		return !p_get_proto_data(wmem_file_scope(), pinfo, proto_rpcrdma,
					 rpcrdma_key(KEY_SEND, tvb));
	return !rpcrdma_pending_peek(PEND_SEQ,
		RPCRDMA_KEY(rpcrdma_side_id(w, w->dir), info->message_seq_num));
}

static rpcrdma_ws_bool heur_iwarp(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree,
			   void *data)
{
	const rdmap_info_t *info = data;
	struct rpcrdma_where w;
	struct rpcrdma_msg m;
	bool decoded;

	if (!info)
		return FALSE;
	rpcrdma_where(pinfo, true, &w);
	switch (info->opcode) {
	case RDMA_SEND:
	case RDMA_SEND_INVALIDATE:
	case RDMA_SEND_SE:
	case RDMA_SEND_SE_INVALIDATE:
		if (info->is_tagged)
			return FALSE;
		if (info->last_flag && (info->message_offset == 0 ||
					whole_from_ddp(tvb, pinfo, info, &w))) {
			if (!rpcrdma_claims(tvb, pinfo, &m, &decoded))
				return FALSE;
			rpcrdma_dissect_msg(tvb, pinfo, tree, &w,
					    decoded ? &m : NULL);
			return TRUE;
		}
		return send_part(tvb, pinfo, tree, info, &w);
	default:
		track(pinfo, tvb, info, &w);
		return rpcrdma_late_call(tvb, pinfo, tree);
	}
}

void rpcrdma_iwarp_handoff(void)
{
	heur_dissector_add("iwarp_ddp_rdmap", heur_iwarp,
			   "RPC-over-RDMA v1/v2 on iWARP (plugin)",
			   "rpcrdma_plugin_iwarp", proto_rpcrdma, HEURISTIC_ENABLE);
}
