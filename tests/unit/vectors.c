/* SPDX-License-Identifier: BSD-3-Clause */
/* vectors.c - reader for tests/vectors/vectors.txt (format: its README.md). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "vectors.h"

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

static void strip_comment(char *s)
{
	char *h = strchr(s, '#');

	if (h)
		*h = '\0';
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

static void add_hex(struct vector *v, const char *s, unsigned lineno)
{
	int hi = -1;

	for (; *s; s++) {
		int d;

		if (isspace((unsigned char)*s) || *s == ':')
			continue;
		d = hexval((unsigned char)*s);
		if (d < 0 || (hi < 0 && v->len >= VEC_MAX_BYTES)) {
			snprintf(v->error, sizeof(v->error),
				 "line %u: bad hex character '%c' or too long", lineno, *s);
			return;
		}
		if (hi < 0) {
			hi = d;
		} else {
			v->bytes[v->len++] = (unsigned char)(hi << 4 | d);
			hi = -1;
		}
	}
	if (hi >= 0)
		snprintf(v->error, sizeof(v->error), "line %u: odd number of hex digits", lineno);
}

int vec_next(FILE *f, unsigned *lineno, struct vector *v)
{
	char line[2048];
	long start = -1;

	memset(v, 0, sizeof(*v));
	for (;;) {
		long pos = ftell(f);
		char *s, *eq;

		if (!fgets(line, sizeof(line), f))
			return v->name[0] != '\0';
		s = trim(line);
		if (*s == '[') {
			if (v->name[0]) {        /* the next vector: push back */
				fseek(f, pos, SEEK_SET);
				return 1;
			}
			(*lineno)++;
			start = pos;
			s++;
			s[strcspn(s, "]")] = '\0';
			snprintf(v->name, sizeof(v->name), "%s", s);
			v->line = *lineno;
			continue;
		}
		(*lineno)++;
		strip_comment(s);
		s = trim(s);
		if (!*s || start < 0)
			continue;
		eq = strchr(s, '=');
		if (!eq) {
			snprintf(v->error, sizeof(v->error), "line %u: no '='", *lineno);
			continue;
		}
		*eq = '\0';
		if (!strcmp(trim(s), "hex")) {
			add_hex(v, eq + 1, *lineno);
		} else if (v->nkv < VEC_MAX_KEYS) {
			struct vec_kv *kv = &v->kv[v->nkv++];

			snprintf(kv->key, sizeof(kv->key), "%s", trim(s));
			snprintf(kv->val, sizeof(kv->val), "%s", trim(eq + 1));
		}
	}
}

const char *vec_get(const struct vector *v, const char *key)
{
	unsigned i;

	for (i = 0; i < v->nkv; i++)
		if (!strcmp(v->kv[i].key, key))
			return v->kv[i].val;
	return NULL;
}

int vec_num(const char *s, unsigned long long *out)
{
	char *end;

	if (!s || !*s || *s == '-')
		return -1;
	*out = strtoull(s, &end, 0);
	return *end ? -1 : 0;
}
