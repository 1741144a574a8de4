/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * target.h - the Upper Layer rpcrdma-conform's own calls speak (target.c):
 * ECHO (docs/echo-ulb.md) or NFSv3 (WRITE with a file handle that names
 * nothing, for the DDP-eligible argument).
 */
#ifndef RPCRDMA_CONFORM_TARGET_H
#define RPCRDMA_CONFORM_TARGET_H

#include <stddef.h>
#include <stdint.h>

enum cf_profile { CF_PROF_AUTO = 0, CF_PROF_ECHO, CF_PROF_NFS3 };

struct cf_target {
	enum cf_profile prof;
	uint32_t prog, vers;       /* of the probes (NULL calls) */
};

const char *cf_profile_name(enum cf_profile p);   /* "echo" "nfs" "auto" */
void cf_target_init(struct cf_target *t, enum cf_profile p);
/* A NULL call of the target's program (40 bytes); 0 when cap is short. */
size_t cf_target_null(const struct cf_target *t, uint32_t xid, uint8_t *buf, size_t cap);
/* A call whose last argument is `len` bytes of DDP-eligible data, written
 * inline (pattern cf_pattern(xid)); *data_off: where the data starts (after
 * its length word).  0 when cap is short or the target has no such call. */
size_t cf_target_data_call(const struct cf_target *t, uint32_t xid, uint32_t len,
			   uint8_t *buf, size_t cap, size_t *data_off);
/* RPC bytes of that call besides the data and its pad */
size_t cf_target_data_overhead(const struct cf_target *t);
/* ECHO CALLBACK {count, data}; 0 unless the target is ECHO */
size_t cf_target_callback(const struct cf_target *t, uint32_t xid, uint32_t count,
			  const uint8_t *data, uint32_t len, uint8_t *buf, size_t cap);
/* The data pattern of the calls above */
void cf_pattern(uint8_t *p, size_t len, uint32_t seed);

#endif
