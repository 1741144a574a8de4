/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * echo_raw.c - a misbehaving client for the echo server's robustness test
 * (tests/live/cases/echo.sh; issue 8 item 5), over a real connection with
 * the transport's raw send (xprt_send_raw):
 *
 *   echo-raw --vectors FILE [--timeout MS] [-p PORT] HOST
 *       sends every message of tests/vectors/vectors.txt whose verdict is
 *       not "accept", each followed by a NULL call as a probe; checks that
 *       before the probe's reply exactly the answer the verdict asks for
 *       came (RDMA_ERROR with its rdma_err, the xid and version echoed:
 *       V1 §5.5, docs/verdicts.md), or nothing for "discard".
 *   echo-raw --flood N [--credits C] [--timeout MS] [-p PORT] HOST
 *       sends N NULL calls back to back, ignoring the credits granted
 *       (V1 §4.3.1), and counts the replies that come within the timeout
 *       (once some came, until none came for a sixth of it).
 *   echo-raw --churn N --at-once M [--first-timeout MS] [--credits C]
 *            [--timeout MS] [-p PORT] HOST
 *       opens N connections in all, M at a time: M connect, then a NULL
 *       call on each, all outstanding at once, then all M closed; prints
 *       how many were served and the first error (the server soak of
 *       issue 22 item 4: cases/soak.sh).  A first call unanswered after
 *       --first-timeout (soft-iWARP can leave a new connection's first
 *       Send in the socket until more data comes) is given up with its
 *       connection and made again on a new one (up to twice), as an RPC client
 *       retransmits after a reconnect (V1 4.3: no second call may go on
 *       the first connection before a reply); counted and printed.
 *
 * --vectors and --flood begin with a NULL call; left unanswered, it is made
 * once more on a new connection, printed ("first NULL call unanswered").
 *
 * Exit status: 0 as expected, 1 a vector answered wrongly (or the probe
 * failed), 2 usage, 3 no connection.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "echo_ulb.h"
#include "vectors.h"
#include "xprt.h"

#define PROG "echo-raw"

struct raw {
	struct xprt_loop *l;
	struct xprt *x;
	uint32_t probe_xid;
	bool probe_done, probe_ok, probe_timeout, lost;
	/* messages received since the last raw send, other than the probe's reply */
	unsigned nother;
	struct rpcrdma_msg other;      /* the first of them (buf points below) */
	uint8_t other_buf[256];
	uint64_t replies;              /* flood: replies seen */
	int timeout_ms;                /* a probe's */
	struct xprt_call pc;           /* the probe (lives as long as r: the
					* transport may complete it at close) */
	uint8_t pmsg[64];
};

static void on_recv(struct xprt *x, const uint8_t *buf, size_t len,
		    const struct rpcrdma_msg *m, void *arg)
{
	struct raw *r = arg;
	size_t n = len < sizeof(r->other_buf) ? len : sizeof(r->other_buf);

	(void)x;
	if (len >= 4 && m->rdma_xid == r->probe_xid && m->rdma_proc != RDMA_ERROR)
		return;
	r->replies++;
	if (r->nother++ == 0) {
		memcpy(r->other_buf, buf, n);
		rpcrdma_decode(r->other_buf, n, &r->other);
		r->other.buf = r->other_buf;      /* whatever the verdict */
		r->other.len = n;
	}
}

static void on_disconnect(struct xprt *x, enum xprt_disc_reason why, void *arg)
{
	struct raw *r = arg;

	(void)why;
	if (r->x != x)      /* a connection given up (see main): its late word */
		return;
	r->lost = true;
	r->x = NULL;
	xprt_loop_stop(r->l);
}

static void probe_done(struct xprt_call *c)
{
	struct raw *r = c->ctx;

	r->probe_done = true;
	r->probe_timeout = c->err.code == XPRT_E_TIMEOUT;
	r->probe_ok = c->err.code == XPRT_E_OK && !c->rdma_error &&
		      echo_decode_reply(c->reply, c->reply_len, ECHO_PROC_NULL, NULL,
					NULL, NULL, NULL) == 0;
	xprt_loop_stop(r->l);
}

/* A NULL call; everything received before its reply was the vector's */
static bool probe(struct raw *r)
{
	if (!r->x)
		return false;
	memset(&r->pc, 0, sizeof(r->pc));
	r->pc.msg = r->pmsg;
	r->pc.len = echo_encode_call(r->pmsg, sizeof(r->pmsg), ECHO_PROC_NULL, 0,
				     NULL, 0, NULL, NULL);
	r->pc.reply_max = echo_reply_max(ECHO_PROC_NULL, 0);
	r->pc.timeout_ms = r->timeout_ms;
	r->pc.done = probe_done;
	r->pc.ctx = r;
	r->probe_done = false;
	r->probe_timeout = false;
	if (xprt_call(r->x, &r->pc))
		return false;
	r->probe_xid = r->pc.xid;
	while (!r->probe_done && !r->lost)
		if (xprt_loop_run(r->l, 1000) < 0)
			return false;
	return r->probe_done && r->probe_ok;
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* The answer a vector's verdict asks for, or why not.  Read from the
 * bytes: an ERR_VERS answer carries the vector's unsupported version,
 * which libcodec would not decode (D-ERR-3). */
static const char *judge(const struct raw *r, const struct vector *v,
			 const char *action)
{
	static char why[160];
	const struct rpcrdma_msg *m = &r->other;
	uint32_t want;

	if (!strcmp(action, "discard"))
		return r->nother ? "answered, but the verdict is discard" : NULL;
	if (r->nother != 1) {
		snprintf(why, sizeof(why), "%u answers, not 1", r->nother);
		return why;
	}
	want = !strcmp(action, "reply_err_vers") ? RDMA_ERR_VERS :
	       !strcmp(action, "reply_bad_header") ? RDMA_ERR_BADHEADER :
	       RDMA2_ERR_INVAL_OPTION;
	if (m->len < 20 || be32(m->buf + 12) != RDMA_ERROR) {
		snprintf(why, sizeof(why), "the answer is not an RDMA_ERROR (%zu bytes)",
			 m->len);
		return why;
	}
	if (be32(m->buf + 16) != want) {
		snprintf(why, sizeof(why), "rdma_err %u, not %u", be32(m->buf + 16), want);
		return why;
	}
	if (want == RDMA_ERR_VERS && (m->len < 28 || be32(m->buf + 20) != 1 ||
				      be32(m->buf + 24) != 2))
		return "ERR_VERS without the range 1..2";
	if (v->len >= 4 && be32(m->buf) != be32(v->bytes))
		return "the xid is not echoed";
	if (v->len >= 8 && be32(m->buf + 4) != be32(v->bytes + 4))
		return "the version is not echoed (D-ERR-1)";
	return NULL;
}

static int run_vectors(struct raw *r, const char *file)
{
	FILE *f = fopen(file, "r");
	struct vector *v = malloc(sizeof(*v));
	unsigned lineno = 0, sent = 0, answered = 0, discarded = 0, wrong = 0;
	struct xprt_error err;
	int rc = 0;

	if (!f || !v) {
		fprintf(stderr, PROG ": %s: cannot read\n", file);
		free(v);
		if (f)
			fclose(f);
		return 2;
	}
	while (vec_next(f, &lineno, v) == 1) {
		const char *action = vec_get(v, "action"), *why;

		if (v->error[0] || !action || !strcmp(action, "accept"))
			continue;
		r->nother = 0;
		if (!r->x || xprt_send_raw(r->x, v->bytes, v->len, &err)) {
			fprintf(stderr, PROG ": [%s]: cannot send: %s\n", v->name,
				r->x ? err.msg : "the connection is gone");
			rc = 1;
			break;
		}
		sent++;
		if (!probe(r)) {
			printf("[%s] %s: the NULL probe after it failed%s\n", v->name,
			       action, r->lost ? " (connection lost)" : "");
			rc = 1;
			break;
		}
		why = judge(r, v, action);
		if (why) {
			printf("[%s] %s: %s\n", v->name, action, why);
			wrong++;
		} else if (!strcmp(action, "discard")) {
			discarded++;
		} else {
			answered++;
		}
	}
	printf("%u malformed vectors sent: %u answered as the verdict says, %u "
	       "discarded as it says, %u wrong\n", sent, answered, discarded, wrong);
	fclose(f);
	free(v);
	return rc ? rc : wrong ? 1 : sent ? 0 : 1;
}

static int run_flood(struct raw *r, unsigned n, uint32_t credits)
{
	uint8_t msg[128];
	struct rpcrdma_hdr h = {
		.rdma_vers = RPCRDMA_VERSION_ONE, .rdma_credit = credits,
		.rdma_proc = RDMA_MSG,
	};
	struct xprt_error err;
	unsigned i, sent = 0, waited, tries, quiet, quiet_max;
	uint64_t seen;
	size_t hl, cl;

	for (i = 0; i < n && r->x; i++) {
		h.rdma_xid = 0xf10d0000u + i;
		hl = rpcrdma_encode(&h, msg, sizeof(msg), NULL);
		cl = echo_encode_call(msg + hl, sizeof(msg) - hl, ECHO_PROC_NULL, 0, NULL,
				      0, NULL, NULL);
		memcpy(msg + hl, msg, 4);        /* the RPC xid is the header's */
		if (!hl || !cl)
			break;
		/* the Send queue may be full: let completions in, then retry
		 * (the receiver's credits are not waited for) */
		for (tries = 0; tries < 100 && r->x &&
		     xprt_send_raw(r->x, msg, hl + cl, &err); tries++)
			xprt_loop_run(r->l, 1);
		if (tries == 100 || !r->x)
			break;
		sent++;
	}
	/* wait for the replies up to --timeout, but once some came, no longer
	 * than a sixth of it (5 s at least) after the last: a server that
	 * drops the calls beyond its credits never answers them, and waiting
	 * out the whole timeout for those cost make check five minutes
	 * (6.12 over rxe, 11-28: 60 sent, 40 answered, echo.sh 405 s) */
	quiet_max = (unsigned)r->timeout_ms / 600;
	if (quiet_max < 50)
		quiet_max = 50;
	for (waited = 0, quiet = 0, seen = r->replies;
	     waited < (unsigned)r->timeout_ms / 100 && r->replies < sent && !r->lost &&
	     (r->replies == 0 || quiet < quiet_max); waited++) {
		xprt_loop_run(r->l, 100);
		if (r->replies != seen) {
			seen = r->replies;
			quiet = 0;
		} else {
			quiet++;
		}
	}
	printf("%u of %u calls sent back to back (no Send queue room after %u) with %u "
	       "credits granted: %llu replies, connection %s", sent, n, sent, credits,
	       (unsigned long long)r->replies, r->lost ? "lost" : "kept");
	if (r->replies && r->replies < sent && !r->lost && quiet >= quiet_max)
		printf(" (the other %llu not waited for: no reply in %u s)",
		       (unsigned long long)(sent - r->replies), quiet_max / 10);
	printf("\n");
	return 0;
}

/* --churn: a first call left unanswered is made again on a new connection
 * up to this many times */
#define CHURN_AGAIN 2

/* --churn: one connection of a batch */
struct churn_conn {
	struct xprt *x;
	struct xprt_call c;
	uint8_t msg[64];
	bool done, ok;
	unsigned *pending;
	struct xprt_loop *l;
};

static void churn_done(struct xprt_call *c)
{
	struct churn_conn *k = c->ctx;

	k->done = true;
	k->ok = c->err.code == XPRT_E_OK && !c->rdma_error &&
		echo_decode_reply(c->reply, c->reply_len, ECHO_PROC_NULL, NULL,
				  NULL, NULL, NULL) == 0;
	if (--*k->pending == 0)
		xprt_loop_stop(k->l);
}

static void churn_disc(struct xprt *x, enum xprt_disc_reason why, void *arg)
{
	struct churn_conn *k = arg;

	(void)why;
	if (k->x == x)      /* not a closed one's late word on a reused slot */
		k->x = NULL;
}

/* connect k and put a NULL call on it (timeout ms); false: no connection */
static bool churn_start(struct xprt_loop *l, const struct xprt_opts *o,
			struct churn_conn *k, unsigned *pending, int ms,
			struct xprt_error *err)
{
	struct xprt_handlers h = { .on_disconnect = churn_disc, .arg = k };

	memset(k, 0, sizeof(*k));
	k->l = l;
	k->pending = pending;
	*err = (struct xprt_error){ 0 };
	k->x = xprt_connect(l, &h, err);
	if (!k->x)
		return false;
	k->c.msg = k->msg;
	k->c.len = echo_encode_call(k->msg, sizeof(k->msg), ECHO_PROC_NULL, 0,
				    NULL, 0, NULL, NULL);
	k->c.reply_max = echo_reply_max(ECHO_PROC_NULL, 0);
	k->c.timeout_ms = ms;
	k->c.done = churn_done;
	k->c.ctx = k;
	++*pending;
	if (xprt_call(k->x, &k->c)) {
		--*pending;
		k->done = true;
	}
	(void)o;
	return true;
}

static int run_churn(const struct xprt_opts *o, unsigned n, unsigned m,
		     int first_ms)
{
	struct xprt_error err = { 0 }, first = { 0 };
	struct xprt_loop *l = xprt_loop_create(o, &err);
	struct churn_conn *k = calloc(m, sizeof(*k));
	unsigned made = 0, served = 0, refused = 0, batches = 0, again = 0, i, r;

	if (!l || !k) {
		fprintf(stderr, PROG ": %s\n", l ? "out of memory" : err.msg);
		free(k);
		if (l)
			xprt_loop_destroy(l);
		return 3;
	}
	while (made < n) {
		unsigned b = n - made < m ? n - made : m, pending = 0;
		for (i = 0; i < b; i++)
			if (!churn_start(l, o, &k[i], &pending, first_ms, &err)) {
				refused++;
				if (!first.code)
					first = err;
			}
		while (pending)
			if (xprt_loop_run(l, 1000) < 0)
				break;
		/* unanswered first calls: again, each on a new connection, up
		 * to CHURN_AGAIN times (siw loses ~2 % of first Sends under
		 * load, so one retry alone leaves ~1 in 2,500 unserved) */
		for (r = 0; r < CHURN_AGAIN; r++) {
			unsigned redo = 0;
			for (i = 0; i < b; i++) {
				if (k[i].ok || !k[i].done ||
				    k[i].c.err.code != XPRT_E_TIMEOUT)
					continue;
				if (k[i].x)
					xprt_close(k[i].x);
				xprt_loop_run(l, 0);
				again++;
				redo++;
				if (!churn_start(l, o, &k[i], &pending, o->timeout_ms,
						 &err)) {
					refused++;
					if (!first.code)
						first = err;
				}
			}
			while (pending)
				if (xprt_loop_run(l, 1000) < 0)
					break;
			if (!redo)
				break;
		}
		for (i = 0; i < b; i++) {
			if (k[i].ok)
				served++;
			else if (!first.code)
				first = k[i].c.err.code ? k[i].c.err :
					(struct xprt_error){ XPRT_E_TIMEOUT, 0,
							     "a NULL call got no good reply" };
			if (k[i].x)
				xprt_close(k[i].x);
		}
		xprt_loop_run(l, 0);
		made += b;
		batches++;
	}
	printf("%u connections in %u batches of up to %u at once: %u served, "
	       "%u not connected; %u first calls unanswered after %d ms, made "
	       "again on a new connection%s%s\n", made, batches, m, served, refused,
	       again, first_ms, first.code ? "; first error: " : "",
	       first.code ? first.msg : "");
	free(k);
	xprt_loop_destroy(l);
	return served == made ? 0 : 1;
}

int main(int argc, char *argv[])
{
	struct raw r = { 0 };
	struct xprt_opts o = { .timeout_ms = 10000 };
	struct xprt_handlers h = { .on_recv = on_recv, .on_disconnect = on_disconnect,
				   .arg = &r };
	struct xprt_error err = { 0 };
	const char *vectors = NULL;
	unsigned flood = 0, churn = 0, at_once = 1;
	int first_ms = 0;
	int i, rc;
	bool ok;

	/* each result line out when printed, not at exit: a run that then
	 * hangs in its teardown (a QP destroyed in the kernel) still shows
	 * how far it came (docs/kernels.md 7.5: a flood over rxe on 7.2
	 * printed nothing, so whether it hung in the flood or after it was
	 * not known) */
	setvbuf(stdout, NULL, _IOLBF, 0);

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--vectors") && i + 1 < argc)
			vectors = argv[++i];
		else if (!strcmp(argv[i], "--flood") && i + 1 < argc)
			flood = (unsigned)strtoul(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--churn") && i + 1 < argc)
			churn = (unsigned)strtoul(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--at-once") && i + 1 < argc)
			at_once = (unsigned)strtoul(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--first-timeout") && i + 1 < argc)
			first_ms = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--credits") && i + 1 < argc)
			o.credits = (uint32_t)strtoul(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--timeout") && i + 1 < argc)
			o.timeout_ms = atoi(argv[++i]);
		else if (!strcmp(argv[i], "-p") && i + 1 < argc)
			o.port = argv[++i];
		else if (argv[i][0] != '-' && !o.host)
			o.host = argv[i];
		else
			break;
	}
	if (i < argc || !o.host || (!!vectors + !!flood + !!churn) != 1 ||
	    o.timeout_ms <= 0 || !at_once || at_once > 4096) {
		fputs("usage: " PROG " --vectors FILE | --flood N | --churn N --at-once M "
		      "[--first-timeout MS] [--credits C] [--timeout MS] [-p PORT] HOST\n",
		      stderr);
		return 2;
	}
	if (churn)
		return run_churn(&o, churn, at_once,
				 first_ms > 0 ? first_ms : o.timeout_ms);
	r.timeout_ms = o.timeout_ms;
	r.l = xprt_loop_create(&o, &err);
	if (r.l)
		r.x = xprt_connect(r.l, &h, &err);
	if (!r.x) {
		fprintf(stderr, PROG ": %s\n", err.msg);
		if (r.l)
			xprt_loop_destroy(r.l);
		return 3;
	}
	/* one call first: the version is settled and the grant known.  Left
	 * unanswered (soft-iWARP can leave a new connection's first Send in
	 * the socket), it is given up with its connection and made once more
	 * on a new one, as an RPC client retransmits after a reconnect (V1
	 * 4.3); counted and printed, as --churn does */
	ok = probe(&r);
	if (!ok && r.probe_done && r.probe_timeout && !r.lost) {
		xprt_close(r.x);
		xprt_loop_run(r.l, 0);
		r.x = xprt_connect(r.l, &h, &err);
		if (!r.x) {
			fprintf(stderr, PROG ": %s\n", err.msg);
			xprt_loop_destroy(r.l);
			return 3;
		}
		printf("first NULL call unanswered after %d ms: made again on a new "
		       "connection (1 retry)\n", r.timeout_ms);
		fflush(stdout);
		ok = probe(&r);
	}
	if (!ok) {
		fprintf(stderr, PROG ": the first NULL call failed\n");
		rc = 1;
	} else {
		rc = vectors ? run_vectors(&r, vectors) :
		     run_flood(&r, flood, o.credits ? o.credits : 32);
	}
	if (r.x)
		xprt_close(r.x);
	xprt_loop_destroy(r.l);
	return rc;
}
