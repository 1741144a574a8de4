/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * capture_mode.c - rpcrdma-decode -r FILE... and -i IFACE: the command
 * line's options mapped onto the capture pipeline's own
 * (tools/capture/capture.h).
 */
#include <stdio.h>
#include "capture.h"
#include "decode.h"

/* stdout's buffer in capture mode (static: stdout is flushed at exit);
 * 256 KiB: a write(2) per 256 KiB costs nothing against the decoding,
 * and a larger buffer only adds to the peak RSS (1 MiB made it 36.1 MiB) */
static char out_buf[1u << 18];

int decode_capture_main(const struct decode_opts *o)
{
	const struct cap_opts co = {
		.json = o->json, .verbose = o->verbose, .stats = o->stats,
		.check = o->check, .check_inline = o->check_inline,
		.quiet = o->quiet, .count = o->count,
		.write_path = o->write_path, .plot_path = o->plot_path,
		.time_format = o->time_format,
		.roce_port = o->roce_port,
		.inline_threshold = o->inline_threshold,
		.no_crc_check = o->no_crc_check,
		.mpa_crc = o->mpa_crc, .mpa_markers = o->mpa_markers,
		.name_files = o->nfiles > 1,
		.xids = o->xids, .nxids = o->nxids,
		.convs = o->convs, .nconvs = o->nconvs,
		.have_vers = o->have_vers, .vers = o->vers,
		.progs = o->progs, .nprogs = o->nprogs,
		.procs = o->procs, .nprocs = o->nprocs,
		.proc_names = o->proc_names, .nproc_names = o->nproc_names,
		.filter = o->filter, .buffer_kib = o->buffer_kib,
	};

	if (o->redact) {
		struct cap_redact_opts ro = { .roce_port = o->roce_port,
					      .have_key = o->have_redact_key,
					      .keys = o->redact_keys,
					      .addresses = o->redact_addresses };
		for (int i = 0; i < 16; i++)
			ro.key[i] = o->redact_key[i];
		return cap_redact(&ro, o->files[0], o->write_path);
	}
	if (o->buffer_kib && !o->iface) {
		fprintf(stderr, "rpcrdma-decode: -B applies to a live capture (-i)\n");
		return 2;
	}
	if (o->iface) {
		/* live: block-buffered, flushed whenever the kernel's ring is
		 * empty (cap_live.c): each message out as soon as the burst
		 * it came in is decoded, and no write(2) per line to starve
		 * the capture */
		setvbuf(stdout, out_buf, _IOFBF, 1u << 16);
		return cap_run_live(&co, o->iface);
	}
	/* one large buffer for the whole run, set before any output: given
	 * here, since glibc's setvbuf() ignores the size when the buffer is
	 * NULL and allocates st_blksize (4 KiB on /dev/null and pipes): a
	 * write(2) per 4 KiB was 10% of a --json run */
	setvbuf(stdout, out_buf, _IOFBF, sizeof(out_buf));
	return cap_run(&co, o->files, o->nfiles);
}
