/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * rpcrdma/codec.h - RPC-over-RDMA transport header codec (librpcrdma).
 *
 * Version One:  draft-ietf-nfsv4-rfc5666bis-04 (wire-compatible with RFC 8166)
 * Version Two:  draft-cel-nfsv4-rpcrdma-version-two-01
 * Bi-direction: draft-ietf-nfsv4-rpcrdma-bidirection-05 (RFC 8167)
 *
 * The decoder validates a whole transport header in one pass, without
 * allocating and without writing anywhere but the caller's struct.  Chunk
 * lists are not copied: once rpcrdma_decode() has accepted the header they
 * are walked in place with the iterators below, which cannot fail.
 * The decision rules (actions, reasons, offsets) are in docs/verdicts.md.
 *
 * No global state: every function is reentrant.
 */
#ifndef RPCRDMA_CODEC_H
#define RPCRDMA_CODEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define RPCRDMA_VERSION_ONE 1
#define RPCRDMA_VERSION_TWO 2

/* rdma_proc values.  V1 §5.1.2-5.1.3, V2 §4.2 */
enum rpcrdma_proc {
	RDMA_MSG = 0,
	RDMA_NOMSG = 1,
	RDMA_MSGP = 2,   /* V1: no longer supported (§5.6.1) */
	RDMA_DONE = 3,   /* V1: no longer supported (§5.6.2) */
	RDMA_ERROR = 4,
	RDMA2_MSG = 0,
	RDMA2_NOMSG = 1,
	RDMA2_ERROR = 4,
	RDMA2_OPTIONAL = 5,
};

/* rdma_err values.  V1 rpcrdma1_errcode, V2 rpcrdma2_errcode */
enum rpcrdma_errcode {
	RDMA_ERR_VERS = 1,
	RDMA_ERR_BADHEADER = 2,
	RDMA2_ERR_VERS = 1,
	RDMA2_ERR_BAD_HEADER = 2,
	RDMA2_ERR_INVAL_OPTION = 3,
};

/* RFC 5531 msg_type; also V2 rdma_direction / rdma_optdir */
enum rpcrdma_direction {
	RPCRDMA_DIR_UNKNOWN = -1,
	RPCRDMA_CALL = 0,
	RPCRDMA_REPLY = 1,
};

/* What a receiver supporting Versions One and Two must do (docs/verdicts.md) */
enum rpcrdma_action {
	RPCRDMA_ACCEPT = 0,
	RPCRDMA_REPLY_ERR_VERS,
	RPCRDMA_REPLY_BAD_HEADER,
	RPCRDMA_REPLY_INVAL_OPTION,
	RPCRDMA_DISCARD,
};

/* Why: one name per fault, as in docs/verdicts.md */
enum rpcrdma_reason {
	RPCRDMA_R_OK = 0,
	RPCRDMA_R_SHORT_PREFIX,         /* < 8 bytes: no xid + vers */
	RPCRDMA_R_BAD_VERS,             /* rdma_vers not 1 or 2 */
	RPCRDMA_R_TRUNCATED,            /* an element does not fit */
	RPCRDMA_R_BAD_PROC,             /* unknown rdma_proc */
	RPCRDMA_R_MSGP,                 /* RDMA_MSGP received */
	RPCRDMA_R_DONE,                 /* RDMA_DONE received */
	RPCRDMA_R_BAD_DISCRIMINANT,     /* optional-data word not 0 or 1 */
	RPCRDMA_R_BAD_POSITION,         /* read position not a multiple of 4 */
	RPCRDMA_R_EMPTY_CHUNK,          /* write/reply chunk with no segments */
	RPCRDMA_R_BAD_COUNT,            /* count/length beyond the bytes left */
	RPCRDMA_R_BAD_DIRECTION,        /* V2 direction word not CALL/REPLY */
	RPCRDMA_R_NOMSG_WITHOUT_CHUNKS, /* RDMA_NOMSG with no chunk at all */
	RPCRDMA_R_MISSING_PAYLOAD,      /* RDMA_MSG without an RPC header */
	RPCRDMA_R_XID_MISMATCH,         /* rdma_xid != RPC xid */
	RPCRDMA_R_DIRECTION_MISMATCH,   /* V2 rdma_direction != RPC msg_type */
	RPCRDMA_R_BAD_ERR_CODE,         /* received RDMA_ERROR, unknown rdma_err */
	RPCRDMA_R_UNKNOWN_OPTION,       /* RDMA2_OPTIONAL, unsupported type */
	RPCRDMA_R_COUNT_
};

/* Non-fatal observations on one message (docs/verdicts.md "Notes") */
enum rpcrdma_note {
	RPCRDMA_NOTE_ZERO_CREDIT = 1u << 0,
	RPCRDMA_NOTE_TRAILING_BYTES = 1u << 1,
	RPCRDMA_NOTE_V1_MSG_TYPE = 1u << 2,
	RPCRDMA_NOTE_COUNT_ = 3
};

/* rpcrdma1_segment / rpcrdma2_segment: HLOO */
struct rpcrdma_segment {
	uint32_t rdma_handle;
	uint32_t rdma_length;
	uint64_t rdma_offset;
};

/* rpcrdma1_read_segment / rpcrdma2_read_segment: PHLOO */
struct rpcrdma_read_segment {
	uint32_t rdma_position;
	struct rpcrdma_segment rdma_target;
};

/* A write chunk (or the reply chunk) as the encoder takes it */
struct rpcrdma_write_chunk {
	const struct rpcrdma_segment *segs;
	uint32_t nsegs;
};

/*
 * The result of rpcrdma_decode().  Offsets are from the start of the buffer.
 * Fields are valid as far as the bytes went: see `nfixed`.
 */
struct rpcrdma_msg {
	const uint8_t *buf;        /* the caller's bytes (not copied) */
	size_t len;

	/* rpcrdma_prefix, V1 §5.2 */
	uint32_t rdma_xid;
	uint32_t rdma_vers;
	uint32_t rdma_credit;
	uint32_t rdma_proc;
	uint8_t nfixed;            /* how many of the four words were present */

	int8_t direction;          /* enum rpcrdma_direction */
	bool direction_inferred;   /* V1 NOMSG: guessed from the chunks */
	bool has_direction_word;   /* V2 MSG/NOMSG/OPTIONAL: word was decoded */

	/* MSG/NOMSG chunk lists, walked in place once accepted */
	uint32_t reads_off;        /* first read-list discriminator */
	uint32_t nreads;           /* read segments */
	uint32_t writes_off;       /* first write-list discriminator */
	uint32_t nwrites;          /* write chunks */
	uint32_t nwrite_segs;      /* segments over all write chunks */
	uint32_t reply_off;        /* reply-chunk discriminator */
	bool has_reply;
	uint32_t nreply_segs;

	/* ERROR */
	uint32_t rdma_err;
	uint32_t rdma_vers_low;
	uint32_t rdma_vers_high;
	bool has_err, has_vrange;

	/* V2 OPTIONAL */
	uint32_t rdma_optdir;
	uint32_t rdma_opttype;
	uint32_t optinfo_len;
	uint32_t optinfo_off;      /* first byte of rdma_optinfo */
	bool has_optional;

	/* inline RPC message (the first words of the Payload stream) */
	bool has_rpc_xid, has_rpc_msg_type;
	uint32_t rpc_xid;
	uint32_t rpc_msg_type;

	uint32_t header_len;       /* Transport Header Stream; 0 if not decoded */
	uint32_t payload_len;      /* bytes after it */

	enum rpcrdma_action action;
	enum rpcrdma_reason reason;
	uint32_t fault_off;        /* byte offset of the offending element */
	uint32_t notes;            /* enum rpcrdma_note bits */

	/* Room for fields later 0.x releases add without changing the size
	 * or any offset above (docs/abi.md); rpcrdma_decode() zeroes it. */
	uint32_t reserved[16];
};

/* Decode and judge `len` bytes received in one RDMA Send.  Never reads past
 * buf[len-1].  Returns m->action. */
enum rpcrdma_action rpcrdma_decode(const uint8_t *buf, size_t len,
				   struct rpcrdma_msg *m);

/* -------- walking chunk lists in place (only after RPCRDMA_ACCEPT, or
 * after any verdict for the lists wholly decoded before the fault:
 * nreads/nwrites/has_reply count only complete elements) -------- */

struct rpcrdma_read_iter {
	const uint8_t *p;
	uint32_t left;             /* read segments still to yield */
};
void rpcrdma_read_iter_init(const struct rpcrdma_msg *m,
			    struct rpcrdma_read_iter *it);
bool rpcrdma_read_next(struct rpcrdma_read_iter *it,
		       struct rpcrdma_read_segment *out);

struct rpcrdma_chunk_iter {
	const uint8_t *base;       /* the message buffer */
	const uint8_t *p;
	uint32_t left;             /* chunks still to yield */
};
struct rpcrdma_seg_iter {
	const uint8_t *p;
	uint32_t left;             /* segments still to yield */
	uint32_t nsegs;            /* segments in this chunk */
	uint32_t wire_off;         /* offset of the chunk's count word; the
				    * i-th segment is at wire_off + 4 + 16 i */
};
void rpcrdma_write_iter_init(const struct rpcrdma_msg *m,
			     struct rpcrdma_chunk_iter *it);
/* Yields one write chunk as a segment iterator. */
bool rpcrdma_write_next(struct rpcrdma_chunk_iter *it,
			struct rpcrdma_seg_iter *chunk);
/* The reply chunk as a segment iterator; false if there is none. */
bool rpcrdma_reply_chunk(const struct rpcrdma_msg *m,
			 struct rpcrdma_seg_iter *chunk);
bool rpcrdma_seg_next(struct rpcrdma_seg_iter *it,
		      struct rpcrdma_segment *out);

/* Pointer to the Payload stream (NULL when payload_len is 0). */
const uint8_t *rpcrdma_payload(const struct rpcrdma_msg *m);

/* -------- a call's read chunks against the requester's rules: what a
 * capture's lint and a responder judging its requesters both check -------- */
enum rpcrdma_read_fault {
	/* V1 4.4.5: "The Position value MUST be computed from the beginning
	 * of the Payload stream": a read segment of an RDMA_MSG call at a
	 * position past the inline Payload stream and the chunks inserted
	 * before it */
	RPCRDMA_READ_POSITION_PAST = 1u << 0,
	/* V1 4.4.4.1: "Any byte count left in the Payload stream MUST match
	 * the sum of the lengths of the segments making up the chunk": the
	 * word before the first reduced chunk's position (the Upper Layer
	 * Bindings' DDP-eligible items, NFS and ECHO, are counted opaques)
	 * is neither the chunk's length nor that length less its round-up */
	RPCRDMA_READ_COUNT_MISMATCH = 1u << 1,
	/* V1 4.4.5.1: "the requester MUST remove XDR padding for that data
	 * item from the Payload stream as well": with an item reduced, a
	 * Payload stream that is no multiple of 4 kept the item's pad */
	RPCRDMA_READ_PAD_INLINE = 1u << 2,
};
struct rpcrdma_read_check {
	unsigned faults;           /* enum rpcrdma_read_fault bits */
	/* RPCRDMA_READ_POSITION_PAST: the segment's position, and the bytes
	 * of the chunks before it */
	uint32_t past_position;
	uint64_t past_before;
	/* the first chunk past position zero (an item reduced out of the
	 * Payload stream): its position, its length (the sum of its
	 * segments') and the byte count before it; reduced is false when the
	 * call has none, or no count word before it (count and pad not
	 * judged) */
	bool reduced;
	uint32_t position;
	uint64_t chunk_len;
	uint32_t count;
};
/* Judge the read list of an accepted RDMA_MSG call m (any other message:
 * 0, nothing judged).  Fills *c; returns c->faults.  Reads only m's own
 * bytes; a pure function. */
unsigned rpcrdma_read_chunks_check(const struct rpcrdma_msg *m, struct rpcrdma_read_check *c);

/* -------- names -------- */
const char *rpcrdma_action_name(enum rpcrdma_action a);    /* "accept" ... */
const char *rpcrdma_reason_name(enum rpcrdma_reason r);    /* "ok" ... */
const char *rpcrdma_reason_text(enum rpcrdma_reason r);    /* one line */
const char *rpcrdma_reason_section(enum rpcrdma_reason r); /* "V1 5.5.2" */
const char *rpcrdma_note_name(unsigned bit);               /* one bit */
/* "RDMA_MSG", "RDMA2_OPTIONAL", ... or "unknown" */
const char *rpcrdma_proc_name(uint32_t vers, uint32_t proc);
const char *rpcrdma_err_name(uint32_t vers, uint32_t err);
const char *rpcrdma_direction_name(int dir);               /* "call" "reply" NULL */

/* -------- encoding --------
 * All encoders write into buf[cap].  They return the number of bytes
 * written, or 0 when cap is too small; *need (if not NULL) always gets the
 * exact number of bytes the encoding takes. */

struct rpcrdma_hdr {
	uint32_t rdma_xid;
	uint32_t rdma_vers;        /* 1 or 2 */
	uint32_t rdma_credit;
	uint32_t rdma_proc;
	uint32_t direction;        /* V2 MSG/NOMSG: rdma_direction */

	/* MSG / NOMSG */
	const struct rpcrdma_read_segment *reads;
	uint32_t nreads;
	const struct rpcrdma_write_chunk *writes;
	uint32_t nwrites;
	const struct rpcrdma_write_chunk *reply;   /* NULL: no reply chunk */

	/* V1 RDMA_MSGP (rpcrdma1_padded; never sent by a conforming peer,
	 * encodable so that tests can build one) */
	uint32_t rdma_align, rdma_thresh;

	/* ERROR */
	uint32_t rdma_err;
	uint32_t rdma_vers_low, rdma_vers_high;    /* ERR_VERS */

	/* V2 OPTIONAL */
	uint32_t rdma_optdir;
	uint32_t rdma_opttype;
	const uint8_t *optinfo;
	uint32_t optinfo_len;
};

size_t rpcrdma_encode(const struct rpcrdma_hdr *h, uint8_t *buf, size_t cap,
		      size_t *need);

/* The error reply the verdict on `m` calls for (docs/verdicts.md "Error
 * replies"); 0 with *need = 0 when the action calls for no reply. */
size_t rpcrdma_encode_error_reply(const struct rpcrdma_msg *m,
				  uint32_t credits, uint8_t *buf, size_t cap,
				  size_t *need);

/* Fill `h` from an accepted message; the segments go into the caller's
 * arrays (reads[cap_reads], segs[cap_segs] shared by the write chunks and
 * the reply chunk, chunks[cap_chunks]).  Returns false when a capacity is
 * too small. */
bool rpcrdma_msg_to_hdr(const struct rpcrdma_msg *m, struct rpcrdma_hdr *h,
			struct rpcrdma_read_segment *reads, uint32_t cap_reads,
			struct rpcrdma_write_chunk *chunks, uint32_t cap_chunks,
			struct rpcrdma_segment *segs, uint32_t cap_segs);

/* -------- inline thresholds and chunk choice (V1 §4.3.2, §4.5; V2 §2.3, §5) */

#define RPCRDMA_V1_INLINE_DEFAULT 1024u
#define RPCRDMA_V2_INLINE_DEFAULT 4096u

/* The threshold a sender must assume for its peer: 1024 for V1, and for V2
 * until the peer is known to speak V2 (V2 §5); 4096 after. */
uint32_t rpcrdma_inline_threshold(uint32_t vers, bool peer_speaks_v2);

/* Does header + payload fit inline under `threshold`? */
bool rpcrdma_fits_inline(size_t header_len, size_t payload_len,
			 uint32_t threshold);

enum rpcrdma_chunk_need {
	RPCRDMA_NEED_NONE = 0,           /* Short message: all inline */
	RPCRDMA_NEED_READ_CHUNK = 1u << 0,   /* reduce DDP data into read chunks */
	RPCRDMA_NEED_POS0_READ = 1u << 1,    /* Long Call: RDMA_NOMSG + pos-0 */
	RPCRDMA_NEED_WRITE_CHUNK = 1u << 2,  /* DDP-eligible reply data */
	RPCRDMA_NEED_REPLY_CHUNK = 1u << 3,  /* reply may exceed the threshold */
};

/* Which chunks a call needs (V1 §4.5, §5.3.3).
 * call_len: the whole RPC call; call_ddp: bytes of it that are DDP-eligible;
 * reply_max: largest possible reply; reply_ddp: its DDP-eligible bytes;
 * hdr_len: transport header size without chunks;
 * call_threshold / reply_threshold: the responder's and our own thresholds. */
unsigned rpcrdma_chunks_needed(size_t hdr_len, size_t call_len,
			       size_t call_ddp, size_t reply_max,
			       size_t reply_ddp, uint32_t call_threshold,
			       uint32_t reply_threshold);

/* -------- responder: which way a reply goes (V1 §4.5.3, §5.3.2, §5.3.3,
 * §5.5.3; V2 §2.3).  The requester's chunks decide: a DDP-eligible result
 * goes into the first write chunk when one was provided; the (reduced)
 * reply goes inline when it fits the requester's inline threshold, else
 * into the reply chunk; when neither works the responder answers the XID
 * with RDMA_ERROR / ERR_BADHEADER (V1 §5.5.3) and keeps the connection
 * (docs/spec-decisions.md D-REPLY-1..3). -------- */
enum rpcrdma_reply_path {
	RPCRDMA_RPATH_INLINE = 0,    /* RDMA_MSG: the whole reply in the Send */
	RPCRDMA_RPATH_WRITE,         /* RDMA_MSG: the result in write chunk 1,
				      * the reduced reply inline */
	RPCRDMA_RPATH_REPLY,         /* RDMA_NOMSG: the reply in the reply chunk */
	RPCRDMA_RPATH_WRITE_REPLY,   /* RDMA_NOMSG: the result in write chunk 1,
				      * the reduced reply in the reply chunk */
	RPCRDMA_RPATH_NONE,          /* nothing fits: RDMA_ERROR ERR_BADHEADER */
};
enum rpcrdma_rpath_why {
	RPCRDMA_RPATH_OK = 0,
	RPCRDMA_RPATH_DDP_OVER_WRITE_CHUNK, /* result larger than write chunk 1 */
	RPCRDMA_RPATH_NO_REPLY_CHUNK,       /* over the threshold, no reply chunk */
	RPCRDMA_RPATH_OVER_REPLY_CHUNK,     /* larger than the reply chunk */
};
struct rpcrdma_reply_plan {
	/* in: the reply */
	uint32_t vers;               /* the call's RPC-over-RDMA version */
	uint32_t threshold;          /* the requester's inline receive threshold */
	size_t reply_len;            /* the whole RPC reply message */
	size_t ddp_len;              /* its DDP-eligible result (0: none); the
				      * XDR pad after it is removed with it */
	/* in: what the call's header provided */
	uint32_t nwrite_chunks, nwrite_segs;
	uint64_t write_chunk_len;    /* bytes of the first write chunk */
	bool has_reply_chunk;
	uint32_t nreply_segs;
	uint64_t reply_chunk_len;
	/* out */
	enum rpcrdma_rpath_why why;  /* for RPCRDMA_RPATH_NONE */
	size_t hdr_len;              /* the reply's transport header */
	size_t send_payload;         /* payload bytes in the Send (0 for NOMSG) */
	size_t reply_chunk_bytes;    /* bytes written into the reply chunk */
};
/* Decide; fills the out fields and returns the path.  The reply header
 * echoes the call's whole write list (unused chunks with zero lengths,
 * V1 §4.4.6.2) and carries the reply chunk only when it was used. */
enum rpcrdma_reply_path rpcrdma_reply_path(struct rpcrdma_reply_plan *p);
const char *rpcrdma_reply_path_name(enum rpcrdma_reply_path p); /* "inline" ... */

/* -------- versions an endpoint speaks (V1 §5.5.1, V2 §5) --------
 * rpcrdma_decode() judges as a receiver of Versions One and Two.  An
 * endpoint that speaks only low..high (a v1-only or v2-only peer) refines
 * that verdict: a message in another version is answered with ERR_VERS
 * (a received RDMA_ERROR in one is discarded), whatever follows its
 * version word.  Returns m->action. */
enum rpcrdma_action rpcrdma_judge_versions(struct rpcrdma_msg *m,
					   uint32_t low, uint32_t high);
/* rpcrdma_encode_error_reply() with the version range of such an endpoint
 * in an ERR_VERS reply. */
size_t rpcrdma_encode_error_reply_range(const struct rpcrdma_msg *m,
					uint32_t credits, uint32_t low,
					uint32_t high, uint8_t *buf,
					size_t cap, size_t *need);

/* -------- connection private data (RFC 8797 §3): 8 bytes the Linux client
 * and server exchange in the CM REQ/REP (RoCE, IB) or MPA Request/Reply
 * (iWARP) -------- */
#define RPCRDMA_CM_PRIVATE_MAGIC 0xf6ab0e18u
#define RPCRDMA_CM_PRIVATE_VERSION 1u
#define RPCRDMA_CM_PRIVATE_SIZE 8u
#define RPCRDMA_CM_FLAG_REMOTE_INVALIDATE 0x01u

struct rpcrdma_cm_private {
	uint32_t pd_magic;         /* RPCRDMA_CM_PRIVATE_MAGIC */
	uint8_t pd_version;        /* 1 */
	uint8_t pd_flags;          /* RPCRDMA_CM_FLAG_* */
	uint32_t max_send_size;    /* bytes, decoded from (size/1024 - 1) */
	uint32_t max_recv_size;
};

enum rpcrdma_cm_result {
	RPCRDMA_CM_OK = 0,
	RPCRDMA_CM_ABSENT,         /* shorter than 8 bytes or another magic:
				    * not RFC 8797 data, use version defaults */
	RPCRDMA_CM_BAD_VERSION,    /* our magic, unknown version: ignore it */
};

/* Decode private data received with a connect request or accept (any
 * length: the CM pads it).  *out is filled only on RPCRDMA_CM_OK. */
enum rpcrdma_cm_result rpcrdma_cm_private_decode(const uint8_t *buf,
						 size_t len,
						 struct rpcrdma_cm_private *out);
/* Encode ours; sizes are rounded down to a multiple of 1024 within
 * 1 KiB..256 KiB; pd_magic and pd_version 0 mean the RFC's values.
 * Returns 8, or 0 when cap < 8. */
size_t rpcrdma_cm_private_encode(const struct rpcrdma_cm_private *in,
				 uint8_t *buf, size_t cap);

/* The inline thresholds of a connection (bytes): *send, what we may Send
 * the peer; *recv, the largest message the peer will Send us.  With the
 * peer's private data (peer not NULL): ours capped by its Receive and Send
 * Sizes; without: ours capped by the version's default
 * (rpcrdma_inline_threshold(vers, peer_speaks_v2)).  our_send/our_recv 0:
 * the default. */
void rpcrdma_cm_thresholds(const struct rpcrdma_cm_private *peer,
			   uint32_t our_send, uint32_t our_recv,
			   uint32_t vers, bool peer_speaks_v2,
			   uint32_t *send, uint32_t *recv);

/* -------- credit accounting of one requester (V1 §4.3.1, V2 §5; forward
 * and backward directions are accounted apart: BIDI §4) -------- */
struct rpcrdma_credits {
	uint32_t requested;        /* what our calls ask for (rdma_credit) */
	uint32_t granted;          /* the responder's last grant; 1 until the
				    * first non-error reply */
	uint32_t outstanding;      /* calls sent, reply not yet received */
	bool have_grant;           /* a non-error reply has been seen */
};
void rpcrdma_credits_init(struct rpcrdma_credits *c, uint32_t requested);
/* The current limit: min(requested, granted), never below 1. */
uint32_t rpcrdma_credits_limit(const struct rpcrdma_credits *c);
/* May one more call be sent now? */
bool rpcrdma_credits_may_send(const struct rpcrdma_credits *c);
void rpcrdma_credits_sent(struct rpcrdma_credits *c);
/* A reply to an outstanding call arrived; rdma_credit from its header.
 * An RDMA_ERROR reply frees the slot but updates no grant (V1 §4.3.1:
 * the grant comes from a valid, non-error reply). */
void rpcrdma_credits_reply(struct rpcrdma_credits *c, uint32_t rdma_credit,
			   bool is_error);
/* A call was abandoned without a reply (timeout, disconnect). */
void rpcrdma_credits_forget(struct rpcrdma_credits *c);

/* -------- which Version Two draft a message fits (docs/v2-drafts.md) --------
 * Our Version Two is draft-cel-nfsv4-rpcrdma-version-two-01.  Later revisions
 * (cel-02..09, draft-ietf-nfsv4-rpcrdma-version-two-00..07) changed the wire
 * and reuse header type numbers; they are named, never decoded. */
#define RPCRDMA_V2_DRAFT "draft-cel-nfsv4-rpcrdma-version-two-01"
enum rpcrdma2_family {
	RPCRDMA2_FAM_CEL01 = 1u << 0,          /* the seed: decoded as such */
	RPCRDMA2_FAM_CEL08_IETF02 = 1u << 1,   /* type 5 CONNPROP, lists without
						* a direction word */
	RPCRDMA2_FAM_IETF03_07 = 1u << 2,      /* type 5 GRANT, types 6..13 */
};
#define RPCRDMA2_FAM_LATER (RPCRDMA2_FAM_CEL08_IETF02 | RPCRDMA2_FAM_IETF03_07)
/* m as rpcrdma_decode() left it (m->buf still valid): 0 when m is not
 * Version Two (fewer than 8 bytes, or another rdma_vers); RPCRDMA2_FAM_CEL01
 * when it decodes as cel-01 or fits no later layout (then it is a cel-01 bad
 * header); else the later families whose layout it fits (one or more bits
 * of RPCRDMA2_FAM_LATER).  Pure: reads m->buf only. */
unsigned rpcrdma_v2_draft_family(const struct rpcrdma_msg *m);
/* "cel-01", "cel-08..ietf-02", "ietf-03..07", "cel-08..ietf-07" (both later
 * families), "" for 0 */
const char *rpcrdma_v2_family_name(unsigned fam);
/* the drafts' names: "draft-cel-nfsv4-rpcrdma-version-two-01",
 * "draft-ietf-nfsv4-rpcrdma-version-two-03..07", ... */
const char *rpcrdma_v2_family_drafts(unsigned fam);

/* Worst-case header sizes, in bytes */
#define RPCRDMA_SEGMENT_SIZE 16u
#define RPCRDMA_READ_SEGMENT_SIZE 20u
#define RPCRDMA_V1_MIN_HEADER 28u   /* MSG with three empty lists */
#define RPCRDMA_V2_MIN_HEADER 32u

#ifdef __cplusplus
}
#endif
#endif /* RPCRDMA_CODEC_H */
