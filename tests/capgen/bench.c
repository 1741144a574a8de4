/* SPDX-License-Identifier: BSD-3-Clause */
/* bench.c - placeholder, replaced below */
#include "scen.h"
int bench_write(const char *path, uint64_t nframes)
{
	(void)path; (void)nframes;
	return -1;
}
