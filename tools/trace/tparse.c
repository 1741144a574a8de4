/* SPDX-License-Identifier: BSD-3-Clause */
/* tparse.c - trace text lines as events (tparse.h). */
#include "tparse.h"

#include <string.h>

#include "numarg.h"

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool is_name(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || is_digit(c) || c == '_';
}

bool tp_num(const char *s, size_t n, uint64_t max, uint64_t *out)
{
	return parse_u64_n(s, n, max, out);
}

/* "SECONDS.FRACTION:" then spaces then "NAME:" (NAME may carry one
 * "system:" prefix): the first place in the line where that stands */
int tp_line(const char *line, size_t len, struct tp_event *ev)
{
	size_t i;

	for (i = 0; i < len; i++) {
		size_t a = i, dot, b, n, k, nl;
		uint64_t sec = 0, frac = 0, scale;
		const char *name;

		if (!is_digit(line[i]) || (i > 0 && (is_digit(line[i - 1]) || line[i - 1] == '.')))
			continue;
		b = a;
		while (b < len && is_digit(line[b]))
			b++;
		if (b == len || line[b] != '.')
			continue;
		dot = b++;
		while (b < len && is_digit(line[b]))
			b++;
		if (b == dot + 1 || b == len || line[b] != ':')
			continue;
		/* the stamp: whole seconds and up to 9 digits of fraction */
		if (dot - a > 12 || b - dot - 1 > 9)
			return -1;
		if (!tp_num(line + a, dot - a, UINT64_MAX / 1000000000u - 1, &sec))
			return -1;
		if (!tp_num(line + dot + 1, b - dot - 1, 999999999u, &frac))
			return -1;
		for (scale = b - dot - 1; scale < 9; scale++)
			frac *= 10;
		k = b + 1;
		while (k < len && (line[k] == ' ' || line[k] == '\t'))
			k++;
		name = line + k;
		n = 0;
		while (k + n < len && (is_name(name[n]) || name[n] == ':'))
			n++;
		/* the name ends at its last ':' (a "system:" may precede it) */
		while (n > 0 && name[n - 1] != ':')
			n--;
		if (n < 2)
			continue;
		nl = n - 1;                     /* without the final ':' */
		{
			const char *colon = memchr(name, ':', nl);

			if (colon) {            /* "rpcrdma:xprtrdma_marshal" */
				size_t skip = (size_t)(colon - name) + 1;

				if (memchr(name + skip, ':', nl - skip))
					return -1;
				name += skip;
				nl -= skip;
			}
		}
		if (nl == 0 || nl >= TP_NAME_MAX)
			return -1;
		memcpy(ev->name, name, nl);
		ev->name[nl] = '\0';
		ev->ts_ns = sec * 1000000000u + frac;
		k = (size_t)(name - line) + nl + 1;
		while (k < len && (line[k] == ' ' || line[k] == '\t'))
			k++;
		ev->f = line + k;
		ev->flen = len - k;
		while (ev->flen > 0 && (ev->f[ev->flen - 1] == '\n' || ev->f[ev->flen - 1] == '\r' ||
					ev->f[ev->flen - 1] == ' '))
			ev->flen--;
		return 1;
	}
	return 0;
}

static bool find_key(const struct tp_event *ev, const char *key, size_t *at)
{
	size_t kl = strlen(key), i;

	if (kl == 0 || kl > ev->flen)
		return false;
	for (i = 0; i + kl <= ev->flen; i++) {
		if (memcmp(ev->f + i, key, kl) != 0)
			continue;
		if (i > 0 && ev->f[i - 1] != ' ' && ev->f[i - 1] != '(' && ev->f[i - 1] != ',' &&
		    ev->f[i - 1] != '[' && ev->f[i - 1] != '\t')
			continue;
		*at = i + kl;
		return true;
	}
	return false;
}

bool tp_kv(const struct tp_event *ev, const char *key, const char **v, size_t *vl)
{
	char k[40];
	size_t kl = strlen(key), at, e;

	if (kl + 2 > sizeof(k))
		return false;
	memcpy(k, key, kl);
	k[kl] = '=';
	k[kl + 1] = '\0';
	if (!find_key(ev, k, &at))
		return false;
	e = at;
	while (e < ev->flen && ev->f[e] != ' ' && ev->f[e] != ',' && ev->f[e] != ')' && ev->f[e] != '\t')
		e++;
	/* "xid=0x1234abcd:" before the rest of marshal's fields */
	if (e > at && ev->f[e - 1] == ':')
		e--;
	*v = ev->f + at;
	*vl = e - at;
	return true;
}

bool tp_kv_u64(const struct tp_event *ev, const char *key, uint64_t max, uint64_t *out)
{
	const char *v;
	size_t vl;

	return tp_kv(ev, key, &v, &vl) && tp_num(v, vl, max, out);
}

bool tp_kv_i64(const struct tp_event *ev, const char *key, int64_t *out)
{
	const char *v;
	size_t vl;
	uint64_t u;
	bool neg;

	if (!tp_kv(ev, key, &v, &vl) || vl == 0)
		return false;
	neg = v[0] == '-';
	if (!tp_num(v + neg, vl - neg, (uint64_t)INT64_MAX, &u))
		return false;
	*out = neg ? -(int64_t)u : (int64_t)u;
	return true;
}

static bool is_hex(char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'f');
}

/* 6.1 prints "task:%08x@%08x"; older kernels "task:%u@%u": eight hex
 * digits each side are read as hex, anything else as decimal */
bool tp_task(const struct tp_event *ev, uint32_t *task, uint32_t *client)
{
	size_t at, e, m, i;
	uint64_t t, c;
	bool hex = true;

	if (!find_key(ev, "task:", &at))
		return false;
	m = at;
	while (m < ev->flen && is_hex(ev->f[m]))
		m++;
	if (m == at || m == ev->flen || ev->f[m] != '@')
		return false;
	e = m + 1;
	while (e < ev->flen && is_hex(ev->f[e]))
		e++;
	if (m - at != 8 || e - m - 1 != 8)
		hex = false;
	for (i = at; !hex && i < e; i++)
		if (i != m && !is_digit(ev->f[i]))
			return false;
	if (hex) {
		char a[11] = "0x", b[11] = "0x";

		memcpy(a + 2, ev->f + at, 8);
		memcpy(b + 2, ev->f + m + 1, 8);
		if (!tp_num(a, 10, UINT32_MAX, &t) || !tp_num(b, 10, UINT32_MAX, &c))
			return false;
	} else if (!tp_num(ev->f + at, m - at, UINT32_MAX, &t) ||
		   !tp_num(ev->f + m + 1, e - m - 1, UINT32_MAX, &c)) {
		return false;
	}
	*task = (uint32_t)t;
	*client = (uint32_t)c;
	return true;
}

bool tp_credits(const struct tp_event *ev, uint32_t *credits)
{
	uint64_t v;
	size_t i;

	if (tp_kv_u64(ev, "credits", UINT32_MAX, &v)) {
		*credits = (uint32_t)v;
		return true;
	}
	/* ", 64 credits," */
	for (i = 0; i + 8 <= ev->flen; i++) {
		size_t s = i;

		if (memcmp(ev->f + i, " credits", 8) != 0)
			continue;
		while (s > 0 && is_digit(ev->f[s - 1]))
			s--;
		if (s < i && tp_num(ev->f + s, i - s, UINT32_MAX, &v)) {
			*credits = (uint32_t)v;
			return true;
		}
	}
	return false;
}

static bool is_xdigit(char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* the end of a run of at most max hex digits from i (bounded: no scan
 * runs past its field, so a line of many '@0x' stays linear) */
static size_t hex_run(const struct tp_event *ev, size_t i, size_t max)
{
	size_t e = i;

	while (e < ev->flen && e - i <= max && is_xdigit(ev->f[e]))
		e++;
	return e;
}

bool tp_segment(const struct tp_event *ev, uint32_t *length, uint64_t *offset, uint32_t *handle)
{
	size_t i;

	for (i = 0; i + 3 < ev->flen; i++) {
		size_t s = i, o, oe, h, he;
		uint64_t l, off, hd;

		if (ev->f[i] != '@' || ev->f[i + 1] != '0' || ev->f[i + 2] != 'x')
			continue;
		while (s > 0 && i - s <= 10 && is_digit(ev->f[s - 1]))
			s--;
		if (s == i || (s > 0 && ev->f[s - 1] != ' '))
			continue;
		o = i + 1;                      /* "0x..." */
		oe = hex_run(ev, i + 3, 16);
		if (oe == i + 3 || oe + 3 > ev->flen || ev->f[oe] != ':' || ev->f[oe + 1] != '0' ||
		    ev->f[oe + 2] != 'x')
			continue;
		h = oe + 1;
		he = hex_run(ev, oe + 3, 8);
		if (he == oe + 3)
			continue;
		if (he < ev->flen && ev->f[he] != ' ' && ev->f[he] != ')' && ev->f[he] != ',')
			continue;
		if (!tp_num(ev->f + s, i - s, UINT32_MAX, &l) || !tp_num(ev->f + o, oe - o, UINT64_MAX, &off) ||
		    !tp_num(ev->f + h, he - h, UINT32_MAX, &hd))
			continue;
		*length = (uint32_t)l;
		*offset = off;
		*handle = (uint32_t)hd;
		return true;
	}
	return false;
}

bool tp_status(const struct tp_event *ev, uint32_t *status, uint32_t *vendor)
{
	size_t i;

	for (i = 0; i < ev->flen; i++) {
		size_t a = i + 1, b, c, d;
		uint64_t s, v;

		if (ev->f[i] != '(')
			continue;
		b = a;
		while (b < ev->flen && b - a <= 10 && is_digit(ev->f[b]))
			b++;
		if (b == a || b + 3 > ev->flen || ev->f[b] != '/' || ev->f[b + 1] != '0' || ev->f[b + 2] != 'x')
			continue;
		c = b + 1;                      /* "0x..." */
		d = hex_run(ev, b + 3, 8);
		if (d == b + 3 || d == ev->flen || ev->f[d] != ')' || !tp_num(ev->f + a, b - a, UINT32_MAX, &s) ||
		    !tp_num(ev->f + c, d - c, UINT32_MAX, &v))
			continue;
		*status = (uint32_t)s;
		*vendor = (uint32_t)v;
		return true;
	}
	return false;
}

static void copy_trim(char *dst, size_t dl, const char *s, size_t n)
{
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	while (n > 0 && (*s == ' ' || *s == '\t')) {
		s++;
		n--;
	}
	if (n >= dl)
		n = dl - 1;
	memcpy(dst, s, n);
	dst[n] = '\0';
}

bool tp_chunktypes(const struct tp_event *ev, char *r, size_t rl, char *w, size_t wl)
{
	const char *v, *rest, *slash, *end = ev->f + ev->flen;
	size_t vl;

	if (!tp_kv(ev, "xdr", &v, &vl))
		return false;
	rest = v + vl;
	if (rest >= end)
		return false;
	slash = memchr(rest, '/', (size_t)(end - rest));
	if (!slash || slash == end - 1)
		return false;
	copy_trim(r, rl, rest, (size_t)(slash - rest));
	copy_trim(w, wl, slash + 1, (size_t)(end - slash - 1));
	return r[0] != '\0' && w[0] != '\0';
}

bool tp_has_word(const struct tp_event *ev, const char *word)
{
	size_t wl = strlen(word), i;

	for (i = 0; i + wl <= ev->flen; i++)
		if (memcmp(ev->f + i, word, wl) == 0 && (i == 0 || !is_name(ev->f[i - 1])) &&
		    (i + wl == ev->flen || !is_name(ev->f[i + wl])))
			return true;
	return false;
}
