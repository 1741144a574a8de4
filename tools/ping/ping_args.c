/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ping_args.c - rpcrdma-ping's command line (man/rpcrdma-ping.1 SYNOPSIS and
 * OPTIONS): ping(8)'s letters where they mean the same (-c -i -W -q), rping's
 * -p for the port, -P/-V for the RPC program and version as rpcinfo names
 * them.  Usage errors print "rpcrdma-ping: ..." and a hint; exit status 2.
 */
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "cliopt.h"
#include "live.h"
#include "numarg.h"
#include "ping.h"
#include "rpc_names.h"
#include "rpcrdma/rpc.h"

#ifndef RPCRDMA_TOOLS_VERSION
#define RPCRDMA_TOOLS_VERSION "0.1.0"
#endif

#define US_PER_S 1000000u
#define MAX_SECONDS 3600u              /* -i and -W: an hour at most */

static void usage(FILE *f)
{
	fputs("Usage: " PING_PROG " [options] HOST\n"
	      "Send RPC NULL calls over RPC-over-RDMA (port 20049, NFS version 3 by\n"
	      "default), print one line per reply and a summary, like ping(8); say\n"
	      "what the peer speaks: its private data, versions and credits.\n"
	      "\n"
	      "What to call:\n"
	      "  -P, --program PROG         RPC program: a number or nfs, nfs-cb, mount,\n"
	      "                             nlm, portmap, echo (default nfs)\n"
	      "  -V, --rpc-version VERS     program version (default: 3 for nfs, 1 for\n"
	      "                             echo and nfs-cb, 3 for mount, 4 for nlm, 2\n"
	      "                             for portmap)\n"
	      "  -p, --port PORT            port (default 20049)\n"
	      "\n"
	      "Pinging:\n"
	      "  -c, --count N              stop after N calls (default: until\n"
	      "                             interrupted)\n"
	      "  -i, --interval SECONDS     between calls (default 1; 0 sends the next\n"
	      "                             call when the reply came)\n"
	      "  -W, --timeout SECONDS      wait this long for each reply (default 5)\n"
	      "      --connect-timeout SECONDS\n"
	      "                             wait this long for a connection (default 30)\n"
	      "  -q, --quiet                only the lines at the start and the summary\n"
	      "      --json                 one JSON object per line: start, peer,\n"
	      "                             reply, error, summary\n"
	      "\n"
	      "Probing (instead of pinging):\n"
	      "      --probe                the full report: private data, versions,\n"
	      "                             credits, error replies, backward direction\n"
	      "      --probe-inline         the largest inline message the peer\n"
	      "                             receives (breaks connections on purpose)\n"
	      "\n"
	      "      --debug                trace connection events on stderr\n"
	      "  -h, --help                 this text\n"
	      "      --version              the version\n"
	      "\n"
	      "Exit status: 0 replies came, 1 no reply came or the connection was lost\n"
	      "for good, 2 usage or local setup error, 3 no RDMA device.  See\n"
	      "rpcrdma-ping(1).\n", f);
}

#define usage_error(...) cli_usage_error(PING_PROG, __VA_ARGS__)

bool ping_parse_program(const char *s, uint32_t *prog)
{
	uint64_t v;

	if (rpc_prog_by_name(s, prog))
		return true;
	if (!parse_u64(s, UINT32_MAX, &v))
		return false;
	*prog = (uint32_t)v;
	return true;
}

bool ping_parse_seconds(const char *s, uint64_t max_us, uint64_t *us)
{
	uint64_t v = 0, frac = 0, scale = US_PER_S;
	const char *p = s;
	bool digits = false;

	for (; *p >= '0' && *p <= '9'; p++) {
		v = v * 10 + (uint64_t)(*p - '0');
		if (v > max_us / US_PER_S + 1)
			return false;
		digits = true;
	}
	if (*p == '.') {
		for (p++; *p >= '0' && *p <= '9'; p++) {
			if (scale == 1)
				return false;  /* below a microsecond */
			scale /= 10;
			frac += (uint64_t)(*p - '0') * scale;
			digits = true;
		}
	}
	if (*p || !digits)
		return false;
	v = v * US_PER_S + frac;
	if (v > max_us)
		return false;
	*us = v;
	return true;
}

uint32_t ping_default_version(uint32_t prog)
{
	switch (prog) {
	case RPC_PROG_NFS: return 3;
	case RPC_PROG_MOUNT: return 3;
	case RPC_PROG_NLM: return 4;
	case RPC_PROG_PORTMAP: return 2;
	case RPC_PROG_NFS_CB: return 1;
	case RPC_PROG_RPCRDMA_ECHO: return 1;
	case RPC_PROG_NFS_ACL: return 3;
	default: return 0;
	}
}

static int seconds_opt(const char *name, const char *arg,
		       uint64_t min_us, uint64_t *out)
{
	if (!ping_parse_seconds(arg, (uint64_t)MAX_SECONDS * US_PER_S, out) ||
	    *out < min_us)
		return usage_error("%s: '%s' is not a number of seconds from %s "
				   "to %u (at most six decimals)", name, arg,
				   min_us ? "0.000001" : "0", MAX_SECONDS);
	return 0;
}

static int parse_one(int c, const char *arg, void *ctx)
{
	struct ping_opts *o = ctx;
	uint64_t v;
	int rc;

	switch (c) {
	case 'P':
		if (!ping_parse_program(arg, &o->prog))
			return usage_error("-P: '%s' is neither a number from 0 to "
					   "4294967295 nor one of nfs, nfs-cb, mount, "
					   "nlm, portmap, echo", arg);
		return 0;
	case 'V':
		if ((rc = cli_number(PING_PROG, "-V", arg, 0, UINT32_MAX, &v)))
			return rc;
		o->vers = (uint32_t)v;
		o->have_vers = true;
		return 0;
	case 'c':
		return cli_number(PING_PROG, "-c", arg, 1, UINT32_MAX, &o->count);
	case 'i':
		return seconds_opt("-i", arg, 0, &o->interval_us);
	case 'W':
		return seconds_opt("-W", arg, 1000, &o->timeout_us);
	case 'q': o->quiet = true; return 0;
	case CLI_L_JSON: o->json = true; return 0;
	case CLI_L_PROBE: o->probe = true; return 0;
	case CLI_L_PROBE_INLINE: o->probe_inline = true; return 0;
	default:
		return usage_error("internal: unhandled option %d", c);
	}
}

int ping_parse_args(int argc, char *argv[], struct ping_opts *o, FILE *out)
{
	struct xprt_opts x = { .port = XPRT_DEFAULT_PORT,
			       .timeout_ms = LIVE_CONNECT_TIMEOUT_MS };
	/* the options: the transport's from the common table
	 * (tools/common/live.h), the tool's own by name (cliopt.h) */
	struct live_cli lc = { .prog = PING_PROG, .x = &x,
		.takes = LIVE_O_PORT | LIVE_O_DEBUG_LONG | LIVE_O_CONNECT_TIMEOUT };
	const struct live_parse lp = {
		.own_names = "program=P rpc-version=V count=c interval=i "
			     "timeout=W quiet=q json probe probe-inline",
		.own_short = "P:V:c:i:W:q",
		.own = parse_one, .ctx = o, .usage = usage, .out = out,
		.version = RPCRDMA_TOOLS_VERSION,
	};
	int rc;

	memset(o, 0, sizeof(*o));
	o->prog = RPC_PROG_NFS;
	o->interval_us = US_PER_S;
	o->timeout_us = 5 * US_PER_S;
	rc = live_getopt(&lc, &lp, argc, argv);
	o->port = x.port;
	o->debug = x.debug;
	o->connect_timeout_ms = x.timeout_ms;
	if (rc >= 0)
		return rc;
	if (optind >= argc)
		return usage_error("no HOST given");
	if (optind + 1 < argc)
		return usage_error("unexpected argument '%s'", argv[optind + 1]);
	o->host = argv[optind];
	if (!*o->host)
		return usage_error("HOST is empty");
	if (!o->have_vers) {
		o->vers = ping_default_version(o->prog);
		if (!o->vers)
			return usage_error("program %u has no default version: "
					   "give -V", o->prog);
	}
	return -1;
}
