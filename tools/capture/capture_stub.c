/* SPDX-License-Identifier: BSD-3-Clause */
/* capture_stub.c - placeholder until the capture pipeline lands; delete it
 * when tools/capture provides decode_capture_main(). */
#include <stdio.h>
#include "decode.h"

int decode_capture_main(const struct decode_opts *o)
{
	(void)o;
	fprintf(stderr, "rpcrdma-decode: reading captures is not built yet\n");
	return DECODE_EXIT_USAGE;
}
