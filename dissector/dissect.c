/* dissect.c - one RPC-over-RDMA message: libcodec decode, columns, tree, RPC handoff, heuristic test. */
#include "rpcrdma_plugin.h"
#include "chunks.h"
#include "reasm.h"

#include <epan/exceptions.h>

static dissector_handle_t rpc_handle;
static dissector_handle_t rpcrdma_handle;

/* Connections seen carrying well-formed RPC-over-RDMA (per capture): on
 * them, malformed headers are claimed too so that their faults show.  A
 * connection is the address pair and the "ports": TCP ports for iWARP, the
 * destination QP for InfiniBand (so each direction of an RC connection is
 * learnt on its own, and other ULPs between the same hosts are left alone). */
static wmem_map_t *known_peers;

static unsigned peer_key(const packet_info *pinfo)
{
	return add_address_to_hash(0, &pinfo->src) ^
	       add_address_to_hash(0, &pinfo->dst) ^
	       g_int_hash(&pinfo->srcport) ^ g_int_hash(&pinfo->destport);
}

static const uint8_t *bytes_of(tvbuff_t *tvb, unsigned *len)
{
	*len = tvb_captured_length(tvb);
	return *len ? tvb_get_ptr(tvb, 0, (int)*len) : NULL;
}

/* The strong tests: is this a well-formed, recognisable header? */
static bool strong(const struct rpcrdma_msg *m, unsigned len)
{
	if (m->nfixed < 4)
		return false;
	if (m->rdma_vers == RPCRDMA_VERSION_TWO)   /* cel-01's, or a later
						     * draft's layout */
		return m->rdma_proc == RDMA2_MSG || m->rdma_proc == RDMA2_NOMSG ||
		       m->rdma_proc == RDMA2_ERROR ||
		       m->rdma_proc == RDMA2_OPTIONAL ||
		       rpcrdma_v2_later_family(m);
	if (m->rdma_vers != RPCRDMA_VERSION_ONE || !rpcrdma_prefs.claim_v1)
		return false;
	switch (m->rdma_proc) {
	case RDMA_MSG:     /* the RPC xid after the chunk lists is rdma_xid */
		return m->has_rpc_xid && m->rpc_xid == m->rdma_xid;
	case RDMA_NOMSG:
	case RDMA_ERROR:
		return m->action == RPCRDMA_ACCEPT;
	case RDMA_DONE:    /* rpcrdma1_done is the bare prefix */
		return len == 16;
	case RDMA_MSGP:    /* prefix, align, thresh, three lists, RPC xid */
		return len >= 40;
	default:
		return false;
	}
}

/* Does this payload look like ours?  *learnt is set when the answer came
 * from known_peers (it depends on what the capture held before it); the
 * header is decoded into *m (*decoded set) for the dissection that follows
 * a yes, so that a message is decoded once (issue 27). */
static bool decide(tvbuff_t *tvb, packet_info *pinfo, bool partial,
		   bool *learnt, struct rpcrdma_msg *m, bool *decoded)
{
	unsigned len;
	const uint8_t *buf;

	*learnt = false;
	if (tvb_captured_length(tvb) < 8)
		return false;
	buf = bytes_of(tvb, &len);
	rpcrdma_decode(buf, len, m);
	*decoded = true;
	if (m->rdma_vers == RPCRDMA_VERSION_ONE && !rpcrdma_prefs.claim_v1)
		return false;
	if (partial)   /* first part of a longer Send: the prefix only */
		return m->nfixed == 4 &&
		       (m->rdma_vers == 2 || m->rdma_vers == 1) &&
		       (m->rdma_proc == RDMA_MSG || m->rdma_proc == RDMA_NOMSG);
	if (strong(m, len)) {
		if (!PINFO_FD_VISITED(pinfo))
			wmem_map_insert(known_peers,
					GUINT_TO_POINTER(peer_key(pinfo)),
					GUINT_TO_POINTER(1));
		return true;
	}
	*learnt = true;
	return wmem_map_lookup(known_peers,
			       GUINT_TO_POINTER(peer_key(pinfo))) != NULL;
}

/* The answer is kept per frame only where it came from known_peers (which
 * holds the whole capture on a later pass): everything else decide() says
 * from the bytes alone, the same on every pass, so the common message costs
 * no per-frame record (issue 27). */
static bool claims(tvbuff_t *tvb, packet_info *pinfo, bool partial,
		   struct rpcrdma_msg *m, bool *decoded)
{
	bool yes, learnt;

	*decoded = false;
	if (PINFO_FD_VISITED(pinfo)) {
		void *cached = p_get_proto_data(wmem_file_scope(), pinfo,
			proto_rpcrdma, rpcrdma_key(KEY_CLAIM, tvb));

		if (cached)
			return GPOINTER_TO_UINT(cached) == 2;
	}
	yes = decide(tvb, pinfo, partial, &learnt, m, decoded);
	if (learnt && !PINFO_FD_VISITED(pinfo))
		p_add_proto_data(wmem_file_scope(), pinfo, proto_rpcrdma,
				 rpcrdma_key(KEY_CLAIM, tvb), GUINT_TO_POINTER(yes ? 2 : 1));
	return yes;
}

bool rpcrdma_claims(tvbuff_t *tvb, packet_info *pinfo, struct rpcrdma_msg *m,
		    bool *decoded)
{
	return claims(tvb, pinfo, false, m, decoded);
}

bool rpcrdma_claims_partial(tvbuff_t *tvb, packet_info *pinfo)
{
	struct rpcrdma_msg m;
	bool decoded;

	return claims(tvb, pinfo, true, &m, &decoded);
}

/* Backward direction (BIDI 2.4), judged as rpcrdma-decode judges it: the
 * side that sent the connection's first well-formed call is the client; a
 * well-formed call from the other side, or a reply from the client, goes
 * the backward way; anything else, and everything before the first call,
 * counts as forward.  Decided on the first pass; a backward message keeps
 * a record (2), a forward one none. */
static bool backward(tvbuff_t *tvb, packet_info *pinfo,
		     const struct rpcrdma_msg *m, const struct rpcrdma_where *w)
{
	guint32 key = rpcrdma_key(KEY_BIDI, tvb);
	struct rpcrdma_conn *c = w->conn;
	int me = (int)w->dir;
	unsigned v = 1;

	/* only the backward ones are recorded: no record is forward (the
	 * common message costs no per-frame record, issue 27) */
	if (PINFO_FD_VISITED(pinfo))
		return GPOINTER_TO_UINT(p_get_proto_data(wmem_file_scope(),
			pinfo, proto_rpcrdma, key)) == 2;
	if (c && m->direction == RPCRDMA_CALL && m->action == RPCRDMA_ACCEPT) {
		if (c->client < 0)
			c->client = (int8_t)me;
		if (me != c->client)
			v = 2;
	} else if (c && m->direction == RPCRDMA_REPLY && m->nfixed == 4 &&
		   me == c->client) {
		v = 2;
	}
	if (v == 2 && !p_get_proto_data(wmem_file_scope(), pinfo,
					proto_rpcrdma, key))
		p_add_proto_data(wmem_file_scope(), pinfo, proto_rpcrdma, key,
				 GUINT_TO_POINTER(v));
	return v == 2;
}

/* The Info text of every message, formatted without printf (a third of
 * what the plugin added per message, before issue 27): "%s v%u xid 0x%08x
 * credits %u" and " backward" */
static char *put_str(char *p, const char *s)
{
	while (*s)
		*p++ = *s++;
	return p;
}

static char *put_u32(char *p, uint32_t v)
{
	char tmp[10];
	unsigned n = 0;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		*p++ = tmp[--n];
	return p;
}

static char *put_hex8(char *p, uint32_t v)
{
	static const char hex[] = "0123456789abcdef";

	for (int i = 28; i >= 0; i -= 4)
		*p++ = hex[(v >> i) & 0xf];
	return p;
}

static void summary(packet_info *pinfo, const struct rpcrdma_msg *m, bool back)
{
	char buf[128], *p = buf;   /* proc names are short literals */

	p = put_str(p, rpcrdma_proc_name(m->rdma_vers, m->rdma_proc));
	p = put_str(p, " v");
	p = put_u32(p, m->rdma_vers);
	p = put_str(p, " xid 0x");
	p = put_hex8(p, m->rdma_xid);
	p = put_str(p, " credits ");
	p = put_u32(p, m->rdma_credit);
	if (back)
		p = put_str(p, " backward");
	*p = 0;
	col_add_str(pinfo->cinfo, COL_INFO, buf);
}

static void columns(packet_info *pinfo, const struct rpcrdma_msg *m,
		    unsigned len, bool back)
{
	col_set_str(pinfo->cinfo, COL_PROTOCOL, "RPC-over-RDMA");
	col_clear(pinfo->cinfo, COL_INFO);
	if (m->nfixed < 4)
		col_add_fstr(pinfo->cinfo, COL_INFO,
			     "RPC-over-RDMA, %u bytes", len);
	else
		summary(pinfo, m, back);
	if (m->has_err) {
		col_append_fstr(pinfo->cinfo, COL_INFO, " %s",
				rpcrdma_err_name(m->rdma_vers, m->rdma_err));
		if (m->has_vrange)
			col_append_fstr(pinfo->cinfo, COL_INFO, " (%u-%u)",
					m->rdma_vers_low, m->rdma_vers_high);
	}
	if (m->has_optional)
		col_append_fstr(pinfo->cinfo, COL_INFO, " type %u, %u bytes",
				m->rdma_opttype, m->optinfo_len);
	if (m->nreads || m->nwrites || m->has_reply)
		col_append_fstr(pinfo->cinfo, COL_INFO, " [%u read, %u write%s]",
				m->nreads, m->nwrites,
				m->has_reply ? ", reply chunk" : "");
	unsigned fam = rpcrdma_v2_later_family(m);

	if (fam)
		col_append_fstr(pinfo->cinfo, COL_INFO,
				" [later draft layout, not decoded: %s]",
				rpcrdma_v2_family_name(fam));
	else if (m->action != RPCRDMA_ACCEPT)
		col_append_fstr(pinfo->cinfo, COL_INFO, " [%s]",
				rpcrdma_reason_name(m->reason));
}

void rpcrdma_to_rpc(tvbuff_t *t, packet_info *pinfo, proto_tree *tree,
		    const struct rpcrdma_where *w)
{
	volatile guint32 srcport = pinfo->srcport, destport = pinfo->destport;
	guint32 conn = w->conn ? w->conn->id : 0;

	/* keep our summary in front of RPC's */
	col_append_str(pinfo->cinfo, COL_INFO, " ; ");
	col_set_fence(pinfo->cinfo, COL_INFO);
	/* InfiniBand/RoCE "ports" are the destination QP only, so RPC could
	 * not pair a reply with its call; while RPC runs both ports are the
	 * connection's number, the same in both directions, so that RPC pairs
	 * calls and replies per connection (XIDs of two connections between
	 * the same hosts may repeat).  The same for iWARP. */
	pinfo->srcport = pinfo->destport = conn;
	TRY {
		call_dissector(rpc_handle, t, pinfo, tree);
	}
	FINALLY {       /* restored even when RPC throws (malformed) */
		pinfo->srcport = srcport;
		pinfo->destport = destport;
	}
	ENDTRY;
}

uint32_t rpcrdma_requester(const struct rpcrdma_where *w,
			   const struct rpcrdma_msg *m)
{
	return rpcrdma_side_id(w, m->direction == RPCRDMA_REPLY ? 1u - w->dir
							      : w->dir);
}

/* The RPC message a MSG or NOMSG carries, rebuilt from its chunks where
 * needed; NULL when there is none to hand to RPC. */
static tvbuff_t *rpc_message(tvbuff_t *tvb, packet_info *pinfo, proto_tree *sub, const struct rpcrdma_msg *m,
			     tvbuff_t *p, const struct rpcrdma_where *w)
{
	uint32_t owner = rpcrdma_requester(w, m);
	bool is_msg = m->rdma_proc == RDMA_MSG;
	tvbuff_t *whole = NULL;

	rpcrdma_advertise_chunks(pinfo, m, owner);
	if (m->nwrites && m->direction == RPCRDMA_REPLY)
		rpcrdma_show_write_chunks(tvb, pinfo, sub, m, owner);
	if (m->nreads)
		whole = rpcrdma_rebuild_call(tvb, pinfo, sub, m,
					     is_msg ? p : NULL, w);
	else if (!is_msg && m->has_reply)
		whole = rpcrdma_rebuild_reply(tvb, pinfo, sub, m, owner);
	if (!whole && is_msg && p && m->has_rpc_xid)
		whole = p;
	if (!whole)
		return NULL;
	if (m->direction == RPCRDMA_REPLY)
		return rpcrdma_ddp_reply(tvb, pinfo, sub, owner, m, whole);
	rpcrdma_ddp_call(pinfo, owner, m, whole);
	return whole;
}

static void payload(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree,
		    proto_tree *sub, const struct rpcrdma_msg *m,
		    const struct rpcrdma_where *w)
{
	tvbuff_t *p = NULL, *whole;

	if (m->header_len && m->payload_len &&
	    m->header_len < tvb_captured_length(tvb))
		p = tvb_new_subset_remaining(tvb, (int)m->header_len);
	if ((m->rdma_vers == 1 || m->rdma_vers == 2) &&
	    (m->rdma_proc == RDMA_MSG || m->rdma_proc == RDMA_NOMSG) &&
	    !rpcrdma_v2_later_family(m)) {
		whole = rpc_message(tvb, pinfo, sub, m, p, w);
		if (whole) {
			rpcrdma_to_rpc(whole, pinfo, tree, w);
			return;
		}
	}
	if (p)
		call_data_dissector(p, pinfo, tree);
}

int rpcrdma_dissect_msg(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree,
			const struct rpcrdma_where *w,
			const struct rpcrdma_msg *decoded)
{
	struct rpcrdma_msg own;
	const struct rpcrdma_msg *m = decoded;  /* by rpcrdma_claims(), from
						 * these very bytes */
	proto_tree *sub;
	unsigned len;
	const uint8_t *buf = bytes_of(tvb, &len);
	bool back;

	if (!m) {
		rpcrdma_decode(buf, len, &own);
		m = &own;
	}
	back = backward(tvb, pinfo, m, w);
	columns(pinfo, m, len, back);
	rpcrdma_tree_header(tvb, pinfo, tree, m, &sub);
	proto_item_set_generated(proto_tree_add_boolean(sub, rpcrdma_hf.backward,
							tvb, 0, 0, back));
	if (rpcrdma_prefs.check_inline && m->nfixed >= 2)
		rpcrdma_expert_inline(pinfo, sub, tvb, m,
				      m->rdma_vers == 2 ? rpcrdma_prefs.v2_inline
						        : rpcrdma_prefs.v1_inline);
	if (back)
		rpcrdma_expert_backward_call(pinfo, sub, tvb, m);
	rpcrdma_tap_queue(pinfo, m, w, back);
	payload(tvb, pinfo, tree, sub, m, w);
	return (int)tvb_captured_length(tvb);
}

/* The Decode As entry: take every payload, whatever it looks like */
static int dissect_decode_as(tvbuff_t *tvb, packet_info *pinfo,
			     proto_tree *tree, void *data _U_)
{
	struct rpcrdma_where w;

	rpcrdma_where(pinfo, false, &w);
	return rpcrdma_dissect_msg(tvb, pinfo, tree, &w, NULL);
}

void rpcrdma_dissect_register(void)
{
	known_peers = wmem_map_new_autoreset(wmem_epan_scope(),
		wmem_file_scope(), g_direct_hash, g_direct_equal);
	rpcrdma_handle = register_dissector("rpcrdma", dissect_decode_as,
					    proto_rpcrdma);
}

void rpcrdma_dissect_handoff(void)
{
	rpc_handle = find_dissector_add_dependency("rpc", proto_rpcrdma);
	dissector_add_for_decode_as("infiniband", rpcrdma_handle);
}
