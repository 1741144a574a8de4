/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * main.c - rpcrdma-echo's command line (man/rpcrdma-echo.1, SYNOPSIS and
 * OPTIONS): rping's letters where they mean the same (-s -a -p -C -S -v -V
 * -d), -c as the count; every option checked into struct echo_opts, then
 * the client (client.c) or the server (server.c).  Usage errors print
 * "rpcrdma-echo: ..." and a hint, and exit 2.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include "cliopt.h"
#include "live.h"
#include "numarg.h"
#include "echo.h"
#include "rpc_names.h"

#ifndef RPCRDMA_TOOLS_VERSION
#define RPCRDMA_TOOLS_VERSION "0.1.0"
#endif

#define DEFAULT_SIZE 64u
#define DEFAULT_TIMEOUT_MS 10000

static void usage(FILE *f)
{
	fputs("Usage: " PROG " [options] HOST          (client)\n"
	      "       " PROG " -s [options]            (server)\n"
	      "Client and server of the ECHO program over RPC-over-RDMA (Versions One\n"
	      "and Two, bi-directional): every byte sent comes back and is checked.\n"
	      "\n"
	      "Connection:\n"
	      "  -s, --server               serve (default: be the client of HOST)\n"
	      "  -a, --addr ADDR            client: the server (instead of HOST);\n"
	      "                             server: the address to bind (default: all)\n"
	      "  -p, --port PORT            port (default 20049)\n"
	      "  -4, -6                     IPv4 or IPv6 only\n"
	      "      --versions 1|2|1,2     RPC-over-RDMA versions spoken (default 1,2;\n"
	      "                             a client with 2 starts with it)\n"
	      "      --credits N            server: credits granted; client: credits\n"
	      "                             requested and backward credits granted\n"
	      "                             (1 to 1024, default 32)\n"
	      "      --inline-threshold BYTES\n"
	      "                             inline send and receive size announced\n"
	      "                             (1024 to 262144, default: the version's)\n"
	      "      --no-private-data      send no RFC 8797 connection private data\n"
	      "      --remote-invalidate    announce that Send With Invalidate is accepted\n"
	      "      --connect-timeout SECONDS\n"
	      "                             client: how long connecting may take (fractions\n"
	      "                             allowed, default 30)\n"
	      "      --timeout MS           per-call timeout (default 10000)\n"
	      "      --poll                 busy-poll the completion queues\n"
	      "\n"
	      "Client:\n"
	      "  -c, -C, --count N          rounds of calls, one ECHO per size and\n"
	      "                             chunk mode each\n"
	      "                             (default 1; 0: until interrupted)\n"
	      "  -S, --size SIZE[,SIZE]...  ECHO data sizes, 0 to 1048576; k and m\n"
	      "                             suffixes (KiB, MiB) (default 64)\n"
	      "  -t, --depth N              calls outstanding at once (default 1)\n"
	      "      --chunk MODE[,MODE]... auto, inline, read, pos0, write or reply,\n"
	      "                             each with every size (default auto)\n"
	      "      --backward N           backward calls asked for with CALLBACK at the\n"
	      "                             end (0 to 64, default 1; 0: no CALLBACK)\n"
	      "      --null                 NULL calls only (count of them)\n"
	      "      --program PROG         send the NULL calls to PROG: a number or nfs,\n"
	      "                             nfs-cb, mount, nlm, portmap, echo (implies\n"
	      "                             --null unless PROG is echo)\n"
	      "      --program-version V    its version (default 1; nfs: 3)\n"
	      "\n"
	      "Test only:\n"
	      "      --misbehave NAME       server: wrong-error, drop-bad, silent-vers,\n"
	      "                             zero-credit; client: no-first-wait, ignore-grant,\n"
	      "                             keep-read-pad, send-done\n"
	      "\n"
	      "Output:\n"
	      "      --json                 JSON Lines: one object per call or event, then\n"
	      "                             a summary\n"
	      "  -v, --verbose              client: also show the connection's details;\n"
	      "                             server: one line per call\n"
	      "  -q, --quiet                client: only the summary\n"
	      "  -d, --debug                transport events on standard error\n"
	      "  -V                         accepted for rping (data is always verified)\n"
	      "  -h, --help                 this text\n"
	      "      --version              the version\n"
	      "\n"
	      "Exit status: 0 every call answered and identical (server: stopped by a\n"
	      "signal), 1 a call failed, 2 usage error, 3 connection failed or lost\n"
	      "(server: cannot listen), 4 internal error.  See rpcrdma-echo(1).\n", f);
}

#define usage_error(...) cli_usage_error(PROG, __VA_ARGS__)

/* A number (numarg.h) with an optional binary suffix, k or m */
static bool parse_size(const char *s, uint64_t max, uint64_t *out)
{
	char digits[32];
	size_t n = strlen(s);
	uint64_t mult = 1, v;

	if (n && (s[n - 1] == 'k' || s[n - 1] == 'K'))
		mult = 1024, n--;
	else if (n && (s[n - 1] == 'm' || s[n - 1] == 'M'))
		mult = 1024 * 1024, n--;
	if (n >= sizeof(digits))
		return false;
	memcpy(digits, s, n);
	digits[n] = '\0';
	if (!parse_u64(digits, max / mult, &v))
		return false;
	*out = v * mult;
	return true;
}

static int sizes_opt(const char *arg, struct echo_opts *o)
{
	char buf[512], *tok, *save = NULL;
	uint64_t v;

	if (strlen(arg) >= sizeof(buf))
		return usage_error("-S: '%.40s...' is too long", arg);
	strcpy(buf, arg);
	o->nsizes = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!parse_size(tok, ECHO_DATA_MAX, &v))
			return usage_error("-S: '%s' is not a size from 0 to %u "
					   "(k and m suffixes allowed)", tok, ECHO_DATA_MAX);
		if (o->nsizes == ECHO_MAX_SIZES)
			return usage_error("-S: at most %d sizes", ECHO_MAX_SIZES);
		o->sizes[o->nsizes++] = (uint32_t)v;
	}
	if (!o->nsizes)
		return usage_error("-S: no size in '%s'", arg);
	return 0;
}

static int chunk_opt(const char *arg, struct echo_opts *o)
{
	char buf[128], *tok, *save = NULL;
	enum xprt_chunk_mode m;

	if (strlen(arg) >= sizeof(buf))
		return usage_error("--chunk: '%.40s...' is too long", arg);
	strcpy(buf, arg);
	o->nchunks = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!live_chunk_by_name(tok, &m))
			return usage_error("--chunk: '%s' is not " LIVE_CHUNK_NAMES, tok);
		if (o->nchunks == ECHO_MAX_CHUNKS)
			return usage_error("--chunk: at most %d modes", ECHO_MAX_CHUNKS);
		o->chunks[o->nchunks++] = m;
	}
	if (!o->nchunks)
		return usage_error("--chunk: no mode in '%s'", arg);
	return 0;
}

/* the test-only misbehave modes by name: the responder's are the
 * server's, the requester's the client's (client) */
static const struct {
	const char *name, *opt;        /* opt: how an error names it */
	bool client;
} misbehaves[] = {
	[XPRT_MISBEHAVE_WRONG_ERROR] = { "wrong-error", "--misbehave", false },
	[XPRT_MISBEHAVE_DROP_BAD] = { "drop-bad", "--misbehave", false },
	[XPRT_MISBEHAVE_SILENT_VERS] = { "silent-vers", "--misbehave", false },
	[XPRT_MISBEHAVE_ZERO_CREDIT] = { "zero-credit", "--misbehave", false },
	[XPRT_MISBEHAVE_NO_FIRST_WAIT] = { "no-first-wait", "--misbehave no-first-wait", true },
	[XPRT_MISBEHAVE_IGNORE_GRANT] = { "ignore-grant", "--misbehave ignore-grant", true },
	[XPRT_MISBEHAVE_KEEP_READ_PAD] = { "keep-read-pad", "--misbehave keep-read-pad", true },
	[XPRT_MISBEHAVE_SEND_DONE] = { "send-done", "--misbehave send-done", true },
};

static int misbehave_opt(const char *arg, struct echo_opts *o)
{
	unsigned i;

	for (i = 1; i < sizeof(misbehaves) / sizeof(misbehaves[0]); i++)
		if (misbehaves[i].name && !strcmp(arg, misbehaves[i].name)) {
			o->x.misbehave = (enum xprt_misbehave)i;
			return 0;
		}
	return usage_error("--misbehave: '%s' is not wrong-error, drop-bad, "
			   "silent-vers, zero-credit (server), no-first-wait, "
			   "ignore-grant, keep-read-pad or send-done (client)", arg);
}

static int program_opt(const char *arg, struct echo_opts *o)
{
	uint64_t v;

	if (rpc_prog_by_name(arg, &o->prog))
		return 0;
	if (parse_u64(arg, UINT32_MAX, &v)) {
		o->prog = (uint32_t)v;
		return 0;
	}
	return usage_error("--program: '%s' is neither a number from 0 to "
			   "4294967295 nor one of nfs, nfs-cb, mount, nlm, portmap, echo",
			   arg);
}

/* Options only one mode takes, to name them in an error */
struct seen {
	const char *client_only, *server_only;
	bool prog_vers, backward, null_only;
};

struct cli {
	struct echo_opts *o;
	struct seen sn;
};

static int parse_one(int c, const char *arg, void *ctx)
{
	struct echo_opts *o = ((struct cli *)ctx)->o;
	struct seen *sn = &((struct cli *)ctx)->sn;
	uint32_t v;

	switch (c) {
	case 's': o->server = true; return 0;
	case 'a': o->x.host = arg; return 0;
	case 'c': case 'C':
		sn->client_only = "-c";
		return cli_number32(PROG, "-c", arg, 0, UINT32_MAX, &o->count);
	case 'S': sn->client_only = "-S"; return sizes_opt(arg, o);
	case 't':
		sn->client_only = "-t";
		return cli_number32(PROG, "-t", arg, 1, LIVE_CREDITS_MAX, &o->depth);
	case CLI_L_CHUNK: sn->client_only = "--chunk"; return chunk_opt(arg, o);
	case CLI_L_BACKWARD:
		sn->client_only = "--backward";
		sn->backward = true;
		return cli_number32(PROG, "--backward", arg, 0, ECHO_CALLBACK_COUNT_MAX, &o->backward);
	case CLI_L_NULL: sn->client_only = "--null"; sn->null_only = true; return 0;
	case CLI_L_PROGRAM: sn->client_only = "--program"; return program_opt(arg, o);
	case CLI_L_PROGRAM_VERSION:
		sn->client_only = "--program-version";
		sn->prog_vers = true;
		return cli_number32(PROG, "--program-version", arg, 0, UINT32_MAX, &o->prog_vers);
	case CLI_L_TIMEOUT:
		if (cli_number32(PROG, "--timeout", arg, 1, 3600000, &v))
			return ECHO_EXIT_USAGE;
		o->call_timeout_ms = (int)v;
		return 0;
	case CLI_L_MISBEHAVE:
		if (misbehave_opt(arg, o))
			return ECHO_EXIT_USAGE;
		/* the requester's modes are the client's, the rest the server's
		 * (the table's flag) */
		if (misbehaves[o->x.misbehave].client)
			sn->client_only = misbehaves[o->x.misbehave].opt;
		else
			sn->server_only = misbehaves[o->x.misbehave].opt;
		return 0;
	case CLI_L_JSON: o->json = true; return 0;
	case 'v': o->verbose = true; return 0;
	case 'q': sn->client_only = "-q"; o->quiet = true; return 0;
	case 'V': return 0;
	}
	return usage_error("internal: unhandled option %d", c);
}

/* What the options say together */
static int check_modes(int argc, char *argv[], struct echo_opts *o,
		       const struct seen *sn)
{
	if (o->server) {
		if (sn->client_only)
			return usage_error("%s is a client option (not with -s)",
					   sn->client_only);
		if (optind < argc)
			return usage_error("unexpected argument '%s' (the server "
					   "binds to -a ADDR)", argv[optind]);
		return 0;
	}
	if (sn->server_only)
		return usage_error("%s is a server option (needs -s)", sn->server_only);
	if (optind < argc) {
		if (o->x.host)
			return usage_error("the server is given twice: -a %s and '%s'",
					   o->x.host, argv[optind]);
		o->x.host = argv[optind++];
	}
	if (optind < argc)
		return usage_error("unexpected argument '%s'", argv[optind]);
	if (!o->x.host)
		return usage_error("no server given: " PROG " HOST, or -s to serve");
	if (o->prog != ECHO_PROG)
		o->null_only = true;
	else if (sn->null_only)
		o->null_only = true;
	if (o->prog != ECHO_PROG && !sn->prog_vers)
		o->prog_vers = o->prog == RPC_PROG_NFS ? 3 : 1;
	if (o->null_only && sn->backward && o->backward)
		return usage_error("--backward needs ECHO calls (not with --null or "
				   "another --program)");
	if (o->null_only)
		o->backward = 0;
	return 0;
}

int main(int argc, char *argv[])
{
	struct echo_opts o = {
		.count = 1, .sizes = { DEFAULT_SIZE }, .nsizes = 1, .depth = 1,
		.chunks = { XPRT_CHUNK_AUTO }, .nchunks = 1,
		.backward = 1, .prog = ECHO_PROG, .prog_vers = ECHO_VERS,
		.x = { .timeout_ms = LIVE_CONNECT_TIMEOUT_MS },
		.call_timeout_ms = DEFAULT_TIMEOUT_MS,
	};
	struct cli cl = { .o = &o };
	/* the options: the transport's from the common table
	 * (tools/common/live.h), the tool's own by name (cliopt.h) */
	struct live_cli lc = { .prog = PROG, .x = &o.x,
		.takes = LIVE_O_PORT | LIVE_O_FAMILY | LIVE_O_VERSIONS |
			 LIVE_O_CREDITS | LIVE_O_INLINE | LIVE_O_NO_PD |
			 LIVE_O_RINV | LIVE_O_POLL | LIVE_O_DEBUG |
			 LIVE_O_CONNECT_TIMEOUT };
	const struct live_parse lp = {
		.own_names = "server=s addr=a count=c size=S depth=t chunk "
			     "backward null program program-version timeout "
			     "misbehave json verbose=v quiet=q",
		.own_short = "C:V",
		.own = parse_one, .ctx = &cl, .usage = usage,
	};
	int rc = live_getopt(&lc, &lp, argc, argv);

	if (rc >= 0)
		return rc;
	rc = check_modes(argc, argv, &o, &cl.sn);
	if (rc)
		return rc;
	rc = o.server ? echo_server_main(&o) : echo_client_main(&o);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, PROG ": writing output: %s\n", strerror(errno));
		rc = ECHO_EXIT_INTERNAL;
	}
	return rc;
}
