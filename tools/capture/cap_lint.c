/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cap_lint.c - one protocol violation for --check (docs/capture.md lists
 * every check with its spec section).  A violation found while a message
 * is being decoded is held until the message is out (cap_emit.c): it then
 * goes with the message (--check=inline), alone, or nowhere when the
 * filters do not want the message.  Alone: text "frame N: check: text
 * [section]" or, with --json, {"frame":N,"check":..,"text":..,"section":..,
 * "xid":..,"conversation":..,"file":..}.  Outside --check, CRC failures
 * and cut frames still go to stderr.
 */
#include <stdarg.h>
#include <string.h>
#include "cap_state.h"
#include "json.h"

void cap_lint_print(struct cap_state *st, const struct cap_finding *f)
{
	if (f->downgraded) {
		st->downgraded++;
	} else {
		st->violations++;
		st->stats.total.violations++;
	}
	if (!st->o->check) {
		if (!strcmp(f->check, "crc-error") || !strcmp(f->check, "truncated-frame")) {
			struct cap_frame fr = { .num = f->frame };
			cap_frame_error(st, &fr, "%s [%s]", f->text, f->section);
		}
		return;
	}
	struct obuf o;
	ob_init(&o, st->out);
	if (st->o->json) {
		struct json j;
		json_init(&j, &o);
		json_obj_begin(&j);
		json_ku64(&j, "frame", f->frame);
		json_kstr(&j, "check", f->check);
		json_kstr(&j, "text", f->text);
		json_kstr(&j, "section", f->section);
		if (f->have_xid)
			json_khex(&j, "xid", f->xid, 8);
		if (f->conv)
			json_ku64(&j, "conversation", f->conv);
		if (f->downgraded)
			json_kbool(&j, "downgraded", true);
		json_kstr(&j, "file", st->file);
		json_obj_end(&j);
	} else {
		if (st->o->name_files) {
			ob_puts(&o, st->file);
			ob_puts(&o, ": ");
		}
		ob_puts(&o, "frame ");
		ob_u64(&o, f->frame);
		ob_puts(&o, ": ");
		ob_puts(&o, f->check);
		ob_puts(&o, ": ");
		ob_puts(&o, f->text);
		ob_puts(&o, " [");
		ob_puts(&o, f->section);
		ob_putc(&o, ']');
	}
	ob_putc(&o, '\n');
	ob_flush(&o);
}

/* A violation that no printed message carries: it passes the filters when
 * those it can be judged by (its conversation, its XID) let it */
static void alone(struct cap_state *st, const struct cap_finding *f)
{
	const struct cap_opts *o = st->o;

	if (o->have_vers || o->nprogs || o->nprocs || o->nproc_names)
		return;
	if (o->nconvs && !cap_in_list(o->convs, o->nconvs, f->conv))
		return;
	if (o->nxids && (!f->have_xid || !cap_in_list(o->xids, o->nxids, f->xid)))
		return;
	cap_lint_print(st, f);
}

/* Violations a capture loss can cause: a lost reply leaves a call
 * outstanding (credits), a lost call leaves its chunks unadvertised, lost
 * RDMA data leaves a chunk unused or its rebuilt message wrong */
static bool loss_explains(const char *check)
{
	static const char *const which[] = {
		"credits-exceeded", "unadvertised-rdma", "unused-write-chunk-nonzero",
		"xid-mismatch", "read-chunk-count-mismatch",
	};
	for (size_t i = 0; i < sizeof(which) / sizeof(which[0]); i++)
		if (!strcmp(check, which[i]))
			return true;
	return false;
}

/* what the capture lost of conversation `conv` so far: packets (PSN gaps,
 * TCP holes), replies whose call it lacks, chunk bytes it lacks */
static uint64_t lost_so_far(const struct cap_state *st, uint32_t conv)
{
	const struct cap_conv *c = st->frame_cv;
	uint64_t n = 0;

	if (!c || !conv || c->id != conv)
		return 0;
	for (int d = 0; d < 2; d++)
		n += cap_lost_packets(&c->stats, d) + c->d[d].psn_pending +
		     c->stats.orphans_start[d] + (c->stats.tcp_lost_bytes[d] != 0) +
		     (c->stats.chunk_missing[d] != 0);
	return n;
}

void cap_lint(struct cap_state *st, uint64_t frame, const char *check,
	      const char *section, const char *fmt, ...)
{
	struct cap_finding f = {
		.frame = frame, .check = check, .section = section,
		.conv = st->hold_depth ? st->msg_conv : st->frame_conv,
		.have_xid = st->hold_depth && st->msg_have_xid,
		.xid = st->msg_xid,
	};
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(f.text, sizeof(f.text), fmt, ap);
	va_end(ap);
	uint64_t lost = loss_explains(check) ? lost_so_far(st, f.conv) : 0;
	if (lost) {                        /* said, not hidden */
		size_t n = strlen(f.text);
		f.downgraded = true;
		snprintf(f.text + n, sizeof(f.text) - n, " (downgraded: the capture "
			 "lost packets or data of conversation %u before this "
			 "frame (%llu), which explains it)", f.conv,
			 (unsigned long long)lost);
	}
	if (st->hold_depth && st->nheld < CAP_HELD_MAX) {
		st->held[st->nheld++] = f;
		return;
	}
	alone(st, &f);
}

struct cap_hold cap_lint_hold(struct cap_state *st, uint32_t conv,
			      bool have_xid, uint32_t xid)
{
	struct cap_hold saved = { st->held_base, st->msg_conv, st->msg_have_xid,
				  st->msg_xid };

	st->held_base = st->nheld;
	st->hold_depth++;
	st->msg_conv = conv;
	st->msg_have_xid = have_xid;
	st->msg_xid = xid;
	return saved;
}

void cap_lint_release(struct cap_state *st, struct cap_hold saved)
{
	for (unsigned i = st->held_base; i < st->nheld; i++)
		alone(st, &st->held[i]);
	st->nheld = st->held_base;
	st->held_base = saved.base;
	st->msg_conv = saved.conv;
	st->msg_have_xid = saved.have_xid;
	st->msg_xid = saved.xid;
	st->hold_depth--;
}

/* -------- rules of the requirements catalogue judged per message
 * (docs/requirements.tsv names each check; docs/capture.md lists them) -------- */

/* The read-list rules are libcodec's (rpcrdma_read_chunks_check(), V1
 * 4.4.4.1, 4.4.5, 4.4.5.1): a responder of ours grading its requesters
 * judges with the same function.  Each rule below reports its own fault. */

/* V1 4.4.5: "The Position value MUST be computed from the beginning of the
 * Payload stream, which begins at Position zero." */
static void rule_position_past_payload(struct cap_state *st, uint64_t frame,
				       const struct rpcrdma_msg *m)
{
	struct rpcrdma_read_check c;

	if (!m->nreads || !(rpcrdma_read_chunks_check(m, &c) & RPCRDMA_READ_POSITION_PAST))
		return;
	cap_lint(st, frame, "read-position-past-payload", "V1 4.4.5",
		 "read segment at position %u, past the %u-byte Payload stream "
		 "(and %llu bytes of earlier chunks)", c.past_position,
		 m->payload_len, (unsigned long long)c.past_before);
}

/* V1 4.4.4.1: "Any byte count left in the Payload stream MUST match the
 * sum of the lengths of the segments making up the chunk."  The count is
 * the word before the first reduced chunk's position; the chunk may carry
 * the round-up (V1 4.4.5.1: the requester MAY leave it out). */
static void rule_chunk_count(struct cap_state *st, uint64_t frame, const struct rpcrdma_msg *m)
{
	struct rpcrdma_read_check c;

	if (!m->nreads || !(rpcrdma_read_chunks_check(m, &c) & RPCRDMA_READ_COUNT_MISMATCH))
		return;
	cap_lint(st, frame, "read-chunk-count-mismatch", "V1 4.4.4.1",
		 "read chunk at position %u moves %llu bytes; the byte count before it "
		 "in the Payload stream says %u", c.position, (unsigned long long)c.chunk_len,
		 c.count);
}

/* V1 4.4.5.1: "when an XDR data item is moved from the Payload stream into
 * a Read chunk, the requester MUST remove XDR padding for that data item
 * from the Payload stream as well."  An item moved out with its pad leaves
 * a multiple of four inline. */
static void rule_pad_left_inline(struct cap_state *st, uint64_t frame, const struct rpcrdma_msg *m)
{
	struct rpcrdma_read_check c;

	if (!m->nreads || !(rpcrdma_read_chunks_check(m, &c) & RPCRDMA_READ_PAD_INLINE))
		return;
	cap_lint(st, frame, "read-chunk-pad-inline", "V1 4.4.5.1",
		 "a %u-byte Payload stream (not a multiple of 4) with a read chunk at position "
		 "%u: the reduced item's XDR pad was left in the stream", m->payload_len,
		 c.position);
}

static const struct {
	const char *check;
	void (*fn)(struct cap_state *st, uint64_t frame, const struct rpcrdma_msg *m);
} msg_rules[] = {
	{ "read-position-past-payload", rule_position_past_payload },
	{ "read-chunk-count-mismatch", rule_chunk_count },
	{ "read-chunk-pad-inline", rule_pad_left_inline },
};

void cap_lint_msg_rules(struct cap_state *st, uint64_t frame, const struct rpcrdma_msg *m)
{
	if (!m->nreads)                /* every rule above judges read chunks */
		return;
	for (size_t i = 0; i < sizeof(msg_rules) / sizeof(msg_rules[0]); i++)
		msg_rules[i].fn(st, frame, m);
}
