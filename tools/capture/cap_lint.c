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

/* V1 4.4.5: "The Position value MUST be computed from the beginning of the
 * Payload stream, which begins at Position zero."  A read chunk of an
 * RDMA_MSG call is re-inserted into the inline Payload stream: its position
 * can be at most the inline bytes plus the chunks inserted before it. */
static void rule_position_past_payload(struct cap_state *st, uint64_t frame,
				       const struct rpcrdma_msg *m)
{
	struct rpcrdma_read_iter it;
	struct rpcrdma_read_segment s;
	uint64_t before = 0;
	uint32_t last = 0;

	if (m->action != RPCRDMA_ACCEPT || m->rdma_proc != RDMA_MSG ||
	    m->direction != RPCRDMA_CALL || !m->nreads)
		return;
	/* positions come in list order; lengths of earlier chunks (lower
	 * positions) may lie before a later one */
	rpcrdma_read_iter_init(m, &it);
	while (rpcrdma_read_next(&it, &s)) {
		if (s.rdma_position > (uint64_t)m->payload_len + before) {
			cap_lint(st, frame, "read-position-past-payload", "V1 4.4.5",
				 "read segment at position %u, past the %u-byte Payload stream "
				 "(and %llu bytes of earlier chunks)", s.rdma_position,
				 m->payload_len, (unsigned long long)before);
			return;
		}
		if (s.rdma_position >= last)
			before += s.rdma_target.rdma_length;
		last = s.rdma_position;
	}
}

/* The first read chunk at a position past zero of an RDMA_MSG call: its
 * position, the sum of its segments' lengths, and the four bytes before it
 * in the Payload stream; false when there is none or no word before it. */
static bool first_reduced_chunk(const struct rpcrdma_msg *m, uint32_t *pos, uint64_t *len,
				uint32_t *word)
{
	struct rpcrdma_read_iter it;
	struct rpcrdma_read_segment s;
	const uint8_t *p = rpcrdma_payload(m);
	bool found = false;

	if (m->action != RPCRDMA_ACCEPT || m->rdma_proc != RDMA_MSG ||
	    m->direction != RPCRDMA_CALL || !m->nreads || !p)
		return false;
	*len = 0;
	rpcrdma_read_iter_init(m, &it);
	while (rpcrdma_read_next(&it, &s)) {
		if (s.rdma_position == 0)
			return false;   /* a Long Call: the stream is in the chunk */
		if (found && s.rdma_position != *pos)
			break;
		found = true;
		*pos = s.rdma_position;
		*len += s.rdma_target.rdma_length;
	}
	if (!found || *pos < 4 || *pos > m->payload_len)
		return false;
	*word = (uint32_t)p[*pos - 4] << 24 | (uint32_t)p[*pos - 3] << 16 |
		(uint32_t)p[*pos - 2] << 8 | p[*pos - 1];
	return true;
}

/* V1 4.4.4.1: "Any byte count left in the Payload stream MUST match the
 * sum of the lengths of the segments making up the chunk."  The items the
 * Upper Layer Bindings make DDP-eligible are counted opaques (NFS, RFC
 * 8267; ECHO, docs/echo-ulb.md): the count is the word before the chunk's
 * position.  The chunk may carry the round-up (V1 4.4.5.1: the requester
 * MAY leave it out), so either length agrees. */
static void rule_chunk_count(struct cap_state *st, uint64_t frame, const struct rpcrdma_msg *m)
{
	uint32_t pos, count;
	uint64_t len;

	if (!first_reduced_chunk(m, &pos, &len, &count))
		return;
	if (len != count && len != ((uint64_t)count + 3) / 4 * 4)
		cap_lint(st, frame, "read-chunk-count-mismatch", "V1 4.4.4.1",
			 "read chunk at position %u moves %llu bytes; the byte count before it "
			 "in the Payload stream says %u", pos, (unsigned long long)len, count);
}

/* V1 4.4.5.1: "when an XDR data item is moved from the Payload stream into
 * a Read chunk, the requester MUST remove XDR padding for that data item
 * from the Payload stream as well."  Every XDR item is a multiple of four
 * bytes; an item moved out with its pad leaves a multiple of four inline,
 * so a Payload stream of another length kept the pad. */
static void rule_pad_left_inline(struct cap_state *st, uint64_t frame, const struct rpcrdma_msg *m)
{
	uint32_t pos, count;
	uint64_t len;

	if (!first_reduced_chunk(m, &pos, &len, &count) || (m->payload_len & 3) == 0)
		return;
	cap_lint(st, frame, "read-chunk-pad-inline", "V1 4.4.5.1",
		 "a %u-byte Payload stream (not a multiple of 4) with a read chunk at position "
		 "%u: the reduced item's XDR pad was left in the stream", m->payload_len, pos);
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
	for (size_t i = 0; i < sizeof(msg_rules) / sizeof(msg_rules[0]); i++)
		msg_rules[i].fn(st, frame, m);
}
