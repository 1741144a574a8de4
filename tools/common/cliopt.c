/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cliopt.c - shared pieces of the tools' option parsers (cliopt.h).
 */
#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "cliopt.h"
#include "numarg.h"

int cli_usage_error(const char *prog, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry '%s --help' for more information.\n", prog);
	return CLI_EXIT_USAGE;
}

int cli_getopt_failure(const char *prog, int c, char *const argv[])
{
	const char *arg = argv[optind - 1];
	bool letter = optopt && optopt < 256 && arg[1] != '-';

	if (c == ':')
		return letter ? cli_usage_error(prog, "option -%c needs a value", optopt)
			      : cli_usage_error(prog, "option %s needs a value", arg);
	return letter ? cli_usage_error(prog, "unknown option -%c", optopt)
		      : cli_usage_error(prog, "unknown or ambiguous option '%s'", arg);
}

int cli_number(const char *prog, const char *name, const char *arg,
	       uint64_t min, uint64_t max, uint64_t *out)
{
	if (parse_u64(arg, max, out) && *out >= min)
		return 0;
	return cli_usage_error(prog, "%s: '%s' is not a number from %llu to %llu",
			       name, arg, (unsigned long long)min,
			       (unsigned long long)max);
}

int cli_number32(const char *prog, const char *name, const char *arg,
		 uint32_t min, uint32_t max, uint32_t *out)
{
	uint64_t v;
	int rc = cli_number(prog, name, arg, min, max, &v);

	if (!rc)
		*out = (uint32_t)v;
	return rc;
}

#define CLI_L_ROW_N(id, name) { name, no_argument, NULL, CLI_L_##id },
#define CLI_L_ROW_R(id, name) { name, required_argument, NULL, CLI_L_##id },
#define CLI_L_ROW_O(id, name) { name, optional_argument, NULL, CLI_L_##id },
static const struct option long_names[] = {
	CLI_LONG_NAMES(CLI_L_ROW_N, CLI_L_ROW_R, CLI_L_ROW_O)
};
#define NLONG (sizeof(long_names) / sizeof(long_names[0]))

static const char *const kinds[] = {
	[no_argument] = "none", [required_argument] = "required",
	[optional_argument] = "optional",
};

/* the entry of the name spec[0..len) (of kind `kind`[0..klen) when klen):
 * its index, or NLONG */
static size_t long_entry(const char *spec, size_t len, const char *kind, size_t klen)
{
	size_t i;

	for (i = 0; i < NLONG; i++) {
		const char *k = kinds[long_names[i].has_arg];

		if (strlen(long_names[i].name) == len && !strncmp(long_names[i].name, spec, len) &&
		    (!klen || (strlen(k) == klen && !strncmp(k, kind, klen))))
			break;
	}
	return i;
}

int cli_longs(const char *spec, struct option *out, size_t n)
{
	size_t k = 0, i, len, klen;
	const char *end, *kind;

	while (*spec) {
		if (*spec == ' ') {
			spec++;
			continue;
		}
		end = spec + strcspn(spec, " ");
		len = strcspn(spec, " =/");
		kind = spec + len + (spec[len] == '/');
		klen = spec[len] == '/' ? strcspn(kind, " =") : 0;
		i = long_entry(spec, len, kind, klen);
		if (i == NLONG || k + 1 >= n)
			return -1;
		out[k] = long_names[i];
		spec = kind + klen;
		if (spec < end) {              /* "=x": the tool's letter */
			if (end - spec != 2)
				return -1;
			out[k].val = (unsigned char)spec[1];
		}
		k++;
		spec = end;
	}
	memset(&out[k], 0, sizeof(out[k]));
	return (int)k;
}
