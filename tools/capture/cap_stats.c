/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cap_stats.c - --stats counting: per conversation and overall, messages by
 * version and type, calls and replies by direction of RPC (BIDI 2.4: the
 * backward direction apart), credits granted to each caller (V1 4.3.1),
 * inline vs chunked message sizes (V1 4.5), RPC round-trip latency per
 * program/procedure and NFSv4 operation (exact, cap_lat.c), the RFC 8797
 * private data each end sent.  Conversations closed before the end are
 * summarised at once into a temporary file (cap_stats_print.c), so memory
 * does not grow with their number.
 */
#include <stdlib.h>
#include <string.h>
#include "cap_state.h"
#include "minmax.h"
#include "msgprint.h"
#include "nfs4_ops.h"

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

void cap_stats_credit(struct cap_stats_rpc *r, uint32_t credit)
{
	u32_minmax_add(&r->have_credit, &r->cmin, &r->cmax, credit);
	r->cfinal = credit;
}

int cap_stats_latency(struct cap_state *st, const struct cap_call *k,
		      uint64_t us)
{
	uint32_t op = NFS4_OP_NONE;
	int cb = msgprint_is_compound(k->prog, k->vers, k->proc);

	if (cb && k->have_ops)
		op = nfs4_main_op(&k->ops, cb == 2);
	uint32_t h = (k->prog * 31u + k->vers * 7u + k->proc + op * 13u) %
		     CAP_PROCS_MAX;
	if (!st->stats.procs &&
	    !(st->stats.procs = calloc(CAP_PROCS_MAX, sizeof(*st->stats.procs))))
		return -1;
	for (uint32_t i = 0; i < CAP_PROCS_MAX; i++) {
		struct cap_stats_proc *p = &st->stats.procs[(h + i) % CAP_PROCS_MAX];
		if (!p->used) {
			p->used = true;
			p->prog = k->prog;
			p->vers = k->vers;
			p->proc = k->proc;
			p->op = op;
		} else if (p->prog != k->prog || p->vers != k->vers ||
			   p->proc != k->proc || p->op != op) {
			continue;
		}
		if (!st->stats.pool.limit)
			st->stats.pool.limit = CAP_LAT_SAMPLES;
		cap_lat_add(&p->lat, &st->stats.pool, us);
		return (int)((h + i) % CAP_PROCS_MAX);
	}
	return -1;                         /* more than CAP_PROCS_MAX procedures */
}

void cap_stats_private(struct cap_stats_conv *s, int who, const uint8_t *pd,
		       uint32_t len)
{
	s->pd_seen[who] = 1;
	s->pd_len[who] = (uint8_t)(len < 8 ? len : 8);
	memcpy(s->pd[who], pd, s->pd_len[who]);
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
	/* e.g. TCP that was not iWARP; with filters, what they left out */
	if (!msgs && (!c->stats.rdma_bytes || cap_filtering(st)))
		return;
	if (!st->stats.closed)
		st->stats.closed = tmpfile();
	if (!st->stats.closed)
		return;
	cap_stats_conv_print(st->stats.closed, c, st->o->json, st->file,
			     st->o->name_files);
	/* (message counts and credits went to the total as they came) */
	st->stats.total.rdma_bytes += c->stats.rdma_bytes;
	st->stats.total.unmatched += c->stats.unmatched;
	st->stats.nclosed++;
}

void cap_stats_free(struct cap_state *st)
{
	for (unsigned i = 0; st->stats.procs && i < CAP_PROCS_MAX; i++)
		cap_lat_free(&st->stats.procs[i].lat, &st->stats.pool);
	free(st->stats.procs);
	st->stats.procs = NULL;
	if (st->stats.closed)
		fclose(st->stats.closed);
	st->stats.closed = NULL;
}
