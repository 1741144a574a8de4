/* sendasm.c - multi-packet RDMA Sends (IB SEND FIRST..LAST, iWARP DDP segments) put back together. */
#include "rpcrdma_plugin.h"
#include "reasm.h"

#include <string.h>

#define SEND_MAX (1024u * 1024u)   /* far above any inline threshold */

bool rpcrdma_send_append(struct rpcrdma_send_asm *s, tvbuff_t *tvb)
{
	unsigned n = tvb_captured_length(tvb);
	uint8_t *nb;

	if (n > SEND_MAX - s->len)
		return false;
	if (s->len + n > s->cap) {
		uint32_t cap = MAX(s->cap * 2, s->len + n);
		nb = wmem_alloc(wmem_file_scope(), cap);
		if (s->len)
			memcpy(nb, s->buf, s->len);
		s->buf = nb;
		s->cap = cap;
	}
	tvb_memcpy(tvb, s->buf + s->len, 0, n);
	s->len += n;
	return true;
}

tvbuff_t *rpcrdma_send_done(tvbuff_t *parent, packet_info *pinfo,
			    struct rpcrdma_send_asm *s)
{
	tvbuff_t *t;

	if (!PINFO_FD_VISITED(pinfo) && s)
		p_add_proto_data(wmem_file_scope(), pinfo, proto_rpcrdma,
				 rpcrdma_key(KEY_SEND, parent), s);
	else
		s = p_get_proto_data(wmem_file_scope(), pinfo, proto_rpcrdma,
				     rpcrdma_key(KEY_SEND, parent));
	if (!s || !s->len)
		return NULL;
	t = tvb_new_child_real_data(parent, s->buf, s->len, (int)s->len);
	add_new_data_source(pinfo, t, "Reassembled RDMA Send");
	return t;
}
