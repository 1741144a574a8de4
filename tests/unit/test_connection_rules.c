/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_connection_rules.c - libcodec's connection-level rules: RFC 8797
 * private data, the thresholds it sets, requester credit accounting (V1
 * §4.3.1, §4.3.3), the responder's reply path (V1 §4.5.3, §5.3.2-3,
 * §5.5.3) and the verdict of a v1-only or v2-only endpoint (V1 §5.5.1,
 * V2 §5.2).  Expected bytes are written out from the RFC's figure and the
 * drafts' XDR, never taken from the code under test.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "rpcrdma/codec.h"
#include "tap.h"

#define W(x) (uint8_t)((x) >> 24), (uint8_t)((x) >> 16), (uint8_t)((x) >> 8), (uint8_t)(x)

static void private_data_decode(void)
{
	/* what the Linux NFS client sends: magic, version 1, flags 1 (it
	 * accepts Send With Invalidate), 4 KiB send and receive */
	static const uint8_t client[] = { 0xf6, 0xab, 0x0e, 0x18, 1, 1, 3, 3 };
	/* knfsd's answer: no remote invalidation */
	static const uint8_t server[] = { 0xf6, 0xab, 0x0e, 0x18, 1, 0, 3, 3 };
	/* the extremes of the size encoding: 0 is 1 KiB, 255 is 256 KiB */
	static const uint8_t ext[] = { 0xf6, 0xab, 0x0e, 0x18, 1, 0xfe, 0, 0xff };
	static const uint8_t v2[] = { 0xf6, 0xab, 0x0e, 0x18, 2, 1, 3, 3 };
	static const uint8_t other[] = { 0xf6, 0xab, 0x0e, 0x19, 1, 1, 3, 3 };
	uint8_t padded[56];
	struct rpcrdma_cm_private pd;

	memset(&pd, 0, sizeof(pd));
	tap_ok(rpcrdma_cm_private_decode(guard_copy(client, 8), 8, &pd) == RPCRDMA_CM_OK &&
	       pd.pd_magic == 0xf6ab0e18u && pd.pd_version == 1 &&
	       (pd.pd_flags & RPCRDMA_CM_FLAG_REMOTE_INVALIDATE) &&
	       pd.max_send_size == 4096 && pd.max_recv_size == 4096,
	       "private data: Linux client's 01 01 03 03 is v1, invalidation, 4 KiB/4 KiB");
	tap_ok(rpcrdma_cm_private_decode(server, 8, &pd) == RPCRDMA_CM_OK &&
	       !(pd.pd_flags & RPCRDMA_CM_FLAG_REMOTE_INVALIDATE),
	       "private data: knfsd's 01 00 03 03 has no remote invalidation");
	tap_ok(rpcrdma_cm_private_decode(ext, 8, &pd) == RPCRDMA_CM_OK &&
	       pd.max_send_size == 1024 && pd.max_recv_size == 262144 &&
	       pd.pd_flags == 0xfe,
	       "private data: size 0 is 1 KiB, 255 is 256 KiB; reserved flags kept raw");
	memset(padded, 0, sizeof(padded));
	memcpy(padded, client, 8);
	tap_ok(rpcrdma_cm_private_decode(padded, sizeof(padded), &pd) == RPCRDMA_CM_OK &&
	       pd.max_recv_size == 4096, "private data padded by the CM to 56 bytes");
	tap_ok(rpcrdma_cm_private_decode(guard_copy(client, 7), 7, &pd) == RPCRDMA_CM_ABSENT,
	       "private data: 7 bytes are absent, not read past");
	tap_ok(rpcrdma_cm_private_decode(NULL, 0, &pd) == RPCRDMA_CM_ABSENT &&
	       rpcrdma_cm_private_decode(other, 8, &pd) == RPCRDMA_CM_ABSENT,
	       "private data: none, or another magic, is absent");
	tap_ok(rpcrdma_cm_private_decode(v2, 8, &pd) == RPCRDMA_CM_BAD_VERSION,
	       "private data: our magic with format version 2 is ignored");
}

static void private_data_encode(void)
{
	static const uint8_t want[] = { 0xf6, 0xab, 0x0e, 0x18, 1, 1, 3, 7 };
	static const uint8_t want_clamp[] = { 0xf6, 0xab, 0x0e, 0x18, 1, 0, 0, 0xff };
	struct rpcrdma_cm_private in = { .pd_flags = RPCRDMA_CM_FLAG_REMOTE_INVALIDATE,
					 .max_send_size = 4096, .max_recv_size = 8192 };
	uint8_t out[16];

	tap_ok(rpcrdma_cm_private_encode(&in, out, sizeof(out)) == 8 &&
	       !memcmp(out, want, 8), "encode: 4 KiB send, 8 KiB receive, invalidation");
	in.pd_flags = 0;
	in.max_send_size = 1500;      /* rounds down to 1 KiB */
	in.max_recv_size = 1u << 20;  /* clamps to 256 KiB */
	tap_ok(rpcrdma_cm_private_encode(&in, out, sizeof(out)) == 8 &&
	       !memcmp(out, want_clamp, 8), "encode: 1500 -> 1 KiB, 1 MiB -> 256 KiB");
	in.max_send_size = 0;
	tap_ok(rpcrdma_cm_private_encode(&in, out, sizeof(out)) == 8 && out[6] == 0,
	       "encode: 0 clamps to 1 KiB");
	tap_ok(rpcrdma_cm_private_encode(&in, out, 7) == 0, "encode into 7 bytes: 0");
}

static void thresholds_from_private_data(void)
{
	struct rpcrdma_cm_private peer = { .max_send_size = 4096, .max_recv_size = 2048 };
	uint32_t s, r;

	rpcrdma_cm_thresholds(&peer, 8192, 8192, 1, false, &s, &r);
	tap_ok(s == 2048 && r == 4096,
	       "thresholds: send capped by the peer's receive size, receive by its send size");
	rpcrdma_cm_thresholds(&peer, 1024, 0, 1, false, &s, &r);
	tap_ok(s == 1024 && r == 1024, "thresholds: our smaller sizes win; 0 is the default");
	rpcrdma_cm_thresholds(NULL, 8192, 8192, 1, false, &s, &r);
	tap_ok(s == 1024 && r == 1024, "thresholds without private data: V1 default 1024");
	rpcrdma_cm_thresholds(NULL, 8192, 8192, 2, false, &s, &r);
	tap_ok(s == 1024 && r == 1024, "V2 before the peer answered in V2: 1024 (V2 §5)");
	rpcrdma_cm_thresholds(NULL, 8192, 8192, 2, true, &s, &r);
	tap_ok(s == 4096 && r == 4096, "V2 after: 4096 (V2 §2.3)");
}

static void credits(void)
{
	struct rpcrdma_credits c;
	unsigned i;

	rpcrdma_credits_init(&c, 32);
	tap_ok(rpcrdma_credits_limit(&c) == 1 && rpcrdma_credits_may_send(&c),
	       "credits: one until the first reply (V1 §4.3.3)");
	rpcrdma_credits_sent(&c);
	tap_ok(!rpcrdma_credits_may_send(&c), "credits: the one is taken");
	rpcrdma_credits_reply(&c, 64, true);
	tap_ok(c.outstanding == 0 && rpcrdma_credits_limit(&c) == 1,
	       "credits: an RDMA_ERROR reply frees the slot, grants nothing");
	rpcrdma_credits_sent(&c);
	rpcrdma_credits_reply(&c, 64, false);
	tap_ok(rpcrdma_credits_limit(&c) == 32,
	       "credits: grant 64, requested 32: the lower, 32 (V1 §4.3.1)");
	for (i = 0; i < 32; i++)
		rpcrdma_credits_sent(&c);
	tap_ok(!rpcrdma_credits_may_send(&c) && c.outstanding == 32,
	       "credits: 32 outstanding, no 33rd");
	rpcrdma_credits_reply(&c, 8, false);
	tap_ok(rpcrdma_credits_limit(&c) == 8 && !rpcrdma_credits_may_send(&c),
	       "credits: a lower grant takes effect at once (31 outstanding > 8)");
	for (i = 0; i < 23; i++)
		rpcrdma_credits_forget(&c);
	tap_ok(c.outstanding == 8 && !rpcrdma_credits_may_send(&c),
	       "credits: abandoned calls free slots");
	rpcrdma_credits_reply(&c, 0, false);
	tap_ok(rpcrdma_credits_limit(&c) == 1 && c.outstanding == 7,
	       "credits: a zero grant (a violation) counts as one, not deadlock");
	for (i = 0; i < 10; i++)
		rpcrdma_credits_forget(&c);
	tap_ok(c.outstanding == 0, "credits: outstanding never wraps below zero");
	rpcrdma_credits_init(&c, 0);
	tap_ok(c.requested == 1, "credits: requesting 0 requests 1");

	/* each rule at its edge: a one-character change to any of them
	 * (make mutate) fails one of these */
	rpcrdma_credits_init(&c, 32);
	rpcrdma_credits_reply(&c, 16, false);
	tap_ok(c.outstanding == 0 && rpcrdma_credits_may_send(&c) &&
	       rpcrdma_credits_limit(&c) == 16,
	       "credits: a reply with nothing outstanding (duplicate, unsolicited) "
	       "leaves 0 outstanding, not 2^32-1; the grant of 16 counts");
	rpcrdma_credits_reply(&c, 8, true);
	tap_ok(c.outstanding == 0 && rpcrdma_credits_limit(&c) == 16,
	       "credits: an RDMA_ERROR with nothing outstanding: still 0, grant kept");
	for (i = 0; i < 15; i++)
		rpcrdma_credits_sent(&c);
	tap_ok(rpcrdma_credits_may_send(&c), "credits: 15 of 16 outstanding: one more may go");
	rpcrdma_credits_sent(&c);
	tap_ok(!rpcrdma_credits_may_send(&c), "credits: 16 of 16: no more");
	rpcrdma_credits_reply(&c, 31, false);
	tap_ok(rpcrdma_credits_limit(&c) == 31 && rpcrdma_credits_may_send(&c) &&
	       c.outstanding == 15, "credits: grant 31 under 32 requested: 31, the reply freed one");
	rpcrdma_credits_reply(&c, 32, false);
	tap_ok(rpcrdma_credits_limit(&c) == 32, "credits: grant 32 = requested: 32");
	rpcrdma_credits_reply(&c, 33, false);
	tap_ok(rpcrdma_credits_limit(&c) == 32, "credits: grant 33 over 32 requested: 32");
	rpcrdma_credits_init(&c, 1);
	rpcrdma_credits_reply(&c, 1, false);
	tap_ok(rpcrdma_credits_limit(&c) == 1 && rpcrdma_credits_may_send(&c),
	       "credits: 1 requested, 1 granted: one may go");
	c.outstanding = UINT32_MAX;
	rpcrdma_credits_sent(&c);
	tap_ok(c.outstanding == UINT32_MAX, "credits: outstanding saturates at 2^32-1");
	rpcrdma_credits_forget(&c);
	tap_ok(c.outstanding == UINT32_MAX - 1, "credits: forget takes exactly one");
	rpcrdma_credits_init(&c, 7);
	tap_ok(c.requested == 7 && c.granted == 1 && c.outstanding == 0 && !c.have_grant &&
	       rpcrdma_credits_limit(&c) == 1, "credits: init: 7 requested, limit one until a grant");

	/* inline thresholds at their edges (V1 §4.3.2: a message fits when
	 * header + payload <= threshold) */
	tap_ok(rpcrdma_fits_inline(1024, 0, 1024) && !rpcrdma_fits_inline(1025, 0, 1024),
	       "fits_inline: a 1024-byte header alone fits 1024, 1025 does not");
	tap_ok(rpcrdma_fits_inline(0, 1024, 1024) && !rpcrdma_fits_inline(0, 1025, 1024) &&
	       !rpcrdma_fits_inline(1025, SIZE_MAX, 1024),
	       "fits_inline: payload alone at the edge; no wrap past the threshold");
	tap_ok(rpcrdma_inline_threshold(2, true) == 4096 && rpcrdma_inline_threshold(1, false) == 1024 &&
	       rpcrdma_inline_threshold(3, true) == 1024,
	       "inline_threshold: 4096 only for V2 with a V2 peer (V2 §5), else 1024");
}

static void reply_paths(void)
{
	struct rpcrdma_reply_plan p;
	enum rpcrdma_reply_path r;

	/* V1 header of an inline reply: xid vers credit proc, read list 0,
	 * write list 0, reply chunk 0 = 28 bytes */
	memset(&p, 0, sizeof(p));
	p.vers = 1; p.threshold = 1024; p.reply_len = 996;
	r = rpcrdma_reply_path(&p);
	tap_ok(r == RPCRDMA_RPATH_INLINE && p.hdr_len == 28 && p.send_payload == 996,
	       "reply path: 28 + 996 = 1024 bytes go inline");
	p.reply_len = 997;
	r = rpcrdma_reply_path(&p);
	tap_ok(r == RPCRDMA_RPATH_NONE && p.why == RPCRDMA_RPATH_NO_REPLY_CHUNK,
	       "reply path: 1025 bytes and no reply chunk: nothing fits (V1 §5.5.3)");
	p.has_reply_chunk = true; p.nreply_segs = 1; p.reply_chunk_len = 4096;
	r = rpcrdma_reply_path(&p);
	/* 16 + read 4 + write 4 + reply chunk (1, count, HLOO) 24 = 48 */
	tap_ok(r == RPCRDMA_RPATH_REPLY && p.hdr_len == 48 && p.send_payload == 0 &&
	       p.reply_chunk_bytes == 997, "reply path: reply chunk, RDMA_NOMSG of 48 bytes");
	p.reply_len = 4097;
	r = rpcrdma_reply_path(&p);
	tap_ok(r == RPCRDMA_RPATH_NONE && p.why == RPCRDMA_RPATH_OVER_REPLY_CHUNK,
	       "reply path: larger than the reply chunk: nothing fits");
	p.reply_len = 100;
	r = rpcrdma_reply_path(&p);
	tap_ok(r == RPCRDMA_RPATH_INLINE && p.hdr_len == 28,
	       "reply path: small reply inline even with a reply chunk (V1 §5.3.3 MAY)");

	/* a write chunk of one 8 KiB segment: the header echoes it,
	 * 16 + 4 + (1, count, HLOO, 0) 28 + 4 = 52 */
	memset(&p, 0, sizeof(p));
	p.vers = 1; p.threshold = 1024;
	p.nwrite_chunks = 1; p.nwrite_segs = 1; p.write_chunk_len = 8192;
	p.reply_len = 32 + 8191 + 1; p.ddp_len = 8191;
	r = rpcrdma_reply_path(&p);
	tap_ok(r == RPCRDMA_RPATH_WRITE && p.hdr_len == 52 && p.send_payload == 32,
	       "reply path: 8191-byte result into the write chunk, its pad removed too");
	p.reply_len = 32 + 8192; p.ddp_len = 8192;
	tap_ok(rpcrdma_reply_path(&p) == RPCRDMA_RPATH_WRITE, "reply path: exactly the chunk");
	p.reply_len = 32 + 8196; p.ddp_len = 8193;
	r = rpcrdma_reply_path(&p);
	tap_ok(r == RPCRDMA_RPATH_NONE && p.why == RPCRDMA_RPATH_DDP_OVER_WRITE_CHUNK,
	       "reply path: result one byte over the write chunk: nothing fits");
	p.reply_len = 2000 + 8192; p.ddp_len = 8192;
	p.has_reply_chunk = true; p.nreply_segs = 1; p.reply_chunk_len = 4096;
	r = rpcrdma_reply_path(&p);
	tap_ok(r == RPCRDMA_RPATH_WRITE_REPLY && p.reply_chunk_bytes == 2000 &&
	       p.hdr_len == 72, "reply path: write chunk and the reduced reply in the reply chunk");
	p.reply_len = 100; p.ddp_len = 0;
	r = rpcrdma_reply_path(&p);
	tap_ok(r == RPCRDMA_RPATH_INLINE && p.hdr_len == 52,
	       "reply path: unused write chunk still echoed (V1 §4.4.6.2)");

	memset(&p, 0, sizeof(p));
	p.vers = 2; p.threshold = 4096; p.reply_len = 4064;
	r = rpcrdma_reply_path(&p);
	tap_ok(r == RPCRDMA_RPATH_INLINE && p.hdr_len == 32,
	       "reply path V2: 32-byte header + 4064 = 4096 inline");
	tap_ok(!strcmp(rpcrdma_reply_path_name(RPCRDMA_RPATH_WRITE_REPLY), "write+reply"),
	       "reply path names");
}

static void versions(void)
{
	/* a valid V2 call: xid 7, vers 2, credits 32, MSG, direction CALL,
	 * three empty lists; RPC xid 7, CALL */
	static const uint8_t v2call[] = { W(7), W(2), W(32), W(0), W(0), W(0), W(0), W(0),
					  W(7), W(0) };
	static const uint8_t want[] = { W(7), W(2), W(5), W(4), W(1), W(1), W(1) };
	static const uint8_t v2err[] = { W(8), W(2), W(1), W(4), W(2) };
	static const uint8_t v2bad[] = { W(9), W(2), W(32), W(77) };
	static const uint8_t v1call[] = { W(7), W(1), W(32), W(0), W(0), W(0), W(0),
					  W(7), W(0) };
	static const uint8_t want_v1[] = { W(7), W(1), W(5), W(4), W(1), W(2), W(2) };
	struct rpcrdma_msg m;
	uint8_t out[64];
	size_t n, need;

	rpcrdma_decode(v2call, sizeof(v2call), &m);
	tap_ok(rpcrdma_judge_versions(&m, 1, 2) == RPCRDMA_ACCEPT,
	       "versions: a dual endpoint accepts V2");
	tap_ok(rpcrdma_judge_versions(&m, 1, 1) == RPCRDMA_REPLY_ERR_VERS &&
	       m.reason == RPCRDMA_R_BAD_VERS && m.fault_off == 4,
	       "versions: a v1-only endpoint answers V2 with ERR_VERS (V2 §5.2)");
	n = rpcrdma_encode_error_reply_range(&m, 5, 1, 1, out, sizeof(out), &need);
	tap_ok(n == sizeof(want) && !memcmp(out, want, n),
	       "versions: its ERR_VERS carries low 1 high 1, the vers echoed");
	rpcrdma_decode(v2err, sizeof(v2err), &m);
	tap_ok(rpcrdma_judge_versions(&m, 1, 1) == RPCRDMA_DISCARD,
	       "versions: a V2 RDMA_ERROR at a v1-only endpoint is discarded");
	rpcrdma_decode(v2bad, sizeof(v2bad), &m);
	tap_ok(m.action == RPCRDMA_REPLY_BAD_HEADER &&
	       rpcrdma_judge_versions(&m, 1, 1) == RPCRDMA_REPLY_ERR_VERS,
	       "versions: a malformed V2 header at a v1-only endpoint: ERR_VERS first");
	rpcrdma_decode(v1call, sizeof(v1call), &m);
	tap_ok(rpcrdma_judge_versions(&m, 1, 1) == RPCRDMA_ACCEPT,
	       "versions: a v1-only endpoint accepts V1");
	tap_ok(rpcrdma_judge_versions(&m, 2, 2) == RPCRDMA_REPLY_ERR_VERS,
	       "versions: a v2-only endpoint refuses V1");
	n = rpcrdma_encode_error_reply_range(&m, 5, 2, 2, out, sizeof(out), &need);
	tap_ok(n == sizeof(want_v1) && !memcmp(out, want_v1, n), "versions: range 2..2");
	rpcrdma_decode(v2bad, 6, &m);
	tap_ok(rpcrdma_judge_versions(&m, 1, 1) == RPCRDMA_DISCARD,
	       "versions: a short prefix stays discarded");
}

int main(void)
{
	private_data_decode();
	private_data_encode();
	thresholds_from_private_data();
	credits();
	reply_paths();
	versions();
	return tap_done();
}
