/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * main.c - rpcrdma-ping: options (ping_args.c), then the ping
 * (ping_run.c), or the probes: --probe (ping_probe.c) and --probe-inline
 * (ping_inline.c), one after the other when both are given.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "ping.h"

int main(int argc, char *argv[])
{
	struct ping_opts o;
	int rc = ping_parse_args(argc, argv, &o, stdout);

	if (rc >= 0)
		return rc;
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!o.probe && !o.probe_inline) {
		rc = ping_run(&o);
	} else {
		rc = o.probe ? ping_probe(&o) : PING_EXIT_OK;
		if (o.probe_inline && rc != PING_EXIT_USAGE) {
			int rc2 = ping_probe_inline(&o);

			if (rc2 > rc)
				rc = rc2;
		}
	}
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, PING_PROG ": writing output: %s\n", strerror(errno));
		if (rc == 0)
			rc = PING_EXIT_USAGE;
	}
	return rc;
}
