/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fuzz_conform_nfs.c - libFuzzer target: the NFS reply readers of
 * rpcrdma-conform's NFS target (tools/conform/target_nfs.c), which read
 * what the server under test answers.  The first byte picks the reader;
 * the rest is the RPC message, in a buffer of exactly its length (ASan
 * sees a read past it).  What a reader takes must lie inside the message:
 * a file handle of at most 64 bytes, READ data that starts inside it; a
 * refusal says why in a string that ends inside its buffer.  The backward
 * call answerer (cf_nfs41_cb_reply) writes into a buffer of the size the
 * second byte picks and never past it.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "target.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void why_ends(const char *why, size_t cap)
{
	if (!memchr(why, 0, cap))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char why[160];
	uint8_t fh[128], sid[16], dsid[16];
	size_t fhlen = 0;
	uint64_t clientid;
	uint32_t seq, flags, deleg;
	struct cf_read3 rd;
	uint8_t *msg;
	size_t len;
	int rc = 0;

	if (size < 2)
		return 0;
	len = size - 2;
	msg = malloc(len ? len : 1);
	if (!msg)
		return 0;
	memcpy(msg, data + 2, len);
	why[0] = 0;
	switch (data[0] % 7) {
	case 0:
		rc = cf_nfs4_lookup_reply(msg, len, fh, &fhlen, why, sizeof(why));
		if (rc == 0 && fhlen > 64)
			abort();
		break;
	case 1:
		rc = cf_nfs3_read_reply(msg, len, &rd, why, sizeof(why));
		if (rc == 0 && (rd.data_off > len || rd.data_off + rd.rest != len))
			abort();
		break;
	case 2:
		rc = cf_nfs41_exchange_id_reply(msg, len, &clientid, &seq, why, sizeof(why));
		break;
	case 3:
		rc = cf_nfs41_create_session_reply(msg, len, sid, &flags, why, sizeof(why));
		break;
	case 4:
		rc = cf_nfs41_reclaim_complete_reply(msg, len, why, sizeof(why));
		break;
	case 5:
		rc = cf_nfs41_open_reply(msg, len, sid, &deleg, dsid, why, sizeof(why));
		break;
	case 6: {
		/* a reply buffer of 0 to 255 bytes, guarded on both sides */
		size_t cap = data[1];
		uint8_t *out = malloc(cap ? cap : 1);

		if (out) {
			size_t n = cf_nfs41_cb_reply(msg, len, out, cap);

			if (n > cap)
				abort();
			free(out);
		}
		break;
	}
	}
	if (rc < 0)
		why_ends(why, sizeof(why));
	else if (rc != 0)
		abort();
	free(msg);
	return 0;
}
