/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * mstat_parse.c - /proc/self/mountstats and rdma_stat_* as records
 * (mstat.h).  The text is untrusted: every line is bounded by the buffer,
 * every number is digits only and fits 64 bits, every "xprt: rdma" line has
 * at least 20 numbers and belongs to a device line; the first fault is
 * named with its file and line.
 */
#include "mstat.h"
#include "numarg.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* The kernel's names, in its order: struct rpc_xprt's stat (the first ten,
 * printed by every transport) and struct rpcrdma_stats (rx_stats).  The
 * eleventh field of the 25- and 26-number layouts was mrs_recovered before
 * it was renamed mrs_recycled: the same counter. */
static const char *const client_names[MS_KNOWN_FIELDS] = {
	"port", "bind_count", "connect_count", "connect_time", "idle_time",
	"sends", "recvs", "bad_xids", "req_u", "bklog_u",
	"read_chunk_count", "write_chunk_count", "reply_chunk_count",
	"total_rdma_request", "total_rdma_reply", "pullup_copy_count",
	"fixup_copy_count", "hardway_register_count", "failed_marshal_count",
	"bad_reply_count", "nomsg_call_count", "mrs_recycled", "mrs_orphaned",
	"mrs_allocated", "local_inv_needed", "empty_sendctx_q",
	"reply_waits_for_send",
};

const char *ms_client_name(unsigned i, char *tmp, size_t tmplen)
{
	if (i < MS_KNOWN_FIELDS)
		return client_names[i];
	snprintf(tmp, tmplen, "field_%u", i + 1);
	return tmp;
}

const char *ms_layout_name(unsigned n)
{
	switch (n) {
	case 20: return "20 numbers: kernels before 4.9 (up to bad_reply_count)";
	case 21: return "21 numbers: nomsg_call_count added (no release we know printed 21)";
	case 25: return "25 numbers: 4.9 to 4.15 (nomsg_call_count, mrs_recovered, mrs_orphaned, mrs_allocated, local_inv_needed)";
	case 26: return "26 numbers: 4.16 (empty_sendctx_q added)";
	case 27: return "27 numbers: 4.17 and later (reply_waits_for_send added)";
	default: return NULL;
	}
}

const char *ms_name(const struct ms_rec *r, unsigned i, char *tmp, size_t tmplen)
{
	if (r->kind == MS_SERVER)
		return r->names[i];
	return ms_client_name(i, tmp, tmplen);
}

bool ms_is_gauge(const struct ms_rec *r, unsigned i)
{
	/* the local port (always 0) and the seconds since the last use */
	return r->kind == MS_CLIENT && (i == MS_PORT || i == MS_IDLE_TIME);
}

static int fail(char *err, size_t errlen, const char *fname, unsigned line,
		const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static int fail(char *err, size_t errlen, const char *fname, unsigned line,
		const char *fmt, ...)
{
	va_list ap;
	int k = line ? snprintf(err, errlen, "%s:%u: ", fname, line)
		     : snprintf(err, errlen, "%s: ", fname);

	if (k < 0 || (size_t)k >= errlen)
		return -1;
	va_start(ap, fmt);
	vsnprintf(err + k, errlen - (size_t)k, fmt, ap);
	va_end(ap);
	return -1;
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t';
}

/* the next whitespace-separated token of [*p, end): its start and length */
static bool token(const char **p, const char *end, const char **t, size_t *tl)
{
	const char *q = *p;

	while (q < end && is_space(*q))
		q++;
	if (q == end) {
		*p = q;
		return false;
	}
	*t = q;
	while (q < end && !is_space(*q))
		q++;
	*tl = (size_t)(q - *t);
	*p = q;
	return true;
}

static bool tok_is(const char *t, size_t tl, const char *lit)
{
	return tl == strlen(lit) && memcmp(t, lit, tl) == 0;
}

/* digits only, at most UINT64_MAX (numarg.h); neg: a leading '-' allowed
 * (idle_time is printed with %ld), kept as its two's complement */
static bool parse_num(const char *t, size_t tl, bool neg_ok, uint64_t *out)
{
	size_t neg = neg_ok && tl > 1 && t[0] == '-';
	uint64_t v;

	if (!parse_dec_u64_n(t + neg, tl - neg, UINT64_MAX, &v))
		return false;
	if (neg && v > (uint64_t)INT64_MAX + 1)
		return false;
	*out = neg ? (uint64_t)0 - v : v;
	return true;
}

static void copy_tok(char *dst, size_t dstlen, const char *t, size_t tl)
{
	if (tl >= dstlen)
		tl = dstlen - 1;
	memcpy(dst, t, tl);
	dst[tl] = '\0';
}

int ms_parse_mountstats(const char *buf, size_t len, const char *fname,
			struct ms_sample *s, char *err, size_t errlen)
{
	const char *p = buf, *end = buf + len;
	unsigned line = 0, xprts_here = 0;
	bool in_dev = false, dev_nfs = false;
	char dev[MS_NAME_MAX] = "", mnt[MS_NAME_MAX] = "", fstype[16] = "";

	s->n = s->other_xprts = s->mounts = 0;
	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		const char *le = eol ? eol : end, *q = p, *t, *nul;
		size_t tl;

		line++;
		nul = memchr(p, '\0', (size_t)(le - p));
		if (nul)
			return fail(err, errlen, fname, line, "a NUL byte at column %zu: not mountstats text",
				    (size_t)(nul - p) + 1);
		p = eol ? eol + 1 : end;
		if (!token(&q, le, &t, &tl))
			continue;
		if (tok_is(t, tl, "device")) {
			/* device DEV mounted on MNT with fstype TYPE [statvers=V] */
			const char *d, *m, *ty, *w;
			size_t dl, ml, tyl, wl;

			if (!token(&q, le, &d, &dl) || !token(&q, le, &w, &wl) || !tok_is(w, wl, "mounted") ||
			    !token(&q, le, &w, &wl) || !tok_is(w, wl, "on") || !token(&q, le, &m, &ml) ||
			    !token(&q, le, &w, &wl) || !tok_is(w, wl, "with") ||
			    !token(&q, le, &w, &wl) || !tok_is(w, wl, "fstype") || !token(&q, le, &ty, &tyl))
				return fail(err, errlen, fname, line,
					    "a device line not of the form 'device DEV mounted on DIR with fstype TYPE'");
			if (dl >= MS_NAME_MAX || ml >= MS_NAME_MAX)
				return fail(err, errlen, fname, line, "a device or mount point longer than %d bytes",
					    MS_NAME_MAX - 1);
			copy_tok(dev, sizeof(dev), d, dl);
			copy_tok(mnt, sizeof(mnt), m, ml);
			copy_tok(fstype, sizeof(fstype), ty, tyl);
			in_dev = true;
			dev_nfs = tok_is(ty, tyl, "nfs") || tok_is(ty, tyl, "nfs4");
			if (dev_nfs)
				s->mounts++;
			xprts_here = 0;
			continue;
		}
		if (!tok_is(t, tl, "xprt:"))
			continue;
		if (!in_dev || !dev_nfs)
			return fail(err, errlen, fname, line, "an xprt: line outside an NFS mount's device block");
		if (!token(&q, le, &t, &tl))
			return fail(err, errlen, fname, line, "an xprt: line without a transport name");
		xprts_here++;
		if (!tok_is(t, tl, "rdma")) {
			s->other_xprts++;
			continue;
		}
		if (s->n == MS_MAX_RECS)
			return fail(err, errlen, fname, line, "more than %d RDMA transports", MS_MAX_RECS);
		struct ms_rec *r = &s->r[s->n];
		memset(r, 0, sizeof(*r));
		r->kind = MS_CLIENT;
		memcpy(r->device, dev, sizeof(dev));
		memcpy(r->mountpoint, mnt, sizeof(mnt));
		memcpy(r->fstype, fstype, sizeof(fstype));
		r->xprt = xprts_here - 1;
		r->line = line;
		while (token(&q, le, &t, &tl)) {
			if (r->n == MS_MAX_FIELDS)
				return fail(err, errlen, fname, line, "xprt: rdma has more than %d numbers",
					    MS_MAX_FIELDS);
			if (!parse_num(t, tl, r->n == MS_IDLE_TIME, &r->v[r->n])) {
				char tmp[24], shown[24];

				copy_tok(shown, sizeof(shown), t, tl);
				return fail(err, errlen, fname, line,
					    "xprt: rdma number %u (%s) is '%s%s', not a decimal number of 64 bits",
					    r->n + 1, ms_client_name(r->n, tmp, sizeof(tmp)), shown,
					    tl >= sizeof(shown) ? "..." : "");
			}
			r->n++;
		}
		if (r->n < 20)
			return fail(err, errlen, fname, line,
				    "xprt: rdma has %u numbers; every kernel prints at least 20", r->n);
		s->n++;
	}
	return 0;
}

int ms_parse_counter_file(const char *buf, size_t len, const char *fname,
			  uint64_t *out, char *err, size_t errlen)
{
	const char *p = buf, *end = buf + len, *t;
	size_t tl;

	if (memchr(buf, '\0', len))
		return fail(err, errlen, fname, 1, "a NUL byte: not a counter");
	while (len > 0 && buf[len - 1] == '\n')
		len--;
	end = buf + len;
	if (memchr(buf, '\n', len))
		return fail(err, errlen, fname, 1, "more than one line");
	if (!token(&p, end, &t, &tl))
		return fail(err, errlen, fname, 1, "empty: no number");
	if (!parse_num(t, tl, false, out))
		return fail(err, errlen, fname, 1, "not a decimal number of 64 bits");
	/* one number */
	if (token(&p, end, &t, &tl))
		return fail(err, errlen, fname, 1, "more than one number");
	return 0;
}

int ms_read_file(const char *path, char **buf, size_t *len, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	size_t cap = 65536, n = 0;
	char *b;

	if (!f)
		return fail(err, errlen, path, 0, "%s", strerror(errno));
	b = malloc(cap);
	if (!b) {
		fclose(f);
		return fail(err, errlen, path, 0, "out of memory");
	}
	for (;;) {
		size_t k;

		if (n == cap) {
			char *nb;

			if (cap >= MS_MAX_INPUT) {
				free(b);
				fclose(f);
				return fail(err, errlen, path, 0, "larger than %u MiB: not read",
					    MS_MAX_INPUT >> 20);
			}
			nb = realloc(b, cap * 2);
			if (!nb) {
				free(b);
				fclose(f);
				return fail(err, errlen, path, 0, "out of memory");
			}
			b = nb;
			cap *= 2;
		}
		k = fread(b + n, 1, cap - n, f);
		n += k;
		if (k == 0)
			break;
	}
	if (ferror(f)) {
		int e = errno;

		free(b);
		fclose(f);
		return fail(err, errlen, path, 0, "read error: %s", strerror(e));
	}
	fclose(f);
	*buf = b;
	*len = n;
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp((const char *)a, (const char *)b);
}

int ms_read_server(const char *dir, struct ms_sample *s, char *err, size_t errlen)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char names[MS_MAX_FIELDS][40];
	unsigned n = 0, i;
	struct ms_rec *r;

	if (!d)
		return fail(err, errlen, dir, 0, "%s", strerror(errno));
	while ((e = readdir(d)) != NULL) {
		if (strncmp(e->d_name, "rdma_stat_", 10) != 0 || strlen(e->d_name) >= sizeof(names[0]))
			continue;
		if (n == MS_MAX_FIELDS) {
			closedir(d);
			return fail(err, errlen, dir, 0, "more than %d rdma_stat_* files", MS_MAX_FIELDS);
		}
		strcpy(names[n++], e->d_name);
	}
	closedir(d);
	if (n == 0)
		return 1;
	if (s->n == MS_MAX_RECS)
		return fail(err, errlen, dir, 0, "no room for the server's record");
	qsort(names, n, sizeof(names[0]), cmp_str);
	r = &s->r[s->n];
	memset(r, 0, sizeof(*r));
	r->kind = MS_SERVER;
	snprintf(r->device, sizeof(r->device), "%s", "svc_rdma");
	for (i = 0; i < n; i++) {
		char path[4096], *buf;
		size_t len;
		int rc;

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (ms_read_file(path, &buf, &len, err, errlen) < 0)
			return -1;
		rc = ms_parse_counter_file(buf, len, path, &r->v[i], err, errlen);
		free(buf);
		if (rc < 0)
			return -1;
		memcpy(r->names[i], names[i], sizeof(names[i]));
	}
	r->n = n;
	s->n++;
	return 0;
}
