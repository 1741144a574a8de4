/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * msgprint_line.c - one decoded transport message as one line of text
 * (layout in man/rpcrdma-decode.1, OUTPUT FORMAT): capture mode calls
 * msgprint_line() for every message, so its stretches that a few values
 * decide are memos (msgprint_memo.h).  No allocation, no printf.  The
 * pieces it shares with the -V tree are msgprint_text.c's (mp_put_*).
 */
#include "msgprint_int.h"
#include "msgprint_memo.h"
#include "outbuf.h"
#include "rpc_names.h"
#include "rpcrdma/rpc.h"

#define SRC_WIDTH 21                   /* "255.255.255.255:65535" */
#define PROC_WIDTH 14                  /* "RDMA2_OPTIONAL" */

/* ---------------------------------------------------------------- line */

static void line_body(struct obuf *o, const struct rpcrdma_msg *m)
{
	if (mp_is_chunked(m)) {
		ob_puts(o, " reads ");
		ob_u64(o, m->nreads);
		ob_puts(o, " writes ");
		ob_u64(o, m->nwrites);
		ob_puts(o, " reply ");
		if (m->has_reply)
			ob_u64(o, m->nreply_segs);
		else
			ob_putc(o, '-');
	} else if (mp_is_error(m)) {
		ob_puts(o, " err ");
		ob_puts(o, rpcrdma_err_name(m->rdma_vers, m->rdma_err));
		if (mp_has_vers_high(m)) {
			ob_putc(o, ' ');
			ob_u64(o, m->rdma_vers_low);
			ob_putc(o, '-');
			ob_u64(o, m->rdma_vers_high);
		}
	} else if (mp_is_optional(m)) {
		ob_puts(o, " optdir ");
		ob_puts(o, rpcrdma_direction_name((int)m->rdma_optdir));
		if (m->len >= 24) {
			ob_puts(o, " opttype ");
			ob_u64(o, m->rdma_opttype);
		}
		if (m->len >= 28) {
			ob_puts(o, " info ");
			ob_u64(o, m->optinfo_len);
		}
	}
}

/* " [Version Two, later draft layout (not decoded): ietf-03..07]" in
 * place of a cel-01 verdict; false when the message is no such one */
static bool line_v2_later(struct obuf *o, const struct rpcrdma_msg *m)
{
	unsigned fam;

	if (m->action == RPCRDMA_ACCEPT || m->rdma_vers != RPCRDMA_VERSION_TWO)
		return false;
	fam = rpcrdma_v2_draft_family(m);
	if (!(fam & RPCRDMA2_FAM_LATER))
		return false;
	ob_puts(o, " [Version Two, later draft layout (not decoded): ");
	ob_puts(o, rpcrdma_v2_family_name(fam));
	ob_putc(o, ']');
	return true;
}

/* "conv N SRC > DST ": the same for every message of a conversation's way */
static void line_conv(struct obuf *o, const struct msg_ctx *c)
{
	static struct ob_memo memo[OB_MEMO_SLOTS];
	struct ob_memo *slot = NULL;
	struct ob_memo_mark mark;
	struct memo_key k;

	mk_init(&k);
	mk_u64(&k, c->conversation);
	mk_str(&k, c->src ? c->src : "?");
	mk_str(&k, c->dst ? c->dst : "?");
	if (ob_memo_get(o, memo, &k, &mark, &slot))
		return;
	ob_puts(o, "conv ");
	ob_u64(o, c->conversation);
	ob_putc(o, ' ');
	ob_putsw(o, c->src ? c->src : "?", SRC_WIDTH);
	ob_puts(o, " > ");
	ob_putsw(o, c->dst ? c->dst : "?", SRC_WIDTH);
	ob_putc(o, ' ');
	ob_memo_put(o, slot, &k, &mark);
}

/* "v1 RDMA_MSG       xid " */
static void line_proc(struct obuf *o, const struct rpcrdma_msg *m)
{
	static struct ob_memo memo[OB_MEMO_SLOTS];
	struct ob_memo *slot = NULL;
	struct ob_memo_mark mark;
	struct memo_key k;

	mk_init(&k);
	mk_u64(&k, (uint64_t)m->nfixed << 32 | m->rdma_vers);
	mk_u64(&k, m->rdma_proc);
	if (ob_memo_get(o, memo, &k, &mark, &slot))
		return;
	if (m->nfixed >= 2) {
		ob_putc(o, 'v');
		ob_u64(o, m->rdma_vers);
	} else {
		ob_puts(o, "v-");
	}
	ob_putc(o, ' ');
	ob_putsw(o, m->nfixed >= 4 ? rpcrdma_proc_name(m->rdma_vers, m->rdma_proc)
				   : "-", PROC_WIDTH);
	ob_puts(o, " xid ");
	ob_memo_put(o, slot, &k, &mark);
}

/* " credits ..." to the end of the line: credits, chunk counts, the RPC
 * call, the verdict when not accepted, the notes */
static void line_rest(struct obuf *o, const struct rpcrdma_msg *m,
		      const struct rpc_view *vp)
{
	static struct ob_memo memo[OB_MEMO_SLOTS];
	const struct rpc_view v = *vp;
	struct ob_memo *slot = NULL;
	struct ob_memo_mark mark;
	struct memo_key k;

	mk_init(&k);
	k.ok = !mp_is_error(m) && !mp_is_optional(m);
	mk_u64(&k, (uint64_t)m->nfixed << 32 | m->rdma_credit);
	mk_u64(&k, (uint64_t)mp_is_chunked(m) << 63 | (uint64_t)m->has_reply << 62 |
		   (uint64_t)m->nreads << 32 | m->nwrites);
	mk_u64(&k, m->nreply_segs);
	mk_u64(&k, (uint64_t)v.present << 48 | (uint64_t)v.has_call_info << 40 |
		   (uint64_t)v.has_msg_type << 32 | v.msg_type);
	mk_u64(&k, (uint64_t)v.from_call << 32 | v.prog);
	mk_u64(&k, (uint64_t)v.vers << 32 | v.proc);
	mk_u64(&k, (uint64_t)v.has_ops << 1 | v.cb);
	if (v.has_ops) {
		mk_u64(&k, (uint64_t)v.ops->more << 32 | v.ops->n);
		for (uint32_t i = 0; i < v.ops->n && k.ok; i++)
			mk_u64(&k, v.ops->ops[i]);
	}
	mk_u64(&k, (uint64_t)m->action << 32 | (uint32_t)m->reason);
	mk_u64(&k, m->action != RPCRDMA_ACCEPT ? m->fault_off : 0);
	mk_u64(&k, m->notes);
	/* a Version Two verdict may name a later draft (line_v2_later): the
	 * family depends on more than the key holds */
	if (m->action != RPCRDMA_ACCEPT && m->rdma_vers == RPCRDMA_VERSION_TWO)
		k.ok = false;
	if (ob_memo_get(o, memo, &k, &mark, &slot))
		return;
	ob_puts(o, " credits ");
	if (m->nfixed >= 3)
		ob_u64w(o, m->rdma_credit, 3);
	else
		ob_puts(o, "  -");
	line_body(o, m);
	if (v.present && v.has_call_info) {
		ob_putc(o, ' ');
		mp_put_rpc_call(o, &v);
		ob_puts(o, v.msg_type == RPC_CALL ? " call" : " reply");
		mp_put_ops(o, &v);
	} else if (v.present) {
		ob_puts(o, " RPC ");
		mp_put_rpc_kind(o, &v);
	}
	if (line_v2_later(o, m)) {
		/* named, not judged against cel-01 */
	} else if (m->action != RPCRDMA_ACCEPT) {
		ob_puts(o, " [");
		ob_puts(o, rpcrdma_action_name(m->action));
		ob_putc(o, ' ');
		ob_puts(o, rpcrdma_reason_name(m->reason));
		ob_puts(o, " at ");
		ob_u64(o, m->fault_off);
		ob_putc(o, ']');
	}
	if (m->notes) {
		ob_puts(o, " (");
		mp_put_notes(o, m, ",");
		ob_putc(o, ')');
	}
	ob_putc(o, '\n');
	ob_memo_put(o, slot, &k, &mark);
}

void msgprint_line(FILE *out, const struct rpcrdma_msg *m,
		   const struct msg_ctx *c)
{
	struct rpc_view v;
	struct obuf o;

	ob_init(&o, out);
	if (c && c->in_capture) {
		mp_put_file(&o, c);
		ob_u64w(&o, c->frame, 6);
		ob_putc(&o, ' ');
		mp_put_time(&o, c);
		line_conv(&o, c);
	}
	line_proc(&o, m);
	if (m->nfixed >= 1)
		ob_hex(&o, m->rdma_xid, 8);
	else
		ob_puts(&o, "-         ");
	msgprint_rpc_view(m, c, &v);
	line_rest(&o, m, &v);
	mp_put_findings(&o, c);
	ob_flush(&o);
}
