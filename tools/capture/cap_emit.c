/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cap_emit.c - one decoded message out of the pipeline (docs/capture.md,
 * "Output modes"): the filters decide for every mode, so that --stats
 * counts and --check reports only what the filters select; then the
 * message's tally (--stats: counts by direction of RPC, BIDI 2.4; credits
 * granted, V1 4.3.1; latency), the violations found in it, -c, and the
 * printer with the capture's context (endpoints, time column, chunk data).
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include "cap_state.h"
#include "msgprint.h"
#include "nfs4_ops.h"

/* What the output has done so far: cap_emit.c's part of the run (st->em) */
struct cap_emit_state {
	uint64_t emitted;            /* messages that passed the filters */
	bool have_ts0;               /* -ttttt, -ttt: the first and the last */
	int64_t ts0_sec, tsp_sec;    /* time stamps printed */
	uint32_t ts0_usec, tsp_usec;
};

bool cap_emit_init(struct cap_state *st)
{
	return (st->em = calloc(1, sizeof(*st->em))) != NULL;
}

void cap_emit_free(struct cap_state *st)
{
	free(st->em);
	st->em = NULL;
}

/* --procedure NAME: the call's procedure, or an operation of its COMPOUND */
static bool proc_named(const struct cap_state *st, const struct cap_call *k)
{
	const char *pn = rpc_proc_name(k->prog, k->vers, k->proc);
	bool cb = msgprint_is_compound(k->prog, k->vers, k->proc) == 2;

	for (uint32_t i = 0; i < st->o->nproc_names; i++) {
		const char *want = st->o->proc_names[i];
		if (pn && !strcasecmp(pn, want))
			return true;
		for (uint32_t n = 0; k->have_ops && n < k->ops.n; n++) {
			const char *on = nfs4_op_name(k->ops.ops[n], cb);
			if (on && !strcasecmp(on, want))
				return true;
		}
	}
	return false;
}

/* a call's filters apply to its reply through k */
static bool wanted(const struct cap_state *st, const struct cap_conv *c,
		   const struct rpcrdma_msg *m, const struct cap_call *k)
{
	const struct cap_opts *o = st->o;
	bool rpc = k && k->have_rpc;

	if (o->nxids && (m->nfixed < 1 || !cap_in_list(o->xids, o->nxids, m->rdma_xid)))
		return false;
	if (o->nconvs && !cap_in_list(o->convs, o->nconvs, c->id))
		return false;
	if (o->have_vers && (m->nfixed < 2 || m->rdma_vers != o->vers))
		return false;
	if (o->nprogs && (!rpc || !cap_in_list(o->progs, o->nprogs, k->prog)))
		return false;
	if ((o->nprocs || o->nproc_names) &&
	    (!rpc || !(cap_in_list(o->procs, o->nprocs, k->proc) || proc_named(st, k))))
		return false;
	return true;
}

/* One token per endpoint, whatever the transport: "198.18.0.1:20049"
 * (iWARP), "198.18.0.1/qp=0x11" (IB, RoCE; "qp=?" while the sending QP is
 * not known); and the same as separate fields for --json */
static void endpoint_text(struct cap_conv *c, int dir)
{
	const struct cap_dir *d = &c->d[dir], *p = &c->d[1 - dir];
	const char *dn = cap_dir_name(c, dir), *pn = cap_dir_name(c, 1 - dir);
	char src[sizeof(c->txt[dir].src)], dst[sizeof(c->txt[dir].dst)];

	cap_addr_text(c->txt[dir].addr, sizeof(c->txt[dir].addr), c->family,
		      c->addr[dir], 0, false);
	if (c->transport == CAP_T_IWARP) {
		snprintf(src, sizeof(src), "%s", dn);
		snprintf(dst, sizeof(dst), "%s", pn);
	} else {
		if (p->have_qp)
			snprintf(src, sizeof(src), "%s/qp=0x%x", dn, p->qp);
		else
			snprintf(src, sizeof(src), "%s/qp=?", dn);
		snprintf(dst, sizeof(dst), "%s/qp=0x%x", pn, d->qp);
	}
	memcpy(c->txt[dir].src, src, sizeof(src));
	memcpy(c->txt[dir].dst, dst, sizeof(dst));
	c->d[dir].txt_ok = true;
}

static void endpoints(struct cap_conv *c, int dir, struct msg_ctx *x)
{
	const struct cap_dir *d = &c->d[dir], *p = &c->d[1 - dir];

	if (!d->txt_ok)
		endpoint_text(c, dir);
	if (!p->txt_ok)
		endpoint_text(c, 1 - dir);
	x->src = c->txt[dir].src;
	x->dst = c->txt[dir].dst;
	x->src_ep.addr = c->txt[dir].addr;
	x->dst_ep.addr = c->txt[1 - dir].addr;
	if (c->transport == CAP_T_IWARP) {
		x->src_ep.have_port = x->dst_ep.have_port = true;
		x->src_ep.port = c->port[dir];
		x->dst_ep.port = c->port[1 - dir];
	} else {
		x->src_ep.have_qp = p->have_qp;
		x->src_ep.qp = p->qp;
		x->dst_ep.have_qp = true;
		x->dst_ep.qp = d->qp;
	}
}

/* --stats (and --plot): what this message adds; nothing else reads it, so
 * it is not kept without them (the latency samples, a message's counts) */
static void tally(struct cap_state *st, struct cap_conv *c, int dir,
		  const struct rpcrdma_msg *m, const struct msg_ctx *x,
		  const struct cap_emit *e)
{
	struct cap_stats_conv *s[2] = { &c->stats, &st->stats.total };
	bool chunked = m->nreads || m->nwrites || m->has_reply;
	unsigned way = e->backward ? CAP_BWD : CAP_FWD;
	uint32_t len = m->len > UINT32_MAX ? UINT32_MAX : (uint32_t)m->len;
	bool bad = (!e->partial || m->action == RPCRDMA_ACCEPT) &&
		   m->action != RPCRDMA_ACCEPT &&
		   m->action != RPCRDMA_REPLY_INVAL_OPTION && !e->later;

	for (int i = 0; i < 2; i++) {
		cap_stats_msg(s[i], m->rdma_vers, m->rdma_proc, chunked, len, x->frame);
		s[i]->bad_headers += bad;
		if (e->later) {
			s[i]->v2_fam_all = s[i]->v2_later ?
					   s[i]->v2_fam_all & e->fam : e->fam;
			s[i]->v2_fam_any |= e->fam;
			s[i]->v2_later++;
		}
		if (e->is_call)
			s[i]->rpc[way].calls++;
		if (e->is_reply && e->k)
			s[i]->rpc[way].replies++;
		if (e->is_reply && !e->k)
			s[i]->rpc[way].orphans++;
		if (e->grant)
			cap_stats_credit(&s[i]->rpc[way], e->credit);
	}
	int slot = -1;
	if (e->is_reply && e->k && e->k->have_rpc && x->have_latency)
		slot = cap_stats_latency(st, e->k, x->latency_us);
	if (st->plot)
		cap_plot_msg(st, c, dir, x, e, slot);
}

/* the TIME column (-t): tcpdump's forms, one word each */
static const char *time_text(struct cap_state *st, const struct msg_ctx *x,
			     char *buf, size_t cap)
{
	int64_t sec = x->ts_sec, ref_sec;
	uint32_t usec = x->ts_usec, ref_usec;

	if (!st->em->have_ts0) {
		st->em->have_ts0 = true;
		st->em->ts0_sec = st->em->tsp_sec = sec;
		st->em->ts0_usec = st->em->tsp_usec = usec;
	}
	switch (st->o->time_format) {
	case CAP_TIME_NONE:
		return "";
	case CAP_TIME_DELTA:
	case CAP_TIME_RELATIVE: {
		bool delta = st->o->time_format == CAP_TIME_DELTA;
		ref_sec = delta ? st->em->tsp_sec : st->em->ts0_sec;
		ref_usec = delta ? st->em->tsp_usec : st->em->ts0_usec;
		st->em->tsp_sec = sec;
		st->em->tsp_usec = usec;
		int64_t d = (sec - ref_sec) * 1000000 + ((int64_t)usec - ref_usec);
		uint64_t a = d < 0 ? (uint64_t)-d : (uint64_t)d;
		snprintf(buf, cap, "%s%llu.%06llu", d < 0 ? "-" : "",
			 (unsigned long long)(a / 1000000),
			 (unsigned long long)(a % 1000000));
		return buf;
	}
	case CAP_TIME_DATE:
	case CAP_TIME_CLOCK: {
		time_t t = (time_t)sec;
		struct tm tm;
		char hms[40];
		if (!localtime_r(&t, &tm))
			return NULL;
		strftime(hms, sizeof(hms), st->o->time_format == CAP_TIME_DATE ?
			 "%Y-%m-%dT%H:%M:%S" : "%H:%M:%S", &tm);
		snprintf(buf, cap, "%s.%06u", hms, usec % 1000000);
		return buf;
	}
	default:
		return NULL;                   /* seconds since the epoch */
	}
}

/* The one-line output names the Version Two draft once per conversation,
 * before its first cel-01 message (-V and --json name it per message) */
static void v2_name_line(struct cap_state *st, struct cap_conv *c,
			 const struct rpcrdma_msg *m, const struct cap_emit *e)
{
	if (c->stats.v2_named || e->later || m->nfixed < 2 ||
	    m->rdma_vers != RPCRDMA_VERSION_TWO)
		return;
	c->stats.v2_named = true;
	if (st->o->name_files)
		fprintf(st->out, "%s: ", st->file);
	fprintf(st->out, "conv %u: Version Two read as " RPCRDMA_V2_DRAFT "\n",
		c->id);
}

void cap_emit(struct cap_state *st, struct cap_conv *c, int dir,
	      const struct rpcrdma_msg *m, struct msg_ctx *x,
	      const struct cap_emit *e)
{
	const struct cap_opts *o = st->o;
	unsigned from = st->held_base, n = st->nheld - from;

	if ((o->count && st->em->emitted >= o->count) ||
	    !wanted(st, c, m, e->k)) {
		st->nheld = from;              /* its violations go with it */
		return;
	}
	if (++st->em->emitted == o->count)
		st->stop = true;
	if (o->stats || st->plot)          /* their only readers */
		tally(st, c, dir, m, x, e);
	if (st->writer) {                  /* -w: its frames */
		cap_write_mark(st, c->id, e->first ? e->first : x->frame, x->frame);
		if (e->k && e->is_call)
			cap_write_mark(st, c->id, e->k->rd_first, e->k->rd_last);
		if (e->k && e->is_reply)
			cap_write_mark(st, c->id, e->k->wr_first, e->k->wr_last);
	}
	bool print = !o->stats && !o->quiet && (!o->check || o->check_inline);
	if (!print || !o->check_inline) {
		for (unsigned i = 0; i < n; i++)
			cap_lint_print(st, &st->held[from + i]);
		st->nheld = from;
		if (!print)
			return;
	}
	endpoints(c, dir, x);
	x->in_capture = true;
	x->file = st->file;
	x->file_prefix = o->name_files;
	x->transport = cap_transport_name(c->transport);
	x->conversation = c->id;
	char tbuf[48];
	x->time_text = time_text(st, x, tbuf, sizeof(tbuf));
	const struct cap_call *k = e->k;
	if (k && k->have_ops)
		x->ops = &k->ops;
	x->backward = e->backward;
	x->first_frame = e->first;
	x->nframes = e->frags;
	if (k && e->is_call)
		x->read_data = (struct msg_chunk_data){ k->rd_bytes, k->rd_first,
							k->rd_last };
	if (k && e->is_reply) {
		x->write_data = (struct msg_chunk_data){ k->wr_bytes, k->wr_first,
							 k->wr_last };
		x->reply_data = (struct msg_chunk_data){ k->rp_bytes, k->wr_first,
							 k->wr_last };
	}
	struct msg_finding found[CAP_HELD_MAX];
	if (o->check_inline) {
		for (unsigned i = 0; i < n; i++) {
			const struct cap_finding *f = &st->held[from + i];
			found[i] = (struct msg_finding){ f->frame, f->check, f->text,
							 f->section };
			if (f->downgraded) {
				st->downgraded++;
				continue;
			}
			st->violations++;
			st->stats.total.violations++;
		}
		x->findings = found;
		x->nfindings = n;
	}
	if (o->json)
		msgprint_json(st->out, m, x);
	else if (o->verbose)
		msgprint_tree(st->out, m, x);
	else {
		v2_name_line(st, c, m, e);
		msgprint_line(st->out, m, x);
	}
	st->nheld = from;
}
