/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * scen.h - the scenario table: each scenario writes one capture and records
 * the lint violations it plants (file, frame, check) for lint-expect.txt.
 */
#ifndef CAPGEN_SCEN_H
#define CAPGEN_SCEN_H

#include "capgen.h"
#include "nfs.h"

#define MAX_EXPECT 8

struct gen {
	const char *path;          /* output file */
	struct capw w;
	unsigned nexp;
	struct { uint64_t frame; const char *check; } exp[MAX_EXPECT];
};

struct scenario {
	const char *name;
	const char *file;          /* file name written by --all */
	int (*run)(struct gen *g);
	const char *what;
};

int gen_open(struct gen *g, enum capfmt fmt, uint32_t linktype,
	     uint32_t snaplen);
int gen_close(struct gen *g);
void gen_expect(struct gen *g, uint64_t frame, const char *check);

extern const struct scenario scenarios_transport[];
extern const struct scenario scenarios_iwarp[];
extern const struct scenario scenarios_lint[];

/* the traffic most scenarios share */
void traffic_basic(struct sess *s);
void traffic_chunks(struct sess *s);
void traffic_multichunk(struct sess *s);   /* multichunk.c */

/* bench.c */
int bench_write(const char *path, uint64_t nframes);
int bench_qps_write(const char *path, uint64_t nframes, uint32_t nqps,
		    bool sends);

#endif
