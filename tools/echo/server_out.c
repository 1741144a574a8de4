/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * server_out.c - what rpcrdma-echo -s prints (man/rpcrdma-echo.1, OUTPUT
 * FORMAT): a line when it listens, when a connection comes and goes (with
 * that connection's counts), per call with -v, and at exit every
 * connection's counts and the total; with --json the same as JSON Lines
 * ("listening", "connect", "call", "disconnect", "summary").
 */
#include <stdio.h>
#include "server.h"

static void line_end(struct server *sv)
{
	live_json_line_end(&sv->j, sv->out);
}

/* a JSON Lines event: {"type":TYPE, ... (line_end() closes it) */
static void event_begin(struct server *sv, const char *type)
{
	json_obj_begin(&sv->j);
	json_kstr(&sv->j, "type", type);
}

static const char *versions_text(unsigned v)
{
	v &= XPRT_V1 | XPRT_V2;
	return v == XPRT_V1 ? "1" : v == XPRT_V2 ? "2" : "1,2";
}

static const char *why_text(const struct conn *c)
{
	if (c->x)
		return "open";
	switch (c->why) {
	case XPRT_DISC_LOCAL: return "closed";
	case XPRT_DISC_PEER: return "closed by the peer";
	case XPRT_DISC_ERROR: return "lost";
	}
	return "closed";
}

void conn_counts_add(struct conn_counts *t, const struct conn_counts *c)
{
	t->st.null_calls += c->st.null_calls;
	t->st.echo_calls += c->st.echo_calls;
	t->st.callback_calls += c->st.callback_calls;
	t->st.echo_bytes += c->st.echo_bytes;
	t->st.rpc_errors += c->st.rpc_errors;
	t->st.ddp_violations += c->st.ddp_violations;
	t->st.dropped += c->st.dropped;
	t->bw_sent += c->bw_sent;
	t->bw_identical += c->bw_identical;
	t->bw_failed += c->bw_failed;
	xprt_stats_add(&t->xs, &c->xs);
}

static void json_counts(struct json *j, const struct conn_counts *n)
{
	json_ku64(j, "null", n->st.null_calls);
	json_ku64(j, "echo", n->st.echo_calls);
	json_ku64(j, "callback", n->st.callback_calls);
	json_ku64(j, "echo_bytes", n->st.echo_bytes);
	json_ku64(j, "rpc_errors", n->st.rpc_errors);
	json_ku64(j, "ddp_violations", n->st.ddp_violations);
	json_ku64(j, "dropped", n->st.dropped);
	json_ku64(j, "backward_sent", n->bw_sent);
	json_ku64(j, "backward_identical", n->bw_identical);
	json_ku64(j, "backward_failed", n->bw_failed);
	json_key(j, "transport");
	json_obj_begin(j);
	live_json_stats(j, &n->xs);
	json_obj_end(j);
}

static void json_conn(struct json *j, const struct conn *c)
{
	uint64_t end = c->x ? live_now_ns() : c->t_close;

	json_ku64(j, "id", c->id);
	json_kstr(j, "peer", c->addr);
	json_kstr(j, "device", c->device);
	json_ku64(j, "vers", c->vers);
	json_kstr(j, "state", why_text(c));
	json_ku64(j, "duration_ns", end - c->t_open);
	json_counts(j, &c->n);
}

static void text_counts(FILE *f, const struct conn_counts *n)
{
	fprintf(f, "%llu calls (%llu NULL, %llu ECHO of %llu bytes, %llu CALLBACK), "
	       "%llu RPC errors, %llu DDP violations, %llu dropped; backward %llu "
	       "sent, %llu identical, %llu failed; transport %llu errors sent, "
	       "%llu discarded",
	       (unsigned long long)(n->st.null_calls + n->st.echo_calls +
				    n->st.callback_calls + n->st.rpc_errors),
	       (unsigned long long)n->st.null_calls, (unsigned long long)n->st.echo_calls,
	       (unsigned long long)n->st.echo_bytes,
	       (unsigned long long)n->st.callback_calls,
	       (unsigned long long)n->st.rpc_errors,
	       (unsigned long long)n->st.ddp_violations,
	       (unsigned long long)n->st.dropped, (unsigned long long)n->bw_sent,
	       (unsigned long long)n->bw_identical, (unsigned long long)n->bw_failed,
	       (unsigned long long)n->xs.errors_sent,
	       (unsigned long long)n->xs.discarded);
}

void sv_out_listening(struct server *sv)
{
	const struct xprt_opts *x = &sv->o->x;
	const char *port = x->port ? x->port : XPRT_DEFAULT_PORT;

	if (sv->o->json) {
		event_begin(sv, "listening");
		json_kstr(&sv->j, "addr", x->host ? x->host : "*");
		json_kstr(&sv->j, "port", port);
		json_kstr(&sv->j, "versions", versions_text(x->versions ? x->versions :
							  XPRT_V1 | XPRT_V2));
		json_ku64(&sv->j, "credits", x->credits ? x->credits : 32);
		line_end(sv);
		return;
	}
	fprintf(sv->out, "rpcrdma-echo: listening on %s port %s, versions %s, %u credits\n",
	       x->host ? x->host : "all addresses", port,
	       versions_text(x->versions ? x->versions : XPRT_V1 | XPRT_V2),
	       x->credits ? x->credits : 32);
	fflush(sv->out);
}

void sv_out_connect(struct server *sv, const struct conn *c)
{
	if (sv->o->json) {
		event_begin(sv, "connect");
		json_ku64(&sv->j, "id", c->id);
		json_kstr(&sv->j, "peer", c->addr);
		json_kstr(&sv->j, "device", c->device);
		line_end(sv);
		return;
	}
	fprintf(sv->out, "connection %u from %s via %s\n", c->id, c->addr, c->device);
	fflush(sv->out);
}

void sv_out_call(struct server *sv, const struct conn *c, const struct echo_args *a,
		 const struct xprt_rcvd_call *r)
{
	static const char *const procs[] = { "NULL", "ECHO", "CALLBACK" };
	const char *proc = (unsigned)a->proc < 3 ? procs[a->proc] : "?";

	if (sv->o->json) {
		event_begin(sv, "call");
		json_ku64(&sv->j, "id", c->id);
		json_ku64(&sv->j, "xid", r->xid);
		json_ku64(&sv->j, "vers", r->vers);
		json_kstr(&sv->j, "proc", proc);
		json_ku64(&sv->j, "size", a->len);
		json_kstr(&sv->j, "call_path", xprt_path_name(r->call_path));
		json_kbool(&sv->j, "backward", r->backward);
		line_end(sv);
		return;
	}
	fprintf(sv->out, "connection %u: xid 0x%08x V%u %s %u bytes, call %s\n", c->id, r->xid,
	       r->vers, proc, a->len, xprt_path_name(r->call_path));
	fflush(sv->out);
}

void sv_out_disconnect(struct server *sv, const struct conn *c)
{
	if (sv->o->json) {
		event_begin(sv, "disconnect");
		json_conn(&sv->j, c);
		line_end(sv);
		return;
	}
	fprintf(sv->out, "connection %u %s after %.3f s: ", c->id, why_text(c),
	       (double)(c->t_close - c->t_open) / 1e9);
	text_counts(sv->out, &c->n);
	fprintf(sv->out, "\n");
	fflush(sv->out);
}

void sv_out_summary(struct server *sv)
{
	struct conn_counts total = sv->total;
	const struct conn *c;

	for (c = sv->conns; c; c = c->next)
		conn_counts_add(&total, &c->n);
	if (sv->o->json) {
		event_begin(sv, "summary");
		json_ku64(&sv->j, "connections", sv->nconns);
		json_ku64(&sv->j, "connections_not_listed", sv->dropped_records);
		json_key(&sv->j, "list");
		json_arr_begin(&sv->j);
		for (c = sv->conns; c; c = c->next) {
			json_obj_begin(&sv->j);
			json_conn(&sv->j, c);
			json_obj_end(&sv->j);
		}
		json_arr_end(&sv->j);
		json_key(&sv->j, "total");
		json_obj_begin(&sv->j);
		json_counts(&sv->j, &total);
		json_obj_end(&sv->j);
		line_end(sv);
		return;
	}
	fprintf(sv->out, "--- rpcrdma-echo server statistics ---\n");
	for (c = sv->conns; c; c = c->next) {
		fprintf(sv->out, "connection %u %s %s: ", c->id, c->addr, why_text(c));
		text_counts(sv->out, &c->n);
		fprintf(sv->out, "\n");
	}
	if (sv->dropped_records)
		fprintf(sv->out, "(%llu older connections not listed, in the total)\n",
		       (unsigned long long)sv->dropped_records);
	fprintf(sv->out, "%u connections: ", sv->nconns);
	text_counts(sv->out, &total);
	fprintf(sv->out, "\n");
}
