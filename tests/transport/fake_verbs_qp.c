/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fake_verbs_qp.c - the fake fabric's queues and memory: completion and
 * receive queues, the error state and its flushes, regions and windows
 * with their keys, and every work request executed at once inside the post
 * call, with the checks a real RC queue pair makes.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>
#include "fake_verbs_int.h"

/* -------- completion queue and receive queue -------- */
void fake_push_wc(struct fid *id, uint64_t wr_id, enum xv_opcode op,
		    enum xv_wc_status st, uint32_t len)
{
	struct xv_wc *wc;

	if (id->cq_n == id->cq_cap) {
		unsigned cap = id->cq_cap ? id->cq_cap * 2 : 64, i;
		struct xv_wc *n = calloc(cap, sizeof(*n));

		if (!n)
			abort();
		for (i = 0; i < id->cq_n; i++)
			n[i] = id->cq[(id->cq_head + i) % id->cq_cap];
		free(id->cq);
		id->cq = n;
		id->cq_cap = cap;
		id->cq_head = 0;
	}
	wc = &id->cq[(id->cq_head + id->cq_n++) % id->cq_cap];
	memset(wc, 0, sizeof(*wc));
	wc->wr_id = wr_id;
	wc->opcode = op;
	wc->status = st;
	wc->byte_len = len;
	if (st == XV_WC_WR_FLUSH_ERR)
		fake_counts.flushed++;
	fake_wake(id->cq_efd);
}

/* the queue pair enters the error state: posted Receives are flushed */
void fake_qp_error(struct fid *id)
{
	if (!id || !id->has_qp)
		return;
	id->qp_err = true;
	while (id->rq_n) {
		fake_push_wc(id, id->rq[id->rq_head].wr_id, XV_OP_RECV,
			XV_WC_WR_FLUSH_ERR, 0);
		id->rq_head = (id->rq_head + 1) % id->rq_cap;
		id->rq_n--;
	}
}

void fake_free_qp(struct fid *id)
{
	if (!id->has_qp)
		return;
	id->has_qp = false;
	close(id->cq_efd);
	id->cq_efd = -1;
	free(id->cq);
	free(id->rq);
	id->cq = NULL;
	id->rq = NULL;
	id->cq_n = id->rq_n = 0;
}

int fake_qp_create(struct xv_id *pub, const struct xv_qp_caps *caps)
{
	struct fid *id = (struct fid *)pub;

	if (id->has_qp || !caps->max_recv_wr) {
		errno = EINVAL;
		return -1;
	}
	id->rq = calloc(caps->max_recv_wr, sizeof(*id->rq));
	id->cq_efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (!id->rq || id->cq_efd < 0) {
		free(id->rq);
		id->rq = NULL;
		if (id->cq_efd >= 0)
			close(id->cq_efd);
		errno = ENOMEM;
		return -1;
	}
	id->rq_cap = caps->max_recv_wr;
	id->has_qp = true;
	id->qp_err = false;
	return 0;
}

void fake_qp_destroy(struct xv_id *pub)
{
	fake_free_qp((struct fid *)pub);
}

int fake_cq_fd(struct xv_id *pub)
{
	return ((struct fid *)pub)->cq_efd;
}

int fake_cq_event(struct xv_id *pub)
{
	uint64_t v;

	if (read(((struct fid *)pub)->cq_efd, &v, sizeof(v)) < 0 && errno != EAGAIN)
		return -1;
	return 0;
}

int fake_cq_poll(struct xv_id *pub, struct xv_wc *wc, int n)
{
	struct fid *id = (struct fid *)pub;
	int i = 0;

	if (!id->has_qp)
		return 0;
	for (; i < n && id->cq_n; i++) {
		wc[i] = id->cq[id->cq_head];
		if (id->late_est && wc[i].opcode == XV_OP_RECV) {
			id->late_est = false;
			fake_queue_event(id, XV_EV_ESTABLISHED, 0, NULL, NULL, 0);
		}
		id->cq_head = (id->cq_head + 1) % id->cq_cap;
		id->cq_n--;
	}
	return i;
}

/* -------- memory -------- */
struct xv_mr *fake_reg_mr(struct xv_id *pub, void *addr, size_t len,
			      unsigned access)
{
	struct fmr *m;

	if (!addr || !len) {
		errno = EINVAL;
		return NULL;
	}
	m = calloc(1, sizeof(*m));
	if (!m)
		return NULL;
	m->pub.addr = addr;
	m->pub.len = len;
	m->pub.lkey = m->pub.rkey = fake_next_key;
	fake_next_key += 0x100;
	m->owner = (struct fid *)pub;
	m->access = access;
	m->next = fake_mrs;
	fake_mrs = m;
	return &m->pub;
}

int fake_dereg_mr(struct xv_mr *pub)
{
	struct fmr **pp;

	for (pp = &fake_mrs; *pp; pp = &(*pp)->next)
		if (&(*pp)->pub == pub) {
			struct fmr *m = *pp;

			*pp = m->next;
			free(m);
			return 0;
		}
	errno = EINVAL;
	return -1;
}

struct xv_mw *fake_alloc_mw(struct xv_id *pub)
{
	struct fmw *w;

	if (fake_verbs_config.no_mw) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	w = calloc(1, sizeof(*w));
	if (!w)
		return NULL;
	w->pub.rkey = fake_next_key;
	fake_next_key += 0x100;
	w->owner = (struct fid *)pub;
	w->next = fake_mws;
	fake_mws = w;
	return &w->pub;
}

int fake_dealloc_mw(struct xv_mw *pub)
{
	struct fmw **pp;

	for (pp = &fake_mws; *pp; pp = &(*pp)->next)
		if (&(*pp)->pub == pub) {
			struct fmw *w = *pp;

			*pp = w->next;
			free(w);
			return 0;
		}
	errno = EINVAL;
	return -1;
}

static bool within(uint64_t base, size_t blen, uint64_t a, uint64_t len)
{
	return a >= base && len <= blen && a - base <= blen - len;
}

/* a local scatter/gather element: inside one of the owner's regions */
static bool local_ok(struct fid *id, const struct xv_sge *s, bool write)
{
	struct fmr *m;

	for (m = fake_mrs; m; m = m->next)
		if (m->owner == id && m->pub.lkey == s->lkey &&
		    (!write || (m->access & XV_ACCESS_LOCAL_WRITE)))
			return within((uintptr_t)m->pub.addr, m->pub.len,
				      (uintptr_t)s->addr, s->len);
	return false;
}

/* a remote address: inside one of the target's regions or bound windows
 * with the access asked for; returns its host pointer or NULL */
static uint8_t *remote_ok(struct fid *t, uint32_t rkey, uint64_t addr,
			  uint64_t len, unsigned access)
{
	struct fmr *m;
	struct fmw *w;

	for (m = fake_mrs; m; m = m->next)
		if (m->owner == t && m->pub.rkey == rkey)
			return (m->access & access) &&
			       within((uintptr_t)m->pub.addr, m->pub.len, addr, len) ?
			       (uint8_t *)(uintptr_t)addr : NULL;
	for (w = fake_mws; w; w = w->next)
		if (w->owner == t && w->bound && w->pub.rkey == rkey)
			return (w->access & access) && within(w->addr, w->len, addr, len) ?
			       (uint8_t *)(uintptr_t)addr : NULL;
	return NULL;
}

static struct fmw *find_mw(struct fid *owner, uint32_t rkey)
{
	struct fmw *w;

	for (w = fake_mws; w; w = w->next)
		if (w->owner == owner && w->bound && w->pub.rkey == rkey)
			return w;
	return NULL;
}

int fake_post_recv(struct xv_id *pub, uint64_t wr_id, const struct xv_sge *sge)
{
	struct fid *id = (struct fid *)pub;

	if (!id->has_qp || id->rq_n == id->rq_cap) {
		errno = id->has_qp ? ENOMEM : EINVAL;
		return -1;
	}
	fake_counts.recvs_posted++;
	if (id->qp_err) {
		fake_push_wc(id, wr_id, XV_OP_RECV, XV_WC_WR_FLUSH_ERR, 0);
		return 0;
	}
	id->rq[(id->rq_head + id->rq_n) % id->rq_cap].wr_id = wr_id;
	id->rq[(id->rq_head + id->rq_n) % id->rq_cap].sge = *sge;
	id->rq_n++;
	return 0;
}

static uint64_t sge_total(const struct xv_send_wr *wr)
{
	uint64_t n = 0;
	int i;

	for (i = 0; i < wr->nsge; i++)
		n += wr->sge[i].len;
	return n;
}

/* a Send into the peer's oldest Receive */
static enum xv_wc_status do_send(struct fid *p,
				 const struct xv_send_wr *wr)
{
	uint64_t total = sge_total(wr), off = 0;
	uint64_t rid;
	struct xv_sge rs;
	struct fmw *w = NULL;
	int i;

	if (!p->rq_n) {
		fake_counts.rnr_errors++;
		return XV_WC_RNR_RETRY_EXC_ERR;     /* the peer is unharmed */
	}
	rid = p->rq[p->rq_head].wr_id;
	rs = p->rq[p->rq_head].sge;
	p->rq_head = (p->rq_head + 1) % p->rq_cap;
	p->rq_n--;
	if (total > rs.len || !local_ok(p, &rs, true)) {
		fake_push_wc(p, rid, XV_OP_RECV, total > rs.len ? XV_WC_LOC_LEN_ERR :
			XV_WC_LOC_PROT_ERR, 0);
		fake_qp_error(p);
		return XV_WC_REM_INV_REQ_ERR;
	}
	if (wr->opcode == XV_OP_SEND_INV) {
		w = find_mw(p, wr->invalidate_rkey);
		if (!w) {
			fake_push_wc(p, rid, XV_OP_RECV, XV_WC_REM_INV_REQ_ERR, 0);
			fake_qp_error(p);
			return XV_WC_REM_OP_ERR;
		}
		w->bound = false;
		fake_counts.send_invs++;
	}
	for (i = 0; i < wr->nsge; i++) {
		memcpy((uint8_t *)rs.addr + off, wr->sge[i].addr, wr->sge[i].len);
		off += wr->sge[i].len;
	}
	fake_counts.sends++;
	fake_push_wc(p, rid, XV_OP_RECV, XV_WC_SUCCESS, (uint32_t)total);
	if (w) {
		p->cq[(p->cq_head + p->cq_n - 1) % p->cq_cap].with_inv = true;
		p->cq[(p->cq_head + p->cq_n - 1) % p->cq_cap].inv_rkey = wr->invalidate_rkey;
	}
	return XV_WC_SUCCESS;
}

static enum xv_wc_status do_rdma(struct fid *p, const struct xv_send_wr *wr)
{
	bool rd = wr->opcode == XV_OP_RDMA_READ;
	uint64_t total = sge_total(wr), off = 0;
	uint8_t *r = remote_ok(p, wr->rkey, wr->remote_addr, total,
			       rd ? XV_ACCESS_REMOTE_READ : XV_ACCESS_REMOTE_WRITE);
	int i;

	if (!r) {
		fake_counts.access_errors++;
		fake_qp_error(p);      /* the target's QP fails too */
		return XV_WC_REM_ACCESS_ERR;
	}
	for (i = 0; i < wr->nsge; i++) {
		if (rd)
			memcpy(wr->sge[i].addr, r + off, wr->sge[i].len);
		else
			memcpy(r + off, wr->sge[i].addr, wr->sge[i].len);
		off += wr->sge[i].len;
	}
	if (rd) {
		fake_counts.reads++;
		fake_counts.read_bytes += total;
	} else {
		fake_counts.writes++;
		fake_counts.write_bytes += total;
	}
	return XV_WC_SUCCESS;
}

static enum xv_wc_status do_local(struct fid *id, const struct xv_send_wr *wr)
{
	struct fmw *w;
	struct fmr *m;

	if (wr->opcode == XV_OP_LOCAL_INV) {
		w = find_mw(id, wr->invalidate_rkey);
		if (!w)
			return XV_WC_LOC_PROT_ERR;
		w->bound = false;
		return XV_WC_SUCCESS;
	}
	/* BIND_MW */
	for (w = fake_mws; w && &w->pub != wr->mw; w = w->next)
		;
	for (m = fake_mrs; m && &m->pub != wr->bind_mr; m = m->next)
		;
	if (!w || !m || w->owner != id || m->owner != id || w->bound ||
	    !(m->access & XV_ACCESS_MW_BIND) ||
	    !within((uintptr_t)m->pub.addr, m->pub.len, wr->bind_addr, wr->bind_len))
		return XV_WC_LOC_PROT_ERR;
	w->bound = true;
	w->addr = wr->bind_addr;
	w->len = wr->bind_len;
	w->access = wr->bind_access;
	/* like ibv_inc_rkey: a new key for every bind */
	w->pub.rkey = (w->pub.rkey & ~0xffu) | ((w->pub.rkey + 1) & 0xffu);
	return XV_WC_SUCCESS;
}

int fake_post_send(struct xv_id *pub, const struct xv_send_wr *wr)
{
	struct fid *id = (struct fid *)pub, *p = id->peer_id;
	enum xv_wc_status st = XV_WC_SUCCESS;
	bool rd = wr->opcode == XV_OP_RDMA_READ;
	int i;

	if (!id->has_qp || wr->nsge < 0 || (wr->nsge && !wr->sge)) {
		errno = EINVAL;
		return -1;
	}
	if (id->qp_err) {
		fake_push_wc(id, wr->wr_id, wr->opcode, XV_WC_WR_FLUSH_ERR, 0);
		return 0;
	}
	for (i = 0; i < wr->nsge; i++)
		if (!local_ok(id, &wr->sge[i], rd))
			st = XV_WC_LOC_PROT_ERR;
	if (st == XV_WC_SUCCESS) {
		if (wr->opcode == XV_OP_LOCAL_INV || wr->opcode == XV_OP_BIND_MW)
			st = do_local(id, wr);
		else if (id->state != F_CONNECTED || !p || !p->has_qp ||
			 p->qp_err || p->state != F_CONNECTED)
			st = XV_WC_RETRY_EXC_ERR;   /* nobody answers */
		else if ((wr->opcode == XV_OP_SEND || wr->opcode == XV_OP_SEND_INV) &&
			 id->active && !id->nsends++ && fake_verbs_config.lose_first_send)
			fake_verbs_config.lose_first_send--;   /* lost on the way */
		else if (wr->opcode == XV_OP_SEND || wr->opcode == XV_OP_SEND_INV)
			st = do_send(p, wr);
		else
			st = do_rdma(p, wr);
	}
	if (st != XV_WC_SUCCESS || wr->signaled)
		fake_push_wc(id, wr->wr_id, wr->opcode, st, 0);
	if (st != XV_WC_SUCCESS)
		fake_qp_error(id);
	return 0;
}

