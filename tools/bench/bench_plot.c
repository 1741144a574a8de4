/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench_plot.c - --plot FILE.svg|FILE.png|FILE.gp: latency (median and 99%
 * percentile) and bandwidth against message size, calls that went inline
 * and calls that needed chunks marked apart, the inline threshold drawn
 * (draft-cel-nfsv4-rpcrdma-version-two-01 §2.2), rendered by gnuplot (the
 * Debian package gnuplot-nox).  .gp writes the script only.
 */
#include <stdio.h>
#include <string.h>
#include "bench.h"
#include "gnuplot.h"

struct bench_plot_arg {
	const struct bench_result *res;
	const char *file;
};

int bench_plot_kind(const char *file)
{
	return gp_kind(file);
}

/* did the row's calls need a chunk either way? */
static int chunked(const struct bench_row *r)
{
	if (!r->has_where)
		return 0;
	return bench_main_path(r->where.call_paths, NULL) != BENCH_PATH_INLINE ||
	       bench_main_path(r->where.reply_paths, NULL) != BENCH_PATH_INLINE;
}

static size_t count_rows(const struct bench_result *res, bool lat)
{
	size_t i, n = 0;

	/* against message size on a log scale: NULL calls (0 bytes) have none */
	for (i = 0; i < res->nrows; i++)
		n += res->rows[i].bytes && (lat ? res->rows[i].has_lat : res->rows[i].has_bw);
	return n;
}

/* one panel: a line through every point, inline points filled, chunked
 * points open; `col` is the figure's column in the data block */
static void plot_series(FILE *f, const char *block, int col, const char *color,
			const char *title, bool marks)
{
	fprintf(f, "     %s using 1:%d with lines lw 2 lc rgb '%s' title '%s'",
		block, col, color, title);
	if (!marks)
		return;
	fprintf(f, ", \\\n     %s using 1:($%d == 0 ? $%d : 1/0) with points pt 7 ps 1.2 "
		"lc rgb '%s' title 'inline'", block, 4, col, color);
	fprintf(f, ", \\\n     %s using 1:($%d != 0 ? $%d : 1/0) with points pt 6 ps 1.6 "
		"lc rgb '%s' title 'chunked'", block, 4, col, color);
}

static void threshold_mark(FILE *f, uint32_t t)
{
	if (!t)
		return;
	fprintf(f, "set arrow 1 from %u, graph 0 to %u, graph 1 nohead dt 2 lc rgb 'gray40'\n",
		t, t);
	fprintf(f, "set label 1 'inline threshold %u B' at %u, graph 0.96 offset 0.5,0 "
		"textcolor rgb 'gray40'\n", t, t);
}

void bench_plot_script(FILE *f, const struct bench_result *res,
		       const char *file, enum bench_plot_kind kind)
{
	const struct bench_info *in = &res->info;
	size_t nlat = count_rows(res, true), nbw = count_rows(res, false), i;
	char title[256];

	fputs("# rpcrdma-bench: latency and bandwidth against message size (gnuplot 5)\n", f);
	gp_terminal(f, (enum gp_kind)kind, file, 900, 900);
	/* bytes typical p99 chunked / bytes bw_avg bw_peak chunked */
	fputs("$lat << EOD\n", f);
	for (i = 0; i < res->nrows; i++) {
		const struct bench_row *r = &res->rows[i];

		if (r->has_lat && r->bytes)
			fprintf(f, "%u %.2f %.2f %d\n", r->bytes, r->lat.typical,
				r->lat.p99, chunked(r));
	}
	fputs("EOD\n$bw << EOD\n", f);
	for (i = 0; i < res->nrows; i++) {
		const struct bench_row *r = &res->rows[i];

		if (r->has_bw && r->bytes)
			fprintf(f, "%u %.2f %.2f %d\n", r->bytes,
				bench_bw_unit(r->bw.avg, in->gbits),
				bench_bw_unit(r->bw.peak, in->gbits), chunked(r));
	}
	fputs("EOD\n", f);
	snprintf(title, sizeof(title), "rpcrdma-bench: %s to %s (%s), RPC-over-RDMA "
		 "Version %s, --chunk %s; throughput with %u outstanding", in->proc, in->server,
		 in->device[0] ? in->device : "?", in->rdma_vers == 2 ? "Two" : "One",
		 in->chunk, in->outstanding);
	fprintf(f, "set multiplot layout %d,1 title ", nlat && nbw ? 2 : 1);
	gp_str(f, title);
	fputc('\n', f);
	fputs("set logscale x 2\nset format x '%.0b%B'\nset grid\n"
	      "set key top left opaque box\nset xlabel 'message size [bytes]'\n", f);
	threshold_mark(f, in->inline_send);
	if (nlat) {
		fputs("set ylabel 'round trip [usec]'\nset logscale y 10\nplot \\\n", f);
		plot_series(f, "$lat", 2, "#1f77b4",
			    "median (t_typical)", true);
		fputs(", \\\n", f);
		plot_series(f, "$lat", 3, "#d62728", "99% percentile", false);
		fputc('\n', f);
	}
	if (nbw) {
		fprintf(f, "unset logscale y\nset ylabel 'bandwidth [%s]'\nset yrange [0:*]\nplot \\\n",
			in->gbits ? "Gb/sec" : "MB/sec");
		plot_series(f, "$bw", 2, "#2ca02c", "BW average", true);
		fputs(", \\\n", f);
		plot_series(f, "$bw", 3, "#9467bd", "BW peak", false);
		fputc('\n', f);
	}
	fputs("unset multiplot\n", f);
	if (kind != BENCH_PLOT_SCRIPT)
		fputs("set output\n", f);
}

static void script(FILE *f, enum gp_kind kind, void *arg)
{
	const struct bench_plot_arg *a = arg;

	bench_plot_script(f, a->res, a->file, (enum bench_plot_kind)kind);
}

int bench_plot(const struct bench_result *res, const char *file)
{
	struct bench_plot_arg a = { res, file };

	if (bench_plot_kind(file) >= 0 && !count_rows(res, true) &&
	    !count_rows(res, false)) {
		fprintf(stderr, BENCH_PROG ": --plot %s: nothing measured to plot against "
			"message size\n", file);
		return -1;
	}
	return gp_render(BENCH_PROG, file, script, &a);
}
