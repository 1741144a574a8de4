/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tmr.c - rpcrdma-trace's MR lifecycle (ttab.h): xprtrdma_mr_map ..
 * mr_localinv or mr_reminv .. mr_unmap by mr.id; an MR released without an
 * invalidation after it was offered to the server is a --check note
 * (TR_BASIS_MR: our reading, not a failure).
 */
#include "ttab.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

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

void tt_on_mr(struct tr_state *st, const struct tp_event *ev, const char *op)
{
	uint64_t id;
	uint32_t task = 0, client = 0;
	struct tr_mr *m;
	bool has_task = tt_get_task(ev, &task, &client);

	if (!tp_kv_u64(ev, "mr.id", UINT32_MAX, &id) && !tp_kv_u64(ev, "mr_id", UINT32_MAX, &id)) {
		tt_drift(st, ev);
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
					fprintf(st->out, "note: mr-not-invalidated: mr.id=%u handle 0x%08x (task %u) "
						"released at %" PRIu64 ".%06" PRIu64 " without a local or remote invalidation"
						" [%s]\n", m->id, m->handle, m->task, ev->ts_ns / 1000000000u,
						(ev->ts_ns % 1000000000u) / 1000u, TR_BASIS_MR);
			}
		}
		mr_free(st, m);
	}
}
