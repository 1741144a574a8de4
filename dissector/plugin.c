/* plugin.c - Wireshark plugin entry points: version symbols, registration and handoff. */
#include "rpcrdma_plugin.h"
#include "chunks.h"

#include <ws_version.h>

#ifndef RPCRDMA_PLUGIN_VERSION
#define RPCRDMA_PLUGIN_VERSION "0.1.0"
#endif

/* What the plugin loader looks up (wsutil/plugins.c; dissector/wsver.h) */
WS_DLL_PUBLIC_DEF const char plugin_version[] = RPCRDMA_PLUGIN_VERSION;
WS_DLL_PUBLIC_DEF const int plugin_want_major = WIRESHARK_VERSION_MAJOR;
WS_DLL_PUBLIC_DEF const int plugin_want_minor = WIRESHARK_VERSION_MINOR;
WS_DLL_PUBLIC void plugin_register(void);
#ifdef RPCRDMA_WS_DESCRIBE
WS_DLL_PUBLIC uint32_t plugin_describe(void);

uint32_t plugin_describe(void)
{
	return WS_PLUGIN_DESC_DISSECTOR;
}
#endif

static void proto_register_rpcrdma(void)
{
	rpcrdma_register_fields();
	rpcrdma_register_expert();
	rpcrdma_register_chunks();
	rpcrdma_register_prefs();
	rpcrdma_reasm_init();
	rpcrdma_conn_init();
	rpcrdma_ddp_register();
	rpcrdma_ib_register();
	rpcrdma_tap_register();
	rpcrdma_cmpriv_register();
	rpcrdma_dissect_register();
}

/* Runs after every built-in handoff: heur_dissector_add() puts our entries
 * ahead of the built-in RPCoRDMA heuristics in each list, so with "Claim
 * Version One" on we see Version One first; with it off we decline it and
 * the built-in gets it. */
static void proto_reg_handoff_rpcrdma(void)
{
	rpcrdma_dissect_handoff();
	rpcrdma_compat_handoff();
	rpcrdma_ib_handoff();
	rpcrdma_iwarp_handoff();
	rpcrdma_cmpriv_handoff();
}

void plugin_register(void)
{
	static proto_plugin plug;

	plug.register_protoinfo = proto_register_rpcrdma;
	plug.register_handoff = proto_reg_handoff_rpcrdma;
	proto_register_plugin(&plug);
}
