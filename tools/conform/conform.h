/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * conform.h - rpcrdma-conform, the responder conformance suite ("h2spec for
 * RPC-over-RDMA"): every rule the pinned drafts state for a receiver or
 * responder, sent over real connections, each reaction graded PASS, FAIL
 * (expected vs observed) or ALLOWED (the draft says MAY).
 *
 *   V1:   draft-ietf-nfsv4-rfc5666bis-04 (RFC 8166)
 *   V2:   draft-cel-nfsv4-rpcrdma-version-two-01
 *   BIDI: draft-ietf-nfsv4-rpcrdma-bidirection-05 (RFC 8167)
 *
 * Layers (each imports only the ones above it):
 *   cases.c    the case table: the cases of tools/conform/cases.tsv (one
 *              row each: requirements, stimulus, grading; cases.awk) and
 *              one per malformed vector of tests/vectors/vectors.txt
 *              (vectors.awk), --only/--skip selection
 *   grade.c    pure: what the responder did (struct cf_obs) against what
 *              the rule requires -> struct cf_grade
 *   target.c   the Upper Layer the probes and chunk cases speak (ECHO,
 *              NFSv3): RPC calls built with libcodec and the ECHO ULB;
 *              target_nfs.c the NFS calls (NFSv3 READ, NFSv4 LOOKUP,
 *              NFSv4.1 sessions, OPEN, the back channel's replies) that
 *              drive a real NFS server's chunks and backward calls
 *   report.c   one line per case, totals per draft, --json (JSON Lines)
 *   run.c, run_cases.c, run_chunks.c, run_nfs.c   the cases over the
 *              transport (tools/transport); run_nfs.c: the write-chunk,
 *              reply-chunk and backward cases through NFS
 *   main.c     options, the safety rule (--yes), exit status
 * The rules and grading of every case: docs/conformance.md.
 */
#ifndef RPCRDMA_CONFORM_H
#define RPCRDMA_CONFORM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <rpcrdma/codec.h>
#include "outbuf.h"

#define CF_PROG "rpcrdma-conform"

enum cf_draft { CF_V1 = 0, CF_V2, CF_BIDI, CF_NDRAFTS };
/* CF_NOKW: the sentence has no keyword, or no sentence decides (our reading) */
enum cf_level { CF_MUST = 0, CF_SHOULD, CF_MAY, CF_NOKW };
/* CF_NOTE: the responder did something no sentence of the seeds forbids
 * although our reading (a docs/spec-decisions.md decision) differs; never
 * counted as a failure, never a failing exit status */
enum cf_result { CF_PASS = 0, CF_FAIL, CF_ALLOWED, CF_SKIP, CF_NOTE, CF_NRESULTS };

/* -------- the requirements catalogue (docs/requirements.tsv, compiled in
 * by reqs.awk): one row per normative sentence of the seeds -------- */
struct cf_req {
	const char *id;            /* "V1-5.5.2-badheader" */
	const char *seed;          /* "V1", "V2", "BIDI", "BIDI-02" */
	const char *section;       /* "§5.5.2" */
	const char *keyword;       /* "MUST", "MUST NOT", "SHOULD", ..., "-" */
	const char *party;         /* "responder", "requester", ... */
	const char *sentence;      /* exact, from the seed */
	const char *how;           /* lint rule, or why not observable */
};
extern const struct cf_req cf_reqs[];
extern const size_t cf_nreqs;
const struct cf_req *cf_req_find(const char *id);
/* the keyword's level: MUST (MUST NOT, REQUIRED), SHOULD (NOT), MAY, or NOKW */
enum cf_level cf_req_level(const struct cf_req *q);

const char *cf_draft_name(enum cf_draft d);       /* "V1" "V2" "BIDI" */
const char *cf_draft_title(enum cf_draft d);      /* "Version One (draft-...)" */
const char *cf_level_name(enum cf_level l);       /* "MUST" ... */
const char *cf_result_name(enum cf_result r);     /* "PASS" ... */

/* -------- what a responder did with a case's message -------- */
enum cf_react {
	CF_R_ERR_VERS = 0,     /* RDMA_ERROR / ERR_VERS */
	CF_R_ERR_BADHEADER,    /* RDMA_ERROR / ERR_BADHEADER */
	CF_R_ERR_INVAL_OPTION, /* RDMA2_ERROR / RDMA2_ERR_INVAL_OPTION */
	CF_R_ERR_OTHER,        /* RDMA_ERROR with another rdma_err */
	CF_R_REPLY,            /* an RPC reply, MSG_ACCEPTED / SUCCESS */
	CF_R_GARBAGE_ARGS,     /* an RPC reply, GARBAGE_ARGS */
	CF_R_RPC_ERROR,        /* another RPC-level error reply */
	CF_R_BAD_ANSWER,       /* an answer the codec rejects */
	CF_R_DISCARD,          /* no answer; a following probe was answered */
	CF_R_DISCONNECT,       /* the connection went; the listener answers */
	CF_R_NO_ANSWER,        /* nothing, not even the probe: a hung connection */
	CF_R_CRASH,            /* the listener is gone */
	CF_R_COUNT
};
#define CF_M(r) (1u << (r))
#define CF_M_ERR (CF_M(CF_R_ERR_VERS) | CF_M(CF_R_ERR_BADHEADER) | \
		  CF_M(CF_R_ERR_INVAL_OPTION) | CF_M(CF_R_ERR_OTHER))
#define CF_M_RPC (CF_M(CF_R_REPLY) | CF_M(CF_R_GARBAGE_ARGS) | CF_M(CF_R_RPC_ERROR))
const char *cf_react_name(enum cf_react r);       /* "err_vers" ... (JSON) */
const char *cf_react_text(enum cf_react r);       /* "RDMA_ERROR ERR_VERS" ... */

/* -------- the cases -------- */
/* The stimulus: which runner sends what.  The kinds one runner serves are
 * adjacent (run_cases.c's runners[] names the last of each group). */
enum cf_kind {
	CF_K_VECTOR = 0,       /* one message from tests/vectors/vectors.txt */
	CF_K_V2_NEGOTIATE,     /* V2 §5.1/5.2: a first V2 call */
	CF_K_REPLY_GRANT,      /* V1 §4.3.1: a grant is never zero */
	CF_K_REPLY_XID,        /* V1 §5.2.1: reply rdma_xid = its RPC xid */
	CF_K_REPLY_VERS,       /* V2 §5.3: reply in the call's version */
	CF_K_V2_REPLY_DIR,     /* V2 §4.2.2: reply's rdma_direction */
	CF_K_INLINE_MIN,       /* V1 §4.3.3: a 1024-byte call is received */
	CF_K_V2_INLINE_MIN,    /* V2 §2.3: a 4096-byte call is received */
	CF_K_INLINE_OVER,      /* V1 §4.3: a Send over the peer's receive size */
	CF_K_CREDIT_OVERRUN,   /* V1 §4.3.1: more calls than granted */
	CF_K_CHUNK_LONG,       /* V1 §4.4.4.1: read chunk > the length word */
	CF_K_CHUNK_SHORT,      /* V1 §4.4.4.1: read chunk < the length word */
	CF_K_CHUNK_ROUNDUP,    /* V1 §4.4.5.1: odd read chunk without pad */
	CF_K_CHUNK_BADHANDLE,  /* V1 §5.5.3: RDMA Read of a bad segment */
	CF_K_CHUNK_NOT_DDP,    /* V1 §8.1.1: a read chunk holding more than
				* the DDP-eligible item */
	CF_K_WRITE_USED,       /* V1 §5.3.2: the result goes in the write chunk */
	CF_K_WRITE_SEGCOUNT,   /* V1 §4.4.6: segment count unchanged */
	CF_K_WRITE_UNFILLED,   /* V1 §4.4.6: unfilled segment length zero */
	CF_K_WRITE_NOPAD,      /* V1 §4.4.6.1: no XDR pad written */
	CF_K_WRITE_UNUSED,     /* V1 §4.4.6.2: unused write chunk, lengths 0 */
	CF_K_REPLY_CHUNK,      /* V1 §4.5.3: a long reply in the reply chunk */
	CF_K_REPLY_CHUNK_SHORT,/* V1 §5.3.3: MAY answer short despite it */
	CF_K_XID_REUSE,        /* BIDI §2.4: a completed xid used again */
	CF_K_BIDI_XID_SPACES,  /* BIDI §2.4.1: same xid both directions */
	CF_K_BIDI_CALL_FORM,   /* BIDI §5.1, V1 §7.2.1: the backward call */
	CF_K_BIDI_REPLY_CHUNKS,/* BIDI §5.3: a backward reply with chunks */
	CF_K_COUNT
};

/* flags of a case */
#define CF_F_FRESH   0x01u     /* its own connection, closed after */
#define CF_F_V2      0x02u     /* needs a responder speaking Version Two */
#define CF_F_ECHO    0x04u     /* needs the ECHO program (tools/ulb) */
#define CF_F_DDP     0x08u     /* needs a DDP-eligible argument (ECHO, NFSv3) */
#define CF_F_NFS     0x20u     /* runs through NFS too (an NFSv3 READ, an
				 * NFSv4.1 back channel) when the program is NFS */
#define CF_F_CALL    0x10u     /* a call the responder must answer: dropping it
				 * silently is a lost reply (V1 §5.5.4) */

/* A malformed (or error) message from tests/vectors/vectors.txt, compiled in
 * by tools/conform/vectors.awk */
struct cf_vector {
	const char *name;
	const char *spec;          /* the vector's "spec =" line */
	const uint8_t *bytes;
	uint32_t len;
	enum rpcrdma_action action;
	enum rpcrdma_reason reason;
};
extern const struct cf_vector cf_vectors[];
extern const size_t cf_nvectors;

/* One case: the custom rows of cases.c are written in this order (name
 * to allowed_why); level and vec are filled when the table is built. */
struct cf_case {
	char name[48];             /* unique: the vector's name or our own */
	enum cf_draft draft;
	char section[40];          /* "§5.5.2" (the draft is `draft`) */
	const char *reqs;          /* requirement ids, space separated: the
				    * first binds the party under test */
	const char *decision;      /* our reading ("D-ERR-4"): a reaction
				    * outside pass/allowed is a NOTE, not a FAIL */
	char text[128];            /* what the rule requires, one line */
	enum cf_kind kind;
	unsigned flags;
	uint32_t vers;             /* RPC-over-RDMA version of its connection */
	uint32_t pass, allowed;    /* CF_M() masks of reactions */
	const char *allowed_why;   /* the MAY (or decision) behind `allowed` */
	enum cf_level level;       /* the keyword of reqs' first sentence; NOKW
				    * when decision is set */
	const struct cf_vector *vec;   /* CF_K_VECTOR */
};

/* The cases written here (tools/conform/cases.tsv, compiled in by
 * cases.awk), level unset */
extern const struct cf_case cf_customs[];
extern const size_t cf_ncustoms;
/* The whole table, draft by draft (custom cases, then the vectors), into
 * out[cap]; returns the number of cases (out NULL: just count). */
size_t cf_cases_build(struct cf_case *out, size_t cap);
/* Map one vector to its case: false when the vector is not a case (valid
 * calls and replies, which test no receiver rule). */
bool cf_case_from_vector(const struct cf_vector *v, struct cf_case *c);
/* c->level from c->reqs and c->decision */
void cf_case_level(struct cf_case *c);
/* The vector's bytes with rdma_xid = xid; an RPC xid that was equal follows
 * it, one that differed keeps its difference (*rpc_xid), so the verdict is
 * unchanged.  Returns the length, 0 when cap is short. */
size_t cf_vector_bytes(const struct cf_vector *v, uint32_t xid, uint8_t *out, size_t cap,
		       uint32_t *rpc_xid);
/* "V1 §5.5.2" */
void cf_case_section(const struct cf_case *c, char *buf, size_t cap);

/* --only/--skip: SPEC is a case-name glob (fnmatch: "v1-read-*"), a draft
 * ("V1", "BIDI") or a section with or without its draft ("V1 §5.5",
 * "V1:5.5.2", "5.5.2", prefix at a component boundary). */
bool cf_spec_matches(const char *spec, const struct cf_case *c);
struct cf_select {
	const char *only[64], *skip[64];
	unsigned nonly, nskip;
};
/* Add "a,b,c" to a list; -1 when the list is full. */
int cf_select_add(const char **list, unsigned *n, char *csv);
bool cf_selected(const struct cf_select *s, const struct cf_case *c);

/* -------- what was observed (filled by the runner) -------- */
#define CF_MAX_XIDS 4
struct cf_obs {
	enum cf_react react;       /* set by cf_classify() or a custom runner */
	bool react_set;            /* a custom runner set it: keep it */
	/* the case's message(s) */
	uint32_t sent_xid[CF_MAX_XIDS];
	unsigned nsent_xid;
	uint32_t sent_vers;        /* rdma_vers of the case's message */
	bool sent_has_xid;         /* at least 4 bytes: an xid to echo */
	bool sent_has_vers;        /* at least 8 bytes: a version to echo */
	int sent_action;           /* libcodec's verdict on it, -1: none */
	uint32_t supported_low, supported_high; /* versions seen answered */
	/* the first answer to it, if any (bytes owned by the runner) */
	const uint8_t *answer;
	size_t answer_len;
	/* events */
	bool disconnected, probe_answered, listener_gone, timed_out;
	/* the case made an RDMA operation fail on the wire (a Read of a
	 * segment we never registered): the error lands on our side of the
	 * connection too, so a probe sent on it may never leave (flushed);
	 * silence there is the connection lost (V1 §5.5.3), not a hang */
	bool rdma_fault;
	char event[300];           /* how the connection ended, connect error */
	/* custom runners: the result of their own checks (empty: none) */
	char fault[200];           /* what was wrong (FAIL, or NOTE for a decision) */
	const char *fault_req;     /* the requirement id (or "D-..." decision) */
	char note[200];            /* observed detail for the report */
	bool allowed;              /* custom: the reaction is one a MAY permits */
	char allowed_why[160];
	unsigned stray;            /* answers whose xid matches nothing sent */
	uint32_t stray_xid;        /* the first of them */
	/* a new connection whose first probe went unanswered was made again,
	 * once (knfsd over siw was seen to lose a new connection's first
	 * Send): counted and printed, never silent */
	unsigned retried;
	char retry_why[160];
	bool skipped;              /* the case could not be run */
	char skip_why[160];
};

/* Classify obs->answer (and the events) into obs->react, unless a custom
 * runner has set it (react_set). */
void cf_classify(struct cf_obs *o);

struct cf_grade {
	enum cf_result result;
	enum cf_level level;       /* of a failure: its sentence's keyword */
	char section[40];          /* of a failure: "V1 §5.5.2" */
	const struct cf_req *req;  /* FAIL: the sentence it rests on */
	const char *decision;      /* NOTE: the decision behind our reading */
	char expected[200];
	char observed[240];
};
/* Grade one case.  Pure: no I/O. */
void cf_grade(const struct cf_case *c, const struct cf_obs *o, struct cf_grade *g);
/* "RDMA_ERROR ERR_BADHEADER or silent discard" for a mask */
void cf_mask_text(uint32_t mask, char *buf, size_t cap);
/* libcodec's section ("V1 5.5.2") as the report writes it ("V1 §5.5.2") */
void cf_section_text(const char *codec, char *out, size_t cap);
/* The answer described: "RDMA_ERROR ERR_VERS 1..2 (xid 0x.., vers 3)" */
void cf_answer_text(const uint8_t *buf, size_t len, char *out, size_t cap);
/* Decode an answer; an RDMA_ERROR in a version the codec does not speak is
 * decoded as the fixed V1 layout (V1 §9.1: the ERR_VERS arm never moves).
 * Returns the codec's action on the (possibly re-versioned) bytes. */
enum rpcrdma_action cf_decode_answer(const uint8_t *buf, size_t len,
				     struct rpcrdma_msg *m, uint32_t *wire_vers);

/* -------- the report -------- */
struct cf_msgrec {             /* one message sent or received */
	bool received;
	const char *role;          /* "case", "probe", "backward", "other" */
	uint32_t len;              /* as on the wire */
	const uint8_t *bytes;      /* first `kept` bytes */
	uint32_t kept;
};
struct cf_totals {
	unsigned n[CF_NDRAFTS][CF_NRESULTS];
	unsigned fail_must[CF_NDRAFTS], fail_should[CF_NDRAFTS];
	unsigned stray;            /* answers whose xid matched nothing sent */
	unsigned retried;          /* connections made again (cf_obs.retried) */
	bool crashed;              /* a case saw the listener go */
};
struct cf_report {
	struct obuf *out;          /* the text, or the JSON with json */
	struct obuf *jout;         /* JSON Lines: out with json, else NULL or
				    * the --json-file */
	bool json, verbose, quiet;
	struct cf_totals t;
	enum cf_draft cur_draft;   /* text: the heading printed last */
	bool heading;
};
void cf_report_init(struct cf_report *r, struct obuf *out, bool json,
		    bool verbose, bool quiet);
void cf_report_header(struct cf_report *r, const char *target,
		      const char *profile, const char *peer);
void cf_report_case(struct cf_report *r, const struct cf_case *c,
		    const struct cf_obs *o, const struct cf_grade *g,
		    const struct cf_msgrec *msgs, unsigned nmsgs,
		    unsigned more, uint64_t ms);
void cf_report_end(struct cf_report *r);
/* --list: the table, one line (or JSON object) per case */
void cf_report_list(struct obuf *out, bool json, const struct cf_select *s);
/* 0 no failure, 1 a MUST failure (or a SHOULD one when strict) */
int cf_report_status(const struct cf_report *r, bool strict);

#endif
