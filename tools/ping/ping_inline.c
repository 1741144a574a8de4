/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ping_inline.c - --probe-inline: the largest inline message (one RDMA
 * Send: transport header + RPC message) the peer really receives.  It
 * starts from what its RFC 8797 private data says (or the version's
 * default, V1 §4.3.2, V2 §2.3) and searches (ping_search.c) with calls
 * forced inline: a Send larger than the Receive buffer it lands in fails on
 * the peer and breaks the connection, which is then made again.
 *   - the echo program answers ECHO with the same bytes, so a size counts as
 *     received when the data comes back identical;
 *   - any other program (NFS) is sent NULL calls padded with zero bytes
 *     past the RPC header: any RPC reply (SUCCESS, GARBAGE_ARGS) shows the
 *     Send arrived.  What such a peer sends inline cannot be learned: no
 *     reply of a size we choose exists without a file to read.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "echo_ulb.h"
#include "ping_probe.h"
#include "rpcrdma/rpc.h"

#define OUR_INLINE (256u * 1024)       /* the most RFC 8797 can announce */
#define RPC_CALL_HDR 40u               /* AUTH_NONE call header */
#define SECTION "inline threshold"

struct inl {
	const struct ping_opts *o;
	struct probe_report rep;
	struct ping_conn pc;
	bool echo;
	uint32_t hdr_len;              /* transport header of a plain call */
	unsigned reconnects, failures;
	uint8_t *buf;                  /* the call (OUR_INLINE bytes) */
};

/* Header length of an RDMA_MSG without chunks in `vers`, from libcodec */
static uint32_t plain_header_len(uint32_t vers)
{
	struct rpcrdma_hdr h = { .rdma_vers = vers, .rdma_proc = RDMA_MSG };
	size_t need = 0;

	rpcrdma_encode(&h, NULL, 0, &need);
	return (uint32_t)need;
}

/* One Send of exactly `size` bytes; true when the peer showed it got it */
static bool try_size(struct inl *s, uint32_t size)
{
	struct xprt_call c;
	struct rpc_msg_hdr h;
	struct ping_rpc_result res;
	struct xprt_error err;
	const uint8_t *d;
	uint32_t dl, count, body = size - s->hdr_len;
	size_t off = 0, len = 0;
	bool ok = false;

	if (!s->pc.x) {
		if (ping_conn_open(&s->pc, &err) < 0)
			return false;
		s->reconnects++;
	}
	memset(&c, 0, sizeof(c));
	c.msg = s->buf;
	if (s->echo) {
		uint32_t dlen = body - RPC_CALL_HDR - 4, i;

		c.len = echo_encode_call(s->buf, OUR_INLINE, ECHO_PROC_ECHO, 0, NULL,
					 dlen, &off, &len);
		for (i = 0; c.len && i < dlen; i++)  /* a pattern to check */
			s->buf[off + i] = (uint8_t)(i * 7 + 1);
	} else {
		c.len = ping_rpc_call(s->buf, OUR_INLINE, s->o->prog, s->o->vers, 0,
				      body - RPC_CALL_HDR);
	}
	c.reply_max = OUR_INLINE;
	c.chunk = XPRT_CHUNK_INLINE;
	if (!c.len || ping_conn_call(&s->pc, &c) < 0 || c.err.code != XPRT_E_OK ||
	    c.rdma_error) {
		ok = false;
	} else if (s->echo) {
		ok = echo_decode_reply(c.reply, c.reply_len, ECHO_PROC_ECHO, &h, &d,
				       &dl, &count) == 0 &&
		     dl == len && !memcmp(d, s->buf + off, dl);
	} else {
		ping_rpc_judge(c.reply, c.reply_len, c.xid, &res);
		ok = res.status != PING_RPC_MALFORMED && res.status != PING_RPC_NOT_REPLY;
	}
	if (!ok) {
		s->failures++;
		if (s->pc.x)                     /* a timeout: start afresh */
			ping_conn_close(&s->pc);
	}
	return ok;
}

static void report_claim(struct inl *s, const struct xprt_peer_info *pi,
			 uint32_t vers, uint32_t *claim)
{
	struct probe_item it;

	probe_item_init(&it, SECTION, "claim", "the peer says");
	if (pi->has_private_data) {
		*claim = pi->priv.max_recv_size;
		it.result = "private data";
		item_text(&it, "receives %u, sends %u (RFC 8797)",
			  pi->priv.max_recv_size, pi->priv.max_send_size);
		item_num(&it, "receive", pi->priv.max_recv_size);
		item_num(&it, "send", pi->priv.max_send_size);
	} else {
		*claim = rpcrdma_inline_threshold(vers, vers == RPCRDMA_VERSION_TWO);
		it.result = "nothing";
		item_text(&it, "no private data: Version %s's default, %u",
			  vers == RPCRDMA_VERSION_TWO ? "Two" : "One", *claim);
		item_num(&it, "receive", *claim);
	}
	report_item(&s->rep, &it);
}

static void report_result(struct inl *s, const struct ping_search *se,
			  uint32_t claim, uint32_t send_claim, bool have_pd)
{
	struct probe_item it;
	bool exact;
	uint32_t got = ping_search_result(se, &exact);

	probe_item_init(&it, SECTION, "receive", "largest Send received");
	item_num(&it, "bytes", got);
	item_num(&it, "first_failure", se->bad);
	item_num(&it, "header_length", s->hdr_len);
	item_num(&it, "tries", se->tries);
	item_num(&it, "reconnects", s->reconnects);
	if (!got) {
		it.result = "none";
		item_text(&it, "not even a %u-byte Send was answered", se->min);
	} else if (exact) {
		it.result = got == claim ? "confirmed" : "differs";
		item_text(&it, "%u bytes (%u of transport header); %u bytes broke the "
			  "connection; %u %s calls, %u reconnects", got, s->hdr_len,
			  se->bad, se->tries, s->echo ? "ECHO" : "padded NULL",
			  s->reconnects);
	} else {
		it.result = "at least";
		item_text(&it, "%u bytes, the most we send inline; %u %s calls", got,
			  se->tries, s->echo ? "ECHO" : "padded NULL");
	}
	report_item(&s->rep, &it);

	probe_item_init(&it, SECTION, "method", "how it was learned");
	it.result = s->echo ? "ECHO calls" : "padded NULL calls";
	item_text(&it, s->echo ?
		  "ECHO calls sent inline, each counted received when its data "
		  "came back identical; a Send too large broke the connection, "
		  "which was made again" :
		  "NULL calls with zero bytes after the RPC header, sent inline: "
		  "any RPC reply shows the Send arrived; a Send too large broke "
		  "the connection, which was made again");
	report_item(&s->rep, &it);

	probe_item_init(&it, SECTION, "send", "largest Send it sends");
	if (s->echo) {
		it.result = "not measured";
		if (have_pd)
			item_text(&it, "ECHO replies are smaller than their calls; "
				  "its private data says it sends up to %u bytes",
				  send_claim);
		else
			item_text(&it, "ECHO replies are smaller than their calls; "
				  "it sent no private data");
	} else {
		it.result = "cannot be learned";
		const char *pn = ping_prog_name(s->o->prog) ?
				 ping_prog_name(s->o->prog) : "the program";
		if (have_pd)
			item_text(&it, "%s v%u has no procedure that answers with "
				  "as many bytes as we choose (NULL replies are 24 "
				  "bytes); its private data says it sends up to %u "
				  "bytes", pn, s->o->vers, send_claim);
		else
			item_text(&it, "%s v%u has no procedure that answers with "
				  "as many bytes as we choose (NULL replies are 24 "
				  "bytes); it sent no private data", pn, s->o->vers);
	}
	if (have_pd)
		item_num(&it, "claim", send_claim);
	report_item(&s->rep, &it);
}

int ping_probe_inline(const struct ping_opts *o)
{
	static struct inl s;
	struct ping_search se;
	struct xprt_error err;
	struct xprt_call c;
	struct ping_target t;
	uint8_t nb[64];
	uint32_t vers, claim, size, min;
	int rc = PING_EXIT_OK;

	memset(&s, 0, sizeof(s));
	s.o = o;
	s.echo = o->prog == ECHO_PROG;
	ping_out_init(&s.rep.out, stdout, o->json, false);
	s.buf = malloc(OUR_INLINE);
	if (!s.buf) {
		fputs(PING_PROG ": out of memory\n", stderr);
		return PING_EXIT_USAGE;
	}
	ping_conn_init(&s.pc, o, 0, OUR_INLINE, OUR_INLINE);
	s.pc.xo.credits = 2;               /* one call at a time: few buffers */
	if (ping_conn_open(&s.pc, &err) < 0) {
		ping_out_fatal(&s.rep.out, &err);
		ping_loop_end();
		free(s.buf);
		return ping_errcode_exit(err.code);
	}
	/* a NULL call first: it settles the version (V2 §5); unanswered, it
	 * is made once more on a new connection (siw's lost first Send) */
	if (!probe_first_call(&s.pc, &s.rep, SECTION, &c, nb, sizeof(nb)) &&
	    c.err.code != XPRT_E_OK) {
		ping_out_fatal(&s.rep.out, &c.err);
		rc = PING_EXIT_NOREPLY;
		goto out;
	}
	const struct xprt_peer_info *pi = ping_conn_peer(&s.pc);
	struct xprt_peer_info peer = *pi;
	vers = peer.vers ? peer.vers : c.hdr.rdma_vers;
	if (!o->probe) {
		t = (struct ping_target){ .host = o->host, .addr = peer.addr,
					  .device = peer.device, .prog = o->prog,
					  .vers = o->vers, .proc = o->proc };
		ping_out_start(&s.rep.out, &t);
	}
	s.hdr_len = plain_header_len(vers);
	report_claim(&s, &peer, vers, &claim);
	min = s.hdr_len + RPC_CALL_HDR + (s.echo ? 4 : 0);
	ping_search_init(&se, min, OUR_INLINE, claim);
	while ((size = ping_search_next(&se)))
		ping_search_record(&se, size, try_size(&s, size));
	report_result(&s, &se, claim, peer.priv.max_send_size, peer.has_private_data);
	if (!ping_search_result(&se, NULL))
		rc = PING_EXIT_NOREPLY;
out:
	ping_out_flush(&s.rep.out);
	ping_conn_free(&s.pc);
	ping_loop_end();
	free(s.buf);
	return rc;
}
