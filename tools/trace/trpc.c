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

static void count_name(struct tr_count *tab, unsigned *n, uint64_t *other, const char *name)
{
	unsigned i;

	for (i = 0; i < *n; i++)
		if (strcmp(tab[i].name, name) == 0) {
			tab[i].n++;
			return;
		}
	if (*n < TR_MAX_NAMES) {
		snprintf(tab[*n].name, sizeof(tab[*n].name), "%s", name);
		tab[(*n)++].n = 1;
		return;
	}
	(*other)++;
}

static void drift(struct tr_state *st, const struct tp_event *ev)
{
	count_name(st->drift, &st->n_drift, &st->drift_other, ev->name);
}

/* the pid of the thread that wrote the event: the digits before the
 * " [CPU]" column (comm-PID in tracefs and trace-cmd, comm PID in perf) */
static uint32_t line_pid(const char *line, size_t len, const struct tp_event *ev)
{
	size_t end = (size_t)(ev->f - line), i, e;
	uint64_t v;

	if (end > len)
		return 0;
	for (i = 0; i < end; i++)
		if (line[i] == '[')
			break;
	if (i == end)
		return 0;
	e = i;
	while (e > 0 && line[e - 1] == ' ')
		e--;
	i = e;
	while (i > 0 && line[i - 1] >= '0' && line[i - 1] <= '9')
		i--;
	if (i == e || !tp_num(line + i, e - i, UINT32_MAX, &v))
		return 0;
	return (uint32_t)v;
}

static struct tr_rpc *rpc_find(struct tr_state *st, uint32_t xid)
{
	unsigned h = (xid * 2654435761u) % TR_MAX_RPCS, i;

	for (i = 0; i < TR_MAX_RPCS; i++) {
		struct tr_rpc *r = &st->rpc[(h + i) % TR_MAX_RPCS];

		if (!r->used)
			return NULL;
		if (r->xid == xid)
			return r;
	}
	return NULL;
}

static void lat_add(struct tr_state *st, const struct tr_rpc *r)
{
	char key[40];
	uint64_t us;
	unsigned i;

	if (!r->has_call || !r->has_reply || r->t_reply < r->t_marshal)
		return;
	us = (r->t_reply - r->t_marshal) / 1000u;
	snprintf(key, sizeof(key), "%s/%s", r->rtype, r->wtype);
	for (i = 0; i < st->n_lat; i++)
		if (strcmp(st->lat[i].key, key) == 0)
			break;
	if (i == st->n_lat) {
		if (st->n_lat == sizeof(st->lat) / sizeof(st->lat[0]))
			return;
		memcpy(st->lat[i].key, key, sizeof(key));
		st->lat[i].min_us = UINT64_MAX;
		st->n_lat++;
	}
	st->lat[i].n++;
	st->lat[i].sum_us += us;
	if (us > st->lat[i].max_us)
		st->lat[i].max_us = us;
	if (us < st->lat[i].min_us)
		st->lat[i].min_us = us;
}

/* print, count and free (re-inserting the entries after it in its probe
 * run, so that lookups stay correct) */
static void rpc_done(struct tr_state *st, struct tr_rpc *r)
{
	unsigned i, j;

	if (r->has_call && r->has_srv)
		st->rpcs_both++;
	else if (r->has_call)
		st->rpcs_client_only++;
	else
		st->rpcs_server_only++;
	st->rpcs_out++;
	lat_add(st, r);
	if (!st->quiet)
		tr_print_rpc(st, r);
	r->used = false;
	i = (unsigned)(r - st->rpc);
	for (j = (i + 1) % TR_MAX_RPCS; st->rpc[j].used; j = (j + 1) % TR_MAX_RPCS) {
		struct tr_rpc tmp = st->rpc[j];
		unsigned h = (tmp.xid * 2654435761u) % TR_MAX_RPCS;

		st->rpc[j].used = false;
		while (st->rpc[h].used)
			h = (h + 1) % TR_MAX_RPCS;
		st->rpc[h] = tmp;
	}
}

static struct tr_rpc *rpc_new(struct tr_state *st, uint32_t xid)
{
	unsigned h = (xid * 2654435761u) % TR_MAX_RPCS, i, n = 0;
	struct tr_rpc *oldest = NULL;

	for (i = 0; i < TR_MAX_RPCS; i++)
		if (st->rpc[i].used) {
			n++;
			if (!oldest || st->rpc[i].seq < oldest->seq)
				oldest = &st->rpc[i];
		}
	/* keep a quarter free: probe runs stay short */
	if (n >= TR_MAX_RPCS - TR_MAX_RPCS / 4 && oldest) {
		oldest->errors |= TRE_EVICTED;
		st->evicted++;
		if (oldest->has_call && !oldest->has_reply && st->outstanding)
			st->outstanding--;
		rpc_done(st, oldest);
	}
	while (st->rpc[h].used)
		h = (h + 1) % TR_MAX_RPCS;
	memset(&st->rpc[h], 0, sizeof(st->rpc[h]));
	st->rpc[h].used = true;
	st->rpc[h].xid = xid;
	st->rpc[h].seq = ++st->seq;
	st->rpc[h].read_latency_us = -1;
	return &st->rpc[h];
}

static struct tr_pending *pend_get(struct tr_state *st, uint32_t task, uint32_t client, bool create)
{
	unsigned i;
	struct tr_pending *freep = NULL;

	for (i = 0; i < TR_MAX_PENDING; i++) {
		struct tr_pending *p = &st->pend[i];

		if (p->used && p->task == task && p->client == client)
			return p;
		if (!p->used && !freep)
			freep = p;
	}
	if (!create)
		return NULL;
	if (!freep)
		freep = &st->pend[task % TR_MAX_PENDING];       /* overwrite: counted below */
	memset(freep, 0, sizeof(*freep));
	freep->used = true;
	freep->task = task;
	freep->client = client;
	return freep;
}

static void pid_set(struct tr_state *st, bool srv, uint32_t pid, uint32_t xid)
{
	struct tr_pid *tab = srv ? st->pid_srv : st->pid_cli;
	unsigned i, victim = 0;

	if (!pid)
		return;
	for (i = 0; i < TR_MAX_PIDS; i++) {
		if (tab[i].seq && tab[i].pid == pid) {
			victim = i;
			break;
		}
		if (tab[i].seq < tab[victim].seq)
			victim = i;
	}
	tab[victim].pid = pid;
	tab[victim].xid = xid;
	tab[victim].seq = ++st->seq;
}

static struct tr_rpc *pid_rpc(struct tr_state *st, bool srv, uint32_t pid)
{
	struct tr_pid *tab = srv ? st->pid_srv : st->pid_cli;
	unsigned i;

	if (!pid)
		return NULL;
	for (i = 0; i < TR_MAX_PIDS; i++)
		if (tab[i].seq && tab[i].pid == pid)
			return rpc_find(st, tab[i].xid);
	return NULL;
}

static bool get_xid(const struct tp_event *ev, uint32_t *xid)
{
	uint64_t v;

	if (!tp_kv_u64(ev, "xid", UINT32_MAX, &v))
		return false;
	*xid = (uint32_t)v;
	return true;
}

static bool get_task(const struct tp_event *ev, uint32_t *task, uint32_t *client)
{
	return tp_task(ev, task, client);
}

static void add_seg(unsigned *n, struct tr_seg *segs, uint64_t *bytes, const struct tr_seg *s)
{
	if (*n < TR_MAX_SEGS)
		segs[*n] = *s;
	(*n)++;
	*bytes += s->length;
}

static void on_chunk(struct tr_state *st, const struct tp_event *ev, int kind)
{
	uint32_t task, client;
	struct tr_seg s = { 0 };
	struct tr_pending *p;
	uint64_t pos = 0;

	if (!get_task(ev, &task, &client) || !tp_segment(ev, &s.length, &s.offset, &s.handle)) {
		drift(st, ev);
		return;
	}
	if (kind == 0 && tp_kv_u64(ev, "pos", UINT32_MAX, &pos))
		s.position = (uint32_t)pos;
	p = pend_get(st, task, client, true);
	add_seg(&p->nseg[kind], p->seg[kind], &p->bytes[kind], &s);
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
	if (!get_xid(ev, &xid) || !get_task(ev, &task, &client)) {
		drift(st, ev);
		return;
	}
	if (!st->seen_marshal) {
		st->seen_marshal = true;
		st->first_marshal_ns = ev->ts_ns;
	}
	r = rpc_find(st, xid);
	if (r && r->has_call && !r->has_reply) {
		r->retransmits++;
		st->retransmits++;
		return;
	}
	if (r && r->has_call)
		rpc_done(st, r);
	if (!r || r->has_call)
		r = rpc_new(st, xid);
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
		drift(st, ev);
	p = pend_get(st, task, client, false);
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

	if (!get_task(ev, &task, &client)) {
		drift(st, ev);
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

	if (!get_xid(ev, &xid) || !tp_credits(ev, &credits)) {
		drift(st, ev);
		return;
	}
	r = rpc_find(st, xid);
	if (!r || !r->has_call) {
		if (!r)
			r = rpc_new(st, xid);
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
	if (!st->have_grant || credits < st->grant_min)
		st->grant_min = credits;
	if (!st->have_grant || credits > st->grant_max)
		st->grant_max = credits;
	st->have_grant = true;
	st->granted = credits;
	/* xprtrdma_decode_seg lines follow in this thread: they are counted
	 * to the reply, which is printed at the thread's next reply or at
	 * the end */
	{
		struct tr_rpc *prev = pid_rpc(st, false, pid);

		if (prev && prev != r && prev->has_reply && (prev->has_call || prev->errors & TRE_NO_CALL))
			rpc_done(st, prev);
	}
	pid_set(st, false, pid, xid);
	if (!pid)
		rpc_done(st, r);
}

static void on_decode_seg(struct tr_state *st, uint32_t pid)
{
	struct tr_rpc *r = pid_rpc(st, false, pid);

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

	if (!get_xid(ev, &xid)) {
		drift(st, ev);
		return;
	}
	r = rpc_find(st, xid);
	if (r && r->has_srv && r->has_reply)
		r = NULL;               /* the xid again: a new call */
	if (!r)
		r = rpc_new(st, xid);
	r->has_srv = true;
	r->t_srv = ev->ts_ns;
	if (tp_kv_u64(ev, "vers", UINT32_MAX, &v))
		r->vers = (uint32_t)v;
	else
		drift(st, ev);
	if (tp_kv_u64(ev, "credits", UINT32_MAX, &v))
		r->credits_asked = (uint32_t)v;
	else
		drift(st, ev);
	if (tp_kv_u64(ev, "hdrlen", UINT32_MAX, &v))
		r->srv_hdrlen = (uint32_t)v;
	if (tp_kv(ev, "proc", &p, &pl)) {
		if (pl >= sizeof(r->proc))
			pl = sizeof(r->proc) - 1;
		memcpy(r->proc, p, pl);
		r->proc[pl] = '\0';
	}
	pid_set(st, true, pid, xid);
}

static void srv_done_if_alone(struct tr_state *st, struct tr_rpc *r)
{
	/* a request whose client is not in the trace: printed once its
	 * reply is sent */
	if (!r->has_call)
		rpc_done(st, r);
}

static void on_srv(struct tr_state *st, const struct tp_event *ev, uint32_t pid, const char *what)
{
	struct tr_rpc *r = pid_rpc(st, true, pid);
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

static struct tr_mr *mr_get(struct tr_state *st, uint32_t id, bool create)
{
	unsigned h = id % TR_MAX_MRS, i;

	for (i = 0; i < TR_MAX_MRS; i++) {
		struct tr_mr *m = &st->mr[(h + i) % TR_MAX_MRS];

		if (m->used && m->id == id)
			return m;
		if (!m->used) {
			if (!create)
				return NULL;
			memset(m, 0, sizeof(*m));
			m->used = true;
			m->id = id;
			return m;
		}
	}
	if (create)
		st->mr_table_full++;
	return NULL;
}

static void mr_free(struct tr_state *st, struct tr_mr *m)
{
	unsigned i = (unsigned)(m - st->mr), j;

	m->used = false;
	for (j = (i + 1) % TR_MAX_MRS; st->mr[j].used; j = (j + 1) % TR_MAX_MRS) {
		struct tr_mr tmp = st->mr[j];
		unsigned h = tmp.id % TR_MAX_MRS;

		st->mr[j].used = false;
		while (st->mr[h].used)
			h = (h + 1) % TR_MAX_MRS;
		st->mr[h] = tmp;
	}
}

static void on_mr(struct tr_state *st, const struct tp_event *ev, const char *op)
{
	uint64_t id;
	uint32_t task = 0, client = 0;
	struct tr_mr *m;
	bool has_task = get_task(ev, &task, &client);

	if (!tp_kv_u64(ev, "mr.id", UINT32_MAX, &id) && !tp_kv_u64(ev, "mr_id", UINT32_MAX, &id)) {
		drift(st, ev);
		return;
	}
	if (strcmp(op, "map") == 0) {
		uint32_t len, handle = 0;
		uint64_t off;

		st->mr_map++;
		m = mr_get(st, (uint32_t)id, true);
		if (!m)
			return;
		(void)tp_segment(ev, &len, &off, &handle);
		m->handle = handle;
		m->invalidated = false;
		m->task = task;
		m->client = client;
		m->offered = false;
		m->conn = has_task && task == 0 && client == UINT32_MAX;
		m->t_map = ev->ts_ns;
		return;
	}
	m = mr_get(st, (uint32_t)id, false);
	if (strcmp(op, "fastreg") == 0) {
		st->mr_fastreg++;
	} else if (strcmp(op, "localinv") == 0 || strcmp(op, "reminv") == 0) {
		if (op[0] == 'l')
			st->mr_localinv++;
		else
			st->mr_reminv++;
		if (m)
			m->invalidated = true;
	} else if (strcmp(op, "unmap") == 0 || strcmp(op, "recycle") == 0) {
		if (op[0] == 'u')
			st->mr_unmap++;
		if (!m)
			return;
		if (!m->invalidated) {
			if (m->conn) {
				st->mr_conn_released++;
			} else if (!m->offered) {
				/* registered for a call whose marshal then failed
				 * (xprtrdma_marshal_failed, e.g. no MR free): never
				 * offered to the server, nothing to invalidate */
				st->mr_unoffered++;
			} else {
				st->mr_not_inval++;
				st->f_mr++;
				if (st->check)
					fprintf(st->out, "check: mr-not-invalidated: mr.id=%u handle 0x%08x (task %u) "
						"released at %" PRIu64 ".%06" PRIu64 " without a local or remote invalidation\n",
						m->id, m->handle, m->task, ev->ts_ns / 1000000000u,
						(ev->ts_ns % 1000000000u) / 1000u);
			}
		}
		mr_free(st, m);
	}
}

/* the chunks encoded for a marshal that failed: not the call's (the
 * kernel counts them in mountstats all the same) */
static void on_failed_marshal(struct tr_state *st, const struct tp_event *ev)
{
	uint32_t task, client;
	struct tr_pending *p;
	unsigned k;

	if (!get_task(ev, &task, &client))
		return;
	p = pend_get(st, task, client, false);
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
	if (!get_xid(ev, &xid))
		return;
	r = rpc_find(st, xid);
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
 * 6.1 and the releases around it): those an RPC needs are handled in
 * tr_line(), the rest are known and carry nothing it needs.  A name not
 * here is counted as unknown. */
static const char *const known[] = {
	"xprtrdma_marshal", "xprtrdma_chunk_read", "xprtrdma_chunk_write", "xprtrdma_chunk_wp",
	"xprtrdma_chunk_reply", "xprtrdma_post_send", "xprtrdma_reply", "xprtrdma_decode_seg",
	"xprtrdma_mr_map", "xprtrdma_mr_fastreg", "xprtrdma_mr_localinv", "xprtrdma_mr_reminv",
	"xprtrdma_mr_unmap", "xprtrdma_mr_recycle", "xprtrdma_marshal_failed", "xprtrdma_prepsend_failed",
	"xprtrdma_err_vers", "xprtrdma_err_chunk", "xprtrdma_err_unrecognized", "xprtrdma_reply_vers_err",
	"xprtrdma_reply_rqst_err", "xprtrdma_reply_short_err", "xprtrdma_reply_hdr_err", "xprtrdma_reply_vers",
	"xprtrdma_reply_rqst", "xprtrdma_reply_short", "xprtrdma_reply_hdr",
	"xprtrdma_post_recv", "xprtrdma_post_recvs", "xprtrdma_post_recvs_err", "xprtrdma_post_linv",
	"xprtrdma_post_linv_err", "xprtrdma_wc_send", "xprtrdma_wc_receive", "xprtrdma_wc_fastreg",
	"xprtrdma_wc_li", "xprtrdma_wc_li_wake", "xprtrdma_wc_li_done", "xprtrdma_connect",
	"xprtrdma_disconnect", "xprtrdma_op_connect", "xprtrdma_op_inject_dsc", "xprtrdma_op_setport",
	"xprtrdma_op_set_cto", "xprtrdma_inline_thresh", "xprtrdma_qp_event", "xprtrdma_createmrs",
	"xprtrdma_nomrs", "xprtrdma_nomrs_err", "xprtrdma_mr_get", "xprtrdma_frwr_alloc",
	"xprtrdma_frwr_dereg", "xprtrdma_frwr_sgerr", "xprtrdma_frwr_maperr", "xprtrdma_dma_maperr",
	"xprtrdma_defer_cmp", "xprtrdma_fixup", "xprtrdma_op_allocate", "xprtrdma_op_free",
	"xprtrdma_cb_setup", "xprtrdma_cb_call", "xprtrdma_cb_reply", "xprtrdma_leaked_rep",
	"xprtrdma_device_removal", "xprtrdma_frwr_bad_sge",
	"svcrdma_decode_rqst", "svcrdma_decode_short_err", "svcrdma_decode_badvers_err",
	"svcrdma_decode_drop_err", "svcrdma_decode_badproc_err", "svcrdma_decode_parse_err",
	"svcrdma_decode_rseg", "svcrdma_decode_wseg", "svcrdma_decode_rchunk", "svcrdma_decode_wchunk",
	"svcrdma_encode_rseg", "svcrdma_encode_wseg", "svcrdma_send_rseg", "svcrdma_send_wseg",
	"svcrdma_send_pzr", "svcrdma_encode_write_chunk", "svcrdma_send_write_chunk",
	"svcrdma_encode_read_chunk", "svcrdma_send_reply_chunk", "svcrdma_send_read_chunk",
	"svcrdma_err_vers", "svcrdma_err_chunk", "svcrdma_post_send", "svcrdma_send_err",
	"svcrdma_send_pullup", "svcrdma_post_recv", "svcrdma_rq_post_err", "svcrdma_post_rw",
	"svcrdma_post_read_chunk", "svcrdma_post_write_chunk", "svcrdma_post_reply_chunk",
	"svcrdma_wc_send", "svcrdma_wc_send_flush", "svcrdma_wc_send_err", "svcrdma_wc_recv",
	"svcrdma_wc_recv_flush", "svcrdma_wc_recv_err", "svcrdma_wc_read", "svcrdma_wc_read_flush",
	"svcrdma_wc_read_err", "svcrdma_wc_write", "svcrdma_wc_write_flush", "svcrdma_wc_write_err",
	"svcrdma_wc_receive", "svcrdma_qp_error", "svcrdma_sq_full", "svcrdma_sq_retry",
	"svcrdma_sq_post_err", "svcrdma_pd_err", "svcrdma_qp_err", "svcrdma_fabric_err",
	"svcrdma_initdepth_err", "svcrdma_accept_err", "svcrdma_dma_map_page", "svcrdma_dma_unmap_page",
	"svcrdma_dma_map_err", "svcrdma_dma_map_rw_err", "svcrdma_no_rwctx_err",
	"svcrdma_page_overrun_err", "svcrdma_small_wrch_err", "svcrdma_cc_release",
	"svcrdma_rwctx_empty", "svcrdma_wc_read_done",
};

static bool known_event(const char *n)
{
	size_t i;

	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (strcmp(n, known[i]) == 0)
			return true;
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
	pid = line_pid(line, len, &ev);
	n = ev.name;
	if (strcmp(n, "tracing_mark_write") == 0 || strcmp(n, "print") == 0) {
		st->markers++;
		return;
	}
	if (!known_event(n)) {
		count_name(st->unknown, &st->n_unknown, &st->unknown_other, n);
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
		on_mr(st, &ev, n + 12);
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
		rpc_done(st, oldest);
	}
	if (st->stats)
		tr_print_stats(st);
	if (st->check)
		tr_print_check(st);
}

uint64_t tr_findings(const struct tr_state *st)
{
	return st->f_credits + st->f_zero + st->f_mr + st->f_nocall;
}
