/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cap_ib.c - InfiniBand transport headers (IBTA vol. 1 ch. 9): BTH, RETH,
 * AETH, IETH, ImmDt for the Reliable Connected opcodes RPC-over-RDMA uses
 * (SEND, RDMA WRITE, RDMA READ request/response, ACKNOWLEDGE), and the
 * ICRC (IBTA 7.8.1; RoCE annexes A16/A17 and routed IB packets: the LRH
 * replaced by 8 bytes of 0xff, variant IP/UDP/GRH/BTH fields masked to
 * ones; local IB packets: the LRH with its VL masked).
 */
#include <string.h>
#include "cap_cur.h"
#include "cap_state.h"

enum {
	OP_SEND_FIRST = 0x00, OP_SEND_MIDDLE, OP_SEND_LAST, OP_SEND_LAST_IMM,
	OP_SEND_ONLY, OP_SEND_ONLY_IMM, OP_WRITE_FIRST, OP_WRITE_MIDDLE,
	OP_WRITE_LAST, OP_WRITE_LAST_IMM, OP_WRITE_ONLY, OP_WRITE_ONLY_IMM,
	OP_READ_REQ, OP_READ_RESP_FIRST, OP_READ_RESP_MIDDLE,
	OP_READ_RESP_LAST, OP_READ_RESP_ONLY, OP_ACK, OP_ATOMIC_ACK,
	OP_CMP_SWAP, OP_FETCH_ADD, OP_RESV15, OP_SEND_LAST_INV,
	OP_SEND_ONLY_INV,
	OP_UD_SEND_ONLY = 0x64,        /* CM MADs on QP1 */
};

/* extended transport header bytes after the BTH, per RC opcode */
static const uint8_t ext_len[24] = {
	0, 0, 0, 4, 0, 4, 16, 0, 0, 4, 16, 20,
	16, 4, 0, 4, 4, 4, 12, 28, 28, 0, 4, 4,
};

#define BTH_LEN 12u
#define PSN_MASK 0xffffffu
#define PSN_RETRANS_WINDOW 65536       /* how far back a retransmission goes */

static int32_t psn_diff(uint32_t a, uint32_t b)
{
	uint32_t d = (a - b) & PSN_MASK;
	return d & 0x800000u ? (int32_t)d - 0x1000000 : (int32_t)d;
}

/* Mask the fields an IPv6 header or GRH may change in flight */
static void mask_v6(uint8_t *h)
{
	h[0] |= 0x0f;
	h[1] = h[2] = h[3] = 0xff;
	h[7] = 0xff;
}

/* The ICRC: the headers copied to `scratch` (CAP_CRCBUF bytes) with the
 * variant fields masked to ones, and for RoCE 8 bytes of ones in place of
 * the LRH, then the packet's own bytes.  False when the packet does not
 * fit (over 16 KiB: not an IB packet).  Also rpcrdma-decode --redact's, to write it anew. */
bool cap_icrc(enum cap_transport t, const uint8_t *hdr, uint32_t hdr_len,
	      const uint8_t *p, uint32_t len, uint8_t *scratch, uint32_t *crc)
{
	uint8_t *h = scratch;
	uint32_t pre = t == CAP_T_IB ? 0 : 8;

	if (t == CAP_T_IWARP || len < 4 || hdr_len > CAP_CRCBUF - pre ||
	    len - 4 > CAP_CRCBUF - pre - hdr_len)
		return false;
	if (pre) {
		memset(h, 0xff, 8);
		h += 8;
	}
	if (hdr_len == 28)                     /* IPv4 + UDP: a fixed copy */
		memcpy(h, hdr, 28);
	else
		memcpy(h, hdr, hdr_len);
	switch (t) {
	case CAP_T_ROCEV2:
		if ((h[0] >> 4) == 4) {
			h[1] = 0xff;           /* TOS */
			h[8] = 0xff;           /* TTL */
			h[10] = h[11] = 0xff;  /* header checksum */
		} else {
			mask_v6(h);
		}
		h[hdr_len - 2] = h[hdr_len - 1] = 0xff;   /* UDP checksum */
		break;
	case CAP_T_ROCEV1:
		mask_v6(h);
		break;
	case CAP_T_IB:
		if (hdr_len >= 48) {
			/* global (LNH 3): a router rewrites the LRH, so 64
			 * one bits stand for it, and the GRH's variant fields
			 * are masked (IBTA 7.8.1) */
			memset(h, 0xff, 8);
			mask_v6(h + 8);
		} else {
			h[0] |= 0xf0;          /* local: the LRH, VL masked */
		}
		break;
	case CAP_T_IWARP:
		break;
	}
	/* of the packet, only the BTH is masked (its resv8a): it is copied
	 * after the headers, the rest read where it lies */
	uint32_t body = len - 4, lead = pre + hdr_len;
	if (body >= BTH_LEN + 16) {
		memcpy(h + hdr_len, p, BTH_LEN);
		h[hdr_len + 4] = 0xff;         /* BTH resv8a */
		*crc = cap_crc32_2(scratch, lead + BTH_LEN, p + BTH_LEN,
				   body - BTH_LEN);
	} else {
		if (body == BTH_LEN + 4)       /* an ACK: BTH, AETH */
			memcpy(h + hdr_len, p, BTH_LEN + 4);
		else
			memcpy(h + hdr_len, p, body);
		if (body > 4)
			h[hdr_len + 4] = 0xff; /* BTH resv8a */
		*crc = cap_crc32(0, scratch, lead + body);
	}
	return true;
}

static bool icrc_ok(struct cap_state *st, enum cap_transport t,
		    const struct cap_cur *hv, const struct cap_cur *pv)
{
	const uint8_t *p = cur_ptr(pv), *hdr = cur_ptr(hv);
	uint32_t len = cur_left(pv), crc;

	if (t == CAP_T_ROCEV2 && cur_left(hv) == 28 && (hdr[0] >> 4) == 4 &&
	    (len >= 4 + BTH_LEN + 16 || len == 4 + BTH_LEN + 4) &&
	    len - 4 <= CAP_CRCBUF - 36) {
		/* IPv4 + UDP, an ACK or a packet past its BTH: cap_icrc's
		 * bytes, laid out with fixed sizes (the ones for the LRH,
		 * the headers with TOS, TTL and the checksums masked, the
		 * BTH with its resv8a), then the rest where it lies */
		uint8_t *h = st->work.crcbuf;
		memset(h, 0xff, 8);
		memcpy(h + 8, hdr, 28);
		if (len == 4 + BTH_LEN + 4)        /* BTH, AETH */
			memcpy(h + 36, p, BTH_LEN + 4);
		else
			memcpy(h + 36, p, BTH_LEN);
		h[8 + 1] = h[8 + 8] = h[8 + 10] = h[8 + 11] = 0xff;
		h[8 + 26] = h[8 + 27] = 0xff;
		h[36 + 4] = 0xff;
		crc = len == 4 + BTH_LEN + 4 ?
		      cap_crc32(0, h, 36 + BTH_LEN + 4) :
		      cap_crc32_2(h, 36 + BTH_LEN, p + BTH_LEN,
				  len - 4 - BTH_LEN);
	} else if (!cap_icrc(t, hdr, cur_left(hv), p, len, st->work.crcbuf,
			     &crc)) {
		return true;
	}
	const uint8_t *w = p + len - 4;
	uint32_t le = (uint32_t)w[0] | (uint32_t)w[1] << 8 |
		      (uint32_t)w[2] << 16 | (uint32_t)w[3] << 24;
	return cap_crc_verdict(crc == le || crc == cap_be32(w), w, 4);
}

/*
 * Who sends the packet with PSN q of `dir`'s request sequence: `dir`, or
 * the peer when q is a response of an RDMA Read `dir` requested (its
 * responses take PSNs q0 .. q0 + ceil(len / PMTU) - 1, IBTA 9.7.4.1.3;
 * the PMTU learnt from the responses seen)
 */
static int psn_sender(const struct cap_conv *c, int dir, uint32_t q)
{
	const struct cap_dir *d = &c->d[dir];
	uint32_t pmtu = c->d[1 - dir].pmtu;

	for (unsigned i = 0; d->rd && i < CAP_RDREQ_MAX; i++) {
		const struct cap_rdreq *r = &d->rd[i];
		if (!r->used)
			continue;
		int32_t df = psn_diff(q, r->psn);
		uint64_t n = pmtu ? ((uint64_t)r->len + pmtu - 1) / pmtu : 1;
		if (df > 0 && (uint64_t)df < n)
			return 1 - dir;
	}
	return dir;
}

/* PSN q of `dir`'s sequence was never seen and will not be now (it left
 * the window, or the conversation ended): the capture lost it */
static void psn_lost(struct cap_state *st, struct cap_conv *c, int dir,
		     uint32_t q)
{
	int s = psn_sender(c, dir, q);

	c->stats.psn_gap[s]++;
	st->stats.total.psn_gap[s]++;
	if (c->d[dir].psn_pending)
		c->d[dir].psn_pending--;
}

static inline bool bit_of(const uint64_t *seen, uint32_t q)
{
	return seen[(q % CAP_PSN_SEEN) / 64] >> (q % 64) & 1;
}

/* n PSNs after last_psn enter the window unseen; the PSN each one's slot
 * held leaves it, lost if it was never seen */
static void psn_enter(struct cap_state *st, struct cap_conv *c, int dir,
		      uint32_t n)
{
	struct cap_dir *d = &c->d[dir];
	uint64_t *seen = c->psn_seen[dir];

	for (uint32_t i = 0; i < n; i++) {
		uint32_t q = (d->last_psn + 1 + i) & PSN_MASK;
		uint32_t old = (q - CAP_PSN_SEEN) & PSN_MASK;
		if (!bit_of(seen, q) && psn_diff(old, d->first_psn) > 0)
			psn_lost(st, c, dir, old);
		seen[(q % CAP_PSN_SEEN) / 64] &= ~(1ull << (q % 64));
		d->psn_pending++;
	}
}

/* The sequence ends (a new one, or the conversation): what is unseen in
 * the window is lost */
void cap_ib_psn_end(struct cap_state *st, struct cap_conv *c, int dir)
{
	struct cap_dir *d = &c->d[dir];

	if (!d->have_last_psn)
		return;
	for (uint32_t i = 0; i < CAP_PSN_SEEN; i++) {
		uint32_t q = (d->last_psn - i) & PSN_MASK;
		if (psn_diff(q, d->first_psn) <= 0)
			break;
		if (!bit_of(c->psn_seen[dir], q))
			psn_lost(st, c, dir, q);
	}
	d->psn_pending = 0;
	d->first_psn = d->last_psn;
}

/*
 * Was this request PSN seen before?  Marks it seen.  Not "behind the highest
 * PSN": after a PSN sequence error NAK the requester resends packets that
 * never reached the responder, and a capture on the wire may not have had
 * them either, so only a PSN actually seen is a retransmission.  Far behind
 * the window: an old retransmission; further (PSN_RETRANS_WINDOW): the QP
 * was reset and reused, a new sequence.  PSNs skipped stay unseen: the
 * capture lost them unless they come while in the window (then the network
 * retransmitted them, or they are RDMA Read responses that came late).
 */
__attribute__((noinline))
static bool psn_seen_far(struct cap_state *st, struct cap_conv *c, int dir,
			 uint32_t psn);

static inline bool psn_seen(struct cap_state *st, struct cap_conv *c, int dir,
			    uint32_t psn)
{
	struct cap_dir *d = &c->d[dir];

	if (d->have_last_psn && psn_diff(psn, d->last_psn) == 1) {
		/* the next PSN: psn_enter(1) and the mark, inline */
		uint64_t *bit_word = &c->psn_seen[dir][(psn % CAP_PSN_SEEN) / 64];
		uint64_t bit = 1ull << (psn % 64);
		uint32_t old = (psn - CAP_PSN_SEEN) & PSN_MASK;
		if (!(*bit_word & bit) && psn_diff(old, d->first_psn) > 0)
			psn_lost(st, c, dir, old);
		d->last_psn = psn;
		*bit_word |= bit;
		return false;
	}
	return psn_seen_far(st, c, dir, psn);
}

/* psn_seen past the next PSN */
static bool psn_seen_far(struct cap_state *st, struct cap_conv *c, int dir,
			 uint32_t psn)
{
	struct cap_dir *d = &c->d[dir];
	uint64_t *seen = c->psn_seen[dir];
	const uint32_t w = CAP_PSN_SEEN;
	/* the first PSN of a direction clears `seen` (df = w) */
	int32_t df = d->have_last_psn ? psn_diff(psn, d->last_psn) : (int32_t)w;
	uint64_t *bit_word = &seen[(psn % w) / 64];
	uint64_t bit = 1ull << (psn % 64);

	if (df > 0 || df <= -PSN_RETRANS_WINDOW) {      /* ahead, or new */
		if (df >= (int32_t)w || df <= -PSN_RETRANS_WINDOW) {
			cap_ib_psn_end(st, c, dir);
			memset(seen, 0, CAP_PSN_SEEN / 8);
			d->first_psn = psn;    /* a new sequence */
		} else {
			psn_enter(st, c, dir, (uint32_t)df);
			d->psn_pending--;      /* psn itself: seen */
		}
		d->have_last_psn = true;
		d->last_psn = psn;
		*bit_word |= bit;
		return false;
	}
	if (df <= -(int32_t)w)                          /* before the window */
		return true;
	if (*bit_word & bit)
		return true;
	*bit_word |= bit;
	/* behind the highest, never seen, inside the sequence: a PSN a gap
	 * skipped has come; a request's: the network retransmitted it */
	if (psn_diff(psn, d->first_psn) > 0) {
		if (d->psn_pending)
			d->psn_pending--;
		if (psn_sender(c, dir, psn) == dir) {
			c->stats.psn_fill[dir]++;
			st->stats.total.psn_fill[dir]++;
		}
	}
	return false;
}

/*
 * An acknowledgement from `dir` for a PSN of the other direction past the
 * highest the capture saw: the peer had those packets, the capture lost
 * them (IBTA 9.7.5.1: an ACK covers every PSN up to its own).  They stay
 * unseen: should they come later, they were retransmitted after all.
 */
static void psn_acked(struct cap_state *st, struct cap_conv *c, int dir,
		      uint32_t psn)
{
	int o = 1 - dir;
	struct cap_dir *d = &c->d[o];
	int32_t df = d->have_last_psn ? psn_diff(psn, d->last_psn) : 0;

	if (!d->have_last_psn && c->started) {
		/* nothing of that direction seen since the connection began
		 * (its CM exchange is in the capture): the packet acknowledged,
		 * at least, was lost (how many before it, the capture cannot
		 * tell: the starting PSN is not read from the CM REQ) */
		memset(c->psn_seen[o], 0, CAP_PSN_SEEN / 8);
		d->have_last_psn = true;
		d->first_psn = (psn - 1) & PSN_MASK;
		d->last_psn = psn;
		d->psn_pending = 1;
		return;
	}
	if (df <= 0 || df >= (int32_t)CAP_PSN_SEEN)
		return;
	psn_enter(st, c, o, (uint32_t)df);
	d->last_psn = psn;
}

/*
 * An RDMA READ response packet carries no address: its place is its PSN.
 * Response packets of a request with PSN q have PSNs q, q+1, ... and all
 * but the last carry exactly one path MTU (IBTA 9.7.4.1.3, learnt from any
 * FIRST or MIDDLE), so a packet lands at (psn - q) * PMTU.  This also
 * places responses the responder repeats from the middle after a
 * retransmitted request (IBTA 9.7.5.1.2).
 */
static void read_response(struct cap_state *st, const struct cap_frame *f,
			  struct cap_conv *c, int dir, unsigned op,
			  uint32_t psn, const uint8_t *p, uint32_t n)
{
	struct cap_dir *d = &c->d[dir];
	struct cap_dir *req = &c->d[1 - dir];      /* the requester */
	struct cap_rdreq *best = NULL;
	int32_t best_df = 0;

	if ((op == OP_READ_RESP_FIRST || op == OP_READ_RESP_MIDDLE) && n)
		d->pmtu = n;
	/* a response takes its request's PSNs, in the requester's sequence:
	 * a response packet the capture lost is a gap there */
	(void)psn_seen(st, c, 1 - dir, psn);
	for (unsigned i = 0; i < CAP_RDREQ_MAX && req->rd; i++) {
		struct cap_rdreq *r = &req->rd[i];
		if (!r->used)
			continue;
		int32_t df = psn_diff(psn, r->psn);
		if (df < 0 || (df > 0 && (!d->pmtu ||
					  (uint64_t)df * d->pmtu >= r->len)))
			continue;
		if (!best || df < best_df) {
			best = r;
			best_df = df;
		}
	}
	if (!best) {
		c->stats.unmatched++;
		return;                    /* request not captured */
	}
	/* the first response has the request's own PSN: the PSN count
	 * cannot see it missing; a later response without it can */
	if (!best_df) {
		best->got_first = true;
	} else if (!best->got_first) {
		best->got_first = true;
		c->stats.psn_gap[dir]++;
		st->stats.total.psn_gap[dir]++;
	}
	uint64_t off = (uint64_t)best_df * d->pmtu;
	cap_msg_rdma(st, f, c, CAP_OP_READ, best->rkey, best->va + off, p, n);
}

static void rdma_write(struct cap_state *st, const struct cap_frame *f,
		       struct cap_conv *c, int dir, unsigned op, uint32_t psn,
		       const struct cap_cur *ext, const uint8_t *p, uint32_t n)
{
	struct cap_dir *d = &c->d[dir];

	if (op == OP_WRITE_FIRST || op == OP_WRITE_ONLY ||
	    op == OP_WRITE_ONLY_IMM) {
		d->wactive = true;
		if (!cur_peek64(ext, 0, &d->wva) || !cur_peek32(ext, 8, &d->wrkey))
			return;            /* RETH (VA, R_Key, DMA length) */
		d->woff = 0;
	} else if (!d->wactive || psn != d->wnext_psn) {
		d->wactive = false;
		return;
	}
	cap_msg_rdma(st, f, c, CAP_OP_WRITE, d->wrkey, d->wva + d->woff,
			p, n);
	d->woff += n;
	d->wnext_psn = (psn + 1) & PSN_MASK;
	if (op != OP_WRITE_FIRST && op != OP_WRITE_MIDDLE)
		d->wactive = false;
}

static void read_request(struct cap_state *st, const struct cap_frame *f,
			 struct cap_conv *c, int dir, uint32_t psn,
			 const struct cap_cur *reth)
{
	struct cap_rdreq *r = NULL, *rd = cap_dir_rdreqs(st, c, dir);

	if (!rd)
		return;
	/* a free slot, the same request again, or else the oldest */
	for (unsigned i = 0; i < CAP_RDREQ_MAX; i++) {
		struct cap_rdreq *q = &rd[i];
		if (q->used && q->psn == psn) {
			r = q;
			break;
		}
		if (!r || (r->used && (!q->used || q->frame < r->frame)))
			r = q;
	}
	if (!r->used || r->psn != psn)
		r->got_first = false;
	r->used = true;
	r->psn = psn;
	(void)cur_peek64(reth, 0, &r->va);
	(void)cur_peek32(reth, 8, &r->rkey);
	(void)cur_peek32(reth, 12, &r->len);
	r->frame = f->num;
}

/* One Reliable Connected request or response, not a retransmission: a
 * Send's packet to reassembly, RDMA Write and Read data to the chunks */
static void rc_op(struct cap_state *st, const struct cap_frame *f,
		  struct cap_conv *c, int dir, unsigned op, uint32_t psn,
		  const struct cap_cur *ext, const uint8_t *pl, uint32_t n,
		  bool partial)
{
	switch (op) {
	case OP_SEND_FIRST:
		cap_reasm_ib_send(st, f, c, dir, CAP_FRAG_FIRST, psn, pl, n,
				  partial);
		break;
	case OP_SEND_MIDDLE:
		cap_reasm_ib_send(st, f, c, dir, CAP_FRAG_MIDDLE, psn, pl, n,
				  partial);
		break;
	case OP_SEND_LAST: case OP_SEND_LAST_IMM: case OP_SEND_LAST_INV:
		cap_reasm_ib_send(st, f, c, dir, CAP_FRAG_LAST, psn, pl, n,
				  partial);
		break;
	case OP_SEND_ONLY: case OP_SEND_ONLY_IMM: case OP_SEND_ONLY_INV:
		cap_reasm_ib_send(st, f, c, dir, CAP_FRAG_ONLY, psn, pl, n,
				  partial);
		break;
	case OP_WRITE_FIRST: case OP_WRITE_MIDDLE: case OP_WRITE_LAST:
	case OP_WRITE_LAST_IMM: case OP_WRITE_ONLY: case OP_WRITE_ONLY_IMM:
		rdma_write(st, f, c, dir, op, psn, ext, pl, n);
		break;
	case OP_READ_REQ:
		read_request(st, f, c, dir, psn, ext);
		break;
	case OP_READ_RESP_FIRST: case OP_READ_RESP_MIDDLE:
	case OP_READ_RESP_LAST: case OP_READ_RESP_ONLY:
		read_response(st, f, c, dir, op, psn, pl, n);
		break;
	default:
		break;                     /* ACK, atomics */
	}
}

enum cap_res cap_ib_packet(struct cap_state *st, const struct cap_frame *f,
			   enum cap_transport t, const struct cap_addr *a,
			   const struct cap_cur *hdr, struct cap_cur *pkt)
{
	uint32_t len = cur_left(pkt);

	if (!cur_has(pkt, BTH_LEN)) {
		st->stats.frames_truncated++;
		if (f->len < f->wire_len)
			cap_frame_error(st, f, "BTH cut by the snapshot length "
					"(need %u bytes, have %u)", BTH_LEN, len);
		else
			cap_lint(st, f->num, "truncated-frame", "IBTA 9.2",
				 "BTH cut short (need %u bytes, have %u)",
				 BTH_LEN, len);
		return CAP_TRUNCATED;
	}
	const uint8_t *bth = cur_ptr(pkt);     /* its 12 bytes are there */
	unsigned op = bth[0];
	unsigned pad = (bth[1] >> 4) & 3;
	uint32_t dqp = cap_be32(bth + 4) & 0xffffffu;      /* bytes 5..7 */
	uint32_t psn = cap_be32(bth + 8) & PSN_MASK;       /* bytes 9..11 */
	bool snapped = f->len < f->wire_len;
	bool rc = op >> 5 == 0 && op <= OP_SEND_ONLY_INV && op != OP_RESV15;
	bool cm = op == OP_UD_SEND_ONLY && dqp == 1;
	uint32_t ext_n = rc ? ext_len[op] : cm ? 8u : 0u;
	uint32_t need = BTH_LEN + ext_n + 4;
	/* BTH on, on the wire (the reader keeps wire_len >= len) */
	uint64_t wire = (uint64_t)len + (f->wire_len - f->len);
	if (!cur_has(pkt, BTH_LEN + ext_n) || wire < need + pad) {
		st->stats.frames_truncated++;
		if (snapped) {
			cap_frame_error(st, f, "%s headers cut by the snapshot "
					"length (need %u bytes, have %u)",
					cap_transport_name(t), BTH_LEN + ext_n, len);
			return CAP_TRUNCATED;
		}
		cap_lint(st, f->num, "truncated-frame", "IBTA 9.2",
			 "%s packet cut short (need %u bytes, have %u)",
			 cap_transport_name(t), need + pad, len);
		return CAP_TRUNCATED;
	}
	st->stats.frames_rdma++;
	if (!snapped && !st->o->no_crc_check && !icrc_ok(st, t, hdr, pkt)) {
		int cd;
		struct cap_conv *cc = cap_conv_find_ib(st, a, dqp, &cd);
		if (cc)
			cc->stats.crc_fail++;
		st->stats.total.crc_fail++;
		cap_lint(st, f->num, "crc-error",
			 t == CAP_T_ROCEV2 ? "RoCEv2 A17.3.3" : "IBTA 7.8.1",
			 "ICRC mismatch: packet corrupt, not delivered");
		return CAP_INVALID;        /* a receiver drops it */
	}
	/* after the BTH: the extended headers, the payload, pad, ICRC */
	struct cap_cur body = cur_rest(pkt);
	(void)cur_skip(&body, BTH_LEN);
	struct cap_cur ext;
	(void)cur_sub(&body, ext_n, &ext);
	uint64_t n_wire = wire - need - pad;
	bool partial = cur_left(&body) < n_wire;   /* only when snapped */
	cur_limit(&body, n_wire < UINT32_MAX ? (uint32_t)n_wire : UINT32_MAX);
	if (cm) {
		if (!snapped)
			cap_cm_mad(st, f, t, a, &body);
		return CAP_OK;
	}
	if (!rc)
		return CAP_NOT_OURS;       /* not Reliable Connected */
	int dir;
	/* an acknowledgement carries no message: it may complete a QP pair
	 * already open, never open one (busy fabrics carry ACKs of
	 * thousands of QPs that are not RPC) */
	bool acks = op == OP_ACK || op == OP_ATOMIC_ACK;
	struct cap_conv *c = cap_conv_ib(st, f, t, a, dqp, !acks, &dir);
	if (!c)
		return CAP_NOT_OURS;
	const uint8_t *pl = cur_ptr(&body);
	uint32_t n = cur_left(&body);

	if (op == OP_ACK)
		psn_acked(st, c, dir, psn);
	/* requests share one PSN sequence per direction: a PSN seen before
	 * is a retransmission (IBTA 9.7.5.1.2) */
	if ((op <= OP_READ_REQ || op >= OP_SEND_LAST_INV) &&
	    psn_seen(st, c, dir, psn)) {
		c->stats.retrans++;
		st->stats.total.retrans++;
		/* its responses come again: keep the request known */
		if (op == OP_READ_REQ)
			read_request(st, f, c, dir, psn, &ext);
		return CAP_OK;
	}
	rc_op(st, f, c, dir, op, psn, &ext, pl, n, partial);
	return CAP_OK;
}
