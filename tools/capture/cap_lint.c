/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cap_lint.c - reporting one protocol violation for --check (docs/capture.md
 * lists every check with its spec section): text "frame N: check: text
 * [section]" or, with --json, {"frame":N,"check":..,"text":..,"section":..}.
 * Outside --check, CRC failures and cut frames still go to stderr.
 */
#include <stdarg.h>
#include <string.h>
#include "cap_state.h"

static void json_str(FILE *out, const char *s)
{
	putc('"', out);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		if (ch == '"' || ch == '\\')
			fprintf(out, "\\%c", ch);
		else if (ch < 0x20)
			fprintf(out, "\\u%04x", ch);
		else
			putc(ch, out);
	}
	putc('"', out);
}

void cap_lint(struct cap_state *st, uint64_t frame, const char *check,
	      const char *section, const char *fmt, ...)
{
	char text[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	st->violations++;
	st->stats.total.violations++;
	if (!st->o->check) {
		if (!strcmp(check, "crc-error") || !strcmp(check, "truncated-frame")) {
			struct cap_frame f = { .num = frame };
			cap_frame_error(st, &f, "%s [%s]", text, section);
		}
		return;
	}
	if (st->o->json) {
		fprintf(st->out, "{\"frame\":%llu,\"check\":", (unsigned long long)frame);
		json_str(st->out, check);
		fputs(",\"text\":", st->out);
		json_str(st->out, text);
		fputs(",\"section\":", st->out);
		json_str(st->out, section);
		fputs("}\n", st->out);
	} else {
		fprintf(st->out, "frame %llu: %s: %s [%s]\n",
			(unsigned long long)frame, check, text, section);
	}
}
