/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cap_loss.c - what the capture itself lost, per conversation and
 * direction, told apart from what the network retransmitted
 * (docs/capture.md, "Capture loss"): IB/RoCE request PSNs skipped and never
 * seen later (cap_ib.c), TCP stream holes given up on iWARP (cap_tcp.c),
 * chunk bytes an answered call lacks (cap_chunks.c), replies without their
 * call before the first matched one (cap_msg.c).  The counts are kept as
 * the packets come; this file writes them: a warning per conversation,
 * the --stats lines, the --json record {"type":"capture_lost"} and the
 * integer key capture_lost.
 */
#include "cap_state.h"
#include "json.h"

static uint64_t conv_lost(const struct cap_stats_conv *s)
{
	return cap_lost_packets(s, 0) + cap_lost_packets(s, 1);
}

/* anything to say: packets lost, or the other evidence */
static bool any(const struct cap_stats_conv *s)
{
	for (int d = 0; d < 2; d++)
		if (cap_lost_packets(s, d) || s->chunk_missing[d] ||
		    s->orphans_start[d])
			return true;
	return false;
}

static uint64_t retransmitted(const struct cap_stats_conv *s, int d)
{
	return s->psn_fill[d];
}

static void dir_json(struct json *j, const struct cap_stats_conv *s, int d)
{
	json_ku64(j, "capture_lost", cap_lost_packets(s, d));
	json_ku64(j, "psn_lost", s->psn_gap[d]);
	json_ku64(j, "psn_retransmitted", retransmitted(s, d));
	json_ku64(j, "tcp_lost_bytes", s->tcp_lost_bytes[d]);
	json_ku64(j, "tcp_lost_segments", s->tcp_lost_segs[d]);
	json_ku64(j, "chunk_bytes_missing", s->chunk_missing[d]);
	json_ku64(j, "replies_without_call_at_start", s->orphans_start[d]);
}

/* the keys of a --stats object (conversation c, or NULL: overall) */
void cap_loss_json(struct json *j, struct cap_conv *c,
		   const struct cap_stats_conv *s)
{
	json_ku64(j, "capture_lost", conv_lost(s));
	if (!any(s))
		return;
	json_key(j, "capture_loss");
	json_arr_begin(j);
	for (int d = 0; d < 2; d++) {
		json_obj_begin(j);
		if (c) {
			json_kstr(j, "src", cap_dir_name(c, d));
			json_kstr(j, "dst", cap_dir_name(c, 1 - d));
		} else {
			json_ku64(j, "endpoint", (uint64_t)d);
		}
		dir_json(j, s, d);
		json_obj_end(j);
	}
	json_arr_end(j);
}

/* "  capture lost: A > B N packets (...); B > A ..." (--stats) */
void cap_loss_text(FILE *out, struct cap_conv *c, const struct cap_stats_conv *s)
{
	if (!any(s))
		return;
	fprintf(out, "  capture lost %llu packets:",
		(unsigned long long)conv_lost(s));
	for (int d = 0; d < 2; d++) {
		if (c)
			fprintf(out, "%s %s > %s", d ? ";" : "", cap_dir_name(c, d),
				cap_dir_name(c, 1 - d));
		else
			fprintf(out, "%s endpoint %d", d ? ";" : "", d);
		fprintf(out, " %llu (PSNs never seen %llu, retransmitted by the network %llu; TCP "
			"holes %llu bytes, %llu segments), chunk bytes missing %llu, "
			"replies without a call at the start %llu",
			(unsigned long long)cap_lost_packets(s, d),
			(unsigned long long)s->psn_gap[d],
			(unsigned long long)retransmitted(s, d),
			(unsigned long long)s->tcp_lost_bytes[d],
			(unsigned long long)s->tcp_lost_segs[d],
			(unsigned long long)s->chunk_missing[d],
			(unsigned long long)s->orphans_start[d]);
	}
	fputc('\n', out);
}

/* The {"type":"capture_lost"} records go with --json's message records
 * (not with --stats, nor with a --check report that is not inline) */
static bool record_wanted(const struct cap_state *st)
{
	return st->o->json && !st->o->stats && !(st->o->check && !st->o->check_inline);
}

static void record_begin(struct cap_state *st, struct obuf *o, struct json *j)
{
	ob_init(o, st->out);
	json_init(j, o);
	json_obj_begin(j);
	json_kstr(j, "type", "capture_lost");
	json_kstr(j, "file", st->file);
}

static void record_end(struct obuf *o, struct json *j)
{
	json_obj_end(j);
	ob_putc(o, '\n');
	ob_flush(o);
}

/* A conversation ends: the warning line and, with --json (messages), its
 * record */
void cap_loss_conv_end(struct cap_state *st, struct cap_conv *c)
{
	const struct cap_stats_conv *s = &c->stats;

	/* a pcap-filter expression drops packets on purpose: --stats and
	 * the records count what was read, no warning */
	if (!any(s))
		return;
	if (!st->o->filter)
		cap_warn_once(st, CAP_W_COUNT, "conversation %u: the capture lost %llu "
		      "packets (%s > %s: %llu, %s > %s: %llu); %llu chunk bytes that "
		      "replies say were moved are not in it; %llu replies lack a call "
		      "sent before it began; the network "
		      "retransmitted %llu", c->id,
		      (unsigned long long)conv_lost(s), cap_dir_name(c, 0),
		      cap_dir_name(c, 1), (unsigned long long)cap_lost_packets(s, 0),
		      cap_dir_name(c, 1), cap_dir_name(c, 0),
		      (unsigned long long)cap_lost_packets(s, 1),
		      (unsigned long long)(s->chunk_missing[0] + s->chunk_missing[1]),
		      (unsigned long long)(s->orphans_start[0] + s->orphans_start[1]),
		      (unsigned long long)(retransmitted(s, 0) + retransmitted(s, 1)));
	if (!record_wanted(st))
		return;
	struct obuf o;
	struct json j;
	record_begin(st, &o, &j);
	json_ku64(&j, "conversation", c->id);
	cap_loss_json(&j, c, s);
	record_end(&o, &j);
}

/* The end of the run, --json (messages): the overall record */
void cap_loss_overall(struct cap_state *st)
{
	const struct cap_stats_conv *s = &st->stats.total;

	if (!any(s) || !record_wanted(st))
		return;
	struct obuf o;
	struct json j;
	record_begin(st, &o, &j);
	json_kbool(&j, "overall", true);
	json_ku64(&j, "capture_lost", conv_lost(s));
	record_end(&o, &j);
}
