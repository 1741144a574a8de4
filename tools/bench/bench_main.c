/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench_main.c - rpcrdma-bench's command line (man/rpcrdma-bench.1):
 * perftest's option names where they mean the same (-s -a -n -D -t -p -e
 * --report_gbits --out_json_file), -P/-V for the RPC program, then the run
 * (bench_run.c) and the outputs (tables as measured, the counters, JSON,
 * the plot).  Usage errors print "rpcrdma-bench: ..." and a hint, exit 2.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <rpcrdma/rpc.h>
#include "bench.h"
#include "cliopt.h"
#include "echo_ulb.h"
#include "live.h"
#include "numarg.h"
#include "rpc_names.h"
#include "xprt.h"

#ifndef RPCRDMA_TOOLS_VERSION
#define RPCRDMA_TOOLS_VERSION "0.1.0"
#endif

enum { EXIT_RUN = 1, EXIT_USAGE = CLI_EXIT_USAGE, EXIT_INTERRUPTED = 130 };

static void usage(FILE *f)
{
	fputs("Usage: " BENCH_PROG " [options] HOST\n"
	      "Round trips and throughput of RPC calls over RPC-over-RDMA, in perftest's\n"
	      "tables: ECHO against rpcrdma-echo -s, NULL against any RPC server.\n"
	      "\n"
	      "Test:\n"
	      "  -s, --size BYTES           ECHO data per call, 0 to 1048576 (default 2)\n"
	      "  -a, --all                  every size from 2^0 to 2^20 (perftest goes to\n"
	      "                             2^23; the ECHO ULB carries up to 2^20)\n"
	      "  -n, --iters N              calls per size and test (default 1000)\n"
	      "  -D, --duration SEC         each size for SEC seconds instead of -n calls\n"
	      "  -t, --tx-depth N           calls outstanding in the throughput test, 1 to\n"
	      "                             1024 (default: every credit the server grants)\n"
	      "      --lat                  the latency test only (one call at a time)\n"
	      "      --bw                   the throughput test only\n"
	      "      --chunk MODE           auto, inline, read, pos0, write or reply\n"
	      "                             (default auto)\n"
	      "  -P, --program PROG         RPC program: echo (default), or a number or\n"
	      "                             name (nfs, mount, nlm, ...) for NULL calls\n"
	      "  -V, --program-version VERS program version (default 1; 3 for nfs)\n"
	      "      --null                 NULL calls to the ECHO program too\n"
	      "\n"
	      "Connection:\n"
	      "  -p, --port PORT            the server's port (default 20049)\n"
	      "      --versions 1|2|1,2     RPC-over-RDMA versions to offer (default 1,2)\n"
	      "      --credits N            credits to ask for, 1 to 1024 (default 32)\n"
	      "      --inline-threshold BYTES\n"
	      "                             our inline send and receive sizes, 1024 to\n"
	      "                             262144 (default: the version's)\n"
	      "  -e, --use_event            sleep on completion events (default: busy\n"
	      "                             polling, as perftest)\n"
	      "      --connect-timeout SECONDS\n"
	      "                             how long connecting may take (fractions allowed,\n"
	      "                             default 30)\n"
	      "      --timeout MS           each call, in milliseconds, 1 to 3600000\n"
	      "                             (default 30000)\n"
	      "\n"
	      "Output:\n"
	      "      --report_gbits         bandwidth in Gb/sec (default MB/sec, 2^20 bytes)\n"
	      "      --json                 one JSON object instead of the tables\n"
	      "      --out_json_file FILE   the JSON object into FILE too\n"
	      "      --plot FILE            latency and bandwidth against size: FILE.svg or\n"
	      "                             FILE.png (gnuplot), FILE.gp (the script)\n"
	      "\n"
	      "  -h, --help                 this text\n"
	      "      --version              the version\n"
	      "\n"
	      "Exit status: 0 measured, 1 the run failed, 2 usage error, 3 no RDMA device,\n"
	      "130 interrupted.\n"
	      "See rpcrdma-bench(1).\n", f);
}

#define usage_error(...) cli_usage_error(BENCH_PROG, __VA_ARGS__)

/* the options that take a number: its name in messages and its range */
static const struct {
	int opt;
	const char *name;
	uint64_t min, max;
} num_opts[] = {
	{ 's', "-s", 0, ECHO_DATA_MAX }, { 'n', "-n", 1, 100000000 }, { 'D', "-D", 1, 86400 },
	{ 't', "-t", 1, 1024 }, { 'V', "-V", 0, UINT32_MAX }, { CLI_L_TIMEOUT, "--timeout", 1, 3600000 },
};

/* option c's number into *v when c takes one: 0, or the usage error's
 * exit status */
static int num_opt(int c, const char *arg, uint64_t *v)
{
	for (size_t i = 0; i < sizeof(num_opts) / sizeof(num_opts[0]); i++)
		if (num_opts[i].opt == c)
			return cli_number(BENCH_PROG, num_opts[i].name, arg, num_opts[i].min,
					  num_opts[i].max, v);
	return 0;
}

struct cli {
	struct bench_opts o;
	struct xprt_opts x;            /* the common options */
	bool size_given, all, iters_given, json;
	bool prog_given, vers_given;
	const char *json_file, *plot;
};

static int parse_one(int c, const char *arg, void *ctx)
{
	struct cli *cl = ctx;
	struct bench_opts *o = &cl->o;
	enum xprt_chunk_mode m;
	uint64_t v = 0;

	if (num_opt(c, arg, &v))
		return EXIT_USAGE;
	switch (c) {
	case 's':
		o->sizes[0] = (uint32_t)v;
		cl->size_given = true;
		return 0;
	case 'a': cl->all = true; return 0;
	case 'n':
		o->iters = v;
		cl->iters_given = true;
		return 0;
	case 'D':
		o->duration = (double)v;
		return 0;
	case 't':
		o->depth = (unsigned)v;
		return 0;
	case CLI_L_LAT: o->lat = true; return 0;
	case CLI_L_BW: o->bw = true; return 0;
	case CLI_L_CHUNK:
		if (!live_chunk_by_name(arg, &m))
			return usage_error("--chunk: '%s' is not " LIVE_CHUNK_NAMES, arg);
		o->chunk = (int)m;
		o->chunk_name = live_chunk_name(m);
		return 0;
	case 'P':
		cl->prog_given = true;
		if (rpc_prog_by_name(arg, &o->prog))
			return 0;
		if (!parse_u64(arg, UINT32_MAX, &v))
			return usage_error("-P: '%s' is neither a program number nor one of "
					   "echo, nfs, nfs-cb, mount, nlm, portmap", arg);
		o->prog = (uint32_t)v;
		return 0;
	case 'V':
		o->vers = (uint32_t)v;
		cl->vers_given = true;
		return 0;
	case CLI_L_NULL: o->null_proc = true; return 0;
	case CLI_L_TIMEOUT:
		o->timeout_ms = (int)v;
		return 0;
	case CLI_L_REPORT_GBITS: o->gbits = true; return 0;
	case CLI_L_JSON: cl->json = true; return 0;
	case CLI_L_OUT_JSON_FILE: cl->json_file = arg; return 0;
	case CLI_L_PLOT:
		if (bench_plot_kind(arg) < 0)
			return usage_error("--plot: '%s' does not end in .svg, .png or .gp", arg);
		cl->plot = arg;
		return 0;
	default:
		return usage_error("internal: unhandled option %d", c);
	}
}

/* the checks between options, and the defaults that depend on others */
static int finish_opts(struct cli *cl)
{
	struct bench_opts *o = &cl->o;
	uint32_t i;

	o->port = cl->x.port;             /* the common options */
	o->versions = cl->x.versions;
	o->credits = cl->x.credits;
	o->inline_size = cl->x.inline_send;
	o->busy_poll = cl->x.busy_poll;
	o->connect_timeout_ms = cl->x.timeout_ms;
	if (cl->prog_given && o->prog != ECHO_PROG)
		o->null_proc = true;
	if (!cl->vers_given)
		o->vers = o->prog == RPC_PROG_NFS ? 3 : ECHO_VERS;
	if (o->null_proc && (cl->size_given || cl->all))
		return usage_error("%s: NULL calls carry no data (only the ECHO program "
				   "takes -s and -a)", cl->all ? "-a" : "-s");
	if (cl->all && cl->size_given)
		return usage_error("-s and -a cannot be used together");
	if (o->duration > 0 && cl->iters_given)
		return usage_error("-n and -D cannot be used together");
	if (o->null_proc) {
		o->sizes[0] = 0;
		o->nsizes = 1;
	} else if (cl->all) {
		/* perftest's 2^0 .. 2^23, as far as the ECHO ULB's opaque
		 * data<ECHO_DATA_MAX> goes */
		for (i = 0; i < BENCH_MAX_SIZES && (1u << i) <= ECHO_DATA_MAX; i++)
			o->sizes[i] = 1u << i;
		o->nsizes = i;
	} else {
		o->nsizes = 1;
	}
	if (!o->lat && !o->bw)
		o->lat = o->bw = true;
	if (cl->plot && o->null_proc)
		return usage_error("--plot draws against message size: NULL calls have none");
	if (cl->json_file && cl->plot && strcmp(cl->json_file, cl->plot) == 0)
		return usage_error("--out_json_file and --plot name the same file");
	return 0;
}

static int write_json_file(const struct bench_result *res, const char *file)
{
	FILE *f = fopen(file, "w");

	if (!f) {
		fprintf(stderr, BENCH_PROG ": --out_json_file %s: %s\n", file, strerror(errno));
		return -1;
	}
	bench_write_json(f, res);
	if (ferror(f) | (fclose(f) != 0)) {
		fprintf(stderr, BENCH_PROG ": --out_json_file %s: write failed\n", file);
		return -1;
	}
	return 0;
}

int main(int argc, char *argv[])
{
	static struct bench_result res;
	struct cli cl = {
		.o = {
			.iters = 1000, .sizes = { 2 },
			.chunk = XPRT_CHUNK_AUTO, .chunk_name = "auto",
			.prog = ECHO_PROG, .timeout_ms = 30000,
		},
		.x = { .port = XPRT_DEFAULT_PORT, .busy_poll = true,
		       .timeout_ms = LIVE_CONNECT_TIMEOUT_MS },
	};
	/* the options: the transport's from the common table
	 * (tools/common/live.h), the tool's own by name (cliopt.h) */
	struct live_cli lc = { .prog = BENCH_PROG, .x = &cl.x,
		.takes = LIVE_O_PORT | LIVE_O_VERSIONS | LIVE_O_CREDITS |
			 LIVE_O_INLINE | LIVE_O_USE_EVENT | LIVE_O_CONNECT_TIMEOUT };
	const struct live_parse lp = {
		.own_names = "size=s all=a iters=n duration=D tx-depth=t lat bw "
			     "chunk program=P program-version=V null timeout "
			     "report_gbits json out_json_file plot",
		.own = parse_one, .ctx = &cl, .usage = usage,
	};
	struct bench_opts *o = &cl.o;
	int rc = live_getopt(&lc, &lp, argc, argv);

	if (rc >= 0)
		return rc;
	if (optind >= argc)
		return usage_error("no HOST given (the server: rpcrdma-echo -s, or any RPC "
				   "server for NULL calls)");
	if (optind + 1 < argc)
		return usage_error("unexpected argument '%s'", argv[optind + 1]);
	o->host = argv[optind];
	rc = finish_opts(&cl);
	if (rc)
		return rc;
	o->out = cl.json ? NULL : stdout;
	o->progress = isatty(STDERR_FILENO) != 0;
	res.info.prog = o->prog;
	res.info.prog_vers = o->vers;
	res.info.proc = o->null_proc ? "NULL" : "ECHO";
	res.info.chunk = o->chunk_name;
	res.info.busy_poll = o->busy_poll;
	res.info.gbits = o->gbits;
	res.info.both_ways = !o->null_proc;
	snprintf(res.info.server, sizeof(res.info.server), "%s:%s", o->host, o->port);

	rc = bench_run(o, &res);
	rc = rc == CLI_EXIT_NODEV ? CLI_EXIT_NODEV : rc ? EXIT_RUN : 0;
	if (res.nrows) {
		if (o->out) {
			if (o->lat || res.rows[0].has_where)
				bench_print_where(stdout, &res);
			bench_print_counts(stdout, &res);
		}
		if (cl.json)
			bench_write_json(stdout, &res);
		if (cl.json_file && write_json_file(&res, cl.json_file) != 0)
			rc = EXIT_RUN;
		if (cl.plot && bench_plot(&res, cl.plot) != 0)
			rc = EXIT_RUN;
	}
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, BENCH_PROG ": writing output: %s\n", strerror(errno));
		rc = EXIT_RUN;
	}
	if (rc == 0 && res.interrupted)
		rc = EXIT_INTERRUPTED;
	return rc;
}
