/* SPDX-License-Identifier: BSD-3-Clause */
/* xprt_names.c - names of the transport's enumerations, for messages,
 * traces and --json. */
#include "xprt.h"
#include "xprt_verbs.h"

const char *xprt_errcode_name(enum xprt_errcode c)
{
	switch (c) {
	case XPRT_E_OK: return "ok";
	case XPRT_E_NODEV: return "no-device";
	case XPRT_E_RESOLVE: return "resolve";
	case XPRT_E_UNREACHABLE: return "unreachable";
	case XPRT_E_REFUSED: return "refused";
	case XPRT_E_REJECTED: return "rejected";
	case XPRT_E_TIMEOUT: return "timeout";
	case XPRT_E_DISCONNECTED: return "disconnected";
	case XPRT_E_RESOURCE: return "resource";
	case XPRT_E_PROTOCOL: return "protocol";
	case XPRT_E_USAGE: return "usage";
	}
	return "unknown";
}

const char *xprt_path_name(enum xprt_path p)
{
	switch (p) {
	case XPRT_PATH_INLINE: return "inline";
	case XPRT_PATH_READ: return "read";
	case XPRT_PATH_POS0: return "pos0";
	case XPRT_PATH_WRITE: return "write";
	case XPRT_PATH_REPLY: return "reply";
	}
	return "unknown";
}

const char *xv_wc_status_name(enum xv_wc_status s)
{
	switch (s) {
	case XV_WC_SUCCESS: return "success";
	case XV_WC_LOC_LEN_ERR: return "local length error";
	case XV_WC_LOC_PROT_ERR: return "local protection error";
	case XV_WC_WR_FLUSH_ERR: return "flushed";
	case XV_WC_REM_ACCESS_ERR: return "remote access error";
	case XV_WC_REM_INV_REQ_ERR: return "remote invalid request";
	case XV_WC_RNR_RETRY_EXC_ERR: return "RNR retry exceeded (no Receive posted at the peer)";
	case XV_WC_RETRY_EXC_ERR: return "retry exceeded (peer gone)";
	case XV_WC_REM_OP_ERR: return "remote operation error";
	case XV_WC_OTHER_ERR: return "error";
	}
	return "unknown";
}

const char *xv_event_name(enum xv_event_type t)
{
	static const char *const n[] = {
		"ADDR_RESOLVED", "ADDR_ERROR", "ROUTE_RESOLVED", "ROUTE_ERROR",
		"CONNECT_REQUEST", "ESTABLISHED", "REJECTED", "UNREACHABLE",
		"CONNECT_ERROR", "DISCONNECTED", "DEVICE_REMOVAL", "OTHER",
	};

	return (unsigned)t < sizeof(n) / sizeof(n[0]) ? n[t] : "unknown";
}
