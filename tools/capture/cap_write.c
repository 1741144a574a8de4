/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cap_write.c - -w FILE: frames written to a pcapng file (the pcapng draft:
 * a Section Header Block, an Interface Description Block per link type, an
 * Enhanced Packet Block per frame, microsecond time stamps).  Without
 * filters every frame read is written as it is read (what tcpdump -w
 * does; a live capture saved).  With filters only the frames of the
 * messages that pass: each frame waits in a window of the last frames read
 * (CAP_WRITE_FRAMES, CAP_WRITE_BYTES) with its conversation; a message
 * that passes marks its Send's packets and its chunk data's (frames of its
 * conversation between the first and the last), and a frame leaves the
 * window in order, written if marked.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "cap_state.h"

#define CAP_WRITE_FRAMES 65536u        /* frames kept for marking */
#define CAP_WRITE_BYTES (16u << 20)    /* their bytes */
#define MAX_IFS 32u                    /* link types in one run */

struct wframe {
	uint64_t num;
	int64_t sec;
	uint32_t usec, caplen, wire_len, conv;
	int dlt;
	bool marked;
	uint8_t *data;
};

struct cap_writer {
	FILE *f;
	const char *path;
	bool failed;
	int dlts[MAX_IFS];
	unsigned nifs;
	bool window;                       /* filters: keep, mark, write */
	struct wframe *w;                  /* ring of CAP_WRITE_FRAMES */
	uint32_t head, n;
	size_t bytes;                      /* theirs, under CAP_WRITE_BYTES */
	bool warned;
};

static void put32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static void put16(uint8_t *p, uint16_t v) { memcpy(p, &v, 2); }

static void out(struct cap_writer *w, const void *p, size_t n)
{
	if (!w->failed && fwrite(p, 1, n, w->f) != n) {
		w->failed = true;
		fprintf(stderr, "rpcrdma-decode: -w %s: %s\n", w->path, strerror(errno));
	}
}

/* the interface of a link type, its IDB written when first needed */
static int iface(struct cap_writer *w, int dlt)
{
	uint8_t b[20];

	for (unsigned i = 0; i < w->nifs; i++)
		if (w->dlts[i] == dlt)
			return (int)i;
	if (w->nifs == MAX_IFS)
		return -1;
	put32(b, 1);                       /* IDB */
	put32(b + 4, 20);
	put16(b + 8, (uint16_t)dlt);
	put16(b + 10, 0);
	put32(b + 12, 262144);             /* snap length */
	put32(b + 16, 20);
	out(w, b, sizeof(b));
	w->dlts[w->nifs] = dlt;
	return (int)w->nifs++;
}

static void epb(struct cap_writer *w, int dlt, int64_t sec, uint32_t usec,
		const uint8_t *p, uint32_t caplen, uint32_t wire_len)
{
	static const uint8_t zero[4];
	uint8_t h[28];
	int ifno = iface(w, dlt);

	if (ifno < 0)
		return;
	uint32_t pad = (4 - caplen % 4) % 4, total = 28 + caplen + pad + 4;
	uint64_t ts = (uint64_t)sec * 1000000u + usec;
	put32(h, 6);                       /* EPB */
	put32(h + 4, total);
	put32(h + 8, (uint32_t)ifno);
	put32(h + 12, (uint32_t)(ts >> 32));
	put32(h + 16, (uint32_t)ts);
	put32(h + 20, caplen);
	put32(h + 24, wire_len);
	out(w, h, sizeof(h));
	out(w, p, caplen);
	out(w, zero, pad);
	put32(h, total);
	out(w, h, 4);
}

bool cap_write_open(struct cap_state *st, const char *path)
{
	struct cap_writer *w = calloc(1, sizeof(*w));
	uint8_t shb[28];

	if (!w)
		return false;
	w->path = path;
	w->f = strcmp(path, "-") ? fopen(path, "wb") : stdout;
	if (!w->f) {
		fprintf(stderr, "rpcrdma-decode: -w %s: %s\n", path, strerror(errno));
		free(w);
		return false;
	}
	w->window = cap_filtering(st) && strcmp(path, "-");
	if (w->window) {
		w->w = malloc(CAP_WRITE_FRAMES * sizeof(*w->w));
		if (!w->w) {
			fclose(w->f);
			free(w);
			return false;
		}
	}
	put32(shb, 0x0a0d0d0a);            /* SHB, byte-order magic, v1.0 */
	put32(shb + 4, 28);
	put32(shb + 8, 0x1a2b3c4d);
	put16(shb + 12, 1);
	put16(shb + 14, 0);
	put32(shb + 16, 0xffffffff);       /* section length not given */
	put32(shb + 20, 0xffffffff);
	put32(shb + 24, 28);
	out(w, shb, sizeof(shb));
	st->writer = w;
	return true;
}

/* the oldest frame leaves the window: written when a message marked it */
static void leave(struct cap_writer *w)
{
	struct wframe *e = &w->w[w->head];

	if (e->marked)
		epb(w, e->dlt, e->sec, e->usec, e->data, e->caplen, e->wire_len);
	w->bytes -= e->caplen;
	free(e->data);
	w->head = (w->head + 1) % CAP_WRITE_FRAMES;
	w->n--;
}

void cap_write_frame(struct cap_state *st, int dlt, const struct cap_frame *f)
{
	struct cap_writer *w = st->writer;

	if (!w->window) {
		epb(w, dlt, f->ts_sec, f->ts_usec, f->p, f->len, f->wire_len);
		return;
	}
	while (w->n && (w->n == CAP_WRITE_FRAMES ||
			w->bytes + f->len > CAP_WRITE_BYTES))
		leave(w);
	struct wframe *e = &w->w[(w->head + w->n) % CAP_WRITE_FRAMES];
	*e = (struct wframe){ f->num, f->ts_sec, f->ts_usec, f->len, f->wire_len,
			      0, dlt, false, malloc(f->len ? f->len : 1) };
	if (!e->data)
		return;                    /* memory short: not kept */
	memcpy(e->data, f->p, f->len);
	w->n++;
	w->bytes += f->len;
}

/* after the frame went through the pipeline: whose it was */
void cap_write_owner(struct cap_state *st)
{
	struct cap_writer *w = st->writer;

	if (w && w->window && w->n)
		w->w[(w->head + w->n - 1) % CAP_WRITE_FRAMES].conv = st->frame_conv;
}

void cap_write_mark(struct cap_state *st, uint32_t conv, uint64_t first,
		    uint64_t last)
{
	struct cap_writer *w = st->writer;

	if (!w || !w->window || !first)
		return;
	if (!w->n || w->w[w->head].num > first) {
		if (!w->warned)
			cap_warn_once(st, CAP_W_COUNT, "-w: frames of a message "
				      "that left the window of the last %u frames "
				      "are not written", CAP_WRITE_FRAMES);
		w->warned = true;
	}
	for (uint32_t i = 0; i < w->n; i++) {
		struct wframe *e = &w->w[(w->head + i) % CAP_WRITE_FRAMES];
		/* (the frame being decoded has no owner yet: it is this one's) */
		if (e->num >= first && e->num <= last &&
		    (e->conv == conv || (e->num == st->frame_no && !e->conv)))
			e->marked = true;
	}
}

/* the end of a capture (frame numbers start again): write what is marked */
void cap_write_flush(struct cap_state *st)
{
	struct cap_writer *w = st->writer;

	while (w && w->window && w->n)
		leave(w);
	if (w)
		fflush(w->f);
}

bool cap_write_close(struct cap_state *st)
{
	struct cap_writer *w = st->writer;

	if (!w)
		return true;
	cap_write_flush(st);
	bool ok = !w->failed && !ferror(w->f);
	if (w->f != stdout && fclose(w->f) != 0)
		ok = false;
	free(w->w);
	free(w);
	st->writer = NULL;
	return ok;
}

void cap_write_sync(struct cap_state *st)
{
	if (st->writer)
		fflush(st->writer->f);
}
