/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cap_stats_print.c - --stats output (man/rpcrdma-decode.1, STATISTICS):
 * per conversation, overall, and the RPC latency table (count, min, p50,
 * p90, p99, max, exact unless marked "~"), as text or, with --json, one
 * object per conversation and one "overall" object (JSON Lines).  Also
 * what the bounded tables gave up (docs/capture.md, "Limits").
 */
#include <stdlib.h>
#include <string.h>
#include "cap_state.h"
#include "json.h"
#include "msgprint.h"
#include "nfs4_ops.h"
#include "rpc_names.h"
#include "rpcrdma/rpc.h"

static const char *const hist_names[CAP_HIST_N] = {
	"<256", "<512", "<1K", "<2K", "<4K", "<8K", "<16K", "<64K", "<1M", ">=1M",
};
static const char *const vers_names[3] = { "v1", "v2", "other" };
static const char *const proc_names[7] = {
	"MSG", "NOMSG", "MSGP", "DONE", "ERROR", "OPTIONAL", "other",
};
static const char *const way_names[2] = { "forward", "backward" };
static const char *const who[2] = { "requester", "responder" };

/* the messages of one version, all procedures */
static uint64_t vers_total(const struct cap_stats_conv *s, unsigned v)
{
	uint64_t tot = 0;

	for (unsigned p = 0; p < 7; p++)
		tot += s->msgs[v][p];
	return tot;
}

/* -------------------------------------------------------------- text */

/* "requester RFC 8797 v1, send 4096, receive 4096, remote invalidation" */
void cap_stats_private_print(FILE *out, const struct cap_stats_conv *s)
{
	struct rpcrdma_cm_private pd;

	if (!s->pd_seen[0] && !s->pd_seen[1])
		return;
	fputs("  private data:", out);
	for (int i = 0; i < 2; i++) {
		fprintf(out, "%s %s ", i ? ";" : "", who[i]);
		if (!s->pd_seen[i])
			fputs("not in the capture", out);
		else if (rpcrdma_cm_private_decode(s->pd[i], s->pd_len[i], &pd) !=
			 RPCRDMA_CM_OK)
			fputs("none (no RFC 8797 data)", out);
		else
			fprintf(out, "RFC 8797 v%u, send %u, receive %u, %s", pd.pd_version,
				pd.max_send_size, pd.max_recv_size,
				pd.pd_flags & RPCRDMA_CM_FLAG_REMOTE_INVALIDATE ?
				"remote invalidation" : "no remote invalidation");
	}
	fputc('\n', out);
}

/* "markers off", "markers on", "markers on one way" */
static const char *mpa_markers_text(const struct cap_stats_conv *s)
{
	uint8_t m = s->mpa_markers & s->mpa_inferred;
	return !m ? "off" : m == s->mpa_inferred ? "on" : "on one way";
}

/* iWARP without its MPA handshake: how the framing was found (cap_mpa.c) */
static void mpa_inferred_print(FILE *out, const struct cap_stats_conv *s)
{
	if (!s->mpa_inferred)
		return;
	fprintf(out, "  MPA framing inferred (no MPA handshake in the capture): "
		"CRC %s, markers %s, %s\n", s->mpa_crc ? "on" : "off",
		mpa_markers_text(s), s->mpa_inferred == 3 ? "both directions" :
		"one direction");
}

/* the later families every such message fits, else those any fits */
static unsigned v2_fam(const struct cap_stats_conv *s)
{
	return s->v2_fam_all ? s->v2_fam_all : s->v2_fam_any;
}

/* Version Two: the draft its messages were read as (docs/v2-drafts.md) */
static void v2_draft_text(FILE *out, const struct cap_stats_conv *s)
{
	uint64_t tot = vers_total(s, 1);

	if (!tot)
		return;
	fprintf(out, "  v2 read as " RPCRDMA_V2_DRAFT ": %llu messages\n",
		(unsigned long long)(tot - s->v2_later));
	if (s->v2_later)
		fprintf(out, "  v2 later draft layout (not decoded): %llu messages, "
			"fit %s (%s)\n", (unsigned long long)s->v2_later,
			rpcrdma_v2_family_drafts(v2_fam(s)),
			rpcrdma_v2_family_name(v2_fam(s)));
}

static void v2_draft_json(struct json *j, const struct cap_stats_conv *s)
{
	uint64_t tot = vers_total(s, 1);

	if (!tot)
		return;
	json_key(j, "v2_drafts");
	json_obj_begin(j);
	json_ku64(j, "cel-01", tot - s->v2_later);
	if (s->v2_later)
		json_ku64(j, rpcrdma_v2_family_name(v2_fam(s)), s->v2_later);
	json_obj_end(j);
}

static void print_conv_text(FILE *out, const struct cap_stats_conv *s,
			    bool overall)
{
	for (unsigned v = 0; v < 3; v++) {
		uint64_t tot = vers_total(s, v);
		if (!tot)
			continue;
		fprintf(out, "  %s messages: %llu (", vers_names[v], (unsigned long long)tot);
		bool first = true;
		for (unsigned p = 0; p < 7; p++)
			if (s->msgs[v][p]) {
				fprintf(out, "%s%s %llu", first ? "" : ", ", proc_names[p],
					(unsigned long long)s->msgs[v][p]);
				first = false;
			}
		fputs(")\n", out);
	}
	v2_draft_text(out, s);
	for (unsigned w = 0; w < 2; w++) {
		const struct cap_stats_rpc *r = &s->rpc[w];
		fprintf(out, "  %s calls %llu, replies %llu, replies without a call "
			"%llu; credits granted: ", way_names[w],
			(unsigned long long)r->calls, (unsigned long long)r->replies,
			(unsigned long long)r->orphans);
		if (r->have_credit)
			fprintf(out, "min %u, max %u, final %u\n", r->cmin, r->cmax,
				r->cfinal);
		else
			fputs("none seen\n", out);
	}
	if (!overall) {
		cap_stats_private_print(out, s);
		mpa_inferred_print(out, s);
	}
	for (int chunked = 0; chunked < 2; chunked++) {
		const uint64_t *h = chunked ? s->chunked_hist : s->inline_hist;
		fprintf(out, "  %s sizes:", chunked ? "chunked" : "inline ");
		for (unsigned i = 0; i < CAP_HIST_N; i++)
			if (h[i])
				fprintf(out, " %s:%llu", hist_names[i],
					(unsigned long long)h[i]);
		fputc('\n', out);
	}
	fprintf(out, "  RDMA bytes %llu, bad headers %llu, retransmissions %llu, "
		"CRC failures %llu, unmatched %llu", (unsigned long long)s->rdma_bytes,
		(unsigned long long)s->bad_headers, (unsigned long long)s->retrans,
		(unsigned long long)s->crc_fail, (unsigned long long)s->unmatched);
	if (overall)
		fprintf(out, ", violations %llu", (unsigned long long)s->violations);
	fputc('\n', out);
}

/* -------------------------------------------------------------- JSON */

static void json_counts(struct json *j, const struct cap_stats_conv *s,
			bool overall)
{
	json_key(j, "messages");
	json_obj_begin(j);
	for (unsigned v = 0; v < 3; v++) {
		if (!vers_total(s, v))
			continue;
		json_key(j, vers_names[v]);
		json_obj_begin(j);
		for (unsigned p = 0; p < 7; p++)
			if (s->msgs[v][p])
				json_ku64(j, proc_names[p], s->msgs[v][p]);
		json_obj_end(j);
	}
	json_obj_end(j);
	for (unsigned w = 0; w < 2; w++) {
		const struct cap_stats_rpc *r = &s->rpc[w];
		json_key(j, way_names[w]);
		json_obj_begin(j);
		json_ku64(j, "calls", r->calls);
		json_ku64(j, "replies", r->replies);
		json_ku64(j, "replies_without_call", r->orphans);
		json_key(j, "credits");
		if (r->have_credit) {
			json_obj_begin(j);
			json_ku64(j, "min", r->cmin);
			json_ku64(j, "max", r->cmax);
			json_ku64(j, "final", r->cfinal);
			json_obj_end(j);
		} else {
			json_null(j);
		}
		json_obj_end(j);
	}
	for (int chunked = 0; chunked < 2; chunked++) {
		const uint64_t *h = chunked ? s->chunked_hist : s->inline_hist;
		json_key(j, chunked ? "chunked_sizes" : "inline_sizes");
		json_obj_begin(j);
		for (unsigned i = 0; i < CAP_HIST_N; i++)
			if (h[i])
				json_ku64(j, hist_names[i], h[i]);
		json_obj_end(j);
	}
	json_ku64(j, "rdma_bytes", s->rdma_bytes);
	v2_draft_json(j, s);
	json_ku64(j, "bad_headers", s->bad_headers);
	json_ku64(j, "retransmissions", s->retrans);
	json_ku64(j, "crc_failures", s->crc_fail);
	json_ku64(j, "unmatched", s->unmatched);
	if (overall)
		json_ku64(j, "violations", s->violations);
}

static void json_private(struct json *j, const struct cap_stats_conv *s)
{
	struct rpcrdma_cm_private pd;

	if (!s->pd_seen[0] && !s->pd_seen[1])
		return;
	json_key(j, "private_data");
	json_obj_begin(j);
	for (int i = 0; i < 2; i++) {
		json_key(j, who[i]);
		if (!s->pd_seen[i]) {
			json_null(j);
		} else if (rpcrdma_cm_private_decode(s->pd[i], s->pd_len[i], &pd) !=
			   RPCRDMA_CM_OK) {
			json_str(j, "none");
		} else {
			json_obj_begin(j);
			json_ku64(j, "version", pd.pd_version);
			json_ku64(j, "send", pd.max_send_size);
			json_ku64(j, "receive", pd.max_recv_size);
			json_kbool(j, "remote_invalidate",
				   pd.pd_flags & RPCRDMA_CM_FLAG_REMOTE_INVALIDATE);
			json_obj_end(j);
		}
	}
	json_obj_end(j);
}

static void json_endpoint(struct json *j, struct cap_conv *c, int dir)
{
	char addr[48];

	cap_addr_text(addr, sizeof(addr), c->family, c->addr[dir], 0, false);
	json_obj_begin(j);
	json_kstr(j, "addr", addr);
	if (c->transport == CAP_T_IWARP)
		json_ku64(j, "port", c->port[dir]);
	else if (c->d[1 - dir].have_qp)
		json_khex(j, "qp", c->d[1 - dir].qp, 1);  /* the QP it sends from */
	json_obj_end(j);
}

void cap_stats_conv_print(FILE *out, struct cap_conv *c, bool as_json,
			  const char *file, bool name_file)
{
	if (!as_json) {
		/* frame numbers restart with each file: several name theirs */
		fprintf(out, "conversation %u: %s <-> %s (%s), frames %llu-%llu%s%s\n",
			c->id, cap_dir_name(c, 0), cap_dir_name(c, 1),
			cap_transport_name(c->transport),
			(unsigned long long)c->stats.first_frame,
			(unsigned long long)c->last_frame,
			name_file ? " of " : "", name_file ? file : "");
		print_conv_text(out, &c->stats, false);
		cap_loss_text(out, c, &c->stats);
		return;
	}
	struct obuf o;
	struct json j;
	ob_init(&o, out);
	json_init(&j, &o);
	json_obj_begin(&j);
	json_kstr(&j, "type", "conversation");
	json_kstr(&j, "file", file);
	json_ku64(&j, "conversation", c->id);
	json_kstr(&j, "transport", cap_transport_name(c->transport));
	json_key(&j, "endpoints");
	json_arr_begin(&j);
	json_endpoint(&j, c, 0);
	json_endpoint(&j, c, 1);
	json_arr_end(&j);
	json_ku64(&j, "first_frame", c->stats.first_frame);
	json_ku64(&j, "last_frame", c->last_frame);
	json_counts(&j, &c->stats, false);
	cap_loss_json(&j, c, &c->stats);
	json_private(&j, &c->stats);
	if (c->stats.mpa_inferred) {
		json_key(&j, "mpa_inferred");
		json_obj_begin(&j);
		json_kbool(&j, "crc", c->stats.mpa_crc);
		json_kstr(&j, "markers", mpa_markers_text(&c->stats));
		json_ku64(&j, "directions", c->stats.mpa_inferred == 3 ? 2 : 1);
		json_obj_end(&j);
	}
	json_obj_end(&j);
	ob_putc(&o, '\n');
	ob_flush(&o);
}

/* ----------------------------------------------------------- latency */

static int by_proc(const void *a, const void *b)
{
	const struct cap_stats_proc *x = *(const struct cap_stats_proc *const *)a;
	const struct cap_stats_proc *y = *(const struct cap_stats_proc *const *)b;
	if (x->prog != y->prog)
		return x->prog < y->prog ? -1 : 1;
	if (x->vers != y->vers)
		return x->vers < y->vers ? -1 : 1;
	if (x->proc != y->proc)
		return x->proc < y->proc ? -1 : 1;
	return x->op < y->op ? -1 : x->op > y->op;
}

/* "NFS v3 READ", "NFS v4 READ" (a COMPOUND by its main operation),
 * "NFS callback v1 CB_RECALL", "123456 v1 proc 3" */
void cap_stats_proc_label(const struct cap_stats_proc *p, char *name, size_t cap)
{
	const char *pn = msgprint_program_name(p->prog);
	const char *cn = rpc_proc_name(p->prog, p->vers, p->proc);
	int cb = msgprint_is_compound(p->prog, p->vers, p->proc);

	if (cb && p->op != NFS4_OP_NONE && nfs4_op_name(p->op, cb == 2))
		cn = nfs4_op_name(p->op, cb == 2);
	if (pn && cn)
		snprintf(name, cap, "%s v%u %s", pn, p->vers, cn);
	else if (pn)
		snprintf(name, cap, "%s v%u proc %u", pn, p->vers, p->proc);
	else
		snprintf(name, cap, "%u v%u proc %u", p->prog, p->vers, p->proc);
}

static unsigned latency_order(struct cap_state *st,
			      struct cap_stats_proc **order)
{
	unsigned n = 0;

	for (unsigned i = 0; st->stats.procs && i < CAP_PROCS_MAX; i++)
		if (st->stats.procs[i].used) {
			cap_lat_done(&st->stats.procs[i].lat);
			order[n++] = &st->stats.procs[i];
		}
	qsort(order, n, sizeof(order[0]), by_proc);
	return n;
}

static void latency_text(struct cap_state *st, FILE *out)
{
	struct cap_stats_proc *order[CAP_PROCS_MAX];
	unsigned n = latency_order(st, order);
	bool approx = false;
	char name[96];

	if (n && st->stats.ts_back)
		fprintf(out, "  timestamps: %llu frames stamped more than a second "
			"before the frame before them (the first: frame %llu, %llu s "
			"back): the capture mixes two clocks, so the latencies below "
			"are not to be trusted\n",
			(unsigned long long)st->stats.ts_back,
			(unsigned long long)st->stats.ts_back_frame,
			(unsigned long long)st->stats.ts_back_sec);
	if (n)
		fprintf(out, "  %-32s %7s %7s %7s %7s %7s %7s\n", "RPC latency (us)",
			"count", "min", "p50", "p90", "p99", "max");
	for (unsigned i = 0; i < n; i++) {
		const struct cap_lat *l = &order[i]->lat;
		cap_stats_proc_label(order[i], name, sizeof(name));
		fprintf(out, "  %-32s %7llu %7llu %7llu %7llu %7llu %7llu%s\n", name,
			(unsigned long long)l->n, (unsigned long long)l->min,
			(unsigned long long)cap_lat_pct(l, 50),
			(unsigned long long)cap_lat_pct(l, 90),
			(unsigned long long)cap_lat_pct(l, 99),
			(unsigned long long)l->max, cap_lat_exact(l) ? "" : " ~");
		approx |= !cap_lat_exact(l);
	}
	if (approx)
		fprintf(out, "  ~ p50, p90, p99 within 1 %% (a histogram): more than "
			"%u latencies in all; count, min and max exact\n",
			CAP_LAT_SAMPLES);
}

static void latency_json(struct cap_state *st, struct json *j)
{
	struct cap_stats_proc *order[CAP_PROCS_MAX];
	unsigned n = latency_order(st, order);
	char name[96];

	if (n && st->stats.ts_back) {
		/* only when it happened: the usual record stays as it was */
		json_ku64(j, "ts_steps_back", st->stats.ts_back);
		json_ku64(j, "ts_first_step_back_frame", st->stats.ts_back_frame);
		json_ku64(j, "ts_first_step_back_s", st->stats.ts_back_sec);
	}
	json_key(j, "latency");
	json_arr_begin(j);
	for (unsigned i = 0; i < n; i++) {
		const struct cap_stats_proc *p = order[i];
		const struct cap_lat *l = &p->lat;
		int cb = msgprint_is_compound(p->prog, p->vers, p->proc);
		cap_stats_proc_label(p, name, sizeof(name));
		json_obj_begin(j);
		json_kstr(j, "name", name);
		json_ku64(j, "prog", p->prog);
		json_ku64(j, "vers", p->vers);
		json_ku64(j, "proc", p->proc);
		if (p->op != NFS4_OP_NONE)
			json_kstr(j, "op", nfs4_op_name(p->op, cb == 2));
		json_ku64(j, "count", l->n);
		json_ku64(j, "min_us", l->min);
		json_ku64(j, "p50_us", cap_lat_pct(l, 50));
		json_ku64(j, "p90_us", cap_lat_pct(l, 90));
		json_ku64(j, "p99_us", cap_lat_pct(l, 99));
		json_ku64(j, "max_us", l->max);
		json_ku64(j, "mean_us", l->n ? l->sum / l->n : 0);
		json_kbool(j, "exact", cap_lat_exact(l));
		json_obj_end(j);
	}
	json_arr_end(j);
}

/* ----------------------------------------------------------- overall */

void cap_stats_print(struct cap_state *st, FILE *out)
{
	char buf[4096];
	size_t got;

	if (st->stats.closed) {
		rewind(st->stats.closed);
		while ((got = fread(buf, 1, sizeof(buf), st->stats.closed)) > 0)
			fwrite(buf, 1, got, out);
	}
	if (st->o->json) {
		struct obuf o;
		struct json j;
		ob_init(&o, out);
		json_init(&j, &o);
		json_obj_begin(&j);
		json_kstr(&j, "type", "overall");
		json_ku64(&j, "frames", st->stats.frames);
		json_ku64(&j, "rdma_packets", st->stats.frames_rdma);
		json_ku64(&j, "truncated", st->stats.frames_truncated);
		json_ku64(&j, "invalid", st->stats.frames_invalid);
		json_ku64(&j, "conversations", st->stats.nclosed);
		json_counts(&j, &st->stats.total, true);
		cap_loss_json(&j, NULL, &st->stats.total);
		latency_json(st, &j);
		json_obj_end(&j);
		ob_putc(&o, '\n');
		ob_flush(&o);
		if (cap_lost_any(&st->lost))
			cap_lost_print(&st->lost, out, true);
		return;
	}
	fprintf(out, "overall: %llu frames, %llu RDMA packets, %llu truncated, "
		"%llu invalid, %u conversations\n",
		(unsigned long long)st->stats.frames,
		(unsigned long long)st->stats.frames_rdma,
		(unsigned long long)st->stats.frames_truncated,
		(unsigned long long)st->stats.frames_invalid, st->stats.nclosed);
	print_conv_text(out, &st->stats.total, true);
	cap_loss_text(out, NULL, &st->stats.total);
	if (cap_lost_any(&st->lost))
		cap_lost_print(&st->lost, out, false);
	else if (st->lost.evicted)
		fprintf(out, "  conversations closed early for room: %llu (nothing "
			"in flight lost)\n", (unsigned long long)st->lost.evicted);
	latency_text(st, out);
}

bool cap_lost_any(const struct cap_lost *l)
{
	return l->convs || l->calls || l->untracked || l->resyncs ||
	       l->budget || l->sends;
}

/* What the bounded tables gave up (docs/capture.md, "Limits"): a --stats
 * line, or with --json one object {"type":"lost",...} */
void cap_lost_print(const struct cap_lost *l, FILE *out, bool json)
{
	unsigned long long v[8] = { l->convs, l->calls, l->untracked, l->resyncs,
				    l->stream_bytes, l->budget, l->sends, l->evicted };
	if (json)
		fprintf(out, "{\"type\":\"lost\",\"conversations\":%llu,"
			"\"calls\":%llu,\"untracked_calls\":%llu,\"tcp_resyncs\":%llu,"
			"\"stream_bytes\":%llu,\"budget\":%llu,\"sends\":%llu,"
			"\"evicted\":%llu}\n",
			v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]);
	else
		fprintf(out, "  lost: %llu conversations closed "
			"early with a message in flight (of %llu closed for room), "
			"%llu calls forgotten before their reply, %llu calls with "
			"untracked chunks, %llu TCP resynchronisations (%llu stream "
			"bytes), %llu reassemblies over the byte budget, %llu Sends "
			"over %u bytes\n", v[0], v[7], v[1], v[2], v[3], v[4], v[5],
			v[6], CAP_MAX_SEND);
}
