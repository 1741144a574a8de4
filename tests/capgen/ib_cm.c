/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * ib_cm.c - connection establishment as rdma_cm does it on RoCE and
 * InfiniBand: three CM MADs (IBTA vol. 1 §12.6: ConnectRequest §12.6.5,
 * ConnectReply §12.6.8, ReadyToUse §12.6.9) sent as UD SEND ONLY to QP1
 * (BTH + DETH with the GSI Q_Key 0x80010000, §9.3.2; MAD header §13.4.2),
 * Service ID of the IP CM (annex A11: prefix 0x0000000001, protocol TCP,
 * port 20049) and its private data header (IP version, port, addresses).
 * They tell a reader which QPs form the connection and their first PSNs.
 */
#include <string.h>
#include "capgen.h"

#define MAD_LEN 256
#define CM_REQ 0x0010
#define CM_REP 0x0013
#define CM_RTU 0x0014
#define COMM_ID_CLIENT 0xcafe0001u
#define COMM_ID_SERVER 0xcafe0002u

static void mad_header(uint8_t *m, uint16_t attr)
{
	m[0] = 1;                       /* base version */
	m[1] = 0x07;                    /* management class: CM */
	m[2] = 2;                       /* class version */
	m[3] = 0x03;                    /* method: Send */
	put64(m + 8, 0x00000001c0ffee01ull);   /* transaction ID */
	put16(m + 16, attr);
}

static uint64_t mad_send(struct conn *c, int dir, const uint8_t *mad)
{
	uint8_t h[20];

	h[0] = 0x64;                    /* UD SEND ONLY */
	h[1] = 0x00;
	put16(h + 2, 0xffff);
	put32(h + 4, 1);                /* QP1, the GSI */
	put32(h + 8, 0x80000000u);      /* AckReq, PSN 0 */
	put32(h + 12, 0x80010000u);     /* DETH: Q_Key */
	put32(h + 16, 1);               /* source QP 1 */
	return ib_emit(c, dir, h, sizeof(h), mad, MAD_LEN);
}

static void ca_guid(int dir, uint8_t *p)
{
	static const uint8_t g[8] = { 0x00, 0x00, 0x00, 0xff, 0xfe, 0x00, 0x00, 0x00 };

	memcpy(p, g, 8);
	p[0] = 0x02;                    /* from MAC 02:00:00:00:00:0x */
	p[7] = (uint8_t)(1 + dir);
}

void ib_cm_connect(struct conn *c)
{
	uint8_t m[MAD_LEN], *d = m + 24, gid[16];

	/* ConnectRequest, client (side 0) to server */
	memset(m, 0, sizeof(m));
	mad_header(m, CM_REQ);
	put32(d, COMM_ID_CLIENT);
	put32(d + 8, 0x00000001u);      /* Service ID: IP CM prefix, */
	d[13] = 0x06;                   /* TCP, */
	put16(d + 14, NFSRDMA_PORT);    /* port 20049 */
	ca_guid(0, d + 16);
	put32(d + 32, c->qpn[0] << 8 | 0x10);    /* QPN, responder resources */
	d[39] = 0x10;                   /* initiator depth */
	d[43] = 0x14 << 3;              /* remote CM response timeout, RC */
	put32(d + 44, c->psn[0] << 8 | 0x14 << 3 | 7);   /* PSN, timeout, retry */
	put16(d + 48, 0xffff);          /* P_Key */
	d[50] = (uint8_t)((c->mtu == 256 ? 1 : c->mtu == 512 ? 2 : c->mtu == 1024 ? 3 :
			   c->mtu == 2048 ? 4 : 5) << 4 | 7);  /* MTU, RNR retry */
	d[51] = 0xf0;                   /* max CM retries */
	put16(d + 52, c->pa.net == NET_LRH ? c->pa.lid[0] : 0xffff);
	put16(d + 54, c->pa.net == NET_LRH ? c->pa.lid[1] : 0xffff);
	side_gid(&c->pa, 0, d + 56);
	side_gid(&c->pa, 1, d + 72);
	d[91] = 0x1f;                   /* packet rate */
	d[93] = 64;                     /* hop limit */
	d[94] = c->pa.net == NET_LRH ? 0x08 : 0x00;   /* subnet local */
	d[95] = 0x13 << 3;              /* local ACK timeout */
	/* IP CM private data: version 0, IPv4/IPv6, source port, addresses */
	d[141] = c->pa.net == NET_IPV6 ? 0x60 : 0x40;
	put16(d + 142, 40001);
	side_gid(&c->pa, 0, gid);
	if (c->pa.net == NET_IPV6)
		memcpy(d + 144, gid, 16);
	else
		memcpy(d + 156, gid + 12, 4);
	side_gid(&c->pa, 1, gid);
	if (c->pa.net == NET_IPV6)
		memcpy(d + 160, gid, 16);
	else
		memcpy(d + 172, gid + 12, 4);
	mad_send(c, 0, m);

	/* ConnectReply, server to client */
	memset(m, 0, sizeof(m));
	mad_header(m, CM_REP);
	put32(d, COMM_ID_SERVER);
	put32(d + 4, COMM_ID_CLIENT);
	put32(d + 12, c->qpn[1] << 8);
	put32(d + 20, c->psn[1] << 8);
	d[24] = 0x10;                   /* responder resources */
	d[25] = 0x10;                   /* initiator depth */
	d[27] = 7 << 5;                 /* RNR retry count */
	ca_guid(1, d + 28);
	mad_send(c, 1, m);

	/* ReadyToUse, client to server */
	memset(m, 0, sizeof(m));
	mad_header(m, CM_RTU);
	put32(d, COMM_ID_CLIENT);
	put32(d + 4, COMM_ID_SERVER);
	mad_send(c, 0, m);
}
