/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_cap_psn.c - the request-PSN window of the capture pipeline (IBTA
 * 9.7.5.1.2; docs/capture.md, the seen-PSN window) through native
 * InfiniBand packets: a PSN seen before is a retransmission and not a new
 * message; not merely one below the highest; across 2^24; a jump ahead
 * past the window; far behind is a new sequence (a reused QP).
 */
#include "capunit.h"

#define SEND_ONLY 0x04

static uint32_t xid;

static void send(struct run *r, uint32_t psn)
{
	uint8_t m[128], p[256];
	uint32_t n = msg_null(m, ++xid, false);
	uint32_t len = ib_packet(p, 0x11, 0x22, SEND_ONLY, 0x33, psn, m, n);
	run_frame(r, 247, p, len);
}

/* `psns` in order: messages decoded, retransmissions counted */
static void check(const uint32_t *psns, unsigned n, unsigned want_msgs,
		  unsigned want_retrans, const char *what)
{
	struct run r;

	run_open(&r);
	for (unsigned i = 0; i < n; i++)
		send(&r, psns[i]);
	unsigned got = run_lines(&r);
	uint64_t rt = r.st->stats.total.retrans;
	tap_ok(got == want_msgs && rt == want_retrans && r.st->violations == 0,
	       "PSN: %s (%u messages, %llu retransmissions)", what, got,
	       (unsigned long long)rt);
	run_close(&r);
}

int main(void)
{
	static const uint32_t again[] = { 100, 101, 101, 102, 100 };
	static const uint32_t gap[] = { 100, 103, 101, 102, 101 };
	static const uint32_t wrap24[] = { 0xfffffe, 0xffffff, 0, 1, 0xffffff, 0 };
	static const uint32_t jump[] = { 100, 5100, 5090, 100 };
	static const uint32_t reuse[] = { 200000, 200001, 100, 101, 100 };
	static const uint32_t old[] = { 5000, 5001, 5002, 5001 - 2000 };

	check(again, 5, 3, 2, "a PSN seen before is a retransmission");
	check(gap, 5, 4, 1, "PSNs behind the highest but never seen are new (after a sequence-error NAK)");
	check(wrap24, 6, 4, 2, "the window crosses 2^24");
	check(jump, 4, 3, 1, "a jump past the 1024-PSN window clears it: just behind the new highest is new, far behind an old repeat");
	check(reuse, 5, 4, 1, "65536 or more behind: a new sequence (QP reused), then its repeats");
	check(old, 4, 3, 1, "behind the window, within 65536: an old retransmission");
	return tap_done();
}
