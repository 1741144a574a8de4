/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cap_util.c - small helpers of the capture pipeline: address text, the
 * bounded reassembly budget (CAP_MAX_BUFFERED), one-time warnings and the
 * "FILE: frame N: what is wrong" message form.
 */
#include <arpa/inet.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "cap_state.h"

const char *cap_transport_name(enum cap_transport t)
{
	switch (t) {
	case CAP_T_ROCEV2: return "rocev2";
	case CAP_T_ROCEV1: return "rocev1";
	case CAP_T_IB: return "infiniband";
	case CAP_T_IWARP: return "iwarp";
	}
	return "unknown";
}

/* any message filter given (cap_emit.c applies them) */
bool cap_filtering(const struct cap_state *st)
{
	const struct cap_opts *o = st->o;

	return o->nxids || o->nconvs || o->have_vers || o->nprogs || o->nprocs ||
	       o->nproc_names;
}

void cap_addr_text(char *buf, size_t cap, uint8_t family, const uint8_t *a,
		   uint16_t port, bool with_port)
{
	char ip[INET6_ADDRSTRLEN];

	if (family == CAP_AF_INET) {
		inet_ntop(AF_INET, a, ip, sizeof(ip));
		if (with_port)
			snprintf(buf, cap, "%s:%u", ip, port);
		else
			snprintf(buf, cap, "%s", ip);
	} else if (family == CAP_AF_INET6) {
		inet_ntop(AF_INET6, a, ip, sizeof(ip));
		if (with_port)
			snprintf(buf, cap, "[%s]:%u", ip, port);
		else
			snprintf(buf, cap, "%s", ip);
	} else {
		snprintf(buf, cap, "lid:0x%04x", cap_be16(a));
	}
}

/* Microseconds from (s0, us0) to (s1, us1); 0 when the second is not
 * later, UINT64_MAX past 2^64 us: time stamps come from the capture, any
 * int64 (pcapng if_tsoffset), so nothing may overflow */
uint64_t cap_elapsed_us(int64_t s0, uint32_t us0, int64_t s1, uint32_t us1)
{
	int64_t ds;
	uint64_t us;

	if (__builtin_sub_overflow(s1, s0, &ds))
		return s1 > s0 ? UINT64_MAX : 0;
	if (ds < 0 || (ds == 0 && us1 <= us0))
		return 0;
	if (__builtin_mul_overflow((uint64_t)ds, 1000000u, &us))
		return UINT64_MAX;
	/* us1 - us0 may be negative (and either above 999999 when corrupt) */
	if (us1 >= us0)
		return __builtin_add_overflow(us, (uint64_t)(us1 - us0), &us) ?
		       UINT64_MAX : us;
	return us >= us0 - us1 ? us - (us0 - us1) : 0;
}

void *cap_budget_alloc(struct cap_state *st, size_t n)
{
	if (n > CAP_MAX_BUFFERED - st->buffered) {
		st->lost.budget++;
		cap_warn_once(st, CAP_W_BUDGET,
			      "reassembly buffers reached %u KiB; later data is "
			      "not reassembled", CAP_MAX_BUFFERED >> 10);
		return NULL;
	}
	void *p = malloc(n);
	if (p)
		st->buffered += n;
	return p;
}

/* Make *buf (capacity *cap, `used` bytes in it) hold at least `need` bytes,
 * keeping its contents: capacities double from `first`.  False, buffer
 * untouched, when the budget says no. */
bool cap_budget_grow(struct cap_state *st, uint8_t **buf, uint32_t *cap,
		     uint32_t used, uint32_t need, uint32_t first)
{
	uint32_t ncap = *cap ? *cap : first;

	if (need <= *cap)
		return true;
	if (need > CAP_MAX_BUFFERED || !ncap) {
		st->lost.budget++;
		return false;              /* more than the whole budget */
	}
	while (ncap < need)
		ncap = ncap > CAP_MAX_BUFFERED / 2 ? CAP_MAX_BUFFERED : ncap * 2;
	uint8_t *nb = cap_budget_alloc(st, ncap);
	if (!nb)
		return false;
	if (used)
		memcpy(nb, *buf, used);
	cap_budget_free(st, *buf, *cap);
	*buf = nb;
	*cap = ncap;
	return true;
}

void cap_budget_free(struct cap_state *st, void *p, size_t n)
{
	if (!p)
		return;
	free(p);
	st->buffered -= n;
}

/* wipe the progress line before anything else goes to stderr */
void cap_progress_clear(struct cap_state *st)
{
	if (st->progress_shown) {
		fputs("\r\033[K", stderr);
		st->progress_shown = false;
	}
}

void cap_warn_once(struct cap_state *st, unsigned which, const char *fmt, ...)
{
	va_list ap;

	if (which < CAP_W_COUNT) {
		if (st->warned[which])
			return;
		st->warned[which] = true;
	}
	fflush(st->out);
	cap_progress_clear(st);
	fprintf(stderr, "rpcrdma-decode: %s: warning: ", st->file);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* "rpcrdma-decode: FILE: frame N: what is wrong (need X bytes, have Y)" */
void cap_frame_error(struct cap_state *st, const struct cap_frame *f,
		     const char *fmt, ...)
{
	va_list ap;

	if (st->o->check || st->o->stats || st->o->quiet)
		return;
	fflush(st->out);
	cap_progress_clear(st);
	fprintf(stderr, "rpcrdma-decode: %s: frame %llu: ", st->file,
		(unsigned long long)f->num);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}
