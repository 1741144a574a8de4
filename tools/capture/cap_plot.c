/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cap_plot.c - --stats --plot FILE.svg|FILE.png|FILE.gp: one figure, a
 * panel per chart, rendered by gnuplot (tools/common/gnuplot.c):
 *   - per conversation (the busiest few), the credits the server granted
 *     (V1 4.3.1) and the calls the client had outstanding, over time;
 *   - RPC latency of each reply over time, per procedure (the busiest few);
 *   - the distribution of each procedure's latency (cumulative);
 *   - message sizes, inline against chunked (V1 4.5), the --stats buckets.
 * Points go to a temporary file as the messages pass (memory does not grow
 * with the capture); the script carries them as data blocks, every k-th
 * when there are more than PLOT_POINTS.
 */
#include <stdlib.h>
#include <string.h>
#include "cap_state.h"
#include "gnuplot.h"

#define PLOT_POINTS 40000u             /* per series file, before thinning */
#define PLOT_CONVS 4u                  /* conversations drawn */
#define PLOT_PROCS 6u                  /* procedures drawn */
#define PLOT_CDF 400u                  /* points per distribution */
#define PLOT_MAX_IDS 65536u            /* conversations ranked by points */

struct cap_plot {
	FILE *conv, *lat;                  /* "conv t credits outstanding",
					    * "slot t us" */
	uint64_t nconv, nlat;
	bool have_t0;
	int64_t t0_sec;
	uint32_t t0_usec;
	uint32_t *per_conv;                /* points per conversation id */
	char title[200];                   /* the captures read */
};

bool cap_plot_open(struct cap_state *st)
{
	struct cap_plot *p = calloc(1, sizeof(*p));

	if (!p)
		return false;
	p->conv = tmpfile();
	p->lat = tmpfile();
	p->per_conv = calloc(PLOT_MAX_IDS, sizeof(*p->per_conv));
	if (!p->conv || !p->lat || !p->per_conv) {
		fprintf(stderr, "rpcrdma-decode: --plot: no temporary file\n");
		if (p->conv)
			fclose(p->conv);
		if (p->lat)
			fclose(p->lat);
		free(p->per_conv);
		free(p);
		return false;
	}
	st->plot = p;
	return true;
}

static double seconds(struct cap_plot *p, const struct msg_ctx *x)
{
	if (!p->have_t0) {
		p->have_t0 = true;
		p->t0_sec = x->ts_sec;
		p->t0_usec = x->ts_usec;
	}
	return (double)(x->ts_sec - p->t0_sec) +
	       ((double)x->ts_usec - p->t0_usec) / 1e6;
}

void cap_plot_msg(struct cap_state *st, const struct cap_conv *c, int dir,
		  const struct msg_ctx *x, const struct cap_emit *e, int slot)
{
	struct cap_plot *p = st->plot;
	double t = seconds(p, x);

	if (!p->title[0])
		snprintf(p->title, sizeof(p->title), "rpcrdma-decode: %s", st->file);
	else if (!strstr(p->title, st->file) && !strstr(p->title, " and more"))
		strncat(p->title, " and more", sizeof(p->title) - strlen(p->title) - 1);

	/* forward RPC: the client's outstanding calls, the server's grant */
	if (!e->backward && (e->is_call || e->is_reply)) {
		const struct cap_dir *caller = &c->d[e->is_call ? dir : 1 - dir];
		fprintf(p->conv, "%u %.6f %u %u\n", c->id, t,
			caller->have_grant ? caller->granted : 0, caller->outstanding);
		p->nconv++;
		if (c->id < PLOT_MAX_IDS)
			p->per_conv[c->id]++;
	}
	if (slot >= 0) {
		fprintf(p->lat, "%d %.6f %llu\n", slot, t,
			(unsigned long long)x->latency_us);
		p->nlat++;
	}
}

/* the series file as a data block, every k-th line past PLOT_POINTS */
static void block(FILE *out, const char *name, FILE *in, uint64_t n)
{
	char line[128];
	uint64_t k = n > PLOT_POINTS ? (n + PLOT_POINTS - 1) / PLOT_POINTS : 1, i = 0;

	fprintf(out, "%s << EOD\n", name);
	rewind(in);
	while (fgets(line, sizeof(line), in))
		if (i++ % k == 0)
			fputs(line, out);
	fputs("EOD\n", out);
}

struct plot_arg {
	struct cap_state *st;
	const char *file;
	uint32_t convs[PLOT_CONVS];
	unsigned nconvs;
	int procs[PLOT_PROCS];
	unsigned nprocs;
};

/* the busiest conversations and procedures */
static void pick(struct plot_arg *a)
{
	struct cap_plot *p = a->st->plot;
	struct cap_stats_proc *procs = a->st->stats.procs;

	for (unsigned n = 0; n < PLOT_CONVS; n++) {
		uint32_t best = 0;
		for (uint32_t id = 1; id < PLOT_MAX_IDS; id++)
			if (p->per_conv[id] > p->per_conv[best])
				best = id;
		if (!best)
			break;
		a->convs[a->nconvs++] = best;
		p->per_conv[best] = 0;
	}
	for (unsigned n = 0; procs && n < PLOT_PROCS; n++) {
		int best = -1;
		for (unsigned i = 0; i < CAP_PROCS_MAX; i++) {
			bool taken = false;
			for (unsigned k = 0; k < a->nprocs; k++)
				taken |= a->procs[k] == (int)i;
			if (procs[i].used && !taken && procs[i].lat.n &&
			    (best < 0 || procs[i].lat.n > procs[best].lat.n))
				best = (int)i;
		}
		if (best < 0)
			break;
		a->procs[a->nprocs++] = best;
	}
}

static const char *const colors[] = {
	"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b",
};

/* the i-th procedure's name as a series title, then the line's end */
static void proc_title(FILE *f, const struct plot_arg *a, unsigned i)
{
	char name[96];

	cap_stats_proc_label(&a->st->stats.procs[a->procs[i]], name, sizeof(name));
	gp_str(f, name);
	fputs(i + 1 < a->nprocs ? ", \\\n" : "\n", f);
}

static void script(FILE *f, enum gp_kind kind, void *arg)
{
	struct plot_arg *a = arg;
	struct cap_state *st = a->st;
	struct cap_plot *p = st->plot;
	const struct cap_stats_conv *tot = &st->stats.total;
	static const char *const buckets[CAP_HIST_N] = {
		"<256", "<512", "<1K", "<2K", "<4K", "<8K", "<16K", "<64K", "<1M", ">=1M",
	};

	fputs("# rpcrdma-decode --stats --plot (gnuplot 5)\n", f);
	gp_terminal(f, kind, a->file, 1400, 1000);
	block(f, "$conv", p->conv, p->nconv);
	block(f, "$lat", p->lat, p->nlat);
	/* each procedure's distribution: its sorted latencies, thinned */
	fputs("$cdf << EOD\n", f);
	for (unsigned i = 0; i < a->nprocs; i++) {
		struct cap_lat *l = &st->stats.procs[a->procs[i]].lat;
		cap_lat_done(l);
		for (unsigned q = 0; q <= PLOT_CDF; q++) {
			unsigned pct = q * 100 / PLOT_CDF;
			fprintf(f, "%llu %.4f\n", (unsigned long long)
				(q == PLOT_CDF ? l->max : q ? cap_lat_pct(l, pct) : l->min),
				(double)q / PLOT_CDF);
		}
		fputs("\n\n", f);
	}
	fputs("EOD\n$sizes << EOD\n", f);
	for (unsigned i = 0; i < CAP_HIST_N; i++)
		fprintf(f, "\"%s\" %llu %llu\n", buckets[i],
			(unsigned long long)tot->inline_hist[i],
			(unsigned long long)tot->chunked_hist[i]);
	fputs("EOD\n", f);

	fputs("set multiplot layout 2,2 title ", f);
	gp_str(f, p->title[0] ? p->title : "rpcrdma-decode: no RPC-over-RDMA message");
	fputs("\nset grid\nset key top left opaque box\nset xlabel 'time [s]'\n", f);

	/* 1: credits and calls outstanding */
	fputs("set title 'credits granted (solid, left) and calls outstanding "
	      "(dashed, right), forward direction'\nset ylabel 'credits'\n"
	      "set y2label 'calls outstanding'\nset yrange [0:*]\nset y2range [0:*]\n"
	      "set ytics nomirror\nset y2tics\n", f);
	if (!a->nconvs)
		fputs("plot $conv using 2:3 with steps notitle\n", f);
	for (unsigned i = 0; i < a->nconvs; i++)
		fprintf(f, "%s $conv using 2:($1 == %u ? $3 : 1/0) with steps lw 2 "
			"lc rgb '%s' title 'conv %u credits', "
			"$conv using 2:($1 == %u ? $4 : 1/0) axes x1y2 with steps "
			"dt 2 lc rgb '%s' title 'conv %u outstanding'%s\n",
			i ? "    " : "plot", a->convs[i], colors[i], a->convs[i],
			a->convs[i], colors[i], a->convs[i],
			i + 1 < a->nconvs ? ", \\" : "");
	/* 2: latency over time */
	fputs("unset y2tics\nunset y2label\nset ytics mirror\n"
	      "set title 'RPC latency of each reply'\nset ylabel 'latency [us]'\n"
	      "set logscale y 10\nset yrange [*:*]\n", f);
	if (!a->nprocs)
		fputs("plot $lat using 2:3 with points notitle\n", f);
	for (unsigned i = 0; i < a->nprocs; i++) {
		fprintf(f, "%s $lat using 2:($1 == %d ? $3 : 1/0) with points pt 7 "
			"ps 0.5 lc rgb '%s' title ", i ? "    " : "plot", a->procs[i],
			colors[i]);
		proc_title(f, a, i);
	}
	/* 3: latency distribution */
	fputs("unset logscale y\nset title 'RPC latency distribution per procedure'\n"
	      "set xlabel 'latency [us]'\nset ylabel 'fraction of replies'\n"
	      "set logscale x 10\nset yrange [0:1]\nset key bottom right\n", f);
	if (!a->nprocs)
		fputs("plot 1/0 notitle\n", f);
	for (unsigned i = 0; i < a->nprocs; i++) {
		fprintf(f, "%s $cdf index %u using 1:2 with steps lw 2 lc rgb '%s' "
			"title ", i ? "    " : "plot", i, colors[i]);
		proc_title(f, a, i);
	}
	/* 4: sizes */
	fputs("unset logscale x\nset title 'message sizes: inline and chunked'\n"
	      "set xlabel 'Send size [bytes]'\nset ylabel 'messages'\n"
	      "set yrange [0:*]\nset key top right\nset style data histograms\n"
	      "set style histogram clustered gap 1\nset style fill solid 0.8 border -1\n"
	      "plot $sizes using 2:xtic(1) lc rgb '#1f77b4' title 'inline', "
	      "'' using 3 lc rgb '#ff7f0e' title 'chunked'\n"
	      "unset multiplot\n", f);
}

bool cap_plot_render(struct cap_state *st, const char *file)
{
	struct plot_arg a = { .st = st, .file = file };

	if (!st->plot)
		return true;
	pick(&a);
	return gp_render("rpcrdma-decode", file, script, &a) == 0;
}

void cap_plot_free(struct cap_state *st)
{
	struct cap_plot *p = st->plot;

	if (!p)
		return;
	fclose(p->conv);
	fclose(p->lat);
	free(p->per_conv);
	free(p);
	st->plot = NULL;
}
