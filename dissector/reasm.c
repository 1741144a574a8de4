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
	uint8_t *data;             /* rpcrdma_big_alloc copy; NULL: not kept */
	bool dropped;              /* not kept: the memory limit was reached */
	struct piece *next;        /* same handle, newest first */
};

/* Keys are RPCRDMA_KEY(owner side, handle): a handle names memory of one
 * side of one connection, so two connections never share chunk data. */
static wmem_map_t *pieces;       /* key -> newest piece */
static wmem_map_t *advertised;   /* key -> enum rpcrdma_chunk_kind */
static wmem_map_t *pending[PEND_COUNT_];  /* ib.c, iwarp.c */
static wmem_map_t *waiting;      /* key of a Position Zero segment -> Long Call */
static uint64_t held;            /* bytes kept, against the memory limit */

static wmem_map_t *map64(void)
{
	return wmem_map_new_autoreset(wmem_epan_scope(), wmem_file_scope(),
				      g_int64_hash, g_int64_equal);
}

static uint64_t *key_new(uint64_t k)
{
	uint64_t *p = wmem_new(wmem_file_scope(), uint64_t);

	*p = k;
	return p;
}

static void reset(void)
{
	held = 0;
}

/*
 * Chunk bytes (RDMA Write and Read Response payloads, the DDP items put
 * back into replies) are kept outside wmem's file scope, all freed when the
 * capture is closed.  Issue 27: kept in the file scope, the pieces freed
 * when their reply was done left wmem's block allocator recycling scattered
 * chunks for every later small allocation of the capture (Wireshark's own
 * too); with malloc, glibc's _int_malloc sorted its bins on every buffer of
 * this size.  Here: buffers in power-of-two sizes (256 bytes to 64 KiB)
 * carved from 1 MiB slabs, a freed one kept on its size's list for the
 * next (the freed Write pieces of a reply are the next Writes' pieces);
 * larger ones malloc'd on their own and linked for the close.
 */
#define BIG_SLAB (1u << 20)
#define BIG_MIN_SHIFT 8u
#define BIG_MAX_SHIFT 16u
#ifdef __SANITIZE_ADDRESS__       /* each its own malloc: ASan sees overruns */
#define BIG_ALONE(n) ((void)(n), 1)
#else
#define BIG_ALONE(n) ((n) > (1u << BIG_MAX_SHIFT))
#endif

struct big_free { struct big_free *next; };
struct big_slab { struct big_slab *next; };
struct big_large { struct big_large *prev, *next; };

static struct big_free *big_lists[BIG_MAX_SHIFT + 1];
static struct big_slab *big_slabs;
static size_t big_used = BIG_SLAB;        /* in the newest slab */
static struct big_large big_large = { &big_large, &big_large };

static unsigned big_shift(size_t n)
{
	unsigned s = BIG_MIN_SHIFT;

	while (((size_t)1 << s) < n)
		s++;
	return s;
}

void *rpcrdma_big_alloc(size_t n, bool zero)
{
	void *p;

	if (BIG_ALONE(n)) {
		struct big_large *l = g_malloc(sizeof *l + n);

		l->next = big_large.next;
		l->prev = &big_large;
		big_large.next->prev = l;
		big_large.next = l;
		p = l + 1;
	} else {
		unsigned s = big_shift(n);
		size_t sz = (size_t)1 << s;

		if (big_lists[s]) {
			p = big_lists[s];
			big_lists[s] = big_lists[s]->next;
		} else {
			if (big_used + sz > BIG_SLAB) {
				struct big_slab *sl = g_malloc(BIG_SLAB);

				sl->next = big_slabs;
				big_slabs = sl;
				big_used = 64;   /* past the link, aligned */
			}
			p = (uint8_t *)big_slabs + big_used;
			big_used += sz;
		}
	}
	if (zero)
		memset(p, 0, n);
	return p;
}

/* n: the size it was allocated with */
void rpcrdma_big_free(void *p, size_t n)
{
	if (!p)
		return;
	if (BIG_ALONE(n)) {
		struct big_large *l = (struct big_large *)p - 1;

		l->prev->next = l->next;
		l->next->prev = l->prev;
		g_free(l);
	} else {
		unsigned s = big_shift(n);
		struct big_free *f = p;

		f->next = big_lists[s];
		big_lists[s] = f;
	}
}

static void big_free_all(void)
{
	while (big_large.next != &big_large) {
		struct big_large *l = big_large.next;

		big_large.next = l->next;
		g_free(l);
	}
	big_large.prev = &big_large;
	while (big_slabs) {
		struct big_slab *sl = big_slabs;

		big_slabs = sl->next;
		g_free(sl);
	}
	big_used = BIG_SLAB;
	memset(big_lists, 0, sizeof big_lists);
}

void rpcrdma_reasm_init(void)
{
	int i;

	pieces = map64();
	advertised = map64();
	waiting = map64();
	for (i = 0; i < PEND_COUNT_; i++)
		pending[i] = map64();
	register_init_routine(reset);
	register_cleanup_routine(big_free_all);
}

bool rpcrdma_reasm_hold(uint64_t n)
{
	uint64_t cap = (uint64_t)rpcrdma_prefs.chunk_memory_mb << 20;

	if (n > cap || held > cap - n)
		return false;
	held += n;
	return true;
}

void rpcrdma_reasm_unhold(uint64_t n)
{
	held = n > held ? 0 : held - n;
}

void rpcrdma_reasm_wait(packet_info *pinfo, tvbuff_t *hdr,
			const struct rpcrdma_where *where, uint32_t owner,
			const struct rpcrdma_segment *segs, uint32_t nsegs)
{
	struct rpcrdma_waiting *w;
	unsigned len = tvb_captured_length(hdr);
	uint32_t i;

	if (PINFO_FD_VISITED(pinfo) || !nsegs)
		return;
	w = wmem_new0(wmem_file_scope(), struct rpcrdma_waiting);
	w->msg = (const uint8_t *)tvb_memdup(wmem_file_scope(), hdr, 0, len);
	w->len = len;
	w->frame = pinfo->num;
	w->owner = owner;
	w->where = *where;
	w->segs = (struct rpcrdma_segment *)wmem_memdup(wmem_file_scope(), segs,
		nsegs * sizeof *segs);
	w->nsegs = nsegs;
	for (i = 0; i < nsegs; i++)
		wmem_map_insert(waiting,
				key_new(RPCRDMA_KEY(owner, segs[i].rdma_handle)), w);
}

struct rpcrdma_waiting *rpcrdma_reasm_waiting(uint32_t owner, uint32_t handle)
{
	uint64_t k = RPCRDMA_KEY(owner, handle);

	return wmem_map_lookup(waiting, &k);
}

void *rpcrdma_pending_take(enum rpcrdma_pend kind, uint64_t key)
{
	return wmem_map_remove(pending[kind], &key);
}

void rpcrdma_pending_put(enum rpcrdma_pend kind, uint64_t key, void *val)
{
	wmem_map_insert(pending[kind], key_new(key), val);
}

void *rpcrdma_pending_peek(enum rpcrdma_pend kind, uint64_t key)
{
	return wmem_map_lookup(pending[kind], &key);
}

void rpcrdma_reasm_advertise(packet_info *pinfo, uint32_t owner, uint32_t handle,
			     enum rpcrdma_chunk_kind kind)
{
	if (!PINFO_FD_VISITED(pinfo) && rpcrdma_prefs.reassemble)
		wmem_map_insert(advertised, key_new(RPCRDMA_KEY(owner, handle)),
				GUINT_TO_POINTER(kind));
}

static void complete_waiting(packet_info *pinfo, tvbuff_t *tvb, uint32_t owner,
			     uint32_t handle);

void rpcrdma_reasm_add(packet_info *pinfo, tvbuff_t *tvb,
		       const struct rpcrdma_rdma_io *io)
{
	struct piece *p;
	unsigned len = tvb_captured_length(tvb);
	uint64_t k = RPCRDMA_KEY(io->owner, io->handle);
	unsigned kind;

	if (PINFO_FD_VISITED(pinfo) || !len || !io->owner)
		return;
	/* only chunks some header advertised */
	kind = GPOINTER_TO_UINT(wmem_map_lookup(advertised, &k));
	if (kind == 0)
		return;
	p = wmem_new0(wmem_file_scope(), struct piece);
	p->offset = io->offset;
	p->len = len;
	p->frame = pinfo->num;
	if (rpcrdma_reasm_hold(len)) {
		p->data = rpcrdma_big_alloc(len, false);
		tvb_memcpy(tvb, p->data, 0, len);
	} else {
		p->dropped = true;
	}
	p->next = wmem_map_lookup(pieces, &k);
	wmem_map_insert(pieces, key_new(k), p);
	if (kind == RPCRDMA_CHUNK_MSG)
		complete_waiting(pinfo, tvb, io->owner, io->handle);
}

void rpcrdma_reasm_release(uint32_t owner, const struct rpcrdma_segment *segs,
			   uint32_t nsegs)
{
	uint32_t i;

	for (i = 0; i < nsegs; i++) {
		uint64_t k = RPCRDMA_KEY(owner, segs[i].rdma_handle);
		struct piece *p = wmem_map_lookup(pieces, &k);

		for (; p; p = p->next) {
			if (!p->data)
				continue;
			rpcrdma_big_free(p->data, p->len);
			p->data = NULL;
			rpcrdma_reasm_unhold(p->len);
		}
	}
}

struct span { uint64_t lo, hi; };

static int cmp_span(const void *a, const void *b)
{
	const struct span *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* Copy what pieces hold of `seg` into dst (when dst), note their frames;
 * returns how many of the segment's bytes they cover (overlaps merged). */
static uint64_t fill(wmem_allocator_t *pool, uint32_t owner,
		     const struct rpcrdma_segment *seg, uint8_t *dst,
		     uint32_t upto, wmem_map_t *frames, bool *dropped)
{
	const struct piece *p;
	wmem_array_t *spans = wmem_array_new(pool, sizeof(struct span));
	uint64_t end = seg->rdma_offset + (uint64_t)seg->rdma_length;
	uint64_t got = 0, cur_lo = 0, cur_hi = 0, k;
	guint i, n;

	k = RPCRDMA_KEY(owner, seg->rdma_handle);
	p = wmem_map_lookup(pieces, &k);
	for (; p; p = p->next) {
		struct span sp;

		if (upto && p->frame > upto)
			continue;
		if (dst && !p->data) {
			if (p->dropped && dropped)
				*dropped = true;
			continue;
		}
		sp.lo = MAX(p->offset, seg->rdma_offset);
		sp.hi = MIN(p->offset + p->len, end);
		if (p->offset + p->len < p->offset || sp.lo >= sp.hi)
			continue;
		if (dst)
			memcpy(dst + (sp.lo - seg->rdma_offset),
			       p->data + (sp.lo - p->offset),
			       (size_t)(sp.hi - sp.lo));
		wmem_array_append(spans, &sp, 1);
		if (frames)
			wmem_map_insert(frames, GUINT_TO_POINTER(p->frame),
					GUINT_TO_POINTER(1));
	}
	n = wmem_array_get_count(spans);
	wmem_array_sort(spans, cmp_span);
	for (i = 0; i < n; i++) {
		const struct span *sp = wmem_array_index(spans, i);

		if (i == 0 || sp->lo > cur_hi) {
			got += cur_hi - cur_lo;
			cur_lo = sp->lo;
			cur_hi = sp->hi;
		} else if (sp->hi > cur_hi) {
			cur_hi = sp->hi;
		}
	}
	return got + (cur_hi - cur_lo);
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

/* The frames that moved a chunk's bytes: one line of ranges ("301-365,
 * 369-431: 128 frames"), each frame also a hidden rpcrdma.chunk_frame (for
 * filters and Wireshark's related-frame marks) */
static void show_frames(proto_tree *tree, tvbuff_t *parent,
			packet_info *pinfo, wmem_map_t *frames)
{
	wmem_array_t *list;
	wmem_strbuf_t *sb;
	proto_item *it;
	proto_tree *ft;
	guint n, count;
	uint32_t first = 0, prev = 0;

	if (!tree)
		return;
	list = wmem_array_new(pinfo->pool, sizeof(uint32_t));
	wmem_map_foreach(frames, list_frame, list);
	wmem_array_sort(list, cmp_u32);
	count = wmem_array_get_count(list);
	if (!count)
		return;
	sb = wmem_strbuf_new(pinfo->pool, "");
	for (n = 0; n <= count; n++) {
		uint32_t f = n < count ? *(uint32_t *)wmem_array_index(list, n) : 0;

		if (n && (n == count || f != prev + 1)) {
			wmem_strbuf_append_printf(sb, "%s%u", wmem_strbuf_get_len(sb)
						  ? ", " : "", first);
			if (prev != first)
				wmem_strbuf_append_printf(sb, "-%u", prev);
		}
		if (n == 0 || f != prev + 1)
			first = f;
		prev = f;
	}
	it = proto_tree_add_string_format_value(tree, rpcrdma_hf.chunk_frame_list,
		parent, 0, 0, wmem_strbuf_get_str(sb), "%s (%u frame%s)",
		wmem_strbuf_get_str(sb), count, count == 1 ? "" : "s");
	proto_item_set_generated(it);
	ft = proto_item_add_subtree(it, rpcrdma_ett.frames);
	for (n = 0; n < count; n++) {
		uint32_t f = *(uint32_t *)wmem_array_index(list, n);

		it = proto_tree_add_uint(ft, rpcrdma_hf.chunk_frames, parent, 0, 0, f);
		proto_item_set_generated(it);
		proto_item_set_hidden(it);
	}
}

/* Bytes of the chunk (dst) or only their coverage (dst NULL) */
static uint64_t gather(tvbuff_t *parent, packet_info *pinfo, uint32_t owner,
		       const struct rpcrdma_segment *segs, uint32_t nsegs,
		       uint32_t upto, proto_tree *tree, uint8_t *dst,
		       uint64_t *total, bool *dropped)
{
	wmem_map_t *frames = NULL;
	uint64_t got = 0, off = 0, k;
	uint32_t i;

	*total = 0;
	if (!pieces || !nsegs || !owner)
		return 0;
	for (i = 0; i < nsegs; i++)
		*total += segs[i].rdma_length;
	if (tree)
		frames = wmem_map_new(pinfo->pool, g_direct_hash, g_direct_equal);
	for (i = 0; i < nsegs; i++) {
		k = RPCRDMA_KEY(owner, segs[i].rdma_handle);
		if (segs[i].rdma_length && wmem_map_lookup(pieces, &k))
			got += fill(pinfo->pool, owner, &segs[i],
				    dst ? dst + off : NULL, upto, frames, dropped);
		off += segs[i].rdma_length;
	}
	if (frames)
		show_frames(tree, parent, pinfo, frames);
	return got;
}

/* This frame's RDMA data completed a Long Call's Position Zero chunk: the
 * call is rebuilt and dissected here (first pass and every later one). */
static void complete_waiting(packet_info *pinfo, tvbuff_t *tvb, uint32_t owner,
			     uint32_t handle)
{
	struct rpcrdma_waiting *w = rpcrdma_reasm_waiting(owner, handle);
	uint64_t total;

	if (!w || w->done_frame)
		return;
	if (gather(NULL, pinfo, owner, w->segs, w->nsegs, 0, NULL, NULL, &total,
		   NULL) != total)
		return;
	w->done_frame = pinfo->num;
	p_add_proto_data(wmem_file_scope(), pinfo, proto_rpcrdma,
			 rpcrdma_key(KEY_LATE, tvb), w);
}

uint64_t rpcrdma_reasm_coverage(tvbuff_t *parent, packet_info *pinfo,
				uint32_t owner, const struct rpcrdma_segment *segs,
				uint32_t nsegs, uint32_t upto, proto_tree *tree,
				uint64_t *total)
{
	return gather(parent, pinfo, owner, segs, nsegs, upto, tree, NULL, total,
		      NULL);
}

uint64_t rpcrdma_reasm_copy(packet_info *pinfo, uint32_t owner,
			    const struct rpcrdma_segment *segs, uint32_t nsegs,
			    uint32_t upto, uint8_t *dst, bool *dropped)
{
	uint64_t total;

	*dropped = false;
	return gather(NULL, pinfo, owner, segs, nsegs, upto, NULL, dst, &total,
		      dropped);
}

tvbuff_t *rpcrdma_reasm_chunk(tvbuff_t *parent, packet_info *pinfo,
			      uint32_t owner, const struct rpcrdma_segment *segs,
			      uint32_t nsegs, uint32_t upto, proto_tree *tree)
{
	uint64_t total = 0;
	uint32_t i;
	uint8_t *buf;

	for (i = 0; i < nsegs; i++)
		total += segs[i].rdma_length;
	if (total == 0 || total > REASM_MAX)
		return NULL;
	/* allocate only when the capture holds every byte (a corrupted
	 * length must not cost a large buffer per dissection) */
	if (gather(parent, pinfo, owner, segs, nsegs, upto, NULL, NULL, &total,
		   NULL) != total)
		return NULL;
	buf = wmem_alloc(pinfo->pool, (size_t)total);
	if (gather(parent, pinfo, owner, segs, nsegs, upto, tree, buf, &total,
		   NULL) != total)
		return NULL;
	return tvb_new_child_real_data(parent, buf, (unsigned)total, (int)total);
}
