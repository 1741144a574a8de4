/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ping_report.c - printing the probes' findings: text, one section heading
 * and one indented line per item ("  label   result: detail  [spec:
 * verdict]"); or JSON, one {"type":"probe","section","item","result",...}
 * object per item, with the xid sent and the header of the peer's answer
 * so that a capture of the same run confirms every line.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "ping_probe.h"

void probe_item_init(struct probe_item *it, const char *section,
		     const char *key, const char *label)
{
	memset(it, 0, sizeof(*it));
	it->section = section;
	it->key = key;
	it->label = label;
}

void item_num(struct probe_item *it, const char *k, uint64_t v)
{
	if (it->nnums < ITEM_MAX_NUMS) {
		it->nums[it->nnums].k = k;
		it->nums[it->nnums].v = v;
		it->nnums++;
	}
}

void item_text(struct probe_item *it, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(it->text, sizeof(it->text), fmt, ap);
	va_end(ap);
}

void raw_describe(char *b, size_t cap, const struct ping_raw *r)
{
	int n = snprintf(b, cap, "%s", rpcrdma_proc_name(r->vers, r->proc));

	if (n < 0 || (size_t)n >= cap)
		return;
	if (r->has_err)
		n += snprintf(b + n, cap - (size_t)n, " %s",
			      rpcrdma_err_name(r->vers, r->err));
	if (n < 0 || (size_t)n >= cap)
		return;
	n += snprintf(b + n, cap - (size_t)n, " vers=%u credits=%u", r->vers,
		      r->credit);
	if (r->has_vrange && n >= 0 && (size_t)n < cap)
		snprintf(b + n, cap - (size_t)n, " range %u..%u", r->low, r->high);
}

static void json_reply(struct json *j, const struct ping_raw *r)
{
	json_key(j, "reply");
	json_obj_begin(j);
	json_ku64(j, "xid", r->xid);
	json_ku64(j, "vers", r->vers);
	json_ku64(j, "credits", r->credit);
	json_ku64(j, "proc", r->proc);
	json_kstr(j, "proc_name", rpcrdma_proc_name(r->vers, r->proc));
	if (r->has_err) {
		json_kstr(j, "err", rpcrdma_err_name(r->vers, r->err));
		json_ku64(j, "err_code", r->err);
	}
	if (r->has_vrange) {
		json_ku64(j, "low", r->low);
		json_ku64(j, "high", r->high);
	}
	json_ku64(j, "length", r->len);
	json_obj_end(j);
}

void report_item(struct probe_report *r, const struct probe_item *it)
{
	struct obuf *o = &r->out.o;
	unsigned i;

	if (r->out.json) {
		struct json j;

		json_init(&j, o);
		json_obj_begin(&j);
		json_kstr(&j, "type", "probe");
		json_kstr(&j, "section", it->section);
		json_kstr(&j, "item", it->key);
		json_kstr(&j, "result", it->result);
		if (it->has_xid)
			json_ku64(&j, "xid", it->xid);
		for (i = 0; i < it->nnums; i++)
			json_ku64(&j, it->nums[i].k, it->nums[i].v);
		if (it->reply)
			json_reply(&j, it->reply);
		if (it->has_spec) {
			json_kstr(&j, "spec", rpcrdma_action_name(it->spec));
			json_kstr(&j, "spec_reason", rpcrdma_reason_name(it->spec_reason));
		}
		json_kstr(&j, "text", it->text);
		json_obj_end(&j);
		ob_putc(o, '\n');
		ping_out_flush(&r->out);
		return;
	}
	if (!r->section || strcmp(r->section, it->section)) {
		r->section = it->section;
		ob_puts(o, it->section);
		ob_putc(o, '\n');
	}
	ob_puts(o, "  ");
	ob_putsw(o, it->label, 20);
	ob_putc(o, ' ');
	ob_puts(o, it->result);
	if (it->text[0]) {
		ob_puts(o, ": ");
		ob_puts(o, it->text);
	}
	if (it->has_xid) {
		ob_puts(o, " (xid ");
		ob_hex(o, it->xid, 8);
		ob_putc(o, ')');
	}
	if (it->has_spec) {
		ob_puts(o, " [spec: ");
		ob_puts(o, rpcrdma_action_name(it->spec));
		ob_putc(o, ']');
	}
	ob_putc(o, '\n');
	ping_out_flush(&r->out);
}
