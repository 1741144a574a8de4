/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * test_nfs3_xdr.c - NFSv3 and MOUNT v3 XDR (tools/ulb/nfs3_xdr.c) and the
 * responder (read-only but for /sink) over the computed tree (nfs3_serve.c, nfs3_tree.c)
 * against messages written word by word from RFC 1813's XDR (§2.5, §2.6,
 * §3.3.x, Appendix I) and RFC 5531 §9, never produced by the code under
 * test.  Inputs go through guard_copy(): a read one byte past a message
 * faults.
 */
#include <stdio.h>
#include <string.h>
#include "nfs3_serve.h"
#include "nfs3_tree.h"
#include "nfs3_xdr.h"
#include "tap.h"

#define W(x) (uint8_t)((uint32_t)(x) >> 24), (uint8_t)((uint32_t)(x) >> 16), \
	(uint8_t)((uint32_t)(x) >> 8), (uint8_t)(x)
/* RFC 5531 call_body: xid, CALL, rpcvers 2, prog, vers, proc, cred
 * AUTH_NONE, verf AUTH_NONE */
#define CALL(xid, prog, vers, proc) W(xid), W(0), W(2), W(prog), W(vers), W(proc), \
	W(0), W(0), W(0), W(0)
/* accepted_reply: xid, REPLY, MSG_ACCEPTED, verf AUTH_NONE, stat */
#define REPLY(xid, stat) W(xid), W(1), W(0), W(0), W(0), W(stat)
/* our handles: "rqtree03" then the fileid (nfs3_tree.h), as nfs_fh3 */
#define FH(id) W(16), 'r', 'q', 't', 'r', 'e', 'e', '0', '3', W(0), W(id)
/* fattr3 (§2.6) of a tree node: type, mode, nlink, uid, gid, size, used,
 * rdev, fsid "rqtree03", fileid, atime, mtime, ctime (2026-01-01) */
#define T 0x6955b900u
#define FATTR(type, mode, nlink, size, used, id) W(type), W(mode), W(nlink), W(0), W(0), \
	W(0), W(size), W(0), W(used), W(0), W(0), W(0x72717472), W(0x65653033), W(0), W(id), \
	W(T), W(0), W(T), W(0), W(T), W(0)

static uint8_t out[NFS3_SERVE_REPLY_MAX];

static struct xdr_r rd(const void *b, size_t n)
{
	return (struct xdr_r){ guard_copy(b, n), n, 0, false };
}

static void decoders(void)
{
	/* READ3args: fh of 5 bytes (3 pad), offset 0x1_00000200, count 8192 */
	static const uint8_t read3[] = { W(5), 1, 2, 3, 4, 5, 0, 0, 0, W(1), W(0x200), W(8192) };
	/* LOOKUP3args: fh of 4 bytes, name "abc" (1 pad) */
	static const uint8_t lookup3[] = { W(4), 9, 8, 7, 6, W(3), 'a', 'b', 'c', 0 };
	/* ACCESS3args: fh of 0 bytes, access READ|LOOKUP|EXECUTE */
	static const uint8_t access3[] = { W(0), W(0x23) };
	/* READDIRPLUS3args: fh of 8, cookie 7, verf "abcdefgh", dircount 512, maxcount 4096 */
	static const uint8_t rdp3[] = { W(8), 1, 1, 1, 1, 2, 2, 2, 2, W(0), W(7),
					'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', W(512), W(4096) };
	/* nfs_fh3 of 65 bytes: over NFS3_FHSIZE */
	static const uint8_t fh65[4 + 68] = { W(65) };
	/* dirpath "/" (3 pad), and one of 1025 bytes: over MNTPATHLEN */
	static const uint8_t path1[] = { W(1), '/', 0, 0, 0 };
	static const uint8_t path1025[4 + 1028] = { W(1025) };
	struct nfs3_READ3args ra;
	struct nfs3_diropargs3 da;
	struct nfs3_ACCESS3args aa;
	struct nfs3_READDIRPLUS3args pa;
	struct nfs3_fh fh;
	struct nfs3_str s;
	struct xdr_r r;
	size_t k;
	int bad = 0;

	r = rd(read3, sizeof(read3));
	tap_ok(nfs3_dec_READ3args(&r, &ra) == 0 && ra.file.len == 5 && ra.file.data[4] == 5 &&
	       ra.offset == 0x100000200ull && ra.count == 8192 && r.off == sizeof(read3),
	       "READ3args: nfs_fh3 with its pad, offset3 as hyper, count3");
	for (k = 0; k < sizeof(read3); k++) {
		r = rd(read3, k);
		bad += nfs3_dec_READ3args(&r, &ra) == -1 && r.bad;
	}
	tap_ok(bad == (int)sizeof(read3), "READ3args cut at each of its %zu lengths: -1, bad set",
	       sizeof(read3));
	{
		/* WRITE3args (§3.3.7): fh of 4, offset 9, count 3, FILE_SYNC, data
		 * "xyz" (1 pad); COMMIT3args (§3.3.21): fh of 4, offset 9, count 3 */
		static const uint8_t write3[] = { W(4), 1, 2, 3, 4, W(0), W(9), W(3), W(2),
						  W(3), 'x', 'y', 'z', 0 };
		static const uint8_t commit3[] = { W(4), 1, 2, 3, 4, W(0), W(9), W(3) };
		struct nfs3_WRITE3args wa;
		struct nfs3_COMMIT3args ca;
		int wbad = 0, cbad = 0;

		r = rd(write3, sizeof(write3));
		tap_ok(nfs3_dec_WRITE3args(&r, &wa) == 0 && wa.file.len == 4 && wa.offset == 9 &&
		       wa.count == 3 && wa.stable == NFS3_FILE_SYNC && wa.len == 3 &&
		       !memcmp(wa.data, "xyz", 3) && r.off == sizeof(write3),
		       "WRITE3args: nfs_fh3, offset3, count3, stable_how, the data with its pad");
		r = rd(commit3, sizeof(commit3));
		tap_ok(nfs3_dec_COMMIT3args(&r, &ca) == 0 && ca.file.len == 4 && ca.offset == 9 &&
		       ca.count == 3 && r.off == sizeof(commit3), "COMMIT3args: nfs_fh3, offset3, count3");
		for (k = 0; k < sizeof(write3); k++) {
			r = rd(write3, k);
			wbad += nfs3_dec_WRITE3args(&r, &wa) == -1 && r.bad;
		}
		for (k = 0; k < sizeof(commit3); k++) {
			r = rd(commit3, k);
			cbad += nfs3_dec_COMMIT3args(&r, &ca) == -1 && r.bad;
		}
		tap_ok(wbad == (int)sizeof(write3) && cbad == (int)sizeof(commit3),
		       "WRITE3args and COMMIT3args cut at each of their lengths: -1, bad set");
	}
	r = rd(lookup3, sizeof(lookup3));
	tap_ok(nfs3_dec_LOOKUP3args(&r, &da) == 0 && da.dir.len == 4 && da.name.len == 3 &&
	       !memcmp(da.name.s, "abc", 3) && r.off == sizeof(lookup3),
	       "LOOKUP3args: diropargs3 { nfs_fh3 dir; filename3 name }");
	r = rd(lookup3, sizeof(lookup3) - 1);
	tap_ok(nfs3_dec_LOOKUP3args(&r, &da) == -1, "LOOKUP3args without the name's pad byte: -1");
	r = rd(access3, sizeof(access3));
	tap_ok(nfs3_dec_ACCESS3args(&r, &aa) == 0 && aa.object.len == 0 && aa.access == 0x23,
	       "ACCESS3args: empty nfs_fh3, access bits");
	r = rd(rdp3, sizeof(rdp3));
	tap_ok(nfs3_dec_READDIRPLUS3args(&r, &pa) == 0 && pa.dir.len == 8 && pa.cookie == 7 &&
	       !memcmp(pa.cookieverf, "abcdefgh", 8) && pa.dircount == 512 &&
	       pa.maxcount == 4096 && r.off == sizeof(rdp3),
	       "READDIRPLUS3args: cookie3, cookieverf3 (fixed 8), dircount, maxcount");
	r = rd(fh65, sizeof(fh65));
	tap_ok(nfs3_dec_GETATTR3args(&r, &fh) == -1 && r.bad,
	       "nfs_fh3 of 65 bytes (NFS3_FHSIZE is 64): -1");
	r = rd(path1, sizeof(path1));
	tap_ok(mnt3_dec_dirpath(&r, &s) == 0 && s.len == 1 && s.s[0] == '/',
	       "dirpath \"/\" with its 3 pad bytes");
	r = rd(path1025, sizeof(path1025));
	tap_ok(mnt3_dec_dirpath(&r, &s) == -1, "dirpath of 1025 bytes (MNTPATHLEN 1024): -1");
}

static void encoders(void)
{
	static const uint8_t fattr[] = { FATTR(1, 0444, 1, 4099, 8192, 4) };
	/* mountres3_ok: fhandle3 of the root, auth_flavors<> { AUTH_SYS } */
	static const uint8_t mres[] = { FH(1), W(1), W(1) };
	struct nfs3_fattr3 a = { .type = NF3REG, .mode = 0444, .nlink = 1, .size = 4099,
		.used = 8192, .fsid = 0x7271747265653033ull, .fileid = 4, .atime_s = T,
		.mtime_s = T, .ctime_s = T };
	uint8_t buf[128], fh[NFS3_TREE_FHLEN];
	struct xdr_w w = { buf, sizeof(buf), 0, false };
	const uint32_t sys = 1;

	nfs3_enc_fattr3(&w, &a);
	tap_ok(!w.bad && w.n == 84 && !memcmp(buf, fattr, 84), "fattr3: 84 bytes in §2.6's order");
	w = (struct xdr_w){ buf, 83, 0, false };
	nfs3_enc_fattr3(&w, &a);
	tap_ok(w.bad, "fattr3 into 83 bytes: bad");
	nfs3_tree_fh(1, fh);
	w = (struct xdr_w){ buf, sizeof(buf), 0, false };
	mnt3_enc_mountres3_ok(&w, fh, sizeof(fh), &sys, 1);
	tap_ok(!w.bad && w.n == sizeof(mres) && !memcmp(buf, mres, sizeof(mres)),
	       "mountres3_ok: fhandle3, auth_flavors<1> = AUTH_SYS");
}

static size_t serve(const void *call, size_t n, struct nfs3_served *s)
{
	return nfs3_serve(guard_copy(call, n), n, out, sizeof(out), s);
}

static void serve_fixed(void)
{
	static const uint8_t getattr[] = { CALL(0x11, 100003, 3, 1), FH(4) };
	static const uint8_t getattr_r[] = { REPLY(0x11, 0), W(0), FATTR(1, 0444, 1, 4099, 8192, 4) };
	/* LOOKUP "many" in the root: the handle, its attributes, the root's */
	static const uint8_t lookup[] = { CALL(0x12, 100003, 3, 3), FH(1), W(4), 'm', 'a', 'n', 'y' };
	static const uint8_t lookup_r[] = { REPLY(0x12, 0), W(0), FH(6),
		W(1), FATTR(2, 0555, 2, 4096, 4096, 6), W(1), FATTR(2, 0555, 3, 4096, 4096, 1) };
	static const uint8_t lookup_no[] = { CALL(0x13, 100003, 3, 3), FH(6), W(9),
		'e', 'n', 't', 'r', 'y', '-', '3', '0', '0', 0, 0, 0 };
	static const uint8_t mnt[] = { CALL(0x14, 100005, 3, 1), W(1), '/', 0, 0, 0 };
	static const uint8_t mnt_r[] = { REPLY(0x14, 0), W(0), FH(1), W(2), W(1), W(0) };
	static const uint8_t mnt_no[] = { CALL(0x15, 100005, 3, 1), W(2), '/', 'x', 0, 0 };
	static const uint8_t nlm[] = { CALL(0x16, 100021, 4, 0) };
	static const uint8_t v4[] = { CALL(0x17, 100003, 4, 0) };
	static const uint8_t v4_r[] = { REPLY(0x17, 2), W(3), W(3) };
	/* rpcvers 3 (RFC 5531 §9): rejected_reply RPC_MISMATCH, mismatch_info 2..2 */
	static const uint8_t rpc3[] = { W(0x1b), W(0), W(3), W(100003), W(3), W(0), W(0), W(0),
					W(0), W(0) };
	static const uint8_t rpc3_r[] = { W(0x1b), W(1), W(1), W(0), W(2), W(2) };
	static const uint8_t cut[] = { CALL(0x18, 100003, 3, 6), W(16), 'r', 'q' };
	static const uint8_t stale[] = { CALL(0x19, 100003, 3, 1), FH(999) };
	static const uint8_t write[] = { CALL(0x1a, 100003, 3, 7), FH(2), W(0), W(0), W(0), W(0), W(0) };
	static const uint8_t write_r[] = { REPLY(0x1a, 0), W(30), W(0), W(0) };
	/* WRITE3args to /sink (7): offset 0, count 5, UNSTABLE, data "hello"
	 * and its 3 pad bytes; WRITE3resok: wcc_data (no pre_op_attr, the
	 * sink's fattr3: 0666, size 0), count 5, FILE_SYNC, the verifier */
	static const uint8_t wsink[] = { CALL(0x1b, 100003, 3, 7), FH(7), W(0), W(0), W(5), W(0),
		W(5), 'h', 'e', 'l', 'l', 'o', 0, 0, 0 };
	static const uint8_t wsink_r[] = { REPLY(0x1b, 0), W(0), W(0), W(1),
		FATTR(1, 0666, 1, 0, 0, 7), W(5), W(2), 'r', 'q', 's', 'i', 'n', 'k', '0', '1' };
	/* count 6 with 5 bytes of data: NFS3ERR_INVAL */
	static const uint8_t wsink_long[] = { CALL(0x1c, 100003, 3, 7), FH(7), W(0), W(0), W(6),
		W(0), W(5), 'h', 'e', 'l', 'l', 'o', 0, 0, 0 };
	/* WRITE to the directory many (6): ISDIR */
	static const uint8_t wdir[] = { CALL(0x1d, 100003, 3, 7), FH(6), W(0), W(0), W(0), W(0), W(0) };
	/* COMMIT3args of /sink: COMMIT3resok (wcc_data, verifier); of hello.txt: ROFS */
	static const uint8_t csink[] = { CALL(0x1e, 100003, 3, 21), FH(7), W(0), W(0), W(0) };
	static const uint8_t csink_r[] = { REPLY(0x1e, 0), W(0), W(0), W(1),
		FATTR(1, 0666, 1, 0, 0, 7), 'r', 'q', 's', 'i', 'n', 'k', '0', '1' };
	static const uint8_t chello[] = { CALL(0x1f, 100003, 3, 21), FH(2), W(0), W(0), W(0) };
	static const uint8_t chello_r[] = { REPLY(0x1f, 0), W(30), W(0), W(0) };
	/* ACCESS of /sink asking READ|MODIFY|EXTEND|DELETE: all but DELETE */
	static const uint8_t asink[] = { CALL(0x20, 100003, 3, 4), FH(7), W(0x1d) };
	static const uint8_t asink_r[] = { REPLY(0x20, 0), W(0), W(1), FATTR(1, 0666, 1, 0, 0, 7),
		W(0x0d) };
	struct nfs3_served s;
	size_t n;

	n = serve(wsink, sizeof(wsink), &s);
	tap_ok(n == sizeof(wsink_r) && !memcmp(out, wsink_r, n) && s.status == 0,
	       "WRITE of 5 bytes to /sink: NFS3_OK, wcc_data, count 5, FILE_SYNC, the verifier");
	n = serve(wsink_long, sizeof(wsink_long), &s);
	tap_ok(n == 24 + 12 && s.status == NFS3ERR_INVAL,
	       "WRITE to /sink with count 6 and 5 bytes of data: NFS3ERR_INVAL, empty wcc_data");
	n = serve(wdir, sizeof(wdir), &s);
	tap_ok(n == 24 + 12 && s.status == NFS3ERR_ISDIR, "WRITE to a directory: NFS3ERR_ISDIR");
	n = serve(csink, sizeof(csink), &s);
	tap_ok(n == sizeof(csink_r) && !memcmp(out, csink_r, n),
	       "COMMIT of /sink: NFS3_OK, wcc_data, the verifier");
	n = serve(chello, sizeof(chello), &s);
	tap_ok(n == sizeof(chello_r) && !memcmp(out, chello_r, n), "COMMIT of /hello.txt: NFS3ERR_ROFS");
	n = serve(asink, sizeof(asink), &s);
	tap_ok(n == sizeof(asink_r) && !memcmp(out, asink_r, n),
	       "ACCESS of /sink: READ, MODIFY and EXTEND granted, DELETE not");

	n = serve(getattr, sizeof(getattr), &s);
	tap_ok(n == sizeof(getattr_r) && !memcmp(out, getattr_r, n) && s.status == 0,
	       "GETATTR of /odd-4099.bin: NFS3_OK and its fattr3, byte for byte");
	n = serve(lookup, sizeof(lookup), &s);
	tap_ok(n == sizeof(lookup_r) && !memcmp(out, lookup_r, n),
	       "LOOKUP many: nfs_fh3, post_op_attr of it and of the directory");
	n = serve(lookup_no, sizeof(lookup_no), &s);
	tap_ok(n == 24 + 4 + 88 && s.status == NFS3ERR_NOENT, "LOOKUP many/entry-300: NOENT");
	n = serve(mnt, sizeof(mnt), &s);
	tap_ok(n == sizeof(mnt_r) && !memcmp(out, mnt_r, n), "MNT \"/\": MNT3_OK, the root's handle, AUTH_SYS and AUTH_NONE");
	n = serve(mnt_no, sizeof(mnt_no), &s);
	tap_ok(n == 28 && s.status == NFS3ERR_NOENT, "MNT \"/x\": MNT3ERR_NOENT, nothing more");
	n = serve(nlm, sizeof(nlm), &s);
	tap_ok(n == 24 && s.accept_stat == 1, "NLM: PROG_UNAVAIL");
	n = serve(v4, sizeof(v4), &s);
	tap_ok(n == sizeof(v4_r) && !memcmp(out, v4_r, n), "NFS version 4: PROG_MISMATCH 3..3");
	n = serve(rpc3, sizeof(rpc3), &s);
	tap_ok(n == sizeof(rpc3_r) && !memcmp(out, rpc3_r, n) && s.xid == 0x1b,
	       "RPC version 3: MSG_DENIED, RPC_MISMATCH 2..2");
	n = serve(cut, sizeof(cut), &s);
	tap_ok(n == 24 && s.accept_stat == 4, "READ with a cut handle: GARBAGE_ARGS");
	n = serve(stale, sizeof(stale), &s);
	tap_ok(n == 28 && s.status == NFS3ERR_STALE, "GETATTR of our handle for no file: STALE");
	n = serve(write, sizeof(write), &s);
	tap_ok(n == sizeof(write_r) && !memcmp(out, write_r, n),
	       "WRITE: NFS3ERR_ROFS with an empty wcc_data");
	tap_ok(serve(getattr, 20, &s) == 0, "a call cut inside its RPC header: no reply");
}

/* READ: the data at its offset, count, eof, the DDP position */
static void serve_read(void)
{
	uint8_t call[] = { CALL(0x21, 100003, 3, 6), FH(3), W(0), W(1000), W(10) };
	uint8_t call2[] = { CALL(0x22, 100003, 3, 6), FH(3), W(0), W(0), W(0x100000) };
	struct nfs3_served s;
	size_t n, k;
	int wrong = 0;

	n = serve(call, sizeof(call), &s);
	for (k = 0; k < 10; k++)
		wrong += out[s.ddp_off + k] != (1000 + 3 + k) % 251;
	/* header 24, status 4, post_op_attr 88, count 4, eof 4, length 4 */
	tap_ok(n == 24 + 4 + 88 + 12 + 12 && s.ddp_off == 24 + 4 + 88 + 12 && s.ddp_len == 10 &&
	       !wrong && out[s.ddp_off - 8 + 3] == 0 && out[s.ddp_off - 1] == 10,
	       "READ data-1m.bin at 1000, 10 bytes: (i + 3) %% 251, eof false, DDP item at 128");
	n = serve(call2, sizeof(call2), &s);
	tap_ok(s.ddp_len == NFS3_SERVE_RTMAX && n == s.ddp_off + NFS3_SERVE_RTMAX,
	       "READ of 1 MiB: cut to rtmax %u", NFS3_SERVE_RTMAX);
}

/* READDIRPLUS of /many, page after page: every entry once, in order */
static void serve_readdir(void)
{
	uint8_t call[] = { CALL(0x31, 100003, 3, 17), FH(6), W(0), W(0),
			   W(0), W(0), W(8192), W(4096) };
	struct nfs3_served s;
	struct xdr_r r;
	uint64_t seen = 0, cookie = 0, id, ck;
	unsigned calls = 0, wrong = 0;
	bool eof = false;
	char want[32];

	while (!eof && calls < 100) {
		uint32_t len, follows;
		const uint8_t *name, *verf;

		call[sizeof(call) - 18] = (uint8_t)(cookie >> 8);   /* cookie's low word */
		call[sizeof(call) - 17] = (uint8_t)cookie;
		calls++;
		r = (struct xdr_r){ out, serve(call, sizeof(call), &s), 24, false };
		if (xdr_get32(&r) != 0 || xdr_get32(&r) != 1) break;
		xdr_skip(&r, 84);
		verf = r.p + r.off;
		xdr_skip(&r, 8);
		memcpy(call + sizeof(call) - 16, verf, 8);
		while ((follows = xdr_get32(&r)) == 1) {
			id = xdr_get64(&r);
			name = xdr_get_opaque(&r, 255, &len);
			ck = xdr_get64(&r);
			if (xdr_get32(&r) != 1) break;
			xdr_skip(&r, 84);
			if (xdr_get32(&r) != 1) break;
			xdr_skip_opaque(&r);
			if (seen < 2)
				snprintf(want, sizeof(want), "%s", seen ? ".." : ".");
			else
				snprintf(want, sizeof(want), "entry-%03u", (unsigned)(seen - 2));
			wrong += r.bad || !name || len != strlen(want) || memcmp(name, want, len) ||
				 ck != seen + 1 || (seen >= 2 && id != 1000 + seen - 2);
			seen++;
			cookie = ck;
		}
		eof = xdr_get32(&r) == 1;
		if (r.bad || follows != 0 || s.ddp_len) { wrong++; break; }
	}
	tap_ok(eof && seen == 302 && !wrong && calls > 2,
	       "READDIRPLUS /many in %u pages of maxcount 4096: . .. and 300 entries in order, "
	       "cookies the next index (%u wrong)", calls, wrong);
	call[sizeof(call) - 1] = 100;         /* maxcount 100: not one entry fits */
	call[sizeof(call) - 2] = 0;
	call[sizeof(call) - 17] = 0;
	serve(call, sizeof(call), &s);
	tap_ok(s.status == NFS3ERR_TOOSMALL, "READDIRPLUS with maxcount 100: TOOSMALL");
	/* at the end (cookie 302 of /many, the verifier sent back), an empty
	 * list still takes post_op_attr, verifier, end of list and eof: 104
	 * bytes, more than a maxcount of 100 (fuzz_nfs3_serve's finding:
	 * tests/fuzz/regress/fuzz_nfs3_serve/readdirplus-end-maxcount-0) */
	call[sizeof(call) - 18] = 302 >> 8;
	call[sizeof(call) - 17] = 302 & 0xff;
	serve(call, sizeof(call), &s);
	tap_ok(s.status == NFS3ERR_TOOSMALL,
	       "READDIRPLUS at the end (cookie 302) with maxcount 100: TOOSMALL, not a 104-byte resok");
	call[sizeof(call) - 1] = 104;         /* 104: the empty resok fits */
	tap_ok(serve(call, sizeof(call), &s) == 24 + 4 + 88 + 8 + 8 && s.status == NFS3_OK,
	       "READDIRPLUS at the end with maxcount 104: an empty list, eof");
	call[sizeof(call) - 18] = 0;
	call[sizeof(call) - 2] = 0x10;
	call[sizeof(call) - 17] = 5;          /* cookie 5 with a wrong verifier */
	call[sizeof(call) - 16] ^= 0xff;
	serve(call, sizeof(call), &s);
	tap_ok(s.status == NFS3ERR_BAD_COOKIE, "READDIRPLUS at cookie 5 with another verifier: BAD_COOKIE");
}

static void tree(void)
{
	uint8_t b[64], fh[NFS3_TREE_FHLEN];
	struct nfs3_node n;
	bool eof, stale;
	size_t got;

	got = nfs3_tree_read(2, 0, sizeof(b), b, &eof);
	tap_ok(got == 43 && eof && !memcmp(b, "Hello from rpcrdma-conform's NFSv3 export.\n", 43),
	       "hello.txt: its 43 bytes, eof");
	got = nfs3_tree_read(4, 4090, sizeof(b), b, &eof);
	tap_ok(got == 9 && eof && b[0] == (4090 + 4) % 251, "odd-4099.bin from 4090: the last 9 bytes");
	tap_ok(nfs3_tree_read(5, 0, sizeof(b), b, &eof) == 0 && eof, "empty: nothing, eof");
	tap_ok(nfs3_tree_get(1299, &n) && !strcmp(n.name, "entry-299") && !nfs3_tree_get(1300, &n),
	       "many/entry-299 is there, entry-300 not");
	nfs3_tree_fh(3, fh);
	tap_ok(nfs3_tree_fh_fileid(fh, sizeof(fh), &stale) == 3 &&
	       nfs3_tree_fh_fileid(fh, sizeof(fh) - 1, &stale) == 0 && !stale,
	       "a handle's fileid back; one byte short is no handle of ours");
}

int main(void)
{
	decoders();
	encoders();
	serve_fixed();
	serve_read();
	serve_readdir();
	tree();
	return tap_done();
}
