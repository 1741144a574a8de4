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
	return l == CF_MUST ? "MUST" : l == CF_SHOULD ? "SHOULD" : "MAY";
}

const char *cf_result_name(enum cf_result r)
{
	static const char *const n[] = { "PASS", "FAIL", "ALLOWED", "SKIP" };

	return (unsigned)r < CF_NRESULTS ? n[r] : "?";
}

/* -------- the cases written here (not from vectors) -------- */
#define RPC CF_M_RPC
#define M CF_M
struct custom {
	const char *name;
	enum cf_draft draft;
	const char *section;
	enum cf_level level;
	const char *text;
	enum cf_kind kind;
	unsigned flags;
	uint32_t vers, pass, allowed;
	const char *allowed_why;
};

#define CHUNK_MISMATCH_WHY "V1 §8.1.1: a responder that takes the mismatch for a " \
	"DDP-eligibility violation does not process the call and answers ERR_BADHEADER (§5.5.2)"

static const struct custom customs[] = {
	/* ---- Version One ---- */
	{ "reply-grant-nonzero", CF_V1, "§4.3.1", CF_MUST,
	  "the credit value a reply grants is not zero",
	  CF_K_REPLY_GRANT, CF_F_CALL, 1, RPC, 0, NULL },
	{ "reply-xid", CF_V1, "§5.2.1", CF_MUST,
	  "a reply's rdma_xid is the call's xid and its RPC message's xid",
	  CF_K_REPLY_XID, CF_F_CALL, 1, RPC, 0, NULL },
	{ "inline-1024", CF_V1, "§4.3.3", CF_MUST,
	  "a 1024-byte call (every receiver's inline threshold) is received and answered",
	  CF_K_INLINE_MIN, CF_F_CALL | CF_F_DDP, 1, RPC, 0, NULL },
	{ "inline-over", CF_V1, "§4.3", CF_SHOULD,
	  "a Send larger than the responder's receive buffers costs that connection, nothing more",
	  CF_K_INLINE_OVER, CF_F_FRESH | CF_F_DDP, 1, M(CF_R_DISCONNECT),
	  RPC | M(CF_R_ERR_BADHEADER),
	  "V1 §4.3.3: a receiver MAY support a larger inline threshold than it announced" },
	{ "credit-overrun", CF_V1, "§4.3.1", CF_SHOULD,
	  "calls beyond the credit grant are handled, answered with an RPC error, or end the connection",
	  CF_K_CREDIT_OVERRUN, CF_F_FRESH | CF_F_CALL, 1, M(CF_R_REPLY),
	  M(CF_R_RPC_ERROR) | M(CF_R_GARBAGE_ARGS) | M(CF_R_DISCONNECT),
	  "V1 §4.3.1: the RDMA layer may end the connection; the responder MAY handle the "
	  "excess or return an RPC layer error" },
	{ "read-chunk-longer", CF_V1, "§4.4.4.1", CF_SHOULD,
	  "a read chunk longer than the byte count left in the Payload stream: GARBAGE_ARGS (§5.5.2)",
	  CF_K_CHUNK_LONG, CF_F_FRESH | CF_F_CALL | CF_F_DDP, 1, M(CF_R_GARBAGE_ARGS),
	  M(CF_R_ERR_BADHEADER), CHUNK_MISMATCH_WHY },
	{ "read-chunk-shorter", CF_V1, "§4.4.4.1", CF_SHOULD,
	  "a read chunk shorter than the byte count left in the Payload stream: GARBAGE_ARGS (§5.5.2)",
	  CF_K_CHUNK_SHORT, CF_F_FRESH | CF_F_CALL | CF_F_DDP, 1, M(CF_R_GARBAGE_ARGS),
	  M(CF_R_ERR_BADHEADER), CHUNK_MISMATCH_WHY },
	{ "read-chunk-roundup", CF_V1, "§4.4.5.1", CF_MUST,
	  "a read chunk of odd length sent without XDR round-up is accepted (the responder pads it)",
	  CF_K_CHUNK_ROUNDUP, CF_F_FRESH | CF_F_CALL | CF_F_DDP, 1, M(CF_R_REPLY), 0, NULL },
	{ "read-chunk-bad-handle", CF_V1, "§5.5.3", CF_SHOULD,
	  "an RDMA Read of a segment that is not registered ends the connection or is answered with RDMA_ERROR",
	  CF_K_CHUNK_BADHANDLE, CF_F_FRESH | CF_F_CALL | CF_F_DDP, 1,
	  M(CF_R_DISCONNECT) | M(CF_R_ERR_BADHEADER), M(CF_R_GARBAGE_ARGS) | M(CF_R_RPC_ERROR),
	  "V1 §5.5.2: the responder MAY report a chunk it cannot use with an RPC error" },
	{ "read-chunk-not-ddp-eligible", CF_V1, "§8.1.1", CF_MUST,
	  "a read chunk that holds a data item that is not DDP-eligible is not processed (§5.5.2)",
	  CF_K_CHUNK_NOT_DDP, CF_F_FRESH | CF_F_CALL | CF_F_DDP, 1, M(CF_R_ERR_BADHEADER),
	  M(CF_R_GARBAGE_ARGS),
	  "V1 §5.5.2: a responder MAY report a non-DDP-eligible item in a chunk with GARBAGE_ARGS" },
	{ "write-chunk-used", CF_V1, "§5.3.2", CF_MUST,
	  "a DDP-eligible result goes into the write chunk provided, its length in the reply's write list",
	  CF_K_WRITE_USED, CF_F_FRESH | CF_F_CALL | CF_F_ECHO, 1, M(CF_R_REPLY), 0, NULL },
	{ "write-chunk-segment-count", CF_V1, "§4.4.6", CF_MUST,
	  "the reply's write chunk has as many segments as the call's",
	  CF_K_WRITE_SEGCOUNT, CF_F_FRESH | CF_F_CALL | CF_F_ECHO, 1, M(CF_R_REPLY), 0, NULL },
	{ "write-chunk-unfilled-zero", CF_V1, "§4.4.6", CF_SHOULD,
	  "a write chunk segment the responder did not fill has length zero in the reply",
	  CF_K_WRITE_UNFILLED, CF_F_FRESH | CF_F_CALL | CF_F_ECHO, 1, M(CF_R_REPLY), 0, NULL },
	{ "write-chunk-no-pad", CF_V1, "§4.4.6.1", CF_MUST,
	  "no XDR pad bytes are written into a write chunk",
	  CF_K_WRITE_NOPAD, CF_F_FRESH | CF_F_CALL | CF_F_ECHO, 1, M(CF_R_REPLY), 0, NULL },
	{ "write-chunk-unused", CF_V1, "§4.4.6.2", CF_MUST,
	  "an unused write chunk comes back with every segment length zero",
	  CF_K_WRITE_UNUSED, CF_F_FRESH | CF_F_CALL, 1, RPC, 0, NULL },
	{ "reply-chunk-long", CF_V1, "§4.5.3", CF_MUST,
	  "a reply larger than the requester's inline threshold goes into the reply chunk provided",
	  CF_K_REPLY_CHUNK, CF_F_FRESH | CF_F_CALL | CF_F_ECHO, 1, M(CF_R_REPLY), 0, NULL },
	{ "reply-chunk-short", CF_V1, "§5.3.3", CF_MUST,
	  "a short reply to a call that offers a reply chunk is answered (inline or in the chunk)",
	  CF_K_REPLY_CHUNK_SHORT, CF_F_FRESH | CF_F_CALL, 1, RPC, 0, NULL },
	/* ---- Version Two ---- */
	{ "v2-negotiation", CF_V2, "§5", CF_MUST,
	  "a first Version Two call is answered in Version Two (§5.1) or with ERR_VERS and the range (§5.2)",
	  CF_K_V2_NEGOTIATE, CF_F_CALL, 2, RPC | M(CF_R_ERR_VERS), 0, NULL },
	{ "v1-reply-version", CF_V2, "§5.3", CF_MUST,
	  "a Version One call is answered in Version One",
	  CF_K_REPLY_VERS, CF_F_CALL, 1, RPC, 0, NULL },
	{ "v2-reply-version", CF_V2, "§5.3", CF_MUST,
	  "a Version Two call is answered in Version Two",
	  CF_K_REPLY_VERS, CF_F_CALL | CF_F_V2, 2, RPC, 0, NULL },
	{ "v2-reply-direction", CF_V2, "§4.2.2", CF_MUST,
	  "a Version Two reply's rdma_direction is REPLY, as its RPC msg_type",
	  CF_K_V2_REPLY_DIR, CF_F_CALL | CF_F_V2, 2, RPC, 0, NULL },
	{ "v2-inline-4096", CF_V2, "§2.3", CF_MUST,
	  "a 4096-byte Version Two call (the V2 inline threshold) is received and answered",
	  CF_K_V2_INLINE_MIN, CF_F_CALL | CF_F_V2 | CF_F_DDP, 2, RPC, 0, NULL },
	/* ---- Bi-directional ---- */
	{ "xid-reuse", CF_BIDI, "§2.4", CF_SHOULD,
	  "a call that reuses the xid of a completed call is answered again",
	  CF_K_XID_REUSE, CF_F_CALL, 1, RPC, 0, NULL },
	{ "bidi-xid-spaces", CF_BIDI, "§2.4.1", CF_SHOULD,
	  "a forward call with the xid of an outstanding backward call is a transaction of its own",
	  CF_K_BIDI_XID_SPACES, CF_F_FRESH | CF_F_CALL | CF_F_ECHO, 1, M(CF_R_REPLY), 0, NULL },
	{ "bidi-backward-call", CF_BIDI, "§5.1", CF_MUST,
	  "a backward call carries the connection's rdma_vers, a non-zero credit value (V1 §7.2.1) "
	  "and its xid in the RPC header",
	  CF_K_BIDI_CALL_FORM, CF_F_FRESH | CF_F_CALL | CF_F_ECHO, 1, M(CF_R_REPLY), 0, NULL },
	{ "bidi-reply-chunks", CF_BIDI, "§5.3", CF_SHOULD,
	  "a backward-direction reply that carries a write chunk is no header error (chunks MAY be used)",
	  CF_K_BIDI_REPLY_CHUNKS, 0, 1, M(CF_R_DISCARD), M(CF_R_ERR_BADHEADER),
	  "BIDI §5.3: a peer without backward-direction chunks answers ERR_CHUNK (= ERR_BADHEADER)" },
};

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

/* The rule a malformed header breaks, for the reasons answered with
 * ERR_BADHEADER: the XDR errors of V1 §5.5.2 are MUST; the rest are our
 * reading of a sender's MUST (docs/spec-decisions.md) and graded SHOULD. */
static void badheader_rule(const struct cf_vector *v, struct cf_case *c)
{
	bool v2 = c->vers == 2;

	c->level = CF_MUST;
	copy(c->section, sizeof(c->section), v2 ? "§4.2.3" : "§5.5.2");
	switch (v->reason) {
	case RPCRDMA_R_MSGP:
		c->level = CF_SHOULD;
		copy(c->section, sizeof(c->section), "§5.6.1");
		break;
	case RPCRDMA_R_DONE:
		c->level = CF_SHOULD;
		copy(c->section, sizeof(c->section), "§5.6.2");
		break;
	case RPCRDMA_R_EMPTY_CHUNK:             /* D-CHUNK-1 */
		c->level = CF_SHOULD;
		copy(c->section, sizeof(c->section), "§4.4.4");
		break;
	case RPCRDMA_R_BAD_POSITION:            /* D-CHUNK-3 */
		c->level = CF_SHOULD;
		copy(c->section, sizeof(c->section), "§4.4.5.1");
		break;
	case RPCRDMA_R_MISSING_PAYLOAD:         /* D-MSG-1 */
		c->level = CF_SHOULD;
		copy(c->section, sizeof(c->section), v2 ? "§4.2.1" : "§5.2.4");
		break;
	case RPCRDMA_R_DIRECTION_MISMATCH:
		c->level = CF_SHOULD;
		copy(c->section, sizeof(c->section), "§4.2.2");
		break;
	case RPCRDMA_R_XID_MISMATCH:            /* the §5.5.2 example; §5.2.1 MAY */
		c->allowed = CF_M_RPC;
		c->allowed_why = "V1 §5.2.1: the receiver MAY ignore the XID in the RPC message";
		if (!strncmp(v->name, "bidi-", 5)) {
			c->draft = CF_BIDI;
			copy(c->section, sizeof(c->section), "§5.1");
		}
		break;
	default:
		break;
	}
	if (v2 && c->draft != CF_BIDI)
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
	copy(c->name, sizeof(c->name), v->name);
	c->kind = CF_K_VECTOR;
	c->vec = v;
	c->vers = vers == 2 ? 2 : 1;
	c->flags = c->vers == 2 ? CF_F_V2 : 0;
	c->draft = CF_V1;
	switch (v->action) {
	case RPCRDMA_REPLY_ERR_VERS:
		c->level = CF_MUST;
		copy(c->section, sizeof(c->section), "§5.5.1");
		c->pass = CF_M(CF_R_ERR_VERS);
		c->flags &= ~CF_F_V2;   /* any connection: the version is unknown */
		c->vers = 1;
		snprintf(c->text, sizeof(c->text), "rdma_vers %u: answered with ERR_VERS and the "
			 "versions supported", vers);
		break;
	case RPCRDMA_REPLY_BAD_HEADER:
		c->pass = CF_M(CF_R_ERR_BADHEADER);
		badheader_rule(v, c);
		snprintf(c->text, sizeof(c->text), "%s: answered with ERR_BADHEADER", what);
		break;
	case RPCRDMA_REPLY_INVAL_OPTION:
		c->draft = CF_V2;
		c->level = CF_MUST;
		copy(c->section, sizeof(c->section), "§3.1");
		c->pass = CF_M(CF_R_ERR_INVAL_OPTION);
		snprintf(c->text, sizeof(c->text), "%s: answered with RDMA2_ERR_INVAL_OPTION", what);
		break;
	case RPCRDMA_DISCARD:
		c->pass = CF_M(CF_R_DISCARD);
		c->draft = c->vers == 2 ? CF_V2 : CF_V1;
		if (v->reason == RPCRDMA_R_SHORT_PREFIX) {
			/* no rule covers a message without an xid (D-ERR-4) */
			c->level = CF_SHOULD;
			c->flags = 0;
			copy(c->section, sizeof(c->section), "§5.5");
			c->allowed = CF_M_ERR | CF_M(CF_R_DISCONNECT);
			c->allowed_why = "no rule covers a message too short to carry an xid "
					 "(docs/spec-decisions.md D-ERR-4)";
			snprintf(c->text, sizeof(c->text), "%u bytes, no rdma_xid to answer: dropped",
				 (unsigned)v->len);
		} else {
			/* V1 §5.5: MUST silently discard an undecodable error */
			c->level = CF_MUST;
			copy(c->section, sizeof(c->section), c->vers == 2 ? "§4.2.3" : "§5.5");
			if (v->reason == RPCRDMA_R_BAD_VERS) {
				c->draft = CF_V1;   /* D-ERR-3 */
				c->flags = 0;
				c->vers = 1;
			}
			snprintf(c->text, sizeof(c->text), "RDMA_ERROR that cannot be decoded (%s): "
				 "silently discarded", rpcrdma_reason_name(v->reason));
		}
		break;
	case RPCRDMA_ACCEPT:            /* an RDMA_ERROR sent to a responder */
		c->level = CF_SHOULD;
		c->draft = c->vers == 2 ? CF_V2 : CF_V1;
		copy(c->section, sizeof(c->section), c->vers == 2 ? "§4.2.3" : "§5.5");
		c->pass = CF_M(CF_R_DISCARD);
		c->allowed = CF_M(CF_R_DISCONNECT);
		c->allowed_why = "V1 §5.5: an RDMA_ERROR indicates a permanent error";
		snprintf(c->text, sizeof(c->text), "a well-formed %s sent to a responder is not "
			 "answered", rpcrdma_err_name(vers, be32(v->bytes + 16)));
		break;
	}
	return true;
}

size_t cf_cases_build(struct cf_case *out, size_t cap)
{
	size_t n = 0, i;
	enum cf_draft d;

	/* draft by draft: custom cases first, then the vectors */
	for (d = CF_V1; d < CF_NDRAFTS; d++) {
		for (i = 0; i < sizeof(customs) / sizeof(customs[0]); i++) {
			const struct custom *k = &customs[i];
			struct cf_case *c;

			if (k->draft != d)
				continue;
			if (out && n < cap) {
				c = &out[n];
				memset(c, 0, sizeof(*c));
				copy(c->name, sizeof(c->name), k->name);
				c->draft = k->draft;
				copy(c->section, sizeof(c->section), k->section);
				c->level = k->level;
				copy(c->text, sizeof(c->text), k->text);
				c->kind = k->kind;
				c->flags = k->flags;
				c->vers = k->vers;
				c->pass = k->pass;
				c->allowed = k->allowed;
				c->allowed_why = k->allowed_why;
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
