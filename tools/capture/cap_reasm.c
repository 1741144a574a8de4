/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cap_reasm.c - reassembling one RDMA Send from its packets: IB/RoCE SEND
 * FIRST/MIDDLE/LAST per QP in PSN order (IBTA 9.4.1, 9.7.5), iWARP untagged
 * DDP segments of queue 0 by MSN and MO (RFC 5041 5.2, 7).  The whole Send
 * payload is the RPC-over-RDMA message (V1 4.2).
 */
#include <string.h>
#include "cap_state.h"

void cap_reasm_free(struct cap_state *st, struct cap_dir *d)
{
	cap_budget_free(st, d->sbuf, d->scap);
	d->sbuf = NULL;
	d->scap = d->slen = 0;
	d->sactive = false;
}

static bool append(struct cap_state *st, const struct cap_frame *f,
		   struct cap_dir *d, const uint8_t *p, uint32_t len)
{
	if (len > CAP_MAX_SEND - d->slen) {
		st->lost.sends++;
		cap_warn_once(st, CAP_W_SEND_BIG, "frame %llu: a Send longer than "
			      "%u bytes is not reassembled",
			      (unsigned long long)f->num, CAP_MAX_SEND);
		d->sactive = false;
		return false;
	}
	if (!cap_budget_grow(st, &d->sbuf, &d->scap, d->slen, d->slen + len, 4096)) {
		d->sactive = false;
		return false;
	}
	if (len)                           /* sbuf may not exist yet */
		memcpy(d->sbuf + d->slen, p, len);
	d->slen += len;
	return true;
}

static void lost(struct cap_state *st, const struct cap_frame *f,
		 struct cap_conv *c, struct cap_dir *d, const char *why)
{
	c->stats.unmatched++;
	cap_frame_error(st, f, "%s: Send from frame %llu not reassembled", why,
			(unsigned long long)d->sfirst);
	d->sactive = false;
}

void cap_reasm_ib_send(struct cap_state *st, const struct cap_frame *f,
		       struct cap_conv *c, int dir, enum cap_frag frag,
		       uint32_t psn, const uint8_t *p, uint32_t len, bool partial)
{
	struct cap_dir *d = &c->d[dir];

	if (partial && frag != CAP_FRAG_ONLY) {
		if (d->sactive)
			lost(st, f, c, d, "SEND packet cut short by the snapshot length");
		return;
	}

	if (frag == CAP_FRAG_ONLY || frag == CAP_FRAG_FIRST) {
		if (d->sactive)
			lost(st, f, c, d, "SEND LAST missing");
		if (frag == CAP_FRAG_ONLY) {
			cap_msg_send(st, f, c, dir, p, len, partial, f->num, 1);
			return;
		}
		d->sactive = true;
		c->heap = true;          /* sbuf: freed on close */
		d->slen = 0;
		d->sfirst = f->num;
		d->sfrags = 1;
		d->snext_psn = (psn + 1) & 0xffffffu;
		append(st, f, d, p, len);
		return;
	}
	if (!d->sactive)
		return;                    /* its FIRST was not captured */
	if (psn != d->snext_psn) {
		lost(st, f, c, d, "SEND packets missing (PSN gap)");
		return;
	}
	d->snext_psn = (psn + 1) & 0xffffffu;
	if (!append(st, f, d, p, len))
		return;
	d->sfrags++;
	if (frag == CAP_FRAG_LAST) {
		d->sactive = false;
		cap_msg_send(st, f, c, dir, d->sbuf, d->slen, false, d->sfirst,
			     d->sfrags);
	}
}

void cap_reasm_ddp_send(struct cap_state *st, const struct cap_frame *f,
			struct cap_conv *c, int dir, uint32_t msn, uint32_t mo,
			bool last, const uint8_t *p, uint32_t len)
{
	struct cap_dir *d = &c->d[dir];

	if (mo == 0) {
		if (d->sactive)
			lost(st, f, c, d, "DDP Send segments missing");
		if (last) {
			cap_msg_send(st, f, c, dir, p, len, false, f->num, 1);
			return;
		}
		d->sactive = true;
		c->heap = true;          /* sbuf: freed on close */
		d->smsn = msn;
		d->slen = 0;
		d->sfirst = f->num;
		d->sfrags = 1;
		append(st, f, d, p, len);
		return;
	}
	if (!d->sactive)
		return;
	if (msn != d->smsn || mo != d->slen) {
		lost(st, f, c, d, "DDP Send segment out of order (MSN/MO)");
		return;
	}
	if (!append(st, f, d, p, len))
		return;
	d->sfrags++;
	if (last) {
		d->sactive = false;
		cap_msg_send(st, f, c, dir, d->sbuf, d->slen, false, d->sfirst,
			     d->sfrags);
	}
}
