/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tparse.h - one line of trace text as an event: the three forms the tools
 * print (the tracefs trace/trace_pipe text, `trace-cmd report`, `perf
 * script`) all put "SECONDS.FRACTION: [SYSTEM:]EVENT: FIELDS" after the
 * task, pid and CPU; that is what is looked for, and the fields are then
 * read by key=value (and the few positional forms the rpcrdma events print:
 * "task:ID@CLIENT", "LENGTH@0xOFFSET:0xHANDLE", "(STATUS/0xVENDOR)").
 * Nothing here allocates; every read is bounded by the line.
 */
#ifndef RPCRDMA_TPARSE_H
#define RPCRDMA_TPARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TP_NAME_MAX 64

struct tp_event {
	uint64_t ts_ns;                 /* the time stamp, nanoseconds */
	char name[TP_NAME_MAX];         /* without a "rpcrdma:" system prefix */
	const char *f;                  /* the fields text (not NUL-terminated) */
	size_t flen;
};

/* 1: an event, 0: a line that carries none (a header, a comment, blank),
 * -1: a line that looked like an event but is malformed (a time stamp
 * that does not parse, a name too long) */
int tp_line(const char *line, size_t len, struct tp_event *ev);

/* key=value: the value after "key=" (key at the start of the fields or
 * after a space, '(' or ','), up to a space, ',', ')' or the end;
 * false when absent */
bool tp_kv(const struct tp_event *ev, const char *key, const char **v, size_t *vl);
/* the same as a number (decimal, or hex with 0x), at most max */
bool tp_kv_u64(const struct tp_event *ev, const char *key, uint64_t max, uint64_t *out);
/* a signed decimal (ret=-5, status=-107) */
bool tp_kv_i64(const struct tp_event *ev, const char *key, int64_t *out);
/* "task:ID@CLIENT": eight hex digits each (6.1) or decimal (older) */
bool tp_task(const struct tp_event *ev, uint32_t *task, uint32_t *client);
/* "N credits" (older kernels) or credits=N */
bool tp_credits(const struct tp_event *ev, uint32_t *credits);
/* "LENGTH@0xOFFSET:0xHANDLE" (a segment or an MR) */
bool tp_segment(const struct tp_event *ev, uint32_t *length, uint64_t *offset, uint32_t *handle);
/* "(STATUS/0xVENDOR)" of a completion */
bool tp_status(const struct tp_event *ev, uint32_t *status, uint32_t *vendor);
/* xprtrdma_marshal's "xdr=H/P/T RTYPE/WTYPE": the two chunk types as the
 * kernel names them ("inline", "pullup", "mapped", "read list",
 * "*read list", "write list", "reply chunk") copied into r and w */
bool tp_chunktypes(const struct tp_event *ev, char *r, size_t rl, char *w, size_t wl);
/* a word of the fields, e.g. "more"/"last" in "(last)" */
bool tp_has_word(const struct tp_event *ev, const char *word);
/* a decimal or 0x hex number of [s, s+n) */
bool tp_num(const char *s, size_t n, uint64_t max, uint64_t *out);

#endif
