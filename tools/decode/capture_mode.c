/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * capture_mode.c - rpcrdma-decode -r FILE...: the command line's options
 * mapped onto the capture pipeline's own (tools/capture/capture.h).
 */
#include <stdio.h>
#include "capture.h"
#include "decode.h"

int decode_capture_main(const struct decode_opts *o)
{
	const struct cap_opts co = {
		.json = o->json, .verbose = o->verbose, .stats = o->stats,
		.check = o->check, .quiet = o->quiet,
		.roce_port = o->roce_port,
		.inline_threshold = o->inline_threshold,
		.name_files = o->nfiles > 1,
		.have_xid = o->have_xid, .xid = o->xid,
		.have_conv = o->have_conv, .conv = o->conv,
		.have_vers = o->have_vers, .vers = o->vers,
		.have_prog = o->have_prog, .prog = o->prog,
		.have_proc = o->have_proc, .proc = o->proc,
	};

	/* one large buffer for the whole run, set before any output */
	setvbuf(stdout, NULL, _IOFBF, 1u << 20);
	return cap_run(&co, o->files, o->nfiles);
}
