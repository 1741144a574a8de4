/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cap_main.c - one run of the capture pipeline (docs/capture.md): set up
 * the bounded state, take frames from capture files (cap_read.c) or from a
 * caller, then print --stats and the --check total; the exit status is 1
 * for a violation, 3 for a capture not read whole or state lost to a limit.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cap_state.h"

struct cap_state *cap_open(const struct cap_opts *o, FILE *out)
{
	struct cap_state *st = calloc(1, sizeof(*st));

	if (!st)
		return NULL;
	st->opts = *o;
	st->o = &st->opts;
	st->out = out;
	st->file = "-";
	/* progress on a terminal, unless messages go to the same terminal */
	st->progress = isatty(STDERR_FILENO) &&
		       (!isatty(fileno(out)) || o->check || o->stats || o->quiet);
	/* cap_conv_end: every layer's part of a close */
	bool convs_ok = cap_conv_init(st, cap_conv_end);
	bool calls_ok = cap_calls_init(st);
	bool parts_ok = cap_cm_init(st) && cap_emit_init(st);
	st->work.crcbuf = malloc(CAP_CRCBUF);
	if (!convs_ok || !calls_ok || !parts_ok || !st->work.crcbuf) {
		cap_calls_free(st);
		cap_cm_free(st);
		cap_emit_free(st);
		free(st->work.crcbuf);
		cap_conv_free(st);
		free(st);
		return NULL;
	}
	return st;
}

void cap_source_begin(struct cap_state *st, const char *name)
{
	st->file = strcmp(name, "-") ? name : "stdin";
	st->frame_no = 0;
}

/* conversations do not span sources */
void cap_source_end(struct cap_state *st)
{
	cap_msg_flush(st, NULL);
	cap_conv_close_all(st);
	cap_cm_reset(st);
	cap_write_flush(st);
}

int cap_close(struct cap_state *st)
{
	int rc = st->status;

	cap_loss_overall(st);
	if (st->o->stats)
		cap_stats_print(st, st->out);
	if (st->o->plot_path && !cap_plot_render(st, st->o->plot_path))
		rc = CAP_EXIT_READ;
	else if (st->o->json && cap_lost_any(&st->lost))
		cap_lost_print(&st->lost, st->out, true);
	fflush(st->out);
	/* state given up to a limit, or stream bytes the capture lacks: the
	 * output is incomplete, say so */
	if (cap_lost_any(&st->lost)) {
		cap_progress_clear(st);
		fprintf(stderr, "rpcrdma-decode: %s: output incomplete: state limits "
			"reached or stream bytes missing (--stats: \"lost\")\n",
			st->file);
		rc = CAP_EXIT_READ;
	}
	if (st->o->check && rc == CAP_EXIT_READ && !st->stats.frames)
		fputs("rpcrdma-decode: --check: nothing checked: the capture could "
		      "not be read\n", stderr);
	else if (st->o->check && rc == CAP_EXIT_READ)
		fprintf(stderr, "%llu violations in the %llu frames read (output "
			"incomplete: not a verdict on the whole capture)\n",
			(unsigned long long)st->violations,
			(unsigned long long)st->stats.frames);
	else if (st->o->check) {
		fprintf(stderr, "%llu violations", (unsigned long long)st->violations);
		if (st->downgraded)
			fprintf(stderr, ", %llu more downgraded (explained by capture "
				"loss)", (unsigned long long)st->downgraded);
		fputc('\n', stderr);
		if (st->violations && rc == CAP_EXIT_OK)
			rc = CAP_EXIT_FAULT;
	}
	/* (a capture that could not be read at all says so itself) */
	if ((rc == CAP_EXIT_OK || st->stats.frames) && cap_none_report(st) &&
	    rc == CAP_EXIT_OK)
		rc = CAP_EXIT_NONE;
	if (ferror(st->out) || !cap_write_close(st))
		rc = CAP_EXIT_READ;
	cap_conv_free(st);
	cap_plot_free(st);
	cap_stats_free(st);
	cap_bpf_free(st);
	cap_calls_free(st);
	cap_cm_free(st);
	cap_emit_free(st);
	free(st->stats.procs);
	free(st->work.scratch);
	free(st->work.fpdu);
	free(st->work.crcbuf);
	free(st);
	return rc;
}
