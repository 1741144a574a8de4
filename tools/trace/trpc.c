/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * trpc.c - RPCs from the kernel's rpcrdma trace events (trpc.h).
 *
 * What joins the events (as the 6.1 kernel prints them; older and newer
 * kernels differ in details, which are counted as drift):
 *  - client: xprtrdma_chunk_* come before their task's xprtrdma_marshal
 *    (task:ID@CLIENT), which names the xid; xprtrdma_post_send names the task;
 *    xprtrdma_reply names task and xid and the credits granted;
 *    xprtrdma_decode_seg follows its reply in the same thread;
 *  - server: svcrdma_decode_rqst names the xid and the credits asked; what
 *    the same nfsd thread does next (segments, chunk posts, the reply's
 *    send) belongs to that request until its next decode_rqst;
 *  - MRs: xprtrdma_mr_map .. mr_localinv or mr_reminv .. mr_unmap by mr.id.
 */
#include "trpc.h"
#include "ttab.h"
#include "minmax.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

void tr_init(struct tr_state *st, FILE *out, enum tr_mode mode)
{
	memset(st, 0, sizeof(*st));
	st->out = out;
	st->mode = mode;
	st->src = "-";
}

static void on_chunk(struct tr_state *st, const struct tp_event *ev, int kind)
{
	uint32_t task, client;
	struct tr_seg s = { 0 };
	struct tr_pending *p;
	uint64_t pos = 0;

	if (!tt_get_task(ev, &task, &client) || !tp_segment(ev, &s.length, &s.offset, &s.handle)) {
		tt_drift(st, ev);
		return;
	}
	if (kind == 0 && tp_kv_u64(ev, "pos", UINT32_MAX, &pos))
		s.position = (uint32_t)pos;
	p = tt_pend_get(st, task, client, true);
	tt_add_seg(&p->nseg[kind], p->seg[kind], &p->bytes[kind], &s);
	st->segs[kind]++;
	st->chunk_bytes[kind] += s.length;
}

static void credits_step(struct tr_state *st, uint64_t t, uint32_t credits)
{
	if (st->have_grant && credits == st->granted)
		return;
	if (st->n_steps < TR_MAX_CREDIT_STEPS) {
		st->steps[st->n_steps].t = t;
		st->steps[st->n_steps].credits = credits;
		st->n_steps++;
	} else {
		st->steps_dropped++;
	}
}

static void on_marshal(struct tr_state *st, const struct tp_event *ev, uint32_t pid)
{
	uint32_t xid, task, client;
	struct tr_rpc *r;
	struct tr_pending *p;
	const char *v;
	size_t vl;
	uint64_t hdr = 0;
	unsigned k;

	(void)pid;
	if (!tt_get_xid(ev, &xid) || !tt_get_task(ev, &task, &client)) {
		tt_drift(st, ev);
		return;
	}
	if (!st->seen_marshal) {
		st->seen_marshal = true;
		st->first_marshal_ns = ev->ts_ns;
	}
	r = tt_rpc_find(st, xid);
	if (r && r->has_call && !r->has_reply) {
		r->retransmits++;
		st->retransmits++;
		return;
	}
	if (r && r->has_call)
		tt_rpc_done(st, r);
	if (!r || r->has_call)
		r = tt_rpc_new(st, xid);
	r->has_call = true;
	r->task = task;
	r->client = client;
	r->t_marshal = ev->ts_ns;
	if (tp_kv_u64(ev, "hdr", UINT32_MAX, &hdr))
		r->hdr = (uint32_t)hdr;
	if (tp_kv(ev, "xdr", &v, &vl)) {
		const char *e = v + vl, *q = v;

		for (k = 0; k < 3 && q < e; k++) {
			const char *sl = memchr(q, '/', (size_t)(e - q));
			size_t n = sl ? (size_t)(sl - q) : (size_t)(e - q);
			uint64_t x;

			if (tp_num(q, n, UINT32_MAX, &x))
				r->xdr[k] = (uint32_t)x;
			q += n + (sl ? 1 : 0);
		}
	}
	if (!tp_chunktypes(ev, r->rtype, sizeof(r->rtype), r->wtype, sizeof(r->wtype)))
		tt_drift(st, ev);
	p = tt_pend_get(st, task, client, false);
	if (p) {
		for (k = 0; k < 3; k++) {
			r->nseg[k] = p->nseg[k];
			memcpy(r->seg[k], p->seg[k], sizeof(r->seg[k]));
			r->chunk_bytes[k] = p->bytes[k];
		}
		p->used = false;
	}
	for (k = 0; k < TR_MAX_MRS; k++) {
		struct tr_mr *m = &st->mr[k];

		if (m->used && !m->offered && m->task == task && m->client == client)
			m->offered = true;
	}
	st->outstanding++;
	if (st->outstanding > st->max_outstanding)
		st->max_outstanding = st->outstanding;
	r->outstanding = st->outstanding;
	/* more calls in flight than the last grant allows (judged once a
	 * grant has been seen: the first one is not in the trace) */
	if (st->have_grant && st->outstanding > st->granted) {
		r->errors |= TRE_CREDITS;
		st->f_credits++;
	}
}

static struct tr_rpc *task_rpc(struct tr_state *st, uint32_t task, uint32_t client)
{
	struct tr_rpc *best = NULL;
	unsigned i;

	for (i = 0; i < TR_MAX_RPCS; i++) {
		struct tr_rpc *r = &st->rpc[i];

		if (r->used && r->has_call && r->task == task && r->client == client && (!best || r->seq > best->seq))
			best = r;
	}
	return best;
}

static void on_post_send(struct tr_state *st, const struct tp_event *ev)
{
	uint32_t task, client;
	struct tr_rpc *r;

	if (!tt_get_task(ev, &task, &client)) {
		tt_drift(st, ev);
		return;
	}
	r = task_rpc(st, task, client);
	if (r && !r->t_post)
		r->t_post = ev->ts_ns;
}

static void on_reply(struct tr_state *st, const struct tp_event *ev, uint32_t pid)
{
	uint32_t xid, credits;
	struct tr_rpc *r;

	if (!tt_get_xid(ev, &xid) || !tp_credits(ev, &credits)) {
		tt_drift(st, ev);
		return;
	}
	r = tt_rpc_find(st, xid);
	if (!r || !r->has_call) {
		if (!r)
			r = tt_rpc_new(st, xid);
		r->errors |= TRE_NO_CALL;
		/* a call marshalled before the trace began looks the same:
		 * judged only after the trace's first marshal */
		if (st->seen_marshal)
			st->f_nocall++;
	} else if (st->outstanding) {
		st->outstanding--;
	}
	r->has_reply = true;
	r->t_reply = ev->ts_ns;
	r->credits_granted = credits;
	if (credits == 0) {
		r->errors |= TRE_ZERO_GRANT;
		st->f_zero++;
	}
	credits_step(st, ev->ts_ns, credits);
	u32_minmax_add(&st->have_grant, &st->grant_min, &st->grant_max, credits);
	st->granted = credits;
	/* xprtrdma_decode_seg lines follow in this thread: they are counted
	 * to the reply, which is printed at the thread's next reply or at
	 * the end */
	{
		struct tr_rpc *prev = tt_pid_rpc(st, false, pid);

		if (prev && prev != r && prev->has_reply && (prev->has_call || prev->errors & TRE_NO_CALL))
			tt_rpc_done(st, prev);
	}
	tt_pid_set(st, false, pid, xid);
	if (!pid)
		tt_rpc_done(st, r);
}

static void on_decode_seg(struct tr_state *st, uint32_t pid)
{
	struct tr_rpc *r = tt_pid_rpc(st, false, pid);

	if (r)
		r->reply_segs++;
}

static void on_decode_rqst(struct tr_state *st, const struct tp_event *ev, uint32_t pid)
{
	uint32_t xid;
	uint64_t v;
	struct tr_rpc *r;
	const char *p;
	size_t pl;

	if (!tt_get_xid(ev, &xid)) {
		tt_drift(st, ev);
		return;
	}
	r = tt_rpc_find(st, xid);
	if (r && r->has_srv && r->has_reply)
		r = NULL;               /* the xid again: a new call */
	if (!r)
		r = tt_rpc_new(st, xid);
	r->has_srv = true;
	r->t_srv = ev->ts_ns;
	if (tp_kv_u64(ev, "vers", UINT32_MAX, &v))
		r->vers = (uint32_t)v;
	else
		tt_drift(st, ev);
	if (tp_kv_u64(ev, "credits", UINT32_MAX, &v))
		r->credits_asked = (uint32_t)v;
	else
		tt_drift(st, ev);
	if (tp_kv_u64(ev, "hdrlen", UINT32_MAX, &v))
		r->srv_hdrlen = (uint32_t)v;
	if (tp_kv(ev, "proc", &p, &pl)) {
		if (pl >= sizeof(r->proc))
			pl = sizeof(r->proc) - 1;
		memcpy(r->proc, p, pl);
		r->proc[pl] = '\0';
	}
	tt_pid_set(st, true, pid, xid);
}

static void srv_done_if_alone(struct tr_state *st, struct tr_rpc *r)
{
	/* a request whose client is not in the trace: printed once its
	 * reply is sent */
	if (!r->has_call)
		tt_rpc_done(st, r);
}

static void on_srv(struct tr_state *st, const struct tp_event *ev, uint32_t pid, const char *what)
{
	struct tr_rpc *r = tt_pid_rpc(st, true, pid);
	uint64_t v;

	if (!r)
		return;
	if (strcmp(what, "rseg") == 0)
		r->srv_segs[0]++;
	else if (strcmp(what, "wseg") == 0)
		r->srv_segs[1]++;
	else if (strcmp(what, "read") == 0) {
		if (tp_kv_u64(ev, "latency-us", INT64_MAX, &v) || tp_kv_u64(ev, "latency", INT64_MAX, &v))
			r->read_latency_us = (int64_t)v;
	} else if (strcmp(what, "send") == 0) {
		r->srv_sent = true;
		r->t_srv_send = ev->ts_ns;
		if (tp_kv_u64(ev, "inv_rkey", UINT32_MAX, &v))
			r->inv_rkey = (uint32_t)v;
		srv_done_if_alone(st, r);
	}
}

/* the chunks encoded for a marshal that failed: not the call's (the
 * kernel counts them in mountstats all the same) */
static void on_failed_marshal(struct tr_state *st, const struct tp_event *ev)
{
	uint32_t task, client;
	struct tr_pending *p;
	unsigned k;

	if (!tt_get_task(ev, &task, &client))
		return;
	p = tt_pend_get(st, task, client, false);
	if (!p)
		return;
	for (k = 0; k < 3; k++)
		st->segs_failed[k] += p->nseg[k];
	p->used = false;
}

/* an error event that names an xid */
static void on_xid_err(struct tr_state *st, const struct tp_event *ev, uint32_t bit, uint64_t *counter)
{
	uint32_t xid;
	struct tr_rpc *r;
	int64_t ret;

	(*counter)++;
	if (!tt_get_xid(ev, &xid))
		return;
	r = tt_rpc_find(st, xid);
	if (!r)
		return;
	r->errors |= bit;
	if (tp_kv_i64(ev, "ret", &ret) || tp_kv_i64(ev, "status", &ret))
		r->err_ret = (int32_t)ret;
}

static void on_completion(struct tr_state *st, const struct tp_event *ev)
{
	uint32_t status, vendor;

	if (!tp_status(ev, &status, &vendor))
		return;         /* a completion without a status printed: success */
	if (status == 5)        /* IB_WC_WR_FLUSH_ERR: the queue pair is going away */
		st->wc_flush++;
	else if (status != 0)
		st->wc_err++;
}

/* every event of the rpcrdma system we know (include/trace/events/rpcrdma.h,
 * 6.1 and the releases around it), by the prefix their names share: those an
 * RPC needs are handled in tr_line(), the rest are known and carry nothing it
 * needs.  A name not here is counted as unknown.  The names 6.12 added
 * (Debian 13's 6.12.117, /sys/kernel/tracing/events/rpcrdma of the trixie
 * guest, docs/kernels.md) are here too: rpcrdma_client_* (the ib_client
 * device lifetime), svcrdma_device_removal, svcrdma_read_finished,
 * svcrdma_wc_reply{,_err,_flush} (completions, counted as the others),
 * xprtrdma_mrs_zap, xprtrdma_post_send_err. */
static const struct {
	const char *prefix;
	const char *names;              /* after the prefix, separated by blanks */
} known[] = {
	{ "xprtrdma_", "marshal reply decode_seg marshal_failed prepsend_failed err_vers err_chunk "
	  "err_unrecognized connect disconnect inline_thresh qp_event createmrs nomrs nomrs_err "
	  "dma_maperr defer_cmp fixup cb_setup cb_call cb_reply leaked_rep device_removal" },
	{ "xprtrdma_chunk_", "read write wp reply" },
	{ "xprtrdma_post_", "send recv recvs recvs_err linv linv_err send_err" },
	{ "xprtrdma_mr_", "map fastreg localinv reminv unmap recycle get" },
	{ "xprtrdma_reply_", "vers rqst short hdr vers_err rqst_err short_err hdr_err" },
	{ "xprtrdma_wc_", "send receive fastreg li li_wake li_done" },
	{ "xprtrdma_op_", "connect inject_dsc setport set_cto allocate free" },
	{ "xprtrdma_frwr_", "alloc dereg sgerr maperr bad_sge" },
	{ "xprtrdma_mrs_", "zap" },
	{ "rpcrdma_client_", "register unregister completion add_one remove_one remove_one_done wait_on" },
	{ "svcrdma_", "err_vers err_chunk rq_post_err qp_error sq_full sq_retry sq_post_err pd_err qp_err "
	  "fabric_err initdepth_err accept_err no_rwctx_err page_overrun_err small_wrch_err cc_release "
	  "rwctx_empty device_removal read_finished" },
	{ "svcrdma_decode_", "rqst short_err badvers_err drop_err badproc_err parse_err rseg wseg rchunk "
	  "wchunk" },
	{ "svcrdma_encode_", "rseg wseg write_chunk read_chunk" },
	{ "svcrdma_send_", "rseg wseg pzr write_chunk reply_chunk read_chunk err pullup" },
	{ "svcrdma_post_", "send recv rw read_chunk write_chunk reply_chunk" },
	{ "svcrdma_wc_", "send send_flush send_err recv recv_flush recv_err read read_flush read_err "
	  "write write_flush write_err receive read_done reply reply_flush reply_err" },
	{ "svcrdma_dma_", "map_page unmap_page map_err map_rw_err" },
};

/* `word` is one of the blank-separated words of `list` */
static bool in_words(const char *list, const char *word)
{
	size_t wl = strlen(word), l;

	for (list += strspn(list, " "); *list; list += l + strspn(list + l, " ")) {
		l = strcspn(list, " ");
		if (l == wl && strncmp(list, word, wl) == 0)
			return true;
	}
	return false;
}

static bool known_event(const char *n)
{
	size_t i, pl;

	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		pl = strlen(known[i].prefix);
		if (strncmp(n, known[i].prefix, pl) == 0 && in_words(known[i].names, n + pl))
			return true;
	}
	return false;
}

void tr_line(struct tr_state *st, const char *line, size_t len)
{
	struct tp_event ev;
	int rc;
	uint32_t pid;
	const char *n;

	st->lines++;
	rc = tp_line(line, len, &ev);
	if (rc == 0) {
		st->other_lines++;
		return;
	}
	if (rc < 0) {
		st->bad_lines++;
		return;
	}
	st->events++;
	pid = tt_line_pid(line, len, &ev);
	n = ev.name;
	if (strcmp(n, "tracing_mark_write") == 0 || strcmp(n, "print") == 0) {
		st->markers++;
		return;
	}
	if (!known_event(n)) {
		tt_count_name(st->unknown, &st->n_unknown, &st->unknown_other, n);
		return;
	}
	st->ev_known++;
	if (strcmp(n, "xprtrdma_marshal") == 0)
		on_marshal(st, &ev, pid);
	else if (strcmp(n, "xprtrdma_chunk_read") == 0)
		on_chunk(st, &ev, 0);
	else if (strcmp(n, "xprtrdma_chunk_write") == 0 || strcmp(n, "xprtrdma_chunk_wp") == 0)
		on_chunk(st, &ev, 1);
	else if (strcmp(n, "xprtrdma_chunk_reply") == 0)
		on_chunk(st, &ev, 2);
	else if (strcmp(n, "xprtrdma_post_send") == 0)
		on_post_send(st, &ev);
	else if (strcmp(n, "xprtrdma_reply") == 0)
		on_reply(st, &ev, pid);
	else if (strcmp(n, "xprtrdma_decode_seg") == 0)
		on_decode_seg(st, pid);
	else if (strncmp(n, "xprtrdma_mr_", 12) == 0)
		tt_on_mr(st, &ev, n + 12);
	else if (strcmp(n, "xprtrdma_marshal_failed") == 0) {
		on_failed_marshal(st, &ev);
		on_xid_err(st, &ev, TRE_MARSHAL, &st->marshal_fail);
	}
	else if (strcmp(n, "xprtrdma_prepsend_failed") == 0)
		on_xid_err(st, &ev, TRE_PREPSEND, &st->marshal_fail);
	else if (strcmp(n, "xprtrdma_err_vers") == 0 || strcmp(n, "svcrdma_err_vers") == 0)
		on_xid_err(st, &ev, TRE_ERR_VERS, &st->err_vers);
	else if (strcmp(n, "xprtrdma_err_chunk") == 0 || strcmp(n, "svcrdma_err_chunk") == 0)
		on_xid_err(st, &ev, TRE_ERR_CHUNK, &st->err_chunk);
	else if (strncmp(n, "xprtrdma_reply_", 15) == 0 || strcmp(n, "xprtrdma_err_unrecognized") == 0)
		on_xid_err(st, &ev, TRE_REPLY_BAD, &st->reply_bad);
	else if (strcmp(n, "svcrdma_decode_rqst") == 0)
		on_decode_rqst(st, &ev, pid);
	else if (strncmp(n, "svcrdma_decode_", 15) == 0 && strstr(n, "_err"))
		on_xid_err(st, &ev, TRE_SRV_BAD, &st->srv_errs);
	else if (strcmp(n, "svcrdma_decode_rseg") == 0)
		on_srv(st, &ev, pid, "rseg");
	else if (strcmp(n, "svcrdma_decode_wseg") == 0)
		on_srv(st, &ev, pid, "wseg");
	else if (strcmp(n, "svcrdma_wc_read") == 0) {
		on_completion(st, &ev);
		on_srv(st, &ev, pid, "read");
	} else if (strcmp(n, "svcrdma_post_send") == 0)
		on_srv(st, &ev, pid, "send");
	else if (strcmp(n, "svcrdma_send_err") == 0)
		on_xid_err(st, &ev, TRE_SEND_ERR, &st->srv_errs);
	else if (strcmp(n, "svcrdma_sq_full") == 0)
		st->sq_full++;
	else if (strstr(n, "_wc_") || strstr(n, "_err"))
		on_completion(st, &ev);
	/* the rest (post_recv, connect, createmrs, inline_thresh, ...) are
	 * known and carry nothing an RPC needs */
}

void tr_feed(struct tr_state *st, const char *buf, size_t len)
{
	while (len > 0) {
		const char *nl = memchr(buf, '\n', len);
		size_t n = nl ? (size_t)(nl - buf) : len;

		if (st->line_long) {
			/* the rest of an overlong line: dropped */
		} else if (st->ll + n < sizeof(st->line)) {
			memcpy(st->line + st->ll, buf, n);
			st->ll += n;
		} else {
			st->line_long = true;
			st->overlong++;
		}
		if (!nl)
			return;
		if (!st->line_long)
			tr_line(st, st->line, st->ll);
		st->ll = 0;
		st->line_long = false;
		buf = nl + 1;
		len -= n + 1;
	}
}

void tr_finish(struct tr_state *st)
{
	unsigned i;

	if (st->ll > 0 && !st->line_long)
		tr_line(st, st->line, st->ll);
	st->ll = 0;
	/* what is left, oldest first */
	for (;;) {
		struct tr_rpc *oldest = NULL;

		for (i = 0; i < TR_MAX_RPCS; i++)
			if (st->rpc[i].used && (!oldest || st->rpc[i].seq < oldest->seq))
				oldest = &st->rpc[i];
		if (!oldest)
			break;
		if (oldest->has_call && !oldest->has_reply) {
			oldest->errors |= TRE_NO_REPLY;
			st->no_reply++;
		}
		tt_rpc_done(st, oldest);
	}
	if (st->stats)
		tr_print_stats(st);
	if (st->check)
		tr_print_check(st);
}
