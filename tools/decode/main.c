/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * main.c - rpcrdma-decode's command line (man/rpcrdma-decode.1, SYNOPSIS
 * and OPTIONS): parse and check every option into struct decode_opts, then
 * run one of the two modes, --hex (decode_hex.c) or -r (tools/capture/).
 * Usage errors print "rpcrdma-decode: ..." and a hint, and exit 2.
 */
#include <errno.h>
#include <getopt.h>
#include <pcap/pcap.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "capture.h"
#include "cliopt.h"
#include "nfs4_ops.h"
#include "decode.h"
#include "gnuplot.h"
#include "numarg.h"
#include "rpc_names.h"

#ifndef RPCRDMA_TOOLS_VERSION
#define RPCRDMA_TOOLS_VERSION "0.1.0"
#endif

#define PROG "rpcrdma-decode"
#define ROCE_PORT_DEFAULT 4791u
#define INLINE_MIN 1024u               /* V1 §4.3.2: every receiver supports it */
#define INLINE_MAX (1u << 20)          /* as large as --hex accepts */

/* the long options (one list of names: tools/common/cliopt.h) */
static const char long_names[] =
	"hex read=r interface=i buffer-size=B json verbose=V stats plot check quiet=q count=c "
	"write=w time-format numeric=n roce-port inline-threshold no-crc-check "
	"mpa-crc mpa-markers xid conversation rdma-version program procedure "
	"redact redact-key help=h version";

/* --time-format words, in enum cap_time order (tcpdump's -t count + 1 for
 * the first five) */
static const char *const time_words[] = {
	"epoch", "none", "delta", "date", "relative", "clock",
};

static void usage(FILE *f)
{
	fputs("Usage: " PROG " --hex HEX [--json]\n"
	      "       " PROG " -r FILE [-r FILE]... [options] [FILTER]\n"
	      "       " PROG " -i IFACE [options] [FILTER]\n"
	      "Decode RPC-over-RDMA (Version One and Two) transport headers and judge\n"
	      "them as a receiver must.\n"
	      "\n"
	      "Modes (exactly one):\n"
	      "      --hex HEX              one transport message as hex digits (spaces\n"
	      "                             and ':' allowed); '-' reads one message per\n"
	      "                             line of standard input ('#' starts a comment)\n"
	      "  -r, --read FILE            a pcap or pcapng capture, maybe gzipped;\n"
	      "                             repeatable; '-' is standard input\n"
	      "  -i, --interface IFACE      capture live on IFACE (eth0, any, mlx5_0)\n"
	      "                             until Ctrl-C, as tcpdump -i\n"
	      "  -B, --buffer-size KIB      -i: the kernel's capture buffer in KiB, as\n"
	      "                             tcpdump -B (default 32768)\n"
	      "FILTER, after the options, is a pcap-filter(7) expression, as tcpdump's.\n"
	      "\n"
	      "Output:\n"
	      "      --json                 one JSON object per message\n"
	      "  -V, --verbose              the full tree for every message (captures)\n"
	      "      --stats                totals at the end instead of the messages\n"
	      "                             (captures)\n"	      "      --plot FILE            with --stats, charts to FILE.svg, .png (or\n"
	      "                             the gnuplot script, .gp): credits and calls\n"
	      "                             outstanding, latency over time and its\n"
	      "                             distribution, inline and chunked sizes\n"
	      "      --check[=inline]       report protocol violations; exit 1 if any;\n"
	      "                             =inline: with the messages (captures)\n"
	      "  -q, --quiet                no per-message output (captures)\n"
	      "  -c, --count COUNT          stop after COUNT messages (captures)\n"
	      "  -w, --write FILE           write the frames read (with filters: those\n"
	      "                             of the messages that pass) to a pcapng\n"
	      "                             file; '-' is standard output\n"
	      "      --redact[=keys,addresses]\n"
	      "                             with one -r FILE and -w: write the capture\n"
	      "                             in its own format with file data zeroed,\n"
	      "                             file handles and stateids hashed, names\n"
	      "                             and AUTH_SYS identities replaced; every\n"
	      "                             header, length and count kept, CRCs\n"
	      "                             written anew (rpcrdma-decode(1), REDACTION);\n"
	      "                             =keys: RDMA handles and addresses remapped;\n"
	      "                             =addresses: IP addresses and GIDs remapped\n"
	      "                             (10.0.0.0/8, fd00::/8), one to one\n"
	      "      --redact-key HEX       32 hex digits: the hash key (default: a\n"
	      "                             random key per run)\n"
	      "  -t                         the time column, repeated as in tcpdump:\n"
	      "                             1 none, 2 epoch (default), 3 since the\n"
	      "                             previous message, 4 date and time, 5 since\n"
	      "                             the first message\n"
	      "      --time-format FORMAT   epoch, none, delta, date, relative, clock\n"
	      "  -n, --numeric              accepted, as in tcpdump (addresses are never\n"
	      "                             resolved)\n"
	      "\n"
	      "Capture decoding:\n"
	      "      --roce-port PORT       UDP port of RoCEv2 (default 4791)\n"
	      "      --inline-threshold BYTES\n"
	      "                             receive inline threshold for --check, 1024 to\n"
	      "                             1048576 (default: 1024 for Version One, 4096\n"
	      "                             for Version Two)\n"
	      "      --no-crc-check         decode packets whose ICRC, VCRC or MPA CRC\n"
	      "                             is wrong (captured before the NIC filled it)\n"
	      "      --mpa-crc on|off|auto  iWARP: MPA CRCs used or not, whatever the\n"
	      "                             handshake says or is assumed without it\n"
	      "      --mpa-markers on|off|auto\n"
	      "                             iWARP: MPA markers, the same way\n"
	      "\n"
	      "Filters (captures, every mode; each repeatable, matching any of its\n"
	      "values; all kinds given must match):\n"
	      "      --xid XID              rdma_xid, decimal or 0x hex\n"
	      "      --conversation N       conversation number (1-based)\n"
	      "      --rdma-version 1|2     rdma_vers\n"
	      "      --program PROG         RPC program: a number or a name the output\n"
	      "                             prints (nfs, nfs-cb, mount, nlm, portmap,\n"
	      "                             echo, nfs_acl, ...)\n"
	      "      --procedure PROC       RPC procedure number or name, or the name of\n"
	      "                             an NFSv4 operation in a COMPOUND (READ)\n"
	      "\n"
	      "  -h, --help                 this text\n"
	      "      --version              the version\n"
	      "\n"
	      "Exit status: 0 accepted (or no violation), 1 not accepted or a\n"
	      "violation, 2 usage error, 3 a capture not read whole or output not\n"
	      "written, 4 no RPC-over-RDMA traffic found.  See rpcrdma-decode(1).\n", f);
}

__attribute__((format(printf, 1, 2)))
static int usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs(PROG ": ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nTry '" PROG " --help' for more information.\n", stderr);
	return DECODE_EXIT_USAGE;
}

/* A numeric option in [min, max]; prints the usage error itself */
static bool num_opt(const char *name, const char *arg, uint64_t min,
		    uint64_t max, uint32_t *out)
{
	uint64_t v;

	if (!parse_u64(arg, max, &v) || v < min) {
		usage_error("--%s: '%s' is not a number from %llu to %llu", name,
			    arg, (unsigned long long)min, (unsigned long long)max);
		return false;
	}
	*out = (uint32_t)v;
	return true;
}

static bool program_opt(const char *arg, uint32_t *prog)
{
	uint64_t v;

	if (rpc_prog_by_name(arg, prog))
		return true;
	if (parse_u64(arg, UINT32_MAX, &v)) {
		*prog = (uint32_t)v;
		return true;
	}
	usage_error("--program: '%s' is neither a number from 0 to 4294967295 "
		    "nor one of nfs, nfs-cb, mount, nlm, portmap, echo, nfs_acl "
		    "(or a name the output prints)", arg);
	return false;
}

/* a number, a procedure name or an NFSv4 operation name */
static int procedure_opt(const char *arg, struct decode_opts *o)
{
	uint64_t v;
	uint32_t op;

	if (parse_u64(arg, UINT32_MAX, &v)) {
		o->procs[o->nprocs++] = (uint32_t)v;
		return 0;
	}
	if (rpc_proc_name_known(arg) || nfs4_op_by_name(arg, false, &op) ||
	    nfs4_op_by_name(arg, true, &op)) {
		o->proc_names[o->nproc_names++] = arg;
		return 0;
	}
	return usage_error("--procedure: '%s' is neither a number from 0 to "
			   "4294967295 nor a procedure or NFSv4 operation name "
			   "(NULL, GETATTR, READ, SEQUENCE, CB_RECALL, ...)", arg);
}

static int time_opt(const char *arg, struct decode_opts *o)
{
	for (size_t i = 0; i < sizeof(time_words) / sizeof(time_words[0]); i++) {
		if (!strcmp(arg, time_words[i])) {
			o->time_format = (uint8_t)i;
			return 0;
		}
	}
	return usage_error("--time-format: '%s' is not one of epoch, none, delta, "
			   "date, relative, clock", arg);
}

/* What each capture-only option is called, to name it in an error */
struct seen {
	const char *capture_only;      /* the last capture-only option given */
	unsigned t;                    /* -t given that many times */
};

/* --mpa-crc / --mpa-markers on|off|auto: iWARP framing forced or inferred */
static int mpa_opt(int c, const char *arg, struct decode_opts *o, struct seen *seen)
{
	const char *name = c == CLI_L_MPA_CRC ? "--mpa-crc" : "--mpa-markers";
	uint8_t *force = c == CLI_L_MPA_CRC ? &o->mpa_crc : &o->mpa_markers;

	seen->capture_only = name;
	if (!strcmp(arg, "on"))
		*force = CAP_FORCE_ON;
	else if (!strcmp(arg, "off"))
		*force = CAP_FORCE_OFF;
	else if (!strcmp(arg, "auto"))
		*force = CAP_FORCE_AUTO;
	else
		return usage_error("%s: '%s' is not one of on, off, auto", name, arg);
	return 0;
}

/* --redact, and --redact-key: 32 hex digits, the 128-bit SipHash key */
static int redact_opt(int c, const char *arg, struct decode_opts *o,
		      struct seen *seen)
{
	seen->capture_only = c == CLI_L_REDACT ? "--redact" : "--redact-key";
	if (c == CLI_L_REDACT) {
		/* a comma-separated list of keys, addresses */
		for (const char *w = arg; w; w = w[strcspn(w, ",")] ?
		     w + strcspn(w, ",") + 1 : NULL) {
			size_t l = strcspn(w, ",");
			if (l == 4 && !strncmp(w, "keys", 4))
				o->redact_keys = true;
			else if (l == 9 && !strncmp(w, "addresses", 9))
				o->redact_addresses = true;
			else
				return usage_error("--redact=%s: the values are "
						   "'keys' and 'addresses' "
						   "(comma-separated)", arg);
		}
		o->redact = true;
		return 0;
	}
	if (strlen(arg) != 32 || strspn(arg, "0123456789abcdefABCDEF") != 32)
		return usage_error("--redact-key: '%s' is not 32 hex digits", arg);
	for (int i = 0; i < 16; i++) {
		char two[3] = { arg[2 * i], arg[2 * i + 1], 0 };
		o->redact_key[i] = (uint8_t)strtoul(two, NULL, 16);
	}
	o->have_redact_key = true;
	return 0;
}

static int parse_one(int c, const char *arg, struct decode_opts *o,
		     const char **files, struct seen *seen)
{
	uint32_t v;

	switch (c) {
	case CLI_L_HEX:
		if (o->hex)
			return usage_error("--hex given twice");
		o->hex = arg;
		return 0;
	case 'r':
		files[o->nfiles++] = arg;
		return 0;
	case 'i':
		if (o->iface)
			return usage_error("-i given twice");
		o->iface = arg;
		return 0;
	case CLI_L_JSON: o->json = true; return 0;
	case 'V': o->verbose = true; return 0;
	case 'n': return 0;
	case CLI_L_STATS: o->stats = true; seen->capture_only = "--stats"; return 0;
	case CLI_L_PLOT:
		seen->capture_only = "--plot";
		if (gp_kind(arg) < 0)
			return usage_error("--plot %s: give a file ending in .svg, .png "
					   "or .gp", arg);
		o->plot_path = arg;
		o->stats = true;               /* the charts are the statistics' */
		return 0;
	case CLI_L_CHECK:
		seen->capture_only = "--check";
		o->check = true;
		if (arg && strcmp(arg, "inline"))
			return usage_error("--check=%s: the only value is 'inline'", arg);
		o->check_inline = arg != NULL;
		return 0;
	case 'q': o->quiet = true; seen->capture_only = "--quiet"; return 0;
	case 'B': {
		uint64_t n;
		seen->capture_only = "-B";
		if (!parse_u64(arg, 4194304, &n) || n < 64)
			return usage_error("-B: '%s' is not a number of KiB from 64 to "
					   "4194304", arg);
		o->buffer_kib = (uint32_t)n;
		return 0;
	}
	case 'c': {
		uint64_t n;
		seen->capture_only = "-c";
		if (!parse_u64(arg, UINT64_MAX, &n) || !n)
			return usage_error("-c: '%s' is not a number from 1 to "
					   "18446744073709551615", arg);
		o->count = n;
		return 0;
	}
	case 'w':
		seen->capture_only = "-w";
		o->write_path = arg;
		return 0;
	case 't':
		seen->capture_only = "-t";
		if (++seen->t > 5)
			return usage_error("-t: at most five (-ttttt)");
		o->time_format = (uint8_t)(seen->t == 1 ? CAP_TIME_NONE :
			seen->t == 2 ? CAP_TIME_EPOCH : seen->t == 3 ? CAP_TIME_DELTA :
			seen->t == 4 ? CAP_TIME_DATE : CAP_TIME_RELATIVE);
		return 0;
	case CLI_L_TIME_FORMAT:
		seen->capture_only = "--time-format";
		return time_opt(arg, o);
	case CLI_L_REDACT:
	case CLI_L_REDACT_KEY:
		return redact_opt(c, arg, o, seen);
	case CLI_L_NO_CRC_CHECK:
		seen->capture_only = "--no-crc-check";
		o->no_crc_check = true;
		return 0;
	case CLI_L_MPA_CRC:
	case CLI_L_MPA_MARKERS:
		return mpa_opt(c, arg, o, seen);
	case CLI_L_ROCE_PORT:
		seen->capture_only = "--roce-port";
		if (!num_opt("roce-port", arg, 1, 65535, &v))
			return DECODE_EXIT_USAGE;
		o->roce_port = (uint16_t)v;
		return 0;
	case CLI_L_INLINE_THRESHOLD:
		seen->capture_only = "--inline-threshold";
		return num_opt("inline-threshold", arg, INLINE_MIN, INLINE_MAX,
			       &o->inline_threshold) ? 0 : DECODE_EXIT_USAGE;
	case CLI_L_XID:
		seen->capture_only = "--xid";
		return num_opt("xid", arg, 0, UINT32_MAX, &o->xids[o->nxids++]) ?
		       0 : DECODE_EXIT_USAGE;
	case CLI_L_CONVERSATION:
		seen->capture_only = "--conversation";
		return num_opt("conversation", arg, 1, UINT32_MAX,
			       &o->convs[o->nconvs++]) ? 0 : DECODE_EXIT_USAGE;
	case CLI_L_RDMA_VERSION:
		seen->capture_only = "--rdma-version";
		o->have_vers = true;
		return num_opt("rdma-version", arg, 1, 2, &o->vers) ? 0 : DECODE_EXIT_USAGE;
	case CLI_L_PROGRAM:
		seen->capture_only = "--program";
		return program_opt(arg, &o->progs[o->nprogs++]) ? 0 : DECODE_EXIT_USAGE;
	case CLI_L_PROCEDURE:
		seen->capture_only = "--procedure";
		return procedure_opt(arg, o);
	default:
		return usage_error("internal: unhandled option %d", c);
	}
}

/* The words after the options, joined by spaces as tcpdump joins them: a
 * pcap-filter(7) expression, checked here so that a typo is a usage error */
static int filter_opt(int n, char *const words[], char **joined,
		      struct decode_opts *o)
{
	size_t len = 1;
	struct bpf_program prog;

	for (int i = 0; i < n; i++)
		len += strlen(words[i]) + 1;
	if (!(*joined = calloc(1, len))) {
		fputs(PROG ": out of memory\n", stderr);
		return DECODE_EXIT_READ;
	}
	for (int i = 0; i < n; i++) {
		if (i)
			strcat(*joined, " ");
		strcat(*joined, words[i]);
	}
	pcap_t *dead = pcap_open_dead(DLT_EN10MB, 262144);
	if (!dead) {
		fputs(PROG ": out of memory\n", stderr);
		return DECODE_EXIT_READ;
	}
	if (pcap_compile(dead, &prog, *joined, 1, PCAP_NETMASK_UNKNOWN) != 0) {
		int rc = usage_error("filter '%s': %s", *joined, pcap_geterr(dead));
		pcap_close(dead);
		return rc;
	}
	pcap_freecode(&prog);
	pcap_close(dead);
	o->filter = *joined;
	return 0;
}

/* getopt_long's failures, in our words (opterr is 0) */
static int getopt_failure(int c, char *const argv[])
{
	const char *arg = argv[optind - 1];

	if (c == ':') {
		if (optopt && optopt < 256 && arg[1] != '-')
			return usage_error("option -%c needs a value", optopt);
		return usage_error("option %s needs a value", arg);
	}
	if (optopt && optopt < 256 && arg[1] != '-')
		return usage_error("unknown option -%c", optopt);
	return usage_error("unknown or ambiguous option '%s'", arg);
}

int main(int argc, char *argv[])
{
	struct decode_opts o = { .roce_port = ROCE_PORT_DEFAULT };
	struct option long_opts[32];
	struct seen seen = { NULL, 0 };
	const char **files;
	char *filter = NULL;
	int c, rc = 0;

	/* argc bounds the number of each repeatable option */
	size_t n = (size_t)argc + 1;
	files = calloc(n, sizeof(*files));
	o.xids = calloc(n, sizeof(*o.xids));
	o.convs = calloc(n, sizeof(*o.convs));
	o.progs = calloc(n, sizeof(*o.progs));
	o.procs = calloc(n, sizeof(*o.procs));
	o.proc_names = calloc(n, sizeof(*o.proc_names));
	if (!files || !o.xids || !o.convs || !o.progs || !o.procs || !o.proc_names) {
		fputs(PROG ": out of memory\n", stderr);
		rc = DECODE_EXIT_READ;
		goto out;
	}
	if (cli_longs(long_names, long_opts, sizeof(long_opts) / sizeof(long_opts[0])) < 0) {
		fputs(PROG ": internal: the option table does not fit\n", stderr);
		rc = DECODE_EXIT_READ;
		goto out;
	}
	opterr = 0;
	while (rc == 0 &&
	       (c = getopt_long(argc, argv, ":r:i:B:Vqhc:tnw:", long_opts, NULL)) != -1) {
		if (c == 'h') {
			usage(stdout);
			goto out;
		}
		if (c == CLI_L_VERSION) {
			puts(PROG " (rpcrdma-tools) " RPCRDMA_TOOLS_VERSION);
			goto out;
		}
		if (c == '?' || c == ':')
			rc = getopt_failure(c, argv);
		else
			rc = parse_one(c, optarg, &o, files, &seen);
	}
	if (rc)
		goto out;
	if ((o.hex != NULL) + (o.nfiles > 0) + (o.iface != NULL) > 1) {
		rc = usage_error(o.hex ? "--hex and %s cannot be used together" :
				 "-r and -i cannot be used together",
				 o.nfiles ? "-r" : "-i");
		goto out;
	}
	if (!o.hex && !o.nfiles && !o.iface) {
		rc = usage_error("nothing to decode: give --hex HEX, -r FILE or "
				 "-i IFACE");
		goto out;
	}
	if (optind < argc) {
		if (o.hex) {
			rc = usage_error("unexpected argument '%s'", argv[optind]);
			goto out;
		}
		rc = filter_opt(argc - optind, argv + optind, &filter, &o);
		if (rc)
			goto out;
	}
	if (o.hex && seen.capture_only) {
		rc = usage_error("%s applies to captures (-r), not to --hex",
				 seen.capture_only);
		goto out;
	}
	if (o.have_redact_key && !o.redact) {
		rc = usage_error("--redact-key goes with --redact");
		goto out;
	}
	if (o.redact && (o.nfiles != 1 || !o.write_path || o.iface ||
			 o.json || o.stats || o.check || o.verbose || filter ||
			 o.count || o.nxids || o.nconvs || o.have_vers ||
			 o.nprogs || o.nprocs || o.nproc_names)) {
		rc = usage_error("--redact takes one -r FILE and -w FILE, and no "
				 "output, filter or count option");
		goto out;
	}
	if (o.write_path && !strcmp(o.write_path, "-")) {
		if (o.stats || o.check || o.json || o.verbose) {
			rc = usage_error("-w - writes the capture to standard output: "
					 "no --stats, --check, --json or -V with it");
			goto out;
		}
		o.quiet = true;                /* as tcpdump -w - */
	}
	o.files = files;
	rc = o.hex ? decode_hex_main(&o) : decode_capture_main(&o);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, PROG ": writing output: %s\n", strerror(errno));
		rc = DECODE_EXIT_READ;
	}
out:
	free(files);
	free(o.xids);
	free(o.convs);
	free(o.progs);
	free(o.procs);
	free(o.proc_names);
	free(filter);
	return rc;
}
