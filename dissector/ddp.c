/* ddp.c - reply data moved in Write chunks put back into the RPC reply (V1 4.4.6, RFC 8267), in one pass and in two. */
#include "rpcrdma_plugin.h"
#include "reasm.h"

#include <string.h>
#include <rpcrdma/nfs_ddp.h>
#include <rpcrdma/rpc.h>

/*
 * A responder that reduces a DDP-eligible result (NFS READ data, READLINK
 * path) RDMA-Writes its bytes into the requester's Write chunk and Sends a
 * reply whose Payload stream keeps only the item's length word.  The Writes
 * come before the reply and the call that advertised the chunk before them,
 * so the bytes are at hand when the reply is dissected, even in one pass:
 *
 *   call (first pass): its program, version and procedure are kept under
 *     its XID until the reply, for calls that carry a Write list;
 *   RDMA Writes: their bytes are kept (reasm.c) only for Write chunks a
 *     call advertised, within the rpcrdma.chunk_memory limit;
 *   reply: libcodec's rpcrdma_ddp_locate_reply() (RFC 8267) says where
 *     each used Write chunk's item belongs; the item's bytes are copied out
 *     once, the Write pieces and the call record are freed, and every pass
 *     rebuilds the reply from the frame's own reduced stream and the copy.
 *
 * Where the position is not certain (unknown procedure or NFSv4 operation,
 * a length word that disagrees with the chunk) the reply is not handed to
 * RPC, whose decoder would read the next items from the wrong place; an
 * expert info says why.
 */

/* Never rebuild a reply longer than this (lengths come from the wire) */
#define DDP_REPLY_MAX (64u * 1024u * 1024u)
#define MAX_SEGS 64u

struct ddp_call {
	uint32_t prog, vers, proc;
	uint32_t frame;
};

struct ddp_item {
	uint32_t off, len, chunk;
	uint8_t *data;            /* rpcrdma_big_alloc; NULL: not kept (memory limit) */
	uint64_t got;             /* bytes the capture held */
	bool dropped;             /* some were seen but not kept */
};

struct ddp_done {                 /* per reply frame, file scope */
	enum rpcrdma_ddp_result res;
	uint32_t fault_off;       /* into the reduced stream */
	uint32_t call_frame;      /* 0: the call was not seen */
	uint32_t nitems;
	struct ddp_item items[RPCRDMA_DDP_MAX_ITEMS];
};

static wmem_map_t *calls;         /* RPCRDMA_KEY(requester, xid) -> ddp_call */

static expert_field ei_unplaced = EI_INIT;
static expert_field ei_no_call = EI_INIT;
static expert_field ei_not_kept = EI_INIT;
static expert_field ei_not_captured = EI_INIT;

void rpcrdma_ddp_register(void)
{
	static ei_register_info ei[] = {
		{ &ei_unplaced, { "rpcrdma.expert.ddp_unplaced", PI_REASSEMBLE,
		  PI_WARN, "Write chunk data cannot be put back", EXPFILL } },
		{ &ei_no_call, { "rpcrdma.expert.ddp_no_call", PI_REASSEMBLE,
		  PI_NOTE, "Call of a reply with Write chunk data not in the "
		  "capture", EXPFILL } },
		{ &ei_not_kept, { "rpcrdma.expert.chunk_not_kept", PI_REASSEMBLE,
		  PI_WARN, "Chunk data over the memory limit", EXPFILL } },
		{ &ei_not_captured, { "rpcrdma.expert.write_chunk_not_captured",
		  PI_REASSEMBLE, PI_NOTE,
		  "Write chunk data not in the capture", EXPFILL } },
	};

	expert_register_field_array(expert_register_protocol(proto_rpcrdma),
				    ei, array_length(ei));
	calls = wmem_map_new_autoreset(wmem_epan_scope(), wmem_file_scope(),
				       g_int64_hash, g_int64_equal);
}

static bool rpc_header(tvbuff_t *t, struct rpc_msg_hdr *h)
{
	unsigned len = MIN(tvb_captured_length(t), 2048u);

	return len && rpc_decode_header(tvb_get_ptr(t, 0, (int)len), len, h) ==
		      RPC_OK;
}

void rpcrdma_ddp_call(packet_info *pinfo, uint32_t requester,
		      const struct rpcrdma_msg *m, tvbuff_t *call)
{
	struct rpc_msg_hdr h;
	struct ddp_call *c;
	uint64_t *k;

	if (PINFO_FD_VISITED(pinfo) || !rpcrdma_prefs.reassemble ||
	    !m->nwrites || !requester || !rpc_header(call, &h) ||
	    h.msg_type != RPC_CALL)
		return;
	c = wmem_new(wmem_file_scope(), struct ddp_call);
	c->prog = h.prog;
	c->vers = h.vers;
	c->proc = h.proc;
	c->frame = pinfo->num;
	k = wmem_new(wmem_file_scope(), uint64_t);
	*k = RPCRDMA_KEY(requester, h.xid);
	wmem_map_insert(calls, k, c);
}

/* The reply's Write chunks: what each holds, and its segments */
struct wlist {
	uint32_t n;
	uint32_t written[RPCRDMA_DDP_MAX_ITEMS];
	uint32_t first[RPCRDMA_DDP_MAX_ITEMS], nsegs[RPCRDMA_DDP_MAX_ITEMS];
	struct rpcrdma_segment segs[MAX_SEGS];
	uint32_t nall;
};

static bool write_list(const struct rpcrdma_msg *m, struct wlist *wl)
{
	struct rpcrdma_chunk_iter ci;
	struct rpcrdma_seg_iter si;
	struct rpcrdma_segment s;

	memset(wl, 0, sizeof(*wl));
	rpcrdma_write_iter_init(m, &ci);
	while (rpcrdma_write_next(&ci, &si)) {
		uint64_t sum = 0;

		if (wl->n >= RPCRDMA_DDP_MAX_ITEMS ||
		    si.nsegs > MAX_SEGS - wl->nall)
			return false;
		wl->first[wl->n] = wl->nall;
		wl->nsegs[wl->n] = si.nsegs;
		while (rpcrdma_seg_next(&si, &s)) {
			wl->segs[wl->nall++] = s;
			sum += s.rdma_length;
		}
		wl->written[wl->n++] = sum > UINT32_MAX ? UINT32_MAX : (uint32_t)sum;
	}
	return true;
}

static bool any_written(const struct wlist *wl)
{
	uint32_t k;

	for (k = 0; k < wl->n; k++)
		if (wl->written[k])
			return true;
	return false;
}

/* First pass: locate the items, copy their bytes out, free the rest */
static struct ddp_done *first_pass(packet_info *pinfo, uint32_t requester,
				   const struct wlist *wl, tvbuff_t *reply)
{
	struct ddp_done *d = wmem_new0(wmem_file_scope(), struct ddp_done);
	struct rpcrdma_ddp_reply r;
	struct rpc_msg_hdr h;
	struct ddp_call *c = NULL;
	uint64_t k, total;
	unsigned len = tvb_captured_length(reply);
	uint32_t i;

	if (rpc_header(reply, &h)) {
		k = RPCRDMA_KEY(requester, h.xid);
		c = wmem_map_remove(calls, &k);
	}
	if (!c) {
		d->res = RPCRDMA_DDP_UNKNOWN;
		return d;
	}
	d->call_frame = c->frame;
	memset(&r, 0, sizeof(r));
	r.prog = c->prog;
	r.vers = c->vers;
	r.proc = c->proc;
	r.written = wl->written;
	r.nchunks = wl->n;
	wmem_free(wmem_file_scope(), c);
	d->res = rpcrdma_ddp_locate_reply(tvb_get_ptr(reply, 0, (int)len), len, &r);
	d->fault_off = r.fault_off;
	total = len;
	for (i = 0; i < r.nitems; i++)
		total += (r.items[i].len + 3ull) & ~3ull;
	if (d->res == RPCRDMA_DDP_OK && total > DDP_REPLY_MAX) {
		d->res = RPCRDMA_DDP_UNKNOWN;
		d->fault_off = len;
	}
	if (d->res == RPCRDMA_DDP_OK) {
		for (i = 0; i < r.nitems; i++) {
			struct ddp_item *it = &d->items[i];
			uint32_t ch = r.items[i].chunk;

			it->off = r.items[i].off;
			it->len = r.items[i].len;
			it->chunk = ch;
			if (!rpcrdma_reasm_hold(it->len)) {
				it->dropped = true;
				continue;
			}
			it->data = rpcrdma_big_alloc(it->len, true);
			it->got = rpcrdma_reasm_copy(pinfo, requester,
				wl->segs + wl->first[ch], wl->nsegs[ch], pinfo->num,
				it->data, &it->dropped);
		}
		d->nitems = r.nitems;
	}
	/* the reply is done: the Writes' own copies go */
	rpcrdma_reasm_release(requester, wl->segs, wl->nall);
	return d;
}

static void show(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree,
		 const struct ddp_done *d, tvbuff_t *reply, unsigned newlen)
{
	proto_item *top;
	proto_tree *t;
	uint32_t i;

	top = proto_tree_add_item(tree, rpcrdma_hf.reasm_from, tvb, 0, 0, ENC_NA);
	proto_item_set_generated(top);
	t = proto_item_add_subtree(top, rpcrdma_ett.reasm);
	if (d->call_frame == 0) {
		proto_item_set_text(top, "RPC reply: Write chunk data not put back");
		proto_tree_add_expert_format(t, pinfo, &ei_no_call, tvb, 0, 0,
			"ddp_no_call: the call is not in the capture, so which "
			"result the Write chunks hold is not known [V1 4.4.6, "
			"RFC 8267]");
		return;
	}
	if (d->res != RPCRDMA_DDP_OK) {
		proto_item_set_text(top, "RPC reply: Write chunk data not put back");
		proto_tree_add_expert_format(t, pinfo, &ei_unplaced, reply,
			(int)MIN(d->fault_off, tvb_captured_length(reply)), 0,
			"ddp_unplaced: Write chunk data cannot be put back: %s "
			"(call in frame %u, byte %u of the reply); the reply is "
			"not handed to RPC [V1 4.4.6, RFC 8267]",
			rpcrdma_ddp_result_text(d->res),
			d->call_frame, d->fault_off);
		return;
	}
	proto_item_set_text(top, "RPC reply with its Write chunk data put back: "
			    "%u bytes (call in frame %u)", newlen, d->call_frame);
	proto_item_set_generated(proto_tree_add_uint(t, rpcrdma_hf.reasm_len,
						     tvb, 0, 0, newlen));
	for (i = 0; i < d->nitems; i++) {
		const struct ddp_item *it = &d->items[i];

		proto_tree_add_none_format(t, rpcrdma_hf.reasm_from, tvb, 0, 0,
			"Write chunk %u: %u bytes at byte %u of the reply",
			it->chunk, it->len, it->off);
		if (!it->data || it->dropped)
			proto_tree_add_expert_format(t, pinfo, &ei_not_kept, tvb,
				0, 0, "chunk_not_kept: Write chunk %u: %u bytes "
				"not kept, the rpcrdma.chunk_memory_mb limit "
				"(%u MiB) was reached; zero-filled", it->chunk,
				it->len,
				rpcrdma_prefs.chunk_memory_mb);
		else if (it->got < it->len)
			proto_tree_add_expert_format(t, pinfo, &ei_not_captured,
				tvb, 0, 0, "write_chunk_not_captured: Write chunk "
				"%u: %" PRIu64 " of %u bytes in the capture; the "
				"rest zero-filled [V1 4.4.6]",
				it->chunk, it->got, it->len);
	}
}

tvbuff_t *rpcrdma_ddp_reply(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree,
			    uint32_t requester, const struct rpcrdma_msg *m,
			    tvbuff_t *reply)
{
	struct ddp_done *d;
	struct wlist wl;
	unsigned len = tvb_captured_length(reply), newlen, at = 0, out = 0;
	uint32_t i;
	uint8_t *buf;
	tvbuff_t *t;

	if (!rpcrdma_prefs.reassemble || !m->nwrites || !len)
		return reply;
	d = p_get_proto_data(wmem_file_scope(), pinfo, proto_rpcrdma,
			     rpcrdma_key(KEY_DDP, tvb));
	if (!d) {
		if (PINFO_FD_VISITED(pinfo) || !write_list(m, &wl) ||
		    !any_written(&wl))
			return reply;
		d = first_pass(pinfo, requester, &wl, reply);
		p_add_proto_data(wmem_file_scope(), pinfo, proto_rpcrdma,
				 rpcrdma_key(KEY_DDP, tvb), d);
	}
	newlen = len;
	for (i = 0; i < d->nitems; i++)
		newlen += (d->items[i].len + 3u) & ~3u;
	show(tvb, pinfo, tree, d, reply, newlen);
	if (d->call_frame == 0)
		return reply;          /* RPC cannot decode it without the call */
	if (d->res != RPCRDMA_DDP_OK)
		return NULL;
	buf = wmem_alloc(pinfo->pool, newlen);   /* every byte written below */
	for (i = 0; i < d->nitems; i++) {
		const struct ddp_item *it = &d->items[i];
		unsigned padded = (it->len + 3u) & ~3u;

		tvb_memcpy(reply, buf + out, (int)at, it->off - at);
		out += it->off - at;
		at = it->off;
		if (it->data) {
			memcpy(buf + out, it->data, it->len);
			memset(buf + out + it->len, 0, padded - it->len);
		} else {
			memset(buf + out, 0, padded);   /* not kept: zeros */
		}
		out += padded;                   /* XDR padding: zeros */
	}
	tvb_memcpy(reply, buf + out, (int)at, len - at);
	t = tvb_new_child_real_data(tvb, buf, newlen, (int)newlen);
	add_new_data_source(pinfo, t, "RPC reply with Write chunk data");
	return t;
}
