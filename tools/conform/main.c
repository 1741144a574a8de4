/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * main.c - rpcrdma-conform's command line (man/rpcrdma-conform.1): options,
 * the safety rule (--yes outside the test bed's addresses, safety.c), the
 * notice before any traffic, the run case by case, the exit status:
 * 0 no failure, 1 a MUST failure (or a SHOULD one with --strict), 2 a usage
 * error, 3 the run could not start (no device, no connection, no answer).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cliopt.h"
#include "json.h"
#include "live.h"
#include "req.h"
#include "run.h"
#include "safety.h"

#ifndef RPCRDMA_TOOLS_VERSION
#define RPCRDMA_TOOLS_VERSION "0.1.0"
#endif

#define TIMEOUT_DEFAULT 5000
#define SETTLE_MS 150
#define MAX_CASES 512

static void usage(FILE *f)
{
	fputs("Usage: " CF_PROG " [options] HOST\n"
	      "       " CF_PROG " --list [--only SPEC] [--skip SPEC] [--json]\n"
	      "       " CF_PROG " --requester [--serve | --faults] [-a ADDR] [-p PORT] [--mount-port PORT]\n"
	      "                       [--json | --json-file FILE]\n"
	      "Check an RPC-over-RDMA responder against every rule the drafts state for a\n"
	      "receiver (Version One, Version Two, bi-directional): malformed and unusual\n"
	      "messages over real connections, each reaction graded PASS, FAIL or ALLOWED.\n"
	      "\n"
	      "Target:\n"
	      "  -a, --address HOST         the responder (or give HOST as the argument)\n"
	      "  -p, --port PORT            its port (default 20049)\n"
	      "      --program auto|echo|nfs\n"
	      "                             what the suite's own calls speak: the ECHO\n"
	      "                             program, NFSv3, or auto (default: ECHO, else NFSv3)\n"
	      "      --file PATH            NFS: a file on the server (at least 4.6 KiB) whose\n"
	      "                             READ drives the write- and reply-chunk cases,\n"
	      "                             looked up with NFSv4 (PUTROOTFH, LOOKUP, GETFH)\n"
	      "      --fh HEX               NFS: that file's NFSv3 file handle instead\n"
	      "      --yes                  run against a host outside the test bed's\n"
	      "                             addresses (198.18.0.0/15, 2001:2::/48, loopback)\n"
	      "\n"
	      "Requester side (our own responder, for NFS/RDMA clients to connect to):\n"
	      "      --requester            listen instead of connecting: a read-only NFSv3\n"
	      "                             export \"/\" over RPC-over-RDMA on the port of -p,\n"
	      "                             bound to the address of -a (default: every one)\n"
	      "      --serve                only serve, without faults, until SIGINT/SIGTERM;\n"
	      "                             without it, the requester cases run one after\n"
	      "                             the other, each watching for --timeout MS\n"
	      "      --faults               the fault cases instead: each a fault of the\n"
	      "                             responder's side (a changed grant, RDMA_ERROR, a\n"
	      "                             reply for no call, a short READ), graded on what\n"
	      "                             the requester sends next\n"
	      "      --mount-port PORT      MOUNT v3 over TCP on this port (default 20048)\n"
	      "\n"
	      "Cases:\n"
	      "      --only SPEC[,SPEC]     run only these: a case name (glob), a draft (V1,\n"
	      "                             V2, BIDI) or a section (\"V1 §5.5\", V1:5.5.2, 5.5.2);\n"
	      "                             repeatable\n"
	      "      --skip SPEC[,SPEC]     leave these out; repeatable\n"
	      "  -t, --timeout MS           per case, 100 to 600000 (default 5000)\n"
	      "      --connect-timeout SECONDS\n"
	      "                             how long a connection may take to be made\n"
	      "                             (fractions allowed, default 30)\n"
	      "  -l, --list                 print the cases and exit (no traffic)\n"
	      "\n"
	      "Output:\n"
	      "      --json                 JSON Lines: the run, one object per case with every\n"
	      "                             message sent and received, the summary\n"
	      "                             (--requester: the run, one object per case, the\n"
	      "                             summary)\n"
	      "      --json-file FILE       the same JSON Lines into FILE, the text on stdout\n"
	      "  -v, --verbose              expected, observed and the bytes of every case\n"
	      "  -q, --quiet                only failures and the totals\n"
	      "      --strict               SHOULD failures make the exit status 1 too\n"
	      "  -d, --debug                the transport's connection events on stderr\n"
	      "  -h, --help                 this text\n"
	      "      --version              the version\n"
	      "\n"
	      "Exit status: 0 no failure, 1 a MUST failure (or SHOULD with --strict),\n"
	      "2 usage error, 3 the run could not start.\n", f);
}

static int usage_error(const char *what, const char *why)
{
	if (!what) {
		what = why;
		why = NULL;
	}
	fprintf(stderr, CF_PROG ": %s%s%s\nTry '" CF_PROG " --help' for more information.\n",
		what, why ? ": " : "", why ? why : "");
	return 2;
}

static int opt_error(const char *opt, const char *arg, const char *why)
{
	char what[160];

	snprintf(what, sizeof(what), "%s %s", opt, arg);
	return usage_error(what, why);
}

static int parse_int(const char *s, long lo, long hi, long *out)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (!*s || *end || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

/* the common options' bad values, in this tool's words */
static int bad_value(const char *name, const char *arg, const char *why)
{
	char opt[40];

	snprintf(opt, sizeof(opt), "--%s", name);
	if (!strcmp(name, "port"))
		why = "not a port number (1 to 65535)";
	return opt_error(opt, arg, why);
}

/* --fh HEX: the handle's bytes into o; -1 when it is no even-length hex
 * string of 1 to 64 bytes */
static int parse_fh(const char *arg, struct cf_opts *o)
{
	size_t len = strlen(arg), k;

	if (!len || len % 2 || len / 2 > sizeof(o->nfs_fh) ||
	    strspn(arg, "0123456789abcdefABCDEF") != len)
		return -1;
	for (k = 0; k < len / 2; k++) {
		unsigned hx;

		sscanf(arg + 2 * k, "%2x", &hx);
		o->nfs_fh[k] = (uint8_t)hx;
	}
	o->nfs_fhlen = len / 2;
	return 0;
}

struct cli {
	struct cf_opts o;
	struct xprt_opts x;            /* the common options */
	struct cf_select sel;
	bool json, verbose, quiet, strict, yes, list;
	const char *json_file;
	bool requester, serve, faults;
	const char *mount_port;
};

/* the options that do not go together: 2, or -1 when they do */
static int check_together(const struct cli *c)
{
	if (c->faults && (!c->requester || c->serve))
		return usage_error(NULL, c->serve ? "--faults and --serve cannot be used together"
				   : "--faults needs --requester");
	if ((c->serve || c->mount_port) && !c->requester)
		return usage_error(NULL, c->serve ? "--serve needs --requester"
				   : "--mount-port needs --requester");
	if (c->requester && c->list)
		return usage_error(NULL, "--requester and --list cannot be used together");
	if (c->json && c->json_file)
		return usage_error(NULL, "--json and --json-file cannot be used together");
	if (c->serve && (c->json || c->json_file))
		return usage_error(NULL, "--serve prints what was served, no report: "
				   "--json and --json-file go with the requester cases");
	if (c->requester)
		return -1;
	if (c->verbose && c->quiet)
		return usage_error(NULL, "-v and -q cannot be used together");
	if (!c->list && !c->o.host)
		return usage_error(NULL, "give the responder's HOST (or --list)");
	return -1;
}

static int parse(int argc, char **argv, struct cli *c)
{
	/* the options: the transport's from the common table
	 * (tools/common/live.h), the tool's own by name (cliopt.h) */
	struct live_cli lc = { .prog = CF_PROG, .x = &c->x, .bad_value = bad_value,
		.takes = LIVE_O_PORT | LIVE_O_DEBUG | LIVE_O_CONNECT_TIMEOUT };
	static const char own_names[] =
		"address=a program fh file only skip timeout=t json json-file verbose=v "
		"quiet=q strict yes list=l help=h version requester serve mount-port faults";
	struct option own[24], longs[40];
	char shorts[40];
	long v;
	int ch, rc;

	memset(c, 0, sizeof(*c));
	c->x.timeout_ms = LIVE_CONNECT_TIMEOUT_MS;
	c->o.timeout_ms = TIMEOUT_DEFAULT;
	c->o.settle_ms = SETTLE_MS;
	c->o.sel = &c->sel;
	if (cli_longs(own_names, own, 24) < 0 ||
	    live_opt_tables(&lc, own, "a:t:vqlh", longs, 40, shorts, sizeof(shorts)) < 0)
		return usage_error(NULL, "internal: the option tables do not fit");
	opterr = 0;
	while ((ch = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
		if ((rc = live_opt_take(&lc, ch, optarg)) >= 0) {
			if (rc)
				return rc;
			continue;
		}
		switch (ch) {
		case 'a':
			if (c->o.host)
				return usage_error(optarg, "the host given twice");
			c->o.host = optarg;
			break;
		case CLI_L_PROGRAM:
			if (!strcmp(optarg, "auto"))
				c->o.profile = CF_PROF_AUTO;
			else if (!strcmp(optarg, "echo"))
				c->o.profile = CF_PROF_ECHO;
			else if (!strcmp(optarg, "nfs"))
				c->o.profile = CF_PROF_NFS3;
			else
				return opt_error("--program", optarg, "give auto, echo or nfs");
			break;
		case CLI_L_FILE:
			if (!*optarg || strlen(optarg) > 1000)
				return opt_error("--file", optarg, "give the file's path on the server");
			c->o.nfs_file = optarg;
			break;
		case CLI_L_FH:
			if (parse_fh(optarg, &c->o) < 0)
				return opt_error("--fh", optarg, "give the file handle in hex, "
						 "1 to 64 bytes");
			break;
		case CLI_L_ONLY:
		case CLI_L_SKIP: {
			bool only = ch == CLI_L_ONLY;

			if (cf_select_add(only ? c->sel.only : c->sel.skip,
					  only ? &c->sel.nonly : &c->sel.nskip, optarg) < 0)
				return usage_error(optarg, "too many --only/--skip specs (64 each)");
			break;
		}
		case 't':
			if (parse_int(optarg, 100, 600000, &v) < 0)
				return opt_error("--timeout", optarg, "give milliseconds, 100 to 600000");
			c->o.timeout_ms = (int)v;
			break;
		case CLI_L_REQUESTER: c->requester = true; break;
		case CLI_L_SERVE: c->serve = true; break;
		case CLI_L_FAULTS: c->faults = true; break;
		case CLI_L_MOUNT_PORT:
			if (parse_int(optarg, 1, 65535, &v) < 0)
				return opt_error("--mount-port", optarg, "not a port number (1 to 65535)");
			c->mount_port = optarg;
			break;
		case CLI_L_JSON: c->json = true; break;
		case CLI_L_JSON_FILE: c->json_file = optarg; break;
		case 'v': c->verbose = true; break;
		case 'q': c->quiet = true; break;
		case CLI_L_STRICT: c->strict = true; break;
		case CLI_L_YES: c->yes = true; break;
		case 'l': c->list = true; break;
		case 'h':
			usage(stdout);
			exit(0);
		case CLI_L_VERSION:
			printf(CF_PROG " (rpcrdma-tools) %s\n", RPCRDMA_TOOLS_VERSION);
			exit(0);
		case ':':
			return usage_error(argv[optind - 1], "needs an argument");
		default:
			return usage_error(argv[optind - 1], "unknown option");
		}
	}
	c->o.port = c->x.port;
	c->o.debug = c->x.debug;
	c->o.connect_timeout_ms = c->x.timeout_ms;
	if (optind < argc) {
		if (c->o.host)
			return usage_error(argv[optind], "the host given twice");
		c->o.host = argv[optind++];
	}
	if (optind < argc)
		return usage_error(argv[optind], "one host only");
	return check_together(c);
}

int main(int argc, char **argv)
{
	static struct cf_case cases[MAX_CASES];
	static struct obuf outb, joutb;
	struct obuf *out = &outb;
	FILE *jf = NULL;
	struct cli c;
	struct cf_run run;
	struct cf_report rep;
	struct xprt_error err;
	char why[256], target[300], peer[400];
	size_t n, i, nsel = 0;
	int rc = parse(argc, argv, &c);

	if (rc >= 0)
		return rc;
	if (c.requester) {
		struct cf_req_opts ro = { .host = c.o.host, .port = c.o.port,
			.mount_port = c.mount_port, .serve = c.serve, .debug = c.o.debug,
			.connect_timeout_ms = c.o.connect_timeout_ms, .window_ms = c.o.timeout_ms,
			.json = c.json ? stdout : NULL, .json_only = c.json, .faults = c.faults };

		if (c.json_file && !(ro.json = jf = fopen(c.json_file, "w"))) {
			fprintf(stderr, CF_PROG ": %s: %s\n", c.json_file, strerror(errno));
			return 3;
		}
		rc = cf_req_main(&ro, stdout);
		if (jf && fclose(jf) != 0) {
			fprintf(stderr, CF_PROG ": %s: %s\n", c.json_file, strerror(errno));
			return 3;
		}
		return rc;
	}
	ob_init(out, stdout);
	if (c.list) {
		cf_report_list(out, c.json, &c.sel);
		return 0;
	}
	n = cf_cases_build(cases, MAX_CASES);
	for (i = 0; i < n; i++)
		nsel += cf_selected(&c.sel, &cases[i]);
	if (!nsel)
		return usage_error(NULL, "no case matches --only/--skip (see --list)");
	rc = cf_host_is_testbed(c.o.host, why, sizeof(why));
	if (rc < 0) {
		fprintf(stderr, CF_PROG ": %s\n", why);
		return 3;
	}
	if (!rc && !c.yes)
		return usage_error(why, "a run there needs --yes (docs/conformance.md, \"Safety\")");
	snprintf(target, sizeof(target), "%s port %s", c.o.host, c.o.port ? c.o.port : "20049");
	fprintf(stderr, CF_PROG ": sending %zu cases of malformed and unusual RPC-over-RDMA "
		"messages to %s, one at a time (the credit case: the grant + 2); the responder "
		"may log errors and drop connections\n", nsel, target);
	if (c.json_file && !(jf = fopen(c.json_file, "w"))) {
		fprintf(stderr, CF_PROG ": %s: %s\n", c.json_file, strerror(errno));
		return 3;
	}
	c.o.xid_base = (uint32_t)time(NULL) * 2654435761u ^ (uint32_t)getpid() << 20;
	c.o.xid_base &= 0xfff00000u;
	if (cf_run_begin(&run, &c.o, &err) < 0) {
		fprintf(stderr, CF_PROG ": %s\n", err.msg);
		cf_run_end(&run);
		if (jf)
			fclose(jf);
		return 3;
	}
	cf_report_init(&rep, out, c.json, c.verbose, c.quiet);
	if (run.setup_retried) {      /* counted in the summary with the cases' */
		rep.t.retried += run.setup_retried;
		fprintf(stderr, CF_PROG ": %s: connected again, once\n", run.setup_retry_why);
	}
	if (jf) {
		ob_init(&joutb, jf);
		rep.jout = &joutb;
	}
	cf_run_describe(&run, peer, sizeof(peer));
	cf_report_header(&rep, target, cf_profile_name(run.t.prof), peer);
	for (i = 0; i < n; i++) {
		struct cf_msgrec msgs[CF_REC_MAX];
		struct cf_obs o;
		struct cf_grade g;
		unsigned nm, more;
		int64_t t0;

		if (!cf_selected(&c.sel, &cases[i]))
			continue;
		t0 = cf_now_ms();
		cf_run_case(&run, &cases[i], &o);
		cf_grade(&cases[i], &o, &g);
		nm = cf_run_messages(&run, msgs, CF_REC_MAX, &more);
		cf_report_case(&rep, &cases[i], &o, &g, msgs, nm, more, (uint64_t)(cf_now_ms() - t0));
	}
	cf_report_end(&rep);
	cf_run_end(&run);
	if (jf && fclose(jf)) {
		fprintf(stderr, CF_PROG ": %s: %s\n", c.json_file, strerror(errno));
		return 3;
	}
	return cf_report_status(&rep, c.strict);
}
