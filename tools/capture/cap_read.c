/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cap_read.c - reading one capture through libpcap: pcap and pcapng files
 * and standard input ("-"), pcap_next_ex() frame by frame, link type
 * dispatch to cap_link.c, and the "truncated at frame N (byte offset X)"
 * report for a capture file cut short (pcap_next_ex(3PCAP)).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio_ext.h>
#include <pcap/pcap.h>
#include <string.h>
#include <unistd.h>
#include "cap_state.h"

static void progress(struct cap_state *st, uint64_t n)
{
	fflush(st->out);
	fprintf(stderr, "\r\033[Krpcrdma-decode: %s: %llu frames", st->file,
		(unsigned long long)n);
	st->progress_shown = true;
}

int cap_read_file(struct cap_state *st, const char *path)
{
	char err[PCAP_ERRBUF_SIZE];
	pcap_t *pc;

	/* our own FILE, with a large buffer: fewer read(2) calls */
	err[0] = '\0';
	FILE *in = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	if (!in) {
		fprintf(stderr, "rpcrdma-decode: %s: %s\n", st->file, strerror(errno));
		return DECODE_EXIT_FAULT;
	}
	setvbuf(in, NULL, _IOFBF, 1u << 20);
	__fsetlocking(in, FSETLOCKING_BYCALLER);    /* one thread reads it */
	posix_fadvise(fileno(in), 0, 0, POSIX_FADV_SEQUENTIAL);
	pc = pcap_fopen_offline(in, err);
	if (!pc) {
		fprintf(stderr, "rpcrdma-decode: %s: %s\n", st->file, err);
		if (in != stdin)
			fclose(in);
		return DECODE_EXIT_FAULT;
	}
	int dlt = pcap_datalink(pc);
	if (!cap_link_supported(dlt)) {
		const char *n = pcap_datalink_val_to_name(dlt);
		fprintf(stderr, "rpcrdma-decode: %s: unsupported link type %d (%s); "
			"supported: %s\n", st->file, dlt, n ? n : "unknown",
			cap_link_names);
		pcap_close(pc);
		return DECODE_EXIT_FAULT;
	}

	/* Byte offsets: exact for pcap (24-byte file header, 16 per record);
	 * for pcapng the stream position libpcap reached. */
	FILE *fp = pcap_file(pc);
	bool classic = pcap_major_version(pc) == 2;
	uint64_t off = 24;
	if (!classic && fp) {
		long start = ftell(fp);
		if (start > 0)
			off = (uint64_t)start;
	}
	uint64_t local = 0;
	int rc = DECODE_EXIT_OK;

	for (;;) {
		struct pcap_pkthdr *h;
		const u_char *data;
		int r = pcap_next_ex(pc, &h, &data);

		if (r == PCAP_ERROR_BREAK)
			break;
		if (r != 1) {
			fflush(st->out);
			cap_progress_clear(st);
			fprintf(stderr, "rpcrdma-decode: %s: truncated at frame %llu "
				"(byte offset %llu)\n", st->file,
				(unsigned long long)(local + 1),
				(unsigned long long)off);
			/* a corrupt record rather than a short file: say why */
			const char *why = pcap_geterr(pc);
			if (why && *why && strncmp(why, "truncated", 9))
				fprintf(stderr, "rpcrdma-decode: %s: frame %llu: %s\n",
					st->file, (unsigned long long)(local + 1), why);
			st->stats.frames_truncated++;
			rc = DECODE_EXIT_FAULT;
			break;
		}
		local++;
		st->frame_no = local;
		struct cap_frame f = {
			.num = local,
			.ts_sec = h->ts.tv_sec,
			.ts_usec = (uint32_t)h->ts.tv_usec,
			.p = data,
			.len = h->caplen,
			/* a corrupt record may claim less than it holds */
			.wire_len = h->len > h->caplen ? h->len : h->caplen,
		};
		st->stats.frames++;
		(void)cap_link_frame(st, dlt, &f);
		if (classic) {
			off += 16u + h->caplen;
		} else if (fp) {
			long pos = ftell(fp);
			if (pos > 0)
				off = (uint64_t)pos;
		}
		if (st->progress && (local & 0x3ffff) == 0)
			progress(st, local);
	}
	cap_progress_clear(st);
	pcap_close(pc);
	return rc;
}
