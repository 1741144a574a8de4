/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fuzz_echo_ulb.c - libFuzzer target: the ECHO program's parsers
 * (tools/ulb/echo_ulb.c) on any bytes, as a call both ways and as a reply
 * of each procedure; a decoded call re-encodes to the same length.
 */
#include <assert.h>
#include <stdint.h>
#include <stddef.h>
#include <stdlib.h>
#include "echo_ulb.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t out[64];
	const uint8_t *p;
	struct echo_args a;
	uint32_t n, count;
	size_t pos;
	int back, proc;

	for (back = 0; back < 2; back++) {
		if (echo_decode_call(data, size, back, &a) != ECHO_CALL_OK)
			continue;
		assert(a.data_off + a.len <= size);
		assert(a.proc != ECHO_PROC_CALLBACK || a.count <= ECHO_CALLBACK_COUNT_MAX);
		/* with AUTH_NONE, the message re-encodes to its own length */
		if (a.data_off == ECHO_CALL_HDR_LEN + 4 * (a.proc == ECHO_PROC_CALLBACK) + 4 ||
		    (a.proc == ECHO_PROC_NULL && size == ECHO_CALL_HDR_LEN)) {
			uint8_t *m = malloc(size ? size : 1);

			assert(m && echo_encode_call(m, size, a.proc, a.count, a.data,
						     a.len, NULL, NULL) == size);
			free(m);
		}
	}
	for (proc = 0; proc < 3; proc++)
		if (echo_decode_reply(data, size, (enum echo_proc)proc, NULL, &p, &n,
				      &count) == 0 && proc == ECHO_PROC_ECHO)
			assert(p + n <= data + size);
	pos = echo_reply_ddp_pos(data, size, NULL);
	assert(pos == (size_t)-1 || pos == size);
	(void)echo_encode_error(out, sizeof(out), 1, (enum echo_call_status)(size % 8));
	return 0;
}
