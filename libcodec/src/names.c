/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * names.c - names, one-line explanations and spec sections for actions,
 * reasons, notes, procedures and error codes (docs/verdicts.md).
 */
#include "internal.h"

const char *rpcrdma_action_name(enum rpcrdma_action a)
{
	static const char *const names[] = {
		[RPCRDMA_ACCEPT] = "accept",
		[RPCRDMA_REPLY_ERR_VERS] = "reply_err_vers",
		[RPCRDMA_REPLY_BAD_HEADER] = "reply_bad_header",
		[RPCRDMA_REPLY_INVAL_OPTION] = "reply_inval_option",
		[RPCRDMA_DISCARD] = "discard",
	};

	return (unsigned)a < sizeof(names) / sizeof(names[0]) ? names[a] : "unknown";
}

static const struct reason_info {
	const char *name, *text, *section;
} reasons[RPCRDMA_R_COUNT_] = {
	[RPCRDMA_R_OK] = { "ok", "well-formed", "" },
	[RPCRDMA_R_SHORT_PREFIX] = { "short_prefix",
		"fewer than 8 bytes: no rdma_xid and rdma_vers to answer", "V1 5.5" },
	[RPCRDMA_R_BAD_VERS] = { "bad_vers",
		"unsupported rdma_vers", "V1 5.5.1" },
	[RPCRDMA_R_TRUNCATED] = { "truncated",
		"header ends inside an element", "V1 5.5.2" },
	[RPCRDMA_R_BAD_PROC] = { "bad_proc",
		"unknown rdma_proc", "V1 5.5.2" },
	[RPCRDMA_R_MSGP] = { "msgp",
		"RDMA_MSGP is no longer supported", "V1 5.6.1" },
	[RPCRDMA_R_DONE] = { "done",
		"RDMA_DONE is no longer supported", "V1 5.6.2" },
	[RPCRDMA_R_BAD_DISCRIMINANT] = { "bad_discriminant",
		"optional-data discriminator is neither 0 nor 1", "V1 5.3, RFC 4506 4.19" },
	[RPCRDMA_R_BAD_POSITION] = { "bad_position",
		"read segment position is not a multiple of 4", "V1 4.4.5.1" },
	[RPCRDMA_R_EMPTY_CHUNK] = { "empty_chunk",
		"write or reply chunk with no segments", "V1 4.4.4, 4.4.6" },
	[RPCRDMA_R_BAD_COUNT] = { "bad_count",
		"count or length exceeds the bytes remaining", "V1 5.5.2" },
	[RPCRDMA_R_BAD_DIRECTION] = { "bad_direction",
		"direction is neither CALL nor REPLY", "V2 4.2.2" },
	[RPCRDMA_R_NOMSG_WITHOUT_CHUNKS] = { "nomsg_without_chunks",
		"RDMA_NOMSG carries no chunk to hold the Payload stream", "V1 5.2.4, 5.5.2" },
	[RPCRDMA_R_MISSING_PAYLOAD] = { "missing_payload",
		"RDMA_MSG without an RPC message (need xid and msg_type)", "V1 5.2.4, V2 4.2.1" },
	[RPCRDMA_R_XID_MISMATCH] = { "xid_mismatch",
		"rdma_xid differs from the RPC message's xid", "V1 5.2.1, 5.5.2" },
	[RPCRDMA_R_DIRECTION_MISMATCH] = { "direction_mismatch",
		"rdma_direction differs from the RPC message's msg_type", "V2 4.2.2" },
	[RPCRDMA_R_BAD_ERR_CODE] = { "bad_err_code",
		"received RDMA_ERROR with an unknown rdma_err", "V1 5.5" },
	[RPCRDMA_R_UNKNOWN_OPTION] = { "unknown_option",
		"RDMA2_OPTIONAL with an unsupported rdma_opttype", "V2 3.1" },
};

static const struct reason_info *reason_info(enum rpcrdma_reason r)
{
	static const struct reason_info unknown = { "unknown", "unknown", "" };

	return (unsigned)r < RPCRDMA_R_COUNT_ ? &reasons[r] : &unknown;
}

const char *rpcrdma_reason_name(enum rpcrdma_reason r)
{
	return reason_info(r)->name;
}

const char *rpcrdma_reason_text(enum rpcrdma_reason r)
{
	return reason_info(r)->text;
}

const char *rpcrdma_reason_section(enum rpcrdma_reason r)
{
	return reason_info(r)->section;
}

const char *rpcrdma_note_name(unsigned bit)
{
	switch (bit) {
	case RPCRDMA_NOTE_ZERO_CREDIT:
		return "zero_credit";
	case RPCRDMA_NOTE_TRAILING_BYTES:
		return "trailing_bytes";
	case RPCRDMA_NOTE_V1_MSG_TYPE:
		return "v1_msg_type";
	default:
		return "unknown";
	}
}

const char *rpcrdma_proc_name(uint32_t vers, uint32_t proc)
{
	static const char *const v1[] = {
		"RDMA_MSG", "RDMA_NOMSG", "RDMA_MSGP", "RDMA_DONE", "RDMA_ERROR",
	};
	static const char *const v2[] = {
		"RDMA2_MSG", "RDMA2_NOMSG", NULL, NULL, "RDMA2_ERROR", "RDMA2_OPTIONAL",
	};

	if (vers == RPCRDMA_VERSION_TWO)
		return proc < 6 && v2[proc] ? v2[proc] : "unknown";
	if (vers == RPCRDMA_VERSION_ONE)
		return proc < 5 ? v1[proc] : "unknown";
	/* the values every version shares (V1 §5.1.2) */
	if (proc == RDMA_MSG || proc == RDMA_NOMSG || proc == RDMA_ERROR)
		return v1[proc];
	return "unknown";
}

const char *rpcrdma_err_name(uint32_t vers, uint32_t err)
{
	if (vers == RPCRDMA_VERSION_TWO) {
		switch (err) {
		case RDMA2_ERR_VERS: return "RDMA2_ERR_VERS";
		case RDMA2_ERR_BAD_HEADER: return "RDMA2_ERR_BAD_HEADER";
		case RDMA2_ERR_INVAL_OPTION: return "RDMA2_ERR_INVAL_OPTION";
		default: return "unknown";
		}
	}
	switch (err) {
	case RDMA_ERR_VERS: return "RDMA_ERR_VERS";
	case RDMA_ERR_BADHEADER: return "RDMA_ERR_BADHEADER";
	default: return "unknown";
	}
}

const char *rpcrdma_direction_name(int dir)
{
	return dir == RPCRDMA_CALL ? "call" : dir == RPCRDMA_REPLY ? "reply" : NULL;
}
