/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gnuplot.c - the tools' --plot FILE.svg|FILE.png|FILE.gp: the script a
 * tool writes is piped to gnuplot (gnuplot-nox), or written as it is for
 * .gp; the plot file is checked to exist afterwards.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "gnuplot.h"

int gp_kind(const char *file)
{
	size_t n = strlen(file);

	if (n > 4 && strcmp(file + n - 4, ".svg") == 0)
		return GP_SVG;
	if (n > 4 && strcmp(file + n - 4, ".png") == 0)
		return GP_PNG;
	if (n > 3 && strcmp(file + n - 3, ".gp") == 0)
		return GP_SCRIPT;
	return -1;
}

void gp_str(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '\'')
			fputs("''", f);
		else if (c < 0x20 || c == 0x7f)
			fputc('?', f);
		else
			fputc(c, f);
	}
	fputc('\'', f);
}

void gp_terminal(FILE *f, enum gp_kind kind, const char *file,
		 unsigned width, unsigned height)
{
	if (kind == GP_PNG)
		fprintf(f, "set terminal pngcairo size %u,%u noenhanced font "
			"'sans,10' background rgb 'white'\n", width, height);
	else
		fprintf(f, "set terminal svg size %u,%u dynamic noenhanced font "
			"'sans,11' background rgb 'white'\n", width, height);
	if (kind == GP_SCRIPT) {
		fputs("# set output 'FILE.svg'\n", f);
	} else {
		fputs("set output ", f);
		gp_str(f, file);
		fputc('\n', f);
	}
}

int gp_render(const char *prog, const char *file,
	      void (*write)(FILE *f, enum gp_kind kind, void *arg), void *arg)
{
	int kind = gp_kind(file), st;
	struct stat sb;
	void (*old_pipe)(int);
	FILE *f;

	if (kind < 0) {
		fprintf(stderr, "%s: --plot %s: give a file ending in .svg, .png or "
			".gp\n", prog, file);
		return -1;
	}
	if (kind == GP_SCRIPT) {
		f = fopen(file, "w");
		if (!f) {
			fprintf(stderr, "%s: --plot %s: %s\n", prog, file, strerror(errno));
			return -1;
		}
		write(f, GP_SCRIPT, arg);
		if (fclose(f) != 0) {
			fprintf(stderr, "%s: --plot %s: %s\n", prog, file, strerror(errno));
			return -1;
		}
		return 0;
	}
	fflush(NULL);
	/* a gnuplot that is missing or dies early closes the pipe: the
	 * writes then fail (EPIPE) instead of killing us, and pclose says why */
	old_pipe = signal(SIGPIPE, SIG_IGN);
	f = popen("exec gnuplot", "w");
	if (!f) {
		signal(SIGPIPE, old_pipe);
		fprintf(stderr, "%s: --plot %s: cannot run gnuplot: %s\n", prog, file,
			strerror(errno));
		return -1;
	}
	write(f, (enum gp_kind)kind, arg);
	fputs("set output\n", f);
	st = pclose(f);
	signal(SIGPIPE, old_pipe);
	if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		if (st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 127)
			fprintf(stderr, "%s: --plot %s: gnuplot is not installed "
				"(Debian: apt-get install gnuplot-nox)\n", prog, file);
		else
			fprintf(stderr, "%s: --plot %s: gnuplot failed (status %d)\n",
				prog, file, st);
		return -1;
	}
	if (stat(file, &sb) != 0 || sb.st_size == 0) {
		fprintf(stderr, "%s: --plot %s: gnuplot wrote nothing\n", prog, file);
		return -1;
	}
	return 0;
}
