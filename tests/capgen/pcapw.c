/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * pcapw.c - capture file writers, written by hand and little-endian whatever
 * the host: classic pcap (microsecond magic 0xa1b2c3d4, version 2.4) and
 * pcapng (draft-ietf-opsawg-pcapng: one SHB, one IDB, one EPB per frame).
 * Time stamps are fixed (2026-01-01T00:00:00Z + 10 us per frame) so that
 * the output is byte-for-byte reproducible.
 */
#include <stdlib.h>
#include <string.h>
#include "capgen.h"

#define TS_BASE_US (1767225600ull * 1000000ull)
#define IOBUF (1u << 20)

static void wr(struct capw *w, const void *p, size_t n)
{
	if (w->failed)
		return;
	if (fwrite(p, 1, n, w->f) != n)
		w->failed = true;
}

int capw_open(struct capw *w, const char *path, enum capfmt fmt,
	      uint32_t linktype, uint32_t snaplen)
{
	uint8_t h[32];

	memset(w, 0, sizeof(*w));
	w->f = fopen(path, "wb");
	if (!w->f)
		return -1;
	w->iobuf = malloc(IOBUF);
	if (w->iobuf)
		setvbuf(w->f, w->iobuf, _IOFBF, IOBUF);
	w->fmt = fmt;
	w->linktype = linktype;
	w->snaplen = snaplen ? snaplen : 262144;
	w->ts_us = TS_BASE_US;
	if (fmt == FMT_PCAP) {
		putle32(h, 0xa1b2c3d4u);
		putle16(h + 4, 2);
		putle16(h + 6, 4);
		putle32(h + 8, 0);             /* thiszone */
		putle32(h + 12, 0);            /* sigfigs */
		putle32(h + 16, w->snaplen);
		putle32(h + 20, linktype);
		wr(w, h, 24);
	} else {
		/* Section Header Block: no options, section length unknown */
		putle32(h, 0x0a0d0d0au);
		putle32(h + 4, 28);
		putle32(h + 8, 0x1a2b3c4du);
		putle16(h + 12, 1);
		putle16(h + 14, 0);
		putle32(h + 16, 0xffffffffu);
		putle32(h + 20, 0xffffffffu);
		putle32(h + 24, 28);
		wr(w, h, 28);
		/* Interface Description Block: default resolution (us) */
		putle32(h, 1);
		putle32(h + 4, 20);
		putle16(h + 8, linktype);
		putle16(h + 10, 0);
		putle32(h + 12, w->snaplen);
		putle32(h + 16, 20);
		wr(w, h, 20);
	}
	return 0;
}

static uint64_t drop_list[CAPW_DROP_MAX];
static unsigned ndrop;

void capw_drop(const uint64_t *frames, unsigned n)
{
	ndrop = n < CAPW_DROP_MAX ? n : CAPW_DROP_MAX;
	memcpy(drop_list, frames, ndrop * sizeof(*frames));
}

static bool dropped(uint64_t frame)
{
	for (unsigned i = 0; i < ndrop; i++)
		if (drop_list[i] == frame)
			return true;
	return false;
}

uint64_t capw_frame(struct capw *w, const uint8_t *p, uint32_t len)
{
	uint32_t cap = len < w->snaplen ? len : w->snaplen;
	uint8_t h[28];
	size_t hl, pad = 0, keep;
	static const uint8_t zero[4];
	uint64_t ts = w->ts_us;

	w->nframes++;
	w->ts_us += 10;
	if (w->cut_at && w->nframes > w->cut_at)
		return w->nframes;         /* the file ended before this frame */
	if (dropped(w->nframes))
		return w->nframes;         /* lost by the capture (--drop) */
	if (w->fmt == FMT_PCAP) {
		putle32(h, (uint32_t)(ts / 1000000u));
		putle32(h + 4, (uint32_t)(ts % 1000000u));
		putle32(h + 8, cap);
		putle32(h + 12, len);
		hl = 16;
	} else {
		pad = (4 - cap % 4) % 4;
		putle32(h, 6);
		putle32(h + 4, 32 + cap + (uint32_t)pad);
		putle32(h + 8, 0);
		putle32(h + 12, (uint32_t)(ts >> 32));
		putle32(h + 16, (uint32_t)ts);
		putle32(h + 20, cap);
		putle32(h + 24, len);
		hl = 28;
	}
	keep = hl + cap + pad + (w->fmt == FMT_PCAPNG ? 4 : 0);
	if (w->cut_at == w->nframes && w->cut_len < keep)
		keep = w->cut_len;
	/* write the record, stopping after `keep` bytes */
	wr(w, h, keep < hl ? keep : hl);
	if (keep > hl)
		wr(w, p, keep - hl < cap ? keep - hl : cap);
	if (keep > hl + cap) {
		wr(w, zero, keep - hl - cap < pad ? keep - hl - cap : pad);
		if (keep > hl + cap + pad) {
			uint8_t t[4];

			putle32(t, 32 + cap + (uint32_t)pad);
			wr(w, t, 4);
		}
	}
	return w->nframes;
}

int capw_close(struct capw *w)
{
	int rc = w->failed ? -1 : 0;

	if (w->f && fclose(w->f) != 0)
		rc = -1;
	free(w->iobuf);
	w->f = NULL;
	w->iobuf = NULL;
	return rc;
}
