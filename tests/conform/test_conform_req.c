/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_conform_req.c - rpcrdma-conform --requester's responder (req_nfs.c
 * over tools/ulb/nfs3_serve.c) on the real transport and the in-process
 * fake verbs, with a requester of the same transport in the same loop: the
 * export read back byte for byte through every way a reply takes (inline,
 * the requester's write chunk for READ, its reply chunk for READDIRPLUS);
 * and MOUNT v3 over TCP on loopback (req_mount.c): MNT "/" in one record
 * and in two fragments, a record over the bound closes the connection.
 * Every wait has a deadline.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <rpcrdma/rpc.h>
#include "be.h"
#include "echo_ulb.h"
#include "fake_verbs.h"
#include "nfs3_tree.h"
#include "req.h"
#include "tap.h"

#define DEADLINE_MS 5000

static struct xprt_loop *loop;
static struct cf_req_counts counts;
static struct cf_req_nfs nfs;

static int64_t now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

struct pending {
	struct xprt_call c;
	bool done;
	uint8_t msg[512];
	uint8_t reply[NFS3_SERVE_REPLY_MAX];
	size_t reply_len;
};

static void call_done(struct xprt_call *c)
{
	struct pending *p = c->ctx;

	p->done = true;
	p->reply_len = 0;
	if (c->err.code == XPRT_E_OK && c->reply_len <= sizeof(p->reply)) {
		memcpy(p->reply, c->reply, c->reply_len);
		p->reply_len = c->reply_len;
	}
}

/* READ3resok's data in a reduced reply payload: after the RPC header (24,
 * AUTH_NONE verifier), status, post_op_attr, count, eof, the length word */
static size_t read_ddp_pos(const uint8_t *payload, size_t len, void *ctx)
{
	struct xdr_r r = { payload, len, 24, false };

	(void)ctx;
	if (xdr_get32(&r) != NFS3_OK)
		return (size_t)-1;
	if (xdr_get32(&r))
		xdr_skip(&r, 84);
	xdr_skip(&r, 12);
	return r.bad ? (size_t)-1 : r.off;
}

/* one NFSv3 call, args already after the 40-byte header in p->msg; waits
 * for its reply with a deadline */
static bool call(struct xprt *x, struct pending *p, uint32_t proc, size_t args_len,
		 enum xprt_chunk_mode chunk, size_t ddp_max)
{
	int64_t end = now_ms() + DEADLINE_MS;

	rpc_encode_call(p->msg, sizeof(p->msg), 0, NFS3_PROG, NFS3_VERS, proc);
	memset(&p->c, 0, sizeof(p->c));
	p->done = false;
	p->c.msg = p->msg;
	p->c.len = 40 + args_len;
	p->c.reply_max = sizeof(p->reply);
	p->c.reply_ddp_max = ddp_max;
	p->c.chunk = chunk;
	p->c.timeout_ms = DEADLINE_MS;
	p->c.done = call_done;
	p->c.ctx = p;
	if (proc == NFSPROC3_READ)
		p->c.reply_ddp_pos = read_ddp_pos;
	if (xprt_call(x, &p->c) < 0)
		return false;
	while (!p->done && now_ms() < end)
		xprt_loop_run(loop, 50);
	return p->done && p->c.err.code == XPRT_E_OK;
}

static size_t put_fh(uint8_t *b, uint64_t fileid)
{
	struct xdr_w w = { b, 64, 0, false };
	uint8_t fh[NFS3_TREE_FHLEN];

	nfs3_tree_fh(fileid, fh);
	nfs3_enc_nfs_fh3(&w, fh, sizeof(fh));
	return w.n;
}

static uint32_t status_of(const struct pending *p)
{
	struct xdr_r r = { p->reply, p->reply_len, 20, false };

	return xdr_get32(&r) ? 0xffffffffu : xdr_get32(&r);   /* accept_stat, then nfsstat3 */
}

static void nfs_calls(struct xprt *x)
{
	static struct pending p;
	uint8_t *a = p.msg + 40;
	struct xdr_w w;
	size_t n, k;
	unsigned wrong = 0;
	bool ok;

	tap_ok(call(x, &p, NFSPROC3_NULL, 0, XPRT_CHUNK_AUTO, 0) && p.reply_len == 24,
	       "NULL: an empty accepted reply");
	n = put_fh(a, NFS3_TREE_ROOT);
	tap_ok(call(x, &p, NFSPROC3_GETATTR, n, XPRT_CHUNK_AUTO, 0) && status_of(&p) == NFS3_OK &&
	       p.reply_len == 24 + 4 + 84, "GETATTR /: NFS3_OK and a fattr3, inline");
	n = put_fh(a, NFS3_TREE_ROOT);
	w = (struct xdr_w){ a, 400, n, false };
	xdr_put_opaque(&w, "data-1m.bin", 11);
	tap_ok(call(x, &p, NFSPROC3_LOOKUP, w.n, XPRT_CHUNK_AUTO, 0) && status_of(&p) == NFS3_OK &&
	       p.reply[28] == 0 && p.reply[31] == 16 && p.reply[32 + 15] == 3,
	       "LOOKUP data-1m.bin: its handle (fileid 3)");
	for (uint32_t proc = NFSPROC3_FSSTAT; proc <= NFSPROC3_PATHCONF; proc++) {
		n = put_fh(a, NFS3_TREE_ROOT);
		tap_ok(call(x, &p, proc, n, XPRT_CHUNK_AUTO, 0) && status_of(&p) == NFS3_OK,
		       "%s /: NFS3_OK", nfs3_proc_name(proc, 0));
	}
	/* READ 256 KiB at 4096 into a write chunk */
	n = put_fh(a, 3);
	w = (struct xdr_w){ a, 400, n, false };
	xdr_put64(&w, 4096);
	xdr_put32(&w, NFS3_SERVE_RTMAX);
	ok = call(x, &p, NFSPROC3_READ, w.n, XPRT_CHUNK_WRITE, NFS3_SERVE_RTMAX);
	tap_ok(ok && status_of(&p) == NFS3_OK && p.c.reply_path == XPRT_PATH_WRITE &&
	       p.c.write_bytes == NFS3_SERVE_RTMAX,
	       "READ 256 KiB of data-1m.bin: the data through the requester's write chunk (%s, %u bytes)",
	       xprt_path_name(p.c.reply_path), p.c.write_bytes);
	k = read_ddp_pos(p.reply, p.reply_len, NULL);
	for (n = 0; k != (size_t)-1 && n < NFS3_SERVE_RTMAX && k + n < p.reply_len; n++)
		wrong += p.reply[k + n] != (4096 + 3 + n) % 251;
	tap_ok(k != (size_t)-1 && n == NFS3_SERVE_RTMAX && !wrong,
	       "... every byte (i + 3) %% 251 at its offset (%u wrong)", wrong);
	/* READ the tail of odd-4099.bin inline */
	n = put_fh(a, 4);
	w = (struct xdr_w){ a, 400, n, false };
	xdr_put64(&w, 4000);
	xdr_put32(&w, 1000);
	tap_ok(call(x, &p, NFSPROC3_READ, w.n, XPRT_CHUNK_AUTO, 0) && status_of(&p) == NFS3_OK &&
	       p.c.reply_path == XPRT_PATH_INLINE && p.reply_len == 24 + 4 + 88 + 12 + 100,
	       "READ odd-4099.bin from 4000: its last 99 bytes inline, eof");
	/* READDIRPLUS of /many, 32 KiB, through the reply chunk */
	n = put_fh(a, 6);
	w = (struct xdr_w){ a, 400, n, false };
	xdr_put64(&w, 0);
	xdr_put64(&w, 0);
	xdr_put32(&w, 32768);
	xdr_put32(&w, 32768);
	ok = call(x, &p, NFSPROC3_READDIRPLUS, w.n, XPRT_CHUNK_REPLY, 0);
	tap_ok(ok && status_of(&p) == NFS3_OK && p.c.reply_path == XPRT_PATH_REPLY &&
	       p.reply_len > 16384 && p.reply_len <= 24 + 32768,
	       "READDIRPLUS /many, maxcount 32 KiB: the reply through the requester's reply chunk "
	       "(%s, %zu bytes)", xprt_path_name(p.c.reply_path), p.reply_len);
	tap_ok(counts.nfs[NFSPROC3_READ] == 2 && counts.nfs[NFSPROC3_READDIRPLUS] == 1 &&
	       counts.reply_failed == 0 && counts.not_rpc == 0,
	       "the responder counted 2 READs, 1 READDIRPLUS, nothing refused");
}

/* ---- MOUNT over TCP on loopback ---- */
static int tcp_to(uint16_t port)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(port) };
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd >= 0 && connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* polls the server until the client has n bytes or the peer closed: the
 * bytes read, -1 on a close with nothing */
static ssize_t read_reply(struct cf_req_mount *m, int fd, uint8_t *b, size_t n)
{
	int64_t end = now_ms() + DEADLINE_MS;
	size_t got = 0;

	while (got < n && now_ms() < end) {
		struct pollfd p = { fd, POLLIN, 0 };
		ssize_t r;

		cf_req_mount_poll(m, 10);
		if (poll(&p, 1, 0) <= 0)
			continue;
		r = recv(fd, b + got, n - got, 0);
		if (r <= 0)
			return got ? (ssize_t)got : -1;
		got += (size_t)r;
	}
	return (ssize_t)got;
}

static void mount_tcp(void)
{
	/* record mark (last, 48), RFC 5531 call: MOUNT v3 MNT, AUTH_NONE,
	 * dirpath "/" */
	static const uint8_t mnt[] = { 0x80, 0, 0, 48,
		0, 0, 0, 9, 0, 0, 0, 0, 0, 0, 0, 2, 0, 1, 0x86, 0xa5, 0, 0, 0, 3, 0, 0, 0, 1,
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		0, 0, 0, 1, '/', 0, 0, 0 };
	static struct cf_req_mount m;
	struct sockaddr_in sa;
	socklen_t sl = sizeof(sa);
	uint8_t b[128], fh[NFS3_TREE_FHLEN], big[8] = { 0x80, 0x10, 0, 0 };
	ssize_t n;
	int fd;
	char why[200];

	m.counts = &counts;
	if (!tap_ok(cf_req_mount_open(&m, "127.0.0.1", "0", why, sizeof(why)) == 0 &&
		    getsockname(m.lfd[0], (struct sockaddr *)&sa, &sl) == 0,
		    "MOUNT listens on a loopback TCP port")) {
		tap_diag("%s", why);
		return;
	}
	nfs3_tree_fh(NFS3_TREE_ROOT, fh);
	fd = tcp_to(ntohs(sa.sin_port));
	send(fd, mnt, sizeof(mnt), 0);
	n = read_reply(&m, fd, b, 4 + 24 + 4 + 20 + 12);
	tap_ok(n == 64 && b[0] == 0x80 && b[3] == 60 && b[4 + 3] == 9 && b[4 + 27] == 0 &&
	       !memcmp(b + 4 + 32, fh, sizeof(fh)),
	       "MNT \"/\" in one record: MNT3_OK and the root's handle, record-marked");
	/* the same call in two fragments: 20 bytes, then the last 28 */
	{
		uint8_t f1[24], f2[32];

		memcpy(f1, "\x00\x00\x00\x14", 4);
		memcpy(f1 + 4, mnt + 4, 20);
		memcpy(f2, "\x80\x00\x00\x1c", 4);
		memcpy(f2 + 4, mnt + 24, 28);
		send(fd, f1, sizeof(f1), 0);
		cf_req_mount_poll(&m, 10);
		send(fd, f2, sizeof(f2), 0);
		n = read_reply(&m, fd, b, 64);
		tap_ok(n == 64 && b[4 + 27] == 0, "MNT in two fragments: answered once whole");
	}
	send(fd, big, 4, 0);                  /* a record of 1 MiB: over the bound */
	n = read_reply(&m, fd, b, 4);
	tap_ok(n == -1, "a record over %u bytes: the connection closed, nothing read",
	       CF_REQ_MOUNT_REC);
	close(fd);
	tap_ok(counts.mount[MOUNTPROC3_MNT] == 2, "2 MNT counted");
	cf_req_mount_close(&m);
}

/* ---- the requester cases: our requester passes, a misbehaving one fails ---- */
/* the misbehaving requesters: raw calls (libcodec's headers) sent with
 * xprt_send_raw(), credits ignored -- RAW_BURST: ten at once; RAW_AFTER:
 * one, then nine at once when its reply comes (over our transport the nine
 * never leave once a grant of 1 came: its Send slots follow the grant, so
 * RAW_AFTER passes rq-grant-1 here, and the grader's V1 §4.3.1 FAIL is
 * shown on observations in grader_fails()); and our transport's requester
 * with the test-only misbehave modes rpcrdma-echo --misbehave gives its
 * client: RQ_NO_FIRST_WAIT (every call before the first reply) and
 * RQ_IGNORE_GRANT (past the grant once one came) */
enum rq_mode { RQ_OURS = 0, RAW_BURST, RAW_AFTER, RQ_NO_FIRST_WAIT, RQ_IGNORE_GRANT,
	       RAW_BADXID, RAW_SHORT, RQ_SEND_DONE, RQ_SEND_DONE_V2 };
/* RQ_SEND_DONE: our transport's requester with --misbehave send-done over
 * Version One (an RDMA_DONE after the first reply: no call, answered
 * RDMA_ERROR, which the requester drops); RQ_SEND_DONE_V2 the same over
 * Version Two, which has no RDMA_DONE (procedure 3 is no V2 procedure:
 * libcodec's bad_proc, a NOTE on D-RQ-1) */
static struct {
	enum rq_mode raw;
	struct xprt *x;
	struct xprt_call c[10];
	uint8_t msg[10][64];
} rq;

static void rq_done(struct xprt_call *c)
{
	(void)c;
}

static void raw_call(uint32_t i)
{
	struct rpcrdma_hdr h = { .rdma_xid = 0x7000 + i, .rdma_vers = 1, .rdma_credit = 32,
		.rdma_proc = RDMA_MSG };
	struct xprt_error err;
	uint8_t buf[128];
	size_t hl = rpcrdma_encode(&h, buf, sizeof(buf), NULL), off, dl, n;

	n = echo_encode_call(buf + hl, sizeof(buf) - hl, ECHO_PROC_NULL, 0, NULL, 0, &off, &dl);
	/* RAW_BADXID: the RPC message's xid is not the header's (V1 §5.2.1);
	 * RAW_SHORT: the header ends inside rdma_proc (libcodec: truncated) */
	be32_put(buf + hl, h.rdma_xid + (rq.raw == RAW_BADXID));
	xprt_send_raw(rq.x, buf, rq.raw == RAW_SHORT ? 14 : hl + n, &err);
}

/* the raw requester's receive side: RAW_AFTER's nine once a reply came */
static void raw_recv(struct xprt *x, const uint8_t *buf, size_t len, const struct rpcrdma_msg *m,
		     void *arg)
{
	static bool sent;
	uint32_t i;

	(void)x; (void)buf; (void)len; (void)m;
	if (arg && !sent)
		sent = false;
	if ((rq.raw == RAW_AFTER || rq.raw == RAW_BADXID || rq.raw == RAW_SHORT) &&
	    m->rdma_xid == 0x7000) {
		for (i = 1; i < 10; i++)
			raw_call(i);
	}
}

static void start_requester(struct xprt_loop *l, const struct cf_rq_case *cs, void *arg)
{
	struct xprt_opts co;
	struct xprt_handlers ch;
	struct xprt_error err;
	size_t i, n, off, dl;

	(void)cs;
	(void)arg;
	memset(&co, 0, sizeof(co));
	co.misbehave = rq.raw == RQ_NO_FIRST_WAIT ? XPRT_MISBEHAVE_NO_FIRST_WAIT
		       : rq.raw == RQ_IGNORE_GRANT ? XPRT_MISBEHAVE_IGNORE_GRANT : XPRT_MISBEHAVE_NONE;
	if (rq.raw == RQ_SEND_DONE || rq.raw == RQ_SEND_DONE_V2)
		co.misbehave = XPRT_MISBEHAVE_SEND_DONE;
	co.versions = rq.raw == RQ_SEND_DONE ? XPRT_V1 : rq.raw == RQ_SEND_DONE_V2 ? XPRT_V2 : 0;
	co.host = "127.0.0.1";
	co.port = "20049";
	co.verbs = &fake_verbs;
	memset(&ch, 0, sizeof(ch));
	ch.on_recv = raw_recv;
	rq.x = xprt_connect_opts(l, &co, &ch, &err);
	if (!rq.x) {
		tap_diag("connect: %s", err.msg);
		return;
	}
	if (rq.raw == RAW_AFTER || rq.raw == RAW_BADXID || rq.raw == RAW_SHORT) {
		raw_call(0);
		return;
	}
	for (i = 0; i < 10; i++) {
		memset(&rq.c[i], 0, sizeof(rq.c[i]));
		if (rq.raw == RAW_BURST) {
			raw_call((uint32_t)i);
			continue;
		}
		/* our transport's requester: credits kept */
		n = echo_encode_call(rq.msg[i], sizeof(rq.msg[i]), ECHO_PROC_NULL, 0, NULL, 0,
				     &off, &dl);
		rq.c[i].msg = rq.msg[i];
		rq.c[i].len = n;
		rq.c[i].reply_max = 64;
		rq.c[i].done = rq_done;
		rq.c[i].timeout_ms = DEADLINE_MS;
		xprt_call(rq.x, &rq.c[i]);
	}
}

static const struct cf_rq_case *rq_case(const char *name)
{
	for (size_t i = 0; i < cf_rq_ncases; i++)
		if (!strcmp(cf_rq_cases[i].name, name))
			return &cf_rq_cases[i];
	return NULL;
}

/* does grade g match want: NULL PASS, "SKIP", "NOTE D-..." or a FAIL's id
 * (one of the case's own) */
static bool as_wanted(const struct cf_rq_case *c, const struct cf_rq_grade *g, const char *want)
{
	if (!want)
		return g->result == CF_PASS;
	if (!strcmp(want, "SKIP"))
		return g->result == CF_SKIP;
	if (!strncmp(want, "NOTE ", 5))
		return g->result == CF_NOTE && g->decision && !strcmp(g->decision, want + 5);
	return g->result == CF_FAIL && g->req_id && !strcmp(g->req_id, want) &&
	       strstr(c->reqs, g->req_id);
}

static void requester_cases(void)
{
	struct cf_req_opts o = { .host = "127.0.0.1", .port = "20049", .verbs = &fake_verbs,
		.window_ms = 2000, .end_calls = 8, .on_case = start_requester };
	/* what each requester must get, case by case in the table's order:
	 * PASS (NULL), SKIP, a NOTE's decision, or FAIL on this sentence; the
	 * NFS cases SKIP (ECHO calls only: test_nfs_cases drives them) */
	static const char *const want[9][7] = {
		{ NULL, NULL, NULL, "SKIP", "SKIP", "SKIP", "SKIP" },
		{ "V1-4.3.3-first", "V1-4.3.3-first", NULL, "SKIP", "SKIP", "SKIP", "SKIP" },
		{ NULL, "SKIP", NULL, "SKIP", "SKIP", "SKIP", "SKIP" },
		{ "V1-4.3.3-first", "V1-4.3.3-first", NULL, "SKIP", "SKIP", "SKIP", "SKIP" },
		{ NULL, "V1-4.3.1-limit", NULL, "SKIP", "SKIP", "SKIP", "SKIP" },
		{ "-", "-", "V1-5.2.1-xid", "-", "-", "-", "-" },
		{ "-", "-", "NOTE D-RQ-1", "-", "-", "-", "-" },
		{ NULL, NULL, "V1-5.6.2-send", "SKIP", "SKIP", "SKIP", "SKIP" },
		{ "-", "-", "NOTE D-RQ-1", "-", "-", "-", "-" },
	};
	static const char *const mname[] = { "our transport's", "burst", "after-first",
					     "our transport's --misbehave no-first-wait",
					     "our transport's --misbehave ignore-grant",
					     "bad-xid", "short-header",
					     "our transport's --misbehave send-done (V1)",
					     "our transport's --misbehave send-done (V2)" };
	struct cf_req_counts c;
	struct cf_rq_obs ob;
	struct cf_rq_grade g;
	char why[300];
	size_t i;
	int64_t t0;

	if (!tap_ok(cf_rq_ncases == sizeof(want[0]) / sizeof(want[0][0]),
		    "the table has the %zu cases this test expects", cf_rq_ncases))
		return;
	for (int m = RQ_OURS; m <= RQ_SEND_DONE_V2; m++) {
		unsigned right = 0;

		rq.raw = (enum rq_mode)m;
		unsigned ran = 0;

		for (i = 0; i < cf_rq_ncases; i++) {
			if (want[m][i] && !strcmp(want[m][i], "-"))
				continue;            /* "-": not this requester's case */
			ran++;
			fake_verbs_reset();
			memset(&c, 0, sizeof(c));
			t0 = now_ms();
			if (cf_req_run_case(&o, &cf_rq_cases[i], &c, &ob, why, sizeof(why)) < 0)
				tap_diag("%s: %s", cf_rq_cases[i].name, why);
			cf_rq_grade(&cf_rq_cases[i], &ob, &g);
			tap_diag("%s requester, %s: %s%s%s: %s (%lld ms)", mname[m], cf_rq_cases[i].name,
				 cf_result_name(g.result), g.req_id ? " " : "", g.req_id ? g.req_id : "",
				 g.observed, (long long)(now_ms() - t0));
			right += as_wanted(&cf_rq_cases[i], &g, want[m][i]);
		}
		tap_ok(right == ran, "%s requester: %s (%u of %u cases as expected)",
		       mname[m], m == RQ_OURS ? "PASSes every requester case"
		       : m == RAW_BURST ? "ten calls at once FAIL both cases on V1 §4.3.3"
		       : m == RAW_AFTER ? "nine raw calls after the first reply: our transport "
		       "holds them to the grant (rq-grant-1 sees one call: SKIP)"
		       : m == RQ_NO_FIRST_WAIT ? "FAILs both cases, on V1 §4.3.3 (the one call "
		       "before the first reply)"
		       : m == RQ_IGNORE_GRANT ? "PASSes rq-first-one-call (9 out under a grant "
		       "of 32) and FAILs rq-grant-1 on V1 §4.3.1"
		       : m == RAW_BADXID ? "two different xids FAIL rq-calls-valid on V1 §5.2.1"
		       : m == RAW_SHORT ? "a header cut inside rdma_proc: rq-calls-valid is a NOTE "
		       "(D-RQ-1)"
		       : m == RQ_SEND_DONE ? "FAILs rq-calls-valid on V1 §5.6.2 and nothing else "
		       "(the RDMA_DONE is no call: both credit cases PASS)"
		       : "procedure 3 over Version Two: rq-calls-valid is a NOTE (D-RQ-1)",
		       right, ran);
	}
}

/* one case run with o's requester: graded as `want` (as_wanted()); the
 * counts of what was served in *c */
static bool case_graded_as(const struct cf_req_opts *o, const struct cf_rq_case *cs,
			   const char *want, struct cf_req_counts *c)
{
	struct cf_rq_obs ob;
	struct cf_rq_grade g;
	char why[300];

	fake_verbs_reset();
	memset(c, 0, sizeof(*c));
	if (cf_req_run_case(o, cs, c, &ob, why, sizeof(why)) < 0)
		tap_diag("%s: %s", cs->name, why);
	cf_rq_grade(cs, &ob, &g);
	tap_diag("%s: %s%s%s: %s", cs->name, cf_result_name(g.result), g.req_id ? " " : "",
		 g.req_id ? g.req_id : "", g.observed);
	return as_wanted(cs, &g, want);
}

/* ---- the NFS cases: what a READ's write chunk and a reply chunk hold ---- */
/* NFS_GOOD: a READ of 8 KiB with an 8 KiB write chunk, a READDIRPLUS of
 * maxcount 32 KiB with a reply chunk; NFS_SHORT: the READ's write chunk
 * 4 KiB; NFS_NO_REPLY_CHUNK: the READDIRPLUS all inline */
enum nfs_mode { NFS_GOOD = 0, NFS_SHORT, NFS_NO_REPLY_CHUNK };
static struct {
	enum nfs_mode mode;
	struct xprt *x;
	struct xprt_call c[2];
	uint8_t msg[2][256];
} nq;

/* the test-only misbehave mode of nfs_requester()'s transport */
static enum xprt_misbehave nfs_misbehave;

/* a requester of our transport for the NFS cases, over the fake verbs in
 * the case's loop (versions 0: the transport's default); NULL on failure */
static struct xprt *nfs_requester(struct xprt_loop *l, unsigned versions)
{
	struct xprt_opts co;
	struct xprt_handlers ch;
	struct xprt_error err;
	struct xprt *x;

	memset(&co, 0, sizeof(co));
	co.host = "127.0.0.1";
	co.port = "20049";
	co.verbs = &fake_verbs;
	co.max_message = NFS3_SERVE_REPLY_MAX + 4096;
	co.versions = versions;
	co.misbehave = nfs_misbehave;
	memset(&ch, 0, sizeof(ch));
	if (!(x = xprt_connect_opts(l, &co, &ch, &err)))
		tap_diag("connect: %s", err.msg);
	return x;
}

static void start_nfs(struct xprt_loop *l, const struct cf_rq_case *cs, void *arg)
{
	struct xdr_w w;
	size_t n;

	(void)cs;
	(void)arg;
	memset(nq.c, 0, sizeof(nq.c));
	if (!(nq.x = nfs_requester(l, 0)))
		return;
	/* READ 8 KiB of data-1m.bin (fileid 3) at 0 */
	rpc_encode_call(nq.msg[0], sizeof(nq.msg[0]), 0, NFS3_PROG, NFS3_VERS, NFSPROC3_READ);
	n = put_fh(nq.msg[0] + 40, 3);
	w = (struct xdr_w){ nq.msg[0] + 40, 200, n, false };
	xdr_put64(&w, 0);
	xdr_put32(&w, 8192);
	nq.c[0] = (struct xprt_call){ .msg = nq.msg[0], .len = 40 + w.n,
		.reply_max = NFS3_SERVE_REPLY_MAX, .chunk = XPRT_CHUNK_WRITE,
		.reply_ddp_max = nq.mode == NFS_SHORT ? 4096 : 8192, .reply_ddp_pos = read_ddp_pos,
		.timeout_ms = DEADLINE_MS, .done = rq_done };
	/* READDIRPLUS of /many (fileid 6), dircount and maxcount 32 KiB */
	rpc_encode_call(nq.msg[1], sizeof(nq.msg[1]), 0, NFS3_PROG, NFS3_VERS, NFSPROC3_READDIRPLUS);
	n = put_fh(nq.msg[1] + 40, 6);
	w = (struct xdr_w){ nq.msg[1] + 40, 200, n, false };
	xdr_put64(&w, 0);
	xdr_put64(&w, 0);
	xdr_put32(&w, 32768);
	xdr_put32(&w, 32768);
	nq.c[1] = (struct xprt_call){ .msg = nq.msg[1], .len = 40 + w.n,
		.reply_max = NFS3_SERVE_REPLY_MAX,
		.chunk = nq.mode == NFS_NO_REPLY_CHUNK ? XPRT_CHUNK_INLINE : XPRT_CHUNK_REPLY,
		.timeout_ms = DEADLINE_MS, .done = rq_done };
	xprt_call(nq.x, &nq.c[0]);
	xprt_call(nq.x, &nq.c[1]);
}

static void nfs_cases(void)
{
	struct cf_req_opts o = { .host = "127.0.0.1", .port = "20049", .verbs = &fake_verbs,
		.window_ms = 1000, .end_calls = 2, .on_case = start_nfs };
	static const char *const want[3][2] = {
		{ NULL, NULL },
		{ "V1-4.4.6-register", NULL },
		{ NULL, "V1-5.3.3-provide" },
	};
	static const char *const mname[] = { "READ with an 8 KiB write chunk, READDIRPLUS with "
		"a reply chunk: both PASS", "READ of 8 KiB with a 4 KiB write chunk: FAIL on "
		"V1 §4.4.6", "READDIRPLUS of 32 KiB with no reply chunk: FAIL on V1 §5.3.3" };
	const struct cf_rq_case *cs[2] = { rq_case("rq-read-write-chunk"), rq_case("rq-reply-chunk") };
	struct cf_req_counts c;

	for (int m = NFS_GOOD; m <= NFS_NO_REPLY_CHUNK; m++) {
		unsigned right = 0;

		nq.mode = (enum nfs_mode)m;
		for (int i = 0; i < 2; i++)
			right += cs[i] && case_graded_as(&o, cs[i], want[m][i], &c);
		tap_ok(right == 2, "%s (%u of 2 as expected)", mname[m], right);
	}
}

/* ---- the ECHO forms of rq-read-write-chunk and rq-reply-chunk: ECHO
 * calls as rpcrdma-echo's client makes them (tools/echo/client.c:
 * echo_encode_call(), echo_reply_max(), echo_reply_ddp_max(), the --chunk
 * mode) ---- */
/* EC_GOOD: ECHO 4097 bytes with --chunk write (a 4097-byte write chunk),
 * ECHO 4097 with --chunk reply (a reply chunk: the reply may take 4128
 * bytes, over the requester's 4096), ECHO 64 (neither), NULL: both PASS;
 * EC_SHORT: the write chunk 4096 bytes for 4097 asked back (FAIL on V1
 * 4.4.6, the reply-chunk case still PASS); EC_NO_REPLY_CHUNK: the second
 * call's reply sizes hidden from the transport (reply_max 64), so it goes
 * with neither chunk (FAIL on V1 5.3.3, the write-chunk case PASS);
 * EC_KEEP_PAD: our transport with --misbehave keep-read-pad, whose 4097-byte
 * calls travel in read chunks with the pad left in the stream (the
 * responder answers GARBAGE_ARGS): graded all the same on what their
 * length word asks back, both PASS; EC_V1_DEFAULT: Version One, no private
 * data from the requester (threshold 1024: V1 4.3.3), ECHO 2000 bytes with
 * --chunk write and with --chunk reply: both PASS, the 2000 bytes' reply
 * counted as over the threshold */
enum echo_mode { EC_GOOD = 0, EC_SHORT, EC_NO_REPLY_CHUNK, EC_KEEP_PAD, EC_V1_DEFAULT };
#define EC_CALLS 4
static struct {
	enum echo_mode mode;
	struct xprt *x;
	struct xprt_call c[EC_CALLS];
	uint8_t msg[EC_CALLS][4200];
} eq;

static void echo_call_init(struct xprt_call *c, uint8_t *msg, enum echo_proc proc, uint32_t size,
			   enum xprt_chunk_mode chunk)
{
	size_t off, dl, n = echo_encode_call(msg, sizeof(eq.msg[0]), proc, 0, NULL, size, &off, &dl);

	memset(msg + off, 'e', size);
	*c = (struct xprt_call){ .msg = msg, .len = n, .ddp_off = off, .ddp_len = dl,
		.reply_max = echo_reply_max(proc, size),
		.reply_ddp_max = echo_reply_ddp_max(proc, size),
		.reply_ddp_pos = proc == ECHO_PROC_ECHO ? echo_reply_ddp_pos : NULL,
		.chunk = chunk, .timeout_ms = DEADLINE_MS, .done = rq_done };
}

static void start_echo(struct xprt_loop *l, const struct cf_rq_case *cs, void *arg)
{
	struct xprt_opts co;
	struct xprt_handlers ch;
	struct xprt_error err;
	uint32_t big = eq.mode == EC_V1_DEFAULT ? 2000 : 4097;

	(void)cs;
	(void)arg;
	memset(&co, 0, sizeof(co));
	co.host = "127.0.0.1";
	co.port = "20049";
	co.verbs = &fake_verbs;
	co.misbehave = eq.mode == EC_KEEP_PAD ? XPRT_MISBEHAVE_KEEP_READ_PAD : XPRT_MISBEHAVE_NONE;
	co.versions = eq.mode == EC_V1_DEFAULT ? XPRT_V1 : 0;
	co.no_private_data = eq.mode == EC_V1_DEFAULT;
	memset(&ch, 0, sizeof(ch));
	if (!(eq.x = xprt_connect_opts(l, &co, &ch, &err))) {
		tap_diag("connect: %s", err.msg);
		return;
	}
	echo_call_init(&eq.c[0], eq.msg[0], ECHO_PROC_NULL, 0, XPRT_CHUNK_AUTO);
	echo_call_init(&eq.c[1], eq.msg[1], ECHO_PROC_ECHO, big, XPRT_CHUNK_WRITE);
	echo_call_init(&eq.c[2], eq.msg[2], ECHO_PROC_ECHO, big, XPRT_CHUNK_REPLY);
	echo_call_init(&eq.c[3], eq.msg[3], ECHO_PROC_ECHO, 64, XPRT_CHUNK_AUTO);
	if (eq.mode == EC_SHORT)
		eq.c[1].reply_ddp_max = big - 1;
	if (eq.mode == EC_NO_REPLY_CHUNK) {
		eq.c[2].chunk = XPRT_CHUNK_READ;
		eq.c[2].reply_max = 64;
		eq.c[2].reply_ddp_max = 0;
	}
	for (int i = 0; i < EC_CALLS; i++)
		xprt_call(eq.x, &eq.c[i]);
}

static void echo_cases(void)
{
	struct cf_req_opts o = { .host = "127.0.0.1", .port = "20049", .verbs = &fake_verbs,
		.window_ms = 1000, .end_calls = EC_CALLS, .on_case = start_echo };
	static const char *const want[5][2] = {
		{ NULL, NULL },
		{ "V1-4.4.6-register", NULL },
		{ NULL, "V1-5.3.3-provide" },
		{ NULL, NULL },
		{ NULL, NULL },
	};
	static const char *const mname[] = {
		"ECHO 4097 bytes with a 4097-byte write chunk, and with a reply chunk: both PASS",
		"ECHO 4097 bytes with a 4096-byte write chunk: FAIL on V1 4.4.6 (the reply-chunk "
		"case PASS)",
		"ECHO 4097 bytes with neither chunk: FAIL on V1 5.3.3 (the write-chunk case PASS)",
		"--misbehave keep-read-pad (its 4097-byte calls answered GARBAGE_ARGS): graded on "
		"their length words, both PASS",
		"Version One without private data (threshold 1024): ECHO 2000 bytes with a write "
		"chunk, and with a reply chunk: both PASS" };
	const struct cf_rq_case *cs[2] = { rq_case("rq-read-write-chunk"), rq_case("rq-reply-chunk") };

	for (int m = EC_GOOD; m <= EC_V1_DEFAULT; m++) {
		unsigned right = 0;
		uint64_t chunked = 0, big = 0;

		eq.mode = (enum echo_mode)m;
		for (int i = 0; i < 2; i++) {
			struct cf_req_counts c;
			struct cf_rq_obs ob;
			struct cf_rq_grade g;
			char why[300];

			if (!cs[i])
				continue;
			fake_verbs_reset();
			memset(&c, 0, sizeof(c));
			if (cf_req_run_case(&o, cs[i], &c, &ob, why, sizeof(why)) < 0)
				tap_diag("%s: %s", cs[i]->name, why);
			cf_rq_grade(cs[i], &ob, &g);
			tap_diag("%s: %s%s%s: %s", cs[i]->name, cf_result_name(g.result),
				 g.req_id ? " " : "", g.req_id ? g.req_id : "", g.observed);
			right += as_wanted(cs[i], &g, want[m][i]);
			/* every write chunk and big reply counted was an ECHO call's */
			right += ob.echo_chunked == ob.reads_chunked && ob.echo_big == ob.big_replies;
			if (i == 0)
				chunked = ob.echo_chunked;
			else
				big = ob.echo_big;
		}
		/* one ECHO with a write chunk; one reply over the threshold
		 * (the --chunk reply call), none where a write chunk takes the
		 * data */
		tap_ok(right == 4 && chunked == 1 && big == 1, "%s (%u of 4 as expected; %llu "
		       "ECHO call(s) with a write chunk, %llu over the threshold)", mname[m], right,
		       (unsigned long long)chunked, (unsigned long long)big);
	}
}

/* ---- rq-inline-default: a call larger than 1024 bytes to a responder
 * that announces no inline threshold ---- */
/* an NFSv3 SYMLINK of a 2001-byte path (the export answers NFS3ERR_ROFS):
 * INL_AUTO the transport's choice (a read chunk: the call does not fit in
 * 1024), INL_READ the path in a read chunk at its position, INL_FORCED
 * the whole call inline (over 2 KiB: FAIL on V1 4.3.3) */
enum inl_mode { INL_AUTO = 0, INL_READ, INL_FORCED };
#define INL_PATH 2001u
static struct {
	enum inl_mode mode;
	struct xprt *x;
	struct xprt_call c;
	uint8_t msg[2400];
} iq;

static void start_inline(struct xprt_loop *l, const struct cf_rq_case *cs, void *arg)
{
	static uint8_t path[INL_PATH];
	struct xdr_w w;
	size_t n, at;

	(void)cs;
	(void)arg;
	memset(&iq.c, 0, sizeof(iq.c));
	memset(path, 'p', sizeof(path));
	/* Version One, as the Linux client: 1024 to assume */
	if (!(iq.x = nfs_requester(l, XPRT_V1)))
		return;
	/* SYMLINK3args: where (the root's handle, name "l"), symlink_attributes
	 * (six "not set" discriminants), symlink_data (the path) */
	rpc_encode_call(iq.msg, sizeof(iq.msg), 0, NFS3_PROG, NFS3_VERS, 10);
	n = put_fh(iq.msg + 40, 1);
	w = (struct xdr_w){ iq.msg + 40, sizeof(iq.msg) - 40, n, false };
	xdr_put_opaque(&w, "l", 1);
	for (int i = 0; i < 6; i++)
		xdr_put32(&w, 0);
	at = 40 + w.n + 4;
	xdr_put_opaque(&w, path, sizeof(path));
	iq.c = (struct xprt_call){ .msg = iq.msg, .len = 40 + w.n, .reply_max = 1024,
		.chunk = iq.mode == INL_FORCED ? XPRT_CHUNK_INLINE
			 : iq.mode == INL_READ ? XPRT_CHUNK_READ : XPRT_CHUNK_AUTO,
		.ddp_off = iq.mode == INL_READ ? at : 0, .ddp_len = iq.mode == INL_READ ? INL_PATH : 0,
		.timeout_ms = DEADLINE_MS, .done = rq_done };
	xprt_call(iq.x, &iq.c);
}

static void inline_cases(void)
{
	struct cf_req_opts o = { .host = "127.0.0.1", .port = "20049", .verbs = &fake_verbs,
		.window_ms = 1000, .end_calls = 1, .on_case = start_inline };
	static const char *const want[3] = { NULL, NULL, "V1-4.3.3-assume" };
	static const char *const mname[] = {
		"a SYMLINK of a 2001-byte path as the transport sends it (a read chunk): PASS",
		"the path in a read chunk at its position: PASS",
		"the whole 2 KiB call inline, past the 1024 bytes to assume: FAIL on V1 4.3.3" };
	const struct cf_rq_case *cs = rq_case("rq-inline-default");
	struct cf_req_counts c;

	if (!tap_ok(cs && cs->no_private_data, "rq-inline-default's listener sends no private data"))
		return;
	for (int m = INL_AUTO; m <= INL_FORCED; m++) {
		iq.mode = (enum inl_mode)m;
		tap_ok(case_graded_as(&o, cs, want[m], &c) && c.nfs[10] == 1, "%s", mname[m]);
	}
}

/* ---- rq-read-chunks: an NFSv3 WRITE to /sink with its data in a read
 * chunk ---- */
/* RC_GOOD: our transport's requester, the 4097 bytes in a read chunk at
 * their position (PASS); the raw requester, one RDMA_MSG WRITE call whose
 * data is "in" a read chunk of a handle nobody registered (the grade is
 * made before the responder reads it): RC_PAD keeps the item's 3 pad
 * bytes in the Payload stream (V1 4.4.5.1), RC_COUNT's chunk holds 1000
 * bytes for a count of 4097 (V1 4.4.4.1), RC_POS puts the chunk past the
 * stream's end (V1 4.4.5); RC_KEEP_PAD is our transport again, with the
 * test-only misbehave mode keep-read-pad (rpcrdma-echo --misbehave
 * keep-read-pad): the pad left in the stream by the transport itself */
enum rc_mode { RC_GOOD = 0, RC_PAD, RC_COUNT, RC_POS, RC_KEEP_PAD };
#define RC_DATA 4097u
static struct {
	enum rc_mode mode;
	struct xprt *x;
	struct xprt_call c;
	uint8_t msg[4400];
} wq;

/* the RPC WRITE call to /sink up to and with its data's length word:
 * its length */
static size_t write_call(uint8_t *b, size_t cap)
{
	struct xdr_w w;
	size_t n;

	rpc_encode_call(b, cap, 0, NFS3_PROG, NFS3_VERS, NFSPROC3_WRITE);
	n = put_fh(b + 40, NFS3_TREE_SINK);
	w = (struct xdr_w){ b + 40, cap - 40, n, false };
	xdr_put64(&w, 0);
	xdr_put32(&w, RC_DATA);
	xdr_put32(&w, NFS3_UNSTABLE);
	xdr_put32(&w, RC_DATA);
	return 40 + w.n;
}

static void raw_write(void)
{
	struct rpcrdma_read_segment seg = { .rdma_position = 0, .rdma_target = {
		.rdma_handle = 0x5eed, .rdma_length = RC_DATA, .rdma_offset = 0x10000 } };
	struct rpcrdma_hdr h = { .rdma_xid = 0x7100, .rdma_vers = 1, .rdma_credit = 32,
		.rdma_proc = RDMA_MSG, .reads = &seg, .nreads = 1 };
	struct xprt_error err;
	uint8_t buf[512];
	size_t hl, n;

	n = write_call(wq.msg, sizeof(wq.msg));
	seg.rdma_position = wq.mode == RC_POS ? (uint32_t)n + 64 : (uint32_t)n;
	if (wq.mode == RC_COUNT)
		seg.rdma_target.rdma_length = 1000;
	if (wq.mode == RC_PAD) {
		memset(wq.msg + n, 0, 3);
		n += 3;
	}
	hl = rpcrdma_encode(&h, buf, sizeof(buf), NULL);
	be32_put(wq.msg, h.rdma_xid);
	if (!hl || hl + n > sizeof(buf)) {
		tap_diag("raw WRITE: no room");
		return;
	}
	memcpy(buf + hl, wq.msg, n);
	xprt_send_raw(wq.x, buf, hl + n, &err);
}

static void start_write(struct xprt_loop *l, const struct cf_rq_case *cs, void *arg)
{
	size_t n;

	(void)cs;
	(void)arg;
	memset(&wq.c, 0, sizeof(wq.c));
	nfs_misbehave = wq.mode == RC_KEEP_PAD ? XPRT_MISBEHAVE_KEEP_READ_PAD : XPRT_MISBEHAVE_NONE;
	wq.x = nfs_requester(l, XPRT_V1);
	nfs_misbehave = XPRT_MISBEHAVE_NONE;
	if (!wq.x)
		return;
	if (wq.mode != RC_GOOD && wq.mode != RC_KEEP_PAD) {
		raw_write();
		return;
	}
	n = write_call(wq.msg, sizeof(wq.msg));
	memset(wq.msg + n, 'w', RC_DATA);
	memset(wq.msg + n + RC_DATA, 0, 3);
	wq.c = (struct xprt_call){ .msg = wq.msg, .len = n + RC_DATA + 3, .reply_max = 1024,
		.chunk = XPRT_CHUNK_READ, .ddp_off = n, .ddp_len = RC_DATA,
		.timeout_ms = DEADLINE_MS, .done = rq_done };
	xprt_call(wq.x, &wq.c);
}

static void read_chunk_cases(void)
{
	struct cf_req_opts o = { .host = "127.0.0.1", .port = "20049", .verbs = &fake_verbs,
		.window_ms = 600, .end_calls = 1, .on_case = start_write };
	static const char *const want[5] = { NULL, "V1-4.4.5.1-pad", "V1-4.4.4.1-count",
					     "V1-4.4.5-position", "V1-4.4.5.1-pad" };
	static const char *const mname[] = {
		"a WRITE of 4097 bytes to /sink, its data in a read chunk (our transport): PASS, "
		"the sink answered",
		"the item's 3 pad bytes left in the Payload stream: FAIL on V1 4.4.5.1",
		"a read chunk of 1000 bytes for a count of 4097: FAIL on V1 4.4.4.1",
		"a read chunk past the Payload stream's end: FAIL on V1 4.4.5",
		"our transport with --misbehave keep-read-pad (the pad left in the stream): FAIL "
		"on V1 4.4.5.1, the sink still answered" };
	const struct cf_rq_case *cs = rq_case("rq-read-chunks");
	struct cf_req_counts c;

	if (!tap_ok(cs != NULL, "the table has rq-read-chunks"))
		return;
	for (int m = RC_GOOD; m <= RC_KEEP_PAD; m++) {
		wq.mode = (enum rc_mode)m;
		tap_ok(case_graded_as(&o, cs, want[m], &c) &&
		       ((m != RC_GOOD && m != RC_KEEP_PAD) || c.nfs[NFSPROC3_WRITE] == 1),
		       "%s", mname[m]);
	}
}


/* ---- issue 26 item 2: the fault cases (--requester --faults) ----
 * Each fault with a requester that keeps the rules (our transport's: it
 * PASSes) and raw ones of our own that break them: FAIL on the credit
 * sentences, or the NOTE of the decision where no sentence binds.  The raw
 * requester sends call 0 alone, then per mode:
 *   FQ_BURST_FIRST  every call at once, before any reply (V1 4.3.3)
 *   FQ_BURST_AFTER  the rest at once when call 0's reply came
 *   FQ_ON_GRANT2    the rest at once when a reply granting 2 came
 *   FQ_PIPE2        two out, one more per reply it gets (the stray too:
 *                   FQ_PIPE2_SANE ignores a reply for no call of its own)
 *   FQ_RESEND_ERR   an RDMA_ERROR's xid sent again, then one GETATTR
 * its calls ECHO NULL (FQ_NFS: NFSv3 GETATTR of /, READ of 16 KiB for
 * call 0 when fq.read0) */
enum fq_mode { FQ_OURS = 0, FQ_BURST_FIRST, FQ_BURST_AFTER, FQ_ON_GRANT2, FQ_PIPE2,
	       FQ_PIPE2_SANE, FQ_RESEND_ERR };
#define FQ_N 20u
static struct {
	enum fq_mode mode;
	bool nfs, cont, more_sent;
	uint32_t read_i;               /* NFS: which call is the READ (FQ_N: none) */
	int settle_ms;                 /* rq-grant-shrink's window (-1: none) */
	uint32_t asked, total, sent, believed_out;
	struct xprt *x;
	struct xprt_call c[FQ_N];
	uint8_t msg[FQ_N][200];
} fq;

/* call i of the raw requester: its RPC message into b (ECHO NULL, or
 * NFSv3: a READ of 16 KiB of data-1m.bin for call 0 with fq.read0, else a
 * GETATTR of /); its length */
static size_t fq_msg(uint32_t i, uint32_t xid, uint8_t *b, size_t cap)
{
	size_t off, dl, n;
	struct xdr_w w;

	if (!fq.nfs)
		return echo_encode_call(b, cap, ECHO_PROC_NULL, 0, NULL, 0, &off, &dl);
	if (cap < 150)
		return 0;
	rpc_encode_call(b, cap, xid, NFS3_PROG, NFS3_VERS,
			i == fq.read_i || (i == 1 && fq.cont) ? NFSPROC3_READ : NFSPROC3_GETATTR);
	if (i == fq.read_i || (i == 1 && fq.cont)) {
		/* fq.cont: call 1 reads on where a half-answered call 0 stopped */
		n = put_fh(b + 40, 3);
		w = (struct xdr_w){ b + 40, 150, n, false };
		xdr_put64(&w, i ? 8192 : 0);
		xdr_put32(&w, i ? 8192 : 16384);
		return 40 + w.n;
	}
	return 40 + put_fh(b + 40, NFS3_TREE_ROOT);
}

static void fq_raw(uint32_t i, uint32_t xid)
{
	struct rpcrdma_hdr h = { .rdma_xid = xid, .rdma_vers = 1, .rdma_credit = fq.asked,
		.rdma_proc = RDMA_MSG };
	struct xprt_error err;
	uint8_t buf[300];
	size_t hl = rpcrdma_encode(&h, buf, sizeof(buf), NULL), n;

	n = hl ? fq_msg(i, xid, buf + hl, sizeof(buf) - hl) : 0;
	if (!n)
		return;
	be32_put(buf + hl, xid);
	xprt_send_raw(fq.x, buf, hl + n, &err);
}

static void fq_more(void)
{
	while (fq.sent < fq.total) {
		fq_raw(fq.sent, 0x9000 + fq.sent);
		fq.sent++;
	}
}

static void fq_recv(struct xprt *x, const uint8_t *buf, size_t len, const struct rpcrdma_msg *m,
		    void *arg)
{
	bool ours = m->rdma_xid >= 0x9000 && m->rdma_xid < 0x9000 + fq.sent;

	(void)x; (void)buf; (void)len; (void)arg;
	switch (fq.mode) {
	case FQ_BURST_AFTER:
		if (m->rdma_xid == 0x9000)
			fq_more();
		break;
	case FQ_ON_GRANT2:
		/* nine at once after the first reply (the shrink comes), the
		 * rest at once when a grant of 2 came */
		if (m->rdma_xid == 0x9000)
			while (fq.sent < 10 && fq.sent < fq.total) {
				fq_raw(fq.sent, 0x9000 + fq.sent);
				fq.sent++;
			}
		if (m->nfixed >= 3 && m->rdma_credit == 2 && !fq.more_sent) {
			fq.more_sent = true;
			fq_more();
		}
		break;
	case FQ_PIPE2:
	case FQ_PIPE2_SANE:
		if (fq.mode == FQ_PIPE2_SANE && !ours)
			break;
		if (fq.believed_out)
			fq.believed_out--;
		while (fq.believed_out < 2 && fq.sent < fq.total) {
			fq_raw(fq.sent, 0x9000 + fq.sent);
			fq.sent++;
			fq.believed_out++;
		}
		break;
	case FQ_RESEND_ERR:
		if (m->nfixed >= 4 && m->rdma_proc == RDMA_ERROR && m->rdma_xid == 0x9000 &&
		    !fq.more_sent) {
			fq.more_sent = true;
			fq_raw(0, 0x9000);            /* the same xid again */
			fq_raw(1, 0x9001);
			fq.sent = 2;
		}
		break;
	default:
		break;
	}
}

/* our transport's requester: call i queued (xprt_call keeps to the grant) */
static void fq_ours(uint32_t i)
{
	size_t n = fq_msg(i, 0, fq.msg[i], sizeof(fq.msg[i]));

	memset(&fq.c[i], 0, sizeof(fq.c[i]));
	fq.c[i] = (struct xprt_call){ .msg = fq.msg[i], .len = n,
		.reply_max = 512, .timeout_ms = DEADLINE_MS, .done = rq_done };
	if (fq.nfs && i == fq.read_i) {
		fq.c[i].reply_max = NFS3_SERVE_REPLY_MAX;
		fq.c[i].chunk = XPRT_CHUNK_WRITE;
		fq.c[i].reply_ddp_max = 16384;
		fq.c[i].reply_ddp_pos = read_ddp_pos;
	}
	xprt_call(fq.x, &fq.c[i]);
}

/* our transport's requester, the shrink case: ten more calls once a reply
 * granting 2 came (it sends them as the grant allows) */
static void fq_ours_recv(struct xprt *x, const uint8_t *buf, size_t len,
			 const struct rpcrdma_msg *m, void *arg)
{
	(void)x; (void)buf; (void)len; (void)arg;
	if (m->nfixed >= 3 && m->rdma_credit == 2 && !fq.more_sent && fq.total > 10) {
		fq.more_sent = true;
		for (uint32_t i = 10; i < fq.total; i++)
			fq_ours(i);
	}
}

static void start_fault(struct xprt_loop *l, const struct cf_rq_case *cs, void *arg)
{
	struct xprt_opts co;
	struct xprt_handlers ch;
	struct xprt_error err;
	uint32_t i;

	(void)cs;
	(void)arg;
	memset(&co, 0, sizeof(co));
	co.host = "127.0.0.1";
	co.port = "20049";
	co.verbs = &fake_verbs;
	co.max_message = NFS3_SERVE_REPLY_MAX + 4096;
	co.credits = fq.asked;
	/* Version One, as the Linux client: a Version Two requester may send
	 * a call again in Version One after ERR_VERS (V2 5), ours does */
	co.versions = XPRT_V1;
	memset(&ch, 0, sizeof(ch));
	ch.on_recv = fq.mode == FQ_OURS ? fq_ours_recv : fq_recv;
	fq.sent = 0;
	fq.more_sent = false;
	fq.believed_out = 0;
	if (!(fq.x = xprt_connect_opts(l, &co, &ch, &err))) {
		tap_diag("connect: %s", err.msg);
		return;
	}
	if (fq.mode == FQ_OURS) {
		/* ten calls (the shrink case: ten more later); the READ and the
		 * short-read case's continuation are queued by the caller */
		for (i = 0; i < (fq.total > 10 ? 10 : fq.total); i++)
			fq_ours(i);
		return;
	}
	if (fq.mode == FQ_BURST_FIRST) {
		fq_more();
		return;
	}
	fq_raw(0, 0x9000);
	fq.sent = 1;
	fq.believed_out = 1;
}

static const struct cf_rq_case *fault_case(const char *name)
{
	for (size_t i = 0; i < cf_rq_nfault_cases; i++)
		if (!strcmp(cf_rq_fault_cases[i].name, name))
			return &cf_rq_fault_cases[i];
	return NULL;
}

/* one fault case with the requester fq describes: graded as want */
static bool fault_as(const char *name, enum fq_mode mode, bool nfs_calls, uint32_t read_i, uint32_t asked,
		     uint32_t total, const char *want, const char *what)
{
	struct cf_req_opts o = { .host = "127.0.0.1", .port = "20049", .verbs = &fake_verbs,
		.window_ms = 1500, .end_calls = total, .on_case = start_fault,
		.settle_ms = fq.settle_ms ? fq.settle_ms : -1 };
	const struct cf_rq_case *cs = fault_case(name);
	struct cf_req_counts c;
	struct cf_rq_obs ob;
	struct cf_rq_grade g;
	char why[300];
	bool ok;

	if (!cs)
		return tap_ok(false, "%s: in the fault table", name);
	fq.mode = mode;
	fq.nfs = nfs_calls;
	fq.read_i = read_i;
	fq.asked = asked;
	fq.total = total;
	fake_verbs_reset();
	memset(&c, 0, sizeof(c));
	if (cf_req_run_case(&o, cs, &c, &ob, why, sizeof(why)) < 0)
		tap_diag("%s: %s", name, why);
	cf_rq_grade(cs, &ob, &g);
	ok = as_wanted(cs, &g, want);
	return tap_ok(ok, "%s, %s: %s%s%s (%s)", name, what, cf_result_name(g.result),
		      g.req_id ? " " : g.decision ? " " : "",
		      g.req_id ? g.req_id : g.decision ? g.decision : "", g.observed);
}

static void fault_cases(void)
{
	tap_ok(cf_rq_nfault_cases == 7, "the fault table: %zu cases", cf_rq_nfault_cases);
	/* a grant shrunk from 32 to 2 once 3 calls were out */
	fault_as("rq-grant-shrink", FQ_OURS, false, FQ_N, 32, 20, NULL,
		 "our transport's requester, ten calls, ten more once a grant of 2 came");
	fault_as("rq-grant-shrink", FQ_ON_GRANT2, false, FQ_N, 32, 20, "V1-4.3.1-limit",
		 "a raw one sending 19 at once on seeing a grant of 2");
	/* the same, the shrink's window 10 s: the 10 calls sent at once on
	 * the grant of 2 are taken as crossing that reply (D-RQF-1), against 32 */
	fq.settle_ms = 10000;
	fault_as("rq-grant-shrink", FQ_ON_GRANT2, false, FQ_N, 32, 20, "SKIP",
		 "the same raw one, every call within a 10 s window after the shrink");
	fq.settle_ms = 0;
	fault_as("rq-grant-shrink", FQ_BURST_FIRST, false, FQ_N, 32, 10, "V1-4.3.3-first",
		 "ten calls before any reply");
	/* a grant of 256, more than asked */
	fault_as("rq-grant-grow", FQ_OURS, false, FQ_N, 32, 10, NULL,
		 "our transport's requester asking 32, ten calls");
	fault_as("rq-grant-grow", FQ_BURST_AFTER, false, FQ_N, 4, 10, "NOTE D-RQF-2",
		 "a raw one asking 4, nine calls at once after the first reply");
	fault_as("rq-grant-grow", FQ_BURST_AFTER, false, FQ_N, 300, 10, "SKIP",
		 "a raw one asking 300, more than the grant");
	/* a grant of 0 */
	fault_as("rq-grant-0", FQ_OURS, false, FQ_N, 32, 6, NULL,
		 "our transport's requester (0 read as 1), six calls");
	fault_as("rq-grant-0", FQ_BURST_AFTER, false, FQ_N, 32, 6, "NOTE D-RQF-3",
		 "a raw one sending five at once after the first reply");
	fault_as("rq-grant-0", FQ_BURST_FIRST, false, FQ_N, 32, 6, "V1-4.3.3-first",
		 "six calls before any reply");
	/* RDMA_ERROR in place of the first READ's reply */
	fault_as("rq-err-vers", FQ_OURS, true, 0, 32, 4, NULL,
		 "our transport's requester: a READ (ERR_VERS), three GETATTRs");
	fault_as("rq-err-vers", FQ_RESEND_ERR, true, 0, 32, 3, "NOTE D-RQF-4",
		 "a raw one sending the READ's xid again after ERR_VERS");
	fault_as("rq-err-badheader", FQ_OURS, true, 0, 32, 4, NULL,
		 "our transport's requester: a READ (ERR_BADHEADER), three GETATTRs");
	fault_as("rq-err-badheader", FQ_RESEND_ERR, true, 0, 32, 3, "NOTE D-RQF-4",
		 "a raw one sending the READ's xid again after ERR_BADHEADER");
	fault_as("rq-err-badheader", FQ_BURST_FIRST, true, 1, 32, 4, "V1-4.3.3-first",
		 "a GETATTR, a READ and two GETATTRs before any reply");
	fault_as("rq-err-vers", FQ_OURS, false, FQ_N, 32, 4, "SKIP",
		 "ECHO calls only: no READ to answer with an error");
	/* a reply for no call, under a grant of 2 */
	fault_as("rq-stray-xid", FQ_OURS, true, FQ_N, 32, 8, NULL,
		 "our transport's requester, eight GETATTRs");
	fault_as("rq-stray-xid", FQ_PIPE2_SANE, true, FQ_N, 32, 8, NULL,
		 "a raw one keeping two out, a reply for no call of its own ignored");
	fault_as("rq-stray-xid", FQ_PIPE2, true, FQ_N, 32, 8, "V1-4.3.1-limit",
		 "a raw one keeping two out that takes the stray reply as one of its own");
	/* the first READ of 16 KiB answered with 8 KiB */
	fq.cont = true;
	fault_as("rq-write-short", FQ_OURS, true, 0, 32, 3, NULL,
		 "our transport's requester: a READ of 16 KiB, one at 8192, a GETATTR");
	fq.cont = false;
	fault_as("rq-write-short", FQ_OURS, true, 0, 32, 3, "NOTE D-RQF-6",
		 "our transport's requester: a READ of 16 KiB, no READ where it stopped");
	/* the graders alone: a call past the grant after a short READ, a
	 * stray reply or an error FAILs; after a shrink, against the smaller */
	{
		struct cf_rq_obs o = { .grant = 32, .calls = 6, .replies = 5 };
		struct cf_rq_grade g;
		static const char *const names[] = { "rq-write-short", "rq-stray-xid",
						     "rq-err-vers", "rq-grant-grow" };

		o.f.injected = true;
		o.f.over = 1;
		o.f.max_asked = 32;
		for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
			cf_rq_grade(fault_case(names[i]), &o, &g);
			tap_ok(g.result == CF_FAIL && g.req_id && !strcmp(g.req_id, "V1-4.3.1-limit") &&
			       cf_req_find(g.req_id), "%s: a call past the grant in effect: FAIL on "
			       "V1-4.3.1-limit (%s)", names[i], g.observed);
		}
		o = (struct cf_rq_obs){ .grant = 2, .calls = 9, .replies = 8 };
		o.f.shrunk = true;
		o.f.shrunk_out = 4;
		o.f.shrink_ms = 1;
		o.f.after = 3;
		o.f.crossing = 2;
		o.f.max_out_after = 3;
		o.f.over_after = 1;
		cf_rq_grade(fault_case("rq-grant-shrink"), &o, &g);
		tap_ok(g.result == CF_FAIL && !strcmp(g.req_id, "V1-4.3.1-limit"),
		       "rq-grant-shrink: 3 out once the grant of 2 could be seen: FAIL (%s)",
		       g.observed);
		o.f.over_after = 0;
		o.f.max_out_after = 2;
		cf_rq_grade(fault_case("rq-grant-shrink"), &o, &g);
		tap_ok(g.result == CF_PASS, "... 2 out then: PASS (%s)", g.observed);
		for (size_t i = 0; i < cf_rq_nfault_cases; i++) {
			char ids[128], *save = NULL, *id;
			bool all = true;

			snprintf(ids, sizeof(ids), "%s", cf_rq_fault_cases[i].reqs);
			for (id = strtok_r(ids, ",", &save); id; id = strtok_r(NULL, ",", &save))
				all &= cf_req_find(id) &&
				       !strcmp(cf_req_find(id)->party, "requester");
			tap_ok(all, "%s: every requirement id is a requester's sentence of the "
			       "catalogue", cf_rq_fault_cases[i].name);
		}
	}
}

/* the grader alone, on observations: every verdict it can give */
static void grader_fails(void)
{
	const struct cf_rq_case *g1 = &cf_rq_cases[1];
	struct cf_rq_obs o = { .grant = 1, .calls = 10, .replies = 9, .max_outstanding = 2,
			       .over_grant = 1 };
	struct cf_rq_grade g;

	cf_rq_grade(g1, &o, &g);
	tap_ok(g.result == CF_FAIL && g.req_id && !strcmp(g.req_id, "V1-4.3.1-limit") &&
	       cf_req_find(g.req_id), "one call past a grant of 1: FAIL on V1-4.3.1-limit, in the catalogue");
	o.before_first = 1;
	cf_rq_grade(g1, &o, &g);
	tap_ok(g.result == CF_FAIL && !strcmp(g.req_id, "V1-4.3.3-first") && cf_req_find(g.req_id),
	       "a second call before the first reply: FAIL on V1-4.3.3-first");
	o = (struct cf_rq_obs){ .grant = 1, .calls = 2 };
	cf_rq_grade(g1, &o, &g);
	tap_ok(g.result == CF_SKIP && !g.req_id, "2 calls (3 needed): SKIP, no requester drove it");
	/* every libcodec reason: a sentence of the case (FAIL) or D-RQ-1 (NOTE) */
	{
		const struct cf_rq_case *v = rq_case("rq-calls-valid");
		unsigned good = 0, fails = 0;

		for (int r = RPCRDMA_R_SHORT_PREFIX; r < RPCRDMA_R_COUNT_; r++) {
			o = (struct cf_rq_obs){ .grant = 32, .calls = 5, .sent = 5, .bad = 1,
						.bad_reason = (enum rpcrdma_reason)r };
			cf_rq_grade(v, &o, &g);
			fails += g.result == CF_FAIL;
			good += g.result == CF_FAIL ? g.req_id && cf_req_find(g.req_id) &&
				strstr(v->reqs, g.req_id) != NULL
				: g.result == CF_NOTE && g.decision && !strcmp(g.decision, "D-RQ-1");
		}
		tap_ok(good == RPCRDMA_R_COUNT_ - 1 && fails == 6,
		       "rq-calls-valid: each of libcodec's %d reasons FAILs on a sentence of the "
		       "case (%u of them) or is a NOTE on D-RQ-1", RPCRDMA_R_COUNT_ - 1, fails);
	}
	o = (struct cf_rq_obs){ .grant = 32, .calls = 4, .reads_chunked = 2, .reads_short = 1,
				.short_count = 8192, .short_len = 4096 };
	cf_rq_grade(rq_case("rq-read-write-chunk"), &o, &g);
	tap_ok(g.result == CF_FAIL && !strcmp(g.req_id, "V1-4.4.6-register") &&
	       strstr(g.observed, "count 8192, chunk 4096"),
	       "a READ of 8192 with a 4096-byte write chunk: FAIL on V1-4.4.6-register");
	o = (struct cf_rq_obs){ .grant = 32, .calls = 4, .big_replies = 3, .no_reply_chunk = 1,
				.nrc_proc = 17, .nrc_max = 32796, .nrc_thresh = 4096 };
	cf_rq_grade(rq_case("rq-reply-chunk"), &o, &g);
	tap_ok(g.result == CF_FAIL && !strcmp(g.req_id, "V1-5.3.3-provide"),
	       "a READDIRPLUS whose reply may take 32 KiB, no reply chunk: FAIL on V1-5.3.3-provide");
	/* the ECHO forms' wording: the first short chunk or missing reply
	 * chunk named as an ECHO call's */
	o = (struct cf_rq_obs){ .grant = 32, .calls = 4, .reads_chunked = 2, .reads_short = 1,
				.echo_chunked = 2, .echo_short = 1, .short_echo = true,
				.short_count = 4097, .short_len = 4096 };
	cf_rq_grade(rq_case("rq-read-write-chunk"), &o, &g);
	tap_ok(g.result == CF_FAIL && !strcmp(g.req_id, "V1-4.4.6-register") &&
	       strstr(g.observed, "the first: ECHO of 4097, chunk 4096 bytes"),
	       "an ECHO of 4097 bytes with a 4096-byte write chunk: FAIL on V1-4.4.6-register, "
	       "named as an ECHO call (%s)", g.observed);
	o = (struct cf_rq_obs){ .grant = 32, .calls = 4, .big_replies = 1, .echo_big = 1,
				.no_reply_chunk = 1, .nrc_echo = true, .nrc_proc = 1,
				.nrc_max = 4128, .nrc_thresh = 4096 };
	cf_rq_grade(rq_case("rq-reply-chunk"), &o, &g);
	tap_ok(g.result == CF_FAIL && !strcmp(g.req_id, "V1-5.3.3-provide") &&
	       strstr(g.observed, "the first: ECHO proc 1, reply up to 4128 bytes, threshold 4096"),
	       "an ECHO whose reply may take 4128 bytes, no reply chunk: FAIL on V1-5.3.3-provide, "
	       "named as an ECHO call");
	for (size_t i = 0; i < cf_rq_ncases; i++) {
		char ids[128], *save = NULL, *id;
		bool all = true;

		snprintf(ids, sizeof(ids), "%s", cf_rq_cases[i].reqs);
		for (id = strtok_r(ids, ",", &save); id; id = strtok_r(NULL, ",", &save))
			all &= cf_req_find(id) && (!strcmp(cf_req_find(id)->party, "requester") ||
						   !strcmp(cf_req_find(id)->party, "sender"));
		tap_ok(all, "%s: every requirement id is a requester's or sender's sentence of the "
		       "catalogue", cf_rq_cases[i].name);
	}
}

/* the report: text and JSON Lines of a FAIL, a PASS and the totals */
static void report_json(void)
{
	char *tb = NULL, *jb = NULL;
	size_t tl = 0, jl = 0;
	FILE *tf = open_memstream(&tb, &tl), *jf = open_memstream(&jb, &jl);
	const struct cf_rq_report r = { tf, jf, 0 };
	struct cf_rq_grade fail = { .result = CF_FAIL, .req_id = "V1-4.3.1-limit",
				    .observed = "10 calls, one past the grant" };
	struct cf_rq_grade pass = { .result = CF_PASS, .observed = "3 calls, at most 1 outstanding" };
	unsigned n[CF_NRESULTS] = { 0 };

	if (!tf || !jf)
		return;
	n[CF_PASS] = 1;
	n[CF_FAIL] = 1;
	cf_rq_report_begin(&r, "20049", 5000);
	cf_rq_report_case(&r, &cf_rq_cases[1], &fail);
	cf_rq_report_case(&r, &cf_rq_cases[0], &pass);
	cf_rq_report_end(&r, n);
	fclose(tf);
	fclose(jf);
	unsigned lines = 0;
	for (size_t i = 0; i < jl; i++)
		lines += jb[i] == '\n';
	tap_ok(lines == 4 && !strncmp(jb, "{\"run\":{\"mode\":\"requester\",", 27) &&
	       strstr(jb, "\"summary\":{\"total\":{\"cases\":"),
	       "--json: a run record, one object per case, a summary: 4 lines");
	char want[160];
	snprintf(want, sizeof(want), "\"result\":\"fail\",\"fail_requirement\":\"V1-4.3.1-limit\","
		 "\"fail_seed\":\"V1\",\"fail_section\":\"%s\"", cf_req_find("V1-4.3.1-limit")->section);
	tap_ok(strstr(jb, want) != NULL,
	       "a FAIL names its requirement, seed and section");
	tap_ok(strstr(jb, "\"fail_keyword\":\"MUST NOT\",\"fail_sentence\":\"The requester MUST "
		      "NOT send unacknowledged requests in excess of this granted responder credit "
		      "limit.\"") != NULL, "and quotes the sentence at its keyword");
	tap_ok(strstr(jb, "\"result\":\"pass\",\"observed\":\"3 calls") &&
	       strstr(jb, "\"passed\":1,\"failed\":1,\"skipped\":0"),
	       "a PASS has no fail_ keys; the totals count both");
	snprintf(want, sizeof(want), "total  %zu cases: 1 passed, 1 failed, 0 skipped, 0 noted",
		 cf_rq_ncases);
	tap_ok(strstr(tb, "rests on: V1 ") && strstr(tb, want), "the text report says the same");
	free(tb);
	free(jb);
}

int main(void)
{
	struct xprt_opts so, co;
	struct xprt_handlers h, ch;
	struct xprt_error err;
	struct xprt *x;
	struct fake_verbs_live lv;

	fake_verbs_reset();
	memset(&so, 0, sizeof(so));
	so.host = "127.0.0.1";
	so.port = "20049";
	so.verbs = &fake_verbs;
	so.max_message = NFS3_SERVE_REPLY_MAX + 4096;
	co = so;
	nfs.counts = &counts;
	cf_req_nfs_handlers(&nfs, &h);
	memset(&ch, 0, sizeof(ch));
	loop = xprt_loop_create(&so, &err);
	if (!tap_ok(loop && xprt_listen_opts(loop, &so, &h, &err) == 0,
		    "the responder listens over the fake verbs"))
		tap_diag("%s", err.msg);
	x = loop ? xprt_connect_opts(loop, &co, &ch, &err) : NULL;
	if (tap_ok(x != NULL, "a requester connects")) {
		nfs_calls(x);
		xprt_close(x);
	} else {
		tap_diag("%s", err.msg);
	}
	if (loop)
		xprt_loop_destroy(loop);
	fake_verbs_live(&lv);
	tap_ok(!lv.qps && !lv.mrs && !lv.mws && !lv.ids, "nothing left registered or connected");
	mount_tcp();
	requester_cases();
	nfs_cases();
	echo_cases();
	inline_cases();
	read_chunk_cases();
	fault_cases();
	grader_fails();
	report_json();
	fake_verbs_reset();
	return tap_done();
}
