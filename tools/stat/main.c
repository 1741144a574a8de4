/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * rpcrdma-stat: the kernel's own RPC-over-RDMA counters, per NFS mount
 * ("xprt: rdma" in /proc/self/mountstats) and for the NFS server
 * (/proc/sys/sunrpc/svc_rdma/rdma_stat_*), with their kernel names; totals,
 * or the change per interval like vmstat(8) and nfsiostat(8); text, JSON or
 * Prometheus text exposition.  man/rpcrdma-stat.1.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cliopt.h"
#include "live.h"
#include "mstat.h"

#define PROG "rpcrdma-stat"
#define SVC_DIR "/proc/sys/sunrpc/svc_rdma"

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: " PROG " [options] [INTERVAL [COUNT]]\n"
		"The kernel's RPC-over-RDMA counters with their kernel names: every NFS\n"
		"mount's 'xprt: rdma' line of mountstats, and with --server the NFS\n"
		"server's rdma_stat_* counters.  With INTERVAL (seconds), the totals,\n"
		"then the change every INTERVAL, COUNT times (default: until interrupted).\n"
		"  -f, --file FILE     read FILE instead of /proc/self/mountstats\n"
		"  -S, --server[=DIR]  also the server's counters (DIR: " SVC_DIR ")\n"
		"      --no-mounts     not the mounts (with --server: the server alone)\n"
		"  -j, --json          one JSON object per transport, the kernel's names as keys\n"
		"      --prom          Prometheus text exposition (totals only)\n"
		"  -h, --help          this help\n"
		"  -V, --version       the version\n"
		"Exit status: 0 read, 1 an input that is not what the kernel writes\n"
		"(named with its file and line), 2 a usage error.\n");
}

struct opts {
	const char *file, *svc_dir;
	bool server, mounts;
	enum ms_mode mode;
	uint64_t interval, count;
	bool has_interval, has_count;
};

static int take(const struct opts *o, struct ms_sample *s)
{
	char err[512];
	int rc;

	s->n = s->other_xprts = s->mounts = 0;
	if (o->mounts) {
		char *buf;
		size_t len;

		if (ms_read_file(o->file, &buf, &len, err, sizeof(err)) < 0) {
			fprintf(stderr, PROG ": %s\n", err);
			return -1;
		}
		rc = ms_parse_mountstats(buf, len, o->file, s, err, sizeof(err));
		free(buf);
		if (rc < 0) {
			fprintf(stderr, PROG ": %s\n", err);
			return -1;
		}
	}
	if (o->server) {
		rc = ms_read_server(o->svc_dir, s, err, sizeof(err));
		if (rc < 0) {
			fprintf(stderr, PROG ": %s\n", err);
			return -1;
		}
		if (rc == 1)
			fprintf(stderr, PROG ": %s: no rdma_stat_* counters (is svcrdma loaded?)\n", o->svc_dir);
	}
	return 0;
}

/* seconds on the tools' one monotonic clock (live.h) */
static double now(void)
{
	return (double)live_now_ns() / 1e9;
}

int main(int argc, char **argv)
{
	/* the long names from the tools' one list (cliopt.h); --server[=DIR]
	 * is the list's optional-value kind here */
	static const char long_names[] = "file=f server/optional=S no-mounts json=j prom help=h version=V";
	struct option lo[8];
	struct opts o = { .file = "/proc/self/mountstats", .svc_dir = SVC_DIR, .mounts = true };
	struct ms_sample *a, *b;
	int c;

	if (cli_longs(long_names, lo, sizeof(lo) / sizeof(lo[0])) < 0)
		return cli_usage_error(PROG, "internal: the option table does not fit");
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":f:S::jhV", lo, NULL)) != -1) {
		switch (c) {
		case 'f': o.file = optarg; break;
		case 'S':
			o.server = true;
			if (optarg)
				o.svc_dir = optarg;
			break;
		case CLI_L_NO_MOUNTS: o.mounts = false; break;
		case 'j': o.mode = MS_JSON; break;
		case CLI_L_PROM: o.mode = MS_PROM; break;
		case 'h': usage(stdout); return 0;
		case 'V': printf(PROG " %s\n", RPCRDMA_TOOLS_VERSION); return 0;
		default: return cli_getopt_failure(PROG, c, argv);
		}
	}
	if (!o.mounts && !o.server)
		return cli_usage_error(PROG, "--no-mounts leaves nothing to read without --server");
	if (optind < argc) {
		if (cli_number(PROG, "INTERVAL", argv[optind++], 1, 86400, &o.interval))
			return CLI_EXIT_USAGE;
		o.has_interval = true;
	}
	if (optind < argc) {
		if (cli_number(PROG, "COUNT", argv[optind++], 1, UINT32_MAX, &o.count))
			return CLI_EXIT_USAGE;
		o.has_count = true;
	}
	if (optind < argc)
		return cli_usage_error(PROG, "unexpected argument '%s'", argv[optind]);
	if (o.mode == MS_PROM && o.has_interval)
		return cli_usage_error(PROG, "--prom prints one scrape of the totals: no INTERVAL");

	a = malloc(sizeof(*a));
	b = malloc(sizeof(*b));
	if (!a || !b) {
		fprintf(stderr, PROG ": out of memory\n");
		free(a);
		free(b);
		return 1;
	}
	if (take(&o, a) < 0) {
		free(a);
		free(b);
		return 1;
	}
	if (o.mounts && a->n == 0 && o.mode != MS_PROM)
		fprintf(stderr, PROG ": %s: no NFS mount over RDMA (%u NFS mounts, %u transports of other kinds)\n",
			o.file, a->mounts, a->other_xprts);
	ms_print_totals(stdout, o.mode, a);
	fflush(stdout);
	if (o.has_interval) {
		double t0 = now();
		uint64_t i;
		int rc = 0;

		/* COUNT reports in all, as vmstat: the totals were the first */
		for (i = 1; !o.has_count || i < o.count; i++) {
			struct ms_sample *t;
			struct timespec ts = { (time_t)o.interval, 0 };
			double t1;

			nanosleep(&ts, NULL);
			if (take(&o, b) < 0) {
				rc = 1;
				break;
			}
			t1 = now();
			ms_print_delta(stdout, o.mode, a, b, t1 - t0, i == 1);
			fflush(stdout);
			t = a;
			a = b;
			b = t;
			t0 = t1;
		}
		free(a);
		free(b);
		return rc;
	}
	free(a);
	free(b);
	return 0;
}
