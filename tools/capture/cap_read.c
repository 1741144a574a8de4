/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cap_read.c - reading one capture file: pcap (microsecond and nanosecond
 * magic, either byte order; pcap-savefile(5)) and pcapng (draft-ietf-opsawg-
 * pcapng: SHB, IDB with if_tsresol/if_tsoffset, EPB, SPB, OPB; every
 * interface with its own link type, as mergecap writes them), plain or
 * gzip-compressed (cap_src.c); each frame goes to cap_frame_in() with the
 * link type of its interface.  A capture cut short or corrupt stops with
 * "truncated at frame N (byte offset X)", X being where its record or block
 * starts in the (uncompressed) file.
 */
#include <errno.h>
#include <pcap/pcap.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "cap_src.h"
#include "cap_state.h"

#define PCAP_MAGIC_US 0xa1b2c3d4u
#define PCAP_MAGIC_NS 0xa1b23c4du
#define PCAP_MAGIC_KUZ 0xa1b2cd34u     /* "modified" pcap: 24-byte records */
#define PCAPNG_SHB 0x0a0d0d0au
#define PCAPNG_BOM 0x1a2b3c4du
#define PCAPNG_IDB 1u
#define PCAPNG_OPB 2u
#define PCAPNG_SPB 3u
#define PCAPNG_EPB 6u
#define MAX_SNAPLEN 262144u            /* libpcap's largest for any link type */
#define MAX_IFS 65536u

struct rd_if {
	int dlt;
	uint32_t snaplen;
	uint64_t units;              /* time stamp units per second */
	int64_t offset;              /* if_tsoffset, seconds */
	bool warned;
};

struct rd {
	struct cap_state *st;
	struct cap_src src;
	bool swapped;
	uint64_t frames;             /* frames read from this file */
	struct rd_if *ifs;
	uint32_t nifs, ifcap;
};

static uint16_t ld16(const struct rd *r, const uint8_t *p)
{
	uint16_t v;
	memcpy(&v, p, 2);
	return r->swapped ? __builtin_bswap16(v) : v;
}

static uint32_t ld32(const struct rd *r, const uint8_t *p)
{
	uint32_t v;
	memcpy(&v, p, 4);
	return r->swapped ? __builtin_bswap32(v) : v;
}

static void progress(struct cap_state *st, uint64_t n)
{
	fflush(st->out);
	fprintf(stderr, "\r\033[Krpcrdma-decode: %s: %llu frames", st->file,
		(unsigned long long)n);
	st->progress_shown = true;
}

/* a frame stamped over a second before the one before it: counted (the
 * latencies of such a capture mix two clocks) */
static void ts_step(struct cap_stats_all *s, const struct cap_frame *f)
{
	int64_t d;
	bool back = __builtin_sub_overflow(s->ts_last_sec, f->ts_sec, &d) ?
		    s->ts_last_sec > f->ts_sec : d > 1;
	if (s->ts_have_last && back) {
		if (!s->ts_back++) {
			s->ts_back_frame = f->num;
			s->ts_back_sec = (uint64_t)s->ts_last_sec - (uint64_t)f->ts_sec;
		}
	}
	s->ts_last_sec = f->ts_sec;
	s->ts_have_last = true;
}

bool cap_frame_in(struct cap_state *st, int dlt, const struct cap_frame *f)
{
	st->frame_no = f->num;
	st->frame_conv = 0;
	st->stats.frames++;
	ts_step(&st->stats, f);
	if (st->o->filter && !cap_bpf_match(st, dlt, f)) {
		st->seen.filtered++;
		return !st->stop;              /* counted, not decoded */
	}
	if (f->len < f->wire_len)
		st->seen.snapped++;
	if (st->writer)
		cap_write_frame(st, dlt, f);
	(void)cap_link_frame(st, dlt, f);
	if (st->writer)
		cap_write_owner(st);
	if (st->progress && (f->num & 0x3ffff) == 0)
		progress(st, f->num);
	return !st->stop;
}

/* "truncated at frame N (byte offset X)" [and why] */
static int cut(struct rd *r, uint64_t at, const char *why, ...)
	__attribute__((format(printf, 3, 4)));
static int cut(struct rd *r, uint64_t at, const char *why, ...)
{
	struct cap_state *st = r->st;
	const char *err = cap_src_error(&r->src);

	fflush(st->out);
	cap_progress_clear(st);
	fprintf(stderr, "rpcrdma-decode: %s: truncated at frame %llu (byte offset "
		"%llu)\n", st->file, (unsigned long long)(r->frames + 1),
		(unsigned long long)at);
	if (why) {
		va_list ap;
		fprintf(stderr, "rpcrdma-decode: %s: frame %llu: ", st->file,
			(unsigned long long)(r->frames + 1));
		va_start(ap, why);
		vfprintf(stderr, why, ap);
		va_end(ap);
		fputc('\n', stderr);
	} else if (err) {
		fprintf(stderr, "rpcrdma-decode: %s: %s\n", st->file, err);
	}
	st->stats.frames_truncated++;
	return CAP_EXIT_READ;
}

static bool deliver(struct rd *r, int dlt, int64_t sec, uint32_t usec,
		    const uint8_t *p, uint32_t caplen, uint32_t len)
{
	struct cap_frame f = {
		.num = ++r->frames,
		.ts_sec = sec,
		.ts_usec = usec,
		.p = p,
		.len = caplen,
		/* a corrupt record may claim less than it holds */
		.wire_len = len > caplen ? len : caplen,
	};
	return cap_frame_in(r->st, dlt, &f);
}

static bool dlt_ok(struct cap_state *st, int dlt, int ifno)
{
	if (cap_link_supported(dlt))
		return true;
	const char *n = pcap_datalink_val_to_name(dlt);
	fflush(st->out);
	cap_progress_clear(st);
	if (ifno < 0)
		fprintf(stderr, "rpcrdma-decode: %s: unsupported link type %d (%s); "
			"supported: %s\n", st->file, dlt, n ? n : "unknown",
			cap_link_names);
	else
		fprintf(stderr, "rpcrdma-decode: %s: interface %d: unsupported link "
			"type %d (%s), its frames are skipped; supported: %s\n",
			st->file, ifno, dlt, n ? n : "unknown", cap_link_names);
	return false;
}

/* ------------------------------------------------------------------ pcap */

static int read_pcap(struct rd *r, uint32_t magic)
{
	size_t have, rec = magic == PCAP_MAGIC_KUZ ? 24 : 16;
	bool ns = magic == PCAP_MAGIC_NS;
	const uint8_t *h = cap_src_peek(&r->src, 24, &have);

	if (!h) {
		fprintf(stderr, "rpcrdma-decode: %s: pcap file header cut short (need "
			"24 bytes, have %zu)\n", r->st->file, have);
		return CAP_EXIT_READ;
	}
	uint32_t snaplen = ld32(r, h + 16);
	int dlt = (int)(ld32(r, h + 20) & 0x03ffffff);
	if (!dlt_ok(r->st, dlt, -1))
		return CAP_EXIT_READ;
	uint32_t max = snaplen > MAX_SNAPLEN ? snaplen : MAX_SNAPLEN;
	if (max > CAP_SRC_MAX - 24)
		max = CAP_SRC_MAX - 24;
	cap_src_skip(&r->src, 24);
	for (;;) {
		uint64_t at = r->src.off;
		const uint8_t *p = cap_src_peek(&r->src, rec, &have);
		if (!p)
			return have ? cut(r, at, NULL) :
			       cap_src_error(&r->src) ? cut(r, at, NULL) : CAP_EXIT_OK;
		uint32_t incl = ld32(r, p + 8), orig = ld32(r, p + 12);
		if (incl > max)
			return cut(r, at, "invalid packet capture length %u, bigger "
				   "than the snapshot length %u", incl, max);
		p = cap_src_peek(&r->src, rec + incl, &have);
		if (!p)
			return cut(r, at, NULL);
		uint32_t frac = ld32(r, p + 4);
		if (!deliver(r, dlt, (int64_t)ld32(r, p), ns ? frac / 1000 : frac,
			     p + rec, incl, orig))
			return CAP_EXIT_OK;
		cap_src_skip(&r->src, rec + incl);
	}
}

/* ---------------------------------------------------------------- pcapng */

static bool pow_units(uint8_t v, uint64_t *units)
{
	uint64_t u = 1;
	unsigned e = v & 0x7f;

	if (v & 0x80) {
		if (e > 63)
			return false;
		*units = (uint64_t)1 << e;
		return true;
	}
	if (e > 19)
		return false;
	while (e--)
		u *= 10;
	*units = u;
	return true;
}

/* an IDB: link type, snap length, the time stamp options */
static bool idb(struct rd *r, const uint8_t *b, uint32_t len)
{
	if (len < 20)
		return false;
	if (r->nifs == MAX_IFS)
		return true;               /* more than any real capture */
	if (r->nifs == r->ifcap) {
		uint32_t ncap = r->ifcap ? r->ifcap * 2 : 8;
		struct rd_if *n = realloc(r->ifs, ncap * sizeof(*n));
		if (!n)
			return false;
		r->ifs = n;
		r->ifcap = ncap;
	}
	struct rd_if *i = &r->ifs[r->nifs++];
	memset(i, 0, sizeof(*i));
	i->dlt = ld16(r, b + 8);
	i->snaplen = ld32(r, b + 12);
	i->units = 1000000;
	/* options: code, length, value padded to 4 */
	for (uint32_t o = 16; o + 4 <= len - 4; ) {
		uint16_t code = ld16(r, b + o), olen = ld16(r, b + o + 2);
		if (code == 0 || o + 4 + olen > len - 4)
			break;
		if (code == 9 && olen >= 1)
			(void)pow_units(b[o + 4], &i->units);
		if (code == 14 && olen >= 8)
			i->offset = (int64_t)((uint64_t)ld32(r, b + o + 4 + (r->swapped ? 4 : 0)) |
					      (uint64_t)ld32(r, b + o + 4 + (r->swapped ? 0 : 4)) << 32);
		o += 4 + ((olen + 3u) & ~3u);
	}
	if (!cap_link_supported(i->dlt)) {
		i->warned = true;
		(void)dlt_ok(r->st, i->dlt, (int)r->nifs - 1);
	}
	return true;
}

/* EPB, SPB or OPB: false to stop reading (-c) */
static bool packet_block(struct rd *r, uint32_t type, const uint8_t *b,
			 uint32_t len, const char **bad)
{
	uint32_t ifno, caplen, orig, hl;
	uint64_t ts = 0;
	bool have_ts = true;

	if (type == PCAPNG_EPB || type == PCAPNG_OPB) {
		/* the same layout but the interface: 32 bits, or 16 (+ drops) */
		if (len < 32)
			return *bad = type == PCAPNG_EPB ? "Enhanced Packet Block too "
				      "short" : "Packet Block too short", true;
		ifno = type == PCAPNG_EPB ? ld32(r, b + 8) : ld16(r, b + 8);
		ts = (uint64_t)ld32(r, b + 12) << 32 | ld32(r, b + 16);
		caplen = ld32(r, b + 20);
		orig = ld32(r, b + 24);
		hl = 28;
	} else {
		if (len < 16)
			return *bad = "Simple Packet Block too short", true;
		ifno = 0;
		orig = ld32(r, b + 8);
		caplen = len - 16;
		if (r->nifs && r->ifs[0].snaplen && caplen > r->ifs[0].snaplen)
			caplen = r->ifs[0].snaplen;
		if (caplen > orig)
			caplen = orig;
		hl = 12;
		have_ts = false;
	}
	if (caplen > len - hl - 4)
		return *bad = "packet length larger than its block", true;
	if (ifno >= r->nifs)
		return *bad = "packet of an interface not described", true;
	struct rd_if *i = &r->ifs[ifno];
	if (i->warned) {
		r->frames++;               /* counted, as Wireshark numbers it */
		r->st->stats.frames++;
		return true;
	}
	int64_t sec = 0;
	uint32_t usec = 0;
	if (have_ts) {
		/* seconds since 1970 as int64, whatever the block and
		 * if_tsoffset say (no signed overflow) */
		__int128 s = (__int128)(ts / i->units) + i->offset;
		sec = s > INT64_MAX ? INT64_MAX : s < INT64_MIN ? INT64_MIN :
		      (int64_t)s;
		usec = (uint32_t)((unsigned __int128)(ts % i->units) * 1000000u / i->units);
	}
	return deliver(r, i->dlt, sec, usec, b + hl, caplen, orig);
}

static int read_pcapng(struct rd *r)
{
	size_t have;

	for (;;) {
		uint64_t at = r->src.off;
		const uint8_t *b = cap_src_peek(&r->src, 12, &have);
		if (!b)
			return have || cap_src_error(&r->src) ? cut(r, at, NULL) :
			       CAP_EXIT_OK;
		uint32_t type;
		memcpy(&type, b, 4);
		if (type == PCAPNG_SHB) {
			uint32_t bom;
			memcpy(&bom, b + 8, 4);
			if (bom != PCAPNG_BOM && bom != __builtin_bswap32(PCAPNG_BOM))
				return cut(r, at, "section header with a bad byte-order "
					   "magic 0x%08x", bom);
			r->swapped = bom != PCAPNG_BOM;
			r->nifs = 0;           /* a section has its own interfaces */
		}
		type = ld32(r, b);
		uint32_t len = ld32(r, b + 4);
		if (len < 12 || len % 4 || len > CAP_SRC_MAX)
			return cut(r, at, "block of type 0x%x with length %u", type, len);
		b = cap_src_peek(&r->src, len, &have);
		if (!b)
			return cut(r, at, NULL);
		if (ld32(r, b + len - 4) != len)
			return cut(r, at, "block of type 0x%x: its two lengths differ",
				   type);
		const char *bad = NULL;
		if (type == PCAPNG_IDB) {
			if (!idb(r, b, len))
				bad = "Interface Description Block too short";
		} else if (type == PCAPNG_EPB || type == PCAPNG_SPB ||
			   type == PCAPNG_OPB) {
			if (!packet_block(r, type, b, len, &bad))
				return CAP_EXIT_OK;
		}
		if (bad)
			return cut(r, at, "%s", bad);
		cap_src_skip(&r->src, len);
	}
}

int cap_read_file(struct cap_state *st, const char *path)
{
	struct rd r = { .st = st };
	size_t have;

	cap_source_begin(st, path);
	int rc = cap_src_open(&r.src, path, st->out);

	if (rc) {
		fprintf(stderr, "rpcrdma-decode: %s: %s\n", st->file, strerror(rc));
		return CAP_EXIT_READ;
	}
	const uint8_t *m = cap_src_peek(&r.src, 4, &have);
	uint32_t magic = 0;
	if (m)
		memcpy(&magic, m, 4);
	if (magic == PCAPNG_SHB) {
		rc = read_pcapng(&r);
	} else if (magic == PCAP_MAGIC_US || magic == PCAP_MAGIC_NS ||
		   magic == PCAP_MAGIC_KUZ) {
		rc = read_pcap(&r, magic);
	} else if (__builtin_bswap32(magic) == PCAP_MAGIC_US ||
		   __builtin_bswap32(magic) == PCAP_MAGIC_NS ||
		   __builtin_bswap32(magic) == PCAP_MAGIC_KUZ) {
		r.swapped = true;
		rc = read_pcap(&r, __builtin_bswap32(magic));
	} else {
		const char *err = cap_src_error(&r.src);
		if (err)
			fprintf(stderr, "rpcrdma-decode: %s: %s\n", st->file, err);
		else if (!m)
			fprintf(stderr, "rpcrdma-decode: %s: not a capture file (%zu "
				"bytes)\n", st->file, have);
		else
			fprintf(stderr, "rpcrdma-decode: %s: not a pcap or pcapng "
				"capture file (it starts with %02x %02x %02x %02x)\n",
				st->file, m[0], m[1], m[2], m[3]);
		rc = CAP_EXIT_READ;
	}
	cap_progress_clear(st);
	free(r.ifs);
	cap_src_close(&r.src);
	cap_source_end(st);
	return rc;
}
