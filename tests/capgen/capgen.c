/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * capgen.c - the test-capture generator's command line:
 *   capgen --list                 scenario names and what they hold
 *   capgen SCENARIO -o FILE       write one scenario
 *   capgen --all DIR              write every scenario into DIR
 *   capgen --expect               lint-expect lines (file frame check)
 *   capgen --bench FILE [N]       N frames (default 1000000) of mixed traffic
 *   capgen --bench-qps FILE N Q [sends]  N frames over Q queue pairs: ACKs,
 *                                 or calls and replies with their ACKs
 * Output is deterministic: the same bytes on every run.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "scen.h"

static const struct scenario *const tables[] = {
	scenarios_transport, scenarios_iwarp, scenarios_lint,
};

int gen_open(struct gen *g, enum capfmt fmt, uint32_t linktype,
	     uint32_t snaplen)
{
	if (capw_open(&g->w, g->path, fmt, linktype, snaplen) != 0) {
		fprintf(stderr, "capgen: %s: %s\n", g->path, strerror(errno));
		return -1;
	}
	return 0;
}

int gen_close(struct gen *g)
{
	if (capw_close(&g->w) != 0) {
		fprintf(stderr, "capgen: %s: write failed\n", g->path);
		return -1;
	}
	return 0;
}

void gen_expect(struct gen *g, uint64_t frame, const char *check)
{
	if (g->nexp < MAX_EXPECT) {
		g->exp[g->nexp].frame = frame;
		g->exp[g->nexp].check = check;
		g->nexp++;
	}
}

static const struct scenario *find(const char *name)
{
	for (size_t t = 0; t < sizeof(tables) / sizeof(tables[0]); t++)
		for (const struct scenario *s = tables[t]; s->name; s++)
			if (strcmp(s->name, name) == 0 || strcmp(s->file, name) == 0)
				return s;
	return NULL;
}

static int run(const struct scenario *s, const char *path, FILE *expect)
{
	struct gen g;

	memset(&g, 0, sizeof(g));
	g.path = path;
	if (s->run(&g) != 0)
		return -1;
	if (expect) {
		if (g.nexp == 0)
			fprintf(expect, "%s - none\n", s->file);
		for (unsigned i = 0; i < g.nexp; i++)
			fprintf(expect, "%s %llu %s\n", s->file,
				(unsigned long long)g.exp[i].frame, g.exp[i].check);
	}
	return 0;
}

static int usage(void)
{
	fprintf(stderr, "usage: capgen --list | --expect | SCENARIO -o FILE | "
		"SCENARIO -o FILE --drop F1,F2,... | --all DIR | --bench FILE [FRAMES] | --bench-qps FILE FRAMES QPS [sends]\n");
	return 2;
}

int main(int argc, char **argv)
{
	char path[4096];
	int rc = 0;

	if (argc == 2 && strcmp(argv[1], "--list") == 0) {
		for (size_t t = 0; t < sizeof(tables) / sizeof(tables[0]); t++)
			for (const struct scenario *s = tables[t]; s->name; s++)
				printf("%-34s %-38s %s\n", s->name, s->file, s->what);
		return 0;
	}
	if (argc == 2 && strcmp(argv[1], "--expect") == 0) {
		/* generate into /dev/null-like temporary files: the frames are
		 * counted by the writer, so the files must really be written */
		const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";

		for (size_t t = 0; t < sizeof(tables) / sizeof(tables[0]); t++)
			for (const struct scenario *s = tables[t]; s->name; s++) {
				snprintf(path, sizeof(path), "%s/capgen-expect-%ld.tmp",
					 tmp, (long)getpid());
				if (run(s, path, stdout) != 0)
					rc = 1;
				remove(path);
			}
		return rc;
	}
	if (argc == 3 && strcmp(argv[1], "--all") == 0) {
		FILE *e;

		snprintf(path, sizeof(path), "%s/lint-expect.txt", argv[2]);
		e = fopen(path, "w");
		if (!e) {
			fprintf(stderr, "capgen: %s: %s\n", path, strerror(errno));
			return 1;
		}
		for (size_t t = 0; t < sizeof(tables) / sizeof(tables[0]); t++)
			for (const struct scenario *s = tables[t]; s->name; s++) {
				snprintf(path, sizeof(path), "%s/%s", argv[2], s->file);
				if (run(s, path, e) != 0)
					rc = 1;
			}
		fclose(e);
		return rc;
	}
	if ((argc == 3 || argc == 4) && strcmp(argv[1], "--bench") == 0) {
		uint64_t n = argc == 4 ? strtoull(argv[3], NULL, 10) : 1000000u;

		return bench_write(argv[2], n) ? 1 : 0;
	}
	if ((argc == 5 || argc == 6) && strcmp(argv[1], "--bench-qps") == 0) {
		uint64_t n = strtoull(argv[3], NULL, 10);
		uint64_t q = strtoull(argv[4], NULL, 10);
		bool sends = argc == 6 && strcmp(argv[5], "sends") == 0;

		if (!q || q > 0x7fffff || (argc == 6 && !sends))
			return 2;
		return bench_qps_write(argv[2], n, (uint32_t)q, sends) ? 1 : 0;
	}
	if (argc == 6 && strcmp(argv[2], "-o") == 0 &&
	    strcmp(argv[4], "--drop") == 0) {
		/* SCENARIO -o FILE --drop F1,F2,...: the capture lost them */
		uint64_t fr[CAPW_DROP_MAX];
		unsigned n = 0;
		char *e, *p = argv[5];
		while (*p && n < CAPW_DROP_MAX) {
			fr[n++] = strtoull(p, &e, 10);
			if (e == p || (*e && *e != ','))
				return usage();
			p = *e ? e + 1 : e;
		}
		capw_drop(fr, n);
		argc = 4;
	}
	if (argc == 4 && strcmp(argv[2], "-o") == 0) {
		const struct scenario *s = find(argv[1]);

		if (!s) {
			fprintf(stderr, "capgen: no scenario %s (see --list)\n", argv[1]);
			return 2;
		}
		return run(s, argv[3], NULL) ? 1 : 0;
	}
	return usage();
}
