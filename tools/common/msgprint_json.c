/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * msgprint_json.c - one decoded transport message as one JSON object (the
 * contract in man/rpcrdma-decode.1, OUTPUT FORMAT): the rpcrdma_prefix and
 * body in spec terms (V1 §5.1.3, V2 §4.2), the RPC header, the verdict
 * (docs/verdicts.md) and the error reply it calls for (V1 §5.5).
 */
#include "json.h"
#include "msgprint_int.h"
#include "rpcrdma/rpc.h"

static void seg_fields(struct json *j, const struct rpcrdma_segment *s)
{
	json_khex(j, "handle", s->rdma_handle, 8);
	json_ku64(j, "length", s->rdma_length);
	json_khex(j, "offset", s->rdma_offset, 16);
}

static void write_chunk(struct json *j, struct rpcrdma_seg_iter *si)
{
	struct rpcrdma_segment s;

	json_arr_begin(j);
	while (rpcrdma_seg_next(si, &s)) {
		json_obj_begin(j);
		seg_fields(j, &s);
		json_obj_end(j);
	}
	json_arr_end(j);
}

/* reads, writes, reply: each list as far as it was decoded */
static void chunk_lists(struct json *j, const struct rpcrdma_msg *m)
{
	struct rpcrdma_read_segment rs;
	struct rpcrdma_read_iter ri;
	struct rpcrdma_chunk_iter ci;
	struct rpcrdma_seg_iter si;

	if (m->reads_off) {
		json_key(j, "reads");
		json_arr_begin(j);
		rpcrdma_read_iter_init(m, &ri);
		while (rpcrdma_read_next(&ri, &rs)) {
			json_obj_begin(j);
			json_ku64(j, "position", rs.rdma_position);
			seg_fields(j, &rs.rdma_target);
			json_obj_end(j);
		}
		json_arr_end(j);
	}
	if (m->writes_off) {
		json_key(j, "writes");
		json_arr_begin(j);
		rpcrdma_write_iter_init(m, &ci);
		while (rpcrdma_write_next(&ci, &si))
			write_chunk(j, &si);
		json_arr_end(j);
	}
	if (m->reply_off) {
		json_key(j, "reply");
		if (rpcrdma_reply_chunk(m, &si))
			write_chunk(j, &si);
		else
			json_null(j);
	}
}

static void error_body(struct json *j, const struct rpcrdma_msg *m)
{
	json_key(j, "error");
	json_obj_begin(j);
	json_ku64(j, "code", m->rdma_err);
	json_kstr(j, "name", rpcrdma_err_name(m->rdma_vers, m->rdma_err));
	json_key(j, "low");
	if (mp_has_vers_low(m))
		json_u64(j, m->rdma_vers_low);
	else
		json_null(j);
	json_key(j, "high");
	if (mp_has_vers_high(m))
		json_u64(j, m->rdma_vers_high);
	else
		json_null(j);
	json_obj_end(j);
}

static void optional_body(struct json *j, const struct rpcrdma_msg *m)
{
	json_key(j, "optional");
	json_obj_begin(j);
	json_kstr(j, "direction", rpcrdma_direction_name((int)m->rdma_optdir));
	if (m->len >= 24)
		json_ku64(j, "type", m->rdma_opttype);
	if (m->len >= 28)
		json_ku64(j, "info_length", m->optinfo_len);
	json_obj_end(j);
}

static void rpc_object(struct json *j, const struct rpcrdma_msg *m,
		       const struct msg_ctx *c)
{
	struct rpc_view v;

	msgprint_rpc_view(m, c, &v);
	json_key(j, "rpc");
	if (!v.present) {
		json_null(j);
		return;
	}
	json_obj_begin(j);
	json_khex(j, "xid", v.xid, 8);
	json_key(j, "msg_type");
	if (v.has_msg_type)
		json_u64(j, v.msg_type);
	else
		json_null(j);
	if (v.has_call_info) {
		json_ku64(j, "prog", v.prog);
		json_ku64(j, "vers", v.vers);
		json_ku64(j, "proc", v.proc);
		json_kstr(j, "proc_name", rpc_proc_name(v.prog, v.vers, v.proc));
	} else {
		json_knull(j, "prog");
		json_knull(j, "vers");
		json_knull(j, "proc");
		json_knull(j, "proc_name");
	}
	if (v.has_ops) {
		json_key(j, "ops");
		json_arr_begin(j);
		for (uint32_t i = 0; i < v.ops.n; i++)
			json_str(j, nfs4_op_name(v.ops.ops[i], v.cb));
		json_arr_end(j);
		if (v.ops.more)
			json_kbool(j, "ops_more", true);
	}
	if (v.has_call_frame)
		json_ku64(j, "call_frame", v.call_frame);
	if (c && c->have_latency && v.from_call)
		json_ku64(j, "latency_us", c->latency_us);
	json_obj_end(j);
}

static void verdict(struct json *j, const struct rpcrdma_msg *m)
{
	unsigned bit;

	json_key(j, "verdict");
	json_obj_begin(j);
	json_kstr(j, "action", rpcrdma_action_name(m->action));
	json_kstr(j, "reason", rpcrdma_reason_name(m->reason));
	if (m->reason != RPCRDMA_R_OK)
		json_ku64(j, "offset", m->fault_off);
	json_kstr(j, "text", rpcrdma_reason_text(m->reason));
	json_kstr(j, "section", rpcrdma_reason_section(m->reason));
	json_obj_end(j);

	json_key(j, "notes");
	json_arr_begin(j);
	for (bit = 0; bit < RPCRDMA_NOTE_COUNT_; bit++)
		if (m->notes & (1u << bit))
			json_str(j, rpcrdma_note_name(1u << bit));
	json_arr_end(j);
}

static void endpoint(struct json *j, const char *key, const char *port,
		     const char *qp, const struct msg_endpoint *e,
		     const char *text)
{
	json_kstr(j, key, e->addr ? e->addr : text);
	if (e->have_port)
		json_ku64(j, port, e->port);
	if (e->have_qp)
		json_khex(j, qp, e->qp, 1);
}

static void capture_keys(struct json *j, const struct msg_ctx *c)
{
	if (c->file)
		json_kstr(j, "file", c->file);
	json_ku64(j, "frame", c->frame);
	json_key(j, "time");
	json_time(j, c->ts_sec, c->ts_usec);
	endpoint(j, "src", "src_port", "src_qp", &c->src_ep, c->src);
	endpoint(j, "dst", "dst_port", "dst_qp", &c->dst_ep, c->dst);
	json_kstr(j, "transport", c->transport);
	json_ku64(j, "conversation", c->conversation);
	json_kbool(j, "backward", c->backward);
	if (c->nframes > 1) {
		json_ku64(j, "first_frame", c->first_frame);
		json_ku64(j, "frames", c->nframes);
	}
}

/* chunk data moved by RDMA, as -V shows it */
static void chunk_data(struct json *j, const struct msg_ctx *c)
{
	static const char *const name[3] = { "read", "write", "reply" };
	const struct msg_chunk_data *d[3] = { &c->read_data, &c->write_data,
					      &c->reply_data };

	if (!d[0]->bytes && !d[1]->bytes && !d[2]->bytes)
		return;
	json_key(j, "chunk_data");
	json_obj_begin(j);
	for (unsigned i = 0; i < 3; i++) {
		if (!d[i]->bytes)
			continue;
		json_key(j, name[i]);
		json_obj_begin(j);
		json_ku64(j, "bytes", d[i]->bytes);
		json_ku64(j, "first_frame", d[i]->first);
		json_ku64(j, "last_frame", d[i]->last);
		json_obj_end(j);
	}
	json_obj_end(j);
}

static void findings(struct json *j, const struct msg_ctx *c)
{
	json_key(j, "violations");
	json_arr_begin(j);
	for (unsigned i = 0; i < c->nfindings; i++) {
		json_obj_begin(j);
		json_ku64(j, "frame", c->findings[i].frame);
		json_kstr(j, "check", c->findings[i].check);
		json_kstr(j, "text", c->findings[i].text);
		json_kstr(j, "section", c->findings[i].section);
		json_obj_end(j);
	}
	json_arr_end(j);
}

void msgprint_json(FILE *out, const struct rpcrdma_msg *m,
		   const struct msg_ctx *c)
{
	static const char *const fixed[4] = { "xid", "vers", "credits", "proc" };
	const uint32_t words[4] = { m->rdma_xid, m->rdma_vers, m->rdma_credit,
				    m->rdma_proc };
	uint8_t reply[64];
	struct obuf o;
	struct json j;
	size_t n;
	unsigned i;

	ob_init(&o, out);
	json_init(&j, &o);
	json_obj_begin(&j);
	json_kbool(&j, "valid", m->action == RPCRDMA_ACCEPT);
	if (c && c->in_capture)
		capture_keys(&j, c);
	if (m->nfixed >= 1)
		json_khex(&j, "xid", m->rdma_xid, 8);
	for (i = 1; i < 4 && i < m->nfixed; i++)
		json_ku64(&j, fixed[i], words[i]);
	if (m->nfixed == 4)
		json_kstr(&j, "proc_name",
			  rpcrdma_proc_name(m->rdma_vers, m->rdma_proc));
	json_kstr(&j, "direction", rpcrdma_direction_name(m->direction));
	json_kbool(&j, "direction_inferred", m->direction_inferred);
	if (mp_is_chunked(m))
		chunk_lists(&j, m);
	if (mp_is_error(m))
		error_body(&j, m);
	if (mp_is_optional(m))
		optional_body(&j, m);
	if (m->header_len) {
		json_ku64(&j, "header_length", m->header_len);
		json_ku64(&j, "payload_length", m->payload_len);
	}
	rpc_object(&j, m, c);
	if (c && c->in_capture && c->rpc_source)
		json_kstr(&j, "rpc_source", c->rpc_source);
	if (c && c->in_capture)
		chunk_data(&j, c);
	verdict(&j, m);
	n = msgprint_error_reply(m, reply);
	if (n) {
		json_key(&j, "error_reply");
		json_hexstr(&j, reply, n);
	}
	if (c && c->findings)
		findings(&j, c);
	json_obj_end(&j);
	ob_putc(&o, '\n');
	ob_flush(&o);
}
