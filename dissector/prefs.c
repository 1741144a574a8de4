/* prefs.c - the plugin's preferences: claiming Version One, inline thresholds, reassembly. */
#include "rpcrdma_plugin.h"

struct rpcrdma_prefs rpcrdma_prefs = {
	.claim_v1 = TRUE,
	.check_inline = TRUE,
	.v1_inline = RPCRDMA_V1_INLINE_DEFAULT,
	.v2_inline = RPCRDMA_V2_INLINE_DEFAULT,
	.reassemble = TRUE,
	.chunk_memory_mb = 256,
	.rpcordma_fields = TRUE,
};

void rpcrdma_register_prefs(void)
{
	module_t *mod = prefs_register_protocol(proto_rpcrdma, NULL);

	prefs_register_bool_preference(mod, "claim_v1",
		"Claim Version One",
		"Dissect RPC-over-RDMA Version One here (with expert infos). "
		"When off, Version One is left to the built-in RPCoRDMA "
		"dissector and only Version Two is claimed.",
		&rpcrdma_prefs.claim_v1);
	prefs_register_bool_preference(mod, "rpcordma_fields",
		"Also set the built-in's rpcordma fields",
		"On the Version One messages claimed here, also set the "
		"built-in RPCoRDMA dissector's fields (rpcordma, rpcordma.xid, "
		"...) as hidden items, so that display filters and colouring "
		"rules written for it keep working.",
		&rpcrdma_prefs.rpcordma_fields);
	prefs_register_bool_preference(mod, "check_inline",
		"Check inline thresholds",
		"Raise expert info when a Send is larger than the inline "
		"threshold below (V1 4.3.2, V2 2.3).",
		&rpcrdma_prefs.check_inline);
	prefs_register_uint_preference(mod, "v1_inline_threshold",
		"Version One inline threshold",
		"Largest Send a Version One peer must accept (bytes; "
		"default 1024)", 10, &rpcrdma_prefs.v1_inline);
	prefs_register_uint_preference(mod, "v2_inline_threshold",
		"Version Two inline threshold",
		"Largest Send a Version Two peer must accept (bytes; "
		"default 4096)", 10, &rpcrdma_prefs.v2_inline);
	prefs_register_bool_preference(mod, "reassemble",
		"Reassemble RPC messages from chunks",
		"Rebuild RPC messages carried in RDMA Read or Write chunks "
		"from the RDMA traffic in the capture and hand them to the "
		"ONC RPC dissector.", &rpcrdma_prefs.reassemble);
	prefs_register_uint_preference(mod, "chunk_memory_mb",
		"Chunk data memory limit (MiB)",
		"Most bytes of RDMA Read and Write data kept per capture to "
		"rebuild messages and put reply data back (Write chunks are "
		"freed when their reply is done); beyond it data is "
		"zero-filled and flagged.", 10, &rpcrdma_prefs.chunk_memory_mb);
}
