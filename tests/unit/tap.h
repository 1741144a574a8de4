/* SPDX-License-Identifier: BSD-3-Clause */
/* tap.h - a minimal TAP producer for the C unit tests. */
#ifndef RPCRDMA_TAP_H
#define RPCRDMA_TAP_H

#include <stdarg.h>
#include <stdbool.h>

/* ok(cond, fmt...): one TAP line; returns cond */
bool tap_ok(bool cond, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* diagnostic line, "# ..." */
void tap_diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* prints the plan and returns the exit status (0: all passed) */
int tap_done(void);

/* guard.c: a copy of buf that ends exactly at a PROT_NONE page, so that a
 * one-byte over-read faults.  The pointer stays valid until the next call. */
const unsigned char *guard_copy(const void *buf, unsigned long len);

#endif
