/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cap_src.c - the bytes of one capture file: a path or standard input,
 * plain or gzip-compressed (RFC 1952, recognised by its magic, members
 * concatenated as gzip(1) allows), read with read(2) into one buffer that
 * grows only as bytes arrive.  A pipe (`tcpdump -U -w - | rpcrdma-decode -r -`)
 * is read as it grows: before a read that would block, the output is
 * flushed, so every message is printed as soon as its frames are in.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cap_src.h"

#define SRC_FIRST (1u << 20)         /* the buffer, grown while a record needs it */
#define SRC_ZIN (256u << 10)         /* compressed bytes read at a time */

int cap_src_open(struct cap_src *s, const char *path, FILE *flush)
{
	struct stat sb;

	memset(s, 0, sizeof(*s));
	s->flush = flush;
	s->fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC) : STDIN_FILENO;
	if (s->fd < 0) {
		s->fd = -1;
		return errno;
	}
	s->regular = fstat(s->fd, &sb) == 0 && S_ISREG(sb.st_mode);
	if (s->regular)
		posix_fadvise(s->fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	s->buf = malloc(SRC_FIRST);
	if (!s->buf) {
		cap_src_close(s);
		return ENOMEM;
	}
	s->cap = SRC_FIRST;
	return 0;
}

void cap_src_close(struct cap_src *s)
{
	if (s->gz)
		inflateEnd(&s->z);
	free(s->zin);
	free(s->buf);
	if (s->fd > STDIN_FILENO)
		close(s->fd);
	s->fd = -1;
	s->buf = s->zin = NULL;
}

/* read(2) that flushes the output first when it would wait for a writer */
static ssize_t raw_read(struct cap_src *s, uint8_t *p, size_t n)
{
	if (!s->regular && s->flush) {
		struct pollfd pfd = { .fd = s->fd, .events = POLLIN };
		if (poll(&pfd, 1, 0) == 0)
			fflush(s->flush);
	}
	for (;;) {
		ssize_t got = read(s->fd, p, n);
		if (got >= 0 || errno != EINTR)
			return got;
	}
}

/* gzip: the compressed bytes already in buf[start..end) become the first
 * input of inflate */
static bool start_gzip(struct cap_src *s)
{
	size_t have = s->end - s->start;

	s->zin = malloc(SRC_ZIN > have ? SRC_ZIN : have);
	if (!s->zin) {
		s->err = ENOMEM;
		return false;
	}
	memcpy(s->zin, s->buf + s->start, have);
	if (inflateInit2(&s->z, 16 + MAX_WBITS) != Z_OK) {
		s->zerr = "cannot start zlib";
		return false;
	}
	s->z.next_in = s->zin;
	s->z.avail_in = (uInt)have;
	s->gz = true;
	s->start = s->end = 0;
	return true;
}

/* Some more bytes at buf[end..cap); false at the end or on an error */
static bool more(struct cap_src *s)
{
	if (!s->gz) {
		ssize_t got = raw_read(s, s->buf + s->end, s->cap - s->end);
		if (got < 0)
			s->err = errno;
		if (got <= 0)
			return false;
		s->end += (size_t)got;
		if (!s->sniffed && s->end >= 2) {
			s->sniffed = true;
			if (s->buf[0] == 0x1f && s->buf[1] == 0x8b && s->off == 0)
				return start_gzip(s) && more(s);
		}
		return true;
	}
	for (;;) {
		if (s->z.avail_in == 0) {
			ssize_t got = raw_read(s, s->zin, SRC_ZIN);
			if (got < 0)
				s->err = errno;
			if (got < 0 || (got == 0 && !s->zmid))
				return false;
			if (got == 0) {
				s->zerr = "compressed data cut short";
				return false;
			}
			s->z.next_in = s->zin;
			s->z.avail_in = (uInt)got;
		}
		size_t room = s->cap - s->end;
		s->z.next_out = s->buf + s->end;
		s->z.avail_out = (uInt)(room > UINT32_MAX ? UINT32_MAX : room);
		int r = inflate(&s->z, Z_NO_FLUSH);
		size_t made = room - s->z.avail_out;
		s->end += made;
		s->zmid = true;
		if (r == Z_STREAM_END) {
			s->zmid = false;   /* another member may follow */
			inflateReset(&s->z);
		} else if (r != Z_OK && r != Z_BUF_ERROR) {
			s->zerr = s->z.msg ? s->z.msg : "corrupt compressed data";
			return false;
		}
		if (made)
			return true;
	}
}

/* cap_src_peek when fewer than n bytes are held: read some more */
const uint8_t *cap_src_fill(struct cap_src *s, size_t n, size_t *have)
{
	while (s->end - s->start < n) {
		if (s->err || s->zerr)
			break;
		if (s->start && s->cap - s->end < n - (s->end - s->start)) {
			memmove(s->buf, s->buf + s->start, s->end - s->start);
			s->end -= s->start;
			s->start = 0;
		}
		if (s->end == s->cap) {
			/* grown only when full of bytes actually read */
			size_t ncap = s->cap * 2;
			if (ncap > CAP_SRC_MAX)
				break;
			uint8_t *nb = realloc(s->buf, ncap);
			if (!nb) {
				s->err = ENOMEM;
				break;
			}
			s->buf = nb;
			s->cap = ncap;
		}
		if (!more(s))
			break;
	}
	*have = s->end - s->start;
	return *have >= n ? s->buf + s->start : NULL;
}

const char *cap_src_error(const struct cap_src *s)
{
	if (s->zerr)
		return s->zerr;
	return s->err ? strerror(s->err) : NULL;
}
