/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * grade.c - what a responder did with a case's message, against what the
 * rule requires (pure: no I/O).  An answer is judged by libcodec first: an
 * answer the codec rejects is itself a violation.  An error reply must carry
 * the failing message's rdma_xid and rdma_vers (V1 §5.5), an ERR_VERS the
 * versions the responder does support (V1 §5.5.1), and no Payload stream
 * (V1 §5.1.4 Table 1, V2 §4.2.1).  A crash, a hung connection and a call
 * dropped without closing the connection (a lost reply, V1 §5.5.4) fail as
 * MUST whatever the case's keyword.
 */
#include <stdio.h>
#include <string.h>
#include <rpcrdma/rpc.h>
#include "conform.h"

static const struct {
	const char *name, *text;
} reacts[CF_R_COUNT] = {
	[CF_R_ERR_VERS] = { "err_vers", "RDMA_ERROR ERR_VERS" },
	[CF_R_ERR_BADHEADER] = { "err_badheader", "RDMA_ERROR ERR_BADHEADER" },
	[CF_R_ERR_INVAL_OPTION] = { "err_inval_option", "RDMA2_ERROR RDMA2_ERR_INVAL_OPTION" },
	[CF_R_ERR_OTHER] = { "err_other", "RDMA_ERROR with another rdma_err" },
	[CF_R_REPLY] = { "reply", "an RPC reply" },
	[CF_R_GARBAGE_ARGS] = { "garbage_args", "an RPC reply GARBAGE_ARGS" },
	[CF_R_RPC_ERROR] = { "rpc_error", "an RPC error reply" },
	[CF_R_BAD_ANSWER] = { "bad_answer", "a malformed answer" },
	[CF_R_DISCARD] = { "discard", "silent discard (a following probe answered)" },
	[CF_R_DISCONNECT] = { "disconnect", "the connection closed" },
	[CF_R_NO_ANSWER] = { "no_answer", "no answer at all (not even to a probe)" },
	[CF_R_CRASH] = { "crash", "the listener gone" },
};

const char *cf_react_name(enum cf_react r)
{
	return (unsigned)r < CF_R_COUNT ? reacts[r].name : "?";
}

const char *cf_react_text(enum cf_react r)
{
	return (unsigned)r < CF_R_COUNT ? reacts[r].text : "?";
}

enum rpcrdma_action cf_decode_answer(const uint8_t *buf, size_t len,
				     struct rpcrdma_msg *m, uint32_t *wire_vers)
{
	enum rpcrdma_action a = rpcrdma_decode(buf, len, m);
	uint8_t copy[32];

	*wire_vers = m->rdma_vers;
	/* An ERR_VERS echoes the requester's unsupported version (V1 §5.5), so
	 * the codec cannot decode it; its layout is the same in every version
	 * (V1 §9.1): decode a copy as Version One. */
	if (m->reason == RPCRDMA_R_BAD_VERS && m->nfixed == 4 && m->rdma_proc == RDMA_ERROR &&
	    len <= sizeof(copy)) {
		memcpy(copy, buf, len);
		copy[4] = copy[5] = copy[6] = 0;
		copy[7] = RPCRDMA_VERSION_ONE;
		a = rpcrdma_decode(copy, len, m);
		m->buf = buf;           /* offsets are the same */
	}
	return a;
}

void cf_section_text(const char *codec, char *out, size_t cap)
{
	const char *sp = strchr(codec, ' ');

	/* libcodec's "V1 5.2.1, 5.5.2" in the report's form, "V1 §5.2.1, 5.5.2" */
	if (sp && sp[1] >= '0' && sp[1] <= '9')
		snprintf(out, cap, "%.*s §%s", (int)(sp - codec), codec, sp + 1);
	else
		snprintf(out, cap, "%s", codec);
}

void cf_answer_text(const uint8_t *buf, size_t len, char *out, size_t cap)
{
	struct rpcrdma_msg m;
	struct rpc_msg_hdr h;
	uint32_t vers;
	enum rpcrdma_action a = cf_decode_answer(buf, len, &m, &vers);
	const uint8_t *pl;

	if (len < 8) {
		snprintf(out, cap, "a %zu-byte answer", len);
		return;
	}
	if (a != RPCRDMA_ACCEPT) {
		snprintf(out, cap, "a malformed answer (%s at byte %u, %s; xid 0x%08x, vers %u)",
			 rpcrdma_reason_name(m.reason), m.fault_off, rpcrdma_reason_section(m.reason),
			 m.rdma_xid, vers);
		return;
	}
	if (m.rdma_proc == RDMA_ERROR) {
		if (m.has_vrange)
			snprintf(out, cap, "%s %s %u..%u (xid 0x%08x, vers %u, credits %u)",
				 rpcrdma_proc_name(vers, m.rdma_proc), rpcrdma_err_name(vers, m.rdma_err),
				 m.rdma_vers_low, m.rdma_vers_high, m.rdma_xid, vers, m.rdma_credit);
		else
			snprintf(out, cap, "%s %s (xid 0x%08x, vers %u, credits %u)",
				 rpcrdma_proc_name(vers, m.rdma_proc), rpcrdma_err_name(vers, m.rdma_err),
				 m.rdma_xid, vers, m.rdma_credit);
		return;
	}
	pl = rpcrdma_payload(&m);
	if (m.rdma_proc == RDMA_MSG && pl && rpc_decode_header(pl, m.payload_len, &h) == RPC_OK &&
	    h.msg_type == RPC_REPLY) {
		const char *st = h.reply_stat == RPC_MSG_ACCEPTED ? rpc_accept_stat_name(h.accept_stat)
								   : "MSG_DENIED";

		snprintf(out, cap, "%s, RPC reply %s (xid 0x%08x, vers %u, credits %u)",
			 rpcrdma_proc_name(vers, m.rdma_proc), st ? st : "?", m.rdma_xid, vers,
			 m.rdma_credit);
		return;
	}
	snprintf(out, cap, "%s (xid 0x%08x, vers %u, credits %u, %u payload bytes)",
		 rpcrdma_proc_name(vers, m.rdma_proc), m.rdma_xid, vers, m.rdma_credit, m.payload_len);
}

static enum cf_react classify_answer(const uint8_t *buf, size_t len)
{
	struct rpcrdma_msg m;
	struct rpc_msg_hdr h;
	uint32_t vers;
	const uint8_t *pl;

	if (cf_decode_answer(buf, len, &m, &vers) != RPCRDMA_ACCEPT)
		return CF_R_BAD_ANSWER;
	if (m.rdma_proc == RDMA_ERROR) {
		switch (m.rdma_err) {
		case RDMA_ERR_VERS: return CF_R_ERR_VERS;
		case RDMA_ERR_BADHEADER: return CF_R_ERR_BADHEADER;
		case RDMA2_ERR_INVAL_OPTION: return CF_R_ERR_INVAL_OPTION;
		default: return CF_R_ERR_OTHER;
		}
	}
	if (m.rdma_proc == RDMA_NOMSG)
		return CF_R_REPLY;      /* in the reply chunk: the runner checks it */
	pl = rpcrdma_payload(&m);
	if (!pl || rpc_decode_header(pl, m.payload_len, &h) != RPC_OK || h.msg_type != RPC_REPLY)
		return CF_R_BAD_ANSWER;
	if (h.reply_stat != RPC_MSG_ACCEPTED)
		return CF_R_RPC_ERROR;
	if (h.accept_stat == RPC_SUCCESS)
		return CF_R_REPLY;
	return h.accept_stat == RPC_GARBAGE_ARGS ? CF_R_GARBAGE_ARGS : CF_R_RPC_ERROR;
}

void cf_classify(struct cf_obs *o)
{
	if (o->react_set)
		return;
	if (o->answer)
		o->react = classify_answer(o->answer, o->answer_len);
	else if (o->listener_gone)
		o->react = CF_R_CRASH;
	else if (o->disconnected)
		o->react = CF_R_DISCONNECT;
	else if (o->probe_answered)
		o->react = CF_R_DISCARD;
	else
		o->react = CF_R_NO_ANSWER;
}

void cf_mask_text(uint32_t mask, char *buf, size_t cap)
{
	size_t n = 0;
	unsigned r;

	buf[0] = '\0';
	/* every RPC reply kind at once reads better as one */
	if ((mask & CF_M_RPC) == CF_M_RPC) {
		n += (size_t)snprintf(buf, cap, "an RPC reply (any)");
		mask &= ~CF_M_RPC;
	}
	if ((mask & CF_M_ERR) == CF_M_ERR) {
		n += (size_t)snprintf(buf + n, cap - n, "%san RDMA_ERROR (any)", n ? " or " : "");
		mask &= ~CF_M_ERR;
	}
	for (r = 0; r < CF_R_COUNT && n < cap; r++)
		if (mask & CF_M(r))
			n += (size_t)snprintf(buf + n, cap - n, "%s%s", n ? " or " : "",
					      cf_react_text((enum cf_react)r));
}

/* The fields every error reply must carry; "" when right. */
static void error_fields(const struct cf_obs *o, char *fault, size_t cap, char *sec, size_t scap)
{
	struct rpcrdma_msg m;
	uint32_t vers;

	fault[0] = '\0';
	if (cf_decode_answer(o->answer, o->answer_len, &m, &vers) != RPCRDMA_ACCEPT)
		return;
	snprintf(sec, scap, "V1 §5.5");
	if (o->sent_has_xid && m.rdma_xid != o->sent_xid[0]) {
		snprintf(fault, cap, "rdma_xid 0x%08x is not the failing message's 0x%08x",
			 m.rdma_xid, o->sent_xid[0]);
		return;
	}
	if (o->sent_has_vers && vers != o->sent_vers) {
		snprintf(fault, cap, "rdma_vers %u is not the failing message's %u", vers,
			 o->sent_vers);
		return;
	}
	if (m.notes & RPCRDMA_NOTE_TRAILING_BYTES) {
		snprintf(sec, scap, "V1 §5.1.4");
		snprintf(fault, cap, "%u bytes follow the error (no Payload stream may)",
			 (unsigned)(o->answer_len - m.header_len));
		return;
	}
	if (m.rdma_err != RDMA_ERR_VERS || !m.has_vrange)
		return;
	snprintf(sec, scap, "V1 §5.5.1");
	if (m.rdma_vers_low > m.rdma_vers_high)
		snprintf(fault, cap, "the range %u..%u is empty", m.rdma_vers_low, m.rdma_vers_high);
	else if (o->sent_has_vers && o->sent_vers >= m.rdma_vers_low &&
		 o->sent_vers <= m.rdma_vers_high)
		snprintf(fault, cap, "the range %u..%u holds the version %u it refuses",
			 m.rdma_vers_low, m.rdma_vers_high, o->sent_vers);
	else if (o->supported_low && (o->supported_low < m.rdma_vers_low ||
				      o->supported_high > m.rdma_vers_high))
		snprintf(fault, cap, "the range %u..%u leaves out version %u, which it answers",
			 m.rdma_vers_low, m.rdma_vers_high,
			 o->supported_low < m.rdma_vers_low ? o->supported_low : o->supported_high);
}

static void observed_text(const struct cf_obs *o, char *buf, size_t cap)
{
	size_t n;

	if (o->answer && o->react != CF_R_DISCARD && o->react != CF_R_DISCONNECT)
		cf_answer_text(o->answer, o->answer_len, buf, cap);
	else
		snprintf(buf, cap, "%s", cf_react_text(o->react));
	n = strlen(buf);
	if (o->event[0] && n < cap)
		n += (size_t)snprintf(buf + n, cap - n, " (%s)", o->event);
	if (o->note[0] && n < cap)
		snprintf(buf + n, cap - n, "; %s", o->note);
}

void cf_grade(const struct cf_case *c, const struct cf_obs *o, struct cf_grade *g)
{
	char fault[200] = "", fsec[40] = "";
	size_t n;
	bool in_pass, in_allowed;

	memset(g, 0, sizeof(*g));
	g->level = c->level;
	cf_case_section(c, g->section, sizeof(g->section));
	cf_mask_text(c->pass, g->expected, sizeof(g->expected));
	n = strlen(g->expected);
	if ((c->pass & CF_M_ERR) && n < sizeof(g->expected))
		snprintf(g->expected + n, sizeof(g->expected) - n, ", rdma_xid and rdma_vers echoed");
	if (o->skipped) {
		g->result = CF_SKIP;
		snprintf(g->observed, sizeof(g->observed), "%s", o->skip_why);
		return;
	}
	observed_text(o, g->observed, sizeof(g->observed));

	in_pass = c->pass & CF_M(o->react);
	in_allowed = (c->allowed & CF_M(o->react)) || (in_pass && o->allowed);
	if (in_pass || in_allowed) {
		if (o->answer && (CF_M(o->react) & CF_M_ERR))
			error_fields(o, fault, sizeof(fault), fsec, sizeof(fsec));
		if (!fault[0] && o->fault[0]) {
			snprintf(fault, sizeof(fault), "%s", o->fault);
			snprintf(fsec, sizeof(fsec), "%s", o->fault_section);
		}
		if (fault[0]) {
			g->result = CF_FAIL;
			g->level = o->fault[0] && !strcmp(fault, o->fault) ? o->fault_level : CF_MUST;
			if (fsec[0])
				snprintf(g->section, sizeof(g->section), "%s", fsec);
			n = strlen(g->observed);
			if (n < sizeof(g->observed))
				snprintf(g->observed + n, sizeof(g->observed) - n, ": %s", fault);
			return;
		}
		g->result = in_pass && !o->allowed ? CF_PASS : CF_ALLOWED;
		if (g->result == CF_ALLOWED) {
			const char *why = o->allowed ? o->allowed_why : c->allowed_why;

			n = strlen(g->observed);
			if (why && n < sizeof(g->observed))
				snprintf(g->observed + n, sizeof(g->observed) - n, " [%s]", why);
		}
		return;
	}
	g->result = CF_FAIL;
	switch (o->react) {
	case CF_R_CRASH:
		g->level = CF_MUST;
		break;
	case CF_R_NO_ANSWER:
		g->level = CF_MUST;
		snprintf(g->section, sizeof(g->section), "V1 §5.5.4");
		break;
	case CF_R_DISCARD:
		if (c->flags & CF_F_CALL) {
			g->level = CF_MUST;
			snprintf(g->section, sizeof(g->section), "V1 §5.5.4");
		}
		break;
	case CF_R_BAD_ANSWER: {
		struct rpcrdma_msg m;
		uint32_t vers;

		cf_decode_answer(o->answer, o->answer_len, &m, &vers);
		g->level = CF_MUST;
		cf_section_text(rpcrdma_reason_section(m.reason), g->section, sizeof(g->section));
		break;
	}
	default:
		break;
	}
}
