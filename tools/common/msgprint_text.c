/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * msgprint_text.c - one decoded transport message as text: the -V tree in
 * the drafts' field names (V1 §5.1.3, V2 §4.2), and the pieces the
 * one-line summary (msgprint_line.c) shares with it (mp_put_*).  No
 * allocation, no printf.
 */
#include "msgprint_int.h"
#include "outbuf.h"
#include "rpc_names.h"
#include "rpcrdma/rpc.h"


void mp_put_notes(struct obuf *o, const struct rpcrdma_msg *m,
		      const char *sep)
{
	const char *s = "";
	unsigned bit;

	for (bit = 0; bit < RPCRDMA_NOTE_COUNT_; bit++) {
		if (m->notes & (1u << bit)) {
			ob_puts(o, s);
			ob_puts(o, rpcrdma_note_name(1u << bit));
			s = sep;
		}
	}
}

/* "NFS v4 COMPOUND", "prog 123456 v1 proc 3", "MOUNT v3 proc 9" */
void mp_put_rpc_call(struct obuf *o, const struct rpc_view *v)
{
	const char *prog = msgprint_program_name(v->prog);
	const char *proc = rpc_proc_name(v->prog, v->vers, v->proc);

	if (prog) {
		ob_puts(o, prog);
	} else {
		ob_puts(o, "prog ");
		ob_u64(o, v->prog);
	}
	ob_puts(o, " v");
	ob_u64(o, v->vers);
	ob_putc(o, ' ');
	if (proc) {
		ob_puts(o, proc);
	} else {
		ob_puts(o, "proc ");
		ob_u64(o, v->proc);
	}
}

/* " SEQUENCE PUTFH READ": the operations of a COMPOUND */
void mp_put_ops(struct obuf *o, const struct rpc_view *v)
{
	if (!v->has_ops)
		return;
	for (uint32_t i = 0; i < v->ops->n; i++) {
		ob_putc(o, ' ');
		ob_puts(o, nfs4_op_name(v->ops->ops[i], v->cb));
	}
	if (v->ops->more)
		ob_puts(o, " ...");
}

/* "FILE: " first, when several captures are read */
void mp_put_file(struct obuf *o, const struct msg_ctx *c)
{
	if (c->file_prefix) {
		ob_puts(o, c->file);
		ob_puts(o, ": ");
	}
}

/* "frame N: check: text [section]", as --check prints it */
void mp_put_findings(struct obuf *o, const struct msg_ctx *c)
{
	for (unsigned i = 0; c && i < c->nfindings; i++) {
		const struct msg_finding *f = &c->findings[i];
		mp_put_file(o, c);
		ob_puts(o, "frame ");
		ob_u64(o, f->frame);
		ob_puts(o, ": ");
		ob_puts(o, f->check);
		ob_puts(o, ": ");
		ob_puts(o, f->text);
		ob_puts(o, " [");
		ob_puts(o, f->section);
		ob_puts(o, "]\n");
	}
}

/* the TIME column: -t's form, or seconds since the epoch */
void mp_put_time(struct obuf *o, const struct msg_ctx *c)
{
	if (!c->time_text) {
		ob_time(o, c->ts_sec, c->ts_usec);
		ob_putc(o, ' ');
	} else if (*c->time_text) {
		ob_puts(o, c->time_text);
		ob_putc(o, ' ');
	}
}

/* "  WHAT N UNIT, frames FIRST-LAST" */
static void put_range(struct obuf *o, const char *what, uint64_t n,
		      const char *unit, uint64_t first, uint64_t last)
{
	ob_puts(o, "  ");
	ob_puts(o, what);
	ob_u64(o, n);
	ob_puts(o, unit);
	ob_puts(o, ", frames ");
	ob_u64(o, first);
	ob_putc(o, '-');
	ob_u64(o, last);
	ob_putc(o, '\n');
}

static void put_chunk_data(struct obuf *o, const char *what,
			   const struct msg_chunk_data *d)
{
	if (d->bytes)
		put_range(o, what, d->bytes, " bytes", d->first, d->last);
}

/* -V, after the tree: where the message and its chunk data came from */
static void tree_sources(struct obuf *o, const struct msg_ctx *c,
			 const struct rpc_view *v)
{
	if (c->have_latency && v->has_call_frame) {
		ob_puts(o, "  latency: reply to frame ");
		ob_u64(o, v->call_frame);
		ob_puts(o, ", ");
		ob_u64(o, c->latency_us);
		ob_puts(o, " us\n");
	}
	if (c->nframes > 1)
		put_range(o, "reassembly: Send of ", c->nframes, " packets",
			  c->first_frame, c->frame);
	put_chunk_data(o, "read chunk data: ", &c->read_data);
	put_chunk_data(o, "write chunk data: ", &c->write_data);
	put_chunk_data(o, "reply chunk data: ", &c->reply_data);
	if (c->backward)
		ob_puts(o, "  backward direction (BIDI 2.4)\n");
}

/* what follows the xid: "call NFS v3 NULL", "reply", "msg_type 7" */
void mp_put_rpc_kind(struct obuf *o, const struct rpc_view *v)
{
	if (!v->has_msg_type) {
		ob_puts(o, "(msg_type missing)");
		return;
	}
	if (v->msg_type == RPC_CALL)
		ob_puts(o, "call");
	else if (v->msg_type == RPC_REPLY)
		ob_puts(o, "reply");
	else {
		ob_puts(o, "msg_type ");
		ob_u64(o, v->msg_type);
	}
	if (v->has_call_info) {
		ob_puts(o, v->from_call ? " to " : " ");
		mp_put_rpc_call(o, v);
	}
}

static void put_verdict_detail(struct obuf *o, const struct rpcrdma_msg *m)
{
	const char *sec = rpcrdma_reason_section(m->reason);

	ob_puts(o, rpcrdma_reason_name(m->reason));
	ob_puts(o, ": ");
	ob_puts(o, rpcrdma_reason_text(m->reason));
	if (m->reason != RPCRDMA_R_OK) {
		ob_puts(o, ", at byte ");
		ob_u64(o, m->fault_off);
	}
	if (*sec) {
		ob_puts(o, ", ");
		ob_puts(o, sec);
	}
}

/* ---------------------------------------------------------------- tree */

static void tree_seg(struct obuf *o, const char *indent,
		     const struct rpcrdma_segment *s)
{
	ob_puts(o, indent);
	ob_puts(o, "handle ");
	ob_hex(o, s->rdma_handle, 8);
	ob_puts(o, " length ");
	ob_u64(o, s->rdma_length);
	ob_puts(o, " offset ");
	ob_hex(o, s->rdma_offset, 16);
	ob_putc(o, '\n');
}

static void tree_count(struct obuf *o, uint32_t n, const char *what)
{
	ob_u64(o, n);
	ob_putc(o, ' ');
	ob_puts(o, what);
	if (n != 1)
		ob_putc(o, 's');
	ob_putc(o, '\n');
}

static void tree_chunk_lists(struct obuf *o, const struct rpcrdma_msg *m)
{
	struct rpcrdma_read_segment rs;
	struct rpcrdma_read_iter ri;
	struct rpcrdma_chunk_iter ci;
	struct rpcrdma_seg_iter si;
	struct rpcrdma_segment s;
	uint32_t n = 0;

	if (m->reads_off) {
		ob_puts(o, "  rdma_reads: ");
		tree_count(o, m->nreads, "segment");
		rpcrdma_read_iter_init(m, &ri);
		while (rpcrdma_read_next(&ri, &rs)) {
			ob_puts(o, "    position ");
			ob_u64(o, rs.rdma_position);
			tree_seg(o, " ", &rs.rdma_target);
		}
	}
	if (m->writes_off) {
		ob_puts(o, "  rdma_writes: ");
		tree_count(o, m->nwrites, "chunk");
		rpcrdma_write_iter_init(m, &ci);
		while (rpcrdma_write_next(&ci, &si)) {
			ob_puts(o, "    chunk ");
			ob_u64(o, ++n);
			ob_puts(o, ": ");
			tree_count(o, si.nsegs, "segment");
			while (rpcrdma_seg_next(&si, &s))
				tree_seg(o, "      ", &s);
		}
	}
	if (m->reply_off) {
		ob_puts(o, "  rdma_reply: ");
		if (!rpcrdma_reply_chunk(m, &si)) {
			ob_puts(o, "none\n");
			return;
		}
		tree_count(o, si.nsegs, "segment");
		while (rpcrdma_seg_next(&si, &s))
			tree_seg(o, "    ", &s);
	}
}

static void tree_error(struct obuf *o, const struct rpcrdma_msg *m)
{
	ob_puts(o, "  rdma_err: ");
	ob_puts(o, rpcrdma_err_name(m->rdma_vers, m->rdma_err));
	ob_puts(o, " (");
	ob_u64(o, m->rdma_err);
	ob_puts(o, ")\n");
	if (mp_has_vers_low(m)) {
		ob_puts(o, "  rdma_vrange: rdma_vers_low ");
		ob_u64(o, m->rdma_vers_low);
		if (mp_has_vers_high(m)) {
			ob_puts(o, " rdma_vers_high ");
			ob_u64(o, m->rdma_vers_high);
		}
		ob_putc(o, '\n');
	}
}

/* "  NAME: V" and the newline */
static void put_field(struct obuf *o, const char *name, uint64_t v)
{
	ob_puts(o, "  ");
	ob_puts(o, name);
	ob_puts(o, ": ");
	ob_u64(o, v);
	ob_putc(o, '\n');
}

static void tree_optional(struct obuf *o, const struct rpcrdma_msg *m)
{
	if (m->len >= 24)
		put_field(o, "rdma_opttype", m->rdma_opttype);
	if (m->len >= 28) {
		ob_puts(o, "  rdma_optinfo: ");
		tree_count(o, m->optinfo_len, "byte");
	}
}

/* " Version Two (draft-cel-nfsv4-rpcrdma-version-two-01)", or the later
 * draft's layout it fits (docs/v2-drafts.md) */
static void put_v2_draft(struct obuf *o, const struct rpcrdma_msg *m)
{
	unsigned fam = rpcrdma_v2_draft_family(m);

	if (fam & RPCRDMA2_FAM_LATER) {
		ob_puts(o, " Version Two, later draft layout (not decoded): fits ");
		ob_puts(o, rpcrdma_v2_family_drafts(fam));
		return;
	}
	ob_puts(o, " Version Two (" RPCRDMA_V2_DRAFT ")");
}

static void tree_title(struct obuf *o, const struct rpcrdma_msg *m,
		       const struct msg_ctx *c)
{
	if (c && c->in_capture) {
		mp_put_file(o, c);
		ob_puts(o, "frame ");
		ob_u64(o, c->frame);
		ob_putc(o, ' ');
		mp_put_time(o, c);
		ob_puts(o, c->src ? c->src : "?");
		ob_puts(o, " > ");
		ob_puts(o, c->dst ? c->dst : "?");
		if (c->transport) {
			ob_putc(o, ' ');
			ob_puts(o, c->transport);
		}
		ob_puts(o, " conversation ");
		ob_u64(o, c->conversation);
		ob_putc(o, '\n');
	}
	ob_puts(o, "RPC-over-RDMA");
	if (m->nfixed >= 2 && m->rdma_vers == RPCRDMA_VERSION_ONE)
		ob_puts(o, " Version One");
	else if (m->nfixed >= 2 && m->rdma_vers == RPCRDMA_VERSION_TWO)
		put_v2_draft(o, m);
	ob_puts(o, ", ");
	tree_count(o, m->len > UINT32_MAX ? UINT32_MAX : (uint32_t)m->len, "byte");
}

static void tree_prefix(struct obuf *o, const struct rpcrdma_msg *m)
{
	if (m->nfixed >= 1) {
		ob_puts(o, "  rdma_xid: ");
		ob_hex(o, m->rdma_xid, 8);
		ob_putc(o, '\n');
	}
	if (m->nfixed >= 2)
		put_field(o, "rdma_vers", m->rdma_vers);
	if (m->nfixed >= 3)
		put_field(o, "rdma_credit", m->rdma_credit);
	if (m->nfixed >= 4) {
		ob_puts(o, "  rdma_proc: ");
		ob_puts(o, rpcrdma_proc_name(m->rdma_vers, m->rdma_proc));
		ob_puts(o, " (");
		ob_u64(o, m->rdma_proc);
		ob_puts(o, ")\n");
	}
	if (m->direction != RPCRDMA_DIR_UNKNOWN) {
		/* V2 MSG/NOMSG carry it as rdma_direction, OPTIONAL as rdma_optdir */
		if (m->has_direction_word)
			ob_puts(o, m->rdma_proc == RDMA2_OPTIONAL ?
				"  rdma_optdir: " : "  rdma_direction: ");
		else
			ob_puts(o, "  direction: ");
		ob_puts(o, rpcrdma_direction_name(m->direction));
		if (m->direction_inferred)
			ob_puts(o, " (inferred from the chunk lists)");
		ob_putc(o, '\n');
	}
}

void msgprint_tree(FILE *out, const struct rpcrdma_msg *m,
		   const struct msg_ctx *c)
{
	uint8_t reply[64];
	struct rpc_view v;
	struct obuf o;
	size_t n;

	ob_init(&o, out);
	tree_title(&o, m, c);
	tree_prefix(&o, m);
	if (mp_is_chunked(m))
		tree_chunk_lists(&o, m);
	if (mp_is_error(m))
		tree_error(&o, m);
	if (mp_is_optional(m))
		tree_optional(&o, m);
	if (m->header_len) {
		ob_puts(&o, "  header_length: ");
		ob_u64(&o, m->header_len);
		ob_puts(&o, ", payload_length: ");
		ob_u64(&o, m->payload_len);
		ob_putc(&o, '\n');
	}
	msgprint_rpc_view(m, c, &v);
	if (v.present) {
		ob_puts(&o, "  rpc: xid ");
		ob_hex(&o, v.xid, 8);
		ob_putc(&o, ' ');
		mp_put_rpc_kind(&o, &v);
		mp_put_ops(&o, &v);
		if (c && c->in_capture && c->rpc_source) {
			ob_puts(&o, " (");
			ob_puts(&o, c->rpc_source);
			ob_putc(&o, ')');
		}
		if (v.has_call_frame) {
			ob_puts(&o, ", call in frame ");
			ob_u64(&o, v.call_frame);
		}
		ob_putc(&o, '\n');
	}
	ob_puts(&o, "verdict: ");
	if (rpcrdma_v2_draft_family(m) & RPCRDMA2_FAM_LATER)
		ob_puts(&o, "not judged, a later draft's layout (as "
			RPCRDMA_V2_DRAFT ": ");
	ob_puts(&o, rpcrdma_action_name(m->action));
	ob_puts(&o, " (");
	put_verdict_detail(&o, m);
	ob_puts(&o, rpcrdma_v2_draft_family(m) & RPCRDMA2_FAM_LATER ? "))\n" : ")\n");
	if (m->notes) {
		ob_puts(&o, "notes: ");
		mp_put_notes(&o, m, " ");
		ob_putc(&o, '\n');
	}
	n = msgprint_error_reply(m, reply);
	if (n) {
		ob_puts(&o, "error_reply: ");
		ob_hexbytes(&o, reply, n);
		ob_putc(&o, '\n');
	}
	if (c && c->in_capture)
		tree_sources(&o, c, &v);
	mp_put_findings(&o, c);
	ob_flush(&o);
}
