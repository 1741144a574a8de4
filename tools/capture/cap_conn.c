/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cap_conn.c - connection parameters (RFC 8797 2-4): the private data each
 * end sent in the CM REQ/REP (RoCE, IB; cap_cm.c) or the MPA Request/Reply
 * (iWARP; cap_iwarp.c), kept per conversation; printed once the connection
 * is set up (-V: a block; --json: one record per connection, when its
 * conversation ends; --stats: per conversation, cap_stats_print.c); and
 * the inline threshold --check
 * holds a message to: what its receiver announced (its Receive Size), the
 * command line overriding, the version default where nothing was
 * announced (V1 4.3.2, V2 5).
 */
#include <string.h>
#include "cap_state.h"
#include "json.h"

/* endpoint `end` of `c` sent private data pd[len] as the requester
 * (REQ, MPA Request) or the responder */
void cap_conn_private(struct cap_conv *c, int end, bool requester,
		      const uint8_t *pd, uint32_t len)
{
	struct rpcrdma_cm_private p;
	struct cap_dir *d = &c->d[end];

	cap_stats_private(&c->stats, requester ? 0 : 1, pd, len);
	if (requester)
		c->requester = (int8_t)end;
	else if (c->requester < 0)
		c->requester = (int8_t)(1 - end);
	d->pd_ok = rpcrdma_cm_private_decode(pd, len, &p) == RPCRDMA_CM_OK;
	if (d->pd_ok) {
		d->pd_recv = p.max_recv_size;
		d->pd_send = p.max_send_size;
	}
}

/* -V and --json: the end `end`'s address and what it announced */
static void json_end(struct json *j, const struct cap_conv *c, int end)
{
	char a[64];
	struct rpcrdma_cm_private p;
	int who = end == c->requester ? 0 : 1;

	cap_addr_text(a, sizeof(a), c->family, c->addr[end], 0, false);
	json_obj_begin(j);
	json_key(j, "addr");
	json_str(j, a);
	if (c->transport == CAP_T_IWARP) {
		json_key(j, "port");
		json_u64(j, c->port[end]);
	} else if (c->d[1 - end].have_qp) {
		json_key(j, "qp");            /* its QP: where the peer sends */
		json_hex(j, c->d[1 - end].qp, 0);
	}
	json_key(j, "private_data");
	if (!c->stats.pd_seen[who]) {
		json_null(j);
	} else {
		const uint8_t *pd = c->stats.pd[who];
		uint32_t len = c->stats.pd_len[who];
		enum rpcrdma_cm_result r = rpcrdma_cm_private_decode(pd, len, &p);
		json_obj_begin(j);
		json_key(j, "bytes");
		json_hexstr(j, pd, len);
		json_key(j, "rfc8797");
		json_bool(j, r == RPCRDMA_CM_OK);
		if (r == RPCRDMA_CM_OK) {
			json_key(j, "version");
			json_u64(j, p.pd_version);
			json_key(j, "remote_invalidate");
			json_bool(j, p.pd_flags & RPCRDMA_CM_FLAG_REMOTE_INVALIDATE);
			json_key(j, "max_send_size");
			json_u64(j, p.max_send_size);
			json_key(j, "max_recv_size");
			json_u64(j, p.max_recv_size);
		}
		json_obj_end(j);
	}
	json_obj_end(j);
}

/* print the connection's parameters?  Not with --check, --stats (which
 * has them per conversation) or -q, nor under a message filter but the
 * conversation's */
static bool shown(const struct cap_state *st, const struct cap_conv *c)
{
	const struct cap_opts *o = st->o;

	return !o->check && !o->stats && !o->quiet && c->requester >= 0 &&
	       !o->nxids && !o->have_vers && !o->nprogs && !o->nprocs &&
	       !o->nproc_names &&
	       (!o->nconvs || cap_in_list(o->convs, o->nconvs, c->id));
}

/* the connection is set up (REP, MPA Reply): -V says so at once, with what
 * both ends announced; --json writes its record when the conversation
 * ends (cap_conn_close), after its messages */
void cap_conn_established(struct cap_state *st, const struct cap_frame *f,
			  struct cap_conv *c, const char *how)
{
	c->conn_how = how;
	c->conn_at = (struct cap_frame){ .num = f->num, .ts_sec = f->ts_sec,
					 .ts_usec = f->ts_usec };
	if (!shown(st, c) || st->o->json || !st->o->verbose || c->conn_shown)
		return;
	c->conn_shown = true;
	int rq = c->requester;
	fprintf(st->out, "frame %llu connection: %s <-> %s %s conversation %u, "
		"set up by the %s\n", (unsigned long long)f->num,
		cap_dir_name(c, rq), cap_dir_name(c, 1 - rq),
		cap_transport_name(c->transport), c->id, how);
	cap_stats_private_print(st->out, &c->stats);
}

/* --json: one record per connection whose set-up the capture holds */
void cap_conn_close(struct cap_state *st, struct cap_conv *c)
{
	if (!c->conn_how || c->conn_shown || !st->o->json || !shown(st, c))
		return;
	c->conn_shown = true;
	int rq = c->requester;
	struct obuf ob;
	struct json j;
	ob_init(&ob, st->out);
	json_init(&j, &ob);
	json_obj_begin(&j);
	json_key(&j, "type");
	json_str(&j, "connection");
	json_key(&j, "file");
	json_str(&j, st->file);
	json_key(&j, "frame");
	json_u64(&j, c->conn_at.num);
	json_key(&j, "time");
	json_time(&j, c->conn_at.ts_sec, c->conn_at.ts_usec);
	json_key(&j, "transport");
	json_str(&j, cap_transport_name(c->transport));
	json_key(&j, "conversation");
	json_u64(&j, c->id);
	json_key(&j, "established_by");
	json_str(&j, c->conn_how);
	json_key(&j, "requester");
	json_end(&j, c, rq);
	json_key(&j, "responder");
	json_end(&j, c, 1 - rq);
	json_obj_end(&j);
	ob_putc(&ob, '\n');
	ob_flush(&ob);
}

/* The inline threshold a Send from endpoint `dir` is held to (V1 4.3.2,
 * V2 5): the command line's, else its receiver's announced Receive Size
 * (RFC 8797 3.2), else the version's default.  *from names the source. */
uint32_t cap_conn_threshold(const struct cap_state *st, const struct cap_conv *c,
			    int dir, uint32_t vers, const char **from)
{
	const struct cap_dir *rx = &c->d[1 - dir];

	if (st->o->inline_threshold) {
		*from = "--inline-threshold";
		return st->o->inline_threshold;
	}
	if (rx->pd_ok && rx->pd_recv) {
		*from = "announced in its private data, RFC 8797";
		return rx->pd_recv;
	}
	*from = "the version's default";
	return vers == 2 ? RPCRDMA_V2_INLINE_DEFAULT : RPCRDMA_V1_INLINE_DEFAULT;
}
