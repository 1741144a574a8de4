/* SPDX-License-Identifier: BSD-3-Clause */
/* scenarios_lint.c - placeholder */
#include "scen.h"
const struct scenario scenarios_lint[] = { { NULL, NULL, NULL, NULL } };
