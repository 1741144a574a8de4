/* SPDX-License-Identifier: BSD-3-Clause */
/* msgprint_text.c - placeholder */
#include "msgprint_int.h"
void msgprint_tree(FILE *out, const struct rpcrdma_msg *m, const struct msg_ctx *c) { (void)out; (void)m; (void)c; }
void msgprint_line(FILE *out, const struct rpcrdma_msg *m, const struct msg_ctx *c) { (void)out; (void)m; (void)c; }
