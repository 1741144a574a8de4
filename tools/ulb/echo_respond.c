/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * echo_respond.c - the ECHO program's responder over the transport
 * (echo_respond.h), shared by every tool and test that answers ECHO: the
 * rpcrdma-echo server (forward calls), its client, rpcrdma-ping and
 * rpcrdma-conform (backward calls), the tests' responders.  Decode the
 * call (echo_ulb.c),
 * check the DDP-eligibility of what the requester reduced (V1 §8.1.1;
 * docs/echo-ulb.md §2, §5), answer.  A DDP-eligibility violation is
 * reported with RDMA_ERROR / ERR_BADHEADER (V1 §5.5.2), built by libcodec.
 */
#include <stdlib.h>
#include <string.h>
#include "echo_respond.h"

/* Read chunks may sit at position zero (a Long Call) or at the one
 * DDP-eligible item of a call that decodes; backward calls carry no chunks
 * at all (ULB §5).  Data reduced anywhere else makes the call undecodable
 * (GARBAGE_ARGS) or lands where no DDP-eligible item is: either way the
 * call is not processed (V1 §8.1.1).  A chunk at the data item that moves
 * more or fewer bytes than the item's count is no violation: the call is
 * answered GARBAGE_ARGS (V1 §5.5.2 SHOULD). */
static bool ddp_violation(const struct xprt_rcvd_call *r, enum echo_call_status s,
			  const struct echo_args *a)
{
	const struct rpcrdma_msg *m = r->hdr;
	struct rpcrdma_read_iter it;
	struct rpcrdma_read_segment rs;

	if (r->backward)
		return m->nreads || m->nwrites || m->has_reply;
	if (s != ECHO_CALL_OK && s != ECHO_CALL_GARBAGE_ARGS)
		return false;       /* no ULB to judge by, or not even its version */
	rpcrdma_read_iter_init(m, &it);
	while (rpcrdma_read_next(&it, &rs)) {
		if (rs.rdma_position == 0)
			continue;
		/* a chunk at the data item whose length disagrees with the
		 * item's count is not a DDP-eligibility violation: the
		 * arguments do not parse (GARBAGE_ARGS, V1 §5.5.2) */
		if (a->proc == ECHO_PROC_NULL || !a->data_off ||
		    rs.rdma_position != a->data_off)
			return true;
	}
	return false;
}

static int send_badheader(struct xprt_rcvd_call *r, uint32_t credits)
{
	struct rpcrdma_hdr h = {
		.rdma_xid = r->xid, .rdma_vers = r->vers,
		.rdma_credit = credits ? credits : 1, .rdma_proc = RDMA_ERROR,
		.rdma_err = RDMA_ERR_BADHEADER,
	};
	struct xprt_error err;
	uint8_t buf[32];
	size_t n = rpcrdma_encode(&h, buf, sizeof(buf), NULL);

	return n ? xprt_send_raw(r->x, buf, n, &err) : -1;
}

/* An ECHO reply holds the data once more; small ones use the stack */
static int reply_echo(struct xprt_rcvd_call *r, const struct echo_args *a)
{
	uint8_t small[256], *buf = small;
	size_t cap = ECHO_REPLY_HDR_LEN + 4 + a->len + 3, n, off, len;
	int rc;

	if (cap > sizeof(small) && !(buf = malloc(cap)))
		return -1;
	n = echo_encode_reply(buf, cap, a->xid, ECHO_PROC_ECHO, 0, a->data,
			      a->len, &off, &len);
	rc = n ? xprt_reply(r, buf, n, off, len) : -1;
	if (buf != small)
		free(buf);
	return rc;
}

enum echo_resp_result echo_respond(struct xprt_rcvd_call *r, struct echo_args *a,
				   uint32_t credits, struct echo_resp_stats *st)
{
	enum echo_call_status s;
	uint8_t buf[64];
	size_t n;

	s = echo_decode_call(r->msg, r->len, r->backward, a);
	if (s == ECHO_CALL_NOT_RPC) {
		st->dropped++;
		return ECHO_RESP_DROPPED;
	}
	if (ddp_violation(r, s, a)) {
		st->ddp_violations++;
		return send_badheader(r, credits) ? ECHO_RESP_FAILED :
		       ECHO_RESP_REPLIED;
	}
	if (s != ECHO_CALL_OK) {
		st->rpc_errors++;
		n = echo_encode_error(buf, sizeof(buf), a->xid, s);
		return xprt_reply(r, buf, n, 0, 0) ? ECHO_RESP_FAILED :
		       ECHO_RESP_REPLIED;
	}
	switch (a->proc) {
	case ECHO_PROC_NULL:
		st->null_calls++;
		n = echo_encode_reply(buf, sizeof(buf), a->xid, ECHO_PROC_NULL, 0,
				      NULL, 0, NULL, NULL);
		return xprt_reply(r, buf, n, 0, 0) ? ECHO_RESP_FAILED :
		       ECHO_RESP_REPLIED;
	case ECHO_PROC_ECHO:
		st->echo_calls++;
		st->echo_bytes += a->len;
		return reply_echo(r, a) ? ECHO_RESP_FAILED : ECHO_RESP_REPLIED;
	case ECHO_PROC_CALLBACK:
		st->callback_calls++;
		return ECHO_RESP_CALLBACK;
	}
	return ECHO_RESP_DROPPED;
}

int echo_reply_count(struct xprt_rcvd_call *r, uint32_t count)
{
	uint8_t buf[32];
	size_t n = echo_encode_reply(buf, sizeof(buf), r->xid, ECHO_PROC_CALLBACK,
				     count, NULL, 0, NULL, NULL);

	return n ? xprt_reply(r, buf, n, 0, 0) : -1;
}
