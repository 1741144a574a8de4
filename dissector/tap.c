/* tap.c - the "rpcrdma" tap and `tshark -z rpcrdma,stat[,FILTER]`: per conversation, messages, credits and chunk sizes (the Wireshark-side counterpart of rpcrdma-decode --stats). */
#include "rpcrdma_plugin.h"

#include <stdio.h>
#include <epan/tap.h>
#include <epan/stat_tap_ui.h>
#include <epan/to_str.h>

static int rpcrdma_tap = -1;

struct size_stat {
	uint64_t count, bytes, max;
};

struct credit_stat {
	uint32_t min, max, last;
	bool seen;
};

struct conv_stat {
	bool used;
	char *a, *b;                      /* side 0 and side 1, as text */
	bool iwarp;
	uint64_t msgs, calls, replies, bcalls, breplies, bad, errors;
	uint64_t later;                   /* Version Two, later draft layout */
	uint64_t procs[6];                /* MSG NOMSG MSGP DONE ERROR OPTIONAL */
	uint64_t v1, v2;
	struct credit_stat asked[2], granted[2];  /* [0] forward, [1] backward */
	struct size_stat inl, reads, writes, reply;
};

struct stat_tap {
	char *filter;
	GArray *convs;                    /* of struct conv_stat, by id */
};

static void size_add(struct size_stat *s, uint64_t n)
{
	s->count++;
	s->bytes += n;
	if (n > s->max)
		s->max = n;
}

static void credit_add(struct credit_stat *c, uint32_t v)
{
	if (!c->seen || v < c->min)
		c->min = v;
	if (!c->seen || v > c->max)
		c->max = v;
	c->last = v;
	c->seen = true;
}

static char *side_str(const address *a, uint32_t port, bool iwarp)
{
	char *s = address_to_str(NULL, a);
	char *r = iwarp ? g_strdup_printf("%s:%u", s, port)
			: port ? g_strdup_printf("%s/qp=0x%x", s, port)
			       : g_strdup_printf("%s/qp=?", s);

	wmem_free(NULL, s);
	return r;
}

static tap_packet_status packet(void *data, packet_info *pinfo _U_,
				epan_dissect_t *edt _U_, const void *p,
				tap_flags_t flags _U_)
{
	struct stat_tap *st = data;
	const struct rpcrdma_tap_info *t = p;
	struct conv_stat *c;
	unsigned b = t->backward ? 1 : 0;

	if (!t->conn)
		return TAP_PACKET_DONT_REDRAW;
	if (st->convs->len <= t->conn->id)
		g_array_set_size(st->convs, t->conn->id + 1);
	c = &g_array_index(st->convs, struct conv_stat, t->conn->id);
	if (!c->used) {
		c->used = true;
		c->iwarp = t->conn->iwarp;
		c->a = side_str(&t->conn->addr[0], t->conn->port[0], c->iwarp);
		c->b = side_str(&t->conn->addr[1], t->conn->port[1], c->iwarp);
	} else if (!c->iwarp && strstr(c->a, "qp=?") && t->conn->port[0]) {
		g_free(c->a);            /* side 0's QP learnt since */
		c->a = side_str(&t->conn->addr[0], t->conn->port[0], false);
	}
	c->msgs++;
	if (t->vers == 1)
		c->v1++;
	else if (t->vers == 2)
		c->v2++;
	if (t->proc < 6)
		c->procs[t->proc]++;
	size_add(&c->inl, t->send_len);
	if (t->later) {          /* named, not decoded (as --stats does) */
		c->later++;
		return TAP_PACKET_REDRAW;
	}
	if (!t->accepted)
		c->bad++;
	if (t->has_err)
		c->errors++;
	if (t->direction == RPCRDMA_CALL) {
		if (b) c->bcalls++; else c->calls++;
		credit_add(&c->asked[b], t->credits);
	} else if (t->direction == RPCRDMA_REPLY) {
		if (b) c->breplies++; else c->replies++;
		credit_add(&c->granted[b], t->credits);
	}
	if (t->read_bytes || t->nreads)
		size_add(&c->reads, t->read_bytes);
	if (t->nwrites)
		size_add(&c->writes, t->write_bytes);
	if (t->has_reply)
		size_add(&c->reply, t->reply_bytes);
	return TAP_PACKET_REDRAW;
}

static void reset(void *data)
{
	struct stat_tap *st = data;
	guint i;

	for (i = 0; i < st->convs->len; i++) {
		struct conv_stat *c = &g_array_index(st->convs, struct conv_stat, i);

		g_free(c->a);
		g_free(c->b);
	}
	g_array_set_size(st->convs, 0);
}

static void print_credits(const char *what, const struct credit_stat *c)
{
	if (c->seen)
		printf("  %-21s min %u, max %u, last %u\n", what, c->min, c->max,
		       c->last);
}

static void print_size(const char *what, const struct size_stat *s)
{
	printf("  %-21s %" PRIu64, what, s->count);
	if (s->count)
		printf(", %" PRIu64 " bytes, mean %" PRIu64 ", max %" PRIu64,
		       s->bytes, s->bytes / s->count, s->max);
	printf("\n");
}

static void draw(void *data)
{
	struct stat_tap *st = data;
	guint i, n = 0;

	printf("\n===================================================================\n");
	printf("RPC-over-RDMA per conversation (rpcrdma,stat)\n");
	printf("Filter: %s\n", st->filter ? st->filter : "<none>");
	for (i = 0; i < st->convs->len; i++) {
		const struct conv_stat *c = &g_array_index(st->convs,
							   struct conv_stat, i);

		if (!c->used)
			continue;
		n++;
		printf("\nconversation %u: %s <-> %s (%s)\n", i, c->a, c->b,
		       c->iwarp ? "iWARP" : "InfiniBand/RoCE");
		printf("  %-21s %" PRIu64 " (v1 %" PRIu64 ", v2 %" PRIu64
		       "; MSG %" PRIu64 ", NOMSG %" PRIu64 ", ERROR %" PRIu64
		       ", other %" PRIu64 ")\n", "messages", c->msgs, c->v1, c->v2,
		       c->procs[RDMA_MSG], c->procs[RDMA_NOMSG],
		       c->procs[RDMA_ERROR], c->procs[RDMA_MSGP] +
		       c->procs[RDMA_DONE] + c->procs[RDMA2_OPTIONAL]);
		printf("  %-21s calls %" PRIu64 ", replies %" PRIu64
		       ", backward calls %" PRIu64 ", backward replies %" PRIu64
		       "\n", "directions", c->calls, c->replies, c->bcalls,
		       c->breplies);
		printf("  %-21s %" PRIu64 "\n", "bad headers", c->bad);
		if (c->later)
			printf("  %-21s %" PRIu64 " (Version Two, not decoded;"
			       " not judged against " RPCRDMA_V2_DRAFT ")\n",
			       "later draft layout", c->later);
		print_credits("credits requested", &c->asked[0]);
		print_credits("credits granted", &c->granted[0]);
		print_credits("backward requested", &c->asked[1]);
		print_credits("backward granted", &c->granted[1]);
		print_size("Sends", &c->inl);
		print_size("read chunks", &c->reads);
		print_size("write chunks", &c->writes);
		print_size("reply chunks", &c->reply);
	}
	if (!n)
		printf("\nno RPC-over-RDMA message\n");
	printf("===================================================================\n");
}

static void finish(void *data)
{
	struct stat_tap *st = data;

	reset(st);
	g_array_free(st->convs, TRUE);
	g_free(st->filter);
	g_free(st);
}

static rpcrdma_tap_init_ret stat_init(const char *opt, void *userdata _U_)
{
	struct stat_tap *st = g_new0(struct stat_tap, 1);
	const char *prefix = "rpcrdma,stat,";
	GString *err;

	if (strncmp(opt, prefix, strlen(prefix)) == 0 && opt[strlen(prefix)])
		st->filter = g_strdup(opt + strlen(prefix));
	st->convs = g_array_new(FALSE, TRUE, sizeof(struct conv_stat));
	err = register_tap_listener("rpcrdma", st, st->filter, 0, reset, packet,
				    draw, finish);
	if (err) {
		fprintf(stderr, "tshark: rpcrdma,stat: %s\n", err->str);
		g_string_free(err, TRUE);
		finish(st);
		RPCRDMA_TAP_INIT_RETURN(false);
	}
	RPCRDMA_TAP_INIT_RETURN(true);
}

void rpcrdma_tap_register(void)
{
	static stat_tap_ui ui = {
		REGISTER_STAT_GROUP_GENERIC, "RPC-over-RDMA per conversation",
		"rpcrdma,stat", stat_init, 0, NULL,
	};

	rpcrdma_tap = register_tap("rpcrdma");
	register_stat_tap_ui(&ui, NULL);
}

void rpcrdma_tap_queue(packet_info *pinfo, const struct rpcrdma_msg *m,
		       const struct rpcrdma_where *w, bool backward)
{
	struct rpcrdma_tap_info *t;
	struct rpcrdma_read_iter ri;
	struct rpcrdma_read_segment rs;
	struct rpcrdma_chunk_iter ci;
	struct rpcrdma_seg_iter si;
	struct rpcrdma_segment s;

	if (!have_tap_listener(rpcrdma_tap))
		return;
	t = wmem_new0(pinfo->pool, struct rpcrdma_tap_info);
	t->conn = w->conn;
	t->backward = backward;
	t->vers = m->rdma_vers;
	t->proc = m->nfixed >= 4 ? m->rdma_proc : UINT32_MAX;
	t->credits = m->rdma_credit;
	t->direction = m->direction;
	t->accepted = m->action == RPCRDMA_ACCEPT;
	t->later = rpcrdma_v2_later_family(m) != 0;
	t->has_err = m->has_err;
	t->send_len = (uint32_t)m->len;
	t->nreads = m->nreads;
	t->nwrites = m->nwrites;
	t->has_reply = m->has_reply;
	rpcrdma_read_iter_init(m, &ri);
	while (rpcrdma_read_next(&ri, &rs))
		t->read_bytes += rs.rdma_target.rdma_length;
	rpcrdma_write_iter_init(m, &ci);
	while (rpcrdma_write_next(&ci, &si))
		while (rpcrdma_seg_next(&si, &s))
			t->write_bytes += s.rdma_length;
	if (rpcrdma_reply_chunk(m, &si))
		while (rpcrdma_seg_next(&si, &s))
			t->reply_bytes += s.rdma_length;
	tap_queue_packet(rpcrdma_tap, pinfo, t);
}
