/* ib.c - InfiniBand / RoCE: the infiniband.payload heuristic, multi-packet Sends, RDMA Read/Write tracking. */
#include "rpcrdma_plugin.h"
#include "reasm.h"

#include <epan/dissectors/packet-infiniband.h>

#define PSN(x) ((x) & 0xffffffu)

struct ib_xfer {                 /* an RDMA Write or Read in progress */
	struct rpcrdma_rdma_io io;
};

/* Record a piece; a continuation is expected at PSN `next` from `side` */
static void xfer_piece(packet_info *pinfo, tvbuff_t *tvb, struct ib_xfer *x,
		       enum rpcrdma_pend kind, uint32_t side, bool more,
		       uint32_t psn)
{
	rpcrdma_reasm_add(pinfo, tvb, &x->io);
	x->io.offset += tvb_captured_length(tvb);
	if (more)
		rpcrdma_pending_put(kind, RPCRDMA_KEY(side, PSN(psn + 1)), x);
}

static struct ib_xfer *xfer_new(const struct rpcrdma_where *w, unsigned owner,
				const struct infinibandinfo *ib)
{
	struct ib_xfer *x = wmem_new(wmem_file_scope(), struct ib_xfer);

	x->io.owner = rpcrdma_side_id(w, owner);
	x->io.handle = ib->reth_remote_key;
	x->io.offset = ib->reth_remote_address;
	return x;
}

/* RDMA Writes (data into the receiver's memory) and Read Responses (data
 * from the responder's memory, numbered with the request's PSNs) */
static void track(packet_info *pinfo, tvbuff_t *tvb,
		  const struct infinibandinfo *ib, const struct rpcrdma_where *w)
{
	uint32_t psn = PSN(ib->packet_seq_num);
	uint32_t me = rpcrdma_side_id(w, w->dir), peer = rpcrdma_side_id(w, 1 - w->dir);
	struct ib_xfer *x;

	if (PINFO_FD_VISITED(pinfo) || !rpcrdma_prefs.reassemble || !w->conn)
		return;
	switch (ib->opCode) {
	case RC_RDMA_WRITE_ONLY:
	case RC_RDMA_WRITE_ONLY_IMM:
	case RC_RDMA_WRITE_FIRST:
		x = xfer_new(w, 1 - w->dir, ib);
		xfer_piece(pinfo, tvb, x, PEND_SEQ, me,
			   ib->opCode == RC_RDMA_WRITE_FIRST, psn);
		break;
	case RC_RDMA_WRITE_MIDDLE:
	case RC_RDMA_WRITE_LAST:
	case RC_RDMA_WRITE_LAST_IMM:
		x = rpcrdma_pending_take(PEND_SEQ, RPCRDMA_KEY(me, psn));
		if (x)
			xfer_piece(pinfo, tvb, x, PEND_SEQ, me,
				   ib->opCode == RC_RDMA_WRITE_MIDDLE, psn);
		break;
	case RC_RDMA_READ_REQUEST:
		/* responses come back from the peer, numbered from this PSN */
		x = xfer_new(w, 1 - w->dir, ib);
		rpcrdma_pending_put(PEND_READ, RPCRDMA_KEY(peer, psn), x);
		break;
	case RC_RDMA_READ_RESPONSE_FIRST:
	case RC_RDMA_READ_RESPONSE_MIDDLE:
	case RC_RDMA_READ_RESPONSE_LAST:
	case RC_RDMA_READ_RESPONSE_ONLY:
		x = rpcrdma_pending_take(PEND_READ, RPCRDMA_KEY(me, psn));
		if (x)
			xfer_piece(pinfo, tvb, x, PEND_READ, me,
				   ib->opCode == RC_RDMA_READ_RESPONSE_FIRST ||
				   ib->opCode == RC_RDMA_READ_RESPONSE_MIDDLE, psn);
		break;
	default:
		break;
	}
}

/* SEND FIRST / MIDDLE: collect; true when the part is ours */
static bool send_part(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree,
		      const struct infinibandinfo *ib, bool first,
		      const struct rpcrdma_where *w)
{
	uint32_t psn = PSN(ib->packet_seq_num);
	uint32_t me = rpcrdma_side_id(w, w->dir);
	struct rpcrdma_send_asm *s;

	if (PINFO_FD_VISITED(pinfo)) {
		s = p_get_proto_data(wmem_file_scope(), pinfo, proto_rpcrdma,
				     rpcrdma_key(KEY_FRAG, tvb));
	} else {
		if (first) {
			if (!rpcrdma_claims_partial(tvb, pinfo))
				return false;
			s = wmem_new0(wmem_file_scope(), struct rpcrdma_send_asm);
		} else {
			s = rpcrdma_pending_take(PEND_SEQ, RPCRDMA_KEY(me, psn));
		}
		if (!s || !rpcrdma_send_append(s, tvb))
			return false;
		rpcrdma_pending_put(PEND_SEQ, RPCRDMA_KEY(me, PSN(psn + 1)), s);
		p_add_proto_data(wmem_file_scope(), pinfo, proto_rpcrdma,
				 rpcrdma_key(KEY_FRAG, tvb), s);
	}
	if (!s)
		return false;
	col_set_str(pinfo->cinfo, COL_PROTOCOL, "RPC-over-RDMA");
	col_clear(pinfo->cinfo, COL_INFO);
	if (s->done_frame)
		col_add_fstr(pinfo->cinfo, COL_INFO,
			     "RDMA Send fragment (message in frame %u)",
			     s->done_frame);
	else
		col_set_str(pinfo->cinfo, COL_INFO, "RDMA Send fragment");
	proto_tree_add_item(tree, proto_rpcrdma, tvb, 0, -1, ENC_NA);
	return true;
}

/* SEND LAST: the whole message, or NULL */
static tvbuff_t *send_last(tvbuff_t *tvb, packet_info *pinfo,
			   const struct infinibandinfo *ib,
			   const struct rpcrdma_where *w)
{
	struct rpcrdma_send_asm *s = NULL;

	if (!PINFO_FD_VISITED(pinfo)) {
		s = rpcrdma_pending_take(PEND_SEQ,
			RPCRDMA_KEY(rpcrdma_side_id(w, w->dir),
				    PSN(ib->packet_seq_num)));
		if (!s || !rpcrdma_send_append(s, tvb))
			return NULL;
		s->done_frame = pinfo->num;
	}
	return rpcrdma_send_done(tvb, pinfo, s);
}

static gboolean heur_ib(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree,
			void *data)
{
	const struct infinibandinfo *ib = data;
	struct rpcrdma_where w;
	tvbuff_t *whole;

	if (!ib)
		return FALSE;
	rpcrdma_where(pinfo, false, &w);
	switch (ib->opCode) {
	case RC_SEND_ONLY:
	case RC_SEND_ONLY_IMM:
	case RC_SEND_ONLY_INVAL:
		if (!rpcrdma_claims(tvb, pinfo))
			return FALSE;
		rpcrdma_dissect_msg(tvb, pinfo, tree, &w);
		return TRUE;
	case RC_SEND_FIRST:
	case RC_SEND_MIDDLE:
		return send_part(tvb, pinfo, tree, ib,
				 ib->opCode == RC_SEND_FIRST, &w);
	case RC_SEND_LAST:
	case RC_SEND_LAST_IMM:
	case RC_SEND_LAST_INVAL:
		whole = send_last(tvb, pinfo, ib, &w);
		if (!whole)
			return FALSE;
		rpcrdma_dissect_msg(whole, pinfo, tree, &w);
		return TRUE;
	default:
		track(pinfo, tvb, ib, &w);
		return rpcrdma_late_call(tvb, pinfo, tree);
	}
}

void rpcrdma_ib_handoff(void)
{
	heur_dissector_add("infiniband.payload", heur_ib,
			   "RPC-over-RDMA v1/v2 on InfiniBand (plugin)",
			   "rpcrdma_plugin_ib", proto_rpcrdma, HEURISTIC_ENABLE);
}
