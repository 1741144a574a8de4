/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * mstat_out.c - rpcrdma-stat's outputs (mstat.h): the totals as text, JSON
 * lines with the kernel's counter names as keys, or Prometheus text
 * exposition; the change per interval as a vmstat-like table or JSON.
 * JSON goes through the printers' writer (tools/common/json.h).
 */
#include "mstat.h"

#include <inttypes.h>
#include <string.h>

#include "json.h"
#include "outbuf.h"

static double ratio(uint64_t a, uint64_t b)
{
	return b ? (double)a / (double)b : 0.0;
}

static void json_num(struct json *j, const char *key, double v)
{
	char tmp[48];

	snprintf(tmp, sizeof(tmp), "%.6g", v);
	json_key(j, key);
	json_separate(j);
	ob_puts(j->o, tmp);
}

static uint64_t at(const struct ms_rec *r, unsigned i)
{
	return i < r->n ? r->v[i] : 0;
}

/* the derived figures of a client record's counters (or their change) */
struct derived {
	double seg_per_call, pullup_per_call, bad_per_send;
};

static struct derived derive(const uint64_t *v, unsigned n)
{
	struct derived d;
	uint64_t sends = n > MS_SENDS ? v[MS_SENDS] : 0;
	uint64_t segs = v[MS_READ_CHUNK] + v[MS_WRITE_CHUNK] + v[MS_REPLY_CHUNK];

	d.seg_per_call = ratio(segs, sends);
	d.pullup_per_call = ratio(v[MS_PULLUP], sends);
	d.bad_per_send = ratio(v[MS_BAD_REPLY], sends);
	return d;
}

static void json_derived(struct json *j, struct derived d)
{
	json_key(j, "derived");
	json_obj_begin(j);
	json_num(j, "chunk_segments_per_call", d.seg_per_call);
	json_num(j, "pullup_bytes_per_call", d.pullup_per_call);
	json_num(j, "bad_replies_per_send", d.bad_per_send);
	json_obj_end(j);
}

/* a record's JSON object, a line of its own: its head (kind, and a
 * mount's device, mountpoint, fstype, xprt, numbers, layout) ... */
static void json_rec_begin(struct json *j, struct obuf *o, const struct ms_rec *r)
{
	json_init(j, o);
	json_obj_begin(j);
	json_kstr(j, "kind", r->kind == MS_CLIENT ? "client" : "server");
	if (r->kind == MS_CLIENT) {
		const char *lay = ms_layout_name(r->n);

		json_kstr(j, "device", r->device);
		json_kstr(j, "mountpoint", r->mountpoint);
		json_kstr(j, "fstype", r->fstype);
		json_ku64(j, "xprt", r->xprt);
		json_ku64(j, "numbers", r->n);
		if (lay)
			json_kstr(j, "layout", lay);
		else
			json_knull(j, "layout");
	}
}

/* ... and its end: a mount's derived figures over the numbers v */
static void json_rec_end(struct json *j, struct obuf *o, const struct ms_rec *r, const uint64_t *v)
{
	if (r->kind == MS_CLIENT)
		json_derived(j, derive(v, r->n));
	json_obj_end(j);
	ob_putc(o, '\n');
}

static void print_value(struct obuf *o, const struct ms_rec *r, unsigned i, uint64_t v)
{
	char tmp[32];

	if (r->kind == MS_CLIENT && i == MS_IDLE_TIME)
		snprintf(tmp, sizeof(tmp), "%" PRId64, (int64_t)v);
	else
		snprintf(tmp, sizeof(tmp), "%" PRIu64, v);
	ob_puts(o, tmp);
}

static void text_totals(struct obuf *o, const struct ms_rec *r)
{
	char line[1024], tmp[24];
	unsigned i;

	if (r->kind == MS_CLIENT) {
		const char *lay = ms_layout_name(r->n);

		snprintf(line, sizeof(line), "%s on %s (%s, xprt %u: rdma, %s)\n", r->device, r->mountpoint,
			 r->fstype, r->xprt, lay ? lay : "a count no kernel we know prints; named by position");
	} else {
		snprintf(line, sizeof(line), "svc_rdma (the NFS server's RPC-over-RDMA counters)\n");
	}
	ob_puts(o, line);
	for (i = 0; i < r->n; i++) {
		snprintf(line, sizeof(line), "  %-24s ", ms_name(r, i, tmp, sizeof(tmp)));
		ob_puts(o, line);
		print_value(o, r, i, r->v[i]);
		ob_putc(o, '\n');
	}
	if (r->kind == MS_CLIENT) {
		struct derived d = derive(r->v, r->n);

		snprintf(line, sizeof(line),
			 "  derived: %.3f chunk segments per call, %.1f pull-up bytes per call, %.6f bad replies per send\n",
			 d.seg_per_call, d.pullup_per_call, d.bad_per_send);
		ob_puts(o, line);
	}
}

/* Prometheus label values: backslash, double quote and newline escaped */
static void prom_label(struct obuf *o, const char *k, const char *v, bool first)
{
	if (!first)
		ob_putc(o, ',');
	ob_puts(o, k);
	ob_puts(o, "=\"");
	for (; *v; v++) {
		if (*v == '\\' || *v == '"')
			ob_putc(o, '\\');
		if (*v == '\n') {
			ob_puts(o, "\\n");
			continue;
		}
		ob_putc(o, *v);
	}
	ob_putc(o, '"');
}

/* one metric family: every record that has counter i (kind, name) */
static void prom_family(struct obuf *o, const struct ms_sample *s, enum ms_kind kind,
			const char *name, unsigned idx, bool gauge)
{
	char head[512], tmp[32];
	unsigned k;
	bool any = false;

	for (k = 0; k < s->n; k++) {
		const struct ms_rec *r = &s->r[k];
		unsigned i = idx;

		if (r->kind != kind)
			continue;
		if (kind == MS_SERVER) {
			for (i = 0; i < r->n && strcmp(r->names[i], name) != 0; i++)
				;
		}
		if (i >= r->n)
			continue;
		if (!any) {
			const char *pre = kind == MS_CLIENT ? "rpcrdma_xprt_" : "rpcrdma_svc_";

			if (kind == MS_CLIENT)
				snprintf(head, sizeof(head),
					 "# HELP %s%s%s The kernel's %s of an NFS mount's RPC-over-RDMA transport (mountstats xprt: rdma, number %u).\n"
					 "# TYPE %s%s%s %s\n",
					 pre, name, gauge ? "" : "_total", name, idx + 1,
					 pre, name, gauge ? "" : "_total", gauge ? "gauge" : "counter");
			else
				snprintf(head, sizeof(head),
					 "# HELP %s%s_total The NFS server's %s (/proc/sys/sunrpc/svc_rdma/%s).\n"
					 "# TYPE %s%s_total counter\n",
					 pre, name, name, name, pre, name);
			ob_puts(o, head);
			any = true;
		}
		snprintf(head, sizeof(head), "%s%s%s{", kind == MS_CLIENT ? "rpcrdma_xprt_" : "rpcrdma_svc_", name,
			 gauge ? "" : "_total");
		ob_puts(o, head);
		if (kind == MS_CLIENT) {
			prom_label(o, "device", r->device, true);
			prom_label(o, "mountpoint", r->mountpoint, false);
			snprintf(tmp, sizeof(tmp), "%u", r->xprt);
			prom_label(o, "xprt", tmp, false);
		} else {
			prom_label(o, "server", "svc_rdma", true);
		}
		ob_puts(o, "} ");
		print_value(o, r, i, r->v[i]);
		ob_putc(o, '\n');
	}
}

static void prom(struct obuf *o, const struct ms_sample *s)
{
	unsigned maxn = 0, k, i;
	char tmp[24];

	for (k = 0; k < s->n; k++)
		if (s->r[k].kind == MS_CLIENT && s->r[k].n > maxn)
			maxn = s->r[k].n;
	for (i = 0; i < maxn; i++) {
		struct ms_rec probe = { .kind = MS_CLIENT };

		prom_family(o, s, MS_CLIENT, ms_client_name(i, tmp, sizeof(tmp)), i, ms_is_gauge(&probe, i));
	}
	for (k = 0; k < s->n; k++)
		if (s->r[k].kind == MS_SERVER)
			for (i = 0; i < s->r[k].n; i++)
				prom_family(o, s, MS_SERVER, s->r[k].names[i], i, false);
}

void ms_print_totals(FILE *out, enum ms_mode mode, const struct ms_sample *s)
{
	struct obuf o;
	unsigned k, i;
	char tmp[24];

	ob_init(&o, out);
	if (mode == MS_PROM) {
		prom(&o, s);
		ob_flush(&o);
		return;
	}
	for (k = 0; k < s->n; k++) {
		const struct ms_rec *r = &s->r[k];

		if (mode == MS_TEXT) {
			text_totals(&o, r);
			continue;
		}
		struct json j;

		json_rec_begin(&j, &o, r);
		json_key(&j, "counters");
		json_obj_begin(&j);
		for (i = 0; i < r->n; i++) {
			json_key(&j, ms_name(r, i, tmp, sizeof(tmp)));
			if (r->kind == MS_CLIENT && i == MS_IDLE_TIME)
				json_i64(&j, (int64_t)r->v[i]);
			else
				json_u64(&j, r->v[i]);
		}
		json_obj_end(&j);
		json_rec_end(&j, &o, r, r->v);
	}
	ob_flush(&o);
}

static const struct ms_rec *find(const struct ms_sample *s, const struct ms_rec *r)
{
	unsigned k;

	for (k = 0; k < s->n; k++) {
		const struct ms_rec *q = &s->r[k];

		if (q->kind == r->kind && q->xprt == r->xprt && strcmp(q->device, r->device) == 0 &&
		    strcmp(q->mountpoint, r->mountpoint) == 0)
			return q;
	}
	return NULL;
}

/* the table's columns (client): the kernel's names; a rate per second for
 * the calls and the bytes, the change for the rest */
static const struct { unsigned i; int rate; } cols[] = {
	{ MS_SENDS, 1 }, { MS_RECVS, 1 }, { MS_READ_CHUNK, 0 }, { MS_WRITE_CHUNK, 0 },
	{ MS_REPLY_CHUNK, 0 }, { MS_TOTAL_RDMA_REQUEST, 1 }, { MS_TOTAL_RDMA_REPLY, 1 },
	{ MS_PULLUP, 0 }, { MS_BAD_REPLY, 0 },
};

void ms_print_delta(FILE *out, enum ms_mode mode, const struct ms_sample *prev,
		    const struct ms_sample *cur, double secs, bool header)
{
	struct obuf o;
	unsigned k, i, c;
	char tmp[64], line[256];
	uint64_t d[MS_MAX_FIELDS];

	ob_init(&o, out);
	if (mode == MS_TEXT && header) {
		ob_puts(&o, "mountpoint          ");
		for (c = 0; c < sizeof(cols) / sizeof(cols[0]); c++) {
			snprintf(line, sizeof(line), " %s%s", ms_client_name(cols[c].i, tmp, sizeof(tmp)),
				 cols[c].rate ? "/s" : "");
			ob_puts(&o, line);
		}
		ob_puts(&o, " chunk_segments_per_call\n");
	}
	for (k = 0; k < cur->n; k++) {
		const struct ms_rec *r = &cur->r[k], *p = prev ? find(prev, r) : NULL;
		bool reset = false;

		for (i = 0; i < r->n; i++) {
			uint64_t before = p ? at(p, i) : 0;

			if (ms_is_gauge(r, i)) {
				d[i] = r->v[i];
			} else if (r->v[i] < before) {
				reset = true;       /* a new transport under the same name */
				d[i] = r->v[i];
			} else {
				d[i] = r->v[i] - before;
			}
		}
		if (mode == MS_TEXT) {
			if (r->kind == MS_SERVER) {
				ob_puts(&o, "svc_rdma           ");
				for (i = 0; i < r->n; i++) {
					snprintf(line, sizeof(line), " %s=%" PRIu64, r->names[i] + 10, d[i]);
					ob_puts(&o, line);
				}
				ob_putc(&o, '\n');
				continue;
			}
			snprintf(line, sizeof(line), "%-20s", r->mountpoint);
			ob_puts(&o, line);
			for (c = 0; c < sizeof(cols) / sizeof(cols[0]); c++) {
				const char *name = ms_client_name(cols[c].i, tmp, sizeof(tmp));
				int w = (int)strlen(name) + (cols[c].rate ? 3 : 1);

				if (cols[c].rate)
					snprintf(line, sizeof(line), " %*.1f", w - 1,
						 secs > 0 ? (double)d[cols[c].i] / secs : 0.0);
				else
					snprintf(line, sizeof(line), " %*" PRIu64, w - 1, d[cols[c].i]);
				ob_puts(&o, line);
			}
			snprintf(line, sizeof(line), " %23.3f%s\n", derive(d, r->n).seg_per_call,
				 reset ? " (counters restarted)" : "");
			ob_puts(&o, line);
			continue;
		}
		struct json j;

		json_rec_begin(&j, &o, r);
		json_num(&j, "seconds", secs);
		json_kbool(&j, "restarted", reset);
		json_key(&j, "delta");
		json_obj_begin(&j);
		for (i = 0; i < r->n; i++)
			if (!ms_is_gauge(r, i))
				json_ku64(&j, ms_name(r, i, tmp, sizeof(tmp)), d[i]);
		json_obj_end(&j);
		json_key(&j, "rate");
		json_obj_begin(&j);
		for (i = 0; i < r->n; i++)
			if (!ms_is_gauge(r, i))
				json_num(&j, ms_name(r, i, tmp, sizeof(tmp)), secs > 0 ? (double)d[i] / secs : 0.0);
		json_obj_end(&j);
		json_rec_end(&j, &o, r, d);
	}
	ob_flush(&o);
}
