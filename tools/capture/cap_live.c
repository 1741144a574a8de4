/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cap_live.c - rpcrdma-decode -i IFACE [FILTER]: a live capture through
 * libpcap (pcap(3PCAP)), as tcpdump takes one: an Ethernet interface for
 * RoCE and iWARP, "any", or an RDMA device libpcap can sniff (mlx5_0:
 * Ethernet frames for RoCE, DLT_INFINIBAND for an InfiniBand port); the
 * filter expression goes to the kernel.  Every frame goes through the same
 * pipeline as a file's.  The ring is drained without blocking and the
 * output (block-buffered) flushed each time it is empty: a burst is decoded
 * at full speed, with no write(2) per line to let the ring overflow, and
 * each message is out as soon as its burst is (issue 30 item 3: printing
 * line by line dropped ~250 of 4,300 packets of a 1 MiB echo under TCG).
 * SIGINT, SIGTERM, SIGHUP and -c end the capture; --stats and the --check
 * total are printed then, and the packet counts on stderr as tcpdump prints
 * them, with a word when the kernel dropped any.
 */
#include <errno.h>
#include <pcap/pcap.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cap_state.h"

#define LIVE_SNAPLEN 262144            /* whole frames */
#define LIVE_TIMEOUT_MS 200            /* a block of frames is handed over at
					* least this often, and the output
					* written */
#define LIVE_BUFFER (32 << 20)         /* the kernel's ring: bursts under load
					* (-B KiB sets it, as tcpdump's) */

static pcap_t *volatile live;          /* for the signal handler */
static volatile sig_atomic_t stopping; /* a signal came: pcap_dispatch in
					* non-blocking mode reports a break
					* only with a packet at hand */

static void stop(int sig)
{
	(void)sig;
	stopping = 1;
	if (live)
		pcap_breakloop(live);
}

static void on_signals(void (*fn)(int))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fn;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

/* -i NAME that libpcap does not know but that is (or is named like) an
 * RDMA device: libpcap's RDMA sniffer is missing (Debian builds libpcap
 * without rdma-core); its Ethernet interface carries RoCE and iWARP */
static void no_rdma_sniffer(const char *iface)
{
	static const char *const prefixes[] = {
		"mlx4_", "mlx5_", "rxe", "siw", "irdma", "bnxt_re", "qedr",
		"erdma", "hfi1_", "efa_", "ocrdma", "i40iw", "cxgb4_",
	};
	char path[512], netdev[64] = "";
	bool rdma = false;

	if (strchr(iface, '/') || strlen(iface) > 64)
		return;
	snprintf(path, sizeof(path), "/sys/class/infiniband/%s", iface);
	rdma = access(path, F_OK) == 0;
	for (size_t i = 0; !rdma && i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		rdma = !strncmp(iface, prefixes[i], strlen(prefixes[i]));
	if (!rdma)
		return;
	snprintf(path, sizeof(path), "/sys/class/infiniband/%s/ports/1/gid_attrs/ndevs/0",
		 iface);
	FILE *f = fopen(path, "r");
	if (f) {
		if (!fgets(netdev, sizeof(netdev), f))
			netdev[0] = 0;
		netdev[strcspn(netdev, "\n")] = 0;
		fclose(f);
	}
	fprintf(stderr, "rpcrdma-decode: -i %s: an RDMA device is captured only by "
		"a libpcap built with its RDMA sniffer (rdma-core), and this one "
		"has none (Debian's libpcap is built without it): capture its "
		"Ethernet interface instead (%s%s%s), or build libpcap from source\n",
		iface, *netdev ? "-i " : "the netdev it runs on", netdev,
		*netdev ? " carries its RoCE and iWARP traffic" : "");
}

/* pcap_create + options + pcap_activate + filter; NULL said why */
static pcap_t *open_live(const char *iface, const char *filter,
			 uint32_t buffer_kib)
{
	char err[PCAP_ERRBUF_SIZE] = "";
	struct bpf_program prog;
	pcap_t *pc = pcap_create(iface, err);

	if (!pc) {
		fprintf(stderr, "rpcrdma-decode: -i %s: %s\n", iface, err);
		return NULL;
	}
	/* each setter fails only on an activated handle (PCAP_ERROR_ACTIVATED);
	 * checked all the same (libpcap 1.11 marks them warn_unused_result:
	 * Debian unstable's build failed on it) */
	int r = pcap_set_snaplen(pc, LIVE_SNAPLEN);
	if (!r)
		r = pcap_set_promisc(pc, 1);
	if (!r)
		r = pcap_set_timeout(pc, LIVE_TIMEOUT_MS);
	/* not immediate mode: libpcap then uses TPACKET_V3, whose blocks pack
	 * frames by their length; immediate mode's TPACKET_V2 gives every
	 * frame a slot of the largest size (64 KiB and more with the veth's
	 * segmentation offloads), so 32 MiB held ~500 frames and a 1 MiB echo
	 * overflowed it.  A block is handed over when full or LIVE_TIMEOUT_MS
	 * old, as tcpdump without --immediate-mode. */
	if (!r)
		r = pcap_set_immediate_mode(pc, 0);
	if (!r)
		r = pcap_set_buffer_size(pc, buffer_kib ? (int)(buffer_kib * 1024u) :
					 LIVE_BUFFER);
	if (r) {
		fprintf(stderr, "rpcrdma-decode: -i %s: setting the capture options: %s\n",
			iface, pcap_statustostr(r));
		pcap_close(pc);
		return NULL;
	}
	r = pcap_activate(pc);
	if (r < 0) {
		const char *detail = pcap_geterr(pc);
		if (!strcmp(detail, pcap_statustostr(r)))
			detail = "";           /* not the same words twice */
		fprintf(stderr, "rpcrdma-decode: -i %s: %s%s%s\n", iface,
			pcap_statustostr(r), *detail ? ": " : "", detail);
		if (r == PCAP_ERROR_NO_SUCH_DEVICE)
			no_rdma_sniffer(iface);
		if (r == PCAP_ERROR_PERM_DENIED)
			fputs("rpcrdma-decode: capturing needs root or CAP_NET_RAW\n",
			      stderr);
		pcap_close(pc);
		return NULL;
	}
	if (r > 0)
		fprintf(stderr, "rpcrdma-decode: -i %s: warning: %s\n", iface,
			pcap_geterr(pc));
	int dlt = pcap_datalink(pc);
	if (!cap_link_supported(dlt)) {
		const char *n = pcap_datalink_val_to_name(dlt);
		fprintf(stderr, "rpcrdma-decode: -i %s: unsupported link type %d (%s); "
			"supported: %s\n", iface, dlt, n ? n : "unknown",
			cap_link_names);
		pcap_close(pc);
		return NULL;
	}
	if (filter && *filter) {
		if (pcap_compile(pc, &prog, filter, 1, PCAP_NETMASK_UNKNOWN) != 0 ||
		    pcap_setfilter(pc, &prog) != 0) {
			fprintf(stderr, "rpcrdma-decode: -i %s: filter '%s': %s\n",
				iface, filter, pcap_geterr(pc));
			pcap_close(pc);
			return NULL;
		}
		pcap_freecode(&prog);
	}
	return pc;
}

struct live_ctx {
	struct cap_state *st;
	int dlt;
	pcap_t *pc;
	uint64_t n;
	bool done;                     /* -c reached */
};

static void live_frame(u_char *user, const struct pcap_pkthdr *h,
		       const u_char *data)
{
	struct live_ctx *c = (struct live_ctx *)user;

	if (c->done)
		return;
	struct cap_frame f = {
		.num = ++c->n, .ts_sec = h->ts.tv_sec,
		.ts_usec = (uint32_t)h->ts.tv_usec, .p = data,
		.len = h->caplen,
		.wire_len = h->len > h->caplen ? h->len : h->caplen,
	};
	if (!cap_frame_in(c->st, c->dlt, &f)) {
		c->done = true;            /* -c */
		pcap_breakloop(c->pc);
	}
}

int cap_run_live(const struct cap_opts *o, const char *iface)
{
	struct cap_opts lo = *o;
	pcap_t *pc;
	int rc;

	lo.filter = NULL;                  /* the kernel applies it */
	if (!(pc = open_live(iface, o->filter, o->buffer_kib)))
		return CAP_EXIT_READ;
	struct cap_state *st = cap_open(&lo, stdout);
	if (!st) {
		fprintf(stderr, "rpcrdma-decode: out of memory\n");
		pcap_close(pc);
		return CAP_EXIT_READ;
	}
	if ((o->write_path && !cap_write_open(st, o->write_path)) ||
	    (o->plot_path && !cap_plot_open(st))) {
		pcap_close(pc);
		cap_close(st);
		return CAP_EXIT_READ;
	}
	int dlt = pcap_datalink(pc);
	fprintf(stderr, "rpcrdma-decode: listening on %s, link-type %s, snapshot "
		"length %d bytes\n", iface, pcap_datalink_val_to_name(dlt) ?
		pcap_datalink_val_to_name(dlt) : "?", LIVE_SNAPLEN);
	live = pc;
	on_signals(stop);
	cap_source_begin(st, iface);
	struct live_ctx ctx = { .st = st, .dlt = dlt, .pc = pc };
	int fd = pcap_setnonblock(pc, 1, pcap_geterr(pc)) == 0 ?
		pcap_get_selectable_fd(pc) : -1;
	for (;;) {
		/* everything the ring holds now, then flush and wait */
		int r = pcap_dispatch(pc, -1, live_frame, (u_char *)&ctx);
		if (r == PCAP_ERROR_BREAK || ctx.done || stopping)
			break;
		if (r < 0) {
			fprintf(stderr, "rpcrdma-decode: -i %s: %s\n", iface,
				pcap_geterr(pc));
			st->status = CAP_EXIT_READ;
			break;
		}
		if (r > 0 && fd >= 0)
			continue;
		fflush(st->out);
		cap_write_sync(st);
		if (fd >= 0 && !stopping) {
			struct pollfd p = { .fd = fd, .events = POLLIN };
			if (poll(&p, 1, LIVE_TIMEOUT_MS) < 0 && errno != EINTR) {
				fprintf(stderr, "rpcrdma-decode: -i %s: poll: %s\n",
					iface, strerror(errno));
				st->status = CAP_EXIT_READ;
				break;
			}
		}
	}
	uint64_t n = ctx.n;
	on_signals(SIG_DFL);
	live = NULL;
	struct pcap_stat ps;
	bool have_ps = pcap_stats(pc, &ps) == 0;
	pcap_close(pc);
	cap_source_end(st);
	fflush(st->out);
	fprintf(stderr, "%llu packets captured\n", (unsigned long long)n);
	if (have_ps)
		fprintf(stderr, "%u packets received by filter\n%u packets dropped "
			"by kernel\n", ps.ps_recv, ps.ps_drop);
	if (have_ps && ps.ps_drop) {
		fprintf(stderr, "rpcrdma-decode: the kernel dropped %u packets: the "
			"output is incomplete (a larger -B, or -w FILE now and -r FILE "
			"after)\n", ps.ps_drop);
		if (st->status == 0)
			st->status = CAP_EXIT_READ;
	}
	rc = cap_close(st);
	return rc;
}
