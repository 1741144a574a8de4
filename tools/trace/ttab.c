/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ttab.c - rpcrdma-trace's tables (ttab.h): RPCs by xid, client tasks
 * before their marshal, server threads' current RPC, the names of unknown
 * and drifted events, and an event's common keys.
 */
#include "ttab.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

void tt_count_name(struct tr_count *tab, unsigned *n, uint64_t *other, const char *name)
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

void tt_drift(struct tr_state *st, const struct tp_event *ev)
{
	tt_count_name(st->drift, &st->n_drift, &st->drift_other, ev->name);
}

/* the pid of the thread that wrote the event: the digits before the
 * " [CPU]" column (comm-PID in tracefs and trace-cmd, comm PID in perf) */
uint32_t tt_line_pid(const char *line, size_t len, const struct tp_event *ev)
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

struct tr_rpc *tt_rpc_find(struct tr_state *st, uint32_t xid)
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
void tt_rpc_done(struct tr_state *st, struct tr_rpc *r)
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

struct tr_rpc *tt_rpc_new(struct tr_state *st, uint32_t xid)
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
		tt_rpc_done(st, oldest);
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

struct tr_pending *tt_pend_get(struct tr_state *st, uint32_t task, uint32_t client, bool create)
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

void tt_pid_set(struct tr_state *st, bool srv, uint32_t pid, uint32_t xid)
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

struct tr_rpc *tt_pid_rpc(struct tr_state *st, bool srv, uint32_t pid)
{
	struct tr_pid *tab = srv ? st->pid_srv : st->pid_cli;
	unsigned i;

	if (!pid)
		return NULL;
	for (i = 0; i < TR_MAX_PIDS; i++)
		if (tab[i].seq && tab[i].pid == pid)
			return tt_rpc_find(st, tab[i].xid);
	return NULL;
}

bool tt_get_xid(const struct tp_event *ev, uint32_t *xid)
{
	uint64_t v;

	if (!tp_kv_u64(ev, "xid", UINT32_MAX, &v))
		return false;
	*xid = (uint32_t)v;
	return true;
}

bool tt_get_task(const struct tp_event *ev, uint32_t *task, uint32_t *client)
{
	return tp_task(ev, task, client);
}

void tt_add_seg(unsigned *n, struct tr_seg *segs, uint64_t *bytes, const struct tr_seg *s)
{
	if (*n < TR_MAX_SEGS)
		segs[*n] = *s;
	(*n)++;
	*bytes += s->length;
}

/* the --check violations so far; the notes do not count (trpc.h) */
uint64_t tr_findings(const struct tr_state *st)
{
	return st->f_credits + st->f_zero;
}
