/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * client_out.c - what rpcrdma-echo's client prints (man/rpcrdma-echo.1,
 * OUTPUT FORMAT): a line per call and ping(8)'s statistics block, or with
 * --json one JSON object per line ("connect", "call", "summary").
 */
#include <math.h>
#include <stdio.h>
#include "client.h"

static const char *const status_names[CS_COUNT_] = {
	"ok", "mismatch", "rdma_error", "rpc_error", "bad_reply", "timeout",
	"lost", "failed",
};

const char *call_status_name(enum call_status s)
{
	return (unsigned)s < CS_COUNT_ ? status_names[s] : "unknown";
}

static const char *proc_name(enum echo_proc p)
{
	return p == ECHO_PROC_NULL ? "NULL" : p == ECHO_PROC_ECHO ? "ECHO" : "CALLBACK";
}

void snapshot(struct client *cl)
{
	if (!cl->x)
		return;
	cl->info = *xprt_peer(cl->x);
	xprt_get_stats(cl->x, &cl->xs);
	cl->have_info = true;
}

static const char *peer_addr(const struct client *cl)
{
	return cl->have_info && cl->info.addr[0] ? cl->info.addr : cl->peer;
}

static void json_line_end(struct client *cl)
{
	live_json_line_end(&cl->j, cl->out);
}

static void json_private_data(struct client *cl)
{
	const struct xprt_peer_info *p = &cl->info;

	json_key(&cl->j, "private_data");
	if (!p->has_private_data) {
		json_null(&cl->j);
		return;
	}
	json_obj_begin(&cl->j);
	json_ku64(&cl->j, "flags", p->priv.pd_flags);
	json_kbool(&cl->j, "remote_invalidate",
		   p->priv.pd_flags & RPCRDMA_CM_FLAG_REMOTE_INVALIDATE);
	json_ku64(&cl->j, "send_size", p->priv.max_send_size);
	json_ku64(&cl->j, "recv_size", p->priv.max_recv_size);
	json_obj_end(&cl->j);
}

void out_start(struct client *cl)
{
	const struct echo_opts *o = cl->o;
	const struct xprt_peer_info *p;
	unsigned i;

	snapshot(cl);
	p = &cl->info;
	if (o->json) {
		json_obj_begin(&cl->j);
		json_kstr(&cl->j, "type", "connect");
		json_kstr(&cl->j, "peer", peer_addr(cl));
		json_kstr(&cl->j, "device", p->device);
		json_private_data(cl);
		json_ku64(&cl->j, "inline_send", p->inline_send);
		json_ku64(&cl->j, "inline_recv", p->inline_recv);
		json_line_end(cl);
		return;
	}
	fprintf(cl->out, "RPCRDMA-ECHO %s via %s:", peer_addr(cl), p->device[0] ? p->device : "?");
	if (o->null_only) {
		fprintf(cl->out, " NULL calls to program %u version %u\n", o->prog, o->prog_vers);
	} else {
		fprintf(cl->out, " %u x", o->count);
		for (i = 0; i < o->nsizes; i++)
			fprintf(cl->out, "%s%u", i ? "," : " ", o->sizes[i]);
		fprintf(cl->out, " bytes, chunk");
		for (i = 0; i < o->nchunks; i++)
			fprintf(cl->out, "%s%s", i ? "," : " ", live_chunk_name(o->chunks[i]));
		fprintf(cl->out, ", depth %u, backward %u\n", o->depth, o->backward);
	}
	if (o->verbose) {
		if (p->has_private_data)
			fprintf(cl->out, "private data from the peer: flags 0x%02x%s, send %u, "
			       "receive %u\n", p->priv.pd_flags,
			       p->priv.pd_flags & RPCRDMA_CM_FLAG_REMOTE_INVALIDATE ?
			       " (remote invalidation)" : "",
			       p->priv.max_send_size, p->priv.max_recv_size);
		else
			fprintf(cl->out, "no private data from the peer\n");
		fprintf(cl->out, "inline thresholds: send %u, receive %u\n", p->inline_send,
		       p->inline_recv);
	}
}

static void text_call(struct client *cl, const struct slot *s, enum call_status st,
		      const char *detail, uint64_t rtt)
{
	const struct xprt_call *c = &s->c;

	if (s->proc == ECHO_PROC_ECHO)
		fprintf(cl->out, "%u bytes from %s: seq=%llu", s->size, peer_addr(cl),
		       (unsigned long long)s->seq);
	else
		fprintf(cl->out, "%s from %s: seq=%llu", proc_name(s->proc), peer_addr(cl),
		       (unsigned long long)s->seq);
	if (st != CS_OK) {
		fprintf(cl->out, ": %s\n", detail);
		return;
	}
	if (s->proc == ECHO_PROC_NULL) {
		fprintf(cl->out, " vers=%u", cl->info.vers);
		if (cl->info.v2_refused)
			fprintf(cl->out, " (V2 refused: ERR_VERS %u..%u)", cl->info.vers_low,
			       cl->info.vers_high);
	} else if (s->proc == ECHO_PROC_ECHO) {
		if (cl->o->nchunks > 1)
			fprintf(cl->out, " chunk=%s", live_chunk_name(s->chunk));
		fprintf(cl->out, " call=%s reply=%s", xprt_path_name(c->call_path),
		       xprt_path_name(c->reply_path));
	} else {
		fprintf(cl->out, " identical=%u", s->result);
	}
	fprintf(cl->out, " time=%.3f ms\n", (double)rtt / 1e6);
}

void out_call(struct client *cl, const struct slot *s, enum call_status st,
	      const char *detail, uint64_t rtt)
{
	const struct xprt_call *c = &s->c;

	if (cl->x)
		snapshot(cl);
	if (cl->o->quiet)
		return;
	if (!cl->o->json) {
		text_call(cl, s, st, detail, rtt);
		fflush(cl->out);
		return;
	}
	json_obj_begin(&cl->j);
	json_kstr(&cl->j, "type", "call");
	json_ku64(&cl->j, "seq", s->seq);
	json_kstr(&cl->j, "proc", proc_name(s->proc));
	json_ku64(&cl->j, "size", s->size);
	if (s->proc == ECHO_PROC_ECHO)
		json_kstr(&cl->j, "chunk", live_chunk_name(s->chunk));
	json_ku64(&cl->j, "xid", c->xid);
	json_ku64(&cl->j, "vers", cl->info.vers);
	json_kstr(&cl->j, "status", call_status_name(st));
	if (st == CS_OK) {
		json_kstr(&cl->j, "call_path", xprt_path_name(c->call_path));
		json_kstr(&cl->j, "reply_path", xprt_path_name(c->reply_path));
		json_ku64(&cl->j, "rtt_ns", rtt);
		if (s->proc == ECHO_PROC_CALLBACK)
			json_ku64(&cl->j, "identical", s->result);
	} else {
		json_kstr(&cl->j, "error", detail);
	}
	json_line_end(cl);
}

static void json_paths(struct client *cl, const char *key, const uint64_t *n)
{
	unsigned i;

	json_key(&cl->j, key);
	json_obj_begin(&cl->j);
	for (i = 0; i < 5; i++)
		if (n[i])
			json_ku64(&cl->j, xprt_path_name((enum xprt_path)i), n[i]);
	json_obj_end(&cl->j);
}

static void json_summary(struct client *cl, int rc, bool interrupted,
			 double avg, double mdev)
{
	const struct xprt_peer_info *p = &cl->info;
	const struct xprt_stats *x = &cl->xs;
	unsigned i;

	json_obj_begin(&cl->j);
	json_kstr(&cl->j, "type", "summary");
	json_kstr(&cl->j, "peer", peer_addr(cl));
	json_kstr(&cl->j, "device", p->device);
	json_ku64(&cl->j, "vers", p->vers);
	json_kbool(&cl->j, "v2_refused", p->v2_refused);
	json_kbool(&cl->j, "v2_dropped", p->v2_dropped);
	json_ku64(&cl->j, "vers_low", p->vers_low);
	json_ku64(&cl->j, "vers_high", p->vers_high);
	json_ku64(&cl->j, "credits_granted", p->credits_granted);
	json_ku64(&cl->j, "inline_send", p->inline_send);
	json_ku64(&cl->j, "inline_recv", p->inline_recv);
	json_private_data(cl);
	json_ku64(&cl->j, "calls", cl->calls);
	json_ku64(&cl->j, "replies", cl->replies);
	json_ku64(&cl->j, "identical", cl->identical);
	json_ku64(&cl->j, "echo_bytes", cl->echo_bytes);
	json_key(&cl->j, "failed");
	json_obj_begin(&cl->j);
	for (i = 1; i < CS_COUNT_; i++)
		if (cl->status[i])
			json_ku64(&cl->j, status_names[i], cl->status[i]);
	json_obj_end(&cl->j);
	json_key(&cl->j, "rtt_ns");
	json_obj_begin(&cl->j);
	json_ku64(&cl->j, "min", cl->rtt_min);
	json_ku64(&cl->j, "avg", (uint64_t)avg);
	json_ku64(&cl->j, "max", cl->rtt_max);
	json_ku64(&cl->j, "mdev", (uint64_t)mdev);
	json_obj_end(&cl->j);
	json_paths(cl, "call_paths", cl->call_paths);
	json_paths(cl, "reply_paths", cl->reply_paths);
	json_key(&cl->j, "backward");
	json_obj_begin(&cl->j);
	json_ku64(&cl->j, "requested", cl->o->backward);
	json_ku64(&cl->j, "received", cl->bw_received);
	json_ku64(&cl->j, "identical", cl->bw_identical);
	if (cl->have_r0 && cl->have_r1)
		json_ku64(&cl->j, "server_identical", (uint64_t)(cl->r1 - cl->r0));
	else
		json_knull(&cl->j, "server_identical");
	json_obj_end(&cl->j);
	json_key(&cl->j, "transport");
	json_obj_begin(&cl->j);
	live_json_stats(&cl->j, x);
	json_obj_end(&cl->j);
	json_ku64(&cl->j, "time_ns", cl->t_end - cl->t_begin);
	json_kbool(&cl->j, "interrupted", interrupted);
	json_ku64(&cl->j, "exit", (uint64_t)rc);
	json_line_end(cl);
}

static void text_paths(FILE *f, const char *what, const uint64_t *n)
{
	const char *sep = " ";
	unsigned i;

	fprintf(f, "%s", what);
	for (i = 0; i < 5; i++)
		if (n[i]) {
			fprintf(f, "%s%s %llu", sep, xprt_path_name((enum xprt_path)i),
			       (unsigned long long)n[i]);
			sep = ", ";
		}
}

void out_summary(struct client *cl, int rc, bool interrupted)
{
	const struct xprt_peer_info *p = &cl->info;
	double n = (double)cl->rtt_n, avg = 0, mdev = 0;
	uint64_t failed = 0;
	const char *sep = " (";
	unsigned i;

	if (cl->rtt_n) {
		avg = cl->rtt_sum / n;
		mdev = sqrt(fmax(cl->rtt_sumsq / n - avg * avg, 0));
	}
	if (cl->o->json) {
		json_summary(cl, rc, interrupted, avg, mdev);
		return;
	}
	for (i = 1; i < CS_COUNT_; i++)
		failed += cl->status[i];
	fprintf(cl->out, "--- %s rpcrdma-echo statistics ---\n", cl->peer);
	fprintf(cl->out, "%llu calls, %llu replies, %llu ECHO identical (%llu bytes), "
	       "%llu failed", (unsigned long long)cl->calls,
	       (unsigned long long)cl->replies, (unsigned long long)cl->identical,
	       (unsigned long long)cl->echo_bytes, (unsigned long long)failed);
	for (i = 1; i < CS_COUNT_; i++)
		if (cl->status[i]) {
			fprintf(cl->out, "%s%llu %s", sep, (unsigned long long)cl->status[i],
			       status_names[i]);
			sep = ", ";
		}
	fprintf(cl->out, "%s, time %.0f ms\n", failed ? ")" : "",
	       (double)(cl->t_end - cl->t_begin) / 1e6);
	if (cl->rtt_n)
		fprintf(cl->out, "rtt min/avg/max/mdev = %.3f/%.3f/%.3f/%.3f ms\n",
		       (double)cl->rtt_min / 1e6, avg / 1e6, (double)cl->rtt_max / 1e6,
		       mdev / 1e6);
	text_paths(cl->out, "paths: call", cl->call_paths);
	text_paths(cl->out, "; reply", cl->reply_paths);
	fprintf(cl->out, "\n");
	if (cl->o->backward) {
		fprintf(cl->out, "backward: %u asked, %llu received, %llu identical; ", cl->o->backward,
		       (unsigned long long)cl->bw_received,
		       (unsigned long long)cl->bw_identical);
		if (cl->have_r0 && cl->have_r1)
			fprintf(cl->out, "the server counted %u identical replies\n", cl->r1 - cl->r0);
		else
			fprintf(cl->out, "the server's count is missing\n");
	}
	fprintf(cl->out, "RPC-over-RDMA Version %u", p->vers);
	if (p->v2_refused)
		fprintf(cl->out, " (Version 2 refused: ERR_VERS %u..%u)", p->vers_low, p->vers_high);
	fprintf(cl->out, ", %u credits granted, inline thresholds send %u receive %u\n",
	       p->credits_granted, p->inline_send, p->inline_recv);
	if (rc && interrupted)
		fprintf(cl->out, "interrupted\n");
}
