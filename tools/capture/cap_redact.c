/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cap_redact.c - rpcrdma-decode -r IN -w OUT --redact: the capture read
 * whole into memory, each frame parsed from its link layer down (pcap and
 * pcapng records; Ethernet with VLAN tags, Linux cooked v1/v2, ERF
 * InfiniBand records, raw InfiniBand; IPv4, IPv6, RoCEv1, RoCEv2, TCP)
 * and changed in place, then the checksums written anew and the file
 * written back in its own format.  RDMA traffic goes to
 * cap_redact_rdma.c (InfiniBand, RoCE) and cap_redact_iwarp.c (TCP).  Every
 * other payload is zeroed past the headers named above: other TCP and UDP
 * traffic (MOUNT, portmap), other IP protocols, other ethertypes (but ARP),
 * frames of other link types, IP fragments.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include "be.h"
#include "cap_redact.h"
#include "cap_state.h"

#define IN_MAX (4ull << 30)          /* the largest capture redacted */

static uint16_t be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

/* Zeroed, and counted when something was there */
static void zero(struct rdx *x, uint8_t *p, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		if (p[i]) {
			memset(p, 0, n);
			x->n.other_zeroed++;
			return;
		}
	}
}

static void addr16(uint8_t out[16], const uint8_t *p, uint32_t n)
{
	memset(out, 0, 16);
	memcpy(out, p, n);
}

/* --redact=addresses: the address at p[len] replaced in place (the
 * checksums over it noted before, written anew at the end) */
static void addr_note(struct rdx *x, const uint8_t *p, uint32_t len)
{
	uint8_t out[16];

	if (x->addresses && rdx_addr(x->map, p, len, out) < 0)
		x->oom = true;
}

static void addr(struct rdx *x, uint8_t *p, uint32_t len)
{
	uint8_t out[16];
	int r;

	if (!x->addresses)
		return;
	if ((r = rdx_addr(x->map, p, len, out)) < 0)
		x->oom = true;
	else if (r > 0 && memcmp(p, out, len)) {
		memcpy(p, out, len);
		x->n.addresses++;
	}
}

/* ------------------------------------------------- InfiniBand, RoCE */

static void ib_lrh(struct rdx *x, uint8_t *p, uint32_t n)
{
	uint8_t src[16], dst[16];

	if (n < 8)
		return;
	uint32_t lnh = p[1] & 3, pktlen = (be16(p + 4) & 0x7ffu) * 4u;
	uint32_t hl = lnh == 3 ? 48 : 8;
	if (pktlen > n)
		pktlen = n;                /* snapped: no CRC is right */
	if (lnh < 2 || pktlen < hl + 16) {
		zero(x, p + 8, n - 8);     /* raw packets, or too short */
		return;
	}
	if (lnh == 3) {
		addr16(src, p + 16, 16);
		addr16(dst, p + 32, 16);
	} else {
		addr16(src, p + 6, 2);
		addr16(dst, p + 2, 2);
	}
	rdx_fix_icrc(x, CAP_T_IB, p, hl, p + hl, pktlen - hl);
	if (pktlen + 2 <= n)
		rdx_fix_vcrc(x, p, pktlen);
	if (pktlen + 2 < n)
		zero(x, p + pktlen + 2, n - pktlen - 2);   /* past the VCRC */
	rdx_ib_packet(x, x->rdma, src, dst, p + hl, pktlen - hl);
	if (lnh == 3) {                    /* the GRH's GIDs */
		addr(x, p + 16, 16);
		addr(x, p + 32, 16);
	}
}

static void rocev1(struct rdx *x, uint8_t *p, uint32_t n)
{
	uint8_t src[16], dst[16];

	if (n < 40 + 16)
		return zero(x, p, n);
	uint32_t len = be16(p + 4);
	if (len > n - 40)
		len = n - 40;
	zero(x, p + 40 + len, n - 40 - len);       /* past the packet */
	addr16(src, p + 8, 16);
	addr16(dst, p + 24, 16);
	rdx_fix_icrc(x, CAP_T_ROCEV1, p, 40, p + 40, len);
	addr_note(x, p + 8, 16);           /* known before a CM MAD scrub */
	addr_note(x, p + 24, 16);
	rdx_ib_packet(x, x->rdma, src, dst, p + 40, len);
	addr(x, p + 8, 16);
	addr(x, p + 24, 16);
}

/* ------------------------------------------------------ TCP and UDP */

static void l4(struct rdx *x, uint8_t *ip, uint32_t iplen, uint8_t proto,
	       const uint8_t *src, const uint8_t *dst, uint8_t *p, uint32_t n)
{
	if (proto == 17 && n >= 8) {
		uint32_t ulen = be16(p + 4);
		if (ulen >= 8 && ulen < n) {
			zero(x, p + ulen, n - ulen);
			n = ulen;
		}
		bool roce = be16(p + 2) == x->roce_port && n >= 8 + 16;
		if (roce)
			rdx_fix_icrc(x, CAP_T_ROCEV2, ip, iplen + 8, p + 8, n - 8);
		rdx_fix_l4(x, ip, iplen, proto, p, n);
		if (roce)
			rdx_ib_packet(x, x->rdma, src, dst, p + 8, n - 8);
		else
			zero(x, p + 8, n - 8);
		return;
	}
	if (proto == 6 && n >= 20 && (uint32_t)(p[12] >> 4) * 4 >= 20 &&
	    (uint32_t)(p[12] >> 4) * 4 <= n) {
		uint32_t hl = (uint32_t)(p[12] >> 4) * 4;
		rdx_fix_l4(x, ip, iplen, proto, p, n);
		rdx_tcp_payload(x, x->rdma, src, dst, be16(p), be16(p + 2),
				be32_get(p + 4), p + hl, n - hl);
		return;
	}
	zero(x, p, n);                     /* ICMP, ... (it quotes packets) */
}

static void ipv4(struct rdx *x, uint8_t *p, uint32_t n)
{
	uint8_t src[16], dst[16];

	if (n < 20 || (p[0] >> 4) != 4)
		return zero(x, p, n);
	uint32_t hl = (uint32_t)(p[0] & 15) * 4, tot = be16(p + 2);
	if (hl < 20 || hl > n)
		return zero(x, p, n);
	if (tot >= hl && tot < n) {
		zero(x, p + tot, n - tot); /* Ethernet padding, or more */
		n = tot;
	}
	if (x->addresses) {
		rdx_fix_ip4(x, p, hl);     /* noted while it is as it was */
		addr_note(x, p + 12, 4);
		addr_note(x, p + 16, 4);
	}
	if (be16(p + 6) & 0x3fff)          /* MF or an offset: a fragment */
		zero(x, p + hl, n - hl);
	else {
		addr16(src, p + 12, 4);
		addr16(dst, p + 16, 4);
		l4(x, p, hl, p[9], src, dst, p + hl, n - hl);
	}
	addr(x, p + 12, 4);
	addr(x, p + 16, 4);
	if (x->addresses && hl > 20)
		zero(x, p + 20, hl - 20);  /* options: route records quote
					    * addresses */
}

static void ipv6_body(struct rdx *x, uint8_t *p, uint32_t n)
{
	uint8_t nh = p[6];
	uint32_t off = 40;

	while (nh == 0 || nh == 43 || nh == 60) {   /* hop, routing, dest */
		if (off + 8 > n)
			return zero(x, p + 40, n - 40);
		uint32_t el = ((uint32_t)p[off + 1] + 1) * 8;
		/* a routing header lists addresses: zeroed past its first 8
		 * bytes (--redact=addresses) */
		if (nh == 43 && x->addresses && off + el <= n)
			zero(x, p + off + 8, el - 8);
		nh = p[off];
		off += el;
	}
	if (off > n)
		return zero(x, p + 40, n - 40);
	if (nh == 17 && off != 40)         /* RoCEv2: no extension headers */
		return zero(x, p + off, n - off);
	l4(x, p, off, nh, p + 8, p + 24, p + off, n - off);
}

static void ipv6(struct rdx *x, uint8_t *p, uint32_t n)
{
	if (n < 40 || (p[0] >> 4) != 6)
		return zero(x, p, n);
	if ((uint32_t)be16(p + 4) + 40 < n) {
		zero(x, p + 40 + be16(p + 4), n - 40 - be16(p + 4));
		n = be16(p + 4) + 40u;
	}
	addr_note(x, p + 8, 16);
	addr_note(x, p + 24, 16);
	ipv6_body(x, p, n);
	addr(x, p + 8, 16);
	addr(x, p + 24, 16);
}

static void ether_type(struct rdx *x, uint16_t et, uint8_t *p, uint32_t n)
{
	switch (et) {
	case 0x0800: ipv4(x, p, n); break;
	case 0x86dd: ipv6(x, p, n); break;
	case 0x8915: rocev1(x, p, n); break;
	case 0x0806:                         /* ARP: addresses only */
		/* IPv4 over a 6-byte hardware address: the sender's and
		 * target's IP addresses (--redact=addresses) */
		if (n >= 28 && be16(p + 2) == 0x0800 && p[4] == 6 && p[5] == 4) {
			addr(x, p + 14, 4);
			addr(x, p + 24, 4);
		}
		break;
	default: zero(x, p, n);
	}
}

static void frame(struct rdx *x, uint32_t dlt, uint8_t *p, uint32_t n)
{
	uint32_t o;

	x->n.frames++;
	switch (dlt) {
	case 1:                                 /* Ethernet */
		if (n < 14)
			return zero(x, p, n);
		for (o = 12; o + 4 <= n && (be16(p + o) == 0x8100 ||
		     be16(p + o) == 0x88a8 || be16(p + o) == 0x9100); o += 4)
			;
		if (o + 2 > n)
			return zero(x, p, n);
		return ether_type(x, be16(p + o), p + o + 2, n - o - 2);
	case 113:                               /* Linux cooked */
		if (n < 16)
			return zero(x, p, n);
		return ether_type(x, be16(p + 14), p + 16, n - 16);
	case 276:                               /* Linux cooked v2 */
		if (n < 20)
			return zero(x, p, n);
		return ether_type(x, be16(p), p + 20, n - 20);
	case 247:                               /* InfiniBand */
		return ib_lrh(x, p, n);
	case 197:                               /* ERF */
		if (n < 16)
			return zero(x, p, n);
		o = 16;
		for (uint8_t t = p[8]; (t & 0x80) && o + 8 <= n; o += 8)
			t = p[o];
		if ((p[8] & 0x7f) != 21 && (p[8] & 0x7f) != 22)
			return zero(x, p + o, n - o);
		return ib_lrh(x, p + o, n - o);
	}
	zero(x, p, n);                          /* a link type we do not read */
}

/* ------------------------------------------------------------ files */

struct file {
	uint8_t *b;
	size_t n;
	bool be;                     /* the file's numbers are big-endian */
	uint32_t dlt[64];            /* pcapng: the interfaces' link types */
	uint32_t nif;
	bool cut;                    /* written only up to where it broke */
};

/* n (2 or 4) bytes in the file's byte order */
static uint32_t ld(const struct file *f, const uint8_t *p, unsigned n)
{
	uint32_t v = 0;

	for (unsigned i = 0; i < n; i++)
		v = v << 8 | p[f->be ? i : n - 1 - i];
	return v;
}

/* A capture cut short: what came before is redacted and written, the
 * rest left out (exit status 3, as a capture not read whole) */
static int bad_file(struct file *f, const char *in, size_t at, const char *why)
{
	fprintf(stderr, "rpcrdma-decode: %s: %s at byte offset %zu: the "
		"rest left out\n", in, why, at);
	f->n = at;
	f->cut = true;
	return 0;
}

static int walk_pcap(struct rdx *x, struct file *f, const char *in)
{
	uint32_t dlt = ld(f, f->b + 20, 4) & 0xffff;
	size_t at = 24;

	while (at < f->n) {
		if (f->n - at < 16)
			return bad_file(f, in, at, "record header cut short");
		uint32_t cap = ld(f, f->b + at + 8, 4);
		if (cap > f->n - at - 16)
			return bad_file(f, in, at, "record cut short");
		frame(x, dlt, f->b + at + 16, cap);
		at += 16 + (size_t)cap;
	}
	return 0;
}

/* --redact=addresses: an interface's own addresses (if_IPv4addr,
 * if_IPv6addr options) zeroed */
static void idb_options(struct rdx *x, const struct file *f, uint8_t *p,
			uint32_t n)
{
	for (uint32_t at = 0; at + 4 <= n;) {
		uint32_t code = ld(f, p + at, 2), len = ld(f, p + at + 2, 2);
		if (!code || len > n - at - 4)
			break;
		if (code == 4 || code == 5)
			zero(x, p + at + 4, len);
		at += 4 + ((len + 3) & ~3u);
	}
}

static int walk_pcapng(struct rdx *x, struct file *f, const char *in)
{
	size_t at = 0;

	while (at < f->n) {
		if (f->n - at < 12)
			return bad_file(f, in, at, "block header cut short");
		uint8_t *b = f->b + at;
		uint32_t type;
		memcpy(&type, b, 4);
		if (!memcmp(b, "\x0a\x0d\x0d\x0a", 4)) {   /* SHB: its order */
			f->be = !memcmp(b + 8, "\x1a\x2b\x3c\x4d", 4);
			f->nif = 0;
		}
		type = ld(f, b, 4);
		uint32_t len = ld(f, b + 4, 4);
		if (len < 12 || len % 4 || len > f->n - at)
			return bad_file(f, in, at, "block length wrong");
		if (type == 1 && len >= 20 && f->nif < 64)
			f->dlt[f->nif++] = ld(f, b + 8, 2);
		if (x->addresses && type == 1 && len >= 20)
			idb_options(x, f, b + 16, len - 20);
		if (x->addresses && type == 4)       /* NRB: names of addresses */
			zero(x, b + 8, len - 12);
		if ((type == 6 || type == 2) && len >= 32) {   /* EPB, OPB */
			uint32_t ifid = type == 6 ? ld(f, b + 8, 4) : ld(f, b + 8, 2);
			uint32_t cap = ld(f, b + 20, 4);
			if (cap > len - 32)
				return bad_file(f, in, at, "packet block cut short");
			frame(x, ifid < f->nif ? f->dlt[ifid] : 0xffff, b + 28, cap);
		} else if (type == 3 && len >= 16) {           /* SPB */
			uint32_t cap = ld(f, b + 8, 4);
			if (cap > len - 16)
				cap = len - 16;
			frame(x, f->nif ? f->dlt[0] : 0xffff, b + 12, cap);
		}
		at += len;
	}
	return 0;
}

static int read_all(const char *in, struct file *f)
{
	FILE *fp = strcmp(in, "-") ? fopen(in, "rb") : stdin;
	size_t cap = 1u << 20;

	if (!fp) {
		fprintf(stderr, "rpcrdma-decode: %s: %s\n", in, strerror(errno));
		return CAP_EXIT_READ;
	}
	f->b = malloc(cap);
	for (size_t got; f->b; f->n += got) {
		if (f->n == cap) {
			uint8_t *nb = cap < IN_MAX ? realloc(f->b, cap * 2) : NULL;
			if (!nb) {
				free(f->b);
				f->b = NULL;
				break;
			}
			f->b = nb;
			cap *= 2;
		}
		if (!(got = fread(f->b + f->n, 1, cap - f->n, fp)))
			break;
	}
	bool err = ferror(fp);
	if (fp != stdin)
		fclose(fp);
	if (!f->b || err) {
		fprintf(stderr, "rpcrdma-decode: %s: %s\n", in,
			f->b ? "read error" : "too large to redact in memory");
		return CAP_EXIT_READ;
	}
	return 0;
}

static int walk(struct rdx *x, struct file *f, const char *in)
{
	/* pcap's magic, microseconds and nanoseconds, as big- and little-
	 * endian files hold it */
	static const uint8_t magic[4][4] = {
		{ 0xa1, 0xb2, 0xc3, 0xd4 }, { 0xa1, 0xb2, 0x3c, 0x4d },
		{ 0xd4, 0xc3, 0xb2, 0xa1 }, { 0x4d, 0x3c, 0xb2, 0xa1 },
	};

	if (f->n >= 2 && f->b[0] == 0x1f && f->b[1] == 0x8b) {
		fprintf(stderr, "rpcrdma-decode: %s: gzip-compressed: --redact "
			"reads plain pcap or pcapng (gunzip it first)\n", in);
		return CAP_EXIT_READ;
	}
	if (f->n < 24) {
		fprintf(stderr, "rpcrdma-decode: %s: no capture file header\n", in);
		return CAP_EXIT_READ;
	}
	if (!memcmp(f->b, "\x0a\x0d\x0d\x0a", 4))
		return walk_pcapng(x, f, in);
	for (int i = 0; i < 4; i++) {
		if (!memcmp(f->b, magic[i], 4)) {
			f->be = i < 2;
			return walk_pcap(x, f, in);
		}
	}
	fprintf(stderr, "rpcrdma-decode: %s: neither pcap nor pcapng\n", in);
	return CAP_EXIT_READ;
}

static void report(const struct rdx_counts *c, const char *in,
		   const char *out)
{
	fprintf(stderr, "rpcrdma-decode: %s redacted to %s: %llu frames, %llu "
		"Sends, %llu RPC messages in chunks, %llu names and %llu "
		"handles replaced, %llu RDMA data pieces and %llu other payloads "
		"zeroed, %llu checksums written anew\n", in, out,
		(unsigned long long)c->frames, (unsigned long long)c->sends,
		(unsigned long long)c->rpc_chunks, (unsigned long long)c->names,
		(unsigned long long)c->handles,
		(unsigned long long)c->rdma_zeroed,
		(unsigned long long)c->other_zeroed,
		(unsigned long long)c->crcs);
	if (c->unparsed)
		fprintf(stderr, "rpcrdma-decode: %s: %llu messages or packets "
			"could not be parsed: zeroed whole past the headers read\n",
			in, (unsigned long long)c->unparsed);
	if (c->gaps)
		fprintf(stderr, "rpcrdma-decode: %s: %llu TCP gaps the capture "
			"never filled (iWARP): gone past at the next MPA FPDU "
			"boundary, what they cut zeroed\n", in,
			(unsigned long long)c->gaps);
	if (c->addresses)
		fprintf(stderr, "rpcrdma-decode: %s: %llu IP addresses (or GIDs) "
			"replaced\n", in, (unsigned long long)c->addresses);
	if (c->addr_full)
		fprintf(stderr, "rpcrdma-decode: %s: the address table was full: "
			"%llu addresses replaced by the keyed hash alone (two may "
			"share a replacement)\n", in,
			(unsigned long long)c->addr_full);
	if (c->crcs_bad_kept)
		fprintf(stderr, "rpcrdma-decode: %s: %llu checksums were wrong "
			"(or offloaded) in the original: left wrong\n", in,
			(unsigned long long)c->crcs_bad_kept);
}

static int write_all(const struct file *f, const char *out)
{
	FILE *fp = strcmp(out, "-") ? fopen(out, "wb") : stdout;

	if (!fp || fwrite(f->b, 1, f->n, fp) != f->n || fflush(fp) ||
	    (fp != stdout && fclose(fp))) {
		fprintf(stderr, "rpcrdma-decode: %s: %s\n", out, strerror(errno));
		return CAP_EXIT_READ;
	}
	return 0;
}

static void rdx_free(struct rdx *x)
{
	rdx_map_free(x->map);
	free(x->calls);
	free(x->orig);
	free(x->scratch);
	free(x->fix);
	free(x->fpc);
}

/* The capture b[*n] redacted in place; *n becomes the length kept (less
 * when the file broke off: *cut then, what came before redacted); what
 * was done counted in *c */
static int redact_buf(const struct cap_redact_opts *o, const char *in,
		      uint8_t *b, size_t *n, bool *cut, struct rdx_counts *c)
{
	struct rdx x = { .roce_port = o->roce_port ? o->roce_port : 4791,
			 .keys = o->keys, .addresses = o->addresses };
	struct file f = { .b = b, .n = *n };
	uint8_t key[16];
	int rc;

	if (o->have_key)
		memcpy(key, o->key, 16);
	else if (getrandom(key, sizeof(key), 0) != (ssize_t)sizeof(key)) {
		fprintf(stderr, "rpcrdma-decode: no random key: %s\n",
			strerror(errno));
		return CAP_EXIT_READ;
	}
	x.map = rdx_map_new(key);
	x.calls = calloc(RDX_CALLS, sizeof(*x.calls));
	x.orig = malloc(RDX_MAX_SEND);
	x.scratch = malloc(CAP_CRCBUF);
	x.rdma = rdx_rdma_new();
	memset(key, 0, sizeof(key));
	if (!x.map || !x.calls || !x.orig || !x.scratch || !x.rdma) {
		fprintf(stderr, "rpcrdma-decode: out of memory\n");
		rdx_rdma_free(&x, x.rdma);
		rdx_free(&x);
		return CAP_EXIT_READ;
	}
	rc = walk(&x, &f, in);
	rdx_rdma_free(&x, x.rdma);         /* what waits is flushed or zeroed */
	if (!rc && x.oom) {
		fprintf(stderr, "rpcrdma-decode: out of memory\n");
		rc = CAP_EXIT_READ;
	}
	if (!rc)
		rdx_fix_all(&x);
	*n = f.n;
	*cut = f.cut;
	*c = x.n;
	c->addr_full = rdx_addr_full(x.map);
	rdx_free(&x);
	return rc;
}

int cap_redact_mem(const struct cap_redact_opts *o, const char *name,
		   uint8_t *b, size_t *n)
{
	struct rdx_counts c;
	bool cut = false;
	int rc = redact_buf(o, name, b, n, &cut, &c);

	return rc ? rc : cut ? CAP_EXIT_READ : 0;
}

int cap_redact(const struct cap_redact_opts *o, const char *in,
	       const char *out)
{
	struct file f = { 0 };
	struct rdx_counts c;
	bool cut = false;
	int rc = read_all(in, &f);

	if (!rc)
		rc = redact_buf(o, in, f.b, &f.n, &cut, &c);
	if (!rc)
		rc = write_all(&f, out);
	if (!rc)
		report(&c, in, out);
	if (!rc && cut)
		rc = CAP_EXIT_READ;
	free(f.b);
	return rc;
}
