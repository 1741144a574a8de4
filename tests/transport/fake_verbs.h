/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fake_verbs.h - an in-process RDMA fabric behind struct xprt_verbs, for
 * unit tests of the transport and of the tools above it: no device, no
 * kernel, one process.  Set xprt_opts.verbs = &fake_verbs on both ends.
 *
 * What it models, like a real RC queue pair: rdma_cm connect/accept/reject
 * with private data, listeners by family and port (an AF_INET6 listener
 * takes IPv6 only, as rdma_cm's with afonly set); a Send lands in the peer's
 * oldest posted Receive (none posted: RNR retry exceeded at the sender; too
 * small: local length error at the receiver), RDMA Read and Write between
 * registered regions with rkey, bounds and access checks (remote access
 * error at the initiator, and both queue pairs to the error state), type 2
 * memory windows with bind, local and remote invalidation, orderly
 * disconnects (DISCONNECTED at both ends) and disorderly ones (destroying a
 * connected id), flushed work requests once a queue pair is in error.
 * Everything completes at once, inside the post call; completions and CM
 * events wake eventfds for poll(2).
 *
 * Addresses: any name getaddrinfo resolves; 192.0.2.0/24 and 2001:db8::/32
 * (documentation ranges) fail address resolution (unreachable),
 * 198.51.100.0/24 times out at connect (no answer).  No listener on the
 * port: rejected with reason 8 (invalid service id), as IB CM does.
 *
 * Global state, for tests only; not thread-safe.
 */
#ifndef RPCRDMA_FAKE_VERBS_H
#define RPCRDMA_FAKE_VERBS_H

#include <stdbool.h>
#include "xprt_verbs.h"

extern const struct xprt_verbs fake_verbs;

struct fake_verbs_config {
	int ndev;           /* devices reported by device_count (default 1) */
	bool no_mw;         /* the device has no memory windows */
	bool iwarp;         /* reported in query_device */
	bool late_established; /* the server's ESTABLISHED comes only after its
				* first Receive completed (real rdma_cm can) */
	bool rtu_lost;      /* the server's CM never sees the client's RTU:
			     * no ESTABLISHED unless notify_established is
			     * called, and a disconnect before it tells the
			     * client nothing (the IB CM sends no DREQ from
			     * REP_SENT) */
	unsigned connect_addrinuse; /* so many rdma_connect calls fail with
				     * EADDRINUSE first (iWARP: the port rdma_cm
				     * chose is held by a host TCP socket) */
	unsigned connect_timedout; /* so many connection requests end in
				    * UNREACHABLE with ETIMEDOUT first (siw's
				    * MPA Reply timer, IB CM's REQ retries) */
	unsigned lose_first_send; /* so many client connections lose their first
				   * Send: it completes at the sender and never
				   * arrives (siw's first-Send race) */
	bool rdma_cm_errnos; /* listen fails as rdma_cm does: EADDRNOTAVAIL
			      * for a taken port as for an address that is
			      * neither a wildcard nor loopback (no device) */
};
/* Set before the loops are created (reset restores the defaults). */
extern struct fake_verbs_config fake_verbs_config;

/* Objects alive now: a test checks these are 0 after closing everything. */
struct fake_verbs_live {
	unsigned chans, ids, qps, mrs, mws, events;
};
void fake_verbs_live(struct fake_verbs_live *l);
/* Counters since the last reset. */
struct fake_verbs_counts {
	unsigned long sends, send_invs, reads, writes, recvs_posted;
	unsigned long rnr_errors, access_errors, flushed;
	unsigned long connects, rejects, disconnects;
	unsigned long dreqs_skipped, notifies; /* rtu_lost */
	unsigned long long read_bytes, write_bytes;
};
void fake_verbs_counts(struct fake_verbs_counts *c);
/* Free everything left (after a test that leaked, so the next starts
 * clean) and restore the default configuration. */
void fake_verbs_reset(void);

#endif
