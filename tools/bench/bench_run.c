/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench_run.c - rpcrdma-bench's passes over the transport (xprt.h): one
 * connection, a NULL call first (version negotiation, V2 §5; the first
 * credit grant, V1 §4.3.1), then per size a latency pass (one call at a
 * time) and a throughput pass (up to the credit grant outstanding), each
 * call's round trip, path and registration cost taken from struct
 * xprt_call.  The calls are ECHO (echo_ulb.h) or NULL of any program.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <rpcrdma/rpc.h>
#include "bench.h"
#include "cliopt.h"
#include "echo_ulb.h"
#include "live.h"
#include "xprt.h"

#define RPC_HDR_MAX 128u               /* call header, length word, pad */
#define NULL_REPLY_MAX 1024u           /* a NULL reply: header and verifier<400> */
#define PROGRESS_NS 250000000ull       /* progress line at most 4 times a second */

struct bench_ctx;

/* A call in flight.  Two xprt_call structs per slot, used in turn: the
 * next call is issued from the done callback of the previous one, on the
 * other struct, so that the transport never sees a struct reused while it
 * may still hold it. */
struct slot {
	struct xprt_call c[2];
	unsigned cur;
	struct bench_ctx *ctx;
	uint8_t *msg;
	size_t msg_cap, msg_len, ddp_off, ddp_len;
	uint64_t seq, t0;
	bool busy;
};

struct bench_ctx {
	const struct bench_opts *o;
	struct bench_result *res;
	struct xprt_loop *l;
	struct xprt *x;
	struct slot *slots;
	unsigned nslots;
	uint8_t *pattern;              /* ECHO data of the current size */
	/* the pass */
	const char *what;
	uint32_t size;
	unsigned depth;
	uint64_t target, issued, completed, deadline, t_begin, t_progress;
	bool stop_issuing, failed, progress_shown;
	bool closing;                  /* the loop is being destroyed */
	struct bench_sample *s;
	size_t cap;
	bool record;
};

static void progress(struct bench_ctx *b, bool force)
{
	uint64_t t = live_now_ns();

	if (!b->o->progress || (!force && t - b->t_progress < PROGRESS_NS))
		return;
	b->t_progress = t;
	if (b->deadline)
		fprintf(stderr, "\r" BENCH_PROG ": %s %u B: %llu calls, %.1f of %.0f s\033[K",
			b->what, b->size, (unsigned long long)b->completed,
			(double)(t - b->t_begin) / 1e9, b->o->duration);
	else
		fprintf(stderr, "\r" BENCH_PROG ": %s %u B: %llu/%llu calls, %.1f s\033[K",
			b->what, b->size, (unsigned long long)b->completed,
			(unsigned long long)b->target, (double)(t - b->t_begin) / 1e9);
	b->progress_shown = true;
}

static void progress_clear(struct bench_ctx *b)
{
	if (b->progress_shown)
		fputs("\r\033[K", stderr);
	b->progress_shown = false;
}

static void fail(struct bench_ctx *b, const char *why)
{
	if (b->failed || b->closing)
		return;
	b->failed = true;
	b->stop_issuing = true;
	progress_clear(b);
	if (b->size || !b->o->null_proc)
		fprintf(stderr, BENCH_PROG ": %s %u B: %s\n", b->what, b->size, why);
	else
		fprintf(stderr, BENCH_PROG ": %s: %s\n", b->what, why);
	xprt_loop_stop(b->l);
}

/* the call message of the pass in a slot's buffer */
static int slot_prepare(struct bench_ctx *b, struct slot *sl)
{
	size_t need = (size_t)b->size + RPC_HDR_MAX;

	if (sl->msg_cap < need) {
		uint8_t *m = realloc(sl->msg, need);

		if (!m)
			return -1;
		sl->msg = m;
		sl->msg_cap = need;
	}
	if (b->o->null_proc) {
		sl->msg_len = rpc_encode_call(sl->msg, sl->msg_cap, 0, b->o->prog,
					      b->o->vers, 0);
		sl->ddp_off = sl->ddp_len = 0;
	} else {
		sl->msg_len = echo_encode_call(sl->msg, sl->msg_cap, ECHO_PROC_ECHO, 0,
					       b->pattern, b->size, &sl->ddp_off,
					       &sl->ddp_len);
	}
	return sl->msg_len ? 0 : -1;
}

static void call_done(struct xprt_call *c);

static int issue(struct slot *sl)
{
	struct bench_ctx *b = sl->ctx;
	struct xprt_call *c;
	uint64_t t = live_now_ns();

	if (b->stop_issuing || b->issued >= b->target || live_interrupted())
		return 0;
	if (b->deadline && t >= b->deadline) {
		b->stop_issuing = true;
		return 0;
	}
	if (b->record && b->issued >= b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 4096;
		struct bench_sample *s = realloc(b->s, cap * sizeof(*s));

		if (!s) {
			fail(b, "out of memory for the samples");
			return -1;
		}
		b->s = s;
		b->cap = cap;
	}
	sl->cur ^= 1;
	c = &sl->c[sl->cur];
	memset(c, 0, sizeof(*c));
	c->msg = sl->msg;
	c->len = sl->msg_len;
	c->ddp_off = sl->ddp_off;
	c->ddp_len = sl->ddp_len;
	c->reply_max = b->o->null_proc ? NULL_REPLY_MAX :
		       echo_reply_max(ECHO_PROC_ECHO, b->size);
	c->reply_ddp_max = b->o->null_proc ? 0 : echo_reply_ddp_max(ECHO_PROC_ECHO, b->size);
	c->reply_ddp_pos = b->o->null_proc ? NULL : echo_reply_ddp_pos;
	c->chunk = (enum xprt_chunk_mode)b->o->chunk;
	c->timeout_ms = b->o->timeout_ms;
	c->done = call_done;
	c->ctx = sl;
	sl->seq = b->issued++;
	sl->busy = true;
	sl->t0 = t;
	if (xprt_call(b->x, c) != 0) {
		sl->busy = false;
		fail(b, live_error_text(&c->err));
		return -1;
	}
	return 0;
}

/* the reply is the one asked for: a successful reply, ECHO data back
 * whole (its length, and its first and last bytes: every byte is
 * rpcrdma-echo's job) */
static const char *check_reply(struct bench_ctx *b, const struct xprt_call *c,
			       uint32_t *data_len)
{
	struct rpc_msg_hdr h;
	const uint8_t *data;
	size_t k;

	*data_len = 0;
	if (c->rdma_error)
		return "the server answered RDMA_ERROR";
	if (!c->reply)
		return "no reply message";
	if (b->o->null_proc) {
		if (rpc_decode_header(c->reply, c->reply_len, &h) != RPC_OK ||
		    h.msg_type != RPC_REPLY)
			return "the reply is not an RPC reply";
		if (h.reply_stat != RPC_MSG_ACCEPTED)
			return "the call was denied (MSG_DENIED)";
		if (h.accept_stat != RPC_SUCCESS)
			return rpc_accept_stat_name(h.accept_stat);
		return NULL;
	}
	if (echo_decode_reply(c->reply, c->reply_len, ECHO_PROC_ECHO, &h, &data,
			      data_len, NULL) != 0)
		return "the reply is not a successful ECHO reply";
	if (*data_len != b->size)
		return "ECHO returned another length";
	k = b->size < 64 ? b->size : 64;
	if (k && (memcmp(data, b->pattern, k) != 0 ||
		  memcmp(data + b->size - k, b->pattern + b->size - k, k) != 0))
		return "ECHO returned other bytes";
	return NULL;
}

static void call_done(struct xprt_call *c)
{
	struct slot *sl = c->ctx;
	struct bench_ctx *b = sl->ctx;
	uint64_t t = live_now_ns();
	struct bench_counts *n = &b->res->counts;
	uint32_t got;
	const char *why;

	sl->busy = false;
	if (b->closing)
		return;            /* completed by the teardown */
	b->completed++;
	n->bench_calls++;
	if (c->err.code != XPRT_E_OK) {
		fail(b, live_error_text(&c->err));
		return;
	}
	why = check_reply(b, c, &got);
	if (why) {
		fail(b, why);
		return;
	}
	if (!b->o->null_proc) {
		n->data_bytes_sent += b->size;
		n->data_bytes_received += got;
	}
	if (b->record) {
		struct bench_sample *s = &b->s[sl->seq];

		s->t_start = c->t_start ? c->t_start : sl->t0;
		s->t_done = c->t_done >= s->t_start && c->t_done ? c->t_done : t;
		s->t_sent = c->t_sent;
		s->t_reg = c->t_reg_ns;
		s->t_inv = c->t_inv_ns;
		s->call_path = (uint8_t)c->call_path;
		s->reply_path = (uint8_t)c->reply_path;
	}
	progress(b, false);
	if (issue(sl) != 0)
		return;
	if (b->completed == b->issued && (b->stop_issuing || b->issued >= b->target ||
					  live_interrupted()))
		xprt_loop_stop(b->l);
}

/* One pass: `target` calls (or -D seconds), `depth` in flight.  Samples in
 * b->s[0 .. b->completed) when record. */
static int pass(struct bench_ctx *b, const char *what, unsigned depth,
		uint64_t target, bool record, bool timed)
{
	unsigned i;

	b->what = what;
	b->depth = depth;
	b->target = target;
	b->issued = b->completed = 0;
	b->stop_issuing = b->failed = false;
	b->record = record;
	b->t_begin = b->t_progress = live_now_ns();
	b->deadline = timed && b->o->duration > 0 ?
		      b->t_begin + (uint64_t)(b->o->duration * 1e9) : 0;
	for (i = 0; i < depth; i++)
		if (slot_prepare(b, &b->slots[i]) != 0) {
			fail(b, "cannot build the call (out of memory)");
			return -1;
		}
	for (i = 0; i < depth && !b->failed; i++)
		issue(&b->slots[i]);
	while (b->completed < b->issued && !b->failed) {
		if (xprt_loop_run(b->l, 200) < 0) {
			fail(b, "the event loop failed");
			break;
		}
		if (live_interrupted())
			b->stop_issuing = true;
		if (b->deadline && live_now_ns() >= b->deadline)
			b->stop_issuing = true;
		progress(b, false);
		if (live_interrupted() && b->completed < b->issued &&
		    live_now_ns() - b->t_progress > 2000000000ull)
			break;   /* a second ^C is not needed: give up after 2 s */
	}
	progress_clear(b);
	return b->failed || b->completed < b->issued ? -1 : 0;
}

static void fill_pattern(uint8_t *p, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)(i * 7u + (i >> 8) + 0x5a);
}

static void header(const struct bench_ctx *b, const char *test)
{
	if (b->o->out)
		bench_print_header(b->o->out, &b->res->info, test);
}

static void info_from_peer(struct bench_ctx *b, unsigned depth)
{
	const struct xprt_peer_info *pi = xprt_peer(b->x);
	struct bench_info *in = &b->res->info;

	snprintf(in->server, sizeof(in->server), "%s", pi->addr);
	snprintf(in->device, sizeof(in->device), "%s", pi->device);
	in->rdma_vers = pi->vers;
	in->credits = pi->credits_granted;
	in->inline_send = pi->inline_send;
	in->inline_recv = pi->inline_recv;
	in->outstanding = depth;
}

/* the latency passes, then the throughput passes, rows printed as measured */
static int measure(struct bench_ctx *b, unsigned depth)
{
	const struct bench_opts *o = b->o;
	struct bench_result *res = b->res;
	uint64_t target = o->duration > 0 ? UINT64_MAX : o->iters;
	uint64_t *rtt;
	size_t i, k;
	int round;

	for (round = 0; round < 2; round++) {
		bool lat = round == 0;

		if (live_interrupted())
			break;
		if (lat ? !o->lat : !o->bw)
			continue;
		b->res->info.outstanding = lat ? 1 : depth;
		header(b, lat ? "Latency" : "Throughput");
		if (o->out) {
			if (lat)
				bench_print_lat_head(o->out);
			else
				bench_print_bw_head(o->out, o->gbits);
		}
		for (i = 0; i < o->nsizes && !live_interrupted(); i++) {
			struct bench_row *r = &res->rows[i];
			unsigned d = lat ? 1 : bench_depth_for(depth, o->sizes[i]);

			b->size = o->sizes[i];
			fill_pattern(b->pattern, b->size);
			if (o->chunk == XPRT_CHUNK_INLINE && !o->null_proc && lat &&
			    res->info.inline_send &&
			    (size_t)b->size + RPC_HDR_MAX > res->info.inline_send)
				fprintf(stderr, BENCH_PROG ": --chunk inline: an ECHO of %u bytes "
					"may be over the server's inline receive size (%u bytes); "
					"the server may drop the connection\n", b->size,
					res->info.inline_send);
			if (pass(b, "warm-up", 1, 1, false, false) != 0)
				return live_interrupted() ? 0 : -1;
			if (pass(b, lat ? "latency" : "throughput", d, target, true, true) != 0 &&
			    !live_interrupted())
				return -1;
			if (live_interrupted() && (b->failed || !b->completed ||
					    b->completed < b->issued))
				break;
			r->bytes = b->size;
			res->nrows = i + 1 > res->nrows ? i + 1 : res->nrows;
			if (!r->has_where || lat) {
				bench_where_stats(b->s, b->completed, &r->where);
				r->has_where = b->completed > 0;
			}
			if (lat) {
				rtt = malloc((b->completed + 1) * sizeof(*rtt));
				if (!rtt) {
					fprintf(stderr, BENCH_PROG ": out of memory\n");
					return -1;
				}
				for (k = 0; k < b->completed; k++)
					rtt[k] = b->s[k].t_done - b->s[k].t_start;
				bench_lat_stats(rtt, b->completed, &r->lat);
				free(rtt);
				r->lat_iters = b->completed;
				r->has_lat = true;
				if (o->out)
					bench_print_lat_row(o->out, r);
			} else {
				bench_bw_stats(b->s, b->completed,
					       (uint64_t)b->size * (o->null_proc ? 1 : 2),
					       d, &r->bw);
				r->bw_iters = b->completed;
				r->outstanding = d;
				r->has_bw = true;
				if (o->out)
					bench_print_bw_row(o->out, r, o->gbits);
				if (o->out && d < depth)
					fprintf(o->out, " (%u B: %u outstanding, to keep call "
						"buffers within %u MiB)\n", b->size, d,
						BENCH_MAX_INFLIGHT_BYTES >> 20);
			}
			if (o->out)
				fflush(o->out);
		}
		if (o->out)
			fputs(BENCH_RESULT_LINE, o->out);
		if (!lat && o->out && !o->null_proc)
			fputs(" BW counts the ECHO data both ways: each call carries #bytes out "
			      "and back\n (as perftest's -b counts a bidirectional run).\n", o->out);
	}
	return 0;
}

static void get_counts(struct bench_ctx *b)
{
	xprt_get_stats(b->x, &b->res->counts.xs);
}

static void on_disconnect(struct xprt *x, enum xprt_disc_reason why, void *arg)
{
	struct bench_ctx *b = arg;

	(void)x;
	if (why != XPRT_DISC_LOCAL) {
		b->x = NULL;
		fail(b, why == XPRT_DISC_PEER ? "the server closed the connection"
						   : "the connection failed");
	}
}

int bench_run(const struct bench_opts *o, struct bench_result *res)
{
	struct bench_ctx b = { .o = o, .res = res };
	struct xprt_handlers h = { .on_disconnect = on_disconnect, .arg = &b };
	struct xprt_opts xo = {
		.host = o->host, .port = o->port, .versions = o->versions,
		.credits = o->credits, .inline_recv = o->inline_size,
		.inline_send = o->inline_size, .busy_poll = o->busy_poll,
		.timeout_ms = o->connect_timeout_ms ? o->connect_timeout_ms : o->timeout_ms,
		.verbs = o->verbs,
	};
	struct xprt_error err = { 0 };
	uint32_t maxsize = 0;
	unsigned depth, i;
	int rc = 1;

	for (i = 0; i < o->nsizes; i++)
		if (o->sizes[i] > maxsize)
			maxsize = o->sizes[i];
	xo.max_message = maxsize + 2 * RPC_HDR_MAX;
	if (xo.max_message < 4096)
		xo.max_message = 4096;
	b.pattern = malloc((size_t)maxsize + 1);
	depth = o->depth ? o->depth : 1;
	b.nslots = o->depth ? o->depth : 1024;     /* grown to the grant below */
	b.slots = calloc(b.nslots, sizeof(*b.slots));
	if (!b.pattern || !b.slots) {
		fprintf(stderr, BENCH_PROG ": out of memory\n");
		goto out;
	}
	for (i = 0; i < b.nslots; i++)
		b.slots[i].ctx = &b;
	b.l = xprt_loop_create(&xo, &err);
	if (!b.l) {
		fprintf(stderr, BENCH_PROG ": %s\n", err.msg);
		if (err.code == XPRT_E_NODEV)
			rc = CLI_EXIT_NODEV;
		goto out;
	}
	if (o->on_loop && o->on_loop(b.l, o->on_loop_arg) != 0) {
		fprintf(stderr, BENCH_PROG ": the test's server did not start\n");
		goto out;
	}
	b.x = xprt_connect(b.l, &h, &err);
	if (!b.x) {
		fprintf(stderr, BENCH_PROG ": %s\n", err.msg);
		goto out;
	}
	live_signals_begin(b.l);
	/* NULL first: the version is negotiated and credits granted with it */
	{
		struct bench_opts no = *o;

		no.null_proc = true;
		no.chunk = XPRT_CHUNK_AUTO;
		b.o = &no;
		b.size = 0;
		rc = pass(&b, "first NULL call", 1, 1, false, false) ? 1 : 0;
		b.o = o;
	}
	if (rc != 0)
		goto restore;
	info_from_peer(&b, depth);
	res->info.duration = o->duration;
	if (!o->depth) {
		depth = res->info.credits ? res->info.credits : 1;
	} else if (res->info.credits && o->depth > res->info.credits) {
		fprintf(stderr, BENCH_PROG ": -t %u: the server granted %u credits; "
			"%u outstanding\n", o->depth, res->info.credits, res->info.credits);
		depth = res->info.credits;
	}
	if (depth > b.nslots)
		depth = b.nslots;
	rc = measure(&b, depth) ? 1 : 0;
restore:
	res->interrupted = live_interrupted();
	if (b.x)
		get_counts(&b);
	live_signals_end();
out:
	b.closing = true;
	if (b.l)
		xprt_loop_destroy(b.l);   /* closes the connection: calls still
					   * out complete before the slots go */
	if (b.slots)
		for (i = 0; i < b.nslots; i++)
			free(b.slots[i].msg);
	free(b.slots);
	free(b.pattern);
	free(b.s);
	if (rc == 0 && res->interrupted)
		fprintf(stderr, BENCH_PROG ": interrupted\n");
	return rc;
}
