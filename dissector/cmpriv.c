/* cmpriv.c - connection parameters (RFC 8797 connection private data) as a subtree of the private data of a CM REQ/REP (RoCE, IB) or an MPA Request/Reply (iWARP). */
/*
 * Neither carrier gives a ULP a say in 4.0: the InfiniBand dissector's
 * "infiniband.mad.cm.private" heuristics get only the CM half, and MPA
 * (packet-iwarp-mpa.c) shows its private data as bytes.  So a
 * postdissector looks for those bytes fields, decodes them with the codec
 * (rpcrdma_cm_private_decode) and hangs the parameters under the field's
 * own item: rpcrdma.cm.*.  Where the consumer's data starts, as
 * rpcrdma-decode takes it (tools/capture/cap_cm.c, cap_iwarp.c): the CM REQ
 * after rdma_cm's IP header (the ip_cm field), the REP at its start, MPA
 * revision 2 after RFC 6581's 4-byte IRD/ORD.
 *
 * The carriers are not declared as the postdissector's wanted hfids: tshark
 * and the GUI build a protocol tree for every packet as soon as any
 * postdissector wants a field (tshark.c: postdissectors_want_hfids()), which
 * cost every frame of every capture about a quarter more CPU (issue 27).
 * Without a tree there is nothing to hang the subtree on, so the carriers
 * are made "interesting" ourselves instead: primed when a capture file
 * starts, and again after each packet whose dissection built a tree (its
 * reset clears the mark of the fields it held), so that a tree that is
 * built but not shown (-Y, -T fields, the GUI's filters) still holds them.
 */
#include "rpcrdma_plugin.h"

#include <epan/epan_dissect.h>
#include <wsutil/wmem/wmem_user_cb.h>


static int hf_cm = -1, hf_magic = -1, hf_version = -1, hf_flags = -1;
static int hf_rinv = -1, hf_send = -1, hf_recv = -1;
static int ett_cm = -1;
static dissector_handle_t post_handle;

/* the bytes fields that hold a connection's private data */
static const char *const carriers[] = {
	"infiniband.cm.req.ip_cm.private",   /* after rdma_cm's IP header */
	"infiniband.cm.req.private",
	"infiniband.cm.rep.private",
	"iwarp_mpa.privatedata",
};
#define NCARRIERS (sizeof(carriers) / sizeof(carriers[0]))
static int carrier_hf[NCARRIERS];
#define MPA_CARRIER (NCARRIERS - 1)
#define MPA_REV_BACK 3   /* Rev: 3 bytes before the private data (RFC 5044 7.1) */
#define MPA_IRD_ORD 4    /* RFC 6581 3: IRD/ORD first in revision 2 */

/* the carrier items of a frame */
#define MAX_HITS 8
struct hits {
	proto_node *node[MAX_HITS];
	bool mpa[MAX_HITS];
	unsigned n;
};

static void collect(proto_node *node, gpointer data)
{
	struct hits *h = data;
	const field_info *fi = PNODE_FINFO(node);

	for (size_t i = 0; fi && fi->hfinfo && i < NCARRIERS; i++) {
		if (carrier_hf[i] > 0 && fi->hfinfo->id == carrier_hf[i] &&
		    h->n < MAX_HITS) {
			h->node[h->n] = node;
			h->mpa[h->n++] = i == MPA_CARRIER;
		}
	}
	proto_tree_children_foreach(node, collect, data);
}

/* one carrier item: the parameters under it */
static void show(packet_info *pinfo, proto_node *node, bool mpa)
{
	const field_info *fi = PNODE_FINFO(node);
	tvbuff_t *tvb = fi->ds_tvb;
	int off = fi->start, len = fi->length;
	uint8_t b[RPCRDMA_CM_PRIVATE_SIZE];
	struct rpcrdma_cm_private p;
	proto_tree *sub;
	proto_item *ti;

	if (!tvb || off < 0 || len <= 0 ||
	    tvb_captured_length_remaining(tvb, off) < len)
		return;
	if (mpa && off >= MPA_REV_BACK &&
	    rpcrdma_tvb_get_u8(tvb, off - MPA_REV_BACK) == 2 && len >= MPA_IRD_ORD) {
		off += MPA_IRD_ORD;
		len -= MPA_IRD_ORD;
	}
	if (len < (int)RPCRDMA_CM_PRIVATE_SIZE)
		return;
	tvb_memcpy(tvb, b, off, sizeof(b));
	enum rpcrdma_cm_result r = rpcrdma_cm_private_decode(b, sizeof(b), &p);
	if (r == RPCRDMA_CM_ABSENT)
		return;

	ti = proto_tree_add_item(proto_item_add_subtree(node, ett_cm), hf_cm,
				 tvb, off, RPCRDMA_CM_PRIVATE_SIZE, ENC_NA);
	sub = proto_item_add_subtree(ti, ett_cm);
	proto_tree_add_item(sub, hf_magic, tvb, off, 4, ENC_BIG_ENDIAN);
	proto_tree_add_item(sub, hf_version, tvb, off + 4, 1, ENC_BIG_ENDIAN);
	if (r != RPCRDMA_CM_OK) {
		proto_item_append_text(ti, ": version %u unknown, ignored (the version's default inline sizes apply)",
				       b[4]);
		return;
	}
	static int *const flags[] = { &hf_rinv, NULL };
	proto_tree_add_bitmask(sub, tvb, off + 5, hf_flags, ett_cm, flags,
			       ENC_BIG_ENDIAN);
	proto_tree_add_uint_format_value(sub, hf_send, tvb, off + 6, 1,
					 p.max_send_size, "%u bytes",
					 p.max_send_size);
	proto_tree_add_uint_format_value(sub, hf_recv, tvb, off + 7, 1,
					 p.max_recv_size, "%u bytes",
					 p.max_recv_size);
	proto_item_append_text(ti, ": send %u, receive %u%s", p.max_send_size,
			       p.max_recv_size,
			       p.pd_flags & RPCRDMA_CM_FLAG_REMOTE_INVALIDATE ?
			       ", remote invalidation" : "");
	col_append_fstr(pinfo->cinfo, COL_INFO,
			" (RPC-over-RDMA send %u, receive %u)",
			p.max_send_size, p.max_recv_size);
}

/* The CM fields are found through the tree's index of wanted fields; the
 * MPA Reply's are not always in it (4.0, second pass), so an iWARP frame's
 * tree is searched: a few dozen items */
/* Mark the carriers as referenced, so that a tree that is not shown keeps
 * them (what tshark does with a postdissector's wanted hfids, without its
 * building a tree for every packet).  4.0 exports the priming only through
 * epan_dissect_prime_with_hfid(), which ignores the tree (proto.h). */
static void prime_carriers(void)
{
	static epan_dissect_t none;

	for (size_t i = 0; i < NCARRIERS; i++)
		if (carrier_hf[i] > 0)
			epan_dissect_prime_with_hfid(&none, carrier_hf[i]);
}

/* The packet pools we re-prime after: a tree's reset unmarks the fields
 * it held, and the reset comes before the pool is freed */
static GHashTable *pools;

static rpcrdma_ws_bool pool_freed(wmem_allocator_t *pool, wmem_cb_event_t ev,
			   void *data _U_)
{
	if (ev == WMEM_CB_DESTROY_EVENT) {
		g_hash_table_remove(pools, pool);
		return FALSE;
	}
	prime_carriers();
	return TRUE;
}

static void watch_pool(wmem_allocator_t *pool)
{
	if (!pool || g_hash_table_contains(pools, pool))
		return;
	g_hash_table_add(pools, pool);
	wmem_register_callback(pool, pool_freed, NULL);
}

static int dissect_post(tvbuff_t *tvb _U_, packet_info *pinfo,
			proto_tree *tree, void *data _U_)
{
	struct hits h = { .n = 0 };
	bool look;

	/* the handle names no protocol (see rpcrdma_cmpriv_register), so
	 * "rpcrdma" disabled is checked here */
	if (!tree || !proto_is_protocol_enabled(find_protocol_by_id(proto_rpcrdma)))
		return 0;
	watch_pool(pinfo->pool);
	look = proto_is_frame_protocol(pinfo->layers, "iwarp_mpa");
	for (size_t i = 0; !look && i < MPA_CARRIER; i++) {
		GPtrArray *a = carrier_hf[i] > 0 ?
			proto_get_finfo_ptr_array(tree, carrier_hf[i]) : NULL;

		look = a && a->len;
	}
	if (!look)
		return 0;
	proto_tree_children_foreach(tree, collect, &h);
	for (unsigned k = 0; k < h.n; k++)
		show(pinfo, h.node[k], h.mpa[k]);
	return 0;
}

void rpcrdma_cmpriv_register(void)
{
	static hf_register_info hf[] = {
		{ &hf_cm, { "RPC-over-RDMA connection parameters", "rpcrdma.cm",
			    FT_NONE, BASE_NONE, NULL, 0x0,
			    "RFC 8797 connection private data", HFILL } },
		{ &hf_magic, { "Format identifier", "rpcrdma.cm.magic",
			       FT_UINT32, BASE_HEX, NULL, 0x0,
			       "0xf6ab0e18 (RFC 8797)", HFILL } },
		{ &hf_version, { "Version", "rpcrdma.cm.version", FT_UINT8,
				 BASE_DEC, NULL, 0x0,
				 "Private data format version (1)", HFILL } },
		{ &hf_flags, { "Flags", "rpcrdma.cm.flags", FT_UINT8, BASE_HEX,
			       NULL, 0x0, NULL, HFILL } },
		{ &hf_rinv, { "Remote invalidation", "rpcrdma.cm.remote_invalidate",
			      FT_BOOLEAN, 8, NULL,
			      RPCRDMA_CM_FLAG_REMOTE_INVALIDATE,
			      "The sender accepts Send With Invalidate", HFILL } },
		{ &hf_send, { "Send size", "rpcrdma.cm.send_size", FT_UINT32,
			      BASE_DEC, NULL, 0x0,
			      "Largest Send the sender will post (bytes)", HFILL } },
		{ &hf_recv, { "Receive size", "rpcrdma.cm.recv_size", FT_UINT32,
			      BASE_DEC, NULL, 0x0,
			      "Size of the sender's Receive buffers (bytes): its inline threshold for what it receives",
			      HFILL } },
	};
	static int *ett[] = { &ett_cm };

	proto_register_field_array(proto_rpcrdma, hf, array_length(hf));
	proto_register_subtree_array(ett, array_length(ett));
	/* A postdissector runs for every frame of every capture, with a tree
	 * or without.  Its handle names no protocol: Wireshark 4.0 then calls
	 * it without the per-call protocol work (enabled check, layer and
	 * depth records, its name set as the current protocol), about 540 of
	 * the 730 instructions a frame that calling it cost, most of what the
	 * plugin added per frame with NFS disabled (issue 27).  dissect_post()
	 * returns at once without a tree, and checks that rpcrdma is enabled. */
	post_handle = create_dissector_handle(dissect_post, -1);
	register_postdissector(post_handle);
	pools = g_hash_table_new(g_direct_hash, g_direct_equal);
	register_init_routine(prime_carriers);
}

/* the carriers' fields exist once every built-in registered */
void rpcrdma_cmpriv_handoff(void)
{
	for (size_t i = 0; i < NCARRIERS; i++)
		carrier_hf[i] = proto_registrar_get_id_byname(carriers[i]);
}
