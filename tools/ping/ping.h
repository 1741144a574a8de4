/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ping.h - rpcrdma-ping (man/rpcrdma-ping.1): RPC NULL calls over
 * RPC-over-RDMA in ping(8)'s shape, what the peer speaks (--probe) and its
 * inline threshold (--probe-inline).  The pure parts (options, statistics,
 * RPC reply verdicts, output, the threshold search) are declared here
 * beside the parts that drive the transport (tools/transport/xprt.h).
 *
 *   V1 draft-ietf-nfsv4-rfc5666bis-04, V2 draft-cel-nfsv4-rpcrdma-version-two-01,
 *   BIDI draft-ietf-nfsv4-rpcrdma-bidirection-05, private data RFC 8797,
 *   ONC RPC RFC 5531.
 */
#ifndef RPCRDMA_PING_H
#define RPCRDMA_PING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "json.h"
#include "outbuf.h"
#include "xprt.h"

#define PING_PROG "rpcrdma-ping"

/* exit statuses (ping(8)'s) */
enum {
	PING_EXIT_OK = 0,       /* replies came (and the peer was there at the end) */
	PING_EXIT_NOREPLY = 1,  /* none came, or the connection was lost for good */
	PING_EXIT_USAGE = 2,    /* usage or local setup error */
	PING_EXIT_NODEV = 3,    /* no RDMA device (CLI_EXIT_NODEV) */
};

/* -------- options (ping_args.c) -------- */
struct ping_opts {
	const char *host;
	const char *port;              /* "20049" */
	uint32_t prog, vers, proc;     /* proc: 0 (NULL) */
	bool have_vers;
	uint64_t count;                /* 0: until interrupted */
	uint64_t interval_us;          /* between calls; default 1 s */
	uint64_t timeout_us;           /* per reply (-W); 5 s */
	int connect_timeout_ms;        /* --connect-timeout; 0: timeout_us */
	bool quiet, json;
	bool probe, probe_inline;
	int debug;
	/* tests only: the fake verbs, and a hook run once the loop exists
	 * (a responder in the same process listens on it) */
	const struct xprt_verbs *verbs;
	int (*on_loop)(struct xprt_loop *l, void *arg);
	void *on_loop_arg;
};

/* Parses argv into *o.  Returns -1 to go on, or an exit status: 0 after
 * --help or --version (printed on out), PING_EXIT_USAGE after a usage error
 * (message and hint on stderr, tools/common/cliopt). */
int ping_parse_args(int argc, char *argv[], struct ping_opts *o, FILE *out);
/* A program given as a number (decimal or 0x hex) or a name (nfs, nfs-cb,
 * mount, nlm, portmap, echo); false if neither. */
bool ping_parse_program(const char *s, uint32_t *prog);
/* Seconds with up to six decimals ("0.2", "5", "1.000001") into
 * microseconds, at most max_us; false on anything else. */
bool ping_parse_seconds(const char *s, uint64_t max_us, uint64_t *us);
/* The version a program is pinged with when -V is not given; 0: none. */
uint32_t ping_default_version(uint32_t prog);

/* -------- statistics (ping_stats.c) -------- */
#define PING_MAX_SAMPLES (1u << 22)    /* exact percentiles over the first 4 Mi */

struct ping_stats {
	uint64_t sent, received, errors;
	uint64_t *rtt;                 /* ns, in arrival order (sorted by
					* ping_stats_summary) */
	size_t n, cap;
	uint64_t min, max;
	double mean, m2;               /* Welford's running mean and sum of
					* squared deviations */
	bool oom;                      /* a sample could not be stored */
};
struct ping_summary {
	uint64_t sent, received, errors;
	double loss_pct;
	uint64_t min, max, p50, p99;   /* ns */
	double avg, mdev;              /* ns */
	bool have_rtt;
};
void ping_stats_init(struct ping_stats *s);
void ping_stats_free(struct ping_stats *s);
void ping_stats_add(struct ping_stats *s, uint64_t rtt_ns);
/* Sorts the stored samples. */
void ping_stats_summary(struct ping_stats *s, struct ping_summary *out);
/* Nearest-rank percentile of n sorted values: the ceil(p*n/100)-th. */
uint64_t ping_percentile(const uint64_t *sorted, size_t n, unsigned p);
/* The run's exit status: no replies, or a connection lost and not back at
 * the end, is 1. */
int ping_exit_status(const struct ping_summary *s, bool lost_at_end);

/* -------- RPC replies (ping_rpc.c) -------- */
enum ping_rpc_status {
	PING_RPC_SUCCESS = 0,
	PING_RPC_PROG_UNAVAIL,
	PING_RPC_PROG_MISMATCH,        /* low..high: versions the server has */
	PING_RPC_PROC_UNAVAIL,
	PING_RPC_GARBAGE_ARGS,
	PING_RPC_SYSTEM_ERR,
	PING_RPC_ACCEPT_OTHER,         /* an accept_stat RFC 5531 does not name */
	PING_RPC_RPC_MISMATCH,         /* denied: RPC versions low..high */
	PING_RPC_AUTH_ERROR,           /* denied: auth_stat in stat */
	PING_RPC_DENIED_OTHER,
	PING_RPC_MALFORMED,            /* not an RPC reply we can read */
	PING_RPC_NOT_REPLY,            /* msg_type is CALL */
	PING_RPC_XID_MISMATCH,
};
struct ping_rpc_result {
	enum ping_rpc_status status;
	uint32_t xid;
	uint32_t stat;                 /* accept_stat, or auth_stat */
	uint32_t low, high;            /* PROG_MISMATCH / RPC_MISMATCH */
	uint32_t body_off;             /* first byte of the results */
};
/* Judge the RPC reply to call `xid` (header decoded by libcodec). */
void ping_rpc_judge(const uint8_t *msg, size_t len, uint32_t xid,
		    struct ping_rpc_result *r);
const char *ping_rpc_status_name(enum ping_rpc_status s); /* "PROG_UNAVAIL" */
/* The RPC call of prog/vers/proc, AUTH_NONE, with `pad` zero bytes of
 * arguments; xid 0 (the transport sets it).  Returns the length, 0 when
 * cap is too small. */
size_t ping_rpc_call(uint8_t *buf, size_t cap, uint32_t prog, uint32_t vers,
		     uint32_t proc, size_t pad);

/* -------- the transport's errors in a user's words (ping_out.c) -------- */
/* Exit status for a failure to connect or to stay connected. */
int ping_errcode_exit(enum xprt_errcode c);
/* One line of advice after the transport's message, or NULL. */
const char *ping_errcode_hint(enum xprt_errcode c);

/* -------- output (ping_out.c) -------- */
struct ping_out {
	struct obuf o;
	bool json, quiet;
	const char *addr;              /* "198.18.0.1:20049" */
};
void ping_out_init(struct ping_out *p, FILE *f, bool json, bool quiet);
void ping_out_flush(struct ping_out *p);
/* µs with one decimal from ns: 38412 -> "38.4" (rounded half up) */
void ping_put_us(struct obuf *o, uint64_t ns);
/* integer-or-one-decimal percentage: 0, 33.3, 100 */
void ping_put_pct(struct obuf *o, double pct);

struct ping_target {
	const char *host;              /* as given */
	const char *addr;              /* peer address:port, once known */
	const char *device;            /* local RDMA device, once known */
	uint32_t prog, vers, proc;
};
void ping_out_start(struct ping_out *p, const struct ping_target *t);
/* the short "what the peer speaks" lines (once, after the first call) */
void ping_out_peer(struct ping_out *p, const struct xprt_peer_info *pi,
		   bool have_reply, uint32_t reply_vers, uint32_t reply_credits);
struct ping_reply {
	uint64_t seq;
	uint32_t xid;
	uint32_t vers, credits;        /* from the reply's transport header */
	uint64_t rtt_ns;
	size_t len;                    /* the RPC reply's length */
};
void ping_out_reply(struct ping_out *p, const struct ping_reply *r);
/* An RPC reply that is not SUCCESS (counted as an error) */
void ping_out_rpc_error(struct ping_out *p, const struct ping_reply *r,
			const struct ping_target *t,
			const struct ping_rpc_result *res);
/* An RDMA_ERROR reply to a call */
void ping_out_rdma_error(struct ping_out *p, const struct ping_reply *r,
			 const struct rpcrdma_msg *hdr);
/* A call that got no reply: timeout, connection lost, cannot connect */
void ping_out_noreply(struct ping_out *p, uint64_t seq, uint32_t xid,
		      const struct xprt_error *e);
/* Something about the connection (reconnected, lost) */
void ping_out_event(struct ping_out *p, const char *event, const char *text);
void ping_out_summary(struct ping_out *p, const struct ping_target *t,
		      const struct ping_summary *s, uint64_t elapsed_ns);
/* A fatal error: "rpcrdma-ping: msg" and the hint on stderr, and in JSON
 * mode one {"type":"fatal"} object on out. */
void ping_out_fatal(struct ping_out *p, const struct xprt_error *e);
/* names for the program being pinged: "NFS", "ECHO" or NULL */
const char *ping_prog_name(uint32_t prog);
/* "private_data": {...} | null, "inline_send", "inline_recv" keys */
void ping_json_private(struct json *j, const struct xprt_peer_info *pi);
/* "Version Two refused (version error, range 1..1)" and the like */
void ping_put_v2_outcome(struct obuf *o, const struct xprt_peer_info *pi);

/* -------- inline threshold search (ping_search.c) -------- */
/* Finds the largest Send size (a multiple of 4) a peer receives, by trying
 * sizes: first its claim, then claim + 4, then doubling (each doubling that
 * gets through is checked at + 4 too) or bisecting. */
struct ping_search {
	uint32_t good;                 /* largest size known to get through */
	uint32_t bad;                  /* smallest size known to fail; 0: none */
	uint32_t min, max;             /* what can be sent at all */
	uint32_t claim;                /* private data (or version default) */
	uint32_t round;                /* the claim, or a doubling of it, that
					* got through */
	uint32_t tries;
	bool claim_tried, plus_tried;  /* round + 4 tried */
};
void ping_search_init(struct ping_search *s, uint32_t min, uint32_t max,
		      uint32_t claim);
/* The next size to try, or 0 when the answer is known (ping_search_result) */
uint32_t ping_search_next(const struct ping_search *s);
void ping_search_record(struct ping_search *s, uint32_t size, bool ok);
/* The largest size that got through (0: not even min); *exact: a size 4
 * bytes larger is known to fail (false when max was reached). */
uint32_t ping_search_result(const struct ping_search *s, bool *exact);

/* -------- the parts that talk to a peer -------- */
int ping_run(const struct ping_opts *o);          /* ping_run.c */
int ping_probe(const struct ping_opts *o);        /* ping_probe.c */
int ping_probe_inline(const struct ping_opts *o); /* ping_inline.c */

#endif
