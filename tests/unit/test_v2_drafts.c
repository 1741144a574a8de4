/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_v2_drafts.c - rpcrdma_v2_draft_family(): which Version Two draft a
 * message fits.  The later layouts are written from issue 28's description
 * of them (a prefix {xid, vers, credit, htype}; ietf-07: ERROR 4, GRANT 5,
 * CONNPROP_MIDDLE/FINAL 6/7, CALL_* 8-10, REPLY_* 11-13; no direction word
 * in the chunk lists; error codes 1-11 and 100), cel-01's from its §4.2 XDR.
 * Each message ends at a guard page: an over-read faults.
 */
#include <stdio.h>
#include <string.h>
#include "rpcrdma/codec.h"
#include "tap.h"

struct buf { uint8_t b[256]; uint32_t n; };

static void w32(struct buf *b, uint32_t v)
{
	b->b[b->n++] = (uint8_t)(v >> 24);
	b->b[b->n++] = (uint8_t)(v >> 16);
	b->b[b->n++] = (uint8_t)(v >> 8);
	b->b[b->n++] = (uint8_t)v;
}

static void prefix(struct buf *b, uint32_t vers, uint32_t htype)
{
	b->n = 0;
	w32(b, 0x5a5a0001);      /* xid */
	w32(b, vers);
	w32(b, 32);              /* credit */
	w32(b, htype);
}

/* an RPC call header's first words: xid, CALL, rpcvers 2, NFS 3 GETATTR */
static void rpc_call(struct buf *b)
{
	w32(b, 0x5a5a0001);
	w32(b, 0);
	w32(b, 2);
	w32(b, 100003);
	w32(b, 3);
	w32(b, 1);
}

static unsigned family(const struct buf *b, enum rpcrdma_action *a)
{
	struct rpcrdma_msg m;

	*a = rpcrdma_decode(guard_copy(b->b, b->n), b->n, &m);
	return rpcrdma_v2_draft_family(&m);
}

static void expect(const struct buf *b, unsigned want, bool cel01_ok,
		   const char *what)
{
	enum rpcrdma_action a;
	unsigned got = family(b, &a);

	tap_ok(got == want && (cel01_ok == (a == RPCRDMA_ACCEPT)),
	       "%s: family %s (got %s, cel-01 verdict %s)", what,
	       rpcrdma_v2_family_name(want), rpcrdma_v2_family_name(got),
	       rpcrdma_action_name(a));
}

int main(void)
{
	struct buf b;

	/* ietf-07 header types past cel-01's: CALL_INLINE, REPLY_INLINE,
	 * CONNPROP_FINAL, CALL_EXTERNAL, REPLY_EXTERNAL */
	static const uint32_t later[] = { 6, 7, 8, 9, 10, 11, 12, 13 };
	for (size_t i = 0; i < sizeof(later) / sizeof(later[0]); i++) {
		char what[64];
		prefix(&b, 2, later[i]);
		rpc_call(&b);
		snprintf(what, sizeof(what), "ietf-07 htype %u", later[i]);
		expect(&b, RPCRDMA2_FAM_IETF03_07, false, what);
	}
	/* the prefix alone is enough */
	prefix(&b, 2, 10);
	expect(&b, RPCRDMA2_FAM_IETF03_07, false, "ietf-07 CALL_INLINE, prefix only");
	/* GRANT 5 (ietf-03..07) or CONNPROP 5 (cel-08..ietf-02): a word that is
	 * not a cel-01 rdma_optdir */
	prefix(&b, 2, 5);
	w32(&b, 128);
	expect(&b, RPCRDMA2_FAM_LATER, false, "type 5 that is no cel-01 OPTIONAL");
	/* a cel-01 OPTIONAL of an unknown type stays cel-01 (INVAL_OPTION) */
	prefix(&b, 2, 5);
	w32(&b, 0); w32(&b, 7); w32(&b, 0);
	rpc_call(&b);
	tap_ok(family(&b, &(enum rpcrdma_action){0}) == RPCRDMA2_FAM_CEL01,
	       "a cel-01 RDMA2_OPTIONAL of an unknown type is cel-01");
	/* ERROR with a later error code */
	prefix(&b, 2, 4);
	w32(&b, 7);
	expect(&b, RPCRDMA2_FAM_LATER, false, "ERROR code 7");
	prefix(&b, 2, 4);
	w32(&b, 100);
	expect(&b, RPCRDMA2_FAM_LATER, false, "ERROR code 100");
	prefix(&b, 2, 4);
	w32(&b, 12);
	expect(&b, RPCRDMA2_FAM_CEL01, false, "ERROR code 12: no family, a cel-01 fault");
	prefix(&b, 2, 4);
	w32(&b, 1);              /* ERR_VERS without its range: cel-01's fault */
	expect(&b, RPCRDMA2_FAM_CEL01, false, "cel-01 ERR_VERS cut short");
	/* cel-08..ietf-02: MSG with three empty lists and no direction word */
	prefix(&b, 2, 0);
	w32(&b, 0); w32(&b, 0); w32(&b, 0);
	rpc_call(&b);
	expect(&b, RPCRDMA2_FAM_CEL08_IETF02, false, "MSG without a direction word");
	/* NOMSG without a direction word, one reply chunk of one segment */
	prefix(&b, 2, 1);
	w32(&b, 0); w32(&b, 0); w32(&b, 1); w32(&b, 1);
	w32(&b, 0x1000a0b1); w32(&b, 4096); w32(&b, 0x7f3a); w32(&b, 0x1c000000);
	expect(&b, RPCRDMA2_FAM_CEL08_IETF02, false, "NOMSG without a direction word");
	/* cel-01 itself */
	prefix(&b, 2, 0);
	w32(&b, 0); w32(&b, 0); w32(&b, 0); w32(&b, 0);
	rpc_call(&b);
	expect(&b, RPCRDMA2_FAM_CEL01, true, "a cel-01 RDMA2_MSG");
	prefix(&b, 2, 0);
	w32(&b, 0); w32(&b, 0); w32(&b, 0); w32(&b, 0);
	w32(&b, 0x12345678); w32(&b, 0);
	expect(&b, RPCRDMA2_FAM_CEL01, false, "a cel-01 RDMA2_MSG with an XID mismatch");
	prefix(&b, 2, 3);
	expect(&b, RPCRDMA2_FAM_CEL01, false, "type 3: no family");
	prefix(&b, 2, 14);
	expect(&b, RPCRDMA2_FAM_CEL01, false, "type 14: past ietf-07's");
	b.n = 12;
	expect(&b, RPCRDMA2_FAM_CEL01, false, "12 bytes of Version Two");
	/* not Version Two */
	prefix(&b, 1, 10);
	expect(&b, 0, false, "Version One, type 10");
	b.n = 4;
	expect(&b, 0, false, "4 bytes");
	/* names */
	tap_ok(!strcmp(rpcrdma_v2_family_drafts(RPCRDMA2_FAM_CEL01),
		       "draft-cel-nfsv4-rpcrdma-version-two-01") &&
	       !strcmp(RPCRDMA_V2_DRAFT, "draft-cel-nfsv4-rpcrdma-version-two-01"),
	       "cel-01 is draft-cel-nfsv4-rpcrdma-version-two-01");
	tap_ok(!strcmp(rpcrdma_v2_family_name(RPCRDMA2_FAM_IETF03_07), "ietf-03..07") &&
	       !strcmp(rpcrdma_v2_family_drafts(RPCRDMA2_FAM_IETF03_07),
		       "draft-ietf-nfsv4-rpcrdma-version-two-03..07") &&
	       !strcmp(rpcrdma_v2_family_name(RPCRDMA2_FAM_LATER), "cel-08..ietf-07") &&
	       !strcmp(rpcrdma_v2_family_name(RPCRDMA2_FAM_CEL08_IETF02), "cel-08..ietf-02") &&
	       !strcmp(rpcrdma_v2_family_name(0), ""),
	       "family names");
	return tap_done();
}
