/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cap_end.c - a conversation ends (TCP FIN from both sides or RST, the CM
 * DREP answering a DREQ, a new CM exchange on its QPs, eviction for room,
 * the end of a source):
 * every layer's part, in one place above the layers.  The conversation
 * table (cap_conv.c) calls this through st->ct->end, set by cap_open, and
 * then frees the slot; no layer below names this file.  Order: the TCP
 * stream gives up its gaps and MPA frames what it held (which may print
 * messages), the calls still waiting for their read chunks are printed,
 * the connection record (--json) and the --stats summary are written, the
 * buffers are freed.
 */
#include "cap_state.h"

static void dir_free(struct cap_state *st, struct cap_conv *c,
		     struct cap_dir *d)
{
	cap_reasm_free(st, d);
	if (c->transport == CAP_T_IWARP)
		cap_tcp_free(st, &d->tcp);
	cap_budget_free(st, d->rd, d->rd ? CAP_RDREQ_MAX * sizeof(*d->rd) : 0);
	d->rd = NULL;
}

void cap_conv_end(struct cap_state *st, struct cap_conv *c)
{
	if (c->transport == CAP_T_IWARP) {
		for (int d = 0; d < 2; d++)
			cap_tcp_end(st, c, d);
		cap_iwarp_end(st, c);
	}
	if (c->ncalls)
		cap_msg_flush(st, c);
	cap_conn_close(st, c);
	if (c->transport != CAP_T_IWARP)
		for (int d = 0; d < 2; d++)
			cap_ib_psn_end(st, c, d);
	cap_loss_conv_end(st, c);
	cap_stats_conv_done(st, c);
	for (int d = 0; d < 2 && c->heap; d++)
		dir_free(st, c, &c->d[d]);
}
