/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * numarg.h - numbers in command-line arguments, shared by the tools' option
 * parsers, rpcrdma-trace's fields and rpcrdma-stat's counters: decimal or
 * 0x hex, digits only (no sign, no spaces, no locale).
 */
#ifndef RPCRDMA_NUMARG_H
#define RPCRDMA_NUMARG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Decimal, or hex with 0x: digits only, at most max.  false otherwise. */
bool parse_u64(const char *s, uint64_t max, uint64_t *out);
/* The same over the n bytes at s (a field of a longer line, no NUL). */
bool parse_u64_n(const char *s, size_t n, uint64_t max, uint64_t *out);
/* Decimal digits only (no 0x), over the n bytes at s: the numbers of the
 * kernel's mountstats and svc_rdma files (rpcrdma-stat). */
bool parse_dec_u64_n(const char *s, size_t n, uint64_t max, uint64_t *out);

#endif
