/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ping_out.c - what rpcrdma-ping prints, in ping(8)'s shape (a line at the
 * start, one per reply, a two-line summary) or as JSON Lines (--json: one
 * object per line, "type" start | peer | reply | error | lost | event |
 * summary | fatal); and the transport's errors in a user's words with the
 * exit status each makes.  Times are printed in microseconds with one
 * decimal, in JSON as integer nanoseconds.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "live.h"
#include "ping.h"
#include "rpc_names.h"
#include "rpcrdma/rpc.h"

void ping_out_init(struct ping_out *p, FILE *f, bool json, bool quiet)
{
	memset(p, 0, sizeof(*p));
	ob_init(&p->o, f);
	p->json = json;
	p->quiet = quiet;
}

void ping_out_flush(struct ping_out *p)
{
	ob_flush(&p->o);
	fflush(p->o.f);
}

__attribute__((format(printf, 2, 3)))
static void ob_printf(struct obuf *o, const char *fmt, ...)
{
	char b[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(b, sizeof(b), fmt, ap);
	va_end(ap);
	if (n > 0)
		ob_write(o, b, (size_t)n < sizeof(b) ? (size_t)n : sizeof(b) - 1);
}

void ping_put_us(struct obuf *o, uint64_t ns)
{
	uint64_t tenths = (ns + 50) / 100;     /* 0.1 us units, half up */

	ob_u64(o, tenths / 10);
	ob_putc(o, '.');
	ob_putc(o, (char)('0' + tenths % 10));
}

void ping_put_pct(struct obuf *o, double pct)
{
	uint64_t tenths = (uint64_t)floor(pct * 10.0 + 0.5);

	ob_u64(o, tenths / 10);
	if (tenths % 10) {
		ob_putc(o, '.');
		ob_putc(o, (char)('0' + tenths % 10));
	}
}

const char *ping_prog_name(uint32_t prog)
{
	if (prog == RPC_PROG_RPCRDMA_ECHO)
		return "ECHO";
	return msgprint_program_name(prog);
}

/* -------- errors a user can act on -------- */

int ping_errcode_exit(enum xprt_errcode c)
{
	switch (c) {
	case XPRT_E_OK:
		return PING_EXIT_OK;
	case XPRT_E_REFUSED:        /* the host is there, the service is not */
	case XPRT_E_REJECTED:
	case XPRT_E_TIMEOUT:
	case XPRT_E_DISCONNECTED:
	case XPRT_E_PROTOCOL:
		return PING_EXIT_NOREPLY;
	case XPRT_E_NODEV:          /* as the other tools */
		return PING_EXIT_NODEV;
	case XPRT_E_RESOLVE:        /* nothing was sent: set-up errors */
	case XPRT_E_UNREACHABLE:
	case XPRT_E_RESOURCE:
	case XPRT_E_USAGE:
	default:
		return PING_EXIT_USAGE;
	}
}

const char *ping_errcode_hint(enum xprt_errcode c)
{
	switch (c) {
	case XPRT_E_RESOLVE:
		return "the host name does not resolve (give an address, or check "
		       "/etc/hosts and DNS)";
	case XPRT_E_UNREACHABLE:
		return "no local RDMA device reaches that address: the route to it "
		       "must leave through an RDMA-capable interface (rdma link "
		       "show; ip route get ADDRESS)";
	case XPRT_E_REFUSED:
		return "nothing listens for RPC-over-RDMA on that port (a Linux "
		       "NFS server: echo 'rdma 20049' > /proc/fs/nfsd/portlist)";
	case XPRT_E_REJECTED:
		return "the peer refused the connection (it may limit its "
		       "connections, or not accept our private data)";
	case XPRT_E_TIMEOUT:
		return "no answer within the timeout (-W, or --connect-timeout for "
		       "the connection): the peer, or the "
		       "path to it, is down or overloaded";
	default:
		return NULL;
	}
}

void ping_out_fatal(struct ping_out *p, const struct xprt_error *e)
{
	const char *hint = ping_errcode_hint(e->code);

	fprintf(stderr, PING_PROG ": %s\n", live_error_text(e));
	if (hint)
		fprintf(stderr, PING_PROG ": %s\n", hint);
	if (p->json) {
		struct json j;

		json_init(&j, &p->o);
		json_obj_begin(&j);
		json_kstr(&j, "type", "fatal");
		json_kstr(&j, "error", xprt_errcode_name(e->code));
		json_kstr(&j, "message", e->msg);
		json_kstr(&j, "hint", hint);
		json_obj_end(&j);
		ob_putc(&p->o, '\n');
	}
	ping_out_flush(p);
}

/* -------- the start and the peer -------- */

static void put_target(struct obuf *o, const struct ping_target *t)
{
	const char *name = ping_prog_name(t->prog);

	if (name)
		ob_printf(o, "%s (%u) v%u", name, t->prog, t->vers);
	else
		ob_printf(o, "program %u v%u", t->prog, t->vers);
	if (t->proc == 0)
		ob_puts(o, " NULL");
	else
		ob_printf(o, " procedure %u", t->proc);
}

void ping_out_start(struct ping_out *p, const struct ping_target *t)
{
	if (p->json) {
		struct json j;

		json_init(&j, &p->o);
		json_obj_begin(&j);
		json_kstr(&j, "type", "start");
		json_kstr(&j, "host", t->host);
		json_kstr(&j, "addr", t->addr);
		json_kstr(&j, "device", t->device);
		json_ku64(&j, "program", t->prog);
		json_kstr(&j, "program_name", ping_prog_name(t->prog));
		json_ku64(&j, "version", t->vers);
		json_ku64(&j, "procedure", t->proc);
		json_obj_end(&j);
		ob_putc(&p->o, '\n');
		return;
	}
	ob_printf(&p->o, "RPCRDMA-PING %s (%s) via %s: ", t->host,
		  t->addr ? t->addr : "?", t->device && t->device[0] ? t->device : "?");
	put_target(&p->o, t);
	ob_putc(&p->o, '\n');
}

static const char *v2_key(const struct xprt_peer_info *pi)
{
	if (pi->vers == RPCRDMA_VERSION_TWO)
		return "accepted";
	if (pi->v2_refused)
		return "refused";
	if (pi->v2_dropped)
		return "dropped";
	return "not-tried";
}

void ping_put_v2_outcome(struct obuf *o, const struct xprt_peer_info *pi)
{
	if (pi->vers == RPCRDMA_VERSION_TWO)
		ob_puts(o, "Version Two accepted");
	else if (pi->v2_refused && pi->vers_low)
		ob_printf(o, "Version Two refused with the version error, range %u..%u",
			  pi->vers_low, pi->vers_high);
	else if (pi->v2_refused)
		ob_puts(o, "Version Two refused with the version error");
	else if (pi->v2_dropped)
		ob_puts(o, "Version Two: the peer dropped the connection");
	else
		ob_puts(o, "Version Two not tried");
}

static void put_private_text(struct obuf *o, const struct xprt_peer_info *pi)
{
	if (!pi->has_private_data) {
		ob_printf(o, "no RFC 8797 private data: inline thresholds are the "
			  "defaults, send %u, receive %u", pi->inline_send,
			  pi->inline_recv);
		return;
	}
	ob_printf(o, "RFC 8797 private data v%u: receives %u, sends %u, "
		  "remote invalidation %s", pi->priv.pd_version,
		  pi->priv.max_recv_size, pi->priv.max_send_size,
		  pi->priv.pd_flags & RPCRDMA_CM_FLAG_REMOTE_INVALIDATE ? "yes" : "no");
}

void ping_json_private(struct json *j, const struct xprt_peer_info *pi)
{
	json_key(j, "private_data");
	if (!pi->has_private_data) {
		json_null(j);
	} else {
		json_obj_begin(j);
		json_ku64(j, "version", pi->priv.pd_version);
		json_kbool(j, "remote_invalidate",
			   pi->priv.pd_flags & RPCRDMA_CM_FLAG_REMOTE_INVALIDATE);
		json_ku64(j, "receive", pi->priv.max_recv_size);
		json_ku64(j, "send", pi->priv.max_send_size);
		json_obj_end(j);
	}
	json_ku64(j, "inline_send", pi->inline_send);
	json_ku64(j, "inline_recv", pi->inline_recv);
}

void ping_out_peer(struct ping_out *p, const struct xprt_peer_info *pi,
		   bool have_reply, uint32_t reply_vers, uint32_t reply_credits)
{
	uint32_t vers = pi->vers ? pi->vers : (have_reply ? reply_vers : 0);

	if (p->json) {
		struct json j;

		json_init(&j, &p->o);
		json_obj_begin(&j);
		json_kstr(&j, "type", "peer");
		ping_json_private(&j, pi);
		json_ku64(&j, "rdma_version", vers);
		json_kstr(&j, "v2", v2_key(pi));
		json_ku64(&j, "vers_low", pi->vers_low);
		json_ku64(&j, "vers_high", pi->vers_high);
		json_key(&j, "credits");
		if (have_reply)
			json_u64(&j, reply_credits);
		else
			json_null(&j);
		json_obj_end(&j);
		ob_putc(&p->o, '\n');
		return;
	}
	ob_puts(&p->o, "peer: ");
	put_private_text(&p->o, pi);
	ob_puts(&p->o, "\npeer: ");
	if (vers)
		ob_printf(&p->o, "RPC-over-RDMA version %u (", vers);
	else
		ob_puts(&p->o, "RPC-over-RDMA version not negotiated (");
	ping_put_v2_outcome(&p->o, pi);
	if (have_reply)
		ob_printf(&p->o, "), credits %u\n", reply_credits);
	else
		ob_puts(&p->o, "), no reply yet\n");
}

/* -------- one line per call -------- */

static void json_head(struct json *j, struct ping_out *p, const char *type,
		      uint64_t seq)
{
	json_init(j, &p->o);
	json_obj_begin(j);
	json_kstr(j, "type", type);
	json_ku64(j, "seq", seq);
}

static void json_tail(struct json *j, struct ping_out *p)
{
	json_obj_end(j);
	ob_putc(&p->o, '\n');
}

void ping_out_reply(struct ping_out *p, const struct ping_reply *r)
{
	if (p->json) {
		struct json j;

		json_head(&j, p, "reply", r->seq);
		json_ku64(&j, "xid", r->xid);
		json_ku64(&j, "rdma_version", r->vers);
		json_ku64(&j, "credits", r->credits);
		json_ku64(&j, "time_ns", r->rtt_ns);
		json_ku64(&j, "length", r->len);
		json_tail(&j, p);
		return;
	}
	if (p->quiet)
		return;
	ob_printf(&p->o, "reply from %s: seq=%llu xid=0x%08x vers=%u credits=%u time=",
		  p->addr ? p->addr : "?", (unsigned long long)r->seq, r->xid,
		  r->vers, r->credits);
	ping_put_us(&p->o, r->rtt_ns);
	ob_puts(&p->o, " us\n");
}

/* What an RPC error reply means, in words */
static void rpc_error_text(char *b, size_t cap, const struct ping_target *t,
			   const struct ping_rpc_result *res)
{
	switch (res->status) {
	case PING_RPC_PROG_UNAVAIL:
		snprintf(b, cap, "program %u is not available", t->prog);
		break;
	case PING_RPC_PROG_MISMATCH:
		snprintf(b, cap, "program %u version %u is not available: the "
			 "server has versions %u to %u", t->prog, t->vers,
			 res->low, res->high);
		break;
	case PING_RPC_PROC_UNAVAIL:
		snprintf(b, cap, "procedure %u of program %u v%u is not available",
			 t->proc, t->prog, t->vers);
		break;
	case PING_RPC_GARBAGE_ARGS:
		snprintf(b, cap, "the server could not decode the arguments");
		break;
	case PING_RPC_SYSTEM_ERR:
		snprintf(b, cap, "the server had a system error");
		break;
	case PING_RPC_ACCEPT_OTHER:
		snprintf(b, cap, "accept_stat %u", res->stat);
		break;
	case PING_RPC_RPC_MISMATCH:
		snprintf(b, cap, "RPC version 2 refused: the server has versions "
			 "%u to %u", res->low, res->high);
		break;
	case PING_RPC_AUTH_ERROR:
		snprintf(b, cap, "call denied, auth_stat %u (AUTH_NONE refused)",
			 res->stat);
		break;
	case PING_RPC_DENIED_OTHER:
		snprintf(b, cap, "call denied, reject_stat %u", res->stat);
		break;
	case PING_RPC_MALFORMED:
		snprintf(b, cap, "the reply is not an RPC reply that can be decoded");
		break;
	case PING_RPC_NOT_REPLY:
		snprintf(b, cap, "an RPC call came back instead of a reply");
		break;
	case PING_RPC_XID_MISMATCH:
		snprintf(b, cap, "the RPC reply's xid is 0x%08x", res->xid);
		break;
	case PING_RPC_SUCCESS:
	default:
		snprintf(b, cap, "success");
		break;
	}
}

void ping_out_rpc_error(struct ping_out *p, const struct ping_reply *r,
			const struct ping_target *t,
			const struct ping_rpc_result *res)
{
	char text[256];

	rpc_error_text(text, sizeof(text), t, res);
	if (p->json) {
		struct json j;

		json_head(&j, p, "error", r->seq);
		json_ku64(&j, "xid", r->xid);
		json_kstr(&j, "error", ping_rpc_status_name(res->status));
		if (res->status == PING_RPC_PROG_MISMATCH ||
		    res->status == PING_RPC_RPC_MISMATCH) {
			json_ku64(&j, "low", res->low);
			json_ku64(&j, "high", res->high);
		}
		json_kstr(&j, "message", text);
		json_ku64(&j, "time_ns", r->rtt_ns);
		json_tail(&j, p);
		return;
	}
	ob_printf(&p->o, "error from %s: seq=%llu xid=0x%08x %s: ",
		  p->addr ? p->addr : "?", (unsigned long long)r->seq, r->xid,
		  ping_rpc_status_name(res->status));
	ob_puts(&p->o, text);
	ob_putc(&p->o, '\n');
}

void ping_out_rdma_error(struct ping_out *p, const struct ping_reply *r,
			 const struct rpcrdma_msg *hdr)
{
	const char *err = rpcrdma_err_name(hdr->rdma_vers, hdr->rdma_err);

	if (p->json) {
		struct json j;

		json_head(&j, p, "error", r->seq);
		json_ku64(&j, "xid", r->xid);
		json_kstr(&j, "error", "RDMA_ERROR");
		json_kstr(&j, "rdma_err", err);
		json_ku64(&j, "rdma_version", hdr->rdma_vers);
		json_ku64(&j, "credits", hdr->rdma_credit);
		if (hdr->has_vrange) {
			json_ku64(&j, "low", hdr->rdma_vers_low);
			json_ku64(&j, "high", hdr->rdma_vers_high);
		}
		json_tail(&j, p);
		return;
	}
	ob_printf(&p->o, "error from %s: seq=%llu xid=0x%08x RDMA_ERROR %s vers=%u "
		  "credits=%u", p->addr ? p->addr : "?", (unsigned long long)r->seq,
		  r->xid, err, hdr->rdma_vers, hdr->rdma_credit);
	if (hdr->has_vrange)
		ob_printf(&p->o, " range %u..%u", hdr->rdma_vers_low,
			  hdr->rdma_vers_high);
	ob_putc(&p->o, '\n');
}

void ping_out_noreply(struct ping_out *p, uint64_t seq, uint32_t xid,
		      const struct xprt_error *e)
{
	if (p->json) {
		struct json j;

		json_head(&j, p, "lost", seq);
		json_key(&j, "xid");
		if (xid)
			json_u64(&j, xid);
		else
			json_null(&j);
		json_kstr(&j, "error", xprt_errcode_name(e->code));
		json_kstr(&j, "message", e->msg);
		json_tail(&j, p);
		return;
	}
	if (p->quiet)
		return;
	if (xid)
		ob_printf(&p->o, "no reply: seq=%llu xid=0x%08x: %s\n",
			  (unsigned long long)seq, xid, live_error_text(e));
	else
		ob_printf(&p->o, "no reply: seq=%llu: %s\n", (unsigned long long)seq,
			  live_error_text(e));
}

void ping_out_event(struct ping_out *p, const char *event, const char *text)
{
	if (p->json) {
		struct json j;

		json_init(&j, &p->o);
		json_obj_begin(&j);
		json_kstr(&j, "type", "event");
		json_kstr(&j, "event", event);
		json_kstr(&j, "message", text);
		json_obj_end(&j);
		ob_putc(&p->o, '\n');
		return;
	}
	if (!p->quiet)
		ob_printf(&p->o, "%s\n", text);
}

/* -------- the summary -------- */

void ping_out_summary(struct ping_out *p, const struct ping_target *t,
		      const struct ping_summary *s, uint64_t elapsed_ns)
{
	uint64_t ms = elapsed_ns / 1000000u;

	if (p->json) {
		struct json j;

		json_init(&j, &p->o);
		json_obj_begin(&j);
		json_kstr(&j, "type", "summary");
		json_ku64(&j, "sent", s->sent);
		json_ku64(&j, "received", s->received);
		json_ku64(&j, "errors", s->errors);
		json_key(&j, "loss_pct");
		json_separate(&j);
		ping_put_pct(&p->o, s->loss_pct);
		json_ku64(&j, "time_ms", ms);
		json_key(&j, "rtt_ns");
		if (!s->have_rtt) {
			json_null(&j);
		} else {
			json_obj_begin(&j);
			json_ku64(&j, "min", s->min);
			json_ku64(&j, "avg", (uint64_t)llround(s->avg));
			json_ku64(&j, "max", s->max);
			json_ku64(&j, "mdev", (uint64_t)llround(s->mdev));
			json_ku64(&j, "p50", s->p50);
			json_ku64(&j, "p99", s->p99);
			json_obj_end(&j);
		}
		json_obj_end(&j);
		ob_putc(&p->o, '\n');
		return;
	}
	ob_printf(&p->o, "\n--- %s rpcrdma-ping statistics ---\n", t->host);
	ob_printf(&p->o, "%llu calls sent, %llu replies received, ",
		  (unsigned long long)s->sent, (unsigned long long)s->received);
	if (s->errors)
		ob_printf(&p->o, "+%llu errors, ", (unsigned long long)s->errors);
	ping_put_pct(&p->o, s->loss_pct);
	ob_printf(&p->o, "%% loss, time %llu ms\n", (unsigned long long)ms);
	if (!s->have_rtt)
		return;
	ob_puts(&p->o, "rtt min/avg/max/mdev = ");
	ping_put_us(&p->o, s->min);
	ob_putc(&p->o, '/');
	ping_put_us(&p->o, (uint64_t)llround(s->avg));
	ob_putc(&p->o, '/');
	ping_put_us(&p->o, s->max);
	ob_putc(&p->o, '/');
	ping_put_us(&p->o, (uint64_t)llround(s->mdev));
	ob_puts(&p->o, " us, p50/p99 = ");
	ping_put_us(&p->o, s->p50);
	ob_putc(&p->o, '/');
	ping_put_us(&p->o, s->p99);
	ob_puts(&p->o, " us\n");
}
