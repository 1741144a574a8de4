/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * nfs_ddp.c - RFC 8267 (NFS Upper-Layer Binding): the DDP-eligible results
 * of an NFS reply in its reduced Payload stream (V1 §4.4.1, §4.4.6, §5.3.2).
 * NFSv2 (RFC 1094) and NFSv3 (RFC 1813): READ data and READLINK path, the
 * last item of the result.  NFSv4.x (RFC 7530, 8881 §16.2): READ data and
 * READLINK linktext inside COMPOUND4res, after the results of the
 * operations before them, whose layouts are walked here.
 */
#include "rpcrdma/nfs_ddp.h"
#include "rpcrdma/rpc.h"
#include "xdrc.h"

#define NFS3_FATTR_BYTES 84u     /* fattr3: RFC 1813 §2.5 */
#define NFS2_FATTR_BYTES 68u     /* fattr: RFC 1094 §2.3.5 */

enum { NFSPROC_READLINK = 5, NFSPROC_READ = 6, NFSPROC4_COMPOUND = 1 };
enum {                           /* nfs_opnum4 */
	OP_ACCESS = 3, OP_CLOSE = 4, OP_COMMIT = 5, OP_DELEGRETURN = 8,
	OP_GETATTR = 9, OP_GETFH = 10, OP_LOOKUP = 15, OP_LOOKUPP = 16,
	OP_NVERIFY = 17, OP_OPEN_CONFIRM = 20, OP_OPEN_DOWNGRADE = 21,
	OP_PUTFH = 22, OP_PUTPUBFH = 23, OP_PUTROOTFH = 24, OP_READ = 25,
	OP_READLINK = 27, OP_RENEW = 30, OP_RESTOREFH = 31, OP_SAVEFH = 32,
	OP_SETATTR = 34, OP_VERIFY = 37, OP_WRITE = 38,
	OP_RELEASE_LOCKOWNER = 39, OP_SEQUENCE = 53, OP_RECLAIM_COMPLETE = 58,
	OP_ILLEGAL = 10044,
};

struct walk {
	struct xdrc x;
	struct rpcrdma_ddp_reply *r;
	uint32_t chunk;              /* next Write chunk to match */
	uint32_t last_used;          /* 1 + index of the last used chunk */
};

static enum rpcrdma_ddp_result stop(struct walk *w, enum rpcrdma_ddp_result res)
{
	w->r->fault_off = w->x.off;
	return res;
}

static bool skip(struct xdrc *x, uint64_t n)
{
	if (n > xdrc_left(x))
		return false;
	x->off += (uint32_t)n;
	return true;
}

/* opaque<>: length word and padded bytes */
static bool skip_opaque(struct xdrc *x)
{
	uint32_t n, at = x->off;

	if (!xdrc_get_u32(x, &n))
		return false;
	if (!skip(x, xdrc_roundup(n))) {
		x->off = at;
		return false;
	}
	return true;
}

/* bitmap4: a counted array of words */
static bool skip_bitmap(struct xdrc *x)
{
	uint32_t n, at = x->off;

	if (!xdrc_get_u32(x, &n))
		return false;
	if (!skip(x, (uint64_t)n * 4)) {
		x->off = at;
		return false;
	}
	return true;
}

static bool all_matched(const struct walk *w)
{
	return w->chunk >= w->last_used;
}

/* A DDP-eligible opaque<> at the cursor: reduced into the next Write chunk
 * when that chunk was used, else inline. `last`: the item must end the
 * stream when reduced (NFSv2/v3 results end with it). */
static enum rpcrdma_ddp_result item(struct walk *w, bool last)
{
	struct rpcrdma_ddp_reply *r = w->r;
	uint32_t len, at = w->x.off;
	uint32_t k = w->chunk;

	if (!xdrc_get_u32(&w->x, &len))
		return stop(w, RPCRDMA_DDP_TRUNCATED);
	if (k >= r->nchunks || r->written[k] == 0) {
		/* no chunk left, or an unused one: the bytes are inline */
		w->chunk += k < r->nchunks;
		if (!skip(&w->x, xdrc_roundup(len))) {
			w->x.off = at;
			return stop(w, RPCRDMA_DDP_TRUNCATED);
		}
		return RPCRDMA_DDP_OK;
	}
	/* no pad bytes in a Write chunk (V1 §4.4.6.1): exactly len bytes */
	if (r->written[k] != len) {
		w->x.off = at;
		return stop(w, RPCRDMA_DDP_MISMATCH);
	}
	if (last && xdrc_left(&w->x) != 0)
		return stop(w, RPCRDMA_DDP_MISMATCH);
	if (r->nitems >= RPCRDMA_DDP_MAX_ITEMS)
		return stop(w, RPCRDMA_DDP_UNKNOWN);
	r->items[r->nitems].off = w->x.off;
	r->items[r->nitems].len = len;
	r->items[r->nitems].chunk = k;
	r->nitems++;
	w->chunk++;
	return RPCRDMA_DDP_OK;
}

/* NFSv2 and NFSv3 READ and READLINK results: status, then (v3: post_op_attr
 * in both arms) the ok arm, which ends with the item. */
static enum rpcrdma_ddp_result nfs23(struct walk *w, uint32_t vers, uint32_t proc)
{
	uint32_t status, follows;

	if (proc != NFSPROC_READ && proc != NFSPROC_READLINK)
		return stop(w, RPCRDMA_DDP_NO_ITEM);
	if (!xdrc_get_u32(&w->x, &status))
		return stop(w, RPCRDMA_DDP_TRUNCATED);
	if (vers == 3) {                     /* post_op_attr */
		if (!xdrc_get_u32(&w->x, &follows))
			return stop(w, RPCRDMA_DDP_TRUNCATED);
		if (follows && !skip(&w->x, NFS3_FATTR_BYTES))
			return stop(w, RPCRDMA_DDP_TRUNCATED);
	}
	if (status != 0)
		return stop(w, RPCRDMA_DDP_NO_ITEM);
	if (proc == NFSPROC_READ) {
		/* v2: fattr; v3: count, eof */
		if (!skip(&w->x, vers == 2 ? NFS2_FATTR_BYTES : 8))
			return stop(w, RPCRDMA_DDP_TRUNCATED);
	}
	return item(w, true);
}

/* One nfs_resop4 after its opcode and status (nonzero status: the
 * compound stops, handled by the caller).  Unknown layouts: UNKNOWN. */
static enum rpcrdma_ddp_result resop4(struct walk *w, uint32_t op)
{
	uint32_t eof;

	switch (op) {
	case OP_DELEGRETURN: case OP_LOOKUP: case OP_LOOKUPP: case OP_NVERIFY:
	case OP_PUTFH: case OP_PUTPUBFH: case OP_PUTROOTFH: case OP_RENEW:
	case OP_RESTOREFH: case OP_SAVEFH: case OP_VERIFY:
	case OP_RELEASE_LOCKOWNER: case OP_RECLAIM_COMPLETE: case OP_ILLEGAL:
		return RPCRDMA_DDP_OK;
	case OP_ACCESS: case OP_COMMIT:           /* two words / verifier4 */
		return skip(&w->x, 8) ? RPCRDMA_DDP_OK
				      : stop(w, RPCRDMA_DDP_TRUNCATED);
	case OP_CLOSE: case OP_OPEN_CONFIRM: case OP_OPEN_DOWNGRADE:
	case OP_WRITE:                            /* stateid4; count, how, verf */
		return skip(&w->x, 16) ? RPCRDMA_DDP_OK
				       : stop(w, RPCRDMA_DDP_TRUNCATED);
	case OP_SEQUENCE:        /* sessionid, five words (RFC 8881 §18.46) */
		return skip(&w->x, 36) ? RPCRDMA_DDP_OK
				       : stop(w, RPCRDMA_DDP_TRUNCATED);
	case OP_GETATTR:                          /* fattr4 */
		return skip_bitmap(&w->x) && skip_opaque(&w->x)
		       ? RPCRDMA_DDP_OK : stop(w, RPCRDMA_DDP_TRUNCATED);
	case OP_GETFH:                            /* nfs_fh4 */
		return skip_opaque(&w->x) ? RPCRDMA_DDP_OK
					  : stop(w, RPCRDMA_DDP_TRUNCATED);
	case OP_READ:                             /* eof, data<> */
		if (!xdrc_get_u32(&w->x, &eof))
			return stop(w, RPCRDMA_DDP_TRUNCATED);
		return item(w, false);
	case OP_READLINK:                         /* linktext4 */
		return item(w, false);
	default:
		return stop(w, RPCRDMA_DDP_UNKNOWN);
	}
}

static enum rpcrdma_ddp_result nfs4(struct walk *w, uint32_t proc)
{
	uint32_t status, n, i, op, opstatus;
	enum rpcrdma_ddp_result res;

	if (proc != NFSPROC4_COMPOUND)
		return stop(w, RPCRDMA_DDP_NO_ITEM);
	if (!xdrc_get_u32(&w->x, &status) || !skip_opaque(&w->x) ||
	    !xdrc_get_u32(&w->x, &n))
		return stop(w, RPCRDMA_DDP_TRUNCATED);
	for (i = 0; i < n && !all_matched(w); i++) {
		uint32_t at = w->x.off;

		if (!xdrc_get_u32(&w->x, &op) || !xdrc_get_u32(&w->x, &opstatus))
			return stop(w, RPCRDMA_DDP_TRUNCATED);
		if (op == OP_SETATTR && !skip_bitmap(&w->x))   /* in both arms */
			return stop(w, RPCRDMA_DDP_TRUNCATED);
		if (opstatus != 0)           /* the compound ends here */
			break;
		if (op == OP_SETATTR)
			continue;
		res = resop4(w, op);
		if (res != RPCRDMA_DDP_OK) {
			if (res == RPCRDMA_DDP_UNKNOWN)
				w->r->fault_off = at;
			return res;
		}
	}
	return all_matched(w) ? RPCRDMA_DDP_OK : stop(w, RPCRDMA_DDP_NO_ITEM);
}

enum rpcrdma_ddp_result rpcrdma_ddp_locate_reply(const uint8_t *buf, size_t len,
						 struct rpcrdma_ddp_reply *r)
{
	struct rpc_msg_hdr h;
	struct walk w;
	enum rpcrdma_ddp_result res;
	uint32_t k;

	r->nitems = 0;
	r->fault_off = 0;
	w.r = r;
	w.chunk = 0;
	w.last_used = 0;
	for (k = 0; k < r->nchunks; k++)
		if (r->written[k])
			w.last_used = k + 1;
	xdrc_init(&w.x, buf, len);
	if (rpc_decode_header(buf, len, &h) != RPC_OK || h.msg_type != RPC_REPLY) {
		r->fault_off = h.fault_off;
		return RPCRDMA_DDP_NOT_REPLY;
	}
	if (w.last_used == 0)            /* nothing was reduced */
		return RPCRDMA_DDP_OK;
	w.x.off = h.body_off;
	if (h.reply_stat != RPC_MSG_ACCEPTED || h.accept_stat != RPC_SUCCESS)
		return stop(&w, RPCRDMA_DDP_NO_ITEM);
	if (r->prog != RPC_PROG_NFS)
		return stop(&w, RPCRDMA_DDP_UNKNOWN);
	if (r->vers == 2 || r->vers == 3)
		res = nfs23(&w, r->vers, r->proc);
	else if (r->vers == 4)
		res = nfs4(&w, r->proc);
	else
		return stop(&w, RPCRDMA_DDP_UNKNOWN);
	if (res == RPCRDMA_DDP_OK && !all_matched(&w))
		return stop(&w, RPCRDMA_DDP_NO_ITEM);
	return res;
}

const char *rpcrdma_ddp_result_text(enum rpcrdma_ddp_result res)
{
	switch (res) {
	case RPCRDMA_DDP_OK:
		return "every used Write chunk matches a DDP-eligible item";
	case RPCRDMA_DDP_NO_ITEM:
		return "a Write chunk holds data, but the reply has no "
		       "DDP-eligible item for it";
	case RPCRDMA_DDP_UNKNOWN:
		return "the layout of the result before the item is not known";
	case RPCRDMA_DDP_MISMATCH:
		return "the item's length word differs from the bytes its Write "
		       "chunk holds, or bytes follow the item that ends the reply";
	case RPCRDMA_DDP_TRUNCATED:
		return "the reply ends before the item";
	case RPCRDMA_DDP_NOT_REPLY:
		return "not an RPC reply";
	}
	return "?";
}
