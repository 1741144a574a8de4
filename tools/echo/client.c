/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * client.c - rpcrdma-echo's client: connect, a NULL call (it carries the
 * version negotiation, V2 §5), ECHO calls of every size with every byte
 * checked, then CALLBACK so that the server calls back (BIDI; the
 * procedure in docs/echo-ulb.md §1), answering its backward calls.  The
 * calls run from the transport's event loop: each completion starts the
 * next call, keeping --depth outstanding.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "client.h"

/* The data of call `seq`: a xorshift stream, so a reply to another call,
 * or stale bytes, cannot pass for this one's. */
static void fill(uint8_t *p, size_t len, uint64_t seed)
{
	uint64_t v = seed * 0x9e3779b97f4a7c15ull + 0x2545f4914f6cdd1dull;
	size_t i;

	for (i = 0; i < len; i += 8) {
		v ^= v << 13;
		v ^= v >> 7;
		v ^= v << 17;
		memcpy(p + i, &v, len - i < 8 ? len - i : 8);
	}
}

static void finish(struct client *cl)
{
	cl->finished = true;
	cl->phase = PH_DONE;
	xprt_loop_stop(cl->l);
}

static struct slot *free_slot(struct client *cl)
{
	uint32_t i;

	for (i = 0; i < cl->nslots; i++)
		if (!cl->slots[i].busy)
			return &cl->slots[i];
	return NULL;
}

static void call_done(struct xprt_call *c);

/* Build and queue one call; false when it could not be sent */
static bool start_call(struct client *cl, enum echo_proc proc, uint32_t size,
		       uint32_t count, enum xprt_chunk_mode chunk)
{
	const struct echo_opts *o = cl->o;
	struct slot *s = free_slot(cl);
	const uint8_t *data = proc == ECHO_PROC_CALLBACK ? cl->cb_data : NULL;
	size_t n, ddp_len;

	if (!s)
		return false;
	memset(&s->c, 0, sizeof(s->c));
	s->seq = cl->seq++;
	s->proc = proc;
	s->size = size;
	s->chunk = chunk;
	n = echo_encode_call(s->msg, s->cap, proc, count, data, size, &s->ddp_off,
			     &ddp_len);
	if (!n) {
		fprintf(stderr, PROG ": internal: cannot encode a call of %u bytes\n", size);
		return false;
	}
	if (o->prog != ECHO_PROG || o->prog_vers != ECHO_VERS) {  /* another program */
		rpc_encode_call(s->msg, s->cap, 0, o->prog, o->prog_vers, 0);
	}
	if (proc == ECHO_PROC_ECHO)
		fill(s->msg + s->ddp_off, size, s->seq);
	s->c.msg = s->msg;
	s->c.len = n;
	s->c.ddp_off = s->ddp_off;
	s->c.ddp_len = ddp_len;
	s->c.reply_max = echo_reply_max(proc, size);
	s->c.reply_ddp_max = echo_reply_ddp_max(proc, size);
	s->c.reply_ddp_pos = proc == ECHO_PROC_ECHO ? echo_reply_ddp_pos : NULL;
	/* --chunk applies to ECHO; no data (size 0): nothing to reduce */
	s->c.chunk = !size && (chunk == XPRT_CHUNK_READ || chunk == XPRT_CHUNK_WRITE) ?
		     XPRT_CHUNK_AUTO : chunk;
	s->c.timeout_ms = o->call_timeout_ms;
	s->c.done = call_done;
	s->c.ctx = s;
	s->t0 = live_now_ns();
	s->busy = true;
	cl->calls++;
	if (xprt_call(cl->x, &s->c) == 0)
		return true;
	s->busy = false;
	cl->status[CS_FAILED]++;
	out_call(cl, s, CS_FAILED, s->c.err.msg, 0);
	return false;
}

static void start_check(struct client *cl)
{
	cl->phase = PH_CHECK;
	if (!start_call(cl, ECHO_PROC_CALLBACK, 0, 0, XPRT_CHUNK_AUTO))
		finish(cl);
}

/* The next calls of the current phase, or the next phase */
static void advance(struct client *cl)
{
	const struct echo_opts *o = cl->o;

	if (cl->closing || cl->finished)
		return;
	if (cl->phase == PH_NULL) {
		if (o->null_only) {
			if ((o->count && cl->calls >= o->count) || !start_call(cl, ECHO_PROC_NULL, 0, 0, XPRT_CHUNK_AUTO))
				finish(cl);
			return;
		}
		cl->phase = PH_ECHO;
	}
	if (cl->phase == PH_ECHO) {
		while ((!cl->echo_total || cl->echo_issued < cl->echo_total) &&
		       free_slot(cl)) {
			/* every size with the first mode, then the next mode */
			uint64_t k = cl->echo_issued;
			uint32_t size = o->sizes[k % o->nsizes];
			enum xprt_chunk_mode m = o->chunks[(k / o->nsizes) % o->nchunks];

			cl->echo_issued++;
			if (!start_call(cl, ECHO_PROC_ECHO, size, 0, m)) {
				finish(cl);
				return;
			}
		}
		if (cl->echo_done < cl->echo_issued)
			return;                 /* wait for the rest */
		if (!o->backward) {
			finish(cl);
			return;
		}
		cl->phase = PH_CALLBACK;
		if (!start_call(cl, ECHO_PROC_CALLBACK, cl->cb_len, o->backward,
				XPRT_CHUNK_AUTO))
			finish(cl);
	}
}

static uint64_t rtt_of(const struct slot *s)
{
	const struct xprt_call *c = &s->c;

	if (c->t_start && c->t_done > c->t_start)
		return c->t_done - c->t_start;
	return live_now_ns() - s->t0;
}

/* Compare the echoed data; *detail says where it differs */
static enum call_status check_echo(const struct slot *s, const uint8_t *data,
				   uint32_t len, char *detail, size_t dcap)
{
	const uint8_t *sent = s->msg + s->ddp_off;
	uint32_t i;

	if (len != s->size) {
		snprintf(detail, dcap, "%u bytes came back, not %u", len, s->size);
		return CS_MISMATCH;
	}
	if (!memcmp(sent, data, len))
		return CS_OK;
	for (i = 0; i < len && sent[i] == data[i]; i++)
		;
	snprintf(detail, dcap, "data differ at byte %u (sent 0x%02x, got 0x%02x)",
		 i, sent[i], data[i]);
	return CS_MISMATCH;
}

static enum call_status judge(struct client *cl, struct slot *s, char *detail,
			      size_t dcap)
{
	const struct xprt_call *c = &s->c;
	struct rpc_msg_hdr h;
	const uint8_t *data = NULL;
	uint32_t dlen = 0, count = 0;

	if (c->err.code == XPRT_E_TIMEOUT) {
		snprintf(detail, dcap, "no reply: %s", c->err.msg);
		return CS_TIMEOUT;
	}
	if (c->err.code == XPRT_E_DISCONNECTED) {
		snprintf(detail, dcap, "no reply: the connection was lost");
		return CS_LOST;
	}
	if (c->err.code != XPRT_E_OK) {
		snprintf(detail, dcap, "%s", c->err.msg);
		return CS_FAILED;
	}
	cl->replies++;
	if (c->rdma_error) {
		snprintf(detail, dcap, "RDMA_ERROR %s",
			 rpcrdma_err_name(c->hdr.rdma_vers, c->hdr.rdma_err));
		return CS_RDMA_ERROR;
	}
	if (echo_decode_reply(c->reply, c->reply_len, s->proc, &h, &data, &dlen,
			      &count) != 0) {
		if (h.msg_type == RPC_REPLY && h.reply_stat == RPC_MSG_DENIED)
			snprintf(detail, dcap, "RPC MSG_DENIED %s",
				 rpc_reject_stat_name(h.reject_stat));
		else if (h.msg_type == RPC_REPLY && h.accept_stat != RPC_SUCCESS)
			snprintf(detail, dcap, "RPC %s", rpc_accept_stat_name(h.accept_stat));
		else {
			snprintf(detail, dcap, "the reply does not decode (%zu bytes)",
				 c->reply_len);
			return CS_BAD_REPLY;
		}
		return CS_RPC_ERROR;
	}
	if (s->proc == ECHO_PROC_ECHO)
		return check_echo(s, data, dlen, detail, dcap);
	if (s->proc == ECHO_PROC_CALLBACK) {
		s->result = count;
		if (cl->phase == PH_CALLBACK) {
			cl->r0 = count;
			cl->have_r0 = true;
		} else {
			cl->r1 = count;
			cl->have_r1 = true;
		}
	}
	return CS_OK;
}

static void record(struct client *cl, struct slot *s, enum call_status st,
		   uint64_t rtt)
{
	if (st != CS_OK) {
		cl->status[st]++;
		return;
	}
	if (s->proc == ECHO_PROC_ECHO) {
		cl->identical++;
		cl->echo_bytes += s->size;
	}
	if (s->c.call_path < 5)
		cl->call_paths[s->c.call_path]++;
	if (s->c.reply_path < 5)
		cl->reply_paths[s->c.reply_path]++;
	if (!cl->rtt_n || rtt < cl->rtt_min)
		cl->rtt_min = rtt;
	if (rtt > cl->rtt_max)
		cl->rtt_max = rtt;
	cl->rtt_n++;
	cl->rtt_sum += (double)rtt;
	cl->rtt_sumsq += (double)rtt * (double)rtt;
}

static void call_done(struct xprt_call *c)
{
	struct slot *s = c->ctx;
	struct client *cl = s->cl;
	enum call_status st;
	char detail[320] = "";
	uint64_t rtt = rtt_of(s);

	st = judge(cl, s, detail, sizeof(detail));
	record(cl, s, st, rtt);
	s->busy = false;
	if (!cl->closing || st != CS_LOST)
		out_call(cl, s, st, detail, rtt);
	if (s->proc == ECHO_PROC_ECHO)
		cl->echo_done++;
	if (st == CS_LOST) {
		cl->lost = true;
		finish(cl);
		return;
	}
	if (s->proc == ECHO_PROC_CALLBACK) {
		if (st != CS_OK || cl->phase == PH_CHECK) {
			finish(cl);
		} else {
			cl->phase = PH_WAIT_BACKWARD;
			cl->deadline_ns = live_now_ns() +
					  (uint64_t)cl->o->call_timeout_ms * 1000000u;
			if (cl->bw_received >= cl->o->backward)
				start_check(cl);
			else
				xprt_loop_stop(cl->l);   /* the main loop sets the deadline */
		}
		return;
	}
	advance(cl);
}

/* A backward call from the server: answer it; an ECHO must carry the
 * CALLBACK's data */
static void on_call(struct xprt_rcvd_call *r, void *arg)
{
	struct client *cl = arg;
	struct echo_args a;

	if (echo_respond(r, &a, cl->o->x.credits, &cl->bst) != ECHO_RESP_REPLIED ||
	    a.proc != ECHO_PROC_ECHO)
		return;
	cl->bw_received++;
	if (a.len == cl->cb_len && !memcmp(a.data, cl->cb_data, a.len))
		cl->bw_identical++;
	if (cl->phase == PH_WAIT_BACKWARD && cl->bw_received >= cl->o->backward)
		start_check(cl);
}

static void on_disconnect(struct xprt *x, enum xprt_disc_reason why, void *arg)
{
	struct client *cl = arg;

	(void)x;
	snapshot(cl);
	if (!cl->closing) {
		cl->lost = true;
		fprintf(stderr, PROG ": %s: the connection was %s\n", cl->peer,
			why == XPRT_DISC_PEER ? "closed by the server" : "lost");
	}
	cl->x = NULL;
	finish(cl);
}

static bool alloc_slots(struct client *cl)
{
	const struct echo_opts *o = cl->o;
	uint32_t max = 0, i;

	for (i = 0; i < o->nsizes; i++)
		if (o->sizes[i] > max)
			max = o->sizes[i];
	cl->nslots = o->null_only ? 1 : o->depth;
	cl->slots = calloc(cl->nslots, sizeof(*cl->slots));
	if (!cl->slots)
		return false;
	for (i = 0; i < cl->nslots; i++) {
		struct slot *s = &cl->slots[i];

		s->cl = cl;
		s->cap = ECHO_CALL_HDR_LEN + 8 + (size_t)max + ECHO_CALLBACK_DATA_MAX + 4;
		s->msg = malloc(s->cap);
		if (!s->msg)
			return false;
	}
	cl->cb_len = max < ECHO_CALLBACK_DATA_MAX ? max : ECHO_CALLBACK_DATA_MAX;
	fill(cl->cb_data, cl->cb_len, 0xcb);
	return true;
}

static void free_slots(struct client *cl)
{
	uint32_t i;

	for (i = 0; cl->slots && i < cl->nslots; i++)
		free(cl->slots[i].msg);
	free(cl->slots);
}

/* Run the loop until finished, a signal, or the backward deadline */
static int run(struct client *cl)
{
	while (!cl->finished && !live_interrupted()) {
		int t = -1;

		if (cl->phase == PH_WAIT_BACKWARD) {
			uint64_t now = live_now_ns();

			if (now >= cl->deadline_ns) {
				cl->bw_timeout = true;
				start_check(cl);
				continue;
			}
			t = (int)((cl->deadline_ns - now) / 1000000u) + 1;
		}
		if (xprt_loop_run(cl->l, t) < 0) {
			fprintf(stderr, PROG ": the event loop failed\n");
			return ECHO_EXIT_INTERNAL;
		}
	}
	return 0;
}

static bool closed(void *arg)
{
	return !((struct client *)arg)->x;      /* on_disconnect ran */
}

static int verdict(const struct client *cl)
{
	unsigned i;

	if (cl->lost)
		return ECHO_EXIT_CONNECT;
	for (i = 1; i < CS_COUNT_; i++)
		if (cl->status[i])
			return ECHO_EXIT_FAILED;
	if (cl->o->backward && !live_interrupted() &&
	    (cl->bw_received != cl->o->backward || cl->bw_identical != cl->bw_received ||
	     !cl->have_r0 || !cl->have_r1 || cl->r1 - cl->r0 != cl->o->backward))
		return ECHO_EXIT_FAILED;
	return ECHO_EXIT_OK;
}

int echo_client_run(const struct echo_opts *o, struct xprt_loop *l, FILE *out)
{
	struct client *cl = calloc(1, sizeof(*cl));
	struct xprt_handlers h = { .on_call = on_call, .on_disconnect = on_disconnect };
	struct xprt_error err = { 0 };
	int rc;

	if (cl) {
		cl->o = o;
		cl->l = l;
		cl->out = out;
	}
	if (!cl || !alloc_slots(cl)) {
		fputs(PROG ": out of memory\n", stderr);
		rc = ECHO_EXIT_INTERNAL;
		goto out;
	}
	cl->echo_total = (uint64_t)o->count * o->nsizes * o->nchunks;
	ob_init(&cl->ob, out);
	json_init(&cl->j, &cl->ob);
	snprintf(cl->peer, sizeof(cl->peer), "%s:%s", o->x.host,
		 o->x.port ? o->x.port : XPRT_DEFAULT_PORT);
	h.arg = cl;
	cl->x = xprt_connect_opts(l, &o->x, &h, &err);
	if (!cl->x) {
		echo_print_xprt_error(NULL, &err);
		rc = echo_exit_for(err.code);
		goto out;
	}
	live_signals_begin(l);
	out_start(cl);
	cl->t_begin = live_now_ns();
	if (!start_call(cl, ECHO_PROC_NULL, 0, 0, XPRT_CHUNK_AUTO))
		finish(cl);
	else if (o->x.misbehave == XPRT_MISBEHAVE_NO_FIRST_WAIT)
		advance(cl);   /* test only: the ECHO calls go before the NULL's reply */
	rc = run(cl);
	cl->t_end = live_now_ns();
	if (!rc)
		rc = verdict(cl);
	if (cl->x)
		snapshot(cl);
	out_summary(cl, rc, live_interrupted());
	cl->closing = true;
	if (cl->x) {
		xprt_close(cl->x);
		live_run_until(l, closed, cl, live_now_ns() + 2000000000u);
	}
	live_signals_end();
out:
	if (cl)
		free_slots(cl);
	free(cl);
	return rc;
}

int echo_client_main(const struct echo_opts *o)
{
	struct xprt_error err = { 0 };
	struct xprt_loop *l = xprt_loop_create(&o->x, &err);
	int rc;

	if (!l) {
		echo_print_xprt_error(NULL, &err);
		return echo_exit_for(err.code);
	}
	rc = echo_client_run(o, l, stdout);
	xprt_loop_destroy(l);
	return rc;
}
