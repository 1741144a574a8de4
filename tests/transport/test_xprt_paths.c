/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_xprt_paths.c - the transport over the fake verbs, client and server
 * in one loop: private data both ways and the thresholds it sets (RFC
 * 8797), every chunk path byte for byte (V1 §4.5, §5.3), V2 §5 negotiation
 * and the V2 -> V1 fallback remembered for a reconnect, credit limits (V1
 * §4.3), backward calls (BIDI), and nothing left behind.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "harness.h"
#include "tap.h"

static void connect_and_private_data(void)
{
	struct h_server sv;
	struct h_client cl;
	struct xprt_error err = { 0 };
	struct xprt_opts so = { .inline_recv = 8192, .inline_send = 2048 };
	const struct xprt_peer_info *p;

	h_setup(&sv, &so);
	tap_ok(h_connect(&sv, &cl, NULL, &err) != NULL, "client connects over the fake (%s)",
	       err.msg);
	h_run(&sv, 20);
	p = xprt_peer(cl.x);
	tap_ok(sv.connects == 1 && p->has_private_data &&
	       p->priv.max_recv_size == 8192 && p->priv.max_send_size == 2048,
	       "client read the server's private data: receive 8 KiB, send 2 KiB");
	tap_ok(p->inline_send == 4096 && p->inline_recv == 2048,
	       "client thresholds: send min(4096, 8192), receive min(4096, 2048)");
	p = xprt_peer(sv.last);
	tap_ok(p->has_private_data && p->priv.max_recv_size == 4096 &&
	       p->inline_send == 2048 && p->inline_recv == 4096 &&
	       !strcmp(p->device, "fake0") && !strncmp(p->addr, "127.0.0.1:", 10),
	       "server read the client's; device and address known");
	xprt_close(cl.x);
	h_run(&sv, 20);
	tap_ok(cl.disconnects == 1 && cl.why == XPRT_DISC_LOCAL && sv.disconnects == 1 &&
	       sv.last_why == XPRT_DISC_PEER, "orderly close: local at one end, peer at the other");
	h_teardown(&sv);
	tap_ok(h_no_leaks(), "nothing left");
	fake_verbs_reset();

	so = (struct xprt_opts){ .no_private_data = true };
	h_setup(&sv, &so);
	h_connect(&sv, &cl, NULL, &err);
	p = xprt_peer(cl.x);
	tap_ok(!p->has_private_data && p->inline_send == 1024,
	       "a server without private data: V2 before negotiation, 1024");
	h_teardown(&sv);
	fake_verbs_reset();

	/* the server's first Receive completes before its ESTABLISHED */
	fake_verbs_config.late_established = true;
	h_setup(&sv, NULL);
	h_connect(&sv, &cl, NULL, &err);
	{
		struct h_call hc;

		h_call_init(&hc, 10, 1, XPRT_CHUNK_AUTO);
		tap_ok(h_call_run(&sv, cl.x, &hc) && h_reply_ok(&hc) && sv.connects == 1,
		       "a call that arrives before the server's ESTABLISHED is answered, "
		       "on_connect runs once");
		h_call_free(&hc);
	}
	h_run(&sv, 10);
	tap_ok(sv.connects == 1, "and the late ESTABLISHED changes nothing");
	h_teardown(&sv);
	fake_verbs_reset();
}

struct path_case {
	size_t len;
	enum xprt_chunk_mode mode;
	enum xprt_path call_path, reply_path;
};

static void chunk_paths(uint32_t versions)
{
	static const struct path_case cases[] = {
		{ 0, XPRT_CHUNK_AUTO, XPRT_PATH_INLINE, XPRT_PATH_INLINE },
		{ 1, XPRT_CHUNK_AUTO, XPRT_PATH_INLINE, XPRT_PATH_INLINE },
		{ 900, XPRT_CHUNK_AUTO, XPRT_PATH_INLINE, XPRT_PATH_INLINE },
		{ 3001, XPRT_CHUNK_AUTO, XPRT_PATH_INLINE, XPRT_PATH_INLINE },
		{ 4070, XPRT_CHUNK_AUTO, XPRT_PATH_READ, XPRT_PATH_WRITE },
		{ 5000, XPRT_CHUNK_AUTO, XPRT_PATH_READ, XPRT_PATH_WRITE },
		{ 65537, XPRT_CHUNK_AUTO, XPRT_PATH_READ, XPRT_PATH_WRITE },
		{ 1u << 20, XPRT_CHUNK_AUTO, XPRT_PATH_READ, XPRT_PATH_WRITE },
		{ 1u << 20, XPRT_CHUNK_POS0, XPRT_PATH_POS0, XPRT_PATH_WRITE },
		{ 13, XPRT_CHUNK_READ, XPRT_PATH_READ, XPRT_PATH_INLINE },
		{ 14, XPRT_CHUNK_WRITE, XPRT_PATH_INLINE, XPRT_PATH_WRITE },
		{ 13, XPRT_CHUNK_POS0, XPRT_PATH_POS0, XPRT_PATH_INLINE },
		{ 513, XPRT_CHUNK_WRITE, XPRT_PATH_INLINE, XPRT_PATH_WRITE },
		{ 2000, XPRT_CHUNK_REPLY, XPRT_PATH_INLINE, XPRT_PATH_INLINE },
		{ 200001, XPRT_CHUNK_REPLY, XPRT_PATH_READ, XPRT_PATH_REPLY },
		{ 3000, XPRT_CHUNK_INLINE, XPRT_PATH_INLINE, XPRT_PATH_INLINE },
	};
	struct h_server sv;
	struct h_client cl;
	struct xprt_error err = { 0 };
	struct xprt_opts co = h_client_opts();
	struct h_call hc;
	unsigned i;

	h_setup(&sv, NULL);
	co.versions = versions;
	h_connect(&sv, &cl, &co, &err);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct path_case *k = &cases[i];
		bool ran;

		h_call_init(&hc, k->len, i, k->mode);
		ran = h_call_run(&sv, cl.x, &hc);
		tap_ok(ran && hc.c.call_path == k->call_path &&
		       hc.c.reply_path == k->reply_path && sv.last_call_path == k->call_path &&
		       h_reply_ok(&hc),
		       "V%u %zu bytes, --chunk %d: call %s, reply %s, every byte back "
		       "(got %s/%s, %s)", versions == XPRT_V1 ? 1 : 2, k->len, (int)k->mode,
		       xprt_path_name(k->call_path), xprt_path_name(k->reply_path),
		       xprt_path_name(hc.c.call_path), xprt_path_name(hc.c.reply_path),
		       hc.c.err.msg);
		h_call_free(&hc);
	}
	tap_ok(xprt_peer(cl.x)->vers == (versions == XPRT_V1 ? 1u : 2u) &&
	       sv.last_vers == xprt_peer(cl.x)->vers, "the version in use");
	h_teardown(&sv);
	tap_ok(h_no_leaks(), "nothing left after the chunk paths");
	fake_verbs_reset();
}

static void v2_fallback(void)
{
	struct h_server sv;
	struct h_client cl;
	struct xprt_error err = { 0 };
	struct xprt_opts so = { .versions = XPRT_V1 };
	struct xprt_stats st;
	struct h_call hc;
	const struct xprt_peer_info *p;

	h_setup(&sv, &so);
	h_connect(&sv, &cl, NULL, &err);
	h_call_init(&hc, 100, 1, XPRT_CHUNK_AUTO);
	tap_ok(h_call_run(&sv, cl.x, &hc) && h_reply_ok(&hc),
	       "v1-only server: the V2 call is refused, resent in V1, answered");
	h_call_free(&hc);
	p = xprt_peer(cl.x);
	tap_ok(p->v2_refused && p->vers == 1 && p->vers_low == 1 && p->vers_high == 1 &&
	       cl.errors_seen == 1 && cl.last_err == RDMA_ERR_VERS && sv.last_vers == 1,
	       "ERR_VERS with range 1..1 seen, recorded in the peer info");
	xprt_close(cl.x);
	h_run(&sv, 20);
	h_connect(&sv, &cl, NULL, &err);
	h_call_init(&hc, 100, 2, XPRT_CHUNK_AUTO);
	tap_ok(h_call_run(&sv, cl.x, &hc) && h_reply_ok(&hc) && cl.errors_seen == 0 &&
	       xprt_peer(cl.x)->v2_refused, "reconnected: starts with V1, no second refusal");
	h_call_free(&hc);
	xprt_loop_get_stats(sv.l, &st);
	tap_ok(st.errors_sent == 1, "the server sent one ERR_VERS in all");
	h_teardown(&sv);
	fake_verbs_reset();

	so.versions = XPRT_V2;
	h_setup(&sv, &so);
	so = h_client_opts();
	so.versions = XPRT_V1;
	h_connect(&sv, &cl, &so, &err);
	h_call_init(&hc, 10, 3, XPRT_CHUNK_AUTO);
	h_call_run(&sv, cl.x, &hc);
	tap_ok(hc.done && hc.c.rdma_error && hc.c.hdr.rdma_err == RDMA_ERR_VERS &&
	       hc.c.hdr.rdma_vers_low == 2 && hc.c.hdr.rdma_vers_high == 2,
	       "v1-only client, v2-only server: ERR_VERS 2..2 completes the call");
	free((void *)hc.c.reply);
	h_call_free(&hc);
	h_teardown(&sv);
	tap_ok(h_no_leaks(), "nothing left after the fallbacks");
	fake_verbs_reset();
}

static struct h_call *many;
static unsigned many_done;

static void many_cb(struct xprt_call *c)
{
	(void)c;
	many_done++;
}

static void credit_limits(void)
{
	struct h_server sv;
	struct h_client cl;
	struct xprt_error err = { 0 };
	struct xprt_opts so = { .credits = 4 };
	struct xprt_stats st;
	unsigned i, ok = 0;

	h_setup(&sv, &so);
	h_connect(&sv, &cl, NULL, &err);
	many = calloc(40, sizeof(*many));
	many_done = 0;
	for (i = 0; i < 40; i++) {
		h_call_init(&many[i], 200 + i, i, XPRT_CHUNK_AUTO);
		many[i].c.done = many_cb;
		xprt_call(cl.x, &many[i].c);
	}
	xprt_get_stats(cl.x, &st);
	tap_ok(st.calls_sent == 1, "one call outstanding before the first reply (V1 §4.3.3)");
	for (i = 0; i < 100 && many_done < 40; i++)
		h_run(&sv, 10);
	xprt_get_stats(cl.x, &st);
	for (i = 0; i < 40; i++)
		ok += many[i].c.err.code == XPRT_E_OK && !many[i].c.rdma_error;
	tap_ok(ok == 40 && st.max_outstanding <= 4 && st.credit_waits > 0,
	       "40 calls, grant 4: all answered, never more than 4 outstanding "
	       "(max %u, waits %llu)", st.max_outstanding,
	       (unsigned long long)st.credit_waits);
	tap_ok(xprt_peer(cl.x)->credits_granted == 4, "the grant seen is 4");
	for (i = 0; i < 40; i++)
		h_call_free(&many[i]);
	free(many);
	h_teardown(&sv);
	fake_verbs_reset();
}

static void backward(void)
{
	struct h_server sv;
	struct h_client cl;
	struct xprt_error err = { 0 };
	struct xprt_stats st;
	struct h_call hc;
	int i;

	h_setup(&sv, NULL);
	sv.backward_on_call = 3;
	h_connect(&sv, &cl, NULL, &err);
	h_call_init(&hc, 16, 1, XPRT_CHUNK_AUTO);
	h_call_run(&sv, cl.x, &hc);
	for (i = 0; i < 50 && sv.backward_ok + sv.backward_failed < 3; i++)
		h_run(&sv, 10);
	tap_ok(sv.backward_ok == 3 && cl.backward_calls == 3,
	       "3 backward calls on the same connection, answered by the client");
	xprt_get_stats(sv.last, &st);
	tap_ok(st.backward_calls_sent == 3 && st.replies_received == 3 && st.calls_received == 1,
	       "the server counts backward calls apart from forward ones");
	h_reply_ok(&hc);
	h_call_free(&hc);
	h_teardown(&sv);
	tap_ok(h_no_leaks(), "nothing left after backward calls");
	fake_verbs_reset();
}

static void remote_invalidation(void)
{
	struct h_server sv;
	struct h_client cl;
	struct xprt_error err = { 0 };
	struct xprt_opts co = h_client_opts();
	struct fake_verbs_counts fc;
	struct h_call hc;
	bool ok;

	h_setup(&sv, NULL);
	co.remote_invalidate = true;
	h_connect(&sv, &cl, &co, &err);
	h_run(&sv, 10);
	tap_ok(xprt_peer(sv.last)->has_private_data &&
	       (xprt_peer(sv.last)->priv.pd_flags & RPCRDMA_CM_FLAG_REMOTE_INVALIDATE),
	       "a client with memory windows announces remote invalidation (RFC 8797)");
	/* one chunk per call: one rkey to invalidate (D-XPRT-6) */
	h_call_init(&hc, 500, 1, XPRT_CHUNK_WRITE);
	h_call_run(&sv, cl.x, &hc);
	fake_verbs_counts(&fc);
	ok = h_reply_ok(&hc);
	tap_ok(ok && hc.c.remote_invalidated && fc.send_invs == 1 &&
	       hc.c.reply_path == XPRT_PATH_WRITE,
	       "the server answers with Send With Invalidate of the write chunk's rkey");
	h_call_free(&hc);
	h_call_init(&hc, 500, 2, XPRT_CHUNK_READ);
	h_call_run(&sv, cl.x, &hc);
	ok = h_reply_ok(&hc);
	tap_ok(ok && hc.c.remote_invalidated && hc.c.call_path == XPRT_PATH_READ && cl.x,
	       "and of the read chunk's; the connection stays");
	h_call_free(&hc);
	h_call_init(&hc, 100000, 3, XPRT_CHUNK_AUTO);
	h_call_run(&sv, cl.x, &hc);
	fake_verbs_counts(&fc);
	ok = h_reply_ok(&hc);
	tap_ok(ok && !hc.c.remote_invalidated && fc.send_invs == 2,
	       "a read and a write chunk (two rkeys): a plain Send, both windows "
	       "deallocated by the requester");
	h_call_free(&hc);
	h_teardown(&sv);
	tap_ok(h_no_leaks(), "no region or window left");
	fake_verbs_reset();

	fake_verbs_config.no_mw = true;
	h_setup(&sv, NULL);
	h_connect(&sv, &cl, &co, &err);
	h_run(&sv, 10);
	h_call_init(&hc, 500, 3, XPRT_CHUNK_WRITE);
	h_call_run(&sv, cl.x, &hc);
	fake_verbs_counts(&fc);
	ok = h_reply_ok(&hc);
	tap_ok(!(xprt_peer(sv.last)->priv.pd_flags & RPCRDMA_CM_FLAG_REMOTE_INVALIDATE) &&
	       !hc.c.remote_invalidated && fc.send_invs == 0 && ok,
	       "a device without memory windows: no flag, plain Sends");
	h_call_free(&hc);
	h_teardown(&sv);
	fake_verbs_reset();
}

int main(void)
{
	connect_and_private_data();
	chunk_paths(0);
	chunk_paths(XPRT_V1);
	v2_fallback();
	credit_limits();
	backward();
	remote_invalidation();
	return tap_done();
}
