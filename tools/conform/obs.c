/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * obs.c - what a case's runner records in its observation: a skip (and
 * why), or the first fault found with the requirement it breaks.  A leaf:
 * every runner calls it, it calls nothing of the tool.
 */
#include <stdarg.h>
#include <stdio.h>
#include "run.h"

void cf_skip(struct cf_obs *o, const char *fmt, ...)
{
	va_list ap;

	o->skipped = true;
	va_start(ap, fmt);
	vsnprintf(o->skip_why, sizeof(o->skip_why), fmt, ap);
	va_end(ap);
}

void cf_fault(struct cf_obs *o, const char *req, const char *fmt, ...)
{
	va_list ap;

	if (o->fault[0])
		return;                 /* the first fault found is reported */
	o->fault_req = req;
	va_start(ap, fmt);
	vsnprintf(o->fault, sizeof(o->fault), fmt, ap);
	va_end(ap);
}
