/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ping_probe.c - --probe: what the peer speaks, item by item.
 *   connection: its RFC 8797 private data (or none) and the inline
 *     thresholds in force;
 *   versions: our Version Two call (V2 §5: refused with the version error
 *     and its range, accepted, or the connection dropped), Version One on
 *     a connection of its own when V2 was accepted, and a version it
 *     cannot know (3), which any peer must answer with the version error
 *     and its range (V1 §5.5.1);
 *   credits: the grant in the first reply, and in the replies to 16 calls
 *     sent at once (V1 §4.3.1);
 *   error replies: a truncated header, an unknown rdma_proc, RDMA_MSGP and
 *     RDMA_DONE (V1 §5.6), each beside libcodec's verdict on it, and an
 *     unknown RPC procedure (RFC 5531 PROC_UNAVAIL);
 *   backward direction (BIDI): the echo program's CALLBACK, NFSv4.1's
 *     back channel.
 */
#include <string.h>
#include "echo_ulb.h"
#include "ping_probe.h"
#include "rpcrdma/rpc.h"

#define LOAD_CALLS 16
#define UNKNOWN_RPC_PROC 0x7fffu
#define UNKNOWN_RDMA_PROC 7u
#define UNKNOWN_RDMA_VERS 3u
#define BACKWARD_WAIT_MS 2000

struct probe {
	const struct ping_opts *o;
	struct probe_report rep;
	struct ping_conn pc;           /* the connection the probes use */
	struct ping_target t;
	char addr[64], device[32];
	uint32_t vers;                 /* in use on pc */
	bool answered;                 /* a NULL call was answered */
	struct ping_raw first;         /* the first reply's header */
	bool have_first;
};

static void item_init(struct probe_item *it, const char *section,
		      const char *key, const char *label)
{
	memset(it, 0, sizeof(*it));
	it->section = section;
	it->key = key;
	it->label = label;
}

/* -------- connection -------- */

static void report_connection(struct probe *p)
{
	const struct xprt_peer_info *pi = ping_conn_peer(&p->pc);
	struct probe_item it;

	item_init(&it, "connection", "private_data", "private data");
	if (pi->has_private_data) {
		it.result = "RFC 8797";
		item_num(&it, "version", pi->priv.pd_version);
		item_num(&it, "flags", pi->priv.pd_flags);
		item_num(&it, "receive", pi->priv.max_recv_size);
		item_num(&it, "send", pi->priv.max_send_size);
		item_text(&it, "version %u, receives %u, sends %u, remote "
			  "invalidation %s", pi->priv.pd_version,
			  pi->priv.max_recv_size, pi->priv.max_send_size,
			  pi->priv.pd_flags & RPCRDMA_CM_FLAG_REMOTE_INVALIDATE ?
			  "accepted" : "not accepted");
	} else {
		it.result = "none";
		item_text(&it, "the peer sent no RFC 8797 private data: the "
			  "version defaults apply");
	}
	report_item(&p->rep, &it);
	item_init(&it, "connection", "inline", "inline thresholds");
	it.result = "in force";
	item_num(&it, "send", pi->inline_send);
	item_num(&it, "receive", pi->inline_recv);
	item_text(&it, "we send up to %u bytes inline, receive up to %u",
		  pi->inline_send, pi->inline_recv);
	report_item(&p->rep, &it);
}

/* -------- versions -------- */

/* A NULL call on pc, waited for; the reply header kept in *hdr */
static bool null_call(struct ping_conn *pc, struct xprt_call *c, uint8_t *buf,
		      size_t cap)
{
	ping_conn_null(pc, c, buf, cap, 0);
	if (ping_conn_call(pc, c) < 0)
		return false;
	return c->err.code == XPRT_E_OK;
}

static void reply_item(struct probe_item *it, const struct xprt_call *c,
		       struct ping_raw *keep)
{
	it->has_xid = true;
	it->xid = c->xid;
	ping_raw_from_msg(keep, &c->hdr, c->rhdr_len);
	it->reply = keep;
}

static void report_v2(struct probe *p, const struct xprt_call *c, bool ok,
		      bool dropped)
{
	const struct xprt_peer_info *pi = ping_conn_peer(&p->pc);
	static struct ping_raw keep;
	const struct ping_raw *e = NULL;
	struct probe_item it;
	unsigned i;

	for (i = 0; i < p->pc.nraw; i++)
		if (p->pc.raw[i].proc == RDMA_ERROR && p->pc.raw[i].has_err &&
		    p->pc.raw[i].err == RDMA_ERR_VERS) {
			e = &p->pc.raw[i];
			break;
		}
	item_init(&it, "versions", "v2", "Version Two");
	if (dropped) {
		it.result = "connection dropped";
		item_text(&it, "the peer closed the connection on our Version Two "
			  "call instead of answering with the version error");
	} else if (ok && pi->vers == RPCRDMA_VERSION_TWO) {
		it.result = "accepted";
		reply_item(&it, c, &keep);
		item_text(&it, "the NULL call went as Version Two and was answered");
	} else if (pi->v2_refused || e) {
		it.result = "refused";
		if (e) {
			char d[160];

			it.reply = e;
			it.has_xid = true;
			it.xid = e->xid;
			raw_describe(d, sizeof(d), e);
			item_text(&it, "%s", d);
		} else {
			item_text(&it, "version error, range %u..%u", pi->vers_low,
				  pi->vers_high);
		}
		item_num(&it, "low", e && e->has_vrange ? e->low : pi->vers_low);
		item_num(&it, "high", e && e->has_vrange ? e->high : pi->vers_high);
	} else {
		it.result = "no answer";
		item_text(&it, "%s", c->err.msg);
	}
	report_item(&p->rep, &it);
}

static void report_v1(struct probe *p, const struct xprt_call *c, bool ok)
{
	static struct ping_raw keep;
	struct ping_conn alt;
	struct xprt_call ac;
	struct xprt_error err;
	struct probe_item it;
	uint8_t buf[64];

	item_init(&it, "versions", "v1", "Version One");
	if (p->vers == RPCRDMA_VERSION_ONE) {
		it.result = ok ? "accepted" : "no answer";
		if (ok)
			reply_item(&it, c, &keep);
		item_text(&it, ok ? "the NULL call went as Version One and was answered" :
			  "%s", c->err.msg);
		report_item(&p->rep, &it);
		return;
	}
	/* the peer took Version Two: ask for Version One alone */
	ping_conn_init(&alt, p->o, XPRT_V1, 0, 0);
	if (ping_conn_open(&alt, &err) < 0) {
		it.result = "no connection";
		item_text(&it, "%s", err.msg);
	} else if (null_call(&alt, &ac, buf, sizeof(buf)) && !ac.rdma_error) {
		it.result = "accepted";
		reply_item(&it, &ac, &keep);
		item_text(&it, "on a connection of its own, the NULL call went as "
			  "Version One and was answered");
	} else if (ac.err.code == XPRT_E_OK && ac.rdma_error) {
		char d[160];

		it.result = ac.hdr.rdma_err == RDMA_ERR_VERS ? "refused" : "error";
		reply_item(&it, &ac, &keep);
		raw_describe(d, sizeof(d), &keep);
		item_text(&it, "%s", d);
		if (keep.has_vrange) {
			item_num(&it, "low", keep.low);
			item_num(&it, "high", keep.high);
		}
	} else if (!alt.x) {
		it.result = "connection dropped";
		item_text(&it, "the peer closed the connection on our Version One call");
	} else {
		it.result = "no answer";
		item_text(&it, "%s", ac.err.msg);
	}
	report_item(&p->rep, &it);
	ping_conn_free(&alt);
}

static void report_unknown_version(struct probe *p)
{
	struct rpcrdma_hdr h = { .rdma_vers = UNKNOWN_RDMA_VERS, .rdma_credit = 32,
				 .rdma_proc = RDMA_MSG };
	struct probe_item it;
	struct raw_probe rp;

	raw_probe_run(&p->pc, &h, 0, true, &rp);
	item_init(&it, "versions", "v3", "version 3");
	raw_probe_item(&it, &rp);
	if (rp.outcome == RAW_ANSWERED && rp.reply.has_vrange) {
		item_num(&it, "low", rp.reply.low);
		item_num(&it, "high", rp.reply.high);
	}
	report_item(&p->rep, &it);
}

/* -------- credits -------- */

struct load {
	struct ping_conn *pc;
	struct xprt_call c[LOAD_CALLS];
	uint8_t buf[LOAD_CALLS][64];
	unsigned done, ok;
	uint32_t cmin, cmax, clast;
};

static void load_done(struct xprt_call *c)
{
	struct load *l = c->ctx;

	l->done++;
	if (c->err.code == XPRT_E_OK && !c->rdma_error) {
		uint32_t cr = c->hdr.rdma_credit;

		if (!l->ok || cr < l->cmin)
			l->cmin = cr;
		if (cr > l->cmax)
			l->cmax = cr;
		l->clast = cr;
		l->ok++;
	}
	l->pc->stop = true;
	xprt_loop_stop(l->pc->loop);
}

static void report_credits(struct probe *p)
{
	static struct load l;
	struct xprt_stats st;
	struct probe_item it;
	unsigned i, sent = 0;

	item_init(&it, "credits", "credits_first", "first grant");
	if (p->have_first) {
		it.result = "granted";
		it.has_xid = true;
		it.xid = p->first.xid;
		it.reply = &p->first;
		item_num(&it, "credits", p->first.credit);
		item_num(&it, "requested", p->pc.xo.credits ? p->pc.xo.credits : 32);
		item_text(&it, "%u in the first reply (we asked for %u)",
			  p->first.credit, p->pc.xo.credits ? p->pc.xo.credits : 32);
	} else {
		it.result = "unknown";
		item_text(&it, "no reply came");
	}
	report_item(&p->rep, &it);

	memset(&l, 0, sizeof(l));
	l.pc = &p->pc;
	for (i = 0; i < LOAD_CALLS && p->pc.x; i++) {
		ping_conn_null(&p->pc, &l.c[i], l.buf[i], sizeof(l.buf[i]), 0);
		l.c[i].done = load_done;
		l.c[i].ctx = &l;
		l.c[i].timeout_ms = (int)(p->o->timeout_us / 1000);
		if (xprt_call(p->pc.x, &l.c[i]) < 0)
			break;
		sent++;
	}
	while (l.done < sent)
		ping_conn_wait(&p->pc, 100);
	item_init(&it, "credits", "credits_loaded", "16 calls at once");
	if (p->pc.x)
		xprt_get_stats(p->pc.x, &st);
	else
		memset(&st, 0, sizeof(st));
	if (l.ok) {
		it.result = "granted";
		item_num(&it, "calls", sent);
		item_num(&it, "replies", l.ok);
		item_num(&it, "min", l.cmin);
		item_num(&it, "max", l.cmax);
		item_num(&it, "last", l.clast);
		item_num(&it, "max_outstanding", st.max_outstanding);
		if (l.cmin == l.cmax)
			item_text(&it, "%u in every reply; at most %u calls were "
				  "outstanding", l.cmax, st.max_outstanding);
		else
			item_text(&it, "from %u to %u, %u in the last reply; at most "
				  "%u calls were outstanding", l.cmin, l.cmax,
				  l.clast, st.max_outstanding);
	} else {
		it.result = "unknown";
		item_text(&it, "none of %u calls was answered", sent);
	}
	report_item(&p->rep, &it);
}

/* -------- error replies -------- */

static void raw_item(struct probe *p, const char *key, const char *label,
		     const struct rpcrdma_hdr *h, size_t cut, bool with_rpc)
{
	struct probe_item it;
	struct raw_probe rp;

	raw_probe_run(&p->pc, h, cut, with_rpc, &rp);
	item_init(&it, "error replies", key, label);
	raw_probe_item(&it, &rp);
	report_item(&p->rep, &it);
}

static void report_errors(struct probe *p)
{
	struct rpcrdma_hdr h = { .rdma_vers = p->vers, .rdma_credit = 32,
				 .direction = RPCRDMA_CALL };
	struct probe_item it;
	struct ping_rpc_result res;
	struct xprt_call c;
	uint8_t buf[64];

	h.rdma_proc = RDMA_MSG;                 /* its chunk lists cut off */
	raw_item(p, "bad_header", "truncated header", &h, 16, false);
	h.rdma_proc = UNKNOWN_RDMA_PROC;
	raw_item(p, "bad_proc", "rdma_proc 7", &h, 0, false);
	h.rdma_proc = RDMA_MSGP;
	raw_item(p, "msgp", "RDMA_MSGP", &h, 0, true);
	h.rdma_proc = RDMA_DONE;
	raw_item(p, "done", "RDMA_DONE", &h, 0, false);

	item_init(&it, "error replies", "rpc_proc", "RPC procedure 32767");
	ping_conn_null(&p->pc, &c, buf, sizeof(buf), 0);
	c.len = rpc_encode_call(buf, sizeof(buf), 0, p->o->prog, p->o->vers,
				UNKNOWN_RPC_PROC);
	if (!p->pc.x) {
		struct xprt_error err;

		if (ping_conn_open(&p->pc, &err) < 0) {
			it.result = "not sent";
			item_text(&it, "%s", err.msg);
			report_item(&p->rep, &it);
			return;
		}
	}
	if (ping_conn_call(&p->pc, &c) == 0 && c.err.code == XPRT_E_OK &&
	    !c.rdma_error) {
		ping_rpc_judge(c.reply, c.reply_len, c.xid, &res);
		it.result = ping_rpc_status_name(res.status);
		it.has_xid = true;
		it.xid = c.xid;
		item_text(&it, "an unknown procedure of %s v%u",
			  ping_prog_name(p->o->prog) ? ping_prog_name(p->o->prog) :
			  "the program", p->o->vers);
	} else {
		it.result = c.rdma_error ? "RDMA_ERROR" : "no answer";
		item_text(&it, "%s", c.err.msg);
	}
	report_item(&p->rep, &it);
}

/* -------- backward direction -------- */

static void echo_callback_probe(struct probe *p, struct probe_item *it)
{
	static const uint8_t data[] = "rpcrdma-ping backward";
	struct xprt_call c;
	struct rpc_msg_hdr h;
	uint8_t buf[256];
	const uint8_t *d;
	uint32_t dl, count = 0;
	size_t off, len;
	unsigned before = p->pc.bc_calls;
	uint64_t end;

	memset(&c, 0, sizeof(c));
	c.msg = buf;
	c.len = echo_encode_call(buf, sizeof(buf), ECHO_PROC_CALLBACK, 2, data,
				 sizeof(data) - 1, &off, &len);
	c.reply_max = 1024;
	if (ping_conn_call(&p->pc, &c) < 0 || c.err.code != XPRT_E_OK ||
	    c.rdma_error) {
		it->result = "no answer";
		item_text(it, "%s", c.err.msg);
		return;
	}
	it->has_xid = true;
	it->xid = c.xid;
	/* the peer may answer first and call back after (rpcrdma-echo does) */
	end = live_now_ns() + BACKWARD_WAIT_MS * 1000000ull;
	while (p->pc.x && p->pc.bc_calls - before < 2 && live_now_ns() < end)
		ping_conn_wait(&p->pc, 50);
	item_num(it, "backward_calls", p->pc.bc_calls - before);
	if (echo_decode_reply(c.reply, c.reply_len, ECHO_PROC_CALLBACK, &h, &d, &dl,
			      &count) < 0) {
		it->result = "refused";
		item_text(it, "CALLBACK was not answered with success");
		return;
	}
	item_num(it, "identical", count);
	it->result = p->pc.bc_calls - before == 2 ? "accepted" :
		     p->pc.bc_calls == before ? "none came" : "partly";
	item_text(it, "CALLBACK asked for 2 backward ECHO calls: %u came and were "
		  "answered; the peer's reply counted %u identical",
		  p->pc.bc_calls - before, count);
}

static void report_backward(struct probe *p)
{
	struct probe_item it;

	item_init(&it, "backward direction", "backward", "backward calls");
	if (!p->pc.x) {
		struct xprt_error err;

		if (ping_conn_open(&p->pc, &err) < 0) {
			it.result = "not probed";
			item_text(&it, "%s", err.msg);
			report_item(&p->rep, &it);
			return;
		}
	}
	if (p->o->prog == ECHO_PROG) {
		echo_callback_probe(p, &it);
	} else if (p->o->prog == RPC_PROG_NFS) {
		nfs41_backchannel_probe(&p->pc, &it);
	} else {
		it.result = "not probed";
		item_text(&it, "no back channel is known for program %u", p->o->prog);
	}
	report_item(&p->rep, &it);
}

/* -------- the first call -------- */

/* The first NULL call on pc; one that got no answer on a connection still
 * up is made once more on a new connection, and the report says so in
 * `section` (siw can lose the first Send of a connection: the call never
 * reaches the peer).  A retry the protocol allows, counted and printed,
 * never hidden.  --probe's connection and --probe-inline's both begin so. */
bool probe_first_call(struct ping_conn *pc, struct probe_report *rep, const char *section,
		      struct xprt_call *c, uint8_t *buf, size_t cap)
{
	bool ok = null_call(pc, c, buf, cap) && !c->rdma_error;
	struct xprt_error err;
	struct probe_item it;
	char why[sizeof(c->err.msg)];

	if (ok || c->err.code != XPRT_E_TIMEOUT || !pc->x)
		return ok;
	probe_item_init(&it, section, "retry", "first call");
	it.has_xid = true;
	it.xid = c->xid;
	item_num(&it, "retries", 1);
	snprintf(why, sizeof(why), "%s", c->err.msg);
	/* a new loop too: the transport took the silence for a peer without
	 * Version Two and would not offer it again */
	ping_conn_close(pc);
	ping_loop_end();
	if (ping_conn_open(pc, &err) < 0) {
		it.result = "retry failed";
		item_text(&it, "no answer (%s); connecting again failed: %s", why, err.msg);
	} else {
		ok = null_call(pc, c, buf, cap) && !c->rdma_error;
		it.result = ok ? "answered on retry" : "no answer on retry";
		item_text(&it, "no answer to the first call (%s): made once more on a new "
			  "connection, %s (a lost first Send, as siw can lose one)", why,
			  ok ? "answered" : "not answered either");
	}
	report_item(rep, &it);
	return ok;
}

/* -------- the report -------- */

int ping_probe(const struct ping_opts *o)
{
	static struct probe p;
	struct xprt_error err;
	struct xprt_call c;
	uint8_t buf[64];
	bool ok, dropped = false;

	memset(&p, 0, sizeof(p));
	p.o = o;
	ping_out_init(&p.rep.out, stdout, o->json, false);
	ping_conn_init(&p.pc, o, 0, 0, 0);
	if (ping_conn_open(&p.pc, &err) < 0) {
		ping_out_fatal(&p.rep.out, &err);
		ping_loop_end();
		return ping_errcode_exit(err.code);
	}
	const struct xprt_peer_info *pi = ping_conn_peer(&p.pc);
	snprintf(p.addr, sizeof(p.addr), "%s", pi->addr);
	snprintf(p.device, sizeof(p.device), "%s", pi->device);
	p.t = (struct ping_target){ .host = o->host, .addr = p.addr,
				    .device = p.device, .prog = o->prog,
				    .vers = o->vers, .proc = o->proc };
	p.rep.out.addr = p.addr;
	ping_out_start(&p.rep.out, &p.t);
	report_connection(&p);

	ok = probe_first_call(&p.pc, &p.rep, "connection", &c, buf, sizeof(buf));
	if (!ok && !p.pc.x && !ping_conn_peer(&p.pc)->vers) {
		/* dropped on Version Two: Version One alone from here on */
		dropped = true;
		report_v2(&p, &c, false, true);
		/* the transport remembers: Version One from here on */
		if (ping_conn_open(&p.pc, &err) == 0)
			ok = null_call(&p.pc, &c, buf, sizeof(buf)) && !c.rdma_error;
	}
	p.vers = ping_conn_peer(&p.pc)->vers;
	if (!p.vers)
		p.vers = ok ? c.hdr.rdma_vers : RPCRDMA_VERSION_ONE;
	if (ok) {
		p.answered = true;
		p.have_first = true;
		ping_raw_from_msg(&p.first, &c.hdr, c.rhdr_len);
	}
	if (!dropped)
		report_v2(&p, &c, ok, false);
	report_v1(&p, &c, ok);
	report_unknown_version(&p);
	report_credits(&p);
	report_errors(&p);
	report_backward(&p);
	ping_out_flush(&p.rep.out);
	ping_conn_free(&p.pc);
	ping_loop_end();
	return p.answered ? PING_EXIT_OK : PING_EXIT_NOREPLY;
}
