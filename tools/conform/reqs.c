/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * reqs.c - the requirements catalogue (docs/requirements.tsv, compiled in by
 * reqs.awk): look a requirement up by id, and its keyword's level.
 */
#include <string.h>
#include "conform.h"

const struct cf_req *cf_req_find(const char *id)
{
	size_t i, n;

	if (!id)
		return NULL;
	n = strcspn(id, " ");
	for (i = 0; i < cf_nreqs; i++)
		if (strlen(cf_reqs[i].id) == n && !strncmp(cf_reqs[i].id, id, n))
			return &cf_reqs[i];
	return NULL;
}

enum cf_level cf_req_level(const struct cf_req *q)
{
	if (!q)
		return CF_NOKW;
	if (!strncmp(q->keyword, "MUST", 4) || !strcmp(q->keyword, "REQUIRED"))
		return CF_MUST;
	if (!strncmp(q->keyword, "SHOULD", 6))
		return CF_SHOULD;
	if (!strcmp(q->keyword, "MAY"))
		return CF_MAY;
	return CF_NOKW;
}
