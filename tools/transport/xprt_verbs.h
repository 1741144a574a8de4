/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * xprt_verbs.h - the rdma_cm and verbs calls the transport makes, as one
 * small table of functions, so that the transport (and every tool above
 * it) runs over rdma-core (xprt_verbs_rdma.c: librdmacm + libibverbs) or
 * over the in-process fake of the unit tests (tests/transport/fake_verbs.c)
 * unchanged.
 *
 * The model is rdma_cm's: one event channel per loop; one CM id per
 * listener or connection; a connected id owns its verbs resources (one
 * protection domain, one completion queue with its completion channel, one
 * RC queue pair).  Every call is non-blocking; results come as CM events
 * and work completions, both behind file descriptors for poll(2).
 * Functions return 0 (or a pointer) on success, -1 (or NULL) with errno
 * set on failure.  Enumerations are our own, so that nothing above this
 * table includes rdma-core's headers.
 */
#ifndef RPCRDMA_XPRT_VERBS_H
#define RPCRDMA_XPRT_VERBS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

struct xv_chan;                  /* a CM event channel */

/* A CM id.  Implementations embed it first in their own struct. */
struct xv_id {
	void *ctx;               /* the owner's (the transport's) */
	char dev_name[32];       /* RDMA device once bound ("rxe0"), or "" */
};

/* -------- CM events -------- */
enum xv_event_type {
	XV_EV_ADDR_RESOLVED = 0,
	XV_EV_ADDR_ERROR,
	XV_EV_ROUTE_RESOLVED,
	XV_EV_ROUTE_ERROR,
	XV_EV_CONNECT_REQUEST,   /* listener: id is the new connection's */
	XV_EV_ESTABLISHED,
	XV_EV_REJECTED,          /* status: reject reason (below) or -errno */
	XV_EV_UNREACHABLE,
	XV_EV_CONNECT_ERROR,
	XV_EV_DISCONNECTED,
	XV_EV_DEVICE_REMOVAL,
	XV_EV_OTHER,             /* anything else (ignored) */
};
/* IB CM reject reasons rdma_cm reports in XV_EV_REJECTED's status
 * (InfiniBand Architecture, CM REJ "Reason"): nobody listens on the
 * service id (port), or the peer's consumer rejected us. */
#define XV_REJ_INVALID_SERVICE_ID 8
#define XV_REJ_CONSUMER_DEFINED 28

#define XV_PDATA_MAX 196          /* the largest private data rdma_cm carries */
struct xv_event {
	enum xv_event_type type;
	struct xv_id *id;         /* the id the event is for */
	struct xv_id *listen_id;  /* XV_EV_CONNECT_REQUEST: the listener */
	int status;
	uint8_t pdata[XV_PDATA_MAX]; /* private data of a connect request,
				      * accept or reject (copied) */
	uint32_t pdata_len;
};

/* -------- memory -------- */
enum {
	XV_ACCESS_LOCAL_WRITE = 1u << 0,
	XV_ACCESS_REMOTE_READ = 1u << 1,
	XV_ACCESS_REMOTE_WRITE = 1u << 2,
	XV_ACCESS_MW_BIND = 1u << 3,
};
struct xv_mr {                    /* a registered region */
	void *addr;
	size_t len;
	uint32_t lkey, rkey;
	void *priv;               /* the implementation's */
};
struct xv_mw {                    /* a type 2 memory window */
	uint32_t rkey;            /* current (changes with each bind) */
	void *priv;
};

/* -------- work requests and completions -------- */
enum xv_opcode {
	XV_OP_SEND = 0,
	XV_OP_SEND_INV,           /* Send With Invalidate (of invalidate_rkey) */
	XV_OP_RDMA_WRITE,
	XV_OP_RDMA_READ,
	XV_OP_LOCAL_INV,          /* invalidate_rkey, a memory window */
	XV_OP_BIND_MW,
	XV_OP_RECV,               /* completions only */
};
enum xv_wc_status {
	XV_WC_SUCCESS = 0,
	XV_WC_LOC_LEN_ERR,        /* receive buffer too small */
	XV_WC_LOC_PROT_ERR,       /* local key or bounds */
	XV_WC_WR_FLUSH_ERR,       /* flushed: the QP is in the error state */
	XV_WC_REM_ACCESS_ERR,     /* remote key, bounds or access */
	XV_WC_REM_INV_REQ_ERR,    /* the peer could not take the request */
	XV_WC_RNR_RETRY_EXC_ERR,  /* the peer had no Receive posted */
	XV_WC_RETRY_EXC_ERR,      /* the peer is gone */
	XV_WC_REM_OP_ERR,
	XV_WC_OTHER_ERR,
};
struct xv_sge {
	void *addr;
	uint32_t len;
	uint32_t lkey;
};
struct xv_send_wr {
	uint64_t wr_id;
	enum xv_opcode opcode;
	bool signaled;
	const struct xv_sge *sge;
	int nsge;
	uint64_t remote_addr;     /* RDMA Read / Write */
	uint32_t rkey;
	uint32_t invalidate_rkey; /* SEND_INV, LOCAL_INV */
	/* BIND_MW: window mw over [bind_addr, +bind_len) of bind_mr */
	struct xv_mw *mw;
	struct xv_mr *bind_mr;
	uint64_t bind_addr;
	size_t bind_len;
	unsigned bind_access;     /* XV_ACCESS_REMOTE_* */
};
struct xv_wc {
	uint64_t wr_id;
	enum xv_wc_status status;
	enum xv_opcode opcode;    /* for errors other than on receives, the
				   * implementation may not know: the
				   * transport keeps the opcode in wr_id */
	uint32_t byte_len;        /* receives */
	bool with_inv;            /* a Send With Invalidate was received */
	uint32_t inv_rkey;
};

/* -------- a connection's resources -------- */
struct xv_qp_caps {
	uint32_t max_send_wr, max_recv_wr;
	uint32_t max_send_sge;
	uint32_t max_rd_atomic;   /* RDMA Reads in flight, both directions */
};
struct xv_conn_param {            /* rdma_conn_param */
	const void *pdata;
	uint32_t pdata_len;
	uint8_t responder_resources, initiator_depth;
	uint8_t retry_count, rnr_retry_count;
};
struct xv_dev_info {
	char name[32];
	uint32_t max_qp_wr, max_sge, max_qp_rd_atom;
	uint64_t max_mr_size;
	bool has_mw;              /* type 2 memory windows */
	bool iwarp;
};

struct xprt_verbs {
	const char *name;         /* "rdma-core", "fake" */

	/* CM: one event channel per loop, events non-blocking */
	struct xv_chan *(*chan_create)(void);
	void (*chan_destroy)(struct xv_chan *ch);
	int (*chan_fd)(struct xv_chan *ch);
	/* 0 and *ev filled (and acknowledged), or -1 (EAGAIN: none) */
	int (*get_event)(struct xv_chan *ch, struct xv_event *ev);

	struct xv_id *(*create_id)(struct xv_chan *ch, void *ctx);
	/* also destroys the id's QP, CQ and PD when still there (deregister
	 * its memory first: a PD with regions cannot go) */
	int (*destroy_id)(struct xv_id *id);
	int (*resolve_addr)(struct xv_id *id, const struct sockaddr *dst,
			    int timeout_ms);
	int (*resolve_route)(struct xv_id *id, int timeout_ms);
	int (*listen)(struct xv_id *id, const struct sockaddr *addr,
		      int backlog);
	int (*connect)(struct xv_id *id, const struct xv_conn_param *p);
	int (*accept)(struct xv_id *id, const struct xv_conn_param *p);
	int (*reject)(struct xv_id *id, const void *pdata, uint32_t len);
	int (*disconnect)(struct xv_id *id);
	/* a server's QP received before its ESTABLISHED came: the CM is
	 * told the connection is established (rdma_notify with
	 * IBV_EVENT_COMM_EST), or its disconnect would send no DREQ while it
	 * still waits for the RTU; may be NULL (nothing to tell) */
	int (*notify_established)(struct xv_id *id);
	/* the local and the peer's addresses (after resolve or connect) */
	int (*addrs)(struct xv_id *id, struct sockaddr_storage *local,
		     struct sockaddr_storage *peer);
	/* the device the id is bound to (after resolve or connect request) */
	int (*query_device)(struct xv_id *id, struct xv_dev_info *di);
	/* is there any RDMA device at all? (for the "no device" message) */
	int (*device_count)(void);

	/* PD, CQ with its completion channel, RC QP on the id's device */
	int (*qp_create)(struct xv_id *id, const struct xv_qp_caps *caps);
	/* QP, CQ and completion channel go (no more completions); the PD
	 * stays until destroy_id, so memory can be deregistered between */
	void (*qp_destroy)(struct xv_id *id);
	/* the completion channel's fd; after it polls readable, cq_event()
	 * consumes the notification and re-arms, then cq_poll() until 0 */
	int (*cq_fd)(struct xv_id *id);
	int (*cq_event)(struct xv_id *id);
	int (*cq_poll)(struct xv_id *id, struct xv_wc *wc, int n);

	struct xv_mr *(*reg_mr)(struct xv_id *id, void *addr, size_t len,
				unsigned access);
	int (*dereg_mr)(struct xv_mr *mr);
	struct xv_mw *(*alloc_mw)(struct xv_id *id);
	int (*dealloc_mw)(struct xv_mw *mw);

	int (*post_recv)(struct xv_id *id, uint64_t wr_id,
			 const struct xv_sge *sge);
	int (*post_send)(struct xv_id *id, const struct xv_send_wr *wr);
};

/* rdma-core (xprt_verbs_rdma.c) */
extern const struct xprt_verbs xprt_verbs_rdma;

const char *xv_wc_status_name(enum xv_wc_status s);
const char *xv_event_name(enum xv_event_type t);

#endif /* RPCRDMA_XPRT_VERBS_H */
