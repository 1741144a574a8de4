/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gnuplot.h - rendering a plot with gnuplot (gnuplot 5, the Debian package
 * gnuplot-nox) for the tools' --plot options: the file's kind from its
 * name, safe strings in a script, the terminal, and running gnuplot on a
 * script a caller writes (gnuplot.c).
 */
#ifndef RPCRDMA_GNUPLOT_H
#define RPCRDMA_GNUPLOT_H

#include <stdio.h>

enum gp_kind { GP_SVG, GP_PNG, GP_SCRIPT };

/* GP_SVG, GP_PNG or GP_SCRIPT by the name's end (.svg, .png, .gp), -1 */
int gp_kind(const char *file);
/* s as a gnuplot single-quoted string ('' for a quote, no control chars) */
void gp_str(FILE *f, const char *s);
/* "set terminal ..." and "set output 'FILE'" (a comment for GP_SCRIPT) */
void gp_terminal(FILE *f, enum gp_kind kind, const char *file,
		 unsigned width, unsigned height);
/* The script `write` prints, to gnuplot (or to FILE itself for GP_SCRIPT);
 * 0, or -1 after "PROG: --plot FILE: why" on stderr (gnuplot missing or
 * failing, nothing written) */
int gp_render(const char *prog, const char *file,
	      void (*write)(FILE *f, enum gp_kind kind, void *arg), void *arg);

#endif
