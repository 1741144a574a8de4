/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cap_redact_iwarp.c - --redact over iWARP: each TCP direction followed in
 * sequence, MPA FPDUs (RFC 5044 4) found in it (also across segments),
 * and in each FPDU the DDP/RDMAP headers (RFC 5041, RFC 5040): untagged
 * Sends put together by MSN and message offset, tagged data (RDMA Write,
 * Read Response) zeroed or gathered as an RPC message, Read Requests
 * remembered for their responses.  The MPA Request/Reply (with their
 * RFC 8797 private data) are kept.  A segment ahead of the stream is held
 * until the gap before it fills; a gap that never fills (RDX_OOO_MAX
 * segments held, or the end of the file) is gone past: what was being put
 * together is zeroed and the stream goes on at the first FPDU boundary
 * after the gap (cap_mpa_resync, the decoder's own hunt), as the decoder
 * does.  What cannot be followed (a segment repeated, a stream with MPA
 * markers, TCP that is not MPA) has its TCP payload zeroed, and is
 * counted.  Each FPDU's CRC32c is
 * written anew at the end (rdx_fix_mpa) when it was right before.
 */
#include <stdlib.h>
#include <string.h>
#include "be.h"
#include "cap_redact.h"

#define MPA_KEY_LEN 16
#define MPA_HDR 20                   /* key, flags, rev, pd_length */
#define FPDU_MAX (2u + 65535u + 3u + 4u)

static bool mpa_frame(const uint8_t *p, uint32_t n)
{
	return n >= MPA_HDR && (!memcmp(p, "MPA ID Req Frame", MPA_KEY_LEN) ||
				!memcmp(p, "MPA ID Rep Frame", MPA_KEY_LEN));
}

/* The FPDU's bytes [off, off + n) as pieces of the file, each handed to
 * `fn` with its place */
struct span { uint8_t *p; uint32_t n; uint32_t at; };

static uint32_t spans(const struct rdx_stream *s, uint32_t off, uint32_t n,
		      struct span *out)
{
	uint32_t k = 0, base = 0;

	for (uint32_t i = 0; i < s->nfp && n; i++) {
		const struct rdx_piece *pc = &s->fp[i];
		if (off < base + pc->len) {
			uint32_t in = off - base, take = pc->len - in;
			if (take > n)
				take = n;
			out[k++] = (struct span){ pc->p + in, take, off };
			off += take;
			n -= take;
		}
		base += pc->len;
	}
	return k;
}

static void zero_range(struct rdx_stream *s, uint32_t off, uint32_t n)
{
	struct span sp[RDX_FPDU_PIECES];
	uint32_t k = spans(s, off, n, sp);

	for (uint32_t i = 0; i < k; i++)
		memset(sp[i].p, 0, sp[i].n);
}

/* --redact=keys: the handle at FPDU offset `off` (and the 8-byte tagged
 * offset after it when `to`) replaced, in the file's bytes */
static void remap_at(struct rdx *x, struct rdx_stream *s, const uint8_t *f,
		     uint32_t off, bool to)
{
	uint8_t t[12];
	struct span sp[RDX_FPDU_PIECES];

	if (!x->keys)
		return;
	memcpy(t, f + off, to ? 12 : 4);
	rdx_remap(x, t, to ? 4 : -1);
	uint32_t k = spans(s, off, to ? 12 : 4, sp);
	for (uint32_t i = 0; i < k; i++)
		memcpy(sp[i].p, t + (sp[i].at - off), sp[i].n);
}

static void untagged(struct rdx *x, struct rdx_rdma *r, struct rdx_stream *s,
		     const uint8_t *f, uint32_t ulen)
{
	uint8_t ctl = f[2], op = f[3] & 0x0f;
	uint32_t qn = be32_get(f + 8), msn = be32_get(f + 12);
	uint32_t mo = be32_get(f + 16), n = ulen - 18;
	struct span sp[RDX_FPDU_PIECES];
	uint32_t k = spans(s, 20, n, sp);

	if (op == 1 && qn == 1 && n >= 28) {   /* Read Request: kept */
		struct rdx_rdreq q = { .sink = be32_get(f + 20),
				       .sink_to = be64_get(f + 24),
				       .handle = be32_get(f + 36),
				       .va = be64_get(f + 40) };
		memcpy(q.req, s->src, 16);
		memcpy(q.adv, s->dst, 16);
		rdx_rdreq_add(r, &q);
		remap_at(x, s, f, 20, true);   /* sink STag and TO */
		remap_at(x, s, f, 36, true);   /* source STag and TO */
		return;
	}
	if (qn != 0 || op < 3 || op > 6) { /* Terminate and the rest */
		zero_range(s, 20, n);
		return;
	}
	if (op == 4 || op == 6)                /* Send with Invalidate */
		remap_at(x, s, f, 4, false);
	if (mo == 0) {
		rdx_pcs_zero(x, &s->send);     /* one never finished */
		s->send.on = true;
		s->msn = msn;
	}
	if (!s->send.on || msn != s->msn) {
		zero_range(s, 20, n);
		rdx_counts(x)->unparsed++;
		return;
	}
	for (uint32_t i = 0; i < k; i++)
		rdx_pcs_add(x, &s->send, sp[i].p, sp[i].n,
			    (uint64_t)mo + (sp[i].at - 20));
	if (ctl & 0x40)                        /* L: the message's last */
		rdx_send_done(x, r, s);
}

static void tagged(struct rdx *x, struct rdx_rdma *r, struct rdx_stream *s,
		   const uint8_t *f, uint32_t ulen)
{
	uint8_t op = f[3] & 0x0f;
	uint32_t stag = be32_get(f + 4), n = ulen - 14;
	uint64_t to = be64_get(f + 8);
	const uint8_t *adv = NULL;
	uint32_t handle = stag;
	uint64_t va = to;
	struct span sp[RDX_FPDU_PIECES];
	uint32_t k = spans(s, 16, n, sp);

	if (op == 0) {                          /* Write: the target's */
		adv = s->dst;
	} else if (op == 2) {                   /* Read Response */
		const struct rdx_rdreq *q = rdx_rdreq_find(r, s->dst, true, stag);
		if (q) {
			adv = q->adv;
			handle = q->handle;
			va = q->va + (to - q->sink_to);
		}
	}
	for (uint32_t i = 0; i < k; i++)
		rdx_data(x, r, adv, handle, va + (sp[i].at - 16), sp[i].p,
			 sp[i].n);
	remap_at(x, s, f, 4, true);            /* STag, TO */
}

/* One whole FPDU, gathered in s->fp */
static void fpdu(struct rdx *x, struct rdx_rdma *r, struct rdx_stream *s)
{
	uint8_t f[64];
	struct span sp[RDX_FPDU_PIECES];
	uint32_t ulen = (uint32_t)s->fp_len[0] << 8 | s->fp_len[1];
	uint32_t k = spans(s, 0, ulen + 2 < sizeof(f) ? ulen + 2 : sizeof(f), sp);

	for (uint32_t i = 0; i < k; i++)
		memcpy(f + sp[i].at, sp[i].p, sp[i].n);
	if (s->crc)                            /* checked before any change */
		rdx_fix_mpa(x, s->fp, s->nfp);
	uint8_t ctl = f[2];
	if ((ctl & 0x80) && ulen >= 14 && (f[3] >> 6) == 1)
		tagged(x, r, s, f, ulen);
	else if (!(ctl & 0x80) && ulen >= 18 && (f[3] >> 6) == 1)
		untagged(x, r, s, f, ulen);
	else
		zero_range(s, 2, ulen);
}

/* The FPDU's length from its first two bytes (RFC 5044 4.1): length field,
 * ULPDU, pad to 4, CRC (there, zero, even when CRCs are off) */
static uint32_t fpdu_len(const struct rdx_stream *s)
{
	uint32_t ulen = (uint32_t)s->fp_len[0] << 8 | s->fp_len[1];
	return (2 + ulen + 3) / 4 * 4 + 4;
}

/* Without the handshake: the CRC is on when the first FPDU's last four
 * bytes are its CRC32c */
static void guess_crc(struct rdx_stream *s, const uint8_t *p, uint32_t n)
{
	s->crc_known = true;
	if (n < 2)
		return;
	uint32_t plain = (2 + ((uint32_t)p[0] << 8 | p[1]) + 3) / 4 * 4;
	uint32_t c = n >= plain + 4 ? cap_crc32c(0, p, plain) : 0;
	s->crc = n >= plain + 4 && (c == be32_get(p + plain) ||
				    __builtin_bswap32(c) == be32_get(p + plain));
}

static void segment(struct rdx *x, struct rdx_rdma *r, struct rdx_stream *s,
		    uint8_t *p, uint32_t n)
{
	if (s->skip) {                         /* after a gap (resume) */
		uint32_t z = s->skip < n ? s->skip : n;
		memset(p, 0, z);
		s->skip -= z;
		p += z;
		n -= z;
		rdx_counts(x)->other_zeroed++;
		if (!n)
			return;
	}
	if (!s->crc_known)
		guess_crc(s, p, n);
	while (n) {
		if (!s->nfp) {
			s->fp_have = 0;
			s->fp_want = 0;
		}
		uint32_t take = n;
		if (s->fp_want && take > s->fp_want - s->fp_have)
			take = s->fp_want - s->fp_have;
		if (!s->fp_want && take > 2 - s->fp_have)
			take = 2 - s->fp_have;
		if (s->nfp == RDX_FPDU_PIECES) {
			memset(p, 0, n);           /* too many pieces: lost */
			s->lost = true;
			rdx_counts(x)->unparsed++;
			return;
		}
		if (s->nfp && s->fp[s->nfp - 1].p + s->fp[s->nfp - 1].len == p)
			s->fp[s->nfp - 1].len += take;
		else
			s->fp[s->nfp++] = (struct rdx_piece){ p, take, s->fp_have };
		for (uint32_t i = 0; i < take && s->fp_have + i < 2; i++)
			s->fp_len[s->fp_have + i] = p[i];
		s->fp_have += take;
		p += take;
		n -= take;
		if (!s->fp_want && s->fp_have == 2)
			s->fp_want = fpdu_len(s);
		if (s->fp_want && s->fp_have == s->fp_want) {
			fpdu(x, r, s);
			s->nfp = 0;
		}
	}
}

static void handshake(struct rdx_stream *s, struct rdx_stream *peer,
		      const uint8_t *p)
{
	bool m = p[16] & 0x80, c = p[16] & 0x40;

	s->handshake_done = true;
	s->crc_known = true;
	s->crc = s->crc || c;
	s->markers = s->markers || m;
	if (peer) {                            /* both ways, RFC 5044 7.1.2 */
		peer->crc_known = true;
		peer->crc = peer->crc || c;
		peer->markers = peer->markers || m;
	}
}

/* A segment ahead of the stream (a lost one retransmitted later, as live
 * siw captures hold whole windows): kept for when the gap fills */
static bool hold(struct rdx_stream *s, uint32_t seq, uint8_t *p, uint32_t len)
{
	if ((int32_t)(seq - s->next_seq) <= 0 || s->nooo == RDX_OOO_MAX)
		return false;
	if (!s->ooo && !(s->ooo = malloc(RDX_OOO_MAX * sizeof(*s->ooo))))
		return false;
	s->ooo[s->nooo++] = (struct rdx_piece){ p, len, seq };
	return true;
}

/* The segments held that now follow on; those the stream passed by (a
 * repeat) zeroed */
static void drain(struct rdx *x, struct rdx_rdma *r, struct rdx_stream *s)
{
	for (uint32_t i = 0; i < s->nooo;) {
		struct rdx_piece h = s->ooo[i];
		int32_t d = (int32_t)((uint32_t)h.pos - s->next_seq);
		if (d > 0) {
			i++;
			continue;
		}
		s->ooo[i] = s->ooo[--s->nooo];
		if (d == 0) {
			s->next_seq += h.len;
			segment(x, r, s, h.p, h.len);
			i = 0;                 /* another may follow now */
		} else {
			memset(h.p, 0, h.len);
			rdx_counts(x)->other_zeroed++;
		}
	}
}

/* A gap that will not fill: the FPDU and the Send being put together are
 * zeroed, and the stream goes on from the first segment held after the
 * gap, at the first FPDU boundary in the bytes held from there on
 * (cap_mpa_resync: lengths, DDP/RDMAP versions, the CRC32c when on).
 * False when none is found in them (or no memory): the direction is given
 * up (s->lost), its held bytes zeroed. */
#define RESYNC_MAX (2u * FPDU_MAX)            /* one whole FPDU after the
						 * longest run before it */
static bool resume(struct rdx *x, struct rdx_rdma *r, struct rdx_stream *s)
{
	uint32_t first = 0, n = 0;
	int32_t best = INT32_MAX;
	uint8_t *buf;

	for (uint32_t i = 0; i < s->nooo; i++) {
		int32_t d = (int32_t)((uint32_t)s->ooo[i].pos - s->next_seq);
		if (d > 0 && d < best) {
			best = d;
			first = (uint32_t)s->ooo[i].pos;
		}
	}
	for (uint32_t i = 0; i < s->nfp; i++)
		memset(s->fp[i].p, 0, s->fp[i].len);
	if (s->nfp)
		rdx_counts(x)->unparsed++;
	s->nfp = 0;
	rdx_pcs_zero(x, &s->send);
	if (best == INT32_MAX || !(buf = malloc(RESYNC_MAX)))
		goto lost;
	/* the bytes held from `first` on, as long as they follow on */
	for (bool more = true; more && n < RESYNC_MAX;) {
		more = false;
		for (uint32_t i = 0; i < s->nooo && n < RESYNC_MAX; i++) {
			if ((uint32_t)s->ooo[i].pos != first + n)
				continue;
			uint32_t take = s->ooo[i].len;
			if (take > RESYNC_MAX - n)
				take = RESYNC_MAX - n;
			memcpy(buf + n, s->ooo[i].p, take);
			n += take;
			more = true;
		}
	}
	uint32_t o = cap_mpa_resync(s->crc, buf, n);
	free(buf);
	if (o == UINT32_MAX)
		goto lost;
	rdx_counts(x)->gaps++;
	s->next_seq = first;
	s->skip = o;
	drain(x, r, s);
	return true;
lost:
	s->lost = true;
	rdx_fpdu_drop(x, s);
	return false;
}

void rdx_tcp_end(struct rdx *x, struct rdx_rdma *r, struct rdx_stream *s)
{
	while (s->tcp_on && !s->lost && s->nooo && resume(x, r, s))
		;
}

void rdx_tcp_payload(struct rdx *x, struct rdx_rdma *r, const uint8_t *src,
		     const uint8_t *dst, uint16_t sport, uint16_t dport,
		     uint32_t seq, uint8_t *p, uint32_t len)
{
	uint8_t key[40], rkey[40];

	memcpy(key, src, 16);
	memcpy(key + 16, dst, 16);
	memcpy(key + 32, &sport, 2);
	memcpy(key + 34, &dport, 2);
	memset(key + 36, 0xee, 4);             /* not a RoCE key */
	memcpy(rkey, dst, 16);
	memcpy(rkey + 16, src, 16);
	memcpy(rkey + 32, &dport, 2);
	memcpy(rkey + 34, &sport, 2);
	memset(rkey + 36, 0xee, 4);
	struct rdx_stream *s = rdx_stream_get(r, src, dst, key);
	if (!len)
		return;
	if (s && !s->tcp_on) {
		s->tcp_on = true;
		s->next_seq = seq;
		s->not_iwarp = !cap_iwarp_plausible(p, len);
	}
	if (s && s->next_seq == seq && !s->lost && mpa_frame(p, len)) {
		handshake(s, rdx_stream_get(r, dst, src, rkey), p);
		s->next_seq += len;
		return;                        /* key, flags, private data */
	}
	bool followed = s && !s->lost && !s->not_iwarp && !s->markers;
	if (followed && seq != s->next_seq && hold(s, seq, p, len))
		return;                        /* ahead: until the gap fills */
	if (followed && (int32_t)(seq - s->next_seq) > 0 &&
	    s->nooo == RDX_OOO_MAX && resume(x, r, s)) {
		/* as many held as can be: the gap will not fill */
		if (seq != s->next_seq && hold(s, seq, p, len))
			return;
		followed = !s->lost;
	}
	if (!followed || seq != s->next_seq) {
		memset(p, 0, len);
		rdx_counts(x)->other_zeroed++;
		if (s && seq != s->next_seq && !s->not_iwarp && !s->lost &&
		    (int32_t)(seq - s->next_seq) > 0) {
			s->lost = true;            /* no memory to hold it */
			rdx_fpdu_drop(x, s);
			rdx_pcs_zero(x, &s->send);
		}
		return;
	}
	s->next_seq += len;
	segment(x, r, s, p, len);
	drain(x, r, s);
}
