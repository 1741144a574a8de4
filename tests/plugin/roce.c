/* roce.c - RoCEv2 frames for the plugin's test captures: Ethernet, IPv4, UDP, BTH, ICRC, and the expected decode in rpcrdma-decode --json's keys. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "roce.h"

void put16(uint8_t *p, uint16_t v) { p[0] = v >> 8; p[1] = v & 0xff; }
void put32(uint8_t *p, uint32_t v)
{
	put16(p, v >> 16);
	put16(p + 2, v & 0xffff);
}
void put64(uint8_t *p, uint64_t v)
{
	put32(p, (uint32_t)(v >> 32));
	put32(p + 4, (uint32_t)v);
}
void le32(uint8_t *p, uint32_t v)
{
	p[0] = v & 0xff; p[1] = (v >> 8) & 0xff;
	p[2] = (v >> 16) & 0xff; p[3] = v >> 24;
}

static uint16_t ip_csum(const uint8_t *p, size_t n)
{
	uint32_t s = 0;
	size_t i;

	for (i = 0; i + 1 < n; i += 2)
		s += (uint32_t)(p[i] << 8 | p[i + 1]);
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return (uint16_t)~s;
}

/* CRC-32 (IEEE, reflected), no final inversion */
static uint32_t crc32_le(uint32_t crc, const uint8_t *p, size_t n)
{
	int k;

	while (n--) {
		crc ^= *p++;
		for (k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1)));
	}
	return crc;
}

/* RoCEv2 ICRC (IBTA Annex A17.3.3): over a masked LRH (8 x 0xff), the IPv4
 * and UDP headers with TOS, TTL and both checksums all ones, the BTH with
 * its reserved byte all ones, then the rest of the packet. */
static void icrc(uint8_t *ip, size_t len_from_ip)
{
	static const uint8_t ones[8] = { 0xff, 0xff, 0xff, 0xff,
					 0xff, 0xff, 0xff, 0xff };
	uint8_t ph[20 + 8 + 12];
	uint32_t crc;
	size_t n = len_from_ip - 4;

	memcpy(ph, ip, sizeof ph);
	ph[1] = 0xff;                  /* TOS */
	ph[8] = 0xff;                  /* TTL */
	ph[10] = ph[11] = 0xff;        /* IP checksum */
	ph[26] = ph[27] = 0xff;        /* UDP checksum */
	ph[32] = 0xff;                 /* BTH resv8a */
	crc = crc32_le(0xffffffffu, ones, sizeof ones);
	crc = crc32_le(crc, ph, sizeof ph);
	crc = crc32_le(crc, ip + sizeof ph, n - sizeof ph);
	le32(ip + n, ~crc);
}

/* One RoCEv2 packet: Ethernet, IPv4, UDP 4791, BTH [, RETH] [, AETH],
 * payload, ICRC (not checked by Wireshark by default). */
void packet(struct out *o, int dir, uint8_t opcode, const uint8_t *reth,
		   bool aeth, const uint8_t *pl, size_t n)
{
	static uint8_t f[9000];
	uint8_t rec[16];
	size_t ext = (reth ? 16 : 0) + (aeth ? 4 : 0), pad = (4 - n % 4) % 4;
	size_t udp_len = 8 + 12 + ext + n + pad + 4, ip_len = 20 + udp_len;
	size_t len = 14 + ip_len, off;
	uint32_t psn;

	if (opcode == READ_RESPONSE_ONLY)   /* answers the request's PSN */
		psn = o->psn[o->conn][!dir] - 1;
	else
		psn = o->psn[o->conn][dir]++;
	memset(f, 0, len);
	memcpy(f, dir ? "\x02\0\0\0\0\x01" : "\x02\0\0\0\0\x02", 6);
	memcpy(f + 6, dir ? "\x02\0\0\0\0\x02" : "\x02\0\0\0\0\x01", 6);
	put16(f + 12, 0x0800);
	off = 14;
	f[off] = 0x45;
	put16(f + off + 2, (uint16_t)ip_len);
	put16(f + off + 6, 0x4000);
	f[off + 8] = 64;
	f[off + 9] = 17;
	memcpy(f + off + 12, dir ? "\x0a\0\0\x02" : "\x0a\0\0\x01", 4);
	memcpy(f + off + 16, dir ? "\x0a\0\0\x01" : "\x0a\0\0\x02", 4);
	put16(f + off + 10, ip_csum(f + off, 20));
	off += 20;
	put16(f + off, dir ? 0xc001 : 0xc002);
	put16(f + off + 2, 4791);
	put16(f + off + 4, (uint16_t)udp_len);
	off += 8;
	f[off] = opcode;
	f[off + 1] = (uint8_t)(pad << 4);                  /* pad count */
	put16(f + off + 2, 0xffff);
	put32(f + off + 4, o->other_qp ? o->other_qp
				       : (dir ? 0x11u : 0x12u) +
					 0x100u * o->conn);    /* dest QP */
	put32(f + off + 8, psn & 0xffffff);
	off += 12;
	if (reth) {
		memcpy(f + off, reth, 16);
		off += 16;
	}
	if (aeth) {
		put32(f + off, 0x1f000000 | (psn & 0xffffff));
		off += 4;
	}
	if (n)
		memcpy(f + off, pl, n);
	off += n + pad + 4;
	icrc(f + 14, ip_len);
	o->frame++;
	le32(rec, o->frame);                               /* ts: 1 s apart */
	le32(rec + 4, 0);
	le32(rec + 8, (uint32_t)len);
	le32(rec + 12, (uint32_t)len);
	fwrite(rec, 1, 16, o->pcap);
	fwrite(f, 1, len, o->pcap);
}

void reth_of(uint8_t *r, uint32_t handle, uint64_t va, uint32_t len)
{
	put64(r, va);
	put32(r + 8, handle);
	put32(r + 12, len);
}

/* ---- expected decode, in rpcrdma-decode --json's keys ---- */
static void seg_json(FILE *f, const struct rpcrdma_segment *s)
{
	fprintf(f, "{\"handle\":%u,\"length\":%u,\"offset\":%llu}",
		s->rdma_handle, s->rdma_length,
		(unsigned long long)s->rdma_offset);
}

static void segs_json(FILE *f, struct rpcrdma_seg_iter *si)
{
	struct rpcrdma_segment s;
	bool first = true;

	fputc('[', f);
	while (rpcrdma_seg_next(si, &s)) {
		if (!first)
			fputc(',', f);
		seg_json(f, &s);
		first = false;
	}
	fputc(']', f);
}

void expect(struct out *o, const uint8_t *b, size_t n)
{
	struct rpcrdma_msg m;
	struct rpcrdma_read_iter ri;
	struct rpcrdma_read_segment rs;
	struct rpcrdma_chunk_iter ci;
	struct rpcrdma_seg_iter si;
	const char *dir;
	FILE *f = o->expect;
	bool first = true;
	unsigned i;

	if (!f)
		return;
	rpcrdma_decode(b, n, &m);
	fprintf(f, "{\"frame\":%u", o->frame);
	if (m.nfixed >= 1) fprintf(f, ",\"xid\":%u", m.rdma_xid);
	if (m.nfixed >= 2) fprintf(f, ",\"vers\":%u", m.rdma_vers);
	if (m.nfixed >= 3) fprintf(f, ",\"credits\":%u", m.rdma_credit);
	if (m.nfixed >= 4) fprintf(f, ",\"proc\":%u", m.rdma_proc);
	dir = rpcrdma_direction_name(m.direction);
	if (dir)
		fprintf(f, ",\"direction\":\"%s\"", dir);
	else
		fprintf(f, ",\"direction\":null");
	if (m.reads_off) {
		fprintf(f, ",\"reads\":[");
		rpcrdma_read_iter_init(&m, &ri);
		while (rpcrdma_read_next(&ri, &rs)) {
			fprintf(f, "%s{\"position\":%u,\"handle\":%u,\"length\":%u,"
				"\"offset\":%llu}", first ? "" : ",",
				rs.rdma_position, rs.rdma_target.rdma_handle,
				rs.rdma_target.rdma_length,
				(unsigned long long)rs.rdma_target.rdma_offset);
			first = false;
		}
		fputc(']', f);
	}
	if (m.writes_off) {
		fprintf(f, ",\"writes\":[");
		rpcrdma_write_iter_init(&m, &ci);
		first = true;
		while (rpcrdma_write_next(&ci, &si)) {
			if (!first)
				fputc(',', f);
			segs_json(f, &si);
			first = false;
		}
		fputc(']', f);
	}
	if (rpcrdma_reply_chunk(&m, &si)) {
		fprintf(f, ",\"reply\":");
		segs_json(f, &si);
	}
	if (m.has_err) {
		fprintf(f, ",\"error\":{\"code\":%u", m.rdma_err);
		if (m.has_vrange)
			fprintf(f, ",\"low\":%u,\"high\":%u", m.rdma_vers_low,
				m.rdma_vers_high);
		fputc('}', f);
	}
	if (m.has_optional)
		fprintf(f, ",\"optional\":{\"direction\":\"%s\",\"type\":%u,"
			"\"info_length\":%u}",
			rpcrdma_direction_name((int)m.rdma_optdir),
			m.rdma_opttype, m.optinfo_len);
	fprintf(f, ",\"notes\":[");
	for (i = 0, first = true; i < RPCRDMA_NOTE_COUNT_; i++) {
		if (m.notes & (1u << i)) {
			fprintf(f, "%s\"%s\"", first ? "" : ",",
				rpcrdma_note_name(1u << i));
			first = false;
		}
	}
	fprintf(f, "]");
	fprintf(f, ",\"verdict\":{\"action\":\"%s\",\"reason\":\"%s\"}}\n",
		rpcrdma_action_name(m.action), rpcrdma_reason_name(m.reason));
}

/* A whole message in one SEND ONLY */
void send_msg(struct out *o, int dir, const uint8_t *b, size_t n)
{
	packet(o, dir, SEND_ONLY, NULL, false, b, n);
	expect(o, b, n);
}

/* Header + RPC payload */
size_t build(uint8_t *buf, size_t cap, const struct rpcrdma_hdr *h,
		    const uint8_t *rpc, size_t rpc_len)
{
	size_t n = rpcrdma_encode(h, buf, cap, NULL);

	if (!n || n + rpc_len > cap) {
		fprintf(stderr, "mkpcap: encode failed\n");
		exit(1);
	}
	if (rpc_len)
		memcpy(buf + n, rpc, rpc_len);
	return n + rpc_len;
}

size_t nfs_call(uint8_t *b, uint32_t xid, uint32_t proc, size_t extra)
{
	size_t n = rpc_encode_call(b, 512, xid, RPC_PROG_NFS, 3, proc);

	memset(b + n, 0, extra);
	put32(b + n, 8);                    /* a file handle: length 8 */
	memcpy(b + n + 4, "FH000001", 8);
	return n + extra;
}

size_t nfs_reply(uint8_t *b, uint32_t xid, size_t extra)
{
	size_t n = rpc_encode_accepted_reply(b, 512, xid, RPC_SUCCESS);

	memset(b + n, 0, extra);             /* NFS3_OK and zeroed results */
	return n + extra;
}
