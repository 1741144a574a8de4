/* SPDX-License-Identifier: BSD-3-Clause */
/* scenarios_iwarp.c - placeholder */
#include "scen.h"
const struct scenario scenarios_iwarp[] = { { NULL, NULL, NULL, NULL } };
