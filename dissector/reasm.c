/* reasm.c - per-capture store of RDMA-moved bytes, and rebuilding a chunk's data from it. */
#include "rpcrdma_plugin.h"
#include "reasm.h"

#include <string.h>

/* Never rebuild more than this (a corrupted segment length can say 4 GiB) */
#define REASM_MAX (64u * 1024u * 1024u)

struct piece {
	uint64_t offset;
	uint32_t len;
	uint32_t frame;
	const uint8_t *data;       /* file scope copy */
	struct piece *next;        /* same handle, newest first */
};

/* handle -> newest piece; per-capture, emptied when the capture closes */
static wmem_map_t *pieces_by_handle;
/* 64-bit flow keys -> pending transfers (ib.c, iwarp.c) */
static wmem_map_t *pending;

void rpcrdma_reasm_init(void)
{
	pieces_by_handle = wmem_map_new_autoreset(wmem_epan_scope(),
		wmem_file_scope(), g_direct_hash, g_direct_equal);
	pending = wmem_map_new_autoreset(wmem_epan_scope(), wmem_file_scope(),
		g_int64_hash, g_int64_equal);
}

uint64_t rpcrdma_flow_key(const address *peer, uint32_t seq)
{
	uint32_t h = add_address_to_hash(0, peer);

	return ((uint64_t)h << 32) | seq;
}

void *rpcrdma_pending_take(uint64_t key)
{
	return wmem_map_remove(pending, &key);
}

void rpcrdma_pending_put(uint64_t key, void *val)
{
	uint64_t *k = wmem_new(wmem_file_scope(), uint64_t);

	*k = key;
	wmem_map_insert(pending, k, val);
}

void *rpcrdma_pending_peek(uint64_t key)
{
	return wmem_map_lookup(pending, &key);
}

void rpcrdma_reasm_add(packet_info *pinfo, tvbuff_t *tvb,
		       const struct rpcrdma_rdma_io *io)
{
	struct piece *p;
	unsigned len = tvb_captured_length(tvb);

	if (PINFO_FD_VISITED(pinfo) || !len)
		return;
	p = wmem_new(wmem_file_scope(), struct piece);
	p->offset = io->offset;
	p->len = len;
	p->frame = pinfo->num;
	p->data = (const uint8_t *)tvb_memdup(wmem_file_scope(), tvb, 0, len);
	p->next = wmem_map_lookup(pieces_by_handle, GUINT_TO_POINTER(io->handle));
	wmem_map_insert(pieces_by_handle, GUINT_TO_POINTER(io->handle), p);
}

/* Copy what pieces of `seg` hold into dst; mark covered bytes.  Returns the
 * number of newly covered bytes; records contributing frames. */
static uint32_t fill(const struct rpcrdma_segment *seg, uint8_t *dst,
		     uint8_t *covered, uint32_t upto, wmem_map_t *frames)
{
	const struct piece *p;
	uint32_t got = 0;

	p = wmem_map_lookup(pieces_by_handle, GUINT_TO_POINTER(seg->rdma_handle));
	for (; p; p = p->next) {
		uint64_t lo, hi, i;

		if (upto && p->frame > upto)
			continue;
		lo = MAX(p->offset, seg->rdma_offset);
		hi = MIN(p->offset + p->len,
			 seg->rdma_offset + (uint64_t)seg->rdma_length);
		if (p->offset + p->len < p->offset || lo >= hi)
			continue;
		memcpy(dst + (lo - seg->rdma_offset), p->data + (lo - p->offset),
		       (size_t)(hi - lo));
		for (i = lo - seg->rdma_offset; i < hi - seg->rdma_offset; i++) {
			if (!covered[i]) {
				covered[i] = 1;
				got++;
			}
		}
		wmem_map_insert(frames, GUINT_TO_POINTER(p->frame),
				GUINT_TO_POINTER(1));
	}
	return got;
}

static void list_frame(gpointer key, gpointer val _U_, gpointer user)
{
	uint32_t f = GPOINTER_TO_UINT(key);

	wmem_array_append((wmem_array_t *)user, &f, 1);
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

tvbuff_t *rpcrdma_reasm_chunk(tvbuff_t *parent, packet_info *pinfo,
			      const struct rpcrdma_segment *segs,
			      uint32_t nsegs, uint32_t upto, proto_tree *tree)
{
	uint64_t total = 0;
	uint32_t i, off = 0;
	uint8_t *buf, *covered;
	wmem_map_t *frames;
	wmem_array_t *list;
	tvbuff_t *tvb;
	bool complete = true;

	if (!pieces_by_handle || !nsegs)
		return NULL;
	for (i = 0; i < nsegs; i++)
		total += segs[i].rdma_length;
	if (total == 0 || total > REASM_MAX)
		return NULL;
	/* cheap test first: does the capture hold anything for each handle? */
	for (i = 0; i < nsegs; i++)
		if (segs[i].rdma_length &&
		    !wmem_map_lookup(pieces_by_handle,
				     GUINT_TO_POINTER(segs[i].rdma_handle)))
			return NULL;
	buf = wmem_alloc0(pinfo->pool, (size_t)total);
	covered = wmem_alloc0(pinfo->pool, (size_t)total);
	frames = wmem_map_new(pinfo->pool, g_direct_hash, g_direct_equal);
	for (i = 0; i < nsegs; i++) {
		if (fill(&segs[i], buf + off, covered + off, upto, frames) !=
		    segs[i].rdma_length)
			complete = false;
		off += segs[i].rdma_length;
	}
	if (!complete)
		return NULL;
	tvb = tvb_new_child_real_data(parent, buf, (unsigned)total, (int)total);
	if (tree) {
		guint n;
		list = wmem_array_new(pinfo->pool, sizeof(uint32_t));
		wmem_map_foreach(frames, list_frame, list);
		wmem_array_sort(list, cmp_u32);
		for (n = 0; n < wmem_array_get_count(list); n++) {
			uint32_t f = *(uint32_t *)wmem_array_index(list, n);
			proto_item *it = proto_tree_add_uint(tree,
				rpcrdma_hf.chunk_frames, parent, 0, 0, f);
			proto_item_set_generated(it);
		}
	}
	return tvb;
}
