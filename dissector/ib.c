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

/*
 * Retransmitted Send packets.  An RC requester resends from a PSN the
 * responder NAKed or did not acknowledge; the bytes are the same.  A Send
 * packet whose PSN this side already used for a Send we claimed, within the
 * last RETX_WINDOW PSNs of that side, is shown as a retransmission and not
 * decoded as a new message (rpcrdma-decode counts it once too: cap_ib.c).
 *
 * Only the window matters, so each side keeps a ring of RETX_WINDOW slots
 * (PSN modulo the window: the Send PSN that used it, and its first frame)
 * in its connection, allocated on its first Send: a constant cost per Send
 * and memory per connection, where a map of every Send ever claimed grew
 * with the capture (issue 27).  A slot keeps the PSN furthest ahead, so a
 * PSN inside the window is found whenever a map would have found it.
 */
#define RETX_WINDOW 1024u
struct rpcrdma_sent {
	uint32_t top;                    /* highest Send PSN + 1; 0: none yet */
	uint32_t psn[RETX_WINDOW];
	uint32_t frame[RETX_WINDOW];     /* 0: slot unused */
};

static uint32_t retransmitted(tvbuff_t *tvb, packet_info *pinfo, uint32_t psn,
			      const struct rpcrdma_where *w)
{
	const struct rpcrdma_sent *r;
	uint32_t top, first, slot = psn % RETX_WINDOW;

	if (PINFO_FD_VISITED(pinfo))
		return GPOINTER_TO_UINT(p_get_proto_data(wmem_file_scope(), pinfo,
			proto_rpcrdma, rpcrdma_key(KEY_RETX, tvb)));
	if (!w->conn || !(r = w->conn->sent[w->dir & 1u]))
		return 0;
	first = r->psn[slot] == psn ? r->frame[slot] : 0;
	top = r->top;
	if (!first || first == pinfo->num || PSN(top - 1 - psn) >= RETX_WINDOW)
		return 0;
	p_add_proto_data(wmem_file_scope(), pinfo, proto_rpcrdma,
			 rpcrdma_key(KEY_RETX, tvb), GUINT_TO_POINTER(first));
	return first;
}

/* A Send packet we claimed: remember its PSN */
static void sent(packet_info *pinfo, uint32_t psn, const struct rpcrdma_where *w)
{
	struct rpcrdma_sent *r;
	uint32_t top, slot = psn % RETX_WINDOW;

	if (PINFO_FD_VISITED(pinfo) || !w->conn)
		return;
	r = w->conn->sent[w->dir & 1u];
	if (!r)
		r = w->conn->sent[w->dir & 1u] =
			wmem_new0(wmem_file_scope(), struct rpcrdma_sent);
	if (!r->frame[slot] ||
	    (r->psn[slot] != psn && PSN(psn - r->psn[slot]) < 0x800000u)) {
		r->psn[slot] = psn;          /* the first frame of this PSN */
		r->frame[slot] = pinfo->num;
	}
	top = r->top;
	if (!top || PSN(psn + 1 - top) < 0x800000u)   /* ahead of the top */
		r->top = PSN(psn + 1) ? PSN(psn + 1) : 0x1000000u;
}

static rpcrdma_ws_bool show_retx(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree,
			  uint32_t first)
{
	proto_item *it;
	col_set_str(pinfo->cinfo, COL_PROTOCOL, "RPC-over-RDMA");
	col_add_fstr(pinfo->cinfo, COL_INFO,
		     "RDMA Send retransmission (first sent in frame %u)", first);
	proto_tree *t;

	it = proto_tree_add_item(tree, proto_rpcrdma, tvb, 0, -1, ENC_NA);
	proto_item_append_text(it, ", retransmission of frame %u", first);
	t = proto_item_add_subtree(it, rpcrdma_ett.top);
	proto_item_set_generated(proto_tree_add_uint(t, rpcrdma_hf.retx_of, tvb,
						     0, 0, first));
	rpcrdma_expert_retransmission(pinfo, t, tvb, first);
	return TRUE;
}

static rpcrdma_ws_bool sends(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree,
		      const struct infinibandinfo *ib,
		      const struct rpcrdma_where *w)
{
	tvbuff_t *whole;
	struct rpcrdma_msg m;
	bool decoded;

	switch (ib->opCode) {
	case RC_SEND_ONLY:
	case RC_SEND_ONLY_IMM:
	case RC_SEND_ONLY_INVAL:
		if (!rpcrdma_claims(tvb, pinfo, &m, &decoded))
			return FALSE;
		rpcrdma_dissect_msg(tvb, pinfo, tree, w, decoded ? &m : NULL);
		return TRUE;
	case RC_SEND_FIRST:
	case RC_SEND_MIDDLE:
		return send_part(tvb, pinfo, tree, ib,
				 ib->opCode == RC_SEND_FIRST, w);
	default:                /* LAST, LAST with Immediate or Invalidate */
		whole = send_last(tvb, pinfo, ib, w);
		if (!whole)
			return FALSE;
		rpcrdma_dissect_msg(whole, pinfo, tree, w, NULL);
		return TRUE;
	}
}

static rpcrdma_ws_bool heur_ib(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree,
			void *data)
{
	const struct infinibandinfo *ib = data;
	struct rpcrdma_where w;
	uint32_t psn, first;

	if (!ib)
		return FALSE;
	rpcrdma_where(pinfo, false, &w);
	switch (ib->opCode) {
	case RC_SEND_ONLY:
	case RC_SEND_ONLY_IMM:
	case RC_SEND_ONLY_INVAL:
	case RC_SEND_FIRST:
	case RC_SEND_MIDDLE:
	case RC_SEND_LAST:
	case RC_SEND_LAST_IMM:
	case RC_SEND_LAST_INVAL:
		psn = PSN(ib->packet_seq_num);
		first = retransmitted(tvb, pinfo, psn, &w);
		if (first)
			return show_retx(tvb, pinfo, tree, first);
		if (!sends(tvb, pinfo, tree, ib, &w))
			return FALSE;
		sent(pinfo, psn, &w);
		return TRUE;
	default:
		track(pinfo, tvb, ib, &w);
		return rpcrdma_late_call(tvb, pinfo, tree);
	}
}

void rpcrdma_ib_register(void)
{
}

void rpcrdma_ib_handoff(void)
{
	heur_dissector_add("infiniband.payload", heur_ib,
			   "RPC-over-RDMA v1/v2 on InfiniBand (plugin)",
			   "rpcrdma_plugin_ib", proto_rpcrdma, HEURISTIC_ENABLE);
}
