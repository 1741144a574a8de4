/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * live.c - the pure parts of the live tools' shell (live.h): the clock,
 * the transport's errors in a user's words, its counters as JSON.
 */
#include <string.h>
#include <time.h>
#include "live.h"

uint64_t live_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int64_t live_now_ms(void)
{
	return (int64_t)(live_now_ns() / 1000000u);
}

/* in the order of LIVE_CHUNK_NAMES: the call's ways, then the reply's */
static const enum xprt_chunk_mode chunk_modes[] = {
	XPRT_CHUNK_AUTO, XPRT_CHUNK_INLINE, XPRT_CHUNK_READ, XPRT_CHUNK_POS0,
	XPRT_CHUNK_WRITE, XPRT_CHUNK_REPLY,
};

const char *live_chunk_name(enum xprt_chunk_mode m)
{
	switch (m) {
	case XPRT_CHUNK_AUTO: return "auto";
	case XPRT_CHUNK_INLINE: return "inline";
	case XPRT_CHUNK_READ: return "read";
	case XPRT_CHUNK_WRITE: return "write";
	case XPRT_CHUNK_REPLY: return "reply";
	case XPRT_CHUNK_POS0: return "pos0";
	}
	return "unknown";
}

bool live_chunk_by_name(const char *name, enum xprt_chunk_mode *m)
{
	size_t i;

	for (i = 0; i < sizeof(chunk_modes) / sizeof(chunk_modes[0]); i++)
		if (!strcmp(name, live_chunk_name(chunk_modes[i]))) {
			*m = chunk_modes[i];
			return true;
		}
	return false;
}

void live_json_stats(struct json *j, const struct xprt_stats *s)
{
	json_ku64(j, "calls_sent", s->calls_sent);
	json_ku64(j, "replies_received", s->replies_received);
	json_ku64(j, "calls_received", s->calls_received);
	json_ku64(j, "replies_sent", s->replies_sent);
	json_ku64(j, "backward_calls_sent", s->backward_calls_sent);
	json_ku64(j, "backward_calls_received", s->backward_calls_received);
	json_ku64(j, "errors_sent", s->errors_sent);
	json_ku64(j, "errors_received", s->errors_received);
	json_ku64(j, "discarded", s->discarded);
	json_ku64(j, "bytes_sent", s->bytes_sent);
	json_ku64(j, "bytes_received", s->bytes_received);
	json_ku64(j, "rdma_read_bytes", s->rdma_read_bytes);
	json_ku64(j, "rdma_write_bytes", s->rdma_write_bytes);
	json_ku64(j, "credit_waits", s->credit_waits);
	json_ku64(j, "max_outstanding", s->max_outstanding);
}

void live_json_line_end(struct json *j, FILE *f)
{
	struct obuf *o = j->o;

	json_obj_end(j);
	ob_putc(o, '\n');
	ob_flush(o);
	fflush(f);
	json_init(j, o);
}
