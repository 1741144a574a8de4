/* SPDX-License-Identifier: BSD-3-Clause */
/* cap_tcp.c - TCP stream reassembly for iWARP (placeholder) */
#include "cap_state.h"
enum cap_res cap_tcp_segment(struct cap_state *st, const struct cap_frame *f,
			     const struct cap_addr *a, const uint8_t *tcp,
			     uint32_t len)
{
	(void)st; (void)f; (void)a; (void)tcp; (void)len;
	return CAP_NOT_OURS;
}
