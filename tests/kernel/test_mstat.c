/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_mstat.c - rpcrdma-stat's parsers (tools/stat/mstat_parse.c): the
 * mountstats layouts of 20, 25, 26 and 27 numbers and more, and every kind
 * of bad input named with its line.  Inputs are copied to the end of a
 * guarded page (guard_copy), so a read past them faults.
 */
#include <stdlib.h>
#include <string.h>

#include "mstat.h"
#include "tap.h"

static struct ms_sample S;
static char err[512];

static int parse(const char *text)
{
	size_t n = strlen(text);
	const char *g = (const char *)guard_copy(text, n);

	err[0] = '\0';
	return ms_parse_mountstats(g, n, "ms", &S, err, sizeof(err));
}

static const char *dev = "device 198.18.0.1:/srv/export mounted on /mnt/nfs with fstype nfs statvers=1.1\n";

static char *with_xprt(const char *nums)
{
	static char buf[4096];

	snprintf(buf, sizeof(buf), "%s\topts:\trw,vers=3\n\txprt:\trdma %s\n\tper-op statistics\n", dev, nums);
	return buf;
}

static void layouts(void)
{
	static const struct { unsigned n; const char *nums; } cases[] = {
		{ 20, "0 0 1 2 3 40 39 0 40 0 1 2 3 4096 8192 5 6 7 8 9" },
		{ 25, "0 0 1 2 3 40 39 0 40 0 1 2 3 4096 8192 5 6 7 8 9 10 11 12 13 14" },
		{ 26, "0 0 1 2 3 40 39 0 40 0 1 2 3 4096 8192 5 6 7 8 9 10 11 12 13 14 15" },
		{ 27, "0 0 1 2 3 40 39 0 40 0 1 2 3 4096 8192 5 6 7 8 9 10 11 12 13 14 15 16" },
		{ 30, "0 0 1 2 3 40 39 0 40 0 1 2 3 4096 8192 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19" },
	};
	unsigned i;
	char tmp[24];

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int rc = parse(with_xprt(cases[i].nums));

		tap_ok(rc == 0 && S.n == 1 && S.r[0].n == cases[i].n, "%u numbers accepted (%s)", cases[i].n, err);
		tap_ok(S.r[0].v[MS_SENDS] == 40 && S.r[0].v[MS_RECVS] == 39 &&
		       S.r[0].v[MS_TOTAL_RDMA_REPLY] == 8192 && S.r[0].v[MS_BAD_REPLY] == 9,
		       "%u numbers: sends, recvs, total_rdma_reply, bad_reply_count where the kernel prints them",
		       cases[i].n);
		tap_ok((ms_layout_name(cases[i].n) != NULL) == (cases[i].n != 30),
		       "%u numbers: a layout name only for the counts kernels print", cases[i].n);
	}
	tap_ok(strcmp(ms_client_name(MS_REPLY_WAITS_FOR_SEND, tmp, sizeof(tmp)), "reply_waits_for_send") == 0 &&
	       strcmp(ms_client_name(MS_BAD_REPLY, tmp, sizeof(tmp)), "bad_reply_count") == 0 &&
	       strcmp(ms_client_name(MS_MRS_RECYCLED, tmp, sizeof(tmp)), "mrs_recycled") == 0 &&
	       strcmp(ms_client_name(29, tmp, sizeof(tmp)), "field_30") == 0,
	       "the kernel's names by position, field_N past them");
	tap_ok(strcmp(S.r[0].device, "198.18.0.1:/srv/export") == 0 && strcmp(S.r[0].mountpoint, "/mnt/nfs") == 0 &&
	       strcmp(S.r[0].fstype, "nfs") == 0 && S.r[0].line == 3, "device, mount point, fstype and line kept");
}

static void others(void)
{
	char buf[4096];
	int rc;

	snprintf(buf, sizeof(buf),
		 "device proc mounted on /proc with fstype proc\n"
		 "device s:/a mounted on /a with fstype nfs4 statvers=1.1\n\txprt:\ttcp 0 0 1 0 0 1 1 0 1 0 0 0 0\n"
		 "%s\txprt:\trdma 0 0 1 0 0 5 5 0 5 0 0 0 0 0 0 0 0 0 0 0\n"
		 "\txprt:\trdma 0 0 1 0 -3 7 7 0 7 0 0 0 0 0 0 0 0 0 0 0\n", dev);
	rc = parse(buf);
	tap_ok(rc == 0 && S.n == 2 && S.other_xprts == 1 && S.mounts == 2,
	       "tcp transports counted, not kept; two rdma transports of one mount (%s)", err);
	tap_ok(S.r[1].xprt == 2 - 1 && (int64_t)S.r[1].v[MS_IDLE_TIME] == -3,
	       "the second transport is xprt 1; a negative idle_time (%%ld) kept");
	rc = parse("");
	tap_ok(rc == 0 && S.n == 0, "empty: no mounts");
	rc = parse(with_xprt("0 0 1 2 3 40 39 0 40 0 1 2 3 4096 8192 5 6 7 8 9"));
	tap_ok(rc == 0, "no newline needed at the end");
}

static void bad(const char *what, const char *text, const char *want)
{
	int rc = parse(text);

	if (!tap_ok(rc < 0 && strstr(err, want) != NULL, "%s: refused, '%s'", what, want))
		tap_diag("rc %d, err '%s'", rc, err);
}

static void bad_inputs(void)
{
	char buf[8192];
	unsigned i;
	size_t k;

	bad("19 numbers", with_xprt("0 0 1 2 3 40 39 0 40 0 1 2 3 4096 8192 5 6 7 8"),
	    "ms:3: xprt: rdma has 19 numbers; every kernel prints at least 20");
	bad("a letter", with_xprt("0 0 1 2 3 40 x9 0 40 0 1 2 3 4096 8192 5 6 7 8 9"),
	    "ms:3: xprt: rdma number 7 (recvs) is 'x9'");
	bad("a sign where the kernel prints none", with_xprt("0 0 1 2 3 -40 39 0 40 0 1 2 3 4096 8192 5 6 7 8 9"),
	    "number 6 (sends)");
	bad("0x hex, which the option parsers take and the kernel never prints",
	    with_xprt("0 0 1 2 3 0x28 39 0 40 0 1 2 3 4096 8192 5 6 7 8 9"), "number 6 (sends) is '0x28'");
	bad("2^64", with_xprt("0 0 1 2 3 18446744073709551616 39 0 40 0 1 2 3 4096 8192 5 6 7 8 9"),
	    "not a decimal number of 64 bits");
	tap_ok(parse(with_xprt("0 0 1 2 3 18446744073709551615 39 0 40 0 1 2 3 4096 8192 5 6 7 8 9")) == 0 &&
	       S.r[0].v[MS_SENDS] == UINT64_MAX, "2^64-1 is the largest");
	bad("xprt before any device", "\txprt:\trdma 0 0 1 2 3 40 39 0 40 0 1 2 3 4096 8192 5 6 7 8 9\n",
	    "ms:1: an xprt: line outside an NFS mount's device block");
	bad("xprt in a proc mount", "device proc mounted on /proc with fstype proc\n\txprt:\trdma 1\n",
	    "ms:2: an xprt: line outside");
	bad("a short device line", "device x mounted on\n", "ms:1: a device line not of the form");
	bad("no transport name", "device a:/b mounted on /b with fstype nfs\n\txprt:\n", "ms:2: an xprt: line without");
	k = (size_t)snprintf(buf, sizeof(buf), "%s\txprt:\trdma 0 0 1 2 3 40 39", dev);
	buf[k - 3] = '\0';
	{
		int rc = ms_parse_mountstats(buf, k, "ms", &S, err, sizeof(err));

		tap_ok(rc < 0 && strstr(err, "ms:2: a NUL byte at column") != NULL, "a NUL byte refused (%s)", err);
	}
	k = (size_t)snprintf(buf, sizeof(buf), "%s\txprt:\trdma", dev);
	for (i = 0; i < 65; i++)
		k += (size_t)snprintf(buf + k, sizeof(buf) - k, " %u", i);
	bad("65 numbers", buf, "more than 64 numbers");
	k = (size_t)snprintf(buf, sizeof(buf), "device ");
	for (i = 0; i < 300; i++)
		buf[k++] = 'a';
	snprintf(buf + k, sizeof(buf) - k, " mounted on /x with fstype nfs\n");
	bad("a 300-byte device", buf, "longer than 255 bytes");
}

static void counter_files(void)
{
	uint64_t v = 0;

	tap_ok(ms_parse_counter_file("123\n", 4, "f", &v, err, sizeof(err)) == 0 && v == 123, "rdma_stat_* '123\\n'");
	tap_ok(ms_parse_counter_file("", 0, "f", &v, err, sizeof(err)) < 0 && strstr(err, "f:1: empty"),
	       "an empty counter file refused");
	tap_ok(ms_parse_counter_file("1 2\n", 4, "f", &v, err, sizeof(err)) < 0 && strstr(err, "more than one"),
	       "two numbers refused");
	tap_ok(ms_parse_counter_file("-1\n", 3, "f", &v, err, sizeof(err)) < 0, "a negative counter refused");
	tap_ok(ms_parse_counter_file("0x10\n", 5, "f", &v, err, sizeof(err)) < 0, "a 0x hex counter refused");
	tap_ok(ms_parse_counter_file("1\0", 2, "f", &v, err, sizeof(err)) < 0 && strstr(err, "NUL"), "a NUL refused");
}

int main(void)
{
	layouts();
	others();
	bad_inputs();
	counter_files();
	return tap_done();
}
