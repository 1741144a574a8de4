/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * capture.h - the capture pipeline's shared types, limits and layer entry
 * points (docs/capture.md).  Frames flow down; the flow is a Y, whose two
 * arms, Sends and RDMA data, meet at calls:
 *
 *   cap_read.c (pcap, pcapng) | cap_live.c (libpcap) | a caller
 *     -> cap_frame_in -> cap_link.c -> cap_net.c
 *          -> cap_ib.c (BTH; CM MADs to cap_cm.c)   | cap_tcp.c -> cap_iwarp.c
 *             the conversation is found here, before any reassembly
 *             (cap_conv.c: QP pair | TCP 4-tuple)     (MPA, DDP, RDMAP)
 *
 *     Sends:     SEND packets | untagged DDP  -> cap_reasm.c -> cap_msg_send
 *     RDMA data: Write, Read Response | tagged DDP            -> cap_msg_rdma
 *                                         (cap_chunks.c: segment matched)
 *     meet at the call (cap_msg.c, cap_chunks.c's calls): a call waits for
 *     its read chunks, a reply is checked against its call's chunks
 *       -> cap_emit.c: filters, --stats tally (cap_stats.c), -w marks
 *          (cap_write.c), --plot (cap_plot.c), the violations held
 *          (cap_lint.c), msgprint
 *
 * A conversation ends (TCP FIN/RST, the CM DREP answering a DREQ, a new
 * REQ/REP on its QPs, eviction for room, the end of a source) through
 * cap_conv_close(), which
 * calls back up through st->ct.end to cap_conv_end() (cap_end.c, above the
 * layers: TCP and MPA give up what they hold, waiting calls are printed,
 * the connection record and --stats summary written, buffers freed) and
 * then frees the slot.  Below every layer: cap_conv.c, cap_conn.c,
 * cap_lint.c, cap_util.c, cap_crc.c, cap_cur.h.  The run (cap_main.c,
 * cap_run.c) sits on top.  tests/arch/callgraph.py (suite 06-arch) checks
 * that no call circle is left.
 */
#ifndef RPCRDMA_CAPTURE_H
#define RPCRDMA_CAPTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* -------- the pipeline's API for the tools (rpcrdma-decode -r, and any
 * program that reads captures): its own options, not one command line's */
struct cap_opts {
	bool json;                     /* JSON Lines */
	bool verbose;                  /* the full tree, reassembly sources */
	bool stats;                    /* per-conversation statistics at the end */
	bool check;                    /* protocol lint only */
	bool quiet;                    /* no per-message output */
	uint16_t roce_port;            /* RoCEv2 UDP port (4791) */
	uint32_t inline_threshold;     /* 0: per version (V1 4.3.2, V2 2.3) */
	bool name_files;               /* text output names the capture on
					* every line (several files) */
	bool check_inline;             /* --check findings after the message
					* they concern, in every output mode */
	uint64_t count;                /* stop after this many messages (0: all) */
	const char *write_path;        /* -w: frames to this pcapng file ("-":
					* standard output) */
	const char *filter;            /* a pcap-filter(7) expression, or NULL */
	const char *plot_path;         /* --plot FILE.svg|.png|.gp (with stats) */
	uint32_t buffer_kib;           /* -i: the kernel's capture buffer, KiB
					* (0: LIVE_BUFFER, cap_live.c) */
	uint8_t time_format;           /* enum cap_time: the TIME column */
	bool no_crc_check;             /* decode packets whose ICRC, VCRC or
					* MPA CRC is wrong (a NIC that fills
					* them after the capture point) */
	uint8_t mpa_crc, mpa_markers;  /* enum cap_force: over the MPA
					* handshake or the assumption without */
	/* Filters, in every mode (printing, --stats, --check): a message
	 * passes when it matches one value of each kind given */
	const uint32_t *xids; uint32_t nxids;
	const uint32_t *convs; uint32_t nconvs;
	bool have_vers; uint32_t vers;
	const uint32_t *progs; uint32_t nprogs;
	const uint32_t *procs; uint32_t nprocs;      /* procedure numbers */
	/* procedure names (any program's) or NFSv4 COMPOUND operation names */
	const char *const *proc_names; uint32_t nproc_names;
};

enum cap_force { CAP_FORCE_AUTO, CAP_FORCE_OFF, CAP_FORCE_ON };

/* The TIME column, as tcpdump's -t ... -ttttt */
enum cap_time {
	CAP_TIME_EPOCH,                /* -tt, the default: 1700000000.123456 */
	CAP_TIME_NONE,                 /* -t */
	CAP_TIME_DELTA,                /* -ttt: since the previous message */
	CAP_TIME_DATE,                 /* -tttt: 2023-11-14T22:13:20.123456 */
	CAP_TIME_RELATIVE,             /* -ttttt: since the first message */
	CAP_TIME_CLOCK,                /* 22:13:20.123456, tcpdump's default */
};

/* Exit statuses, as rpcrdma-decode(1) documents them */
enum {
	CAP_EXIT_OK = 0,
	CAP_EXIT_FAULT = 1,          /* a violation (--check) */
	CAP_EXIT_READ = 3,           /* a capture not read whole, the output
				      * not written, or state lost to a limit */
	CAP_EXIT_NONE = 4,           /* no RPC-over-RDMA message at all */
};

struct cap_state;
struct cap_frame;
/* One run: messages to `out`, complaints to stderr prefixed with the
 * capture's name.  NULL when out of memory. */
struct cap_state *cap_open(const struct cap_opts *o, FILE *out);
/* Read one capture file ("-": standard input); conversations end with it.
 * CAP_EXIT_READ when it cannot be read whole. */
int cap_read_file(struct cap_state *st, const char *path);
/* Or feed frames of link type `dlt` yourself (a live capture): name the
 * source first, end it with cap_source_end().  cap_frame_in() returns
 * false when no more frames are wanted (-c). */
void cap_source_begin(struct cap_state *st, const char *name);
bool cap_frame_in(struct cap_state *st, int dlt, const struct cap_frame *f);
void cap_source_end(struct cap_state *st);
bool cap_link_supported(int dlt);
extern const char cap_link_names[];
/* --stats, the --check total; frees everything.  Returns the exit status:
 * CAP_EXIT_FAULT for a bad capture, a violation, or state lost to a limit */
int cap_close(struct cap_state *st);
/* all of the above over a list of files */
int cap_run(const struct cap_opts *o, const char *const *files, int nfiles);
/* rpcrdma-decode --redact (cap_redact.c): the capture `in` written to
 * `out` ("-": standard output) in its own format, what identifies data or
 * people replaced (man rpcrdma-decode, REDACTION) */
struct cap_redact_opts {
	uint16_t roce_port;
	bool have_key;               /* --redact-key: the same output each run */
	bool keys;                   /* --redact=keys: RDMA handles, addresses */
	bool addresses;              /* --redact=addresses: IP addresses */
	uint8_t key[16];
};
int cap_redact(const struct cap_redact_opts *o, const char *in,
	       const char *out);
/* the same over a capture in memory b[*n], changed in place (no summary
 * on stderr); *n becomes the length kept.  0, or CAP_EXIT_READ: not a
 * capture, out of memory, or cut short (*n then where it broke off) */
int cap_redact_mem(const struct cap_redact_opts *o, const char *name,
		   uint8_t *b, size_t *n);
/* or over a live capture on an interface (cap_live.c), until a signal */
int cap_run_live(const struct cap_opts *o, const char *iface);

/* -------- inside the pipeline -------- */

/* What every layer returns.  As in tcpdump, "the capture cut the bytes
 * short" (truncated) is kept apart from "the bytes are wrong" (invalid) and
 * from "not RPC-over-RDMA traffic" (not ours, silently skipped). */
enum cap_res { CAP_OK = 0, CAP_NOT_OURS, CAP_TRUNCATED, CAP_INVALID };

/* Fixed limits: state stays bounded whatever the capture holds.  The
 * table sizes can be set smaller at build time (the capture fuzz target
 * does, so that each input sets up quickly and reaches the limits). */
#ifndef CAP_MAX_CONVS
#define CAP_MAX_CONVS 4096u          /* open conversations */
#endif
#ifndef CAP_MAX_CALLS
#define CAP_MAX_CALLS 65536u         /* outstanding calls (all conversations) */
#endif
#ifndef CAP_MAX_SEGS
#define CAP_MAX_SEGS 65536u          /* outstanding advertised segments */
#endif
#ifndef CAP_MAX_BUFFERED
#define CAP_MAX_BUFFERED (16u << 20) /* reassembly and rebuild bytes */
#endif
#define CAP_MAX_SEND (1u << 20)      /* one reassembled Send */
#define CAP_REBUILD_MAX (256u << 10) /* one rebuilt RPC message */
#define CAP_RDREQ_MAX 32u            /* outstanding RDMA Reads per direction */
#define CAP_PSN_SEEN 1024u          /* request PSNs remembered per direction */
#ifndef CAP_OOO_MAX
#define CAP_OOO_MAX 256u             /* out-of-order TCP segments per direction:
				      * a fast retransmit of the first segment of
				      * a scaled window (live siw captures hold 45) */
#endif

enum cap_transport { CAP_T_ROCEV2, CAP_T_ROCEV1, CAP_T_IB, CAP_T_IWARP };
const char *cap_transport_name(enum cap_transport t);

struct cap_frame {
	uint64_t num;                /* 1-based, as Wireshark counts */
	int64_t ts_sec;
	uint32_t ts_usec;
	const uint8_t *p;            /* captured bytes */
	uint32_t len;                /* captured length */
	uint32_t wire_len;           /* original length */
};

/* Addresses of one packet as the network layer saw them */
enum cap_family { CAP_AF_LID = 0, CAP_AF_INET = 4, CAP_AF_INET6 = 6 };
struct cap_addr {
	uint8_t family;              /* enum cap_family */
	uint8_t src[16], dst[16];    /* IPv4 in the first 4; LID in the first 2 */
	uint16_t sport, dport;       /* TCP/UDP */
};

struct cap_conv;

/* cap_link.c: one frame of link type `dlt` */
enum cap_res cap_link_frame(struct cap_state *st, int dlt,
			    const struct cap_frame *f);

/* Every layer reads through a checked cursor (cap_cur.h) */
struct cap_cur;

/* cap_net.c: from the ethertype on */
enum cap_res cap_net_ether(struct cap_state *st, const struct cap_frame *f,
			   uint16_t etype, struct cap_cur *c);

/* cap_ib.c: the BTH and what follows (`pkt`); `hdr` the ICRC-covered
 * headers before it (IP+UDP for RoCEv2, GRH for RoCEv1, LRH[+GRH] for IB) */
enum cap_res cap_ib_packet(struct cap_state *st, const struct cap_frame *f,
			   enum cap_transport t, const struct cap_addr *a,
			   const struct cap_cur *hdr, struct cap_cur *pkt);

/* cap_tcp.c: one TCP segment of a possible iWARP stream */
enum cap_res cap_tcp_segment(struct cap_state *st, const struct cap_frame *f,
			     const struct cap_addr *a, struct cap_cur *tcp);

/* cap_iwarp.c: MPA stream bytes of one direction, in order */
struct cap_conv;
void cap_iwarp_stream(struct cap_state *st, const struct cap_frame *f,
		      struct cap_conv *c, int dir, const uint8_t *p,
		      uint32_t len);
bool cap_iwarp_plausible(const uint8_t *p, uint32_t len);
/* `gap` stream bytes of direction `dir` are missing: drop the partial
 * FPDU (returns its bytes) and find the next FPDU boundary (RFC 5044 4) */
uint32_t cap_iwarp_gap(struct cap_state *st, struct cap_conv *c, int dir,
		       uint32_t gap);
/* cap_mpa.c: where an FPDU starts in the bytes after a gap of a stream
 * without markers (lengths, DDP/RDMAP versions, the CRC32c when `crc`);
 * UINT32_MAX when not found in b[0..n).  Pure: the redactor's too. */
uint32_t cap_mpa_resync(bool crc, const uint8_t *b, uint32_t n);

/* cap_ib.c: the ICRC of a packet (`hdr` as cap_ib_packet's, `p` the BTH
 * to the ICRC), computed in `scratch` (CAP_CRCBUF bytes); false when it
 * does not fit */
bool cap_icrc(enum cap_transport t, const uint8_t *hdr, uint32_t hdr_len,
	      const uint8_t *p, uint32_t len, uint8_t *scratch, uint32_t *crc);

/* cap_crc.c */
uint32_t cap_crc32(uint32_t crc, const uint8_t *p, size_t n);   /* IB ICRC */
/* the CRC-32 of two pieces, a then b (as cap_crc32 over both, from 0) */
uint32_t cap_crc32_2(const uint8_t *a, size_t na, const uint8_t *b, size_t nb);
uint32_t cap_crc32c(uint32_t crc, const uint8_t *p, size_t n);  /* MPA */
uint16_t cap_crc16_vcrc(const uint8_t *p, size_t n);            /* IB VCRC */
uint32_t cap_crc32_sw(uint32_t crc, const uint8_t *p, size_t n); /* no SIMD */
uint32_t cap_crc32c_sw(uint32_t crc, const uint8_t *p, size_t n);

/* A checksum's verdict.  The fuzz build (-DCAP_FUZZ_CRC) lets any field
 * pass but all ones, so that fuzzed inputs reach what lies behind the
 * VCRC, ICRC and MPA CRC, and still the paths of a failure. */
static inline bool cap_crc_verdict(bool ok, const uint8_t *field, size_t n)
{
#ifdef CAP_FUZZ_CRC
	(void)ok;
	for (size_t i = 0; i < n; i++)
		if (field[i] != 0xff)
			return true;
	return false;
#else
	(void)field;
	(void)n;
	return ok;
#endif
}

/* cap_util.c: big-endian loads, address text, buffer budget, warnings */
static inline uint16_t cap_be16(const uint8_t *p)
{
	return (uint16_t)((unsigned)p[0] << 8 | p[1]);
}
static inline uint32_t cap_be24(const uint8_t *p)
{
	return (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
}
static inline uint32_t cap_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}
static inline uint32_t cap_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}
static inline uint64_t cap_be64(const uint8_t *p)
{
	return (uint64_t)cap_be32(p) << 32 | cap_be32(p + 4);
}
void cap_addr_text(char *buf, size_t cap, uint8_t family, const uint8_t *a,
		   uint16_t port, bool with_port);
uint64_t cap_elapsed_us(int64_t s0, uint32_t us0, int64_t s1, uint32_t us1);
void *cap_budget_alloc(struct cap_state *st, size_t n);
void cap_budget_free(struct cap_state *st, void *p, size_t n);
bool cap_budget_grow(struct cap_state *st, uint8_t **buf, uint32_t *cap,
		     uint32_t used, uint32_t need, uint32_t first);
void cap_warn_once(struct cap_state *st, unsigned which, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void cap_progress_clear(struct cap_state *st);
void cap_frame_error(struct cap_state *st, const struct cap_frame *f,
		     const char *fmt, ...) __attribute__((format(printf, 3, 4)));

enum cap_warn {
	CAP_W_CONVS, CAP_W_CALLS, CAP_W_SEGS, CAP_W_BUDGET, CAP_W_SEND_BIG,
	CAP_W_MPA_ASSUMED, CAP_W_OOO, CAP_W_HUNT, CAP_W_COUNT
};

#endif
