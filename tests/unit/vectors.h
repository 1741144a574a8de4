/* SPDX-License-Identifier: BSD-3-Clause */
/* vectors.h - reader for tests/vectors/vectors.txt (see its README.md). */
#ifndef RPCRDMA_VECTORS_H
#define RPCRDMA_VECTORS_H

#include <stddef.h>
#include <stdio.h>

#define VEC_MAX_KEYS 40
#define VEC_MAX_BYTES 4096

struct vec_kv {
	char key[32];
	char val[1024];
};

struct vector {
	char name[128];
	unsigned line;                 /* where it starts */
	unsigned char bytes[VEC_MAX_BYTES];
	size_t len;
	struct vec_kv kv[VEC_MAX_KEYS];
	unsigned nkv;
	char error[160];               /* a syntax error in the vector file */
};

/* Read the next vector; 1 = got one, 0 = end of file. */
int vec_next(FILE *f, unsigned *lineno, struct vector *v);
/* The value of key, or NULL */
const char *vec_get(const struct vector *v, const char *key);
/* Parse a decimal or 0x number; 0 on success */
int vec_num(const char *s, unsigned long long *out);

#endif
