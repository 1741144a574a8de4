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

/* in enum cf_react's order: the JSON name, then the report's words */
static const char *const react_names[CF_R_COUNT] = {
	"err_vers", "err_badheader", "err_inval_option", "err_other", "reply", "garbage_args",
	"rpc_error", "bad_answer", "discard", "disconnect", "no_answer", "crash",
};
static const char *const react_texts[CF_R_COUNT] = {
	"RDMA_ERROR ERR_VERS", "RDMA_ERROR ERR_BADHEADER", "RDMA2_ERROR RDMA2_ERR_INVAL_OPTION",
	"RDMA_ERROR with another rdma_err", "an RPC reply", "an RPC reply GARBAGE_ARGS",
	"an RPC error reply", "a malformed answer", "silent discard (a following probe answered)",
	"the connection closed", "no answer on its connection, not even to a probe",
	"the listener gone",
};

const char *cf_react_name(enum cf_react r)
{
	return (unsigned)r < CF_R_COUNT ? react_names[r] : "?";
}

const char *cf_react_text(enum cf_react r)
{
	return (unsigned)r < CF_R_COUNT ? react_texts[r] : "?";
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
	else if (o->rdma_fault) {
		/* no answer, not even to the probe, and no disconnect yet:
		 * after a remote access error our QP is in error and the probe
		 * was flushed, never sent; the CM's word may come late (seen
		 * over rxe under load) */
		o->react = CF_R_DISCONNECT;
		snprintf(o->event, sizeof(o->event), "the connection carried nothing more after the "
			 "failed RDMA Read, not even our probe; the disconnect had not come yet");
	} else
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

/* The fields every error reply must carry; "" when right, else the fault
 * and the id of the requirement (or decision) it breaks in *req. */
static void error_fields(const struct cf_obs *o, char *fault, size_t cap, const char **req)
{
	struct rpcrdma_msg m;
	uint32_t vers;

	fault[0] = '\0';
	if (cf_decode_answer(o->answer, o->answer_len, &m, &vers) != RPCRDMA_ACCEPT)
		return;
	*req = "V1-5.5-err-xid";
	if (o->sent_has_xid && m.rdma_xid != o->sent_xid[0]) {
		snprintf(fault, cap, "rdma_xid 0x%08x is not the failing message's 0x%08x",
			 m.rdma_xid, o->sent_xid[0]);
		return;
	}
	*req = "V1-5.5-err-vers";
	if (o->sent_has_vers && vers != o->sent_vers) {
		snprintf(fault, cap, "rdma_vers %u is not the failing message's %u", vers,
			 o->sent_vers);
		return;
	}
	if (m.notes & RPCRDMA_NOTE_TRAILING_BYTES) {
		/* V2 §4.2.1 says MUST NOT; V1 only Table 1 (no keyword) */
		*req = vers == 2 ? "V2-4.2.1-err" : "D-MSG-4";
		snprintf(fault, cap, "%u bytes follow the error (no Payload stream may)",
			 (unsigned)(o->answer_len - m.header_len));
		return;
	}
	if (m.rdma_err != RDMA_ERR_VERS || !m.has_vrange)
		return;
	*req = "V1-5.5.1-vers";
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

/* The requirement a malformed answer breaks, by libcodec's reason; a
 * decision where no sentence with a keyword covers it. */
static const char *bad_answer_req(const struct rpcrdma_msg *m, uint32_t vers)
{
	switch (m->reason) {
	case RPCRDMA_R_XID_MISMATCH: return "V1-5.2.1-xid";
	case RPCRDMA_R_DIRECTION_MISMATCH: return "V2-4.2.2-dir";
	case RPCRDMA_R_MISSING_PAYLOAD: return vers == 2 ? "V2-4.2.1-msg" : "D-MSG-1";
	case RPCRDMA_R_NOMSG_WITHOUT_CHUNKS: return "V1-5.2.4-nomsg";
	case RPCRDMA_R_MSGP: return "V1-5.6.1-send";
	case RPCRDMA_R_DONE: return "V1-5.6.2-send";
	case RPCRDMA_R_BAD_POSITION: return "V1-4.4.5.1-mult4";
	case RPCRDMA_R_BAD_VERS: return "V2-5.3-same";
	case RPCRDMA_R_EMPTY_CHUNK: return "D-CHUNK-1";
	default: return "D-CONF-9";    /* XDR well-formedness: no keyword */
	}
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

static void append(char *buf, size_t cap, const char *pre, const char *a, const char *post)
{
	size_t n = strlen(buf);

	if (n < cap)
		snprintf(buf + n, cap - n, "%s%s%s", pre, a, post);
}

/* FAIL on the requirement `id`, or NOTE when `id` is a decision, a
 * requirement without a binding keyword (MAY, none) or unknown. */
static void verdict(struct cf_grade *g, const char *id)
{
	const struct cf_req *q = id && strncmp(id, "D-", 2) ? cf_req_find(id) : NULL;
	enum cf_level l = cf_req_level(q);

	if (q && (l == CF_MUST || l == CF_SHOULD)) {
		g->result = CF_FAIL;
		g->req = q;
		g->level = l;
		snprintf(g->section, sizeof(g->section), "%s %s", q->seed, q->section);
		return;
	}
	g->result = CF_NOTE;
	g->level = CF_NOKW;
	g->decision = id && !strncmp(id, "D-", 2) ? id : "D-CONF-1";
}

void cf_grade(const struct cf_case *c, const struct cf_obs *o, struct cf_grade *g)
{
	char fault[200] = "";
	const char *freq = NULL;
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
			error_fields(o, fault, sizeof(fault), &freq);
		if (!fault[0] && o->fault[0]) {
			snprintf(fault, sizeof(fault), "%s", o->fault);
			freq = o->fault_req;
		}
		if (fault[0]) {
			verdict(g, freq);
			append(g->observed, sizeof(g->observed), ": ", fault, "");
			return;
		}
		g->result = in_pass && !o->allowed ? CF_PASS : CF_ALLOWED;
		if (g->result == CF_ALLOWED) {
			const char *why = o->allowed ? o->allowed_why : c->allowed_why;

			if (why)
				append(g->observed, sizeof(g->observed), " [", why, "]");
		}
		if (o->stray) {
			/* "The xid of a Reply always matches that of the
			 * initiating Call" (BIDI §2.4) has no keyword */
			char x[120];

			snprintf(x, sizeof(x), "%u answer(s) with an xid that matches nothing sent "
				 "(the first 0x%08x)", o->stray, o->stray_xid);
			append(g->observed, sizeof(g->observed), "; ", x, "");
			verdict(g, "D-CONF-10");
		}
		return;
	}
	switch (o->react) {
	case CF_R_CRASH:
		/* no sentence: the server is gone (the run stops; exit 1) */
		verdict(g, "D-CONF-2");
		return;
	case CF_R_NO_ANSWER:
		/* a call (the case's or the probe) neither answered nor the
		 * connection closed: a lost reply */
		verdict(g, "V1-5.5.4-close");
		return;
	case CF_R_DISCARD:
		if (c->flags & CF_F_CALL) {
			verdict(g, "V1-5.5.4-close");
			return;
		}
		break;
	case CF_R_BAD_ANSWER: {
		struct rpcrdma_msg m;
		uint32_t vers;

		cf_decode_answer(o->answer, o->answer_len, &m, &vers);
		verdict(g, bad_answer_req(&m, vers));
		return;
	}
	default:
		break;
	}
	/* the case's own sentence, unless no sentence decides */
	verdict(g, c->decision ? c->decision : c->reqs);
}
