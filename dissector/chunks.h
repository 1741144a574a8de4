/* chunks.h - rebuilding RPC messages carried in chunks (chunks.c). */
#ifndef RPCRDMA_CHUNKS_H
#define RPCRDMA_CHUNKS_H

#include "rpcrdma_plugin.h"

void rpcrdma_register_chunks(void);
/* The whole RPC call: Position Zero read chunk (or the inline payload) with
 * every other read chunk put back at its position; NULL when the capture
 * lacks data. */
tvbuff_t *rpcrdma_rebuild_call(tvbuff_t *tvb, packet_info *pinfo,
			       proto_tree *tree, const struct rpcrdma_msg *m,
			       tvbuff_t *inline_payload,
			       const struct rpcrdma_where *where);
/* The RPC reply the responder wrote into the reply chunk, or NULL. */
tvbuff_t *rpcrdma_rebuild_reply(tvbuff_t *tvb, packet_info *pinfo,
				proto_tree *tree, const struct rpcrdma_msg *m,
				uint32_t owner);
/* Remember which handles carry what (first pass), so that RDMA data is
 * kept only for advertised chunks. */
void rpcrdma_advertise_chunks(packet_info *pinfo, const struct rpcrdma_msg *m,
			      uint32_t owner);
/* Each write chunk of a reply: how much of it the capture saw written. */
void rpcrdma_show_write_chunks(tvbuff_t *tvb, packet_info *pinfo,
			       proto_tree *tree, const struct rpcrdma_msg *m,
			       uint32_t owner);

#endif
