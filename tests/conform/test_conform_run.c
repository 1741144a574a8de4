/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_conform_run.c - rpcrdma-conform's runner, end to end, over the
 * transport's API implemented in process (fake_xprt.c) with a model ECHO
 * responder that follows the drafts: every case passes (or is allowed);
 * each misbehaviour of xprt_opts.misbehave fails exactly the cases whose
 * message its misbehaviour concerns; a crash, a hung connection, a
 * Version One-only responder and a responder that forgets the round-up of
 * a read chunk are each seen for what they are.
 */
#include <stdio.h>
#include <string.h>
#include <rpcrdma/rpc.h>
#include "fake_xprt.h"
#include "run.h"
#include "tap.h"

#define MAXC 512

struct result {
	char name[48];
	enum cf_result res;
	enum cf_level level;
	int sent_action;
	enum cf_react react;
	bool reading;           /* the case carries a decision: NOTE, not FAIL */
	bool disc_ok;           /* closing the connection passes or is allowed */
	char observed[240];
};

static struct cf_case cases[MAXC];
static size_t ncases;
static struct result res[MAXC];

static const char *only_case;          /* run_all: this case alone (NULL: all) */

static int run_timeout_ms = 300;  /* run_all's cf_opts.timeout_ms */
static unsigned nretried;       /* connections made again, over a run_all() */
static char retry_text[160];

static int run_all(const struct fake_cfg *fc, enum cf_profile prof, char *profile_seen)
{
	static struct cf_run r;
	struct cf_select sel;
	struct cf_opts o;
	struct xprt_error err;
	size_t i;

	fake_xprt_config(fc);
	nretried = 0;
	retry_text[0] = '\0';
	memset(&sel, 0, sizeof(sel));
	memset(&o, 0, sizeof(o));
	o.host = "198.18.0.1";
	o.timeout_ms = run_timeout_ms;
	o.settle_ms = 5;
	o.xid_base = 0x10000000u;
	o.profile = prof;
	o.sel = &sel;
	if (cf_run_begin(&r, &o, &err) < 0) {
		tap_diag("cf_run_begin: %s", err.msg);
		cf_run_end(&r);
		return -1;
	}
	if (profile_seen)
		strcpy(profile_seen, cf_profile_name(r.t.prof));
	for (i = 0; i < ncases; i++) {
		struct cf_obs ob;
		struct cf_grade g;

		if (only_case && strcmp(only_case, cases[i].name))
			continue;
		cf_run_case(&r, &cases[i], &ob);
		cf_grade(&cases[i], &ob, &g);
		if (ob.retried) {
			nretried += ob.retried;
			snprintf(retry_text, sizeof(retry_text), "%s", ob.retry_why);
		}
		memcpy(res[i].name, cases[i].name, sizeof(res[i].name));
		res[i].res = g.result;
		res[i].level = g.level;
		res[i].sent_action = ob.sent_action;
		res[i].react = ob.react;
		res[i].reading = cases[i].decision != NULL;
		res[i].disc_ok = (cases[i].pass | cases[i].allowed) & CF_M(CF_R_DISCONNECT);
		memcpy(res[i].observed, g.observed, sizeof(res[i].observed));
	}
	cf_run_end(&r);
	return 0;
}

static unsigned count(enum cf_result want)
{
	unsigned n = 0;
	size_t i;

	for (i = 0; i < ncases; i++)
		n += res[i].res == want;
	return n;
}

static void show(enum cf_result want, unsigned max)
{
	size_t i;

	for (i = 0; i < ncases && max; i++)
		if (res[i].res == want) {
			tap_diag("  %s %s: %s", cf_result_name(want), res[i].name, res[i].observed);
			max--;
		}
}

/* the failures are exactly the cases expect() selects */
static bool exactly(bool (*expect)(const struct result *), unsigned *nexp)
{
	bool ok = true;
	size_t i;

	*nexp = 0;
	for (i = 0; i < ncases; i++) {
		bool e = expect(&res[i]);

		*nexp += e;
		/* a case of our reading (a decision) shows the fault as a NOTE */
		if (e != (res[i].res == (res[i].reading ? CF_NOTE : CF_FAIL))) {
			ok = false;
			tap_diag("  %s: %s, expected %s (%s)", res[i].name, cf_result_name(res[i].res),
				 e ? (res[i].reading ? "NOTE" : "FAIL") : "no failure", res[i].observed);
		}
	}
	return ok;
}

static bool is_badheader(const struct result *r)
{
	return r->sent_action == RPCRDMA_REPLY_BAD_HEADER;
}

static bool is_answered(const struct result *r)
{
	return !r->disc_ok && (r->sent_action == RPCRDMA_REPLY_BAD_HEADER ||
	       r->sent_action == RPCRDMA_REPLY_ERR_VERS ||
	       r->sent_action == RPCRDMA_REPLY_INVAL_OPTION);
}

static bool is_err_vers(const struct result *r)
{
	return r->sent_action == RPCRDMA_REPLY_ERR_VERS;
}

static bool is_grant(const struct result *r)
{
	return !strcmp(r->name, "reply-grant-nonzero");
}

static const struct result *get(const char *name)
{
	size_t i;

	for (i = 0; i < ncases; i++)
		if (!strcmp(res[i].name, name))
			return &res[i];
	return NULL;
}

/* A backward call as V1 §4 (struct rpcrdma1_header, RDMA_MSG, three empty
 * chunk lists) and RFC 5531 (call header): rdma_xid, vers, credit, the RPC
 * xid and msg_type as given */
static size_t bc_msg(uint8_t *b, uint32_t xid, uint32_t vers, uint32_t credit, uint32_t rpc_xid,
		     uint32_t mtype)
{
	const uint32_t w[] = { xid, vers, credit, 0 /* RDMA_MSG */, 0, 0, 0,
			       rpc_xid, mtype, 2, 0x40000000u, 1, 1, 0, 0, 0, 0 };
	size_t i;

	for (i = 0; i < sizeof(w) / sizeof(w[0]); i++) {
		b[4 * i] = (uint8_t)(w[i] >> 24);
		b[4 * i + 1] = (uint8_t)(w[i] >> 16);
		b[4 * i + 2] = (uint8_t)(w[i] >> 8);
		b[4 * i + 3] = (uint8_t)w[i];
	}
	return 4 * i;
}

/* the grader of the backward call's form (BIDI §5.1, V1 §7.2.1), which the
 * NFS form (knfsd's CB_RECALL) shares with the ECHO one: each rule can fail */
static void test_backward_form(void)
{
	static const struct {
		uint32_t vers, credit, rpc_xid, mtype;
		const char *req;
	} t[] = {
		{ 1, 2, 0x11, 0, NULL },
		{ 1, 0, 0x11, 0, "V1-7.2.1-credit" },
		{ 2, 2, 0x11, 0, "BIDI-5.1-vers" },
		{ 1, 2, 0x12, 0, "BIDI-5.1-xid" },
	};
	uint8_t b[128];
	size_t i, n;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct cf_obs o;

		memset(&o, 0, sizeof(o));
		n = bc_msg(b, 0x11, t[i].vers, t[i].credit, t[i].rpc_xid, t[i].mtype);
		cf_grade_backward_form(&o, b, n, 1);
		tap_ok(t[i].req ? o.fault_req && !strcmp(o.fault_req, t[i].req) : !o.fault[0],
		       "backward call form: vers %u credit %u rpc xid 0x%x -> %s (%s)", t[i].vers,
		       t[i].credit, t[i].rpc_xid, t[i].req ? t[i].req : "no fault",
		       o.fault[0] ? o.fault : "none");
	}
}

/* the NFSv3 READ reply as the write-chunk graders read it (RFC 1813
 * §3.3.6 READ3resok): with the data moved to a write chunk the stream ends
 * at the data's length word; bytes after it are what V1-4.4.6.1-resp-pad
 * and V1-5.3.2-write fail on */
static void test_read3_reply(void)
{
	uint8_t b[256];
	struct cf_read3 rr;
	char why[160];
	size_t n = rpc_encode_accepted_reply(b, sizeof(b), 7, RPC_SUCCESS), base = n;
	const uint32_t w[] = { 0 /* NFS3_OK */, 0 /* no attributes */, 5 /* count */, 1 /* eof */,
			       5 /* data<> length */ };
	size_t i;

	for (i = 0; i < 5; i++, n += 4) {
		b[n] = b[n + 1] = b[n + 2] = 0;
		b[n + 3] = (uint8_t)w[i];
	}
	tap_ok(cf_nfs3_read_reply(b, n, &rr, why, sizeof(why)) == 0 && rr.count == 5 &&
	       rr.data_len == 5 && rr.rest == 0, "READ3 reply, data moved out: nothing after "
	       "the length word");
	memset(b + n, 0, 8);
	tap_ok(cf_nfs3_read_reply(b, n + 8, &rr, why, sizeof(why)) == 0 && rr.rest == 8,
	       "READ3 reply with the data and its pad left inline: 8 bytes counted");
	b[base + 3] = 70;               /* NFS3ERR_STALE */
	tap_ok(cf_nfs3_read_reply(b, n, &rr, why, sizeof(why)) < 0 && strstr(why, "status 70"),
	       "READ3 reply NFS3ERR_STALE: not served (%s)", why);
	tap_ok(cf_nfs3_read_reply(b, base + 2, &rr, why, sizeof(why)) < 0,
	       "READ3 reply cut inside its status: refused (%s)", why);
}

/* ---- the NFS graders of run_nfs.c, fed replies built here from the V1
 * XDR (rfc5666bis-04 §4: rpcrdma1_segment, the write list, the reply
 * chunk) and RFC 1813 §3.3.6 READ3res, not with the code under test ---- */
#define NFS_HANDLE 0x0badcafeu
struct xdrb {
	uint8_t b[2560];
	size_t n;
};

static void put32(struct xdrb *w, const uint32_t *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++, w->n += 4) {
		w->b[w->n] = (uint8_t)(v[i] >> 24);
		w->b[w->n + 1] = (uint8_t)(v[i] >> 16);
		w->b[w->n + 2] = (uint8_t)(v[i] >> 8);
		w->b[w->n + 3] = (uint8_t)v[i];
	}
}

/* an accepted RPC reply (RFC 5531: xid, REPLY, MSG_ACCEPTED, AUTH_NONE,
 * SUCCESS) with READ3res: status; on NFS3_OK no post_op_attr, count, eof,
 * the data's length word (count), then `inl` bytes of d and their XDR pad */
static void read3(struct xdrb *w, uint32_t xid, uint32_t status, uint32_t count,
		  const uint8_t *d, uint32_t inl)
{
	const uint32_t h[] = { xid, 1, 0, 0, 0, 0, status }, ok[] = { 0, count, 1, count };

	put32(w, h, 7);
	if (status)
		return;
	put32(w, ok, 4);
	memcpy(w->b + w->n, d, inl);
	w->n += inl;
	while (w->n % 4)
		w->b[w->n++] = 0;
}

/* the transport header (V1 §4: rpcrdma1_header, vers 1, credit 1): no
 * read list; a write list of one chunk of nseg segments (none: nseg 0);
 * a reply chunk of one rlen-byte segment (none: rlen 0) */
static void rdma_hdr(struct xdrb *w, uint32_t xid, uint32_t proc, unsigned nseg,
		     const uint32_t *seglen, uint32_t handle, uint32_t rlen)
{
	const uint32_t p[] = { xid, 1, 1, proc, 0 /* rdma_reads: none */, 1, nseg }, zero = 0;
	const uint32_t rc[] = { 1, 1, NFS_HANDLE, rlen, 0, 0 };
	unsigned i;

	put32(w, p, nseg ? 7 : 5);
	for (i = 0; i < nseg; i++) {
		const uint32_t sg[] = { handle, seglen[i], 0, i * 256 };

		put32(w, sg, 4);
	}
	put32(w, &zero, 1);             /* end of rdma_writes */
	put32(w, rlen ? rc : &zero, rlen ? 6 : 1);
}

static void file_data(uint8_t *d, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		d[i] = (uint8_t)(i * 7 + 1);
}

/* the fault req (NULL: none), or a SKIP without a fault */
static bool graded_as(const struct cf_obs *o, const char *req, bool skip)
{
	if (skip)
		return o->skipped && !o->fault[0];
	return req ? o->fault_req && !strcmp(o->fault_req, req) && !o->skipped :
		     !o->fault[0] && !o->skipped;
}

/* cf_nfs_grade_write: the write chunks of an NFSv3 READ's reply (a
 * 256-byte READ; 5 bytes into an 8-byte segment for the pad case) */
static void test_nfs_grade_write(void)
{
	static const struct {
		enum cf_kind kind;
		const char *what;
		unsigned nseg;
		uint32_t seg[2], handle, written, inl, status;
		bool bad;               /* the memory does not hold the file's data */
		const char *req;        /* the fault, NULL: none */
	} t[] = {
		{ CF_K_WRITE_USED, "one 256-byte segment", 1, { 256 }, NFS_HANDLE, 256, 0, 0,
		  false, NULL },
		{ CF_K_WRITE_USED, "two segments", 2, { 128, 128 }, NFS_HANDLE, 256, 0, 0, false,
		  "V1-5.3.2-write" },
		{ CF_K_WRITE_USED, "segment length 200", 1, { 200 }, NFS_HANDLE, 200, 0, 0,
		  false, "V1-5.3.2-write" },
		{ CF_K_WRITE_USED, "another handle", 1, { 256 }, 0x1234u, 256, 0, 0, false,
		  "V1-5.3.2-write" },
		{ CF_K_WRITE_USED, "no write list, the result inline", 0, { 0 }, NFS_HANDLE, 0,
		  256, 0, false, "V1-5.3.2-write" },
		{ CF_K_WRITE_USED, "data not the file's", 1, { 256 }, NFS_HANDLE, 256, 0, 0, true,
		  "V1-5.3.2-write" },
		{ CF_K_WRITE_USED, "the result inline too", 1, { 256 }, NFS_HANDLE, 256, 256, 0,
		  false, "V1-5.3.2-write" },
		{ CF_K_WRITE_USED, "NFS3ERR_IO: not served, a SKIP", 1, { 0 }, NFS_HANDLE, 0, 0,
		  5, false, NULL },
		{ CF_K_WRITE_SEGCOUNT, "two segments, the second unfilled", 2, { 256, 0 },
		  NFS_HANDLE, 256, 0, 0, false, NULL },
		{ CF_K_WRITE_SEGCOUNT, "one segment back", 1, { 256 }, NFS_HANDLE, 256, 0, 0,
		  false, "V1-4.4.6-segcount" },
		{ CF_K_WRITE_UNFILLED, "the unfilled segment length 0", 2, { 256, 0 }, NFS_HANDLE,
		  256, 0, 0, false, NULL },
		{ CF_K_WRITE_UNFILLED, "the unfilled segment length 256", 2, { 256, 256 },
		  NFS_HANDLE, 256, 0, 0, false, "V1-4.4.6-unfilled" },
		{ CF_K_WRITE_NOPAD, "5 bytes, no pad", 1, { 5 }, NFS_HANDLE, 5, 0, 0, false, NULL },
		{ CF_K_WRITE_NOPAD, "segment length 8", 1, { 8 }, NFS_HANDLE, 5, 0, 0, false,
		  "V1-4.4.6.1-nopad" },
		{ CF_K_WRITE_NOPAD, "pad bytes written (canary overwritten)", 1, { 5 }, NFS_HANDLE,
		  8, 0, 0, false, "V1-4.4.6.1-nopad" },
		{ CF_K_WRITE_NOPAD, "data not the file's", 1, { 5 }, NFS_HANDLE, 5, 0, 0, true,
		  "V1-5.3.2-write" },
		{ CF_K_WRITE_NOPAD, "the data and their pad inline too", 1, { 5 }, NFS_HANDLE, 5, 5,
		  0, false, "V1-4.4.6.1-resp-pad" },
	};
	uint8_t ref[256], mem[512];
	size_t i;

	file_data(ref, sizeof(ref));
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		uint32_t len = t[i].kind == CF_K_WRITE_NOPAD ? 5 : 256;
		struct xdrb w = { .n = 0 };
		struct rpcrdma_msg m;
		struct cf_case c;
		struct cf_mem wm;
		struct cf_obs o;
		bool dec;

		memset(&c, 0, sizeof(c));
		memset(&o, 0, sizeof(o));
		memset(&wm, 0, sizeof(wm));
		c.kind = t[i].kind;
		memset(mem, CF_CANARY, sizeof(mem));
		memset(mem, 0, t[i].written);   /* a pad past the data: zeros */
		memcpy(mem, ref, t[i].written < len ? t[i].written : len);
		if (t[i].bad)
			mem[2] ^= 0x40;
		wm.buf = mem;
		wm.seg.rdma_handle = NFS_HANDLE;
		wm.seg.rdma_length = (uint32_t)sizeof(mem);
		rdma_hdr(&w, 0x51 + (uint32_t)i, 0 /* RDMA_MSG */, t[i].nseg, t[i].seg,
			 t[i].handle, 0);
		read3(&w, 0x51 + (uint32_t)i, t[i].status, len, ref, t[i].inl);
		dec = rpcrdma_decode(w.b, w.n, &m) == RPCRDMA_ACCEPT;
		cf_nfs_grade_write(&c, &o, &m, &wm, ref, len);
		tap_ok(dec && graded_as(&o, t[i].req, t[i].status != 0),
		       "NFS write chunk grader, case kind %d, %s -> %s (%s)", (int)t[i].kind,
		       t[i].what, t[i].req ? t[i].req : t[i].status ? "SKIP" : "no fault",
		       o.fault[0] ? o.fault : o.skipped ? o.skip_why : "none");
	}
}

/* cf_nfs_grade_reply: a 1536-byte READ whose reply must come in the reply
 * chunk (V1 §4.5.3) */
static void test_nfs_grade_reply(void)
{
	enum { LEN = 1536, WMLEN = LEN + 512, NREF = 1024 };
	static const struct {
		const char *what;
		uint32_t proc;          /* RDMA_MSG 0, RDMA_NOMSG 1 */
		int rlen;               /* the reply chunk: 0 the reply's length, -1 none,
					 * else that length */
		uint32_t xid_in_chunk, count, status;
		bool bad;
		const char *req;
	} t[] = {
		{ "RDMA_NOMSG, the reply in the chunk", 1, 0, 0x77, LEN, 0, false, NULL },
		{ "an inline RDMA_MSG", 0, -1, 0x77, LEN, 0, false, "V1-4.5.3-reply" },
		{ "RDMA_NOMSG with a write chunk, no reply chunk", 1, -1, 0x77, LEN, 0, false,
		  "V1-4.5.3-reply" },
		{ "RDMA_NOMSG, a reply chunk longer than the memory", 1, WMLEN + 4, 0x77, LEN, 0,
		  false, "V1-4.5.3-reply" },
		{ "RDMA_NOMSG, a 16-byte reply chunk", 1, 16, 0x77, LEN, 0, false,
		  "V1-4.5.3-reply" },
		{ "the chunk holds another xid", 1, 0, 0x78, LEN, 0, false, "V1-4.5.3-reply" },
		{ "the chunk's data not the file's", 1, 0, 0x77, LEN, 0, true, "V1-4.5.3-reply" },
		{ "the chunk's READ count short", 1, 0, 0x77, LEN - 4, 0, false,
		  "V1-4.5.3-reply" },
		{ "NFS3ERR_IO in the chunk: not served, a SKIP", 1, 0, 0x77, LEN, 5, false, NULL },
	};
	static uint8_t ref[LEN];
	static struct xdrb chunk;
	size_t i;

	file_data(ref, sizeof(ref));
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct xdrb w = { .n = 0 };
		const uint32_t wseg = 256;
		struct rpcrdma_msg m;
		struct cf_mem wm;
		struct cf_obs o;
		uint32_t rlen;
		bool dec;

		memset(&o, 0, sizeof(o));
		memset(&wm, 0, sizeof(wm));
		memset(&chunk, CF_CANARY, sizeof(chunk));
		chunk.n = 0;
		read3(&chunk, t[i].xid_in_chunk, t[i].status, t[i].count, ref, t[i].count);
		if (t[i].bad)           /* within the first NREF data bytes */
			chunk.b[chunk.n - LEN + 10] ^= 0x40;
		wm.buf = chunk.b;
		wm.seg.rdma_handle = NFS_HANDLE;
		wm.seg.rdma_length = WMLEN;
		rlen = t[i].rlen < 0 ? 0 : t[i].rlen ? (uint32_t)t[i].rlen : (uint32_t)chunk.n;
		rdma_hdr(&w, 0x77, t[i].proc, t[i].proc == 1 && t[i].rlen < 0, &wseg, NFS_HANDLE,
			 rlen);
		if (t[i].proc == 0)
			read3(&w, 0x77, 0, LEN, ref, 0);
		dec = rpcrdma_decode(w.b, w.n, &m) == RPCRDMA_ACCEPT;
		cf_nfs_grade_reply(&o, &m, &wm, WMLEN, ref, NREF, LEN, 0x77);
		tap_ok(dec && graded_as(&o, t[i].req, t[i].status != 0),
		       "NFS reply chunk grader: %s -> %s (%s)", t[i].what,
		       t[i].req ? t[i].req : t[i].status ? "SKIP" : "no fault",
		       o.fault[0] ? o.fault : o.skipped ? o.skip_why : "none");
	}
}

int main(void)
{
	struct fake_cfg fc;
	char prof[16] = "";
	unsigned n;
	const struct result *x;
	static const struct {
		enum xprt_misbehave mode;
		const char *name;
		bool (*expect)(const struct result *);
	} modes[] = {
		{ XPRT_MISBEHAVE_WRONG_ERROR, "wrong-error", is_badheader },
		{ XPRT_MISBEHAVE_DROP_BAD, "drop-bad", is_answered },
		{ XPRT_MISBEHAVE_SILENT_VERS, "silent-vers", is_err_vers },
		{ XPRT_MISBEHAVE_ZERO_CREDIT, "zero-credit", is_grant },
	};
	size_t i;

	ncases = cf_cases_build(cases, MAXC);

	/* a responder that follows the drafts */
	memset(&fc, 0, sizeof(fc));
	tap_ok(run_all(&fc, CF_PROF_AUTO, prof) == 0 && !strcmp(prof, "echo"),
	       "the model responder: ECHO found (%s)", prof);
	tap_ok(count(CF_FAIL) == 0, "no case fails against it (%u passed, %u allowed, %u skipped)",
	       count(CF_PASS), count(CF_ALLOWED), count(CF_SKIP));
	show(CF_FAIL, 20);
	tap_ok(count(CF_SKIP) == 0, "none is skipped");
	show(CF_SKIP, 10);
	tap_ok(count(CF_ALLOWED) == 0 && count(CF_NOTE) == 0, "none is ALLOWED or NOTE: every "
	       "case PASSes");
	show(CF_ALLOWED, 10);
	show(CF_NOTE, 10);
	x = get("reply-chunk-short");
	tap_ok(x && x->res == CF_PASS && strstr(x->observed, "V1 §5.3.3 MAY"),
	       "a short reply inline despite a reply chunk: PASS, the case's own MAY named (%s)",
	       x ? x->observed : "?");
	x = get("inline-over");
	tap_ok(x && x->res == CF_PASS && x->react == CF_R_DISCONNECT, "a Send over its receive "
	       "size costs the connection: PASS");

	/* each misbehaviour fails exactly its cases */
	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		bool ok;

		memset(&fc, 0, sizeof(fc));
		fc.misbehave = modes[i].mode;
		ok = run_all(&fc, CF_PROF_ECHO, NULL) == 0;
		ok = exactly(modes[i].expect, &n) && ok;
		tap_ok(ok && n > 0, "--misbehave=%s fails exactly its %u cases", modes[i].name, n);
	}

	/* drop-bad whose disconnect is seen late (after the probe's
	 * deadline, as over rxe under load, issue 30 item 6): still the
	 * connection closed, not a hang, and said so.  The probe waits
	 * 1,000 ms, the disconnect 1,000 more; the fake's disconnect comes
	 * 1,010 ms after the probe reached it: after the probe's deadline
	 * always, and inside the second wait unless the host stalls this
	 * process for 990 ms (300 ms and 450 from the bad message failed
	 * once under ASan at a load of 15) */
	memset(&fc, 0, sizeof(fc));
	fc.misbehave = XPRT_MISBEHAVE_DROP_BAD;
	fc.late_drop_ms = 1010;
	only_case = "v1-read-disc-2";
	run_timeout_ms = 1000;
	run_all(&fc, CF_PROF_ECHO, NULL);
	run_timeout_ms = 300;
	only_case = NULL;
	x = get("v1-read-disc-2");
	tap_ok(x && x->react == CF_R_DISCONNECT && strstr(x->observed, "after the probe's deadline"),
	       "a disconnect seen after the probe's deadline: the connection closed, not a hang (%s)",
	       x ? x->observed : "?");

	/* a crash: the case fails, the rest cannot run */
	memset(&fc, 0, sizeof(fc));
	fc.crash_on_done = true;
	run_all(&fc, CF_PROF_ECHO, NULL);
	x = get("v1-proc-done");
	/* no sentence forbids a crash: a NOTE (D-CONF-2), but the run's exit
	 * status is 1 (cf_report_status, test_conform) */
	tap_ok(x && x->res == CF_NOTE && x->react == CF_R_CRASH,
	       "RDMA_DONE kills the listener: a crash, NOTE D-CONF-2 (%s)", x ? x->observed : "?");
	x = get("v1-reply-disc-2");
	tap_ok(x && x->res == CF_SKIP && strstr(x->observed, "gone"), "later cases: SKIP, "
	       "the responder is gone");

	/* a hung connection */
	memset(&fc, 0, sizeof(fc));
	fc.hang_on_msgp = true;
	run_all(&fc, CF_PROF_ECHO, NULL);
	x = get("v1-proc-msgp");
	tap_ok(x && x->res == CF_FAIL && x->react == CF_R_NO_ANSWER && x->level == CF_MUST,
	       "RDMA_MSGP hangs the connection: FAIL MUST, no answer (%s)", x ? x->observed : "?");
	tap_ok(count(CF_FAIL) == 2 && get("v1-proc-msgp-16-bytes")->res == CF_FAIL,
	       "and nothing but the other RDMA_MSGP fails (a new connection is used)");
	show(CF_FAIL, 5);

	/* a Version One-only responder */
	memset(&fc, 0, sizeof(fc));
	fc.versions = XPRT_V1;
	run_all(&fc, CF_PROF_ECHO, NULL);
	x = get("v2-negotiation");
	tap_ok(x && x->res == CF_PASS && x->react == CF_R_ERR_VERS, "V1 only: the V2 call refused "
	       "with ERR_VERS 1..1 passes");
	x = get("v2-read-disc-2");
	tap_ok(x && x->res == CF_SKIP, "V1 only: the V2 cases are skipped");
	tap_ok(count(CF_FAIL) == 0, "V1 only: nothing fails");
	show(CF_FAIL, 10);

	/* no round-up after an odd read chunk */
	memset(&fc, 0, sizeof(fc));
	fc.ignore_roundup = true;
	run_all(&fc, CF_PROF_ECHO, NULL);
	x = get("read-chunk-roundup");
	tap_ok(x && x->res == CF_FAIL && x->react == CF_R_GARBAGE_ARGS, "no round-up of an odd "
	       "read chunk: FAIL (%s)", x ? x->observed : "?");

	/* the siw race: a new connection's first Send lost; the suite makes
	 * the connection again, once, and says so */
	memset(&fc, 0, sizeof(fc));
	fc.lose_first_of = 3;
	run_all(&fc, CF_PROF_ECHO, NULL);
	tap_ok(count(CF_FAIL) == 0 && count(CF_SKIP) == 0, "a lost first Send on a new "
	       "connection: nothing fails, nothing skipped (%u passed)", count(CF_PASS));
	tap_ok(nretried == 1 && strstr(retry_text, "unanswered"), "and the connection made again "
	       "once is counted (%u: %s)", nretried, retry_text);

	test_backward_form();
	test_read3_reply();
	test_nfs_grade_write();
	test_nfs_grade_reply();
	return tap_done();
}
