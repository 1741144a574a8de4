/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * msgprint_json.c - one decoded transport message as one JSON object (the
 * contract in man/rpcrdma-decode.1, OUTPUT FORMAT): the rpcrdma_prefix and
 * body in spec terms (V1 §5.1.3, V2 §4.2), the RPC header, the verdict
 * (docs/verdicts.md) and the error reply it calls for (V1 §5.5).
 */
#include <string.h>
#include "json.h"
#include "msgprint_int.h"
#include "msgprint_memo.h"
#include "rpcrdma/rpc.h"

/* a few stretches of each kind are remembered (calls and replies, both
 * ways of a few conversations), chosen by a hash of the key */
#define MEMO_SLOTS 32
static struct json_memo *memo_slot(struct json_memo *tab,
				   const struct memo_key *k)
{
	return &tab[(k->h >> 40) % MEMO_SLOTS];
}

/* true: written from the memo; else *mark is set for memo_put().  Inline:
 * it runs four times per message */
JSON_INLINE bool memo_get(struct json *j, struct json_memo *tab,
		     const struct memo_key *k, struct json_memo_mark *mark,
		     struct json_memo **slot)
{
	if (k->ok) {
		*slot = memo_slot(tab, k);
		if (json_memo_get(j, *slot, k->b, k->n))
			return true;
	}
	json_memo_start(j, mark);
	return false;
}

static void memo_put(struct json *j, struct json_memo *slot,
		     const struct memo_key *k, const struct json_memo_mark *mark)
{
	if (k->ok)
		json_memo_put(j, slot, mark, k->b, k->n);
}

static void seg_fields(struct json *j, const struct rpcrdma_segment *s)
{
	JSON_KHEX(j, "handle", s->rdma_handle, 8);
	JSON_KU64(j, "length", s->rdma_length);
	JSON_KHEX(j, "offset", s->rdma_offset, 16);
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
		JSON_KEY(j, "reads");
		json_arr_begin(j);
		rpcrdma_read_iter_init(m, &ri);
		while (rpcrdma_read_next(&ri, &rs)) {
			json_obj_begin(j);
			JSON_KU64(j, "position", rs.rdma_position);
			seg_fields(j, &rs.rdma_target);
			json_obj_end(j);
		}
		json_arr_end(j);
	}
	if (m->writes_off) {
		JSON_KEY(j, "writes");
		json_arr_begin(j);
		rpcrdma_write_iter_init(m, &ci);
		while (rpcrdma_write_next(&ci, &si))
			write_chunk(j, &si);
		json_arr_end(j);
	}
	if (m->reply_off) {
		JSON_KEY(j, "reply");
		if (rpcrdma_reply_chunk(m, &si))
			write_chunk(j, &si);
		else
			json_null(j);
	}
}

static void error_body(struct json *j, const struct rpcrdma_msg *m)
{
	JSON_KEY(j, "error");
	json_obj_begin(j);
	JSON_KU64(j, "code", m->rdma_err);
	JSON_KLIT(j, "name", rpcrdma_err_name(m->rdma_vers, m->rdma_err));
	JSON_KEY(j, "low");
	if (mp_has_vers_low(m))
		json_u64(j, m->rdma_vers_low);
	else
		json_null(j);
	JSON_KEY(j, "high");
	if (mp_has_vers_high(m))
		json_u64(j, m->rdma_vers_high);
	else
		json_null(j);
	json_obj_end(j);
}

static void optional_body(struct json *j, const struct rpcrdma_msg *m)
{
	JSON_KEY(j, "optional");
	json_obj_begin(j);
	JSON_KLIT(j, "direction", rpcrdma_direction_name((int)m->rdma_optdir));
	if (m->len >= 24)
		JSON_KU64(j, "type", m->rdma_opttype);
	if (m->len >= 28)
		JSON_KU64(j, "info_length", m->optinfo_len);
	json_obj_end(j);
}

static void rpc_call_keys(struct json *j, const struct rpc_view *v);

static void rpc_object(struct json *j, const struct rpcrdma_msg *m,
		       const struct msg_ctx *c)
{
	struct rpc_view v;

	msgprint_rpc_view(m, c, &v);
	JSON_KEY(j, "rpc");
	if (!v.present) {
		json_null(j);
		return;
	}
	json_obj_begin(j);
	JSON_KHEX(j, "xid", v.xid, 8);
	rpc_call_keys(j, &v);
	if (v.has_call_frame)
		JSON_KU64(j, "call_frame", v.call_frame);
	if (c && c->have_latency && v.from_call)
		JSON_KU64(j, "latency_us", c->latency_us);
	json_obj_end(j);
}

/* msg_type, prog, vers, proc, proc_name, ops: the same for every call of
 * a kind */
static void rpc_call_keys(struct json *j, const struct rpc_view *v)
{
	static struct json_memo memo[MEMO_SLOTS];
	struct json_memo *slot = NULL;
	struct json_memo_mark mark;
	struct memo_key k;

	mk_init(&k);
	mk_u64(&k, (uint64_t)v->has_msg_type << 32 | v->msg_type);
	mk_u64(&k, (uint64_t)v->has_call_info << 32 | v->prog);
	mk_u64(&k, (uint64_t)v->vers << 32 | v->proc);
	mk_u64(&k, (uint64_t)v->has_ops << 1 | v->cb);
	if (v->has_ops) {
		mk_u64(&k, (uint64_t)v->ops->more << 32 | v->ops->n);
		for (uint32_t i = 0; i < v->ops->n && k.ok; i++)
			mk_u64(&k, v->ops->ops[i]);
	}
	if (memo_get(j, memo, &k, &mark, &slot))
		return;
	JSON_KEY(j, "msg_type");
	if (v->has_msg_type)
		json_u64(j, v->msg_type);
	else
		json_null(j);
	if (v->has_call_info) {
		JSON_KU64(j, "prog", v->prog);
		JSON_KU64(j, "vers", v->vers);
		JSON_KU64(j, "proc", v->proc);
		JSON_KLIT(j, "proc_name",
			  rpc_proc_name(v->prog, v->vers, v->proc));
	} else {
		JSON_KNULL(j, "prog");
		JSON_KNULL(j, "vers");
		JSON_KNULL(j, "proc");
		JSON_KNULL(j, "proc_name");
	}
	if (v->has_ops) {
		JSON_KEY(j, "ops");
		json_arr_begin(j);
		for (uint32_t i = 0; i < v->ops->n; i++)
			json_lit(j, nfs4_op_name(v->ops->ops[i], v->cb));
		json_arr_end(j);
		if (v->ops->more)
			JSON_KBOOL(j, "ops_more", true);
	}
	memo_put(j, slot, &k, &mark);
}

static void verdict(struct json *j, const struct rpcrdma_msg *m)
{
	static struct json_memo memo[MEMO_SLOTS];
	struct json_memo *slot = NULL;
	struct json_memo_mark mark;
	struct memo_key k;
	unsigned bit;

	mk_init(&k);
	mk_u64(&k, (uint64_t)m->action << 32 | (uint32_t)m->reason);
	mk_u64(&k, m->reason != RPCRDMA_R_OK ? m->fault_off : 0);
	mk_u64(&k, m->notes);
	if (memo_get(j, memo, &k, &mark, &slot))
		return;
	JSON_KEY(j, "verdict");
	json_obj_begin(j);
	JSON_KLIT(j, "action", rpcrdma_action_name(m->action));
	JSON_KLIT(j, "reason", rpcrdma_reason_name(m->reason));
	if (m->reason != RPCRDMA_R_OK)
		JSON_KU64(j, "offset", m->fault_off);
	JSON_KLIT(j, "text", rpcrdma_reason_text(m->reason));
	JSON_KLIT(j, "section", rpcrdma_reason_section(m->reason));
	json_obj_end(j);

	JSON_KEY(j, "notes");
	json_arr_begin(j);
	for (bit = 0; bit < RPCRDMA_NOTE_COUNT_; bit++)
		if (m->notes & (1u << bit))
			json_lit(j, rpcrdma_note_name(1u << bit));
	json_arr_end(j);
	memo_put(j, slot, &k, &mark);
}

/* "src", "src_port", "src_qp" (or "dst" ...): literal keys */
#define ENDPOINT(j, key, e, text) do {					\
	JSON_KSTR(j, key, (e)->addr ? (e)->addr : (text));		\
	if ((e)->have_port)						\
		JSON_KU64(j, key "_port", (e)->port);			\
	if ((e)->have_qp)						\
		JSON_KHEX(j, key "_qp", (e)->qp, 1);			\
} while (0)

static void mk_endpoint(struct memo_key *k, const struct msg_endpoint *e,
			const char *text)
{
	mk_str(k, e->addr ? e->addr : text);
	mk_u64(k, (uint64_t)e->have_port << 56 | (uint64_t)e->have_qp << 48 |
		  (uint64_t)e->port << 32 | e->qp);
}

/* src ... backward: the same for every message of a conversation's way */
static void endpoint_keys(struct json *j, const struct msg_ctx *c)
{
	static struct json_memo memo[MEMO_SLOTS];
	struct json_memo *slot = NULL;
	struct json_memo_mark mark;
	struct memo_key k;

	mk_init(&k);
	mk_endpoint(&k, &c->src_ep, c->src);
	mk_endpoint(&k, &c->dst_ep, c->dst);
	mk_str(&k, c->transport);
	mk_u64(&k, (uint64_t)c->backward << 32 | c->conversation);
	if (memo_get(j, memo, &k, &mark, &slot))
		return;
	ENDPOINT(j, "src", &c->src_ep, c->src);
	ENDPOINT(j, "dst", &c->dst_ep, c->dst);
	JSON_KSTR(j, "transport", c->transport);
	JSON_KU64(j, "conversation", c->conversation);
	JSON_KBOOL(j, "backward", c->backward);
	memo_put(j, slot, &k, &mark);
}

static void capture_keys(struct json *j, const struct msg_ctx *c)
{
	/* the file name: written as it is (short and plain, it costs less
	 * than a memo's key of its bytes) */
	if (c->file)
		JSON_KSTR(j, "file", c->file);
	JSON_KU64(j, "frame", c->frame);
	JSON_KTIME(j, "time", c->ts_sec, c->ts_usec);
	endpoint_keys(j, c);
	if (c->nframes > 1) {
		JSON_KU64(j, "first_frame", c->first_frame);
		JSON_KU64(j, "frames", c->nframes);
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
	JSON_KEY(j, "chunk_data");
	json_obj_begin(j);
	for (unsigned i = 0; i < 3; i++) {
		if (!d[i]->bytes)
			continue;
		json_key(j, name[i]);
		json_obj_begin(j);
		JSON_KU64(j, "bytes", d[i]->bytes);
		JSON_KU64(j, "first_frame", d[i]->first);
		JSON_KU64(j, "last_frame", d[i]->last);
		json_obj_end(j);
	}
	json_obj_end(j);
}

static void findings(struct json *j, const struct msg_ctx *c)
{
	JSON_KEY(j, "violations");
	json_arr_begin(j);
	for (unsigned i = 0; i < c->nfindings; i++) {
		json_obj_begin(j);
		JSON_KU64(j, "frame", c->findings[i].frame);
		JSON_KSTR(j, "check", c->findings[i].check);
		JSON_KSTR(j, "text", c->findings[i].text);
		JSON_KSTR(j, "section", c->findings[i].section);
		json_obj_end(j);
	}
	json_arr_end(j);
}

/* vers ... payload_length: a memo for the message without chunks.  A key
 * added here must add what it prints to k (else a memo would repeat it). */
static void header(struct json *j, const struct rpcrdma_msg *m)
{
	static struct json_memo memo[MEMO_SLOTS];
	struct json_memo *slot = NULL;
	struct json_memo_mark mark;
	struct memo_key k;
	bool chunked = mp_is_chunked(m), err = mp_is_error(m),
	     opt = mp_is_optional(m);
	/* "draft": the Version Two revision family the message was read as
	 * (docs/v2-drafts.md): "cel-01", or a later one it fits (not
	 * decoded); 0 (no key) for other versions.  In the memo's key. */
	unsigned fam = rpcrdma_v2_draft_family(m);

	mk_init(&k);
	k.ok = !err && !opt && !m->nreads && !m->nwrites && !m->has_reply;
	mk_u64(&k, (uint64_t)m->nfixed << 32 | m->rdma_vers);
	mk_u64(&k, (uint64_t)m->rdma_credit << 32 | m->rdma_proc);
	mk_u64(&k, (uint64_t)(uint32_t)m->direction << 32 |
		   (uint64_t)m->direction_inferred << 3 |
		   (uint64_t)(m->reads_off != 0) << 2 |
		   (uint64_t)(m->writes_off != 0) << 1 | (m->reply_off != 0));
	mk_u64(&k, (uint64_t)chunked << 63 | (uint64_t)m->header_len << 32 |
		   (uint32_t)m->payload_len);
	mk_u64(&k, m->payload_len);
	mk_u64(&k, fam);
	if (memo_get(j, memo, &k, &mark, &slot))
		return;
	if (m->nfixed >= 2)
		JSON_KU64(j, "vers", m->rdma_vers);
	if (fam)
		JSON_KLIT(j, "draft", rpcrdma_v2_family_name(fam));
	if (m->nfixed >= 3)
		JSON_KU64(j, "credits", m->rdma_credit);
	if (m->nfixed >= 4)
		JSON_KU64(j, "proc", m->rdma_proc);
	if (m->nfixed == 4)
		JSON_KLIT(j, "proc_name",
			  rpcrdma_proc_name(m->rdma_vers, m->rdma_proc));
	JSON_KLIT(j, "direction", rpcrdma_direction_name(m->direction));
	JSON_KBOOL(j, "direction_inferred", m->direction_inferred);
	if (chunked)
		chunk_lists(j, m);
	if (err)
		error_body(j, m);
	if (opt)
		optional_body(j, m);
	if (m->header_len) {
		JSON_KU64(j, "header_length", m->header_len);
		JSON_KU64(j, "payload_length", m->payload_len);
	}
	memo_put(j, slot, &k, &mark);
}

void msgprint_json(FILE *out, const struct rpcrdma_msg *m,
		   const struct msg_ctx *c)
{
	uint8_t reply[64];
	struct obuf o;
	struct json j;
	size_t n;

	ob_init(&o, out);
	json_init(&j, &o);
	json_obj_begin(&j);
	JSON_KBOOL(&j, "valid", m->action == RPCRDMA_ACCEPT);
	if (c && c->in_capture)
		capture_keys(&j, c);
	if (m->nfixed >= 1)
		JSON_KHEX(&j, "xid", m->rdma_xid, 8);
	header(&j, m);
	rpc_object(&j, m, c);
	if (c && c->in_capture && c->rpc_source)
		JSON_KSTR(&j, "rpc_source", c->rpc_source);
	if (c && c->in_capture)
		chunk_data(&j, c);
	verdict(&j, m);
	n = msgprint_error_reply(m, reply);
	if (n) {
		JSON_KEY(&j, "error_reply");
		json_hexstr(&j, reply, n);
	}
	if (c && c->findings)
		findings(&j, c);
	json_obj_end(&j);
	ob_putc(&o, '\n');
	ob_flush(&o);
}
