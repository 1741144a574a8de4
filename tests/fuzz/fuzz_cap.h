/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fuzz_cap.h - what the capture pipeline's per-layer fuzz targets share:
 * a run with small tables (the build sets -DCAP_MAX_*) whose output goes
 * nowhere, in the output mode the input's first byte picks, fed frames
 * the target builds around the fuzzed bytes.  Built with -DCAP_FUZZ_CRC,
 * so a checksum passes unless its field is all ones.
 */
#ifndef FUZZ_CAP_H
#define FUZZ_CAP_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "cap_state.h"

struct fz {
	const uint8_t *p;            /* the input not yet used */
	size_t n;
	struct cap_state *st;
	uint64_t frame;
};

static inline FILE *fz_null(void)
{
	static FILE *null;
	if (!null)
		null = fopen("/dev/null", "w");
	return null;
}

/* take the mode byte and open the run; false: no input */
static inline bool fz_open(struct fz *z, const uint8_t *data, size_t size)
{
	struct cap_opts o = { .roce_port = 4791 };

	if (size < 1)
		return false;
	switch (data[0] & 7) {
	case 0: o.json = true; break;
	case 1: o.verbose = true; break;
	case 2: o.check = true; break;
	case 3: o.check = o.json = true; break;
	case 4: o.stats = true; break;
	case 5: o.quiet = true; break;
	default: break;                    /* one line per message */
	}
	o.inline_threshold = data[0] & 8 ? 0 : 4096;
	z->p = data + 1;
	z->n = size - 1;
	z->frame = 0;
	z->st = cap_open(&o, fz_null());
	if (!z->st)
		return false;
	cap_source_begin(z->st, "fuzz");
	return true;
}

static inline bool fz_u8(struct fz *z, uint8_t *v)
{
	if (!z->n)
		return false;
	*v = *z->p++;
	z->n--;
	return true;
}

static inline bool fz_u16(struct fz *z, uint16_t *v)
{
	uint8_t a, b;
	if (!fz_u8(z, &a) || !fz_u8(z, &b))
		return false;
	*v = (uint16_t)(a << 8 | b);
	return true;
}

static inline bool fz_u32(struct fz *z, uint32_t *v)
{
	uint16_t a, b;
	if (!fz_u16(z, &a) || !fz_u16(z, &b))
		return false;
	*v = (uint32_t)a << 16 | b;
	return true;
}

/* up to `max` bytes (a length byte or two first); *len what there was */
static inline const uint8_t *fz_bytes(struct fz *z, uint32_t max, uint32_t *len)
{
	uint16_t want;
	if (!fz_u16(z, &want))
		return NULL;
	*len = want > max ? max : want;
	if (*len > z->n)
		*len = (uint32_t)z->n;
	const uint8_t *p = z->p;
	z->p += *len;
	z->n -= *len;
	return p;
}

/* one frame; `snap` cuts it as a snapshot length would */
static inline void fz_frame(struct fz *z, int dlt, const uint8_t *p,
			    uint32_t len, uint32_t snap)
{
	struct cap_frame f = {
		.num = ++z->frame, .ts_sec = 1700000000 + (int64_t)z->frame,
		.ts_usec = (uint32_t)(z->frame * 7919 % 1000000),
		.p = p, .len = snap && snap < len ? snap : len, .wire_len = len,
	};
	cap_frame_in(z->st, dlt, &f);
}

static inline void fz_close(struct fz *z)
{
	cap_source_end(z->st);
	(void)cap_close(z->st);
}

#endif
