/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_vectors.c - every hand-written vector in tests/vectors/vectors.txt
 * through rpcrdma_decode() (from a guard-page buffer), every key checked;
 * then every proper prefix of each accepted vector must be rejected
 * without reading past its end, and accepted vectors must round-trip
 * through rpcrdma_encode().
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rpcrdma/codec.h"
#include "rpcrdma/rpc.h"
#include "tap.h"
#include "vectors.h"

struct check {
	char why[512];
	size_t n;
};

static void mismatch(struct check *c, const char *key, const char *want,
		     const char *got)
{
	c->n += (size_t)snprintf(c->why + c->n, c->n < sizeof(c->why) ? sizeof(c->why) - c->n : 0,
				 " %s: want '%s' got '%s';", key, want, got);
	if (c->n >= sizeof(c->why))
		c->n = sizeof(c->why) - 1;
}

static void check_str(struct check *c, const struct vector *v, const char *key,
		      const char *got)
{
	const char *want = vec_get(v, key);

	if (want && strcmp(want, got ? got : "null"))
		mismatch(c, key, want, got ? got : "null");
}

static void check_num(struct check *c, const struct vector *v, const char *key,
		      bool have, unsigned long long got)
{
	const char *want = vec_get(v, key);
	unsigned long long w;
	char buf[32];

	if (!want)
		return;
	snprintf(buf, sizeof(buf), have ? "%llu" : "absent", got);
	if (!strcmp(want, "null") || !strcmp(want, "absent")) {
		if (have)
			mismatch(c, key, want, buf);
		return;
	}
	if (vec_num(want, &w) || !have || w != got)
		mismatch(c, key, want, buf);
}

/* "H:L:O" */
static void fmt_seg(char *out, size_t cap, const struct rpcrdma_segment *s)
{
	snprintf(out, cap, "%u:%u:%llu", s->rdma_handle, s->rdma_length,
		 (unsigned long long)s->rdma_offset);
}

/* Normalise an expected list (numbers in any base) to decimal H:L:O text */
static void norm_list(const char *in, char *out, size_t cap)
{
	size_t n = 0;

	out[0] = '\0';
	while (*in && n + 24 < cap) {
		if (*in == '0' || (*in >= '1' && *in <= '9')) {
			char *end;
			unsigned long long v = strtoull(in, &end, 0);

			n += (size_t)snprintf(out + n, cap - n, "%llu", v);
			in = end;
		} else if (*in == ' ' && (in[1] == '|' || (n && out[n - 1] == '|'))) {
			in++;           /* " | " -> "|" */
		} else {
			out[n++] = *in++;
			out[n] = '\0';
		}
	}
}

static void render_lists(const struct rpcrdma_msg *m, char *reads, char *writes,
			 char *reply, size_t cap)
{
	struct rpcrdma_read_iter ri;
	struct rpcrdma_read_segment rs;
	struct rpcrdma_chunk_iter ci;
	struct rpcrdma_seg_iter si;
	struct rpcrdma_segment s;
	char seg[64];
	bool first_chunk = true;

	strcpy(reads, m->nreads ? "" : "-");
	rpcrdma_read_iter_init(m, &ri);
	while (rpcrdma_read_next(&ri, &rs)) {
		fmt_seg(seg, sizeof(seg), &rs.rdma_target);
		snprintf(reads + strlen(reads), cap - strlen(reads), "%s%u:%s",
			 *reads ? " " : "", rs.rdma_position, seg);
	}
	strcpy(writes, m->nwrites ? "" : "-");
	rpcrdma_write_iter_init(m, &ci);
	while (rpcrdma_write_next(&ci, &si)) {
		bool first = true;

		if (!first_chunk)
			strncat(writes, "|", cap - strlen(writes) - 1);
		first_chunk = false;
		while (rpcrdma_seg_next(&si, &s)) {
			fmt_seg(seg, sizeof(seg), &s);
			snprintf(writes + strlen(writes), cap - strlen(writes), "%s%s",
				 first ? "" : ",", seg);
			first = false;
		}
	}
	strcpy(reply, "none");
	if (rpcrdma_reply_chunk(m, &si)) {
		reply[0] = '\0';
		while (rpcrdma_seg_next(&si, &s)) {
			fmt_seg(seg, sizeof(seg), &s);
			snprintf(reply + strlen(reply), cap - strlen(reply), "%s%s",
				 *reply ? "," : "", seg);
		}
	}
}

static void check_list(struct check *c, const struct vector *v, const char *key,
		       const char *got)
{
	const char *want = vec_get(v, key);
	char norm[1024];

	if (!want)
		return;
	norm_list(want, norm, sizeof(norm));
	if (strcmp(norm, got))
		mismatch(c, key, norm, got);
}

static void check_notes(struct check *c, const struct vector *v,
			const struct rpcrdma_msg *m)
{
	const char *want = vec_get(v, "notes");
	char got[128] = "";
	unsigned bit;

	if (!want)
		return;
	for (bit = 1; bit < (1u << RPCRDMA_NOTE_COUNT_); bit <<= 1)
		if (m->notes & bit)
			snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s%s",
				 *got ? " " : "", rpcrdma_note_name(bit));
	if (!*got)
		strcpy(got, "-");
	if (strcmp(want, got))
		mismatch(c, "notes", want, got);
}

static void check_rpc(struct check *c, const struct vector *v,
		      const struct rpcrdma_msg *m)
{
	const char *want = vec_get(v, "rpc");
	const uint8_t *p = rpcrdma_payload(m);
	struct rpc_msg_hdr h;
	char got[96];

	if (!want)
		return;
	if (!m->has_rpc_xid || !m->has_rpc_msg_type) {
		strcpy(got, "none");
	} else if (m->rpc_msg_type == RPC_CALL && strchr(strchr(want, ':') + 1, ':') &&
		   rpc_decode_header(p, m->payload_len, &h) == RPC_OK) {
		snprintf(got, sizeof(got), "%u:%u:%u:%u:%u", h.xid, h.msg_type,
			 h.prog, h.vers, h.proc);
	} else {
		snprintf(got, sizeof(got), "%u:%u", m->rpc_xid, m->rpc_msg_type);
	}
	check_list(c, v, "rpc", got);
}

static void check_vector(const struct vector *v, const struct rpcrdma_msg *m,
			 struct check *c)
{
	char reads[2048], writes[2048], reply[2048];
	bool f = m->nfixed >= 4;

	check_str(c, v, "action", rpcrdma_action_name(m->action));
	check_str(c, v, "reason", rpcrdma_reason_name(m->reason));
	check_num(c, v, "offset", m->reason != RPCRDMA_R_OK, m->fault_off);
	check_num(c, v, "xid", m->nfixed >= 1, m->rdma_xid);
	check_num(c, v, "vers", m->nfixed >= 2, m->rdma_vers);
	check_num(c, v, "credits", m->nfixed >= 3, m->rdma_credit);
	check_num(c, v, "proc", f, m->rdma_proc);
	check_str(c, v, "proc_name", f ? rpcrdma_proc_name(m->rdma_vers, m->rdma_proc) : "unknown");
	check_str(c, v, "direction", rpcrdma_direction_name(m->direction));
	render_lists(m, reads, writes, reply, sizeof(reads));
	check_list(c, v, "reads", reads);
	check_list(c, v, "writes", writes);
	check_list(c, v, "reply", reply);
	check_num(c, v, "err", m->has_err, m->rdma_err);
	check_num(c, v, "low", m->has_vrange, m->rdma_vers_low);
	check_num(c, v, "high", m->has_vrange, m->rdma_vers_high);
	check_num(c, v, "opttype", m->has_optional, m->rdma_opttype);
	check_num(c, v, "info_length", m->has_optional, m->optinfo_len);
	check_num(c, v, "optdir", m->has_optional, m->rdma_optdir);
	check_num(c, v, "header_length", m->header_len != 0, m->header_len);
	check_num(c, v, "payload_length", m->header_len != 0, m->payload_len);
	check_rpc(c, v, m);
	check_notes(c, v, m);
}

/* An accepted message re-encoded from its decoded form gives the same header. */
static bool round_trip(const struct rpcrdma_msg *m)
{
	static struct rpcrdma_read_segment reads[256];
	static struct rpcrdma_write_chunk chunks[64];
	static struct rpcrdma_segment segs[256];
	static uint8_t out[VEC_MAX_BYTES];
	struct rpcrdma_hdr h;
	size_t need, n;

	if (!rpcrdma_msg_to_hdr(m, &h, reads, 256, chunks, 64, segs, 256))
		return false;
	n = rpcrdma_encode(&h, out, sizeof(out), &need);
	return n == m->header_len && need == n && !memcmp(out, m->buf, n);
}

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : "tests/vectors/vectors.txt";
	unsigned lineno = 0, nvalid = 0, nbad = 0;
	static struct vector v;
	FILE *f = fopen(path, "r");

	if (!f) {
		printf("1..0 # SKIP %s: not found\n", path);
		return 0;
	}
	while (vec_next(f, &lineno, &v)) {
		struct rpcrdma_msg m;
		struct check c = { .n = 0 };
		const uint8_t *b = guard_copy(v.bytes, v.len);
		size_t cut;
		bool prefixes_ok = true;

		if (v.error[0]) {
			tap_ok(false, "%s: vector file: %s", v.name, v.error);
			continue;
		}
		rpcrdma_decode(b, v.len, &m);
		check_vector(&v, &m, &c);
		tap_ok(c.n == 0, "%s (line %u)%s", v.name, v.line, c.why);
		if (m.action != RPCRDMA_ACCEPT) {
			nbad++;
			continue;
		}
		nvalid++;
		tap_ok(round_trip(&m), "%s: encode(decode(x)) == x", v.name);
		/* every proper prefix that cuts the header is not accepted
		 * (prefixes that cut only the payload may still be valid) */
		for (cut = 0; cut < m.header_len; cut++) {
			struct rpcrdma_msg pm;

			rpcrdma_decode(guard_copy(v.bytes, cut), cut, &pm);
			if (pm.action == RPCRDMA_ACCEPT) {
				prefixes_ok = false;
				tap_diag("%s: prefix of %zu bytes accepted", v.name, cut);
			}
		}
		tap_ok(prefixes_ok, "%s: every header prefix rejected", v.name);
	}
	fclose(f);
	tap_diag("%u accepted vectors, %u rejected vectors", nvalid, nbad);
	tap_ok(nvalid >= 40 && nbad >= 40, "at least 40 valid and 40 malformed vectors (%u, %u)",
	       nvalid, nbad);
	return tap_done();
}
