/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * rpcrdma-trace: RPC-over-RDMA as the Linux kernel saw it, from its rpcrdma
 * trace events -- tracefs text (trace, trace_pipe), `trace-cmd report` or
 * `perf script` output, a file or stdin, or live from tracefs.
 * man/rpcrdma-trace.1.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "cliopt.h"
#include "live.h"
#include "trpc.h"

#define PROG "rpcrdma-trace"

static volatile sig_atomic_t stop;
static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

/* -i's tick: only interrupts a read that waits (read_fd) */
static void on_tick(int sig)
{
	(void)sig;
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: " PROG " -r FILE|- [options]\n"
		"       " PROG " -i [options]\n"
		"Rebuilds each RPC from the kernel's rpcrdma trace events (client xprtrdma_*,\n"
		"server svcrdma_*): xid, chunk types and segments, credits asked and granted,\n"
		"times, MR lifecycles, errors.\n"
		"  -r, --read FILE     trace text: tracefs trace or trace_pipe, trace-cmd report,\n"
		"                      perf script ('-': stdin)\n"
		"  -i, --live          read tracefs' trace_pipe, enabling the rpcrdma events\n"
		"                      (and disabling them at the end; root)\n"
		"      --tracefs DIR   where tracefs is (default /sys/kernel/tracing)\n"
		"  -t, --seconds N     with -i: stop after N seconds (default: at SIGINT)\n"
		"  -V, --verbose       segments, times and the server's view under each RPC\n"
		"  -j, --json          one JSON object per RPC\n"
		"  -s, --stats         counts, latency by chunk types, credits, chunks, MRs, errors\n"
		"  -c, --check         the rules an event stream can judge, with the spec section:\n"
		"                      credits exceeded, zero grant (V1 4.3.1); and as notes,\n"
		"                      never a failure: MR not invalidated, reply without call\n"
		"  -q, --quiet         no line per RPC (with --stats or --check)\n"
		"  -h, --help          this help\n"
		"      --version       the version\n"
		"Exit status: 0, 1 --check found a violation or the input could not be read,\n"
		"2 a usage error.\n");
}

static int write_str(const char *dir, const char *file, const char *s)
{
	char path[4096];
	int fd, rc = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	fd = open(path, O_WRONLY | O_TRUNC);
	if (fd < 0)
		return -1;
	if (write(fd, s, strlen(s)) < 0)
		rc = -1;
	close(fd);
	return rc;
}

/* A file, stdin or (-i) trace_pipe read to its end or to a signal.  -i
 * reads trace_pipe blocking, with no O_NONBLOCK and no poll(): a SIGALRM
 * every 200 ms (handlers set without SA_RESTART) ends a read that waits with
 * EINTR, so that SIGINT, SIGTERM and --seconds are seen within 200 ms even
 * when they come between the check and the read.  A blocking read is the
 * path `cat trace_pipe` takes; with O_NONBLOCK and a poll() every 200 ms, a
 * Debian 6.1.0-56 guest under a two-core hog once soft-locked a CPU for
 * 1,009 s in this process's system calls on a tracefs instance's
 * trace_pipe. */
static int read_fd(struct tr_state *st, int fd, double seconds)
{
	char buf[65536];
	uint64_t t0 = live_now_ns();

	while (!stop) {
		ssize_t n;

		if (seconds > 0 && (double)(live_now_ns() - t0) / 1e9 >= seconds)
			break;
		n = read(fd, buf, sizeof(buf));
		if (n < 0) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, PROG ": %s: %s\n", st->src, strerror(errno));
			return -1;
		}
		if (n == 0)
			break;
		tr_feed(st, buf, (size_t)n);
		fflush(st->out);
	}
	return 0;
}

/* -i: the rpcrdma events enabled, trace_pipe read until SIGINT/SIGTERM or
 * --seconds, the events disabled again.  -1: nothing could be read (said);
 * else the exit status.  The path stays valid: it names the source in the
 * closing counts. */
static int read_live(struct tr_state *st, const char *tracefs, uint64_t seconds)
{
	static char path[4096];
	const struct itimerval tick = { { 0, 200000 }, { 0, 200000 } };
	struct sigaction sa;
	int fd, rc = 0;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sa.sa_handler = on_tick;
	sigaction(SIGALRM, &sa, NULL);
	snprintf(path, sizeof(path), "%s/trace_pipe", tracefs);
	st->src = path;
	if (write_str(tracefs, "events/rpcrdma/enable", "1") < 0) {
		fprintf(stderr, PROG ": %s/events/rpcrdma/enable: %s (root, tracefs mounted, rpcrdma loaded?)\n",
			tracefs, strerror(errno));
		return -1;
	}
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		fprintf(stderr, PROG ": %s: %s\n", path, strerror(errno));
		(void)write_str(tracefs, "events/rpcrdma/enable", "0");
		return -1;
	}
	fprintf(stderr, PROG ": reading %s, rpcrdma events enabled (SIGINT to stop)\n", path);
	setitimer(ITIMER_REAL, &tick, NULL);
	if (read_fd(st, fd, (double)seconds) < 0)
		rc = 1;
	setitimer(ITIMER_REAL, &(struct itimerval){ 0 }, NULL);
	close(fd);
	if (write_str(tracefs, "events/rpcrdma/enable", "0") < 0)
		fprintf(stderr, PROG ": could not disable the rpcrdma events: %s\n", strerror(errno));
	return rc;
}

int main(int argc, char **argv)
{
	/* the long names from the tools' one list (cliopt.h); --check is the
	 * list's no-value kind here */
	static const char long_names[] = "read=r live=i tracefs seconds=t verbose=V json=j stats=s "
					 "check/none=c quiet=q help=h version";
	struct option lo[16];
	const char *file = NULL, *tracefs = "/sys/kernel/tracing";
	bool live = false, verbose = false, json = false, stats = false, check = false, quiet = false;
	uint64_t seconds = 0;
	struct tr_state *st;
	int c, fd, rc = 0;

	if (cli_longs(long_names, lo, sizeof(lo) / sizeof(lo[0])) < 0)
		return cli_usage_error(PROG, "internal: the option table does not fit");
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":r:it:Vjscqh", lo, NULL)) != -1) {
		switch (c) {
		case 'r': file = optarg; break;
		case 'i': live = true; break;
		case CLI_L_TRACEFS: tracefs = optarg; break;
		case 't':
			if (cli_number(PROG, "--seconds", optarg, 1, 86400 * 365, &seconds))
				return CLI_EXIT_USAGE;
			break;
		case 'V': verbose = true; break;
		case 'j': json = true; break;
		case 's': stats = true; break;
		case 'c': check = true; break;
		case 'q': quiet = true; break;
		case 'h': usage(stdout); return 0;
		case CLI_L_VERSION: printf(PROG " %s\n", RPCRDMA_TOOLS_VERSION); return 0;
		default: return cli_getopt_failure(PROG, c, argv);
		}
	}
	if (optind < argc)
		return cli_usage_error(PROG, "unexpected argument '%s'", argv[optind]);
	if (!file == !live)
		return cli_usage_error(PROG, "one source: -r FILE (or -r - for stdin) or -i");
	if (json && verbose)
		return cli_usage_error(PROG, "--json and --verbose are two outputs: choose one");
	if (seconds && !live)
		return cli_usage_error(PROG, "--seconds is for -i");
	if (quiet && !stats && !check)
		return cli_usage_error(PROG, "--quiet leaves nothing to print without --stats or --check");

	st = malloc(sizeof(*st));
	if (!st) {
		fprintf(stderr, PROG ": out of memory\n");
		return 1;
	}
	tr_init(st, stdout, json ? TR_JSON : verbose ? TR_VERBOSE : TR_LINE);
	st->stats = stats;
	st->check = check;
	st->quiet = quiet;
	if (live) {
		rc = read_live(st, tracefs, seconds);
		if (rc < 0) {
			free(st);
			return 1;
		}
	} else {
		if (strcmp(file, "-") == 0) {
			fd = 0;
			st->src = "stdin";
		} else {
			fd = open(file, O_RDONLY);
			st->src = file;
			if (fd < 0) {
				fprintf(stderr, PROG ": %s: %s\n", file, strerror(errno));
				free(st);
				return 1;
			}
		}
		if (read_fd(st, fd, 0) < 0)
			rc = 1;
		if (fd != 0)
			close(fd);
	}
	tr_finish(st);
	if (st->bad_lines || st->overlong || st->n_drift || st->n_unknown)
		fprintf(stderr, PROG ": %s: %llu malformed lines, %llu lines over %d bytes, %u events with unexpected "
			"fields, %u unknown event names (counted in --stats)\n", st->src,
			(unsigned long long)st->bad_lines, (unsigned long long)st->overlong, TR_LINE_MAX, st->n_drift,
			st->n_unknown);
	if (check && tr_findings(st))
		rc = 1;
	fflush(stdout);
	free(st);
	return rc;
}
