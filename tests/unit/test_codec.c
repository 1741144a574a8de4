/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_codec.c - targeted tests of the codec API beyond the vectors: error
 * reply bytes (V1 §5.5), iterator wire offsets, inline thresholds and chunk
 * choice (V1 §4.3.2, §4.5; V2 §2.3, §5), ONC RPC headers (RFC 5531 §9),
 * and names.  Expected bytes are written out by hand from the XDR.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "rpcrdma/codec.h"
#include "rpcrdma/rpc.h"
#include "tap.h"

#define W(x) (uint8_t)((x) >> 24), (uint8_t)((x) >> 16), (uint8_t)((x) >> 8), (uint8_t)(x)

static void error_replies(void)
{
	/* a version 7 message: answered with ERR_VERS 1..2, echoing xid and vers */
	static const uint8_t bad_vers[] = { W(0xdeadbeef), W(7), W(32), W(0) };
	static const uint8_t want_vers[] = { W(0xdeadbeef), W(7), W(16), W(4),
					     W(1), W(1), W(2) };
	/* RDMA_MSGP: ERR_BADHEADER (V1 §5.6.1) */
	static const uint8_t msgp[] = { W(0x11), W(1), W(8), W(2), W(0), W(0),
					W(0), W(0), W(0) };
	static const uint8_t want_bad[] = { W(0x11), W(1), W(16), W(4), W(2) };
	/* RDMA2_OPTIONAL, type 9, no info: RDMA2_ERR_INVAL_OPTION */
	static const uint8_t opt[] = { W(0x22), W(2), W(8), W(5), W(0), W(9), W(0) };
	static const uint8_t want_opt[] = { W(0x22), W(2), W(16), W(4), W(3) };
	/* a well-formed RDMA_ERROR is never answered */
	static const uint8_t err[] = { W(0x33), W(1), W(8), W(4), W(2) };
	struct rpcrdma_msg m;
	uint8_t out[64];
	size_t need, n;

	rpcrdma_decode(bad_vers, sizeof(bad_vers), &m);
	n = rpcrdma_encode_error_reply(&m, 16, out, sizeof(out), &need);
	tap_ok(n == sizeof(want_vers) && need == n && !memcmp(out, want_vers, n),
	       "ERR_VERS reply: xid and vers echoed, range 1..2");
	n = rpcrdma_encode_error_reply(&m, 16, out, 27, &need);
	tap_ok(n == 0 && need == 28, "ERR_VERS reply into 27 bytes: 0, need 28");

	rpcrdma_decode(msgp, sizeof(msgp), &m);
	n = rpcrdma_encode_error_reply(&m, 16, out, sizeof(out), &need);
	tap_ok(m.reason == RPCRDMA_R_MSGP && n == sizeof(want_bad) &&
	       !memcmp(out, want_bad, n), "RDMA_MSGP answered with ERR_BADHEADER");

	rpcrdma_decode(opt, sizeof(opt), &m);
	n = rpcrdma_encode_error_reply(&m, 16, out, sizeof(out), &need);
	tap_ok(m.action == RPCRDMA_REPLY_INVAL_OPTION && n == sizeof(want_opt) &&
	       !memcmp(out, want_opt, n), "unknown option answered with INVAL_OPTION");

	rpcrdma_decode(err, sizeof(err), &m);
	n = rpcrdma_encode_error_reply(&m, 16, out, sizeof(out), &need);
	tap_ok(m.action == RPCRDMA_ACCEPT && n == 0 && need == 0,
	       "a received RDMA_ERROR gets no error reply");
}

static void iterator_offsets(void)
{
	/* v1 RDMA_NOMSG: read list at 16 (1 PHLOO, its terminating 0 at 40),
	 * write list at 44 (1, count at 48, 2 HLOO, 0 at 84), reply chunk
	 * discriminator at 88 (count at 92, 1 HLOO) */
	static const uint8_t msg[] = {
		W(1), W(1), W(32), W(1),
		W(1), W(0), W(0xa), W(100), W(0), W(0x1000), W(0),
		W(1), W(2), W(0xb), W(200), W(0x1), W(0x2), W(0xc), W(300), W(0), W(0x3), W(0),
		W(1), W(1), W(0xd), W(400), W(0xffffffff), W(0xfffffff0),
	};
	struct rpcrdma_msg m;
	struct rpcrdma_chunk_iter ci;
	struct rpcrdma_seg_iter si;
	struct rpcrdma_segment s;
	struct rpcrdma_read_iter ri;
	struct rpcrdma_read_segment rs;

	rpcrdma_decode(guard_copy(msg, sizeof(msg)), sizeof(msg), &m);
	tap_ok(m.action == RPCRDMA_ACCEPT && m.header_len == sizeof(msg) &&
	       m.direction == RPCRDMA_CALL && m.direction_inferred,
	       "long call accepted, direction inferred as call");
	tap_ok(m.reads_off == 16 && m.writes_off == 44 && m.reply_off == 88,
	       "list offsets 16/44/88 (got %u/%u/%u)", m.reads_off, m.writes_off, m.reply_off);
	rpcrdma_read_iter_init(&m, &ri);
	tap_ok(rpcrdma_read_next(&ri, &rs) && rs.rdma_position == 0 &&
	       rs.rdma_target.rdma_handle == 0xa && rs.rdma_target.rdma_offset == 0x1000 &&
	       !rpcrdma_read_next(&ri, &rs), "read list walked in place");
	rpcrdma_write_iter_init(&m, &ci);
	tap_ok(rpcrdma_write_next(&ci, &si) && si.nsegs == 2 && si.wire_off == 48 &&
	       rpcrdma_seg_next(&si, &s) && s.rdma_offset == 0x100000002ull &&
	       rpcrdma_seg_next(&si, &s) && s.rdma_handle == 0xc &&
	       !rpcrdma_seg_next(&si, &s) && !rpcrdma_write_next(&ci, &si),
	       "write chunk walked in place, count word at 48");
	tap_ok(rpcrdma_reply_chunk(&m, &si) && si.wire_off == 92 &&
	       rpcrdma_seg_next(&si, &s) && s.rdma_offset == 0xfffffffffffffff0ull,
	       "reply chunk: 64-bit offset exact");
}

static void thresholds(void)
{
	unsigned need;

	tap_ok(rpcrdma_inline_threshold(1, true) == 1024 &&
	       rpcrdma_inline_threshold(2, false) == 1024 &&
	       rpcrdma_inline_threshold(2, true) == 4096,
	       "thresholds: v1 1024; v2 1024 until the peer speaks v2, then 4096");
	tap_ok(rpcrdma_fits_inline(28, 996, 1024) && !rpcrdma_fits_inline(28, 997, 1024) &&
	       !rpcrdma_fits_inline(2000, 0, 1024), "fits_inline at the boundary");
	need = rpcrdma_chunks_needed(28, 200, 0, 300, 0, 1024, 1024);
	tap_ok(need == RPCRDMA_NEED_NONE, "small call and reply: Short messages");
	need = rpcrdma_chunks_needed(28, 8400, 8192, 200, 0, 1024, 1024);
	tap_ok(need == RPCRDMA_NEED_READ_CHUNK, "WRITE of 8 KiB: read chunk");
	need = rpcrdma_chunks_needed(28, 3000, 0, 200, 0, 1024, 1024);
	tap_ok(need == RPCRDMA_NEED_POS0_READ, "large call without DDP data: position zero");
	need = rpcrdma_chunks_needed(28, 200, 0, 8400, 8192, 1024, 1024);
	tap_ok(need == RPCRDMA_NEED_WRITE_CHUNK, "READ of 8 KiB: write chunk only");
	need = rpcrdma_chunks_needed(28, 200, 0, 5000, 0, 1024, 1024);
	tap_ok(need == RPCRDMA_NEED_REPLY_CHUNK, "large reply without DDP: reply chunk");
	need = rpcrdma_chunks_needed(28, 200, 0, 5000, 0, 4096, 8192);
	tap_ok(need == RPCRDMA_NEED_NONE, "same reply under a larger threshold: inline");
	need = rpcrdma_chunks_needed(28, 200, 0, 996, 900, 1024, 1024);
	tap_ok(need == RPCRDMA_NEED_NONE,
	       "a DDP-eligible result whose whole reply fits inline: no write chunk");
	need = rpcrdma_chunks_needed(28, 200, 0, 997, 900, 1024, 1024);
	tap_ok(need == RPCRDMA_NEED_WRITE_CHUNK, "one byte more: the write chunk");
}

static void rpc_headers(void)
{
	/* RFC 5531 call: AUTH_SYS credential of 8 bytes, AUTH_NONE verifier */
	static const uint8_t call[] = { W(0x1234), W(0), W(2), W(100003), W(4), W(1),
					W(1), W(8), W(0xaa), W(0xbb), W(0), W(0), W(0x77) };
	static const uint8_t denied[] = { W(9), W(1), W(1), W(1), W(5) };
	static const uint8_t mism[] = { W(9), W(1), W(0), W(0), W(0), W(2), W(3), W(4) };
	struct rpc_msg_hdr h;
	uint8_t buf[64];

	tap_ok(rpc_decode_header(call, sizeof(call), &h) == RPC_OK && h.prog == 100003 &&
	       h.vers == 4 && h.proc == 1 && h.cred_flavor == RPC_AUTH_SYS &&
	       h.cred_len == 8 && h.body_off == 48, "RPC call with AUTH_SYS");
	tap_ok(rpc_decode_header(call, 30, &h) == RPC_TRUNCATED, "truncated call");
	{
		/* RFC 5531 §9 call_body with rpcvers 3: its xid and rpcvers
		 * are there for the RPC_MISMATCH reply */
		static const uint8_t v3[] = { W(0x77), W(0), W(3), W(100003), W(3), W(0),
					      W(0), W(0), W(0), W(0) };

		tap_ok(rpc_decode_header(v3, sizeof(v3), &h) == RPC_MALFORMED &&
		       h.msg_type == RPC_CALL && h.xid == 0x77 && h.rpcvers == 3 &&
		       h.fault_off == 8 && rpc_call_other_version(RPC_MALFORMED, &h),
		       "call with rpcvers 3: malformed, xid and rpcvers kept, another version");
		tap_ok(rpc_decode_header(v3, 11, &h) == RPC_TRUNCATED && h.rpcvers == 0 &&
		       !rpc_call_other_version(RPC_TRUNCATED, &h),
		       "call cut inside rpcvers: truncated, no rpcvers");
		tap_ok(rpc_decode_header(call, 30, &h) == RPC_TRUNCATED &&
		       !rpc_call_other_version(RPC_TRUNCATED, &h), "a call cut short is no other version");
	}
	tap_ok(rpc_decode_header(denied, sizeof(denied), &h) == RPC_OK &&
	       h.reply_stat == RPC_MSG_DENIED && h.reject_stat == RPC_AUTH_ERROR &&
	       h.auth_stat == 5, "denied reply: AUTH_ERROR");
	tap_ok(rpc_decode_header(mism, sizeof(mism), &h) == RPC_OK &&
	       h.accept_stat == RPC_PROG_MISMATCH && h.mismatch_low == 3 &&
	       h.mismatch_high == 4, "accepted reply: PROG_MISMATCH 3..4");
	tap_ok(rpc_encode_call(buf, sizeof(buf), 5, 100005, 3, 1) == 40 &&
	       rpc_decode_header(buf, 40, &h) == RPC_OK && h.prog == 100005 &&
	       h.body_off == 40, "encoded call decodes");
	tap_ok(rpc_encode_accepted_reply(buf, 23, 5, 0) == 0, "reply into 23 bytes: 0");
	tap_ok(!strcmp(rpc_program_name(RPC_PROG_NFS_CB), "NFS callback") &&
	       rpc_program_name(42) == NULL, "program names");
}

static void names(void)
{
	unsigned r, bad = 0;

	for (r = 0; r < RPCRDMA_R_COUNT_; r++)
		if (!rpcrdma_reason_name(r) || !*rpcrdma_reason_text(r) ||
		    (r && !*rpcrdma_reason_section(r)))
			bad++;
	tap_ok(bad == 0, "every reason has a name, a text and a spec section");
	tap_ok(!strcmp(rpcrdma_proc_name(2, 5), "RDMA2_OPTIONAL") &&
	       !strcmp(rpcrdma_proc_name(2, 2), "unknown") &&
	       !strcmp(rpcrdma_proc_name(1, 3), "RDMA_DONE") &&
	       !strcmp(rpcrdma_proc_name(9, 4), "RDMA_ERROR"), "procedure names");
	tap_ok(!strcmp(rpcrdma_err_name(2, 3), "RDMA2_ERR_INVAL_OPTION") &&
	       !strcmp(rpcrdma_err_name(1, 3), "unknown"), "error names");
}

/* rpcrdma_read_chunks_check (V1 4.4.4.1, 4.4.5, 4.4.5.1) on RDMA_MSG calls
 * written out from the XDR: a read list of one segment (position POS,
 * length LEN), empty write list and reply chunk, then a Payload stream
 * whose fourth word is the reduced item's byte count (2001), with `extra`
 * bytes after it */
static size_t read_call(uint8_t *b, uint32_t proc, uint32_t msg_type, uint32_t pos, uint32_t len,
			size_t extra)
{
	const uint8_t h[] = { W(0x44), W(1), W(32), W(proc),
			      W(1), W(pos), W(0xabc), W(len), W(0), W(0x1000), W(0),
			      W(0), W(0),
			      W(0x44), W(msg_type), W(2), W(2001) };

	memcpy(b, h, sizeof(h));
	memset(b + sizeof(h), 0, extra);
	return sizeof(h) + extra;
}

static void read_rules(void)
{
	static const struct {
		uint32_t proc, msg_type, pos, len;
		size_t extra;
		unsigned want;
		bool reduced;
		const char *what;
	} v[] = {
		{ 0, 0, 16, 2001, 0, 0, true, "the item (2001 bytes) in a chunk at 16, its pad gone: no fault" },
		{ 0, 0, 16, 2004, 0, 0, true, "the chunk with the round-up (2004): no fault (V1 4.4.5.1 MAY)" },
		{ 0, 0, 16, 1000, 0, RPCRDMA_READ_COUNT_MISMATCH, true,
		  "1000 bytes in the chunk, the count says 2001: V1 4.4.4.1" },
		{ 0, 0, 16, 2001, 3, RPCRDMA_READ_PAD_INLINE, true,
		  "a 19-byte Payload stream: the pad left inline, V1 4.4.5.1" },
		{ 0, 0, 100, 2001, 0, RPCRDMA_READ_POSITION_PAST, false,
		  "position 100 past a 16-byte stream: V1 4.4.5 (count and pad not judged)" },
		{ 0, 0, 0, 2001, 0, 0, false, "a chunk at position zero: no reduced item" },
		{ 1, 0, 0, 2001, 0, 0, false, "RDMA_NOMSG: not judged" },
		{ 0, 1, 16, 1000, 3, 0, false, "a reply: not judged" },
	};
	uint8_t b[128];
	struct rpcrdma_msg m;
	struct rpcrdma_read_check c;

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		size_t n = read_call(b, v[i].proc, v[i].msg_type, v[i].pos, v[i].len, v[i].extra);
		enum rpcrdma_action a = rpcrdma_decode(b, v[i].proc == 1 ? 52 : n, &m);
		unsigned f = rpcrdma_read_chunks_check(&m, &c);

		tap_ok(a == RPCRDMA_ACCEPT && f == v[i].want && c.faults == f &&
		       c.reduced == v[i].reduced && (!c.reduced || (c.position == 16 &&
		       c.chunk_len == v[i].len && c.count == 2001)) &&
		       (!(f & RPCRDMA_READ_POSITION_PAST) || (c.past_position == 100 &&
		       c.past_before == 0)), "read chunks: %s (faults %#x)", v[i].what, f);
	}
}

int main(void)
{
	error_replies();
	iterator_offsets();
	thresholds();
	rpc_headers();
	names();
	read_rules();
	return tap_done();
}
