/* conv.c - connections: an RC QP pair (InfiniBand, RoCE) or a TCP connection (iWARP), and which side sent a packet. */
#include "rpcrdma_plugin.h"
#include "reasm.h"

/*
 * The same rule as rpcrdma-decode (docs/capture.md, "Conversations"): an
 * InfiniBand packet names only its destination QP, so a connection is first
 * seen as one half (source address, destination address, destination QP),
 * and the first new half in the other direction between the same two
 * addresses completes the oldest half still alone.  An iWARP connection is
 * its TCP four-tuple.  Decided on the first pass; the maps only grow, so
 * every later pass finds the same connection.  Numbered from 1 per capture.
 */

struct half_key {
	address src, dst;
	uint32_t sport, dport;     /* IB: 0 and the destination QP */
};

struct half {
	struct rpcrdma_conn *c;
	unsigned dir;              /* 0: from side 0 to side 1 */
};

static wmem_map_t *halves;     /* half_key -> half */
static wmem_map_t *alone;      /* address-pair hash -> list of IB conns with one half */
static uint32_t next_id;

static guint half_hash(gconstpointer p)
{
	const struct half_key *k = p;

	return add_address_to_hash(add_address_to_hash(k->sport * 31u + k->dport,
						       &k->src), &k->dst);
}

static gboolean half_equal(gconstpointer a, gconstpointer b)
{
	const struct half_key *x = a, *y = b;

	return x->sport == y->sport && x->dport == y->dport &&
	       addresses_equal(&x->src, &y->src) && addresses_equal(&x->dst, &y->dst);
}

static guint pair_hash(const address *a, const address *b)
{
	return add_address_to_hash(0, a) ^ add_address_to_hash(0, b);
}

static void reset(void)
{
	next_id = 0;
}

void rpcrdma_conn_init(void)
{
	halves = wmem_map_new_autoreset(wmem_epan_scope(), wmem_file_scope(),
					half_hash, half_equal);
	alone = wmem_map_new_autoreset(wmem_epan_scope(), wmem_file_scope(),
				       g_direct_hash, g_direct_equal);
	register_init_routine(reset);
}

static void add_half(const packet_info *pinfo, uint32_t sport, uint32_t dport,
		     struct rpcrdma_conn *c, unsigned dir, bool reverse)
{
	struct half_key *k = wmem_new0(wmem_file_scope(), struct half_key);
	struct half *h = wmem_new(wmem_file_scope(), struct half);

	copy_address_wmem(wmem_file_scope(), &k->src, reverse ? &pinfo->dst : &pinfo->src);
	copy_address_wmem(wmem_file_scope(), &k->dst, reverse ? &pinfo->src : &pinfo->dst);
	k->sport = reverse ? dport : sport;
	k->dport = reverse ? sport : dport;
	h->c = c;
	h->dir = dir;
	wmem_map_insert(halves, k, h);
}

static struct rpcrdma_conn *new_conn(const packet_info *pinfo, bool iwarp)
{
	struct rpcrdma_conn *c = wmem_new0(wmem_file_scope(), struct rpcrdma_conn);

	c->id = ++next_id;
	c->iwarp = iwarp;
	c->client = -1;
	copy_address_wmem(wmem_file_scope(), &c->addr[0], &pinfo->src);
	copy_address_wmem(wmem_file_scope(), &c->addr[1], &pinfo->dst);
	return c;
}

/* An IB connection between the same addresses, started from the other end,
 * still waiting for its second half: the oldest one */
static struct rpcrdma_conn *take_alone(const packet_info *pinfo)
{
	wmem_list_t *l = wmem_map_lookup(alone,
		GUINT_TO_POINTER(pair_hash(&pinfo->src, &pinfo->dst)));
	wmem_list_frame_t *f;

	for (f = l ? wmem_list_head(l) : NULL; f; f = wmem_list_frame_next(f)) {
		struct rpcrdma_conn *c = wmem_list_frame_data(f);

		if (addresses_equal(&c->addr[0], &pinfo->dst) &&
		    addresses_equal(&c->addr[1], &pinfo->src)) {
			wmem_list_remove_frame(l, f);
			return c;
		}
	}
	return NULL;
}

static void put_alone(const packet_info *pinfo, struct rpcrdma_conn *c)
{
	guint key = pair_hash(&pinfo->src, &pinfo->dst);
	wmem_list_t *l = wmem_map_lookup(alone, GUINT_TO_POINTER(key));

	if (!l) {
		l = wmem_list_new(wmem_file_scope());
		wmem_map_insert(alone, GUINT_TO_POINTER(key), l);
	}
	wmem_list_append(l, c);
}

static struct rpcrdma_conn *conn_of(packet_info *pinfo, bool iwarp,
			       unsigned *dir)
{
	struct half_key k;
	struct half *h;
	struct rpcrdma_conn *c;
	uint32_t sport = iwarp ? pinfo->srcport : 0, dport = pinfo->destport;

	k.src = pinfo->src;
	k.dst = pinfo->dst;
	k.sport = sport;
	k.dport = dport;
	h = wmem_map_lookup(halves, &k);
	if (h) {
		*dir = h->dir;
		return h->c;
	}
	if (PINFO_FD_VISITED(pinfo)) {
		/* a half that the first pass never saw (no heuristic ran) */
		*dir = 0;
		return NULL;
	}
	if (iwarp) {                        /* both halves at once */
		c = new_conn(pinfo, true);
		c->port[0] = sport;
		c->port[1] = dport;
		add_half(pinfo, sport, dport, c, 0, false);
		add_half(pinfo, sport, dport, c, 1, true);
		*dir = 0;
		return c;
	}
	c = take_alone(pinfo);
	if (c) {
		c->port[0] = dport;         /* side 0's QP */
		add_half(pinfo, 0, dport, c, 1, false);
		*dir = 1;
		return c;
	}
	c = new_conn(pinfo, false);
	c->port[1] = dport;                 /* side 1's QP */
	add_half(pinfo, 0, dport, c, 0, false);
	put_alone(pinfo, c);
	*dir = 0;
	return c;
}

uint32_t rpcrdma_side_id(const struct rpcrdma_where *w, unsigned side)
{
	return w->conn ? (w->conn->id << 1 | (side & 1u)) : 0;
}

void rpcrdma_where(packet_info *pinfo, bool iwarp, struct rpcrdma_where *w)
{
	w->conn = conn_of(pinfo, iwarp, &w->dir);
}
