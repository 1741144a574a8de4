/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cap_none.c - when a whole run found no RPC-over-RDMA message: "no
 * RPC-over-RDMA traffic found in N frames" on stderr, with the likely
 * reasons from what the frames were (RoCEv2 on another UDP port, TCP that
 * is not an iWARP stream, frames cut by the snapshot length, every RDMA
 * packet failing its CRC), and exit status 4 (rpcrdma-decode(1)).
 */
#include "cap_state.h"

#define NFS_TCP_PORT 2049u
#define NFS_RDMA_PORT 20049u         /* RFC 5667 §5: NFS/RDMA's port */

/* count one frame of a port, keeping the most frequent ports */
void cap_seen_port(struct cap_seen_ports *s, uint16_t port)
{
	unsigned least = 0;

	s->total++;
	for (unsigned i = 0; i < CAP_SEEN_PORTS; i++) {
		if (s->n[i] && s->port[i] == port) {
			s->n[i]++;
			return;
		}
		if (s->n[i] < s->n[least])
			least = i;
	}
	if (!s->n[least] || s->n[least] == 1) {   /* room, or a rare one */
		s->port[least] = port;
		s->n[least] = 1;
	}
}

static uint16_t top_port(const struct cap_seen_ports *s)
{
	unsigned best = 0;

	for (unsigned i = 1; i < CAP_SEEN_PORTS; i++)
		if (s->n[i] > s->n[best])
			best = i;
	return s->port[best];
}

static bool has_port(const struct cap_seen_ports *s, uint16_t port)
{
	for (unsigned i = 0; i < CAP_SEEN_PORTS; i++)
		if (s->n[i] && s->port[i] == port)
			return true;
	return false;
}

#define WHY(...) fprintf(stderr, "rpcrdma-decode:   " __VA_ARGS__)

/* true when there was nothing: the report is on stderr */
bool cap_none_report(struct cap_state *st)
{
	const struct cap_seen *s = &st->seen;
	uint64_t crc = st->stats.total.crc_fail;

	if (st->stats.messages)
		return false;
	fflush(st->out);
	cap_progress_clear(st);
	fprintf(stderr, "rpcrdma-decode: no RPC-over-RDMA traffic found in %llu "
		"frames\n", (unsigned long long)st->stats.frames);
	if (crc && crc >= st->stats.frames_rdma)
		WHY("every one of the %llu RDMA packets failed its CRC: captured "
		    "on the host before the NIC filled it in? --no-crc-check "
		    "decodes them anyway\n", (unsigned long long)crc);
	else if (crc)
		WHY("%llu RDMA packets failed their CRC and were dropped\n",
		    (unsigned long long)crc);
	if (s->udp.total)
		WHY("%llu UDP datagrams to other ports than %u (most to port %u): "
		    "RoCEv2 on another port? --roce-port %u\n",
		    (unsigned long long)s->udp.total, st->o->roce_port,
		    top_port(&s->udp), top_port(&s->udp));
	if (s->tcp.total) {
		WHY("%llu TCP segments that are not an iWARP stream (most to port "
		    "%u)", (unsigned long long)s->tcp.total, top_port(&s->tcp));
		if (has_port(&s->tcp, NFS_TCP_PORT))
			fputs(": NFS over TCP (port 2049) is not RDMA", stderr);
		if (has_port(&s->tcp, NFS_RDMA_PORT))
			fputs(": an iWARP stream is followed from its MPA start or a "
			      "whole FPDU; start the capture before the mount, or "
			      "use --mpa-crc/--mpa-markers", stderr);
		fputc('\n', stderr);
	}
	if (s->snapped)
		WHY("%llu frames cut by the snapshot length: capture with "
		    "tcpdump -s 0\n", (unsigned long long)s->snapped);
	if (s->filtered)
		WHY("the filter expression '%s' left out %llu of the %llu frames "
		    "read%s: try without it\n", st->o->filter,
		    (unsigned long long)s->filtered,
		    (unsigned long long)st->stats.frames,
		    s->filtered == st->stats.frames ? " (all of them)" : "");
	if (!st->stats.frames)
		WHY("the capture holds no frames\n");
	else if (!s->filtered && !s->udp.total && !s->tcp.total && !crc && !s->snapped &&
		 !st->stats.frames_rdma)
		WHY("no IP, RoCEv1 or InfiniBand transport traffic at all; on a "
		    "host with an RDMA NIC, tcpdump -i eth0 sees no RDMA: capture "
		    "on the RDMA device (tcpdump -i mlx5_0), with ibdump, or on a "
		    "mirrored switch port\n");
	return true;
}
