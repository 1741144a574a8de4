/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_nfs_ddp.c - rpcrdma_ddp_locate_reply(): reduced NFS replies written
 * out by hand from the XDR of RFC 5531 §9 (reply header), RFC 1094 and
 * RFC 1813 (READ3res, READLINK3res), RFC 8881 §16.2 and §18 (COMPOUND4res,
 * SEQUENCE4res, GETATTR4res, READ4res), reduced as V1 §4.4.6 says.
 */
#include <stdio.h>
#include <string.h>
#include "rpcrdma/nfs_ddp.h"
#include "rpcrdma/rpc.h"
#include "tap.h"

struct buf { uint8_t b[1024]; uint32_t n; };

static void w32(struct buf *b, uint32_t v)
{
	b->b[b->n++] = (uint8_t)(v >> 24);
	b->b[b->n++] = (uint8_t)(v >> 16);
	b->b[b->n++] = (uint8_t)(v >> 8);
	b->b[b->n++] = (uint8_t)v;
}

static void zeros(struct buf *b, uint32_t n)
{
	memset(b->b + b->n, 0, n);
	b->n += n;
}

/* accepted, AUTH_NONE verifier, SUCCESS */
static void reply_hdr(struct buf *b, uint32_t accept_stat)
{
	b->n = 0;
	w32(b, 0x3fae176d);  /* xid */
	w32(b, 1);           /* REPLY */
	w32(b, 0);           /* MSG_ACCEPTED */
	w32(b, 0); w32(b, 0);/* verf: AUTH_NONE, 0 bytes */
	w32(b, accept_stat);
}

static enum rpcrdma_ddp_result locate(const struct buf *b, uint32_t vers,
				      uint32_t proc, const uint32_t *written,
				      uint32_t nchunks, struct rpcrdma_ddp_reply *r)
{
	memset(r, 0, sizeof(*r));
	r->prog = RPC_PROG_NFS;
	r->vers = vers;
	r->proc = proc;
	r->written = written;
	r->nchunks = nchunks;
	/* the stream ends at a guard page: an over-read faults */
	return rpcrdma_ddp_locate_reply(guard_copy(b->b, b->n), b->n, r);
}

static void nfs3(void)
{
	struct buf b;
	struct rpcrdma_ddp_reply r;
	uint32_t w128k[] = { 131072 }, unused[] = { 0 }, w4k[] = { 4096 };
	uint32_t w11[] = { 11 }, w100[] = { 100 };
	enum rpcrdma_ddp_result res;

	/* READ3resok: status, post_op_attr (TRUE + fattr3), count, eof, data<> */
	reply_hdr(&b, 0);
	w32(&b, 0); w32(&b, 1); zeros(&b, 84); w32(&b, 131072); w32(&b, 1);
	w32(&b, 131072);
	res = locate(&b, 3, 6, w128k, 1, &r);
	tap_ok(res == RPCRDMA_DDP_OK && r.nitems == 1 && r.items[0].off == b.n &&
	       r.items[0].len == 131072 && r.items[0].chunk == 0,
	       "NFSv3 READ: the data goes back after the last word (off %u)",
	       r.items[0].off);
	res = locate(&b, 3, 6, w4k, 1, &r);
	tap_ok(res == RPCRDMA_DDP_MISMATCH && r.fault_off == b.n - 4,
	       "NFSv3 READ: a length word that is not what the chunk holds: mismatch at it");
	w32(&b, 0);
	res = locate(&b, 3, 6, w128k, 1, &r);
	tap_ok(res == RPCRDMA_DDP_MISMATCH, "NFSv3 READ: bytes after a reduced item that ends the result: mismatch");
	b.n -= 4;
	res = locate(&b, 3, 6, unused, 1, &r);
	tap_ok(res == RPCRDMA_DDP_OK && r.nitems == 0,
	       "NFSv3 READ with the Write chunk unused: nothing to put back");
	res = locate(&b, 3, 6, NULL, 0, &r);
	tap_ok(res == RPCRDMA_DDP_OK && r.nitems == 0, "no Write list: nothing to put back");

	/* post_op_attr FALSE; a short READ of 5 bytes */
	reply_hdr(&b, 0);
	w32(&b, 0); w32(&b, 0); w32(&b, 5); w32(&b, 1); w32(&b, 5);
	{
		uint32_t w5[] = { 5 };
		res = locate(&b, 3, 6, w5, 1, &r);
		tap_ok(res == RPCRDMA_DDP_OK && r.nitems == 1 && r.items[0].off == 44 &&
		       r.items[0].len == 5, "NFSv3 READ without attributes, 5 bytes: item at 44");
	}
	/* the error arm (NFS3ERR_IO, post_op_attr FALSE) has no data */
	reply_hdr(&b, 0);
	w32(&b, 5); w32(&b, 0);
	res = locate(&b, 3, 6, w100, 1, &r);
	tap_ok(res == RPCRDMA_DDP_NO_ITEM, "NFSv3 READ error with a used Write chunk: no item for it");
	/* READLINK3resok: status, post_op_attr, nfspath3 */
	reply_hdr(&b, 0);
	w32(&b, 0); w32(&b, 0); w32(&b, 11);
	res = locate(&b, 3, 5, w11, 1, &r);
	tap_ok(res == RPCRDMA_DDP_OK && r.nitems == 1 && r.items[0].off == 36 &&
	       r.items[0].len == 11, "NFSv3 READLINK: path goes back at 36");
	res = locate(&b, 3, 1, w11, 1, &r);
	tap_ok(res == RPCRDMA_DDP_NO_ITEM, "NFSv3 GETATTR has no DDP-eligible result");
	/* truncated inside the attributes */
	reply_hdr(&b, 0);
	w32(&b, 0); w32(&b, 1); zeros(&b, 40);
	res = locate(&b, 3, 6, w128k, 1, &r);
	tap_ok(res == RPCRDMA_DDP_TRUNCATED, "NFSv3 READ cut in its attributes: truncated");
	/* not accepted: PROC_UNAVAIL */
	reply_hdr(&b, 3);
	res = locate(&b, 3, 6, w128k, 1, &r);
	tap_ok(res == RPCRDMA_DDP_NO_ITEM, "RPC PROC_UNAVAIL: no item");
	/* NFSv2 READ: status, fattr (68), data<> */
	reply_hdr(&b, 0);
	w32(&b, 0); zeros(&b, 68); w32(&b, 8192);
	{
		uint32_t w8k[] = { 8192 };
		res = locate(&b, 2, 6, w8k, 1, &r);
		tap_ok(res == RPCRDMA_DDP_OK && r.nitems == 1 && r.items[0].off == b.n,
		       "NFSv2 READ: data after the fattr");
	}
}

static void nfs4(void)
{
	struct buf b;
	struct rpcrdma_ddp_reply r;
	uint32_t w128k[] = { 131072 }, two[] = { 4096, 0 }, both[] = { 4096, 100 };
	enum rpcrdma_ddp_result res;
	uint32_t mid;

	/* SEQUENCE PUTFH READ, as the Linux client sends it */
	reply_hdr(&b, 0);
	w32(&b, 0); w32(&b, 0); w32(&b, 3);            /* status, tag<>, 3 results */
	w32(&b, 53); w32(&b, 0); zeros(&b, 16);        /* SEQUENCE: sessionid */
	w32(&b, 0x23); w32(&b, 0); w32(&b, 29); w32(&b, 29); w32(&b, 0);
	w32(&b, 22); w32(&b, 0);                       /* PUTFH */
	w32(&b, 25); w32(&b, 0); w32(&b, 1); w32(&b, 131072); /* READ: eof, len */
	res = locate(&b, 4, 1, w128k, 1, &r);
	tap_ok(res == RPCRDMA_DDP_OK && r.nitems == 1 && r.items[0].off == b.n &&
	       r.items[0].len == 131072, "NFSv4.1 SEQUENCE PUTFH READ: data at the end (%u)",
	       r.items[0].off);

	/* PUTFH GETATTR READ GETATTR: the item is in the middle */
	reply_hdr(&b, 0);
	w32(&b, 0); w32(&b, 4); w32(&b, 0x74616731); w32(&b, 4); /* tag "tag1" */
	w32(&b, 22); w32(&b, 0);
	w32(&b, 9); w32(&b, 0); w32(&b, 2); w32(&b, 0x18); w32(&b, 0); /* bitmap */
	w32(&b, 6); w32(&b, 0x01020304); w32(&b, 0x05060000);          /* attrs<6> */
	w32(&b, 25); w32(&b, 0); w32(&b, 0); w32(&b, 4096);
	mid = b.n;
	w32(&b, 9); w32(&b, 0); w32(&b, 0); w32(&b, 0);
	res = locate(&b, 4, 1, two, 2, &r);
	tap_ok(res == RPCRDMA_DDP_OK && r.nitems == 1 && r.items[0].off == mid &&
	       r.items[0].chunk == 0, "NFSv4 PUTFH GETATTR READ GETATTR: item before the last GETATTR");
	res = locate(&b, 4, 1, both, 2, &r);
	tap_ok(res == RPCRDMA_DDP_NO_ITEM, "a second used Write chunk without a second READ: no item");

	/* an operation whose result layout is not known here (OPEN) first */
	reply_hdr(&b, 0);
	w32(&b, 0); w32(&b, 0); w32(&b, 2);
	w32(&b, 18); w32(&b, 0); zeros(&b, 40);
	w32(&b, 25); w32(&b, 0); w32(&b, 0); w32(&b, 4096);
	res = locate(&b, 4, 1, two, 1, &r);
	tap_ok(res == RPCRDMA_DDP_UNKNOWN && r.fault_off == 36,
	       "NFSv4 OPEN before READ: position unknown, at the OPEN result (%u)", r.fault_off);

	/* PUTFH fails: the compound stops; the used chunk has no item */
	reply_hdr(&b, 0);
	w32(&b, 70); w32(&b, 0); w32(&b, 1); w32(&b, 22); w32(&b, 70);
	res = locate(&b, 4, 1, two, 1, &r);
	tap_ok(res == RPCRDMA_DDP_NO_ITEM, "NFSv4 PUTFH error: no READ result");

	/* two READs, the first inline (chunk 0 unused), the second reduced */
	reply_hdr(&b, 0);
	w32(&b, 0); w32(&b, 0); w32(&b, 3);
	w32(&b, 22); w32(&b, 0);
	w32(&b, 25); w32(&b, 0); w32(&b, 1); w32(&b, 3); w32(&b, 0x61626300);
	w32(&b, 25); w32(&b, 0); w32(&b, 1); w32(&b, 100);
	{
		uint32_t second[] = { 0, 100 };
		res = locate(&b, 4, 1, second, 2, &r);
		tap_ok(res == RPCRDMA_DDP_OK && r.nitems == 1 && r.items[0].chunk == 1 &&
		       r.items[0].off == b.n, "NFSv4 two READs: the first inline, the second in chunk 1");
	}
	/* READLINK */
	reply_hdr(&b, 0);
	w32(&b, 0); w32(&b, 0); w32(&b, 3);
	w32(&b, 53); w32(&b, 0); zeros(&b, 36);
	w32(&b, 22); w32(&b, 0);
	w32(&b, 27); w32(&b, 0); w32(&b, 4000);
	{
		uint32_t wl[] = { 4000 };
		res = locate(&b, 4, 1, wl, 1, &r);
		tap_ok(res == RPCRDMA_DDP_OK && r.nitems == 1 && r.items[0].off == b.n,
		       "NFSv4 READLINK: linktext goes back at the end");
	}
}

static void others(void)
{
	struct buf b;
	struct rpcrdma_ddp_reply r;
	uint32_t w[] = { 64 };
	enum rpcrdma_ddp_result res;

	reply_hdr(&b, 0);
	w32(&b, 0); w32(&b, 64);
	memset(&r, 0, sizeof(r));
	r.prog = RPC_PROG_NFS_ACL;
	r.vers = 3;
	r.written = w;
	r.nchunks = 1;
	res = rpcrdma_ddp_locate_reply(guard_copy(b.b, b.n), b.n, &r);
	tap_ok(res == RPCRDMA_DDP_UNKNOWN, "another program: unknown");

	/* a call is not a reply */
	b.n = 0;
	w32(&b, 1); w32(&b, 0); w32(&b, 2); w32(&b, 100003); w32(&b, 3); w32(&b, 6);
	w32(&b, 0); w32(&b, 0); w32(&b, 0); w32(&b, 0);
	res = locate(&b, 3, 6, w, 1, &r);
	tap_ok(res == RPCRDMA_DDP_NOT_REPLY, "an RPC call: not a reply");
	/* every prefix of a good reply: never an over-read, never OK */
	reply_hdr(&b, 0);
	w32(&b, 0); w32(&b, 1); zeros(&b, 84); w32(&b, 64); w32(&b, 1); w32(&b, 64);
	{
		uint32_t n, bad = 0, full = b.n;

		for (n = 0; n < full; n++) {
			b.n = n;
			if (locate(&b, 3, 6, w, 1, &r) == RPCRDMA_DDP_OK)
				bad++;
		}
		tap_ok(bad == 0, "every cut of an NFSv3 READ reply is refused (%u accepted)", bad);
	}
	tap_ok(strlen(rpcrdma_ddp_result_text(RPCRDMA_DDP_MISMATCH)) > 10 &&
	       strcmp(rpcrdma_ddp_result_text(RPCRDMA_DDP_NOT_REPLY), "?") != 0,
	       "every result has a text");
}

int main(void)
{
	nfs3();
	nfs4();
	others();
	return tap_done();
}
