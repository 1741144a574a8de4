/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * nfs4_ops.c - naming the operations of an NFSv4 COMPOUND4args or
 * CB_COMPOUND4args (RFC 7530 §16.2, RFC 8881 §16.2 and §20, RFC 7862 §15,
 * RFC 8276 §8): every argument is skipped by its XDR form (RFC 4506), with
 * a bounds-checked cursor, so the next operation code is found.  Most
 * argument lists are a fixed sequence of items, written as a string; the
 * unions (CREATE, LOCK, OPEN, EXCHANGE_ID, ...) have a function each.  An
 * operation whose arguments do not decode ends the list ("more").
 */
#include <string.h>
#include <strings.h>
#include "be.h"
#include "nfs4_ops.h"

struct xc {                          /* XDR cursor */
	const uint8_t *p;
	size_t left;
	bool bad;
	const uint8_t *base;         /* where offsets given to `v` count from */
	const struct nfs_xdr_visit *v;       /* or NULL */
	uint32_t op;                 /* the operation being skipped */
};

/* Tell the visitor what the next n bytes are (before they are skipped) */
static void seen(struct xc *x, char kind, size_t n)
{
	if (x->v && !x->bad && n <= x->left)
		x->v->fn(x->v->ctx, kind, x->op, (size_t)(x->p - x->base), n);
}

static uint32_t u32(struct xc *x)
{
	if (x->bad || x->left < 4) {
		x->bad = true;
		return 0;
	}
	seen(x, 'w', 4);
	uint32_t v = be32_get(x->p);
	x->p += 4;
	x->left -= 4;
	return v;
}

static void skip(struct xc *x, uint64_t n)
{
	if (x->bad || n > x->left) {
		x->bad = true;
		return;
	}
	x->p += n;
	x->left -= (size_t)n;
}

static void fixed(struct xc *x, char kind, uint64_t n)
{
	if (n <= x->left)
		seen(x, kind, (size_t)n);
	skip(x, n);
}

/* opaque<>, string<>: the visitor is told the bytes without the padding */
static void opaque_k(struct xc *x, char kind)
{
	uint64_t n = u32(x);
	if (!x->bad && (n + 3) / 4 * 4 <= x->left)
		seen(x, kind, (size_t)n);
	skip(x, (n + 3) & ~(uint64_t)3);
}

static void opaque(struct xc *x)
{
	opaque_k(x, 'o');
}

static void array_of(struct xc *x, void (*item)(struct xc *))
{
	uint32_t n = u32(x);
	for (uint32_t i = 0; i < n && !x->bad; i++)
		item(x);
}

static void bitmap(struct xc *x)          /* bitmap4: uint32_t<> */
{
	uint64_t n = u32(x);
	fixed(x, 'b', n * 4);
}

/* sattr3 (RFC 1813 2.6): mode, uid, gid, size, atime, mtime, each set or
 * not; a time set to the client's given as nfstime3 */
static void sattr3(struct xc *x)
{
	static const char what[] = "wuuh";
	for (int i = 0; i < 4 && !x->bad; i++)
		if (u32(x))
			fixed(x, what[i], what[i] == 'h' ? 8 : 4);
	for (int i = 0; i < 2 && !x->bad; i++)
		if (u32(x) == 2)
			fixed(x, 'h', 8);
}

/* A fixed argument list (the letters of nfs4_ops.h, NFS_XDR_FORMS) */
static void items(struct xc *x, const char *form)
{
	for (; *form && !x->bad; form++) {
		switch (*form) {
		case 'w': case 'u': fixed(x, *form, 4); break;
		case 'h': case 'v': fixed(x, *form, 8); break;
		case 't': fixed(x, 't', 12); break;
		case 's': case 'S': fixed(x, *form, 16); break;
		case 'o': case 'n': case 'F': case 'M': opaque_k(x, *form); break;
		case 'b': bitmap(x); break;
		case 'f': bitmap(x); opaque_k(x, 'f'); break;
		case 'L': fixed(x, 'h', 8); opaque(x); break;
		case 'A': sattr3(x); break;
		}
	}
}

/* ---------------------------------------------------------- the unions */

static void op_create(struct xc *x)       /* createtype4, RFC 8881 18.4 */
{
	uint32_t type = u32(x);
	if (type == 5)                     /* NF4LNK: linktext4 */
		opaque(x);
	else if (type == 3 || type == 4)   /* NF4BLK, NF4CHR: specdata4 */
		fixed(x, 'h', 8);
	items(x, "nf");
}

static void op_lock(struct xc *x)         /* RFC 8881 18.10 */
{
	items(x, "wwhh");
	if (u32(x))                        /* open_to_lock_owner4 */
		items(x, "wswL");
	else                               /* exist_lock_owner4 */
		items(x, "sw");
}

static void op_open(struct xc *x)         /* RFC 8881 18.16 */
{
	items(x, "wwwL");
	if (u32(x) == 1) {                 /* OPEN4_CREATE: createhow4 */
		uint32_t mode = u32(x);
		if (mode <= 1)
			items(x, "f");
		else if (mode == 2)
			items(x, "v");
		else if (mode == 3)
			items(x, "vf");
		else
			x->bad = true;
	}
	switch (u32(x)) {                  /* open_claim4 */
	case 0: items(x, "n"); break;           /* NULL */
	case 3: items(x, "o"); break;           /* DELEGATE_PREV */
	case 1: items(x, "w"); break;           /* PREVIOUS */
	case 2: items(x, "sn"); break;          /* DELEGATE_CUR */
	case 4: case 6: break;                  /* FH, DELEG_PREV_FH */
	case 5: items(x, "s"); break;           /* DELEG_CUR_FH */
	default: x->bad = true;
	}
}

static void netaddr(struct xc *x)         /* netaddr4: two strings */
{
	items(x, "oo");
}

static void gid(struct xc *x)
{
	items(x, "u");
}

static void sec_parm(struct xc *x)        /* callback_sec_parms4 */
{
	switch (u32(x)) {
	case 0: break;                          /* AUTH_NONE */
	case 1:                                 /* authsys_parms */
		items(x, "wMuu");               /* stamp, machinename, uid, gid */
		array_of(x, gid);               /* gids: uint32<16> */
		break;
	case 6: items(x, "woo"); break;         /* gss_cb_handles4 */
	default: x->bad = true;
	}
}

static void sec_oid(struct xc *x)
{
	opaque(x);
}

static void op_exchange_id(struct xc *x)  /* RFC 8881 18.35 */
{
	items(x, "vow");
	switch (u32(x)) {                  /* state_protect4_a */
	case 0: break;
	case 1: items(x, "bb"); break;
	case 2:
		items(x, "bb");
		array_of(x, sec_oid);
		array_of(x, sec_oid);
		items(x, "ww");
		break;
	default: x->bad = true;
	}
	if (u32(x))                        /* nfs_impl_id4<1> */
		items(x, "oot");
}

static void chan_attrs(struct xc *x)      /* channel_attrs4 */
{
	items(x, "wwwwww");
	bitmap(x);                         /* ca_rdma_ird<1> */
}

static void op_create_session(struct xc *x) /* RFC 8881 18.36 */
{
	items(x, "hww");
	chan_attrs(x);
	chan_attrs(x);
	items(x, "w");
	array_of(x, sec_parm);
}

static void op_backchannel_ctl(struct xc *x)
{
	items(x, "w");
	array_of(x, sec_parm);
}

static void op_layoutcommit(struct xc *x) /* RFC 8881 18.42 */
{
	items(x, "hhws");
	if (u32(x))
		items(x, "h");
	if (u32(x))
		items(x, "t");
	items(x, "wo");
}

static void op_layoutreturn(struct xc *x) /* RFC 8881 18.44 */
{
	items(x, "www");
	if (u32(x) == 1)                   /* LAYOUTRETURN4_FILE */
		items(x, "hhso");
}

static void op_want_delegation(struct xc *x)
{
	items(x, "w");
	uint32_t claim = u32(x);
	if (claim == 1)
		items(x, "w");
	else if (claim != 4 && claim != 6)
		x->bad = true;
}

static void netloc(struct xc *x)          /* netloc4, RFC 7862 */
{
	uint32_t t = u32(x);
	if (t == 1 || t == 2)
		items(x, "o");
	else if (t == 3)
		netaddr(x);
	else
		x->bad = true;
}

static void op_copy(struct xc *x)         /* RFC 7862 15.2 */
{
	items(x, "sshhhww");
	array_of(x, netloc);
}

static void op_copy_notify(struct xc *x)
{
	items(x, "s");
	netloc(x);
}

static void dev_error(struct xc *x)
{
	items(x, "Sww");
}

static void op_layouterror(struct xc *x)
{
	items(x, "hhs");
	array_of(x, dev_error);
}

static void op_setclientid(struct xc *x)  /* RFC 7530 16.33 */
{
	items(x, "vow");
	netaddr(x);
	items(x, "w");
}

static void stateid(struct xc *x)
{
	fixed(x, 's', 16);
}

static void op_test_stateid(struct xc *x)
{
	array_of(x, stateid);
}

/* callback operations */
static void op_cb_layoutrecall(struct xc *x)
{
	items(x, "www");
	switch (u32(x)) {
	case 1: items(x, "Fhhs"); break;   /* LAYOUTRECALL4_FILE */
	case 2: items(x, "hh"); break;     /* FSID */
	case 3: break;                     /* ALL */
	default: x->bad = true;
	}
}

static void notify(struct xc *x)          /* notify4 */
{
	items(x, "bo");
}

static void op_cb_notify(struct xc *x)
{
	items(x, "so");
	array_of(x, notify);
}

static void ref_call(struct xc *x)
{
	items(x, "ww");
}

static void ref_list(struct xc *x)        /* referring_call_list4 */
{
	items(x, "S");
	array_of(x, ref_call);
}

static void op_cb_sequence(struct xc *x)
{
	items(x, "Swwww");
	array_of(x, ref_list);
}

static void op_cb_notify_deviceid(struct xc *x)
{
	array_of(x, notify);
}

static void op_cb_offload(struct xc *x)   /* RFC 7862 16.1 */
{
	items(x, "os");
	if (u32(x) == 0) {                 /* NFS4_OK: write_response4 */
		array_of(x, stateid);
		items(x, "hwv");
	} else {
		items(x, "h");
	}
}

/* ----------------------------------------------------------- the tables */

struct op_def {
	const char *name;
	const char *form;                  /* items(), or NULL: fn */
	void (*fn)(struct xc *);
};

#define F(n, f) { n, f, NULL }
#define U(n, fn) { n, NULL, fn }
#define FIRST_OP 3u

static const struct op_def fore[] = {
	/* 3 */ F("ACCESS", "w"), F("CLOSE", "ws"), F("COMMIT", "hw"),
	U("CREATE", op_create), F("DELEGPURGE", "h"), F("DELEGRETURN", "s"),
	F("GETATTR", "b"), F("GETFH", ""), F("LINK", "n"), U("LOCK", op_lock),
	/* 13 */ F("LOCKT", "whhL"), F("LOCKU", "wwshh"), F("LOOKUP", "n"),
	F("LOOKUPP", ""), F("NVERIFY", "f"), U("OPEN", op_open),
	F("OPENATTR", "w"), F("OPEN_CONFIRM", "sw"), F("OPEN_DOWNGRADE", "swww"),
	F("PUTFH", "F"),
	/* 23 */ F("PUTPUBFH", ""), F("PUTROOTFH", ""), F("READ", "shw"),
	F("READDIR", "hvwwb"), F("READLINK", ""), F("REMOVE", "n"),
	F("RENAME", "nn"), F("RENEW", "h"), F("RESTOREFH", ""), F("SAVEFH", ""),
	/* 33 */ F("SECINFO", "n"), F("SETATTR", "sf"),
	U("SETCLIENTID", op_setclientid), F("SETCLIENTID_CONFIRM", "hv"),
	F("VERIFY", "f"), F("WRITE", "shwo"), F("RELEASE_LOCKOWNER", "L"),
	U("BACKCHANNEL_CTL", op_backchannel_ctl),
	F("BIND_CONN_TO_SESSION", "Sww"), U("EXCHANGE_ID", op_exchange_id),
	/* 43 */ U("CREATE_SESSION", op_create_session),
	F("DESTROY_SESSION", "S"), F("FREE_STATEID", "s"),
	F("GET_DIR_DELEGATION", "wbttbb"), F("GETDEVICEINFO", "Swwb"),
	F("GETDEVICELIST", "wwhv"), U("LAYOUTCOMMIT", op_layoutcommit),
	F("LAYOUTGET", "wwwhhhsw"), U("LAYOUTRETURN", op_layoutreturn),
	F("SECINFO_NO_NAME", "w"),
	/* 53 */ F("SEQUENCE", "Swwww"), F("SET_SSV", "oo"),
	U("TEST_STATEID", op_test_stateid),
	U("WANT_DELEGATION", op_want_delegation), F("DESTROY_CLIENTID", "h"),
	F("RECLAIM_COMPLETE", "w"),
	/* 59, RFC 7862 */ F("ALLOCATE", "shh"), U("COPY", op_copy),
	U("COPY_NOTIFY", op_copy_notify), F("DEALLOCATE", "shh"),
	/* 63 */ F("IO_ADVISE", "shhb"), U("LAYOUTERROR", op_layouterror),
	F("LAYOUTSTATS", "hhshhhhSwo"), F("OFFLOAD_CANCEL", "s"),
	F("OFFLOAD_STATUS", "s"), F("READ_PLUS", "shw"), F("SEEK", "shw"),
	F("WRITE_SAME", "swhhhhwho"), F("CLONE", "sshhh"),
	/* 72, RFC 8276 */ F("GETXATTR", "o"), F("SETXATTR", "woo"),
	F("LISTXATTRS", "hw"), F("REMOVEXATTR", "o"),
};

static const struct op_def back[] = {
	/* 3 */ F("CB_GETATTR", "Fb"), F("CB_RECALL", "swF"),
	U("CB_LAYOUTRECALL", op_cb_layoutrecall), U("CB_NOTIFY", op_cb_notify),
	F("CB_PUSH_DELEG", NULL), F("CB_RECALL_ANY", "wb"),
	F("CB_RECALLABLE_OBJ_AVAIL", "wb"), F("CB_RECALL_SLOT", "w"),
	/* 11 */ U("CB_SEQUENCE", op_cb_sequence), F("CB_WANTS_CANCELLED", "ww"),
	F("CB_NOTIFY_LOCK", "FL"), U("CB_NOTIFY_DEVICEID", op_cb_notify_deviceid),
	U("CB_OFFLOAD", op_cb_offload),
};

#define OP_ILLEGAL 10044u
#define N(a) (sizeof(a) / sizeof((a)[0]))

static const struct op_def *def_of(uint32_t op, bool cb)
{
	const struct op_def *t = cb ? back : fore;
	size_t n = cb ? N(back) : N(fore);

	return op >= FIRST_OP && op - FIRST_OP < n ? &t[op - FIRST_OP] : NULL;
}

const char *nfs4_op_name(uint32_t op, bool cb)
{
	const struct op_def *d = def_of(op, cb);

	if (op == OP_ILLEGAL)
		return cb ? "CB_ILLEGAL" : "ILLEGAL";
	return d ? d->name : NULL;
}

bool nfs4_op_by_name(const char *name, bool cb, uint32_t *op)
{
	size_t n = cb ? N(back) : N(fore);

	for (size_t i = 0; i < n; i++) {
		if (!strcasecmp(name, (cb ? back : fore)[i].name)) {
			*op = (uint32_t)(FIRST_OP + i);
			return true;
		}
	}
	return false;
}

bool nfs4_compound_ops(const uint8_t *args, size_t len, bool cb,
		       struct nfs4_ops *out)
{
	return nfs4_compound_walk(args, len, cb, out, NULL);
}

bool nfs_xdr_items(const uint8_t *buf, size_t len, size_t *off,
		   const char *form, const struct nfs_xdr_visit *v)
{
	if (*off > len)
		return false;
	struct xc x = { buf + *off, len - *off, false, buf, v, 0 };
	items(&x, form);
	if (x.bad)
		return false;
	*off = (size_t)(x.p - buf);
	return true;
}

bool nfs4_compound_walk(const uint8_t *args, size_t len, bool cb,
			struct nfs4_ops *out, const struct nfs_xdr_visit *v)
{
	struct xc x = { args, len, false, args, v, 0 };

	memset(out, 0, sizeof(*out));
	opaque(&x);                        /* tag */
	out->minorversion = u32(&x);
	if (cb)
		u32(&x);                   /* callback_ident */
	uint32_t count = u32(&x);
	if (x.bad || !count)
		return false;
	for (uint32_t i = 0; i < count; i++) {
		uint32_t op = u32(&x);
		if (x.bad || out->n == NFS4_OPS_MAX) {
			out->more = true;
			break;
		}
		const struct op_def *d = def_of(op, cb);
		if (!d && op != OP_ILLEGAL) {
			out->more = true;  /* not an operation: stop here */
			break;
		}
		out->ops[out->n++] = op;
		x.op = op;
		if (op == OP_ILLEGAL)
			continue;
		if (d->form)
			items(&x, d->form);
		else if (d->fn)
			d->fn(&x);
		else
			x.bad = true;      /* arguments we do not skip */
		if (x.bad) {
			out->more = i + 1 < count;
			break;
		}
	}
	return out->n > 0;
}

static bool in(uint32_t op, const uint32_t *set, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (op == set[i])
			return true;
	return false;
}

uint32_t nfs4_main_op(const struct nfs4_ops *o, bool cb)
{
	/* SEQUENCE, PUTFH, PUTROOTFH, PUTPUBFH, SAVEFH, RESTOREFH set the
	 * stage; GETATTR and GETFH mostly come along */
	static const uint32_t setup[] = { 53, 22, 24, 23, 32, 31 };
	static const uint32_t along[] = { 9, 10 };
	static const uint32_t cb_setup[] = { 11 };

	for (uint32_t i = 0; i < o->n; i++)
		if (cb ? !in(o->ops[i], cb_setup, N(cb_setup)) :
		    !in(o->ops[i], setup, N(setup)) && !in(o->ops[i], along, N(along)))
			return o->ops[i];
	for (uint32_t i = 0; !cb && i < o->n; i++)
		if (in(o->ops[i], along, N(along)))
			return o->ops[i];
	return o->n ? o->ops[0] : NFS4_OP_NONE;
}
