/* rpcrdma_plugin.h - declarations shared by the files of the Wireshark plugin. */
#ifndef RPCRDMA_PLUGIN_H
#define RPCRDMA_PLUGIN_H

#include <epan/packet.h>
#include <epan/expert.h>
#include <epan/prefs.h>
#include <epan/proto_data.h>

#include <rpcrdma/codec.h>

/* ---- fields.c: protocol, header fields, subtrees ---- */
extern int proto_rpcrdma;

struct rpcrdma_hf {
	int xid, vers, credits, proc, direction;
	int read_list, write_list, write_chunk, reply_chunk;
	int read_segment, segment;            /* FT_NONE item per segment */
	int position, handle, length, offset;
	int err, vers_low, vers_high;
	int optdir, opttype, optinfo_len, optinfo;
	int header_len, payload_len;
	int action, reason, note;
	int rpc_xid;
	int chunk_frames, reasm_len, reasm_from;
};
extern struct rpcrdma_hf rpcrdma_hf;

struct rpcrdma_ett {
	int top, read_list, read_segment, write_list, write_chunk;
	int reply_chunk, segment, reasm;
};
extern struct rpcrdma_ett rpcrdma_ett;

void rpcrdma_register_fields(void);

/* ---- expert.c: expert infos from the codec's verdict and notes ---- */
void rpcrdma_register_expert(void);
/* Expert items for the verdict (placed at m->fault_off) and the notes. */
void rpcrdma_expert_verdict(packet_info *pinfo, proto_tree *tree,
			    tvbuff_t *tvb, const struct rpcrdma_msg *m);
/* Inline threshold check for a message of `len` bytes (preferences). */
void rpcrdma_expert_inline(packet_info *pinfo, proto_tree *tree, tvbuff_t *tvb,
			   const struct rpcrdma_msg *m, uint32_t threshold);

/* ---- prefs.c ---- */
struct rpcrdma_prefs {
	gboolean claim_v1;       /* heuristics take Version One too */
	gboolean check_inline;   /* expert info when a Send exceeds the threshold */
	guint v1_inline;         /* bytes */
	guint v2_inline;
	gboolean reassemble;     /* rebuild RPC messages carried in chunks */
};
extern struct rpcrdma_prefs rpcrdma_prefs;
void rpcrdma_register_prefs(void);

/* ---- tree.c: the decoded header onto the protocol tree ---- */
proto_item *rpcrdma_tree_header(tvbuff_t *tvb, packet_info *pinfo,
				proto_tree *tree, const struct rpcrdma_msg *m,
				proto_tree **sub);

/* ---- reasm.c: RDMA Read/Write payloads and chunk reassembly ---- */
/* Where an RDMA data transfer put its bytes, from the transport's info. */
struct rpcrdma_rdma_io {
	uint32_t handle;         /* rkey / STag of the chunk segment */
	uint64_t offset;         /* its offset (virtual address) */
};
void rpcrdma_reasm_init(void);
/* What a handle was advertised for, in a header seen earlier */
enum rpcrdma_chunk_kind {
	RPCRDMA_CHUNK_MSG = 1,     /* Position Zero read chunk, reply chunk */
	RPCRDMA_CHUNK_READ = 2,    /* DDP-eligible data in a read chunk */
	RPCRDMA_CHUNK_WRITE = 3,   /* a write chunk: only where bytes went */
};
void rpcrdma_reasm_advertise(packet_info *pinfo, uint32_t handle,
			     enum rpcrdma_chunk_kind kind);
/* Record data moved by RDMA Write or Read Response (first pass only). */
void rpcrdma_reasm_add(packet_info *pinfo, tvbuff_t *tvb,
		       const struct rpcrdma_rdma_io *io);
/* The bytes of one chunk (its segments in order), or NULL when the capture
 * does not hold them all.  `upto` bounds the frames used (0: any). */
tvbuff_t *rpcrdma_reasm_chunk(tvbuff_t *parent, packet_info *pinfo,
			      const struct rpcrdma_segment *segs,
			      uint32_t nsegs, uint32_t upto, proto_tree *tree);
/* A Long Call whose Position Zero read chunk was not yet read (first pass) */
struct rpcrdma_waiting {
	const uint8_t *msg;        /* the RDMA_NOMSG header, file scope */
	uint32_t len, frame;       /* ... and its frame */
	uint32_t done_frame;       /* frame whose Read Response completed it */
	struct rpcrdma_segment *segs;   /* the Position Zero segments */
	uint32_t nsegs;
};
void rpcrdma_reasm_wait(packet_info *pinfo, tvbuff_t *hdr,
			const struct rpcrdma_segment *segs, uint32_t nsegs);
struct rpcrdma_waiting *rpcrdma_reasm_waiting(uint32_t handle);
/* How many of the chunk's *total bytes the capture saw moved (frames are
 * listed in tree). */
uint64_t rpcrdma_reasm_coverage(tvbuff_t *parent, packet_info *pinfo,
				const struct rpcrdma_segment *segs,
				uint32_t nsegs, uint32_t upto, proto_tree *tree,
				uint64_t *total);

/* ---- ib.c, iwarp.c: heuristics and RDMA traffic bookkeeping ---- */
void rpcrdma_ib_track(packet_info *pinfo, tvbuff_t *tvb, const void *ibinfo);
void rpcrdma_iwarp_track(packet_info *pinfo, tvbuff_t *tvb, const void *info);
void rpcrdma_ib_handoff(void);
void rpcrdma_iwarp_handoff(void);

/* ---- dissect.c ---- */
/* Hand an RPC message to the ONC RPC dissector (after our Info text) */
void rpcrdma_to_rpc(tvbuff_t *t, packet_info *pinfo, proto_tree *tree);
/* In a frame that completed a waiting Long Call: dissect the call. */
bool rpcrdma_late_call(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree);
/* Dissect one whole RPC-over-RDMA message (one Send).  Returns bytes used. */
int rpcrdma_dissect_msg(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree);
/* Would we claim these bytes (one whole Send)?  Never throws; the answer
 * of the first pass is kept for the frame. */
bool rpcrdma_claims(tvbuff_t *tvb, packet_info *pinfo);
/* The same for the first part of a multi-packet Send (prefix only). */
bool rpcrdma_claims_partial(tvbuff_t *tvb, packet_info *pinfo);
void rpcrdma_dissect_register(void);
void rpcrdma_dissect_handoff(void);

#endif
