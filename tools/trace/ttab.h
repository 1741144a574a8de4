/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ttab.h - rpcrdma-trace's tables, inside the tool: the RPCs in flight (by
 * xid, by a client task waiting for its marshal, by a server thread), the
 * counts of unknown and drifted events, an event's keys read as xid, task
 * and segments (ttab.c); and the MR lifecycle (tmr.c).  trpc.c's event
 * handlers stand on them; they call nothing of trpc.c.
 */
#ifndef RPCRDMA_TTAB_H
#define RPCRDMA_TTAB_H

#include "trpc.h"

void tt_count_name(struct tr_count *tab, unsigned *n, uint64_t *other, const char *name);
void tt_drift(struct tr_state *st, const struct tp_event *ev);
uint32_t tt_line_pid(const char *line, size_t len, const struct tp_event *ev);
struct tr_rpc *tt_rpc_find(struct tr_state *st, uint32_t xid);
void tt_rpc_done(struct tr_state *st, struct tr_rpc *r);
struct tr_rpc *tt_rpc_new(struct tr_state *st, uint32_t xid);
struct tr_pending *tt_pend_get(struct tr_state *st, uint32_t task, uint32_t client, bool create);
void tt_pid_set(struct tr_state *st, bool srv, uint32_t pid, uint32_t xid);
struct tr_rpc *tt_pid_rpc(struct tr_state *st, bool srv, uint32_t pid);
bool tt_get_xid(const struct tp_event *ev, uint32_t *xid);
bool tt_get_task(const struct tp_event *ev, uint32_t *task, uint32_t *client);
void tt_add_seg(unsigned *n, struct tr_seg *segs, uint64_t *bytes, const struct tr_seg *s);
void tt_on_mr(struct tr_state *st, const struct tp_event *ev, const char *op);

#endif
