/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cap_run.c - the pipeline over a list of capture files: one run
 * (cap_open), -w and --plot set up, each file read in turn (cap_read.c),
 * then the run's end (cap_close).  Above cap_main.c and cap_read.c, so
 * that neither calls the other.
 */
#include "cap_state.h"

int cap_run(const struct cap_opts *o, const char *const *files, int nfiles)
{
	struct cap_state *st = cap_open(o, stdout);

	if (!st) {
		fprintf(stderr, "rpcrdma-decode: out of memory\n");
		return CAP_EXIT_READ;
	}
	if ((o->write_path && !cap_write_open(st, o->write_path)) ||
	    (o->plot_path && !cap_plot_open(st))) {
		st->status = CAP_EXIT_READ;
		nfiles = 0;
	}
	for (int i = 0; i < nfiles && !st->stop; i++)
		if (cap_read_file(st, files[i]) != CAP_EXIT_OK)
			st->status = CAP_EXIT_READ;
	return cap_close(st);
}
