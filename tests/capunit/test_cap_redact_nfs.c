/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_cap_redact_nfs.c - rpcrdma-decode --redact on directory listings
 * (issue 28 item 1: "names in LOOKUP/CREATE/READDIR replaced by name-N").
 * The RPC messages are written here from the XDR of RFC 5531 (call and
 * reply headers), RFC 1813 3.3.3, 3.3.17 (LOOKUP3args, READDIRPLUS3args,
 * READDIRPLUS3res) and RFC 8881 16.2, 18.23, 18.46 (COMPOUND4args/res,
 * SEQUENCE, PUTFH, READDIR), field by field, not by the code under test.
 * Checked: every name in the listing becomes "name-N" (the number LOOKUP's
 * name got), the entry's file handle the hash its call got, the session id
 * the one the call's SEQUENCE got; attributes and fileids zero; bools,
 * cookies, verifiers, bitmaps and the lengths kept; and every message cut
 * short at each length still redacts without a fault (ASan build).
 */
#include <stdlib.h>
#include <string.h>
#include "capunit.h"
#include "cap_redact.h"

struct buf {
	uint8_t b[1024];
	uint32_t n;
};

static void w32(struct buf *b, uint32_t v)
{
	b->b[b->n++] = (uint8_t)(v >> 24);
	b->b[b->n++] = (uint8_t)(v >> 16);
	b->b[b->n++] = (uint8_t)(v >> 8);
	b->b[b->n++] = (uint8_t)v;
}

static void fill(struct buf *b, uint8_t c, uint32_t n)   /* fixed bytes */
{
	memset(b->b + b->n, c, n);
	b->n += n;
}

static uint32_t opaque(struct buf *b, const char *s, uint32_t n)
{
	w32(b, n);
	uint32_t at = b->n;
	memcpy(b->b + b->n, s, n);
	b->n += n;
	while (b->n % 4)
		b->b[b->n++] = 0;
	return at;
}

/* RFC 5531 9: xid, CALL, rpcvers 2, prog, vers, proc, AUTH_NONE twice */
static void call_hdr(struct buf *b, uint32_t xid, uint32_t vers, uint32_t proc)
{
	b->n = 0;
	w32(b, xid); w32(b, 0); w32(b, 2); w32(b, 100003); w32(b, vers);
	w32(b, proc); w32(b, 0); w32(b, 0); w32(b, 0); w32(b, 0);
}

/* xid, REPLY, MSG_ACCEPTED, verifier AUTH_NONE, SUCCESS */
static void reply_hdr(struct buf *b, uint32_t xid)
{
	b->n = 0;
	w32(b, xid); w32(b, 1); w32(b, 0); w32(b, 0); w32(b, 0); w32(b, 0);
}

static bool has(const struct buf *b, const char *s)
{
	size_t n = strlen(s);
	for (uint32_t i = 0; i + n <= b->n; i++)
		if (!memcmp(b->b + i, s, n))
			return true;
	return false;
}

static bool zero(const uint8_t *p, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

static bool same(const struct buf *a, const struct buf *b, uint32_t at,
		 uint32_t n)
{
	return !memcmp(a->b + at, b->b + at, n);
}

/* the lookup, the call and its reply redacted in that order (the reply
 * kept aside first in *orig); none of them holds a name after */
static void redact3(struct rdx *x, struct buf *lk, struct buf *c,
		    struct buf *r, struct buf *orig, const char *what)
{
	*orig = *r;
	rdx_rpc(x, lk->b, lk->n);
	rdx_rpc(x, c->b, c->n);
	rdx_rpc(x, r->b, r->n);
	tap_ok(r->n == orig->n && !has(r, "secret") && !has(lk, "secret"),
	       "%s: no name is left (same length)", what);
}

/* every length of m (a copy) redacted: the bounds of each walk */
static void every_cut(struct rdx *x, const struct buf *m, const char *what)
{
	struct buf c;
	bool fine = true;

	for (uint32_t len = 0; len <= m->n; len++) {
		memcpy(c.b, m->b, len);
		c.n = len;
		rdx_rpc(x, c.b, len);
		fine &= !has(&c, "secret");
	}
	tap_ok(fine, "%s cut at each of its %u lengths: redacted, no name left",
	       what, m->n + 1);
}

static void nfs3(struct rdx *x)
{
	struct buf lk, rdc, rep, orig;
	const char fh[8] = "HANDLE01", dirfh[8] = "DIRFH-01";

	/* LOOKUP3args: diropargs3 { dir, name } */
	call_hdr(&lk, 0x100, 3, 3);
	opaque(&lk, dirfh, 8);
	uint32_t lk_name = opaque(&lk, "secret-alpha", 12);
	/* READDIRPLUS3args: dir, cookie, cookieverf, dircount, maxcount */
	call_hdr(&rdc, 0x101, 3, 17);
	opaque(&rdc, fh, 8);
	fill(&rdc, 0, 8); fill(&rdc, 0, 8); w32(&rdc, 4096); w32(&rdc, 32768);
	/* READDIRPLUS3resok: status, dir_attributes, cookieverf, entries, eof */
	reply_hdr(&rep, 0x101);
	w32(&rep, 0);
	w32(&rep, 1); uint32_t dattr = rep.n; fill(&rep, 0xaa, 84);
	uint32_t verf = rep.n; fill(&rep, 0x11, 8);
	uint32_t e1 = rep.n;
	w32(&rep, 1); fill(&rep, 0x77, 8);                 /* fileid */
	uint32_t n1 = opaque(&rep, "secret-alpha", 12);
	uint32_t ck1 = rep.n; w32(&rep, 0); w32(&rep, 1);   /* cookie */
	w32(&rep, 1); uint32_t nattr = rep.n; fill(&rep, 0xbb, 84);
	w32(&rep, 1); uint32_t h1 = opaque(&rep, fh, 8);
	uint32_t e2 = rep.n;
	w32(&rep, 1); fill(&rep, 0x78, 8);
	uint32_t n2 = opaque(&rep, "secret-bet", 10);
	uint32_t ck2 = rep.n; w32(&rep, 0); w32(&rep, 2);
	w32(&rep, 0); w32(&rep, 0);                        /* no attrs, fh */
	uint32_t tail = rep.n;
	w32(&rep, 0); w32(&rep, 1);                        /* end, eof */

	struct buf lk0 = lk, rdc0 = rdc;
	redact3(x, &lk, &rdc, &rep, &orig, "NFSv3 LOOKUP and READDIRPLUS");
	tap_ok(!memcmp(rep.b + n1, "name-", 5) &&
	       !memcmp(rep.b + n1, lk.b + lk_name, 12),
	       "the listing's name is name-N, the number LOOKUP's same name got: %.12s",
	       (const char *)rep.b + n1);
	tap_ok(!memcmp(rep.b + n2, "name-", 5) &&
	       memcmp(rep.b + n2, rep.b + n1, 10) != 0,
	       "a name not seen before gets a number of its own: %.10s",
	       (const char *)rep.b + n2);
	tap_ok(memcmp(rep.b + h1, fh, 8) && !memcmp(rep.b + h1, rdc.b + 44, 8),
	       "the entry's file handle is hashed, as the same handle in the call");
	tap_ok(!memcmp(rdc0.b + 44, fh, 8) && !memcmp(lk0.b + lk_name, "secret-alpha", 12),
	       "(the vectors hold the handle and the name where the test looks)");
	tap_ok(zero(rep.b + dattr, 84) && zero(rep.b + nattr, 84) &&
	       zero(rep.b + e1 + 4, 8) && zero(rep.b + e2 + 4, 8),
	       "attributes and fileids zero");
	tap_ok(same(&rep, &orig, 0, 24) && same(&rep, &orig, 24, 8) &&
	       same(&rep, &orig, verf, 8) && same(&rep, &orig, e1, 4) &&
	       same(&rep, &orig, ck1, 8) && same(&rep, &orig, ck2, 8) &&
	       same(&rep, &orig, n1 - 4, 4) && same(&rep, &orig, n2 - 4, 4) &&
	       same(&rep, &orig, h1 - 8, 8) && same(&rep, &orig, tail, 8),
	       "kept: header, status, bools, cookieverf, cookies, lengths, eof");
	every_cut(x, &orig, "the READDIRPLUS reply");
}

static void nfs4(struct rdx *x)
{
	struct buf c, r, orig;
	const char sid[16] = "SESSION-ID-0001";
	const char fh[12] = "V4-HANDLE-01";

	/* COMPOUND4args: tag, minorversion 1, SEQUENCE, PUTFH, READDIR */
	call_hdr(&c, 0x200, 4, 1);
	opaque(&c, "", 0); w32(&c, 1); w32(&c, 3);
	w32(&c, 53); uint32_t csid = c.n;
	memcpy(c.b + c.n, sid, 16); c.n += 16;
	w32(&c, 7); w32(&c, 0); w32(&c, 0); w32(&c, 0);
	w32(&c, 22); opaque(&c, fh, 12);
	w32(&c, 26); fill(&c, 0, 8); fill(&c, 0, 8); w32(&c, 4096);
	w32(&c, 32768); w32(&c, 2); w32(&c, 0x00100000); w32(&c, 0);
	/* the same name in an earlier LOOKUP (in its own COMPOUND) */
	struct buf lk;
	call_hdr(&lk, 0x1ff, 4, 1);
	opaque(&lk, "", 0); w32(&lk, 1); w32(&lk, 2);
	w32(&lk, 22); opaque(&lk, fh, 12);
	w32(&lk, 15); uint32_t lkn = opaque(&lk, "secret-gamma", 12);

	/* COMPOUND4res: status, tag, results */
	reply_hdr(&r, 0x200);
	w32(&r, 0); opaque(&r, "", 0); w32(&r, 3);
	w32(&r, 53); w32(&r, 0); uint32_t rsid = r.n;
	memcpy(r.b + r.n, sid, 16); r.n += 16;
	uint32_t seqw = r.n; w32(&r, 7); w32(&r, 0); w32(&r, 63); w32(&r, 63);
	w32(&r, 0);
	w32(&r, 22); w32(&r, 0);
	uint32_t rd = r.n; w32(&r, 26); w32(&r, 0);
	uint32_t verf = r.n; fill(&r, 0x22, 8);
	w32(&r, 1); uint32_t ck = r.n; w32(&r, 0); w32(&r, 3);
	uint32_t nm = opaque(&r, "secret-gamma", 12);
	uint32_t bm = r.n; w32(&r, 1); w32(&r, 0x00100000);
	w32(&r, 8); uint32_t av = r.n; fill(&r, 0xcc, 8);
	w32(&r, 1); w32(&r, 0); w32(&r, 4);
	uint32_t nm2 = opaque(&r, "secret-delta", 12);
	w32(&r, 0); w32(&r, 0);                              /* empty fattr4 */
	uint32_t tail = r.n; w32(&r, 0); w32(&r, 1);

	redact3(x, &lk, &c, &r, &orig, "NFSv4.1 COMPOUND with READDIR");
	tap_ok(!memcmp(r.b + nm, "name-", 5) &&
	       !memcmp(r.b + nm, lk.b + lkn, 12) &&
	       !memcmp(r.b + nm2, "name-", 5),
	       "each entry4 name is name-N, the number LOOKUP's same name got: %.12s",
	       (const char *)r.b + nm);
	tap_ok(memcmp(r.b + rsid, sid, 16) && !memcmp(r.b + rsid, c.b + csid, 16),
	       "SEQUENCE's session id in the reply hashed as in the call");
	tap_ok(zero(r.b + av, 8), "attribute values zero");
	tap_ok(same(&r, &orig, seqw, 20) && same(&r, &orig, rd, 8) &&
	       same(&r, &orig, verf, 8) && same(&r, &orig, ck, 8) &&
	       same(&r, &orig, bm, 12) && same(&r, &orig, tail, 8),
	       "kept: SEQUENCE's numbers, READDIR's op and status, cookieverf, "
	       "cookie, bitmap and attrlist length, eof");
	every_cut(x, &orig, "the COMPOUND reply");
}

int main(void)
{
	static const uint8_t key[16] = { 1, 2, 3 };
	struct rdx x;

	memset(&x, 0, sizeof(x));
	x.map = rdx_map_new(key);
	x.calls = calloc(RDX_CALLS, sizeof(*x.calls));
	x.orig = malloc(RDX_MAX_SEND);
	if (!x.map || !x.calls || !x.orig)
		return 1;
	nfs3(&x);
	nfs4(&x);
	rdx_map_free(x.map);
	free(x.calls);
	free(x.orig);
	return tap_done();
}
