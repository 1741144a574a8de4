/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tout.c - rpcrdma-trace's outputs (trpc.h): a line per RPC, -V, --json
 * (through the printers' JSON writer, tools/common/json.h, with
 * rpcrdma-decode's key names where the meaning is the same: "xid" as a
 * "0x..." string, "vers", "credits", "proc_name", "header_length", "reads",
 * "writes", "reply"), --stats and --check.
 */
#include "trpc.h"

#include <inttypes.h>
#include <string.h>

#include "json.h"
#include "outbuf.h"

static const char *const kind_name[3] = { "read", "write", "reply" };

static void secs(char *b, size_t n, uint64_t ns)
{
	snprintf(b, n, "%" PRIu64 ".%06" PRIu64, ns / 1000000000u, (ns % 1000000000u) / 1000u);
}

static void json_time_ns(struct json *j, const char *key, uint64_t ns)
{
	json_key(j, key);
	json_time(j, (int64_t)(ns / 1000000000u), (uint32_t)((ns % 1000000000u) / 1000u));
}

static void json_seg(struct json *j, const struct tr_seg *s, bool pos)
{
	json_obj_begin(j);
	if (pos)
		json_ku64(j, "position", s->position);
	json_khex(j, "handle", s->handle, 8);
	json_ku64(j, "length", s->length);
	json_khex(j, "offset", s->offset, 16);
	json_obj_end(j);
}

static const char *const err_names[] = {
	"marshal-failed", "prepsend-failed", "err-vers", "err-chunk", "bad-reply", "server-decode-error",
	"send-error", "no-reply", "credits-exceeded", "zero-grant", "reply-without-call", "evicted",
};

static void rpc_json(struct tr_state *st, const struct tr_rpc *r)
{
	struct obuf o;
	struct json j;
	unsigned k, i;

	ob_init(&o, st->out);
	json_init(&j, &o);
	json_obj_begin(&j);
	json_khex(&j, "xid", r->xid, 8);
	json_kstr(&j, "side", r->has_call && r->has_srv ? "both" : r->has_call ? "client" : r->has_srv ? "server"
		  : "client-reply");
	json_time_ns(&j, "time", r->has_call ? r->t_marshal : r->has_srv ? r->t_srv : r->t_reply);
	if (r->has_call) {
		json_ku64(&j, "task", r->task);
		json_ku64(&j, "client", r->client);
	}
	json_key(&j, "call");
	json_obj_begin(&j);
	if (r->has_srv) {
		json_ku64(&j, "vers", r->vers);
		json_ku64(&j, "credits", r->credits_asked);
		json_kstr(&j, "proc_name", r->proc);
	} else {
		json_knull(&j, "vers");
		json_knull(&j, "credits");
		json_knull(&j, "proc_name");
	}
	if (r->has_call || r->has_srv)
		json_ku64(&j, "header_length", r->has_call ? r->hdr : r->srv_hdrlen);
	else
		json_knull(&j, "header_length");
	if (r->has_call) {
		json_kstr(&j, "rtype", r->rtype);
		json_kstr(&j, "wtype", r->wtype);
		json_key(&j, "xdr");
		json_arr_begin(&j);
		for (k = 0; k < 3; k++)
			json_u64(&j, r->xdr[k]);
		json_arr_end(&j);
		json_key(&j, "reads");
		json_arr_begin(&j);
		for (i = 0; i < r->nseg[0] && i < TR_MAX_SEGS; i++)
			json_seg(&j, &r->seg[0][i], true);
		json_arr_end(&j);
		/* the kernel sends at most one Write chunk: its segments */
		json_key(&j, "writes");
		json_arr_begin(&j);
		if (r->nseg[1]) {
			json_arr_begin(&j);
			for (i = 0; i < r->nseg[1] && i < TR_MAX_SEGS; i++)
				json_seg(&j, &r->seg[1][i], false);
			json_arr_end(&j);
		}
		json_arr_end(&j);
		json_key(&j, "reply");
		if (r->nseg[2]) {
			json_arr_begin(&j);
			for (i = 0; i < r->nseg[2] && i < TR_MAX_SEGS; i++)
				json_seg(&j, &r->seg[2][i], false);
			json_arr_end(&j);
		} else {
			json_null(&j);
		}
		json_key(&j, "segments");
		json_arr_begin(&j);
		for (k = 0; k < 3; k++)
			json_u64(&j, r->nseg[k]);
		json_arr_end(&j);
	}
	json_obj_end(&j);
	json_key(&j, "reply");
	if (r->has_reply) {
		json_obj_begin(&j);
		json_ku64(&j, "credits", r->credits_granted);
		json_time_ns(&j, "time", r->t_reply);
		json_ku64(&j, "decoded_segments", r->reply_segs);
		json_obj_end(&j);
	} else {
		json_null(&j);
	}
	if (r->has_srv) {
		json_key(&j, "server");
		json_obj_begin(&j);
		json_time_ns(&j, "time", r->t_srv);
		json_ku64(&j, "read_segments", r->srv_segs[0]);
		json_ku64(&j, "write_segments", r->srv_segs[1]);
		if (r->read_latency_us >= 0)
			json_ku64(&j, "read_latency_us", (uint64_t)r->read_latency_us);
		if (r->srv_sent)
			json_khex(&j, "inv_rkey", r->inv_rkey, 8);
		json_obj_end(&j);
	}
	if (r->has_call && r->has_reply && r->t_reply >= r->t_marshal)
		json_ku64(&j, "latency_us", (r->t_reply - r->t_marshal) / 1000u);
	if (r->has_call && r->t_post >= r->t_marshal && r->t_post)
		json_ku64(&j, "send_us", (r->t_post - r->t_marshal) / 1000u);
	json_ku64(&j, "retransmits", r->retransmits);
	json_key(&j, "errors");
	json_arr_begin(&j);
	for (k = 0; k < sizeof(err_names) / sizeof(err_names[0]); k++)
		if (r->errors & (1u << k))
			json_str(&j, err_names[k]);
	json_arr_end(&j);
	json_obj_end(&j);
	ob_putc(&o, '\n');
	ob_flush(&o);
}

void tr_print_rpc(struct tr_state *st, const struct tr_rpc *r)
{
	char t[32], b[512];
	size_t n = 0;
	unsigned k;

	if (st->mode == TR_JSON) {
		rpc_json(st, r);
		return;
	}
	secs(t, sizeof(t), r->has_call ? r->t_marshal : r->has_srv ? r->t_srv : r->t_reply);
	n += (size_t)snprintf(b + n, sizeof(b) - n, "%s xid 0x%08x", t, r->xid);
	if (r->has_call)
		n += (size_t)snprintf(b + n, sizeof(b) - n, " %s/%s hdr %u segs %u/%u/%u", r->rtype, r->wtype,
				      r->hdr, r->nseg[0], r->nseg[1], r->nseg[2]);
	if (r->has_srv && n < sizeof(b))
		n += (size_t)snprintf(b + n, sizeof(b) - n, " %s v%u credits %u", r->proc, r->vers, r->credits_asked);
	if (r->has_reply && n < sizeof(b))
		n += (size_t)snprintf(b + n, sizeof(b) - n, " -> granted %u", r->credits_granted);
	if (r->has_call && r->has_reply && r->t_reply >= r->t_marshal && n < sizeof(b))
		n += (size_t)snprintf(b + n, sizeof(b) - n, " %" PRIu64 " us", (r->t_reply - r->t_marshal) / 1000u);
	for (k = 0; k < sizeof(err_names) / sizeof(err_names[0]) && n < sizeof(b); k++)
		if (r->errors & (1u << k))
			n += (size_t)snprintf(b + n, sizeof(b) - n, " [%s]", err_names[k]);
	fprintf(st->out, "%s\n", b);
	if (st->mode != TR_VERBOSE)
		return;
	if (r->has_call) {
		fprintf(st->out, "  client: task %u@%u, xdr %u/%u/%u, %u calls in flight", r->task, r->client,
			r->xdr[0], r->xdr[1], r->xdr[2], r->outstanding);
		if (r->t_post >= r->t_marshal && r->t_post)
			fprintf(st->out, ", posted %" PRIu64 " us after marshal", (r->t_post - r->t_marshal) / 1000u);
		fputc('\n', st->out);
		for (k = 0; k < 3; k++) {
			unsigned i;

			for (i = 0; i < r->nseg[k] && i < TR_MAX_SEGS; i++) {
				const struct tr_seg *s = &r->seg[k][i];

				fprintf(st->out, "    %s segment %u: ", kind_name[k], i);
				if (k == 0)
					fprintf(st->out, "position %u ", s->position);
				fprintf(st->out, "%u@0x%016" PRIx64 ":0x%08x\n", s->length, s->offset, s->handle);
			}
			if (r->nseg[k] > TR_MAX_SEGS)
				fprintf(st->out, "    (%u more %s segments)\n", r->nseg[k] - TR_MAX_SEGS, kind_name[k]);
		}
	}
	if (r->has_srv) {
		char ts[32];

		secs(ts, sizeof(ts), r->t_srv);
		fprintf(st->out, "  server: decoded at %s, hdrlen %u, %u read and %u write segments", ts,
			r->srv_hdrlen, r->srv_segs[0], r->srv_segs[1]);
		if (r->read_latency_us >= 0)
			fprintf(st->out, ", read chunk pulled in %" PRId64 " us", r->read_latency_us);
		if (r->srv_sent)
			fprintf(st->out, ", reply sent%s", r->inv_rkey ? " with remote invalidation" : "");
		fputc('\n', st->out);
	}
	if (r->has_reply)
		fprintf(st->out, "  reply: %u credits granted, %u segments decoded\n", r->credits_granted,
			r->reply_segs);
}

void tr_print_stats(struct tr_state *st)
{
	FILE *f = st->out;
	unsigned i;
	char t[32];

	fprintf(f, "rpcrdma-trace statistics:\n");
	fprintf(f, "  lines %" PRIu64 ": %" PRIu64 " events (%" PRIu64 " rpcrdma, %" PRIu64 " markers), %" PRIu64
		" other lines, %" PRIu64 " malformed, %" PRIu64 " too long\n", st->lines, st->events, st->ev_known,
		st->markers, st->other_lines, st->bad_lines, st->overlong);
	fprintf(f, "  RPCs %" PRIu64 ": %" PRIu64 " seen by client and server, %" PRIu64 " client only, %" PRIu64
		" server only; %" PRIu64 " without a reply, %" PRIu64 " retransmissions, %" PRIu64 " evicted\n",
		st->rpcs_out, st->rpcs_both, st->rpcs_client_only, st->rpcs_server_only, st->no_reply,
		st->retransmits, st->evicted);
	fprintf(f, "  latency, marshal to reply, by chunk types (the rpcrdma events do not name the procedure):\n");
	for (i = 0; i < st->n_lat; i++)
		fprintf(f, "    %-24s %6" PRIu64 " RPCs  min %" PRIu64 " us  mean %" PRIu64 " us  max %" PRIu64 " us\n",
			st->lat[i].key, st->lat[i].n, st->lat[i].min_us, st->lat[i].sum_us / st->lat[i].n,
			st->lat[i].max_us);
	fprintf(f, "  chunks: %" PRIu64 " read segments (%" PRIu64 " bytes), %" PRIu64 " write segments (%" PRIu64
		" bytes), %" PRIu64 " reply segments (%" PRIu64 " bytes); of them %" PRIu64 "/%" PRIu64 "/%" PRIu64
		" encoded for marshals that failed\n", st->segs[0], st->chunk_bytes[0],
		st->segs[1], st->chunk_bytes[1], st->segs[2], st->chunk_bytes[2], st->segs_failed[0],
		st->segs_failed[1], st->segs_failed[2]);
	if (st->have_grant)
		fprintf(f, "  credits granted: last %u, min %u, max %u; at most %u calls in flight\n", st->granted,
			st->grant_min, st->grant_max, st->max_outstanding);
	else
		fprintf(f, "  credits granted: no reply seen\n");
	for (i = 0; i < st->n_steps; i++) {
		secs(t, sizeof(t), st->steps[i].t);
		fprintf(f, "    %s credits %u\n", t, st->steps[i].credits);
	}
	if (st->steps_dropped)
		fprintf(f, "    (%" PRIu64 " more changes not listed)\n", st->steps_dropped);
	fprintf(f, "  MRs: %" PRIu64 " mapped, %" PRIu64 " registered, %" PRIu64 " invalidated locally, %" PRIu64
		" remotely, %" PRIu64 " unmapped; %" PRIu64 " released without invalidation (%" PRIu64
		" of the connection's own, the write pad; %" PRIu64 " never offered: their marshal failed)\n",
		st->mr_map, st->mr_fastreg, st->mr_localinv, st->mr_reminv, st->mr_unmap,
		st->mr_not_inval + st->mr_conn_released + st->mr_unoffered, st->mr_conn_released, st->mr_unoffered);
	{
		uint64_t open = 0;

		for (i = 0; i < TR_MAX_MRS; i++)
			if (st->mr[i].used)
				open++;
		fprintf(f, "    %" PRIu64 " still mapped at the end of the trace\n", open);
	}
	fprintf(f, "  errors: %" PRIu64 " completions failed, %" PRIu64 " flushed, %" PRIu64 " ERR_VERS, %" PRIu64
		" ERR_CHUNK, %" PRIu64 " bad replies, %" PRIu64 " marshal or send preparation failures (retried by the "
		"client), %" PRIu64 " server decode or send errors, %" PRIu64 " send queue full\n", st->wc_err,
		st->wc_flush, st->err_vers, st->err_chunk, st->reply_bad, st->marshal_fail, st->srv_errs, st->sq_full);
	fprintf(f, "  unknown events:");
	for (i = 0; i < st->n_unknown; i++)
		fprintf(f, " %s %" PRIu64, st->unknown[i].name, st->unknown[i].n);
	fprintf(f, "%s%s\n", st->n_unknown ? "" : " none", st->unknown_other ? " (and more)" : "");
	fprintf(f, "  events whose fields were not as expected (format drift):");
	for (i = 0; i < st->n_drift; i++)
		fprintf(f, " %s %" PRIu64, st->drift[i].name, st->drift[i].n);
	fprintf(f, "%s\n", st->n_drift ? "" : " none");
}

/* "check: NAME N (what) [V1 4.3.1]" for a violation, "note: NAME N (what)
 * [our reading, D-...]" for a note (trpc.h, TR_BASIS_*) */
static void finding(FILE *f, bool note, const char *name, uint64_t n, const char *what, const char *basis)
{
	fprintf(f, "%s: %s %" PRIu64 " (%s) [%s]\n", note ? "note" : "check", name, n, what, basis);
}

void tr_print_check(struct tr_state *st)
{
	FILE *f = st->out;

	finding(f, false, "credits-exceeded", st->f_credits, "calls marshalled beyond the last grant",
		TR_BASIS_CREDITS);
	finding(f, false, "zero-grant", st->f_zero, "replies granting 0 credits", TR_BASIS_ZERO);
	finding(f, true, "mr-not-invalidated", st->f_mr,
		"RPC MRs released with neither LOCAL_INV nor a remote invalidation", TR_BASIS_MR);
	finding(f, true, "reply-without-call", st->f_nocall,
		"replies whose call is not in the trace, after its first marshal", TR_BASIS_NOCALL);
	fprintf(f, "check: %s\n", tr_findings(st) ? "FAIL" : "pass");
}
