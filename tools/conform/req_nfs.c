/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * req_nfs.c - the NFSv3 responder of rpcrdma-conform --requester on the
 * transport: every forward call answered by tools/ulb/nfs3_serve.c and sent
 * back with xprt_reply(), which takes the way libcodec's rules give (inline;
 * a READ's data into the requester's write chunk; a reply that does not fit
 * inline into its reply chunk).  Backward calls are not ours to take.
 */
#include <string.h>
#include "req.h"

static void on_call(struct xprt_rcvd_call *rc, void *arg)
{
	struct cf_req_nfs *n = arg;
	struct cf_req_counts *c = n->counts;
	struct nfs3_served s;
	size_t len;

	if (rc->backward)
		return;
	len = nfs3_serve(rc->msg, rc->len, n->out, sizeof(n->out), &s);
	if (!len) {
		c->not_rpc++;
		return;
	}
	if (s.prog == NFS3_PROG && s.proc < 22)
		c->nfs[s.proc]++;
	else if (s.prog == NFS3_PROG)
		c->nfs_other++;
	else if (s.prog == MOUNT3_PROG && s.proc < 6)
		c->mount[s.proc]++;
	else
		c->mount_other++;
	c->read_bytes += s.ddp_len;
	if (xprt_reply(rc, n->out, len, s.ddp_off, s.ddp_len) < 0)
		c->reply_failed++;
}

static void on_connect(struct xprt *x, void *arg)
{
	struct cf_req_nfs *n = arg;

	(void)x;
	n->counts->connections++;
}

static void on_disconnect(struct xprt *x, enum xprt_disc_reason why, void *arg)
{
	struct cf_req_nfs *n = arg;

	(void)x;
	(void)why;
	n->counts->disconnects++;
}

void cf_req_nfs_handlers(struct cf_req_nfs *n, struct xprt_handlers *h)
{
	memset(h, 0, sizeof(*h));
	h->on_call = on_call;
	h->on_connect = on_connect;
	h->on_disconnect = on_disconnect;
	h->arg = n;
}
