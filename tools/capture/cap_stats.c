/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cap_stats.c - --stats: per conversation and overall, messages by version
 * and type, credits granted over time (V1 4.3.1), inline vs chunked message
 * sizes (V1 4.5), RPC round-trip latency percentiles per program/procedure,
 * faults, and the RFC 8797 private data each end sent at connect time.  Conversations closed before the end are summarised at once into
 * a temporary file, so memory does not grow with their number.
 */
#include <stdlib.h>
#include <string.h>
#include "cap_state.h"
#include "msgprint.h"
#include "rpcrdma/rpc.h"

static const char *const hist_names[CAP_HIST_N] = {
	"<256", "<512", "<1K", "<2K", "<4K", "<8K", "<16K", "<64K", "<1M", ">=1M",
};

static unsigned size_bucket(uint32_t n)
{
	static const uint32_t lim[CAP_HIST_N - 1] = {
		256, 512, 1024, 2048, 4096, 8192, 16384, 65536, 1u << 20,
	};
	unsigned i = 0;
	while (i < CAP_HIST_N - 1 && n >= lim[i])
		i++;
	return i;
}

/* the counts by kind and size, cleared when first wanted */
void cap_stats_sizes(struct cap_stats_conv *s)
{
	if (!s->have_sizes) {
		memset((char *)s + CAP_STATS_SIZES_OFF, 0,
		       sizeof(*s) - CAP_STATS_SIZES_OFF);
		s->have_sizes = true;
	}
}

void cap_stats_msg(struct cap_stats_conv *s, uint32_t vers, uint32_t proc,
		   bool chunked, uint32_t size, uint64_t frame)
{
	unsigned v = vers == 1 ? 0 : vers == 2 ? 1 : 2;
	unsigned p = proc <= 5 ? proc : 6;
	cap_stats_sizes(s);
	s->msgs[v][p]++;
	if (chunked)
		s->chunked_hist[size_bucket(size)]++;
	else
		s->inline_hist[size_bucket(size)]++;
	if (!s->first_frame)
		s->first_frame = frame;
	s->last_frame = frame;
}

void cap_stats_credit(struct cap_stats_conv *s, uint32_t credit)
{
	if (!s->have_credit || credit < s->cmin)
		s->cmin = credit;
	if (!s->have_credit || credit > s->cmax)
		s->cmax = credit;
	s->cfinal = credit;
	s->have_credit = true;
}

/* log-linear buckets: 16 linear steps per power of two */
static unsigned lat_bucket(uint64_t us)
{
	if (us < 16)
		return (unsigned)us;
	unsigned e = 63u - (unsigned)__builtin_clzll(us);      /* >= 4 */
	unsigned b = 16 + (e - 4) * 16 + (unsigned)((us >> (e - 4)) & 15);
	return b < CAP_LAT_N ? b : CAP_LAT_N - 1;
}

static uint64_t lat_value(unsigned b)
{
	if (b < 16)
		return b;
	unsigned e = (b - 16) / 16 + 4, m = (b - 16) % 16;
	return ((uint64_t)16 + m) << (e - 4);
}

void cap_stats_latency(struct cap_state *st, uint32_t prog, uint32_t vers,
		       uint32_t proc, uint64_t us)
{
	struct cap_stats_proc *free_slot = NULL;
	uint32_t h = (prog * 31u + vers * 7u + proc) % CAP_PROCS_MAX;

	if (!st->stats.procs &&
	    !(st->stats.procs = calloc(CAP_PROCS_MAX, sizeof(*st->stats.procs))))
		return;

	for (uint32_t i = 0; i < CAP_PROCS_MAX; i++) {
		struct cap_stats_proc *p = &st->stats.procs[(h + i) % CAP_PROCS_MAX];
		if (p->used && p->prog == prog && p->vers == vers && p->proc == proc) {
			free_slot = p;
			break;
		}
		if (!p->used) {
			free_slot = p;
			free_slot->used = true;
			free_slot->prog = prog;
			free_slot->vers = vers;
			free_slot->proc = proc;
			break;
		}
	}
	if (!free_slot)
		return;                    /* more than 256 procedures */
	free_slot->n++;
	free_slot->sum_us += us;
	if (us > free_slot->max_us)
		free_slot->max_us = us;
	free_slot->hist[lat_bucket(us)]++;
}

static uint64_t percentile(const struct cap_stats_proc *p, unsigned pct)
{
	uint64_t want = (p->n * pct + 99) / 100, seen = 0;
	for (unsigned b = 0; b < CAP_LAT_N; b++) {
		seen += p->hist[b];
		if (seen >= want && want)
			return lat_value(b) < p->max_us ? lat_value(b) : p->max_us;
	}
	return p->max_us;
}

void cap_stats_private(struct cap_stats_conv *s, int who, const uint8_t *pd,
		       uint32_t len)
{
	s->pd_seen[who] = 1;
	s->pd_len[who] = (uint8_t)(len < 8 ? len : 8);
	memcpy(s->pd[who], pd, s->pd_len[who]);
}

/* "requester RFC 8797 v1, send 4096, receive 4096, remote invalidation" */
static void print_private(FILE *out, const struct cap_stats_conv *s)
{
	static const char *const who[2] = { "requester", "responder" };
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

static void print_conv_stats(FILE *out, const struct cap_stats_conv *s,
			     bool overall)
{
	static const char *const vn[3] = { "v1", "v2", "other" };
	static const char *const pn[7] = {
		"MSG", "NOMSG", "MSGP", "DONE", "ERROR", "OPTIONAL", "other",
	};
	for (unsigned v = 0; v < 3; v++) {
		uint64_t tot = 0;
		for (unsigned p = 0; p < 7; p++)
			tot += s->msgs[v][p];
		if (!tot)
			continue;
		fprintf(out, "  %s messages: %llu (", vn[v], (unsigned long long)tot);
		bool first = true;
		for (unsigned p = 0; p < 7; p++)
			if (s->msgs[v][p]) {
				fprintf(out, "%s%s %llu", first ? "" : ", ", pn[p],
					(unsigned long long)s->msgs[v][p]);
				first = false;
			}
		fputs(")\n", out);
	}
	fprintf(out, "  calls %llu, replies %llu, backward calls %llu, "
		"unmatched %llu\n", (unsigned long long)s->calls,
		(unsigned long long)s->replies, (unsigned long long)s->backward,
		(unsigned long long)s->unmatched);
	if (s->have_credit)
		fprintf(out, "  credits granted: min %u, max %u, final %u\n",
			s->cmin, s->cmax, s->cfinal);
	else
		fputs("  credits granted: none seen\n", out);
	if (!overall)
		print_private(out, s);
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
		"CRC failures %llu", (unsigned long long)s->rdma_bytes,
		(unsigned long long)s->bad_headers,
		(unsigned long long)s->retrans, (unsigned long long)s->crc_fail);
	if (overall)
		fprintf(out, ", violations %llu",
			(unsigned long long)s->violations);
	fputc('\n', out);
}

void cap_stats_conv_done(struct cap_state *st, struct cap_conv *c)
{
	if (!st->o->stats)
		return;
	cap_stats_sizes(&c->stats);
	uint64_t msgs = 0;
	for (unsigned v = 0; v < 3; v++)
		for (unsigned p = 0; p < 7; p++)
			msgs += c->stats.msgs[v][p];
	if (!msgs && !c->stats.rdma_bytes)
		return;                    /* e.g. TCP that was not iWARP */
	if (!st->stats.closed)
		st->stats.closed = tmpfile();
	if (!st->stats.closed)
		return;
	char src[96], dst[96];
	snprintf(src, sizeof(src), "%s", cap_dir_name(c, 0));
	snprintf(dst, sizeof(dst), "%s", cap_dir_name(c, 1));
	fprintf(st->stats.closed, "conversation %u: %s <-> %s (%s), frames %llu-%llu\n",
		c->id, src, dst, cap_transport_name(c->transport),
		(unsigned long long)c->stats.first_frame,
		(unsigned long long)c->last_frame);
	print_conv_stats(st->stats.closed, &c->stats, false);
	st->stats.total.rdma_bytes += c->stats.rdma_bytes;
	st->stats.total.calls += c->stats.calls;
	st->stats.total.replies += c->stats.replies;
	st->stats.total.backward += c->stats.backward;
	st->stats.total.unmatched += c->stats.unmatched;
	st->stats.nclosed++;
}

static int by_proc(const void *a, const void *b)
{
	const struct cap_stats_proc *x = *(const struct cap_stats_proc *const *)a;
	const struct cap_stats_proc *y = *(const struct cap_stats_proc *const *)b;
	if (x->prog != y->prog)
		return x->prog < y->prog ? -1 : 1;
	if (x->vers != y->vers)
		return x->vers < y->vers ? -1 : 1;
	return x->proc < y->proc ? -1 : x->proc > y->proc;
}

void cap_stats_print(struct cap_state *st, FILE *out)
{
	char buf[4096];
	size_t got;

	if (st->stats.closed) {
		rewind(st->stats.closed);
		while ((got = fread(buf, 1, sizeof(buf), st->stats.closed)) > 0)
			fwrite(buf, 1, got, out);
	}
	fprintf(out, "overall: %llu frames, %llu RDMA packets, %llu truncated, "
		"%llu invalid, %u conversations\n",
		(unsigned long long)st->stats.frames,
		(unsigned long long)st->stats.frames_rdma,
		(unsigned long long)st->stats.frames_truncated,
		(unsigned long long)st->stats.frames_invalid, st->stats.nclosed);
	print_conv_stats(out, &st->stats.total, true);
	if (cap_lost_any(&st->lost))
		cap_lost_print(&st->lost, out, false);
	else if (st->lost.evicted)
		fprintf(out, "  conversations closed early for room: %llu (nothing "
			"in flight lost)\n", (unsigned long long)st->lost.evicted);
	/* the latency table in program, version, procedure order */
	const struct cap_stats_proc *order[CAP_PROCS_MAX];
	unsigned n = 0;
	for (unsigned i = 0; i < CAP_PROCS_MAX && st->stats.procs; i++)
		if (st->stats.procs[i].used)
			order[n++] = &st->stats.procs[i];
	qsort(order, n, sizeof(order[0]), by_proc);
	bool any = false;
	for (unsigned i = 0; i < n; i++) {
		const struct cap_stats_proc *p = order[i];
		if (!any)
			fputs("  RPC latency (us)              count     p50     p90     p99     max\n", out);
		any = true;
		const char *pn = rpc_program_name(p->prog);
		const char *cn = rpc_proc_name(p->prog, p->vers, p->proc);
		char name[64];
		if (pn && cn)
			snprintf(name, sizeof(name), "%s v%u %s", pn, p->vers, cn);
		else if (pn)
			snprintf(name, sizeof(name), "%s v%u proc %u", pn, p->vers, p->proc);
		else
			snprintf(name, sizeof(name), "%u v%u proc %u", p->prog, p->vers, p->proc);
		fprintf(out, "  %-28s %7llu %7llu %7llu %7llu %7llu\n", name,
			(unsigned long long)p->n,
			(unsigned long long)percentile(p, 50),
			(unsigned long long)percentile(p, 90),
			(unsigned long long)percentile(p, 99),
			(unsigned long long)p->max_us);
	}
}

bool cap_lost_any(const struct cap_lost *l)
{
	return l->convs || l->calls || l->untracked || l->resyncs ||
	       l->budget || l->sends;
}

/* What the bounded tables gave up (docs/capture.md, "Limits"): a --stats
 * line, or with --json one object {"lost": {...}} */
void cap_lost_print(const struct cap_lost *l, FILE *out, bool json)
{
	unsigned long long v[8] = { l->convs, l->calls, l->untracked, l->resyncs,
				    l->stream_bytes, l->budget, l->sends, l->evicted };
	if (json)
		fprintf(out, "{\"lost\":{\"conversations\":%llu,\"calls\":%llu,"
			"\"untracked_calls\":%llu,\"tcp_resyncs\":%llu,"
			"\"stream_bytes\":%llu,\"budget\":%llu,\"sends\":%llu,"
			"\"evicted\":%llu}}\n",
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
