/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_echo_ulb.c - the ECHO program's XDR and ULB rules (docs/echo-ulb.md)
 * against messages written word by word from RFC 5531 §9 (call_body,
 * accepted_reply, rejected_reply) and RFC 4506 §4.10 (opaque<>), never
 * produced by the code under test.  Inputs go through guard_copy(): a read
 * one byte past a message faults.
 */
#include <stdio.h>
#include <string.h>
#include "echo_ulb.h"
#include "tap.h"

#define W(x) (uint8_t)((x) >> 24), (uint8_t)((x) >> 16), (uint8_t)((x) >> 8), (uint8_t)(x)
/* program 0x20524d41, version 1 */
#define PROG W(0x20524d41)
/* xid 0 (left for the transport), CALL, rpcvers 2, prog, vers 1, proc,
 * cred AUTH_NONE {0, 0}, verf AUTH_NONE {0, 0} */
#define CALL_HDR(xid, proc) W(xid), W(0), W(2), PROG, W(1), W(proc), W(0), W(0), W(0), W(0)
/* xid, REPLY, MSG_ACCEPTED, verf AUTH_NONE {0, 0}, SUCCESS */
#define REPLY_OK(xid) W(xid), W(1), W(0), W(0), W(0), W(0)

static const uint8_t null_call[] = { CALL_HDR(0, 0) };
/* ECHO "hello": length 5, 'h' 'e' 'l' 'l' 'o', 3 pad bytes */
static const uint8_t echo_call[] = { CALL_HDR(0, 1), W(5), 'h', 'e', 'l', 'l',
				     'o', 0, 0, 0 };
/* CALLBACK count 3, data "abcd" (no pad) */
static const uint8_t cb_call[] = { CALL_HDR(0, 2), W(3), W(4), 'a', 'b', 'c', 'd' };
static const uint8_t null_reply[] = { REPLY_OK(0x1234) };
static const uint8_t echo_reply[] = { REPLY_OK(0x1234), W(5), 'h', 'e', 'l',
				      'l', 'o', 0, 0, 0 };
static const uint8_t cb_reply[] = { REPLY_OK(0x77), W(3) };

static void encode_calls(void)
{
	uint8_t buf[128];
	size_t n, off = 99, len = 99;

	n = echo_encode_call(buf, sizeof(buf), ECHO_PROC_NULL, 0, NULL, 0, &off, &len);
	tap_ok(n == sizeof(null_call) && !memcmp(buf, null_call, n) && off == 0 &&
	       len == 0, "NULL call: the 40-byte RPC header, void args, no DDP item");
	n = echo_encode_call(buf, sizeof(buf), ECHO_PROC_ECHO, 0,
			     (const uint8_t *)"hello", 5, &off, &len);
	tap_ok(n == sizeof(echo_call) && !memcmp(buf, echo_call, n) && off == 44 &&
	       len == 5, "ECHO call: opaque<> padded to 4, DDP item at 44, 5 bytes");
	n = echo_encode_call(buf, sizeof(buf), ECHO_PROC_CALLBACK, 3,
			     (const uint8_t *)"abcd", 4, &off, &len);
	tap_ok(n == sizeof(cb_call) && !memcmp(buf, cb_call, n) && off == 48 &&
	       len == 4, "CALLBACK call: count then opaque<>, DDP item at 48");
	tap_ok(echo_encode_call(buf, sizeof(echo_call) - 1, ECHO_PROC_ECHO, 0,
				(const uint8_t *)"hello", 5, NULL, NULL) == 0,
	       "ECHO call one byte short of room: 0");
	tap_ok(echo_encode_call(buf, sizeof(buf), 3, 0, NULL, 0, NULL, NULL) == 0,
	       "unknown procedure: not encoded");
	tap_ok(echo_encode_call(buf, sizeof(buf), ECHO_PROC_NULL, 0, NULL, 4,
				NULL, NULL) == 0, "NULL with data: not encoded");
	tap_ok(echo_encode_call(NULL, (size_t)-1, ECHO_PROC_ECHO, 0, NULL,
				ECHO_DATA_MAX + 1, NULL, NULL) == 0,
	       "ECHO over ECHO_DATA_MAX: not encoded");
	memset(buf, 0xee, sizeof(buf));
	n = echo_encode_call(buf, sizeof(buf), ECHO_PROC_ECHO, 0, NULL, 5, &off, &len);
	tap_ok(n == 52 && buf[off] == 0xee && !memcmp(buf + 49, "\0\0\0", 3),
	       "data NULL: bytes left for the caller, pad written");
}

static void decode_replies(void)
{
	const uint8_t *p, *data = NULL;
	struct rpc_msg_hdr h;
	uint32_t dlen = 0, count = 0;
	/* PROG_MISMATCH 1..1 */
	static const uint8_t mismatch[] = { W(9), W(1), W(0), W(0), W(0), W(2), W(1), W(1) };
	/* the ECHO reply without its pad: the transport restores it (D-ULB-2) */
	static const uint8_t nopad[] = { REPLY_OK(1), W(5), 'h', 'e', 'l', 'l', 'o' };
	static const uint8_t short_data[] = { REPLY_OK(1), W(5), 'h', 'e', 'l', 'l' };
	static const uint8_t extra[] = { REPLY_OK(1), W(0), W(0) };
	static const uint8_t call_not_reply[] = { CALL_HDR(1, 1), W(0) };
	size_t i;

	p = guard_copy(null_reply, sizeof(null_reply));
	tap_ok(echo_decode_reply(p, sizeof(null_reply), ECHO_PROC_NULL, &h, NULL,
				 NULL, NULL) == 0 && h.xid == 0x1234,
	       "NULL reply: accepted, SUCCESS, void");
	p = guard_copy(echo_reply, sizeof(echo_reply));
	tap_ok(echo_decode_reply(p, sizeof(echo_reply), ECHO_PROC_ECHO, &h, &data,
				 &dlen, NULL) == 0 && dlen == 5 && data == p + 28 &&
	       !memcmp(data, "hello", 5), "ECHO reply: the data points into the message");
	p = guard_copy(nopad, sizeof(nopad));
	tap_ok(echo_decode_reply(p, sizeof(nopad), ECHO_PROC_ECHO, NULL, &data,
				 &dlen, NULL) == -1,
	       "ECHO reply without its pad: -1 (strict XDR)");
	p = guard_copy(cb_reply, sizeof(cb_reply));
	tap_ok(echo_decode_reply(p, sizeof(cb_reply), ECHO_PROC_CALLBACK, &h, NULL,
				 NULL, &count) == 0 && count == 3,
	       "CALLBACK reply: the count");
	p = guard_copy(mismatch, sizeof(mismatch));
	tap_ok(echo_decode_reply(p, sizeof(mismatch), ECHO_PROC_NULL, &h, NULL,
				 NULL, NULL) == -1 && h.accept_stat == RPC_PROG_MISMATCH &&
	       h.mismatch_low == 1 && h.mismatch_high == 1,
	       "PROG_MISMATCH: -1, with accept_stat and range in the header");
	p = guard_copy(short_data, sizeof(short_data));
	tap_ok(echo_decode_reply(p, sizeof(short_data), ECHO_PROC_ECHO, NULL, &data,
				 &dlen, NULL) == -1, "ECHO reply with 4 of 5 bytes: -1");
	p = guard_copy(extra, sizeof(extra));
	tap_ok(echo_decode_reply(p, sizeof(extra), ECHO_PROC_ECHO, NULL, &data,
				 &dlen, NULL) == -1, "ECHO reply with trailing bytes: -1");
	tap_ok(echo_decode_reply(p, sizeof(extra), ECHO_PROC_NULL, NULL, NULL,
				 NULL, NULL) == -1, "NULL reply with results: -1");
	p = guard_copy(call_not_reply, sizeof(call_not_reply));
	tap_ok(echo_decode_reply(p, sizeof(call_not_reply), ECHO_PROC_ECHO, NULL,
				 &data, &dlen, NULL) == -1, "a call is not a reply: -1");
	/* every prefix of the ECHO reply is rejected without over-reading */
	for (i = 0; i < sizeof(echo_reply); i++) {
		p = guard_copy(echo_reply, i);
		if (echo_decode_reply(p, i, ECHO_PROC_ECHO, NULL, &data, &dlen,
				      NULL) != -1)
			break;
	}
	tap_ok(i == sizeof(echo_reply), "every prefix of the ECHO reply: -1");
}

static void reply_ddp_pos(void)
{
	static const uint8_t reduced[] = { REPLY_OK(1), W(5) };
	static const uint8_t not_reduced[] = { REPLY_OK(1), W(1), W(0x61000000) };
	static const uint8_t denied[] = { W(1), W(1), W(1), W(0), W(2), W(2) };
	const uint8_t *p;

	p = guard_copy(reduced, sizeof(reduced));
	tap_ok(echo_reply_ddp_pos(p, sizeof(reduced), NULL) == 28,
	       "reduced ECHO reply: the data goes at 28, after the length word");
	p = guard_copy(not_reduced, sizeof(not_reduced));
	tap_ok(echo_reply_ddp_pos(p, sizeof(not_reduced), NULL) == (size_t)-1,
	       "a reply with its data inline: unknown");
	p = guard_copy(denied, sizeof(denied));
	tap_ok(echo_reply_ddp_pos(p, sizeof(denied), NULL) == (size_t)-1,
	       "MSG_DENIED: unknown");
	tap_ok(echo_reply_ddp_pos(p, 0, NULL) == (size_t)-1, "empty payload: unknown");
}

static void reply_max(void)
{
	tap_ok(echo_reply_max(ECHO_PROC_NULL, 0) == 32,
	       "NULL: max reply 32 (PROG_MISMATCH with its range)");
	tap_ok(echo_reply_max(ECHO_PROC_ECHO, 5) == 36 &&
	       echo_reply_ddp_max(ECHO_PROC_ECHO, 5) == 5,
	       "ECHO 5 bytes: 24 + 4 + 8 = 36, 5 DDP-eligible");
	tap_ok(echo_reply_max(ECHO_PROC_ECHO, 0) == 32, "ECHO 0 bytes: 32");
	tap_ok(echo_reply_max(ECHO_PROC_ECHO, ECHO_DATA_MAX) == 24 + 4 + ECHO_DATA_MAX,
	       "ECHO 1 MiB: 24 + 4 + 1 MiB");
	tap_ok(echo_reply_max(ECHO_PROC_CALLBACK, 900) == 32 &&
	       echo_reply_ddp_max(ECHO_PROC_CALLBACK, 900) == 0,
	       "CALLBACK: 32, nothing DDP-eligible in the reply");
}

static void decode_calls(void)
{
	struct echo_args a;
	const uint8_t *p;
	static const uint8_t rpcv3[] = { W(5), W(0), W(3), PROG, W(1), W(0),
					 W(0), W(0), W(0), W(0) };
	static const uint8_t nfs[] = { W(5), W(0), W(2), W(100003), W(3), W(0),
				       W(0), W(0), W(0), W(0) };
	static const uint8_t vers2[] = { W(5), W(0), W(2), PROG, W(2), W(0),
					 W(0), W(0), W(0), W(0) };
	static const uint8_t proc9[] = { CALL_HDR(5, 9) };
	static const uint8_t null_args[] = { CALL_HDR(5, 0), W(0) };
	static const uint8_t echo_long[] = { CALL_HDR(5, 1), W(9), W(0) };
	/* 5 data bytes without their pad (the transport restores a read
	 * chunk's, V1 §4.4.5.1: D-ULB-2), and with 1 of its 3 bytes */
	static const uint8_t echo_nopad[] = { CALL_HDR(5, 1), W(5), 'h', 'e', 'l', 'l', 'o' };
	static const uint8_t echo_6[] = { CALL_HDR(5, 1), W(5), 'h', 'e', 'l', 'l', 'o', 0 };
	static const uint8_t cb_many[] = { CALL_HDR(5, 2), W(65), W(0) };
	static const uint8_t reply[] = { REPLY_OK(5) };
	/* AUTH_SYS credential of 8 bytes is skipped */
	static const uint8_t authsys[] = { W(6), W(0), W(2), PROG, W(1), W(1),
					   W(1), W(8), W(0), W(0), W(0), W(0),
					   W(1), 'x', 0, 0, 0 };
	struct { const uint8_t *m; size_t len; bool back; enum echo_call_status want;
		 const char *what; } c[] = {
		{ null_call, sizeof(null_call), false, ECHO_CALL_OK, "NULL" },
		{ echo_call, sizeof(echo_call), false, ECHO_CALL_OK, "ECHO" },
		{ cb_call, sizeof(cb_call), false, ECHO_CALL_OK, "CALLBACK" },
		{ cb_call, sizeof(cb_call), true, ECHO_CALL_PROC_UNAVAIL,
		  "backward CALLBACK: PROC_UNAVAIL" },
		{ rpcv3, sizeof(rpcv3), false, ECHO_CALL_RPC_MISMATCH, "rpcvers 3" },
		{ nfs, sizeof(nfs), false, ECHO_CALL_PROG_UNAVAIL, "program NFS" },
		{ vers2, sizeof(vers2), false, ECHO_CALL_PROG_MISMATCH, "version 2" },
		{ proc9, sizeof(proc9), false, ECHO_CALL_PROC_UNAVAIL, "procedure 9" },
		{ null_args, sizeof(null_args), false, ECHO_CALL_GARBAGE_ARGS,
		  "NULL with an argument word" },
		{ echo_long, sizeof(echo_long), false, ECHO_CALL_GARBAGE_ARGS,
		  "ECHO length 9 with 4 bytes" },
		{ echo_nopad, sizeof(echo_nopad), false, ECHO_CALL_GARBAGE_ARGS,
		  "ECHO 5 bytes without the pad" },
		{ echo_6, sizeof(echo_6), false, ECHO_CALL_GARBAGE_ARGS,
		  "ECHO 5 bytes and 1 pad byte" },
		{ cb_many, sizeof(cb_many), false, ECHO_CALL_GARBAGE_ARGS,
		  "CALLBACK count 65 (bound 64)" },
		{ reply, sizeof(reply), false, ECHO_CALL_NOT_RPC, "a reply" },
		{ echo_call, 11, false, ECHO_CALL_NOT_RPC, "11 bytes" },
		{ echo_call, 30, false, ECHO_CALL_NOT_RPC, "a header cut short" },
		{ authsys, sizeof(authsys), false, ECHO_CALL_OK, "AUTH_SYS credential" },
	};
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		enum echo_call_status s;

		p = guard_copy(c[i].m, c[i].len);
		s = echo_decode_call(p, c[i].len, c[i].back, &a);
		tap_ok(s == c[i].want, "call %s: %s (got %s)", c[i].what,
		       echo_call_status_name(c[i].want), echo_call_status_name(s));
	}
	p = guard_copy(cb_call, sizeof(cb_call));
	echo_decode_call(p, sizeof(cb_call), false, &a);
	tap_ok(a.proc == ECHO_PROC_CALLBACK && a.count == 3 && a.len == 4 &&
	       a.data_off == 48 && a.data == p + 48, "CALLBACK args: count 3, data at 48");
	/* a count that disagrees with the bytes left still names where the
	 * data item starts: a read chunk there is no DDP-eligibility
	 * violation, the call is GARBAGE_ARGS (echo_respond, V1 §5.5.2) */
	p = guard_copy(echo_6, sizeof(echo_6));
	tap_ok(echo_decode_call(p, sizeof(echo_6), false, &a) == ECHO_CALL_GARBAGE_ARGS &&
	       a.data_off == sizeof(echo_6) - 6, "ECHO with a wrong count: GARBAGE_ARGS, the "
	       "data item still at %zu", a.data_off);
	p = guard_copy(authsys, sizeof(authsys));
	echo_decode_call(p, sizeof(authsys), false, &a);
	tap_ok(a.xid == 6 && a.len == 1 && a.data_off == 52 && a.data[0] == 'x',
	       "AUTH_SYS call: data after the 8-byte credential, at 52");
}

static void backward_bound(void)
{
	static uint8_t m[ECHO_CALL_HDR_LEN + 4 + ECHO_CALLBACK_DATA_MAX + 4];
	struct echo_args a;
	size_t n;

	n = echo_encode_call(m, sizeof(m), ECHO_PROC_ECHO, 0, NULL,
			     ECHO_CALLBACK_DATA_MAX, NULL, NULL);
	tap_ok(echo_decode_call(m, n, true, &a) == ECHO_CALL_OK &&
	       32 + n == 1024, "backward ECHO of 948 bytes: accepted, 1024 with a V2 header");
	n = echo_encode_call(m, sizeof(m), ECHO_PROC_ECHO, 0, NULL,
			     ECHO_CALLBACK_DATA_MAX + 1, NULL, NULL);
	tap_ok(echo_decode_call(m, n, true, &a) == ECHO_CALL_GARBAGE_ARGS &&
	       echo_decode_call(m, n, false, &a) == ECHO_CALL_OK,
	       "949 bytes: GARBAGE_ARGS backward, fine forward");
}

static void encode_replies(void)
{
	uint8_t buf[64];
	size_t n, off, len;
	static const uint8_t prog_unavail[] = { W(7), W(1), W(0), W(0), W(0), W(1) };
	static const uint8_t prog_mismatch[] = { W(7), W(1), W(0), W(0), W(0), W(2),
						 W(1), W(1) };
	static const uint8_t rpc_mismatch[] = { W(7), W(1), W(1), W(0), W(2), W(2) };
	static const uint8_t garbage[] = { W(7), W(1), W(0), W(0), W(0), W(4) };

	n = echo_encode_reply(buf, sizeof(buf), 0x1234, ECHO_PROC_ECHO, 0,
			      (const uint8_t *)"hello", 5, &off, &len);
	tap_ok(n == sizeof(echo_reply) && !memcmp(buf, echo_reply, n) && off == 28 &&
	       len == 5, "ECHO reply: DDP result at 28");
	n = echo_encode_reply(buf, sizeof(buf), 0x1234, ECHO_PROC_NULL, 0, NULL, 0,
			      &off, &len);
	tap_ok(n == sizeof(null_reply) && !memcmp(buf, null_reply, n) && len == 0,
	       "NULL reply");
	n = echo_encode_reply(buf, sizeof(buf), 0x77, ECHO_PROC_CALLBACK, 3, NULL, 0,
			      &off, &len);
	tap_ok(n == sizeof(cb_reply) && !memcmp(buf, cb_reply, n) && len == 0,
	       "CALLBACK reply: the count, nothing DDP-eligible");
	tap_ok(echo_encode_reply(buf, 35, 1, ECHO_PROC_ECHO, 0,
				 (const uint8_t *)"hello", 5, NULL, NULL) == 0,
	       "ECHO reply one byte short of room: 0");
	n = echo_encode_error(buf, sizeof(buf), 7, ECHO_CALL_PROG_UNAVAIL);
	tap_ok(n == sizeof(prog_unavail) && !memcmp(buf, prog_unavail, n), "PROG_UNAVAIL");
	n = echo_encode_error(buf, sizeof(buf), 7, ECHO_CALL_PROG_MISMATCH);
	tap_ok(n == sizeof(prog_mismatch) && !memcmp(buf, prog_mismatch, n),
	       "PROG_MISMATCH with 1..1");
	n = echo_encode_error(buf, sizeof(buf), 7, ECHO_CALL_RPC_MISMATCH);
	tap_ok(n == sizeof(rpc_mismatch) && !memcmp(buf, rpc_mismatch, n),
	       "MSG_DENIED RPC_MISMATCH 2..2");
	n = echo_encode_error(buf, sizeof(buf), 7, ECHO_CALL_GARBAGE_ARGS);
	tap_ok(n == sizeof(garbage) && !memcmp(buf, garbage, n), "GARBAGE_ARGS");
	tap_ok(echo_encode_error(buf, sizeof(buf), 7, ECHO_CALL_NOT_RPC) == 0 &&
	       echo_encode_error(buf, sizeof(buf), 7, ECHO_CALL_OK) == 0,
	       "no error reply for OK or not-RPC");
	tap_ok(echo_encode_error(buf, 31, 7, ECHO_CALL_PROG_MISMATCH) == 0,
	       "PROG_MISMATCH into 31 bytes: 0");
}

int main(void)
{
	encode_calls();
	decode_replies();
	reply_ddp_pos();
	reply_max();
	decode_calls();
	backward_bound();
	encode_replies();
	return tap_done();
}
