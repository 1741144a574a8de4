/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * live_opt.c - the live tools' common transport options (live.h): one
 * table, one parser; each tool names the entries it takes, and their
 * values land in its struct xprt_opts.  The tools' own options stay
 * theirs.  Messages: "prog: NAME: 'ARG' is not ..." and the --help hint
 * (cliopt.h), exit status 2.
 */
#include <string.h>
#include <sys/socket.h>
#include "cliopt.h"
#include "live.h"
#include "numarg.h"

/* getopt values of the long-only options: above every tool's own */
enum {
	LO_VERSIONS = 0x4000, LO_CREDITS, LO_INLINE, LO_NO_PD, LO_RINV, LO_POLL,
	LO_DEBUG_LONG, LO_CONNECT_TIMEOUT,
};

/* one line an entry (tests/cli/live_opts.bash reads them) */
static const struct {
	unsigned bit;
	struct option o;
	char letter;                   /* 0: long only */
} table[] = {
	{ LIVE_O_PORT, { "port", required_argument, NULL, 'p' }, 'p' },
	{ LIVE_O_FAMILY, { NULL, 0, NULL, '4' }, '4' },
	{ LIVE_O_FAMILY, { NULL, 0, NULL, '6' }, '6' },
	{ LIVE_O_VERSIONS, { "versions", required_argument, NULL, LO_VERSIONS }, 0 },
	{ LIVE_O_CREDITS, { "credits", required_argument, NULL, LO_CREDITS }, 0 },
	{ LIVE_O_INLINE, { "inline-threshold", required_argument, NULL, LO_INLINE }, 0 },
	{ LIVE_O_NO_PD, { "no-private-data", no_argument, NULL, LO_NO_PD }, 0 },
	{ LIVE_O_RINV, { "remote-invalidate", no_argument, NULL, LO_RINV }, 0 },
	{ LIVE_O_POLL, { "poll", no_argument, NULL, LO_POLL }, 0 },
	{ LIVE_O_USE_EVENT, { "use_event", no_argument, NULL, 'e' }, 'e' },
	{ LIVE_O_DEBUG, { "debug", no_argument, NULL, 'd' }, 'd' },
	{ LIVE_O_DEBUG_LONG, { "debug", no_argument, NULL, LO_DEBUG_LONG }, 0 },
	{ LIVE_O_CONNECT_TIMEOUT, { "connect-timeout", required_argument, NULL, LO_CONNECT_TIMEOUT }, 0 },
};
#define NTABLE (sizeof(table) / sizeof(table[0]))

int live_opt_tables(const struct live_cli *c, const struct option *own_long,
		    const char *own_short, struct option *longs, size_t nlongs,
		    char *shorts, size_t nshorts)
{
	size_t nl = 0, ns = 0, i;

	if (nshorts < 2)
		return -1;
	shorts[ns++] = ':';
	for (; *own_short && ns + 1 < nshorts; own_short++)
		shorts[ns++] = *own_short;
	for (; own_long && own_long->name && nl + 1 < nlongs; own_long++)
		longs[nl++] = *own_long;
	for (i = 0; i < NTABLE; i++) {
		if (!(c->takes & table[i].bit))
			continue;
		if (table[i].o.name) {
			if (nl + 1 >= nlongs)
				return -1;
			longs[nl++] = table[i].o;
		}
		if (table[i].letter) {
			if (ns + 3 >= nshorts)
				return -1;
			shorts[ns++] = table[i].letter;
			if (table[i].o.has_arg == required_argument)
				shorts[ns++] = ':';
		}
	}
	if (*own_short || (own_long && own_long->name))
		return -1;
	memset(&longs[nl], 0, sizeof(longs[nl]));
	shorts[ns] = '\0';
	return 0;
}

static int bad(struct live_cli *c, const char *name, const char *shown,
	       const char *arg, const char *why)
{
	if (c->bad_value)
		return c->bad_value(name, arg, why);
	return cli_usage_error(c->prog, "%s: '%s' is %s", shown, arg, why);
}

/* A number within [min, max] */
static int number(struct live_cli *c, const char *name, const char *shown,
		  const char *arg, uint64_t min, uint64_t max, uint64_t *v)
{
	char why[80];

	if (!c->bad_value)
		return cli_number(c->prog, shown, arg, min, max, v);
	if (parse_u64(arg, max, v) && *v >= min)
		return 0;
	snprintf(why, sizeof(why), "not a number from %llu to %llu",
		 (unsigned long long)min, (unsigned long long)max);
	return bad(c, name, shown, arg, why);
}

/* Seconds with at most three decimals, from 0.001 to max_s, into ms */
static bool seconds_ms(const char *s, unsigned max_s, int *ms)
{
	uint64_t v = 0;
	unsigned decimals = 0;
	bool digits = false;

	for (; *s >= '0' && *s <= '9'; s++, digits = true)
		if ((v = v * 10 + (uint64_t)(*s - '0')) > max_s)
			return false;
	v *= 1000;
	if (*s == '.')
		for (s++; *s >= '0' && *s <= '9'; s++, digits = true) {
			static const unsigned scale[] = { 100, 10, 1 };

			if (decimals == 3)
				return false;
			v += (uint64_t)(*s - '0') * scale[decimals++];
		}
	if (*s || !digits || v == 0 || v > (uint64_t)max_s * 1000)
		return false;
	*ms = (int)v;
	return true;
}

static int take_arg(struct live_cli *c, int opt, const char *arg)
{
	struct xprt_opts *x = c->x;
	uint64_t v;
	int rc = 0;

	switch (opt) {
	case 'p':
		if (!(rc = number(c, "port", "-p", arg, 1, 65535, &v)))
			x->port = arg;
		return rc;
	case LO_VERSIONS:
		if (!strcmp(arg, "1"))
			x->versions = XPRT_V1;
		else if (!strcmp(arg, "2"))
			x->versions = XPRT_V2;
		else if (!strcmp(arg, "1,2") || !strcmp(arg, "2,1"))
			x->versions = XPRT_V1 | XPRT_V2;
		else
			return bad(c, "versions", "--versions", arg, "not 1, 2 or 1,2");
		return 0;
	case LO_CREDITS:
		if (!(rc = number(c, "credits", "--credits", arg, 1, LIVE_CREDITS_MAX, &v)))
			x->credits = (uint32_t)v;
		return rc;
	case LO_INLINE:
		if (!(rc = number(c, "inline-threshold", "--inline-threshold", arg,
				  LIVE_INLINE_MIN, LIVE_INLINE_MAX, &v)))
			x->inline_recv = x->inline_send = (uint32_t)v;
		return rc;
	case LO_CONNECT_TIMEOUT:
		if (!seconds_ms(arg, LIVE_CONNECT_TIMEOUT_MAX_S, &x->timeout_ms))
			return bad(c, "connect-timeout", "--connect-timeout", arg,
				   "not a number of seconds from 0.001 to 3600 "
				   "(at most three decimals)");
		c->connect_timeout_given = true;
		return 0;
	}
	return -1;
}

int live_opt_take(struct live_cli *c, int opt, const char *arg)
{
	size_t i;

	for (i = 0; i < NTABLE; i++)
		if ((c->takes & table[i].bit) && table[i].o.val == opt)
			break;
	if (i == NTABLE)
		return -1;
	switch (opt) {
	case '4': c->x->family = AF_INET; return 0;
	case '6': c->x->family = AF_INET6; return 0;
	case LO_NO_PD: c->x->no_private_data = true; return 0;
	case LO_RINV: c->x->remote_invalidate = true; return 0;
	case LO_POLL: c->x->busy_poll = true; return 0;
	case 'e': c->x->busy_poll = false; return 0;
	case 'd': case LO_DEBUG_LONG: c->x->debug++; return 0;
	}
	return take_arg(c, opt, arg);
}

/* getopt's letters of the own long options that have one ("size=S":
 * "S:"), then `extra`, into out[n]: 0, or -1 when it does not fit */
static int own_letters(const struct option *own, const char *extra, char *out, size_t n)
{
	size_t k = 0;

	for (; own->name; own++) {
		if (own->val >= 256)
			continue;
		if (k + 4 > n)
			return -1;
		out[k++] = (char)own->val;
		if (own->has_arg != no_argument)
			out[k++] = ':';
		if (own->has_arg == optional_argument)
			out[k++] = ':';
	}
	if (extra && strlen(extra) >= n - k)
		return -1;
	strcpy(out + k, extra ? extra : "");
	return 0;
}

int live_getopt(struct live_cli *c, const struct live_parse *p, int argc,
		char *argv[])
{
	struct option own[48], longs[64];
	char shorts[128], own_short[96];
	FILE *out = p->out ? p->out : stdout;
	const char *version = p->version ? p->version : RPCRDMA_TOOLS_VERSION;
	size_t n;
	int opt, rc;

	if (cli_longs(p->own_names, own, 46) < 0 ||
	    own_letters(own, p->own_short, own_short, sizeof(own_short)) < 0 ||
	    live_opt_tables(c, own, own_short, longs, 62, shorts,
			    sizeof(shorts) - 1) < 0)
		return cli_usage_error(c->prog, "internal: the option tables do not fit");
	for (n = 0; longs[n].name; n++)
		;
	/* -h, --help and --version: every live tool's */
	if (cli_longs("help=h version", &longs[n], 3) != 2)
		return cli_usage_error(c->prog, "internal: the option tables do not fit");
	strcat(shorts, "h");
	opterr = 0;
	optind = 1;
	while ((opt = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
		if (opt == 'h') {
			p->usage(out);
			return 0;
		}
		if (opt == CLI_L_VERSION) {
			fprintf(out, "%s (rpcrdma-tools) %s\n", c->prog, version);
			return 0;
		}
		if (opt == '?' || opt == ':')
			return cli_getopt_failure(c->prog, opt, argv);
		rc = live_opt_take(c, opt, optarg);
		if (rc < 0)
			rc = p->own(opt, optarg, p->ctx);
		if (rc)
			return rc;
	}
	return -1;
}
