/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cap_main.c - rpcrdma-decode -r FILE...: set up the bounded state, read
 * each capture in turn (cap_read.c), then print --stats and the --check
 * total; the exit status is 1 for a bad capture or any violation.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cap_state.h"

static char outbuf[1 << 20];

int decode_capture_main(const struct decode_opts *o)
{
	struct cap_state *st = calloc(1, sizeof(*st));
	int rc = DECODE_EXIT_OK;

	if (!st) {
		fprintf(stderr, "rpcrdma-decode: out of memory\n");
		return DECODE_EXIT_READ;
	}
	st->o = o;
	st->out = stdout;
	setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));
	/* progress on a terminal, unless messages go to the same terminal */
	st->progress = isatty(STDERR_FILENO) &&
		       (!isatty(STDOUT_FILENO) || o->check || o->stats || o->quiet);
	cap_conv_init(st);
	st->calls = calloc(CAP_MAX_CALLS, sizeof(*st->calls));
	st->segs = calloc(CAP_MAX_SEGS, sizeof(*st->segs));
	if (!st->convs || !st->calls || !st->segs) {
		fprintf(stderr, "rpcrdma-decode: out of memory\n");
		free(st->calls);
		free(st->segs);
		cap_conv_fini(st);
		free(st);
		return DECODE_EXIT_READ;
	}
	for (uint32_t i = 0; i < CAP_MAX_CALLS; i++)
		st->calls[i].hnext = i + 2 <= CAP_MAX_CALLS ? i + 2 : 0;
	st->call_free = 1;
	for (uint32_t i = 0; i < CAP_MAX_SEGS; i++)
		st->segs[i].hnext = i + 2 <= CAP_MAX_SEGS ? i + 2 : 0;
	st->seg_free = 1;

	bool unread = false;
	for (int i = 0; i < o->nfiles && !st->stop; i++) {
		const char *path = o->files[i];
		st->file = strcmp(path, "-") ? path : "stdin";
		if (cap_read_file(st, path) != DECODE_EXIT_OK)
			unread = true;
		/* conversations do not span files */
		cap_calls_flush(st, 0);
		cap_conv_fini(st);
		cap_conv_init(st);
		cap_cm_reset(st);
		if (!st->convs)
			break;
	}
	if (o->stats)
		cap_stats_print(st, st->out);
	fflush(st->out);
	if (o->check) {
		fprintf(stderr, "%llu violations\n", (unsigned long long)st->violations);
		if (st->violations)
			rc = DECODE_EXIT_FAULT;
	}
	if (unread)
		rc = DECODE_EXIT_READ;
	cap_conv_fini(st);
	if (st->stats.closed)
		fclose(st->stats.closed);
	free(st->calls);
	free(st->segs);
	free(st);
	return rc;
}
