/* SPDX-License-Identifier: BSD-3-Clause */
/* ping_nfs41.c - the NFSv4.1 back-channel probe (placeholder). */
#include "ping_probe.h"

void nfs41_backchannel_probe(struct ping_conn *pc, struct probe_item *it)
{
	(void)pc;
	it->result = "not probed";
	item_text(it, "needs an NFSv4.1 session");
}
