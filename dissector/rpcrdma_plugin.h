/* rpcrdma_plugin.h - declarations shared by the files of the Wireshark plugin. */
#ifndef RPCRDMA_PLUGIN_H
#define RPCRDMA_PLUGIN_H

#include <epan/packet.h>
#include <epan/expert.h>
#include <epan/prefs.h>
#include <epan/proto_data.h>

#include <rpcrdma/codec.h>

#include "wsver.h"

/* ---- fields.c: protocol, header fields, subtrees ---- */
extern int proto_rpcrdma;

enum rpcrdma_list { RPCRDMA_LIST_READ, RPCRDMA_LIST_WRITE, RPCRDMA_LIST_REPLY };

struct rpcrdma_hf {
	int xid, vers, credits, proc, direction;
	int read_list, write_list, write_chunk, reply_chunk;
	int segment;                          /* FT_NONE item per segment */
	int position, handle, length, offset;   /* handle.. any list (hidden) */
	int seg[3], seg_handle[3], seg_length[3], seg_offset[3];  /* per list */
	int backward;
	int err, vers_low, vers_high;
	int optdir, opttype, optinfo_len, optinfo;
	int header_len, payload_len;
	int action, reason, note;
	int draft;                            /* Version Two: the draft family */
	int rpc_xid;
	int chunk_frames, chunk_frame_list, reasm_len, reasm_from;
	int retx_of;
};
extern struct rpcrdma_hf rpcrdma_hf;

struct rpcrdma_ett {
	int top, read_list, read_segment, write_list, write_chunk;
	int reply_chunk, segment, reasm, frames;
};
extern struct rpcrdma_ett rpcrdma_ett;

void rpcrdma_register_fields(void);

/* ---- expert.c: expert infos from the codec's verdict and notes ---- */
void rpcrdma_register_expert(void);
/* The later Version Two draft families a message fits when it is not
 * cel-01 (libcodec's rpcrdma_v2_draft_family()), else 0 */
unsigned rpcrdma_v2_later_family(const struct rpcrdma_msg *m);
/* Expert items for the verdict (placed at m->fault_off) and the notes. */
void rpcrdma_expert_verdict(packet_info *pinfo, proto_tree *tree,
			    tvbuff_t *tvb, const struct rpcrdma_msg *m);
/* Inline threshold check for a message of `len` bytes (preferences). */
void rpcrdma_expert_backward_call(packet_info *pinfo, proto_tree *tree,
				  tvbuff_t *tvb, const struct rpcrdma_msg *m);
void rpcrdma_expert_inline(packet_info *pinfo, proto_tree *tree, tvbuff_t *tvb,
			   const struct rpcrdma_msg *m, uint32_t threshold);

/* An IB Send packet sent again (same PSN): first sent in frame `first` */
void rpcrdma_expert_retransmission(packet_info *pinfo, proto_tree *tree,
				   tvbuff_t *tvb, uint32_t first);

/* ---- prefs.c ---- */
struct rpcrdma_prefs {
	rpcrdma_ws_bool claim_v1;       /* heuristics take Version One too */
	rpcrdma_ws_bool check_inline;   /* expert info when a Send exceeds the threshold */
	guint v1_inline;         /* bytes */
	guint v2_inline;
	rpcrdma_ws_bool reassemble;     /* rebuild RPC messages carried in chunks */
	guint chunk_memory_mb;   /* limit on chunk bytes kept per capture */
	rpcrdma_ws_bool rpcordma_fields; /* also the built-in's rpcordma.* (hidden) */
};
extern struct rpcrdma_prefs rpcrdma_prefs;
void rpcrdma_register_prefs(void);

/* ---- compat.c: the built-in's rpcordma.* fields on Version One ---- */
void rpcrdma_compat_handoff(void);
void rpcrdma_compat_fields(proto_tree *tree, tvbuff_t *tvb,
			   const struct rpcrdma_msg *m, int hlen);

/* ---- tree.c: the decoded header onto the protocol tree ---- */
proto_item *rpcrdma_tree_header(tvbuff_t *tvb, packet_info *pinfo,
				proto_tree *tree, const struct rpcrdma_msg *m,
				proto_tree **sub);

/* ---- conv.c: connections and the side a packet came from ---- */
struct rpcrdma_conn {
	uint32_t id;               /* 1, 2, ... in order of appearance */
	bool iwarp;
	address addr[2];           /* side 0 sent the first packet seen */
	uint32_t port[2];          /* each side's TCP port, or its QP (IB) */
	int8_t client;             /* side that sent the first call; -1 */
	struct rpcrdma_sent *sent[2]; /* each side's recent Send PSNs (ib.c) */
};
struct rpcrdma_where {             /* a packet's connection and direction */
	struct rpcrdma_conn *conn; /* NULL: not known */
	unsigned dir;              /* 0: from side 0 to side 1 */
};
void rpcrdma_conn_init(void);
void rpcrdma_where(packet_info *pinfo, bool iwarp, struct rpcrdma_where *w);
/* A number for one side of a connection (0 when the connection is unknown):
 * the key prefix for what that side owns (handles) or numbers (PSN, MSN). */
uint32_t rpcrdma_side_id(const struct rpcrdma_where *w, unsigned side);

/* ---- reasm.c: RDMA Read/Write payloads and chunk reassembly ---- */
/* Where an RDMA data transfer put its bytes, from the transport's info. */
struct rpcrdma_rdma_io {
	uint32_t owner;          /* side id of the side whose memory it is */
	uint32_t handle;         /* rkey / STag of the chunk segment */
	uint64_t offset;         /* its offset (virtual address) */
};
void rpcrdma_reasm_init(void);
/* What a handle was advertised for, in a header seen earlier */
enum rpcrdma_chunk_kind {
	RPCRDMA_CHUNK_MSG = 1,     /* Position Zero read chunk, reply chunk */
	RPCRDMA_CHUNK_READ = 2,    /* DDP-eligible data in a read chunk */
	RPCRDMA_CHUNK_WRITE = 3,   /* a write chunk: DDP-eligible reply data */
};
void rpcrdma_reasm_advertise(packet_info *pinfo, uint32_t owner, uint32_t handle,
			     enum rpcrdma_chunk_kind kind);
/* Record data moved by RDMA Write or Read Response (first pass only). */
void rpcrdma_reasm_add(packet_info *pinfo, tvbuff_t *tvb,
		       const struct rpcrdma_rdma_io *io);
/* The bytes of one chunk (its segments in order), or NULL when the capture
 * does not hold them all.  `upto` bounds the frames used (0: any). */
tvbuff_t *rpcrdma_reasm_chunk(tvbuff_t *parent, packet_info *pinfo,
			      uint32_t owner, const struct rpcrdma_segment *segs,
			      uint32_t nsegs, uint32_t upto, proto_tree *tree);
/* Copy what the capture kept of a chunk into dst[total] (zeros where it
 * holds nothing); returns the bytes copied.  *dropped: some bytes were
 * seen but not kept (memory limit). */
uint64_t rpcrdma_reasm_copy(packet_info *pinfo, uint32_t owner,
			    const struct rpcrdma_segment *segs, uint32_t nsegs,
			    uint32_t upto, uint8_t *dst, bool *dropped);
/* Forget the bytes kept for a chunk (its pieces stay listed) */
void rpcrdma_reasm_release(uint32_t owner, const struct rpcrdma_segment *segs,
			   uint32_t nsegs);
/* Count n more bytes kept for the capture: false when the
 * rpcrdma.chunk_memory limit would be passed. */
bool rpcrdma_reasm_hold(uint64_t n);
void rpcrdma_reasm_unhold(uint64_t n);
/* A Long Call whose Position Zero read chunk was not yet read (first pass) */
struct rpcrdma_waiting {
	const uint8_t *msg;        /* the RDMA_NOMSG header, file scope */
	uint32_t len, frame;       /* ... and its frame */
	uint32_t done_frame;       /* frame whose Read Response completed it */
	uint32_t owner;            /* side id of the requester */
	struct rpcrdma_where where;     /* the NOMSG's connection, direction */
	struct rpcrdma_segment *segs;   /* the Position Zero segments */
	uint32_t nsegs;
};
void rpcrdma_reasm_wait(packet_info *pinfo, tvbuff_t *hdr,
			const struct rpcrdma_where *w, uint32_t owner,
			const struct rpcrdma_segment *segs, uint32_t nsegs);
struct rpcrdma_waiting *rpcrdma_reasm_waiting(uint32_t owner, uint32_t handle);
/* How many of the chunk's *total bytes the capture saw moved (frames are
 * listed in tree). */
uint64_t rpcrdma_reasm_coverage(tvbuff_t *parent, packet_info *pinfo,
				uint32_t owner, const struct rpcrdma_segment *segs,
				uint32_t nsegs, uint32_t upto, proto_tree *tree,
				uint64_t *total);

/* ---- ib.c, iwarp.c: heuristics and RDMA traffic bookkeeping ---- */
void rpcrdma_ib_register(void);
void rpcrdma_ib_handoff(void);
void rpcrdma_iwarp_handoff(void);

/* ---- ddp.c: Write chunk data put back into RPC replies ---- */
void rpcrdma_ddp_register(void);
/* A call with a Write list (first pass): remember what it calls until its
 * reply.  `requester`: side id of the side that sent the call. */
void rpcrdma_ddp_call(packet_info *pinfo, uint32_t requester,
		      const struct rpcrdma_msg *m, tvbuff_t *call);
/* A reply with a Write list: the RPC reply with its DDP-eligible items put
 * back (a new tvb), `reply` itself when there is nothing to put back or the
 * call is unknown, or NULL when the items' places are not certain (an
 * expert info says why; the reply must not go to RPC). */
tvbuff_t *rpcrdma_ddp_reply(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree,
			    uint32_t requester, const struct rpcrdma_msg *m,
			    tvbuff_t *reply);

/* ---- tap.c: the "rpcrdma" tap and -z rpcrdma,stat ---- */
struct rpcrdma_tap_info {          /* one message, for tap listeners */
	struct rpcrdma_conn *conn;
	bool backward, accepted, has_err, has_reply;
	bool later;                    /* Version Two of a later draft's
					* layout: counted, not decoded */
	int direction;                 /* enum rpcrdma_direction, -1 */
	uint32_t vers, proc, credits, send_len, nreads, nwrites;
	uint64_t read_bytes, write_bytes, reply_bytes;  /* as advertised */
};
void rpcrdma_tap_register(void);
void rpcrdma_tap_queue(packet_info *pinfo, const struct rpcrdma_msg *m,
		       const struct rpcrdma_where *w, bool backward);

/* ---- cmpriv.c: RFC 8797 connection private data under the CM REQ/REP's
 * or MPA Request/Reply's private data (a postdissector) ---- */
void rpcrdma_cmpriv_register(void);
void rpcrdma_cmpriv_handoff(void);

/* ---- dissect.c ---- */
/* Hand an RPC message to the ONC RPC dissector (after our Info text) */
void rpcrdma_to_rpc(tvbuff_t *t, packet_info *pinfo, proto_tree *tree,
		    const struct rpcrdma_where *w);
/* In a frame that completed a waiting Long Call: dissect the call. */
bool rpcrdma_late_call(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree);
/* Dissect one whole RPC-over-RDMA message (one Send) that came the way w
 * says; `decoded`: its header as rpcrdma_claims() decoded it, or NULL.
 * Returns bytes used. */
int rpcrdma_dissect_msg(tvbuff_t *tvb, packet_info *pinfo, proto_tree *tree,
			const struct rpcrdma_where *w,
			const struct rpcrdma_msg *decoded);
/* Side id of the requester of message m sent the way w says (the sender
 * of a call, the receiver of a reply): whose chunks its lists name */
uint32_t rpcrdma_requester(const struct rpcrdma_where *w,
			   const struct rpcrdma_msg *m);
/* Would we claim these bytes (one whole Send)?  Never throws; the answer
 * of the first pass is kept for the frame.  *decoded: m holds the header,
 * decoded from these bytes (not when a kept answer was used). */
bool rpcrdma_claims(tvbuff_t *tvb, packet_info *pinfo, struct rpcrdma_msg *m,
		    bool *decoded);
/* The same for the first part of a multi-packet Send (prefix only). */
bool rpcrdma_claims_partial(tvbuff_t *tvb, packet_info *pinfo);
void rpcrdma_dissect_register(void);
void rpcrdma_dissect_handoff(void);

#endif
