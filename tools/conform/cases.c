/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cases.c - the case table of rpcrdma-conform: the rules the three pinned
 * drafts state for a receiver or a responder (V1 §4.3-§5.6, V2 §2.3-§5,
 * BIDI §2.4-§5.3), each with its section, keyword and the reactions that
 * pass or are allowed; one case per malformed (or error) vector of
 * tests/vectors/vectors.txt; and the --only/--skip selection.
 * docs/conformance.md lists every case and why it is graded so.
 */
#include <ctype.h>
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>
#include "conform.h"

const char *cf_draft_name(enum cf_draft d)
{
	static const char *const n[] = { "V1", "V2", "BIDI" };

	return (unsigned)d < CF_NDRAFTS ? n[d] : "?";
}

const char *cf_draft_title(enum cf_draft d)
{
	static const char *const n[] = {
		"Version One (draft-ietf-nfsv4-rfc5666bis-04)",
		"Version Two (draft-cel-nfsv4-rpcrdma-version-two-01)",
		"Bi-directional (draft-ietf-nfsv4-rpcrdma-bidirection-05)",
	};

	return (unsigned)d < CF_NDRAFTS ? n[d] : "?";
}

const char *cf_level_name(enum cf_level l)
{
	return l == CF_MUST ? "MUST" : l == CF_SHOULD ? "SHOULD" : l == CF_MAY ? "MAY" : "-";
}

const char *cf_result_name(enum cf_result r)
{
	static const char *const n[] = { "PASS", "FAIL", "ALLOWED", "SKIP", "NOTE" };

	return (unsigned)r < CF_NRESULTS ? n[r] : "?";
}

/* -------- the cases written here (not from vectors): tools/conform/
 * cases.tsv, one row each, compiled in as cf_customs (cases.awk) -------- */

static void copy(char *dst, size_t cap, const char *src)
{
	snprintf(dst, cap, "%s", src);
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

/* An RDMA_MSG vector whose Payload stream (after three empty lists) is an
 * RPC reply: msg_type 1 at payload offset 4 */
static bool cf_vector_payload_is_reply(const struct cf_vector *v)
{
	struct rpcrdma_msg m;

	rpcrdma_decode(v->bytes, v->len, &m);
	return m.header_len && m.header_len + 8 <= v->len &&
	       be32(v->bytes + m.header_len + 4) == 1;
}

/* The rule a malformed header breaks, for the reasons answered with
 * ERR_BADHEADER: the XDR errors of V1 §5.5.2 are MUST (V2 §4.2.3 points
 * there); where the receiver's reaction is only our reading of a sender's
 * MUST, the case carries the decision and a different reaction is a NOTE. */
static void badheader_rule(const struct cf_vector *v, struct cf_case *c)
{
	bool v2 = c->vers == 2;
	const uint8_t *b = v->bytes;

	c->reqs = "V1-5.5.2-badheader";
	copy(c->section, sizeof(c->section), v2 ? "§4.2.3" : "§5.5.2");
	switch (v->reason) {
	case RPCRDMA_R_MSGP:
		c->reqs = "V1-5.6.1-recv";
		copy(c->section, sizeof(c->section), "§5.6.1");
		break;
	case RPCRDMA_R_DONE:
		c->reqs = "V1-5.6.2-recv";
		copy(c->section, sizeof(c->section), "§5.6.2");
		break;
	case RPCRDMA_R_EMPTY_CHUNK:             /* a sender's MUST (§4.4.4 "one or more") */
		c->decision = "D-CHUNK-1";
		break;
	case RPCRDMA_R_BAD_POSITION:            /* a requester's MUST (§4.4.5.1) */
		c->reqs = "V1-5.5.2-badheader V1-4.4.5.1-mult4";
		c->decision = "D-CHUNK-3";
		break;
	case RPCRDMA_R_MISSING_PAYLOAD:         /* no sentence asks a receiver for it */
		c->reqs = v2 ? "V1-5.5.2-badheader V2-4.2.1-msg" : "V1-5.5.2-badheader";
		c->decision = "D-MSG-1";
		break;
	case RPCRDMA_R_DIRECTION_MISMATCH:      /* a sender's MUST (V2 §4.2.2) */
		c->reqs = "V1-5.5.2-badheader V2-4.2.2-dir";
		c->decision = "D-MSG-3";
		break;
	case RPCRDMA_R_XID_MISMATCH:            /* the §5.5.2 example; §5.2.1 MAY */
		c->reqs = "V1-5.5.2-badheader V1-5.2.1-ignore";
		c->allowed = CF_M_RPC;
		c->allowed_why = "V1 §5.2.1: the receiver MAY ignore the XID in the RPC message";
		/* a read chunk to pull first (§5.5.3: an unregistered handle
		 * costs the connection), or a payload that is an RPC reply (a
		 * receiver that ignores the RPC xid has a reply to no call):
		 * what follows is not decided by any sentence */
		if (v->len >= (v2 ? 24u : 20u) && be32(b + (v2 ? 20 : 16)) == 1) {
			c->allowed |= CF_M(CF_R_DISCONNECT);
			c->allowed_why = "V1 §5.2.1: the receiver MAY ignore the XID in the RPC "
					 "message; V1 §5.5.3: RDMA operational errors (the read chunk's "
					 "handle is not registered) are typically fatal to the connection";
		}
		if (cf_vector_payload_is_reply(v))
			c->decision = "D-MSG-2";
		break;
	default:
		break;
	}
	if (v2)
		c->draft = CF_V2;
}

bool cf_case_from_vector(const struct cf_vector *v, struct cf_case *c)
{
	uint32_t vers = v->len >= 8 ? be32(v->bytes + 4) : 0;
	bool is_error = v->len >= 16 && be32(v->bytes + 12) == RDMA_ERROR;
	const char *what = rpcrdma_reason_text(v->reason);

	memset(c, 0, sizeof(*c));
	if (v->action == RPCRDMA_ACCEPT && !is_error)
		return false;           /* a valid call or reply: no rule to test */
	/* bidi-v1-msg-cb-call-xid-mismatch sent to a responder is a forward
	 * call with mismatched xids: v1-msg-xid-mismatch again (one defect is
	 * reported once, under the rule it breaks) */
	if (!strncmp(v->name, "bidi-", 5) && v->reason == RPCRDMA_R_XID_MISMATCH)
		return false;
	copy(c->name, sizeof(c->name), v->name);
	c->kind = CF_K_VECTOR;
	c->vec = v;
	c->vers = vers == 2 ? 2 : 1;
	c->flags = c->vers == 2 ? CF_F_V2 : 0;
	c->draft = CF_V1;
	switch (v->action) {
	case RPCRDMA_REPLY_ERR_VERS:
		c->reqs = "V1-5.5.1-vers";
		copy(c->section, sizeof(c->section), "§5.5.1");
		c->pass = CF_M(CF_R_ERR_VERS);
		c->flags &= ~CF_F_V2;   /* any connection: the version is unknown */
		c->vers = 1;
		/* shorter than the 16-byte prefix: whether the version or the
		 * prefix is checked first is said nowhere (§5.1.4 decodes the
		 * prefix first) */
		if (v->len < 16)
			c->decision = "D-ERR-4";
		snprintf(c->text, sizeof(c->text), "rdma_vers %u%s: answered with ERR_VERS and the "
			 "versions supported", vers, v->len < 16 ? " in a short message" : "");
		break;
	case RPCRDMA_REPLY_BAD_HEADER:
		c->pass = CF_M(CF_R_ERR_BADHEADER);
		badheader_rule(v, c);
		/* RDMA_MSG shorter than an RPC header (xid and msg_type): a
		 * too-short message, D-MSG-1 */
		snprintf(c->text, sizeof(c->text), "%s: answered with ERR_BADHEADER", what);
		break;
	case RPCRDMA_REPLY_INVAL_OPTION:
		c->draft = CF_V2;
		c->reqs = "V2-3.1-inval";
		copy(c->section, sizeof(c->section), "§3.1");
		c->pass = CF_M(CF_R_ERR_INVAL_OPTION);
		snprintf(c->text, sizeof(c->text), "%s: answered with RDMA2_ERR_INVAL_OPTION", what);
		break;
	case RPCRDMA_DISCARD:
		c->pass = CF_M(CF_R_DISCARD);
		c->draft = c->vers == 2 ? CF_V2 : CF_V1;
		if (v->reason == RPCRDMA_R_SHORT_PREFIX) {
			/* no rule covers a message without an xid (D-ERR-4) */
			c->reqs = "BIDI02-2.4-short";
			c->decision = "D-CONF-4";
			c->flags = CF_F_FRESH;  /* an answer on it is this case's */
			copy(c->section, sizeof(c->section), "§5.5");
			snprintf(c->text, sizeof(c->text), "%u bytes, no rdma_xid to answer: dropped",
				 (unsigned)v->len);
		} else if (v->reason == RPCRDMA_R_BAD_VERS) {
			/* a well-formed RDMA_ERROR in a version the responder does
			 * not speak: §5.5.1 (reply ERR_VERS) and §5.5 (discard what
			 * cannot be decoded) both claim it; the texts conflict */
			c->draft = CF_V1;
			c->flags = 0;
			c->vers = 1;
			c->reqs = "V1-5.5.1-vers V1-5.5-discard";
			c->decision = "D-ERR-3";
			c->pass |= CF_M(CF_R_ERR_VERS);
			copy(c->section, sizeof(c->section), "§5.5.1");
			snprintf(c->text, sizeof(c->text), "RDMA_ERROR in an unknown version: ERR_VERS "
				 "(§5.5.1) or silently discarded (§5.5, D-ERR-3)");
		} else {
			/* V1 §5.5: MUST silently discard an undecodable error */
			c->reqs = "V1-5.5-discard";
			copy(c->section, sizeof(c->section), c->vers == 2 ? "§4.2.3" : "§5.5");
			snprintf(c->text, sizeof(c->text), "RDMA_ERROR that cannot be decoded (%s): "
				 "silently discarded", rpcrdma_reason_name(v->reason));
		}
		break;
	case RPCRDMA_ACCEPT:            /* an RDMA_ERROR sent to a responder */
		c->reqs = "V1-5.5-generate";
		c->decision = "D-CONF-3";
		c->draft = c->vers == 2 ? CF_V2 : CF_V1;
		copy(c->section, sizeof(c->section), c->vers == 2 ? "§4.2.3" : "§5.5");
		c->pass = CF_M(CF_R_DISCARD);
		c->allowed = CF_M(CF_R_DISCONNECT);
		c->allowed_why = "V1 §5.5: an RDMA_ERROR procedure indicates a permanent error";
		snprintf(c->text, sizeof(c->text), "a well-formed %s sent to a responder is not "
			 "answered", rpcrdma_err_name(vers, be32(v->bytes + 16)));
		break;
	}
	if (v->reason == RPCRDMA_R_MISSING_PAYLOAD)
		snprintf(c->text, sizeof(c->text), "%s: ERR_BADHEADER (our reading)", what);
	cf_case_level(c);
	return true;
}

void cf_case_level(struct cf_case *c)
{
	c->level = c->decision ? CF_NOKW : cf_req_level(cf_req_find(c->reqs));
}

size_t cf_cases_build(struct cf_case *out, size_t cap)
{
	size_t n = 0, i;
	enum cf_draft d;

	/* draft by draft: custom cases first, then the vectors */
	for (d = CF_V1; d < CF_NDRAFTS; d++) {
		for (i = 0; i < cf_ncustoms; i++) {
			if (cf_customs[i].draft != d)
				continue;
			if (out && n < cap) {
				out[n] = cf_customs[i];
				cf_case_level(&out[n]);
			}
			n++;
		}
		for (i = 0; i < cf_nvectors; i++) {
			struct cf_case c;

			if (!cf_case_from_vector(&cf_vectors[i], &c) || c.draft != d)
				continue;
			if (out && n < cap)
				out[n] = c;
			n++;
		}
	}
	return n;
}

void cf_case_section(const struct cf_case *c, char *buf, size_t cap)
{
	snprintf(buf, cap, "%s %s", cf_draft_name(c->draft), c->section);
}

/* The vector's bytes with our xid; the RPC xid follows it when it was equal
 * (and keeps its difference when it was not), so the verdict is unchanged
 * (tests/conform/test_conform.c checks every vector). */
size_t cf_vector_bytes(const struct cf_vector *v, uint32_t xid, uint8_t *out, size_t cap,
		       uint32_t *rpc_xid)
{
	struct rpcrdma_msg m;
	uint32_t old, i;

	*rpc_xid = xid;
	if (v->len > cap)
		return 0;
	memcpy(out, v->bytes, v->len);
	if (v->len < 4)
		return v->len;
	old = be32(v->bytes);
	put32(out, xid);
	/* the RPC xid, wherever the vector repeats the header's (even past
	 * the fault, where a responder that reads on still finds it) */
	for (i = 8; i + 4 <= v->len; i += 4)
		if (be32(v->bytes + i) == old)
			put32(out + i, xid);
	rpcrdma_decode(out, v->len, &m);
	if (m.has_rpc_xid)
		*rpc_xid = m.rpc_xid;
	return v->len;
}

/* -------- selection -------- */

/* lower case, no '§', ':' as a space, spaces collapsed and trimmed */
static void normalize(const char *s, char *out, size_t cap)
{
	size_t n = 0;
	bool space = false;

	for (; *s && n + 1 < cap; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == 0xc2 && (unsigned char)s[1] == 0xa7) {   /* '§' in UTF-8 */
			s++;
			continue;
		}
		if (ch == ':' || isspace(ch)) {
			space = n > 0;
			continue;
		}
		if (space && n + 2 < cap)
			out[n++] = ' ';
		space = false;
		out[n++] = (char)tolower(ch);
	}
	out[n] = '\0';
}

/* "v1 5.5" matches "v1 5.5.2" (a prefix ending at a component boundary) */
static bool prefix_match(const char *spec, const char *sec)
{
	size_t n = strlen(spec);

	return n && !strncmp(spec, sec, n) && (sec[n] == '\0' || sec[n] == '.' || sec[n] == ' ');
}

bool cf_spec_matches(const char *spec, const struct cf_case *c)
{
	char s[64], full[64], sec[64], name[64];

	if (!fnmatch(spec, c->name, 0))
		return true;
	normalize(spec, s, sizeof(s));
	cf_case_section(c, full, sizeof(full));
	normalize(full, sec, sizeof(sec));
	if (prefix_match(s, sec))
		return true;
	normalize(c->section, name, sizeof(name));  /* without the draft */
	return s[0] >= '0' && s[0] <= '9' && prefix_match(s, name);
}

int cf_select_add(const char **list, unsigned *n, char *csv)
{
	char *save = NULL, *tok;

	for (tok = strtok_r(csv, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!*tok)
			continue;
		if (*n >= 64)
			return -1;
		list[(*n)++] = tok;
	}
	return 0;
}

bool cf_selected(const struct cf_select *s, const struct cf_case *c)
{
	unsigned i;
	bool in = s->nonly == 0;

	for (i = 0; i < s->nonly && !in; i++)
		in = cf_spec_matches(s->only[i], c);
	for (i = 0; i < s->nskip && in; i++)
		in = !cf_spec_matches(s->skip[i], c);
	return in;
}
