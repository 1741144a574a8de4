/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ping_nfs41.c - does an NFS server use the backward direction (BIDI) on
 * our connection?  An NFSv4.1 client ID (EXCHANGE_ID) and a session whose
 * CREATE_SESSION asks for the back channel on the connection it comes on
 * (RFC 8881 §18.36, CREATE_SESSION4_FLAG_CONN_BACK_CHAN).  The server says
 * in csr_flags whether it took it: that is the acceptance of backward
 * traffic on this connection.  A server that checks the channel with
 * CB_NULL gets it answered (ping_conn.c); Linux's nfsd does not for 4.1 and
 * later ("Don't send probe messages for 4.1 or later", nfs4callback.c): it
 * calls back only when it needs to (CB_RECALL...).  The session and the
 * client ID are destroyed again.  AUTH_NONE throughout: no export is
 * touched.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "ping_nfs41.h"
#include "ping_probe.h"
#include "rpcrdma/rpc.h"

#define CB_WAIT_MS 500                 /* for a backward call after it */

/* One NFSv4 COMPOUND whose arguments are in args[alen]; on success *res
 * points at its results in c->reply.  Returns an error text or NULL. */
static const char *compound(struct ping_conn *pc, struct xprt_call *c,
			    uint8_t *buf, size_t cap, size_t alen,
			    const uint8_t **res, size_t *rlen)
{
	struct ping_rpc_result rr;
	static char why[160];

	memset(c, 0, sizeof(*c));
	c->msg = buf;
	c->len = rpc_encode_call(buf, cap, 0, RPC_PROG_NFS, 4, NFS4_PROC_COMPOUND) +
		 alen;
	c->reply_max = 4096;
	if (ping_conn_call(pc, c) < 0 || c->err.code != XPRT_E_OK)
		return c->err.msg[0] ? c->err.msg : "no reply";
	if (c->rdma_error)
		return "RDMA_ERROR";
	ping_rpc_judge(c->reply, c->reply_len, c->xid, &rr);
	if (rr.status != PING_RPC_SUCCESS) {
		snprintf(why, sizeof(why), "RPC %s", ping_rpc_status_name(rr.status));
		return why;
	}
	*res = c->reply + rr.body_off;
	*rlen = c->reply_len - rr.body_off;
	return NULL;
}

void nfs41_backchannel_probe(struct ping_conn *pc, struct probe_item *it)
{
	struct nfs41_exchange_id_res ex;
	struct nfs41_create_session_res cs;
	struct xprt_call c;
	struct timespec now;
	uint8_t buf[512];
	char owner[128], host[64];
	const uint8_t *res;
	const char *why;
	size_t rlen, n, hdr = 40;          /* the RPC call header */
	unsigned before;
	uint32_t st1 = 0, st2 = 0;
	uint64_t end;

	clock_gettime(CLOCK_REALTIME, &now);
	if (gethostname(host, sizeof(host)) != 0)
		snprintf(host, sizeof(host), "localhost");
	host[sizeof(host) - 1] = 0;
	snprintf(owner, sizeof(owner), "rpcrdma-ping/%s/%ld/%lld", host,
		 (long)getpid(), (long long)now.tv_sec);
	n = nfs41_exchange_id_args(buf + hdr, sizeof(buf) - hdr, owner,
				   (uint64_t)now.tv_sec << 32 | (uint64_t)now.tv_nsec);
	if ((why = compound(pc, &c, buf, sizeof(buf), n, &res, &rlen))) {
		it->result = "not probed";
		item_text(it, "NFSv4.1 EXCHANGE_ID: %s", why);
		return;
	}
	if (!nfs41_exchange_id_res(res, rlen, &ex) || ex.status != NFS4_OK) {
		it->result = "not probed";
		item_text(it, "NFSv4.1 EXCHANGE_ID failed (status %u)", ex.status);
		return;
	}
	before = pc->bc_calls;
	n = nfs41_create_session_args(buf + hdr, sizeof(buf) - hdr, ex.clientid,
				      ex.sequence, RPC_PROG_NFS_CB);
	why = compound(pc, &c, buf, sizeof(buf), n, &res, &rlen);
	if (!why && (!nfs41_create_session_res(res, rlen, &cs) || cs.status != NFS4_OK))
		why = "CREATE_SESSION failed";
	if (why) {
		it->result = "not probed";
		item_text(it, "NFSv4.1 %s (status %u)", why, cs.status);
		goto destroy_client;
	}
	it->has_xid = true;
	it->xid = c.xid;
	end = live_now_ns() + CB_WAIT_MS * 1000000ull;
	while (pc->x && pc->bc_calls == before && live_now_ns() < end)
		ping_conn_wait(pc, 100);
	item_num(it, "back_chan", !!(cs.flags & NFS41_SESSION_CONN_BACK_CHAN));
	item_num(it, "backward_calls", pc->bc_calls - before);
	if (pc->bc_calls > before) {
		item_num(it, "cb_xid", pc->bc_xid);
		item_num(it, "cb_prog", pc->bc_prog);
		item_num(it, "cb_proc", pc->bc_proc);
	}
	it->result = cs.flags & NFS41_SESSION_CONN_BACK_CHAN ? "accepted" : "refused";

	n = nfs41_destroy_session_args(buf + hdr, sizeof(buf) - hdr, cs.sessionid);
	if (!compound(pc, &c, buf, sizeof(buf), n, &res, &rlen))
		nfs41_status_res(res, rlen, NFS4_OP_DESTROY_SESSION, &st1);
	else
		st1 = UINT32_MAX;
	if (pc->bc_calls > before)
		item_text(it, "CREATE_SESSION %s the back channel on this connection; "
			  "the server called %s backward (xid 0x%08x), answered; "
			  "session and client ID destroyed%s",
			  cs.flags & NFS41_SESSION_CONN_BACK_CHAN ? "granted" : "refused",
			  pc->bc_prog == RPC_PROG_NFS_CB && pc->bc_proc == 0 ? "CB_NULL" :
			  "a procedure", pc->bc_xid, st1 ? " (DESTROY_SESSION failed)" : "");
	else
		item_text(it, "CREATE_SESSION %s the back channel on this connection "
			  "(csr_flags CONN_BACK_CHAN%s); no backward call in %u ms (Linux "
			  "sends none unprompted for NFSv4.1); session and client ID "
			  "destroyed%s",
			  cs.flags & NFS41_SESSION_CONN_BACK_CHAN ? "granted" : "refused",
			  cs.flags & NFS41_SESSION_CONN_BACK_CHAN ? "" : " clear", CB_WAIT_MS,
			  st1 ? " (DESTROY_SESSION failed)" : "");
destroy_client:
	n = nfs41_destroy_clientid_args(buf + hdr, sizeof(buf) - hdr, ex.clientid);
	if (!compound(pc, &c, buf, sizeof(buf), n, &res, &rlen))
		nfs41_status_res(res, rlen, NFS4_OP_DESTROY_CLIENTID, &st2);
	if (st2)
		item_num(it, "destroy_clientid_status", st2);
}
