/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_trace.c - rpcrdma-trace's parser and RPC rebuilding (tools/trace).
 * The lines are written from the kernel's TP_printk formats in
 * include/trace/events/rpcrdma.h (6.1: "task:%08x@%08x", "xid=0x%08x",
 * "credits=%u", "%u@0x%016llx:0x%08x", "status=%s (%u/0x%x)") in the three
 * text forms (tracefs, trace-cmd report, perf script), not taken from the
 * code under test.  Lines are copied to the end of a guarded page.
 */
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "tparse.h"
#include "trpc.h"

static struct tp_event ev;

static int line(const char *s)
{
	size_t n = strlen(s);

	return tp_line((const char *)guard_copy(s, n), n, &ev);
}

static bool fields_are(const char *want)
{
	return ev.flen == strlen(want) && memcmp(ev.f, want, ev.flen) == 0;
}

static void lines(void)
{
	tap_ok(line("       mount.nfs-220     [001] .....    45.287166: xprtrdma_marshal: task:00000001@00000002 "
		    "xid=0xd92b5ea9 hdr=28 xdr=40/0/0 pullup/inline") == 1 &&
	       strcmp(ev.name, "xprtrdma_marshal") == 0 && ev.ts_ns == 45287166000ull &&
	       fields_are("task:00000001@00000002 xid=0xd92b5ea9 hdr=28 xdr=40/0/0 pullup/inline"),
	       "tracefs text: name, time stamp, fields");
	tap_ok(line("  kworker/0:1H-44    [000]    49.174099: xprtrdma_reply:       task:0000000a@00000003 "
		    "xid=0xe52b5ea9 credits=64") == 1 && strcmp(ev.name, "xprtrdma_reply") == 0 &&
	       ev.ts_ns == 49174099000ull, "trace-cmd report");
	tap_ok(line("    nfsd   204 [000]    45.295067123: rpcrdma:svcrdma_decode_rqst: cq.id=2 cid=64 "
		    "xid=0xd92b5ea9 vers=1 credits=128 proc=RDMA_MSG hdrlen=28") == 1 &&
	       strcmp(ev.name, "svcrdma_decode_rqst") == 0 && ev.ts_ns == 45295067123ull,
	       "perf script: the system prefix dropped, nanoseconds kept");
	tap_ok(line("# tracer: nop") == 0 && line("") == 0 && line("CPU 0 is empty") == 0 &&
	       line("cpus=2") == 0, "headers and blank lines carry no event");
	tap_ok(line("  x-1 [000] 1.1234567890: xprtrdma_reply: xid=0x1") == -1,
	       "ten digits of fraction: malformed");
	tap_ok(line("  x-1 [000] 1.5: a:b:c: xid=0x1") == -1, "two system prefixes: malformed");
	tap_ok(line("bash-206 [000] .....    45.425407: tracing_mark_write: rpcrdma-kview: before") == 1 &&
	       strcmp(ev.name, "tracing_mark_write") == 0 && fields_are("rpcrdma-kview: before"),
	       "a trace_marker line");
}

static void fields(void)
{
	uint32_t t, c, len, h, st, v;
	uint64_t off, x;
	char r[16], w[16];

	line("a-1 [000] 1.000001: xprtrdma_chunk_read: task:0000000a@00000003 pos=116 "
	     "131072@0xe52b5ea9865be000:0x000009f5 (last)");
	tap_ok(tp_task(&ev, &t, &c) && t == 10 && c == 3, "task:%%08x@%%08x read as hex (6.1)");
	tap_ok(tp_segment(&ev, &len, &off, &h) && len == 131072 && off == 0xe52b5ea9865be000ull && h == 0x9f5,
	       "a segment LENGTH@0xOFFSET:0xHANDLE");
	tap_ok(tp_kv_u64(&ev, "pos", UINT32_MAX, &x) && x == 116 && tp_has_word(&ev, "last") &&
	       !tp_has_word(&ev, "more"), "pos= and (last)");
	line("a-1 [000] 1.000001: xprtrdma_reply: task:1@2 xid=0x00000001, 32 credits, rep=0 -> req=0");
	tap_ok(tp_task(&ev, &t, &c) && t == 1 && c == 2 && tp_credits(&ev, &st) && st == 32,
	       "the older form: decimal task, 'N credits'");
	line("a-1 [000] 1.000001: xprtrdma_wc_send: cq.id=1 cid=22 status=WR_FLUSH_ERR (5/0x0)");
	tap_ok(tp_status(&ev, &st, &v) && st == 5 && v == 0, "a completion's (STATUS/0xVENDOR)");
	line("a-1 [000] 1.000001: xprtrdma_marshal: task:0000000a@00000003 xid=0xe52b5ea9 hdr=52 "
	     "xdr=116/131072/0 read list/inline");
	tap_ok(tp_chunktypes(&ev, r, sizeof(r), w, sizeof(w)) && strcmp(r, "read list") == 0 &&
	       strcmp(w, "inline") == 0, "chunk types with a space: 'read list/inline'");
	tap_ok(tp_kv_u64(&ev, "xid", UINT32_MAX, &x) && x == 0xe52b5ea9, "xid=0x... before a ':'");
	tap_ok(!tp_kv_u64(&ev, "id", UINT32_MAX, &x), "a key must start a word (no 'id' inside 'xid')");
	line("a-1 [000] 1.000001: xprtrdma_reply: xid=0x1ffffffff credits=64");
	tap_ok(!tp_kv_u64(&ev, "xid", UINT32_MAX, &x), "an xid over 32 bits refused");
}

static char outbuf[1 << 16];

static struct tr_state *run(const char *text, enum tr_mode mode, bool check, size_t piece)
{
	static struct tr_state st;
	FILE *f = fmemopen(outbuf, sizeof(outbuf), "w");
	size_t n = strlen(text), i;

	memset(outbuf, 0, sizeof(outbuf));
	tr_init(&st, f, mode);
	st.check = check;
	for (i = 0; i < n; i += piece)
		tr_feed(&st, text + i, n - i < piece ? n - i : piece);
	tr_finish(&st);
	fclose(f);
	return &st;
}

#define P "  kworker-9 [000] ....."
static const char *one_rpc =
	P " 49.135110: xprtrdma_chunk_read: task:0000000a@00000003 pos=116 131072@0xe52b5ea9865be000:0x000009f5 (last)\n"
	P " 49.135247: xprtrdma_marshal: task:0000000a@00000003 xid=0xe52b5ea9 hdr=52 xdr=116/131072/0 read list/inline\n"
	P " 49.135300: xprtrdma_post_send: task:0000000a@00000003 cq.id=1 cid=20 (2 SGEs)\n"
	"    nfsd-204 [001] ..... 49.140000: svcrdma_decode_rqst: cq.id=2 cid=52 xid=0xe52b5ea9 vers=1 credits=128 proc=RDMA_MSG hdrlen=52\n"
	"    nfsd-204 [001] ..... 49.145426: svcrdma_decode_rseg: cq_id=2 cid=52 segno=0 position=116 131072@0xe52b5ea9865be000:0x000009f5\n"
	"    kworker/1:1H-58 [001] ..... 49.168507: svcrdma_wc_read: cq.id=1 cid=82 totalbytes=131072 latency-us=22281\n"
	"    nfsd-204 [001] ..... 49.170000: svcrdma_post_send: cq_id=1 cid=72 num_sge=1 inv_rkey=0x000009f5\n"
	P " 49.174000: xprtrdma_reply: task:0000000a@00000003 xid=0xe52b5ea9 credits=64\n";

static void rebuild(void)
{
	struct tr_state *st = run(one_rpc, TR_JSON, false, 1 << 20);

	tap_ok(st->rpcs_out == 1 && st->rpcs_both == 1, "one RPC, seen by client and server");
	tap_ok(strstr(outbuf, "{\"xid\":\"0xe52b5ea9\",\"side\":\"both\",\"time\":49.135247,\"task\":10,\"client\":3,"
			      "\"call\":{\"vers\":1,\"credits\":128,\"proc_name\":\"RDMA_MSG\",\"header_length\":52,"
			      "\"rtype\":\"read list\",\"wtype\":\"inline\",\"xdr\":[116,131072,0],"
			      "\"reads\":[{\"position\":116,\"handle\":\"0x000009f5\",\"length\":131072,"
			      "\"offset\":\"0xe52b5ea9865be000\"}],\"writes\":[],\"reply\":null,\"segments\":[1,0,0]},"
			      "\"reply\":{\"credits\":64,\"time\":49.174000") != NULL,
	       "--json: xid as a 0x string, the call's credits asked, the read segment as rpcrdma-decode keys it");
	tap_ok(strstr(outbuf, "\"read_latency_us\":22281") == NULL,
	       "svcrdma_wc_read from a kworker is not the nfsd thread's: no latency claimed");
	tap_ok(strstr(outbuf, "\"inv_rkey\":\"0x000009f5\"") && strstr(outbuf, "\"latency_us\":38753") &&
	       strstr(outbuf, "\"send_us\":53"), "the server's Send with Invalidate, latency and send time");
	st = run(one_rpc, TR_LINE, false, 1);
	tap_ok(strcmp(outbuf, "49.135247 xid 0xe52b5ea9 read list/inline hdr 52 segs 1/0/0 RDMA_MSG v1 credits 128 "
			      "-> granted 64 38753 us\n") == 0, "one line per RPC, fed a byte at a time");
	st = run(one_rpc, TR_VERBOSE, false, 7);
	tap_ok(strstr(outbuf, "    read segment 0: position 116 131072@0xe52b5ea9865be000:0x000009f5\n") &&
	       strstr(outbuf, "reply sent with remote invalidation"), "-V: segments and the server's view");
}

static void checks(void)
{
	struct tr_state *st;
	char big[6000];

	st = run(P " 1.0: xprtrdma_marshal: task:00000001@00000001 xid=0x00000001 hdr=28 xdr=40/0/0 pullup/inline\n"
		 P " 1.1: xprtrdma_reply: task:00000001@00000001 xid=0x00000001 credits=0\n", TR_LINE, true, 4096);
	tap_ok(st->f_zero == 1 && tr_findings(st) == 1 &&
	       strstr(outbuf, "check: zero-grant 1 (replies granting 0 credits) [V1 4.3.1]\n") &&
	       strstr(outbuf, "check: FAIL\n"), "zero grant found, a violation citing V1 4.3.1");
	st = run(P " 1.0: xprtrdma_marshal: task:00000001@00000001 xid=0x00000001 hdr=28 xdr=40/0/0 pullup/inline\n"
		 P " 1.1: xprtrdma_reply: task:00000001@00000001 xid=0x00000001 credits=1\n"
		 P " 1.2: xprtrdma_marshal: task:00000002@00000001 xid=0x00000002 hdr=28 xdr=40/0/0 pullup/inline\n"
		 P " 1.3: xprtrdma_marshal: task:00000003@00000001 xid=0x00000003 hdr=28 xdr=40/0/0 pullup/inline\n",
		 TR_LINE, true, 4096);
	tap_ok(st->f_credits == 1 && strstr(outbuf, "[credits-exceeded]") && st->no_reply == 2 &&
	       strstr(outbuf, "check: credits-exceeded 1 (calls marshalled beyond the last grant) [V1 4.3.1]\n") &&
	       tr_findings(st) == 1,
	       "two calls in flight on one credit: credits exceeded, citing V1 4.3.1; no replies counted");
	st = run(P " 1.0: xprtrdma_marshal: task:00000001@00000001 xid=0x00000001 hdr=28 xdr=40/0/0 pullup/inline\n"
		 P " 1.1: xprtrdma_reply: task:00000001@00000001 xid=0x00000001 credits=32\n"
		 P " 1.2: xprtrdma_reply: task:00000002@00000001 xid=0x00000009 credits=32\n", TR_LINE, true, 4096);
	tap_ok(st->f_nocall == 1 && strstr(outbuf, "[reply-without-call]") && tr_findings(st) == 0 &&
	       strstr(outbuf, "note: reply-without-call 1 (") && strstr(outbuf, "[our reading, D-KVIEW-2") &&
	       strstr(outbuf, "check: pass\n"), "a reply without its call: a note (D-KVIEW-2), not a failure");
	st = run(P " 0.9: xprtrdma_reply: task:00000002@00000001 xid=0x00000009 credits=32\n"
		 P " 1.0: xprtrdma_marshal: task:00000001@00000001 xid=0x00000001 hdr=28 xdr=40/0/0 pullup/inline\n",
		 TR_LINE, true, 4096);
	tap_ok(st->f_nocall == 0, "a reply before the trace's first marshal is not judged");
	st = run(P " 1.0: xprtrdma_mr_map: task:00000001@00000001 mr.id=7 nents=1 4@0x1:0x00000aac (FROM_DEVICE)\n"
		 P " 1.05: xprtrdma_marshal: task:00000001@00000001 xid=0x00000001 hdr=28 xdr=40/0/0 pullup/inline\n"
		 P " 1.1: xprtrdma_mr_unmap: mr.id=7 nents=1 4@0x1:0x00000aac (FROM_DEVICE)\n"
		 P " 1.2: xprtrdma_mr_map: task:00000001@00000001 mr.id=8 nents=1 4@0x1:0x00000aad (FROM_DEVICE)\n"
		 P " 1.3: xprtrdma_mr_localinv: task:00000001@00000001 mr.id=8 nents=1 4@0x1:0x00000aad (FROM_DEVICE)\n"
		 P " 1.4: xprtrdma_mr_unmap: mr.id=8 nents=1 4@0x1:0x00000aad (FROM_DEVICE)\n"
		 P " 1.5: xprtrdma_mr_map: task:00000000@ffffffff mr.id=10 nents=1 4@0x1:0x00000da0 (FROM_DEVICE)\n"
		 P " 1.6: xprtrdma_mr_unmap: mr.id=10 nents=1 4@0x1:0x00000da0 (FROM_DEVICE)\n", TR_LINE, true, 4096);
	tap_ok(st->f_mr == 1 && st->mr_conn_released == 1 && tr_findings(st) == 0 &&
	       strstr(outbuf, "note: mr-not-invalidated: mr.id=7 ") && strstr(outbuf, "[our reading, D-KVIEW-1") &&
	       strstr(outbuf, "note: mr-not-invalidated 1 (") && strstr(outbuf, "check: pass\n"),
	       "an MR released without invalidation: a note (D-KVIEW-1), not a failure; the write pad's own "
	       "is not counted");
	/* 6.1 over rxe: no MR free, the marshal fails (-EAGAIN) and is
	 * retried; the first attempt's MR never reached the server */
	st = run(P " 1.0: xprtrdma_mr_map: task:00000051@00000003 mr.id=0 nents=1 124@0xbd6063114cba3800:0x00000379 (FROM_DEVICE)\n"
		 P " 1.1: xprtrdma_chunk_reply: task:00000051@00000003 124@0xbd6063114cba3800:0x00000379 (more)\n"
		 P " 1.2: xprtrdma_nomrs_err: task:00000051@00000003 peer=[198.18.0.1]:20049\n"
		 P " 1.3: xprtrdma_marshal_failed: task:00000051@00000003 xid=0xbd606311 ret=-11\n"
		 P " 1.4: xprtrdma_mr_unmap: mr.id=0 nents=1 124@0xbd6063114cba3800:0x00000379 (FROM_DEVICE)\n"
		 P " 1.5: xprtrdma_mr_map: task:00000051@00000003 mr.id=0 nents=1 124@0xbd6063114cba3800:0x0000037a (FROM_DEVICE)\n"
		 P " 1.6: xprtrdma_chunk_reply: task:00000051@00000003 124@0xbd6063114cba3800:0x0000037a (last)\n"
		 P " 1.7: xprtrdma_marshal: task:00000051@00000003 xid=0xbd606311 hdr=80 xdr=120/0/0 pullup/reply chunk\n",
		 TR_JSON, true, 4096);
	tap_ok(st->f_mr == 0 && st->mr_unoffered == 1 && st->segs_failed[2] == 1 &&
	       strstr(outbuf, "\"reply\":[{\"handle\":\"0x0000037a\",\"length\":124,") &&
	       strstr(outbuf, "\"segments\":[0,0,1]"),
	       "a failed marshal: its MR is no finding, its segment not the retried call's");
	st = run(P " 1.0: xprtrdma_future_event: a=1\n"
		 P " 1.1: xprtrdma_marshal: task:00000001@00000001 hdr=28\n"
		 P " 1.2: sched_switch: prev=a next=b\n", TR_LINE, false, 4096);
	tap_ok(st->n_unknown == 2 && st->n_drift == 1 && st->ev_known == 1 && st->rpcs_out == 0,
	       "an unknown event name and a marshal without xid: counted, not fatal");
	memset(big, 'x', sizeof(big));
	memcpy(big + sizeof(big) - 2, "\n", 2);
	{
		static char text[8192];

		snprintf(text, sizeof(text), "%s%s", big, one_rpc);
		st = run(text, TR_LINE, false, 100);
	}
	tap_ok(st->overlong == 1 && st->rpcs_out == 1, "a line over 4096 bytes dropped and counted, the next read");
}

int main(void)
{
	lines();
	fields();
	rebuild();
	checks();
	return tap_done();
}
