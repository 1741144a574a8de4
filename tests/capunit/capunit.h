/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * capunit.h - helpers of the capture pipeline's unit tests: a run whose
 * output goes to memory, and frames built by hand from the RFCs and IBTA
 * (Ethernet/IPv4/TCP, MPA FPDUs, native InfiniBand packets), with CRCs
 * from the pipeline's own functions once their check values have passed.
 */
#ifndef CAPUNIT_H
#define CAPUNIT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "cap_state.h"
#include "tap.h"

struct run {
	struct cap_state *st;
	FILE *out;
	char *buf;
	size_t len;
	uint64_t frame;
	/* when set (run_record): every frame also appended to a pcap file
	 * in memory, Ethernet (DLT 1), for the redactor's tests */
	uint8_t *pcap;
	size_t pcap_len, pcap_cap;
};

void run_open(struct run *r);
/* the lines printed so far */
unsigned run_lines(struct run *r);
/* does the output hold `s`? */
bool run_has(struct run *r, const char *s);
/* ends the source (conversations close), keeps the state */
void run_end_source(struct run *r);
int run_close(struct run *r);
/* one frame of link type dlt */
void run_frame(struct run *r, int dlt, const uint8_t *p, uint32_t len);
/* from now on, the frames also written to r->pcap (a pcap file, DLT 1,
 * of at most `cap` bytes: past it, frames are not recorded); freed by
 * run_close */
void run_record(struct run *r, size_t cap);
/* every frame of a pcap file in memory (as run_record writes) to r */
void run_pcap(struct run *r, const uint8_t *b, size_t n);

/* an RDMA_MSG (V1 5.2) with no chunks carrying an NFSv3 NULL call or
 * its reply; returns its length */
uint32_t msg_null(uint8_t *b, uint32_t xid, bool reply);

/* an MPA FPDU (RFC 5044 4.1, no markers) of an untagged DDP Send on queue
 * 0 (RFC 5041 5.2, RFC 5040 4.2); CRC32c when crc; returns its length */
uint32_t fpdu_send(uint8_t *b, uint32_t msn, const uint8_t *msg,
		   uint32_t len, bool crc);
/* an MPA Request or Reply frame (RFC 5044 7.1), flags M and C */
uint32_t mpa_frame(uint8_t *b, bool req, bool crc);

/* Ethernet + IPv4 + TCP from side `from` (0: 198.18.0.2:40001, the
 * client; 1: 198.18.0.1:20049) and its frame to r */
void tcp_frame(struct run *r, int from, uint32_t seq, uint32_t ack,
	       uint8_t flags, const uint8_t *data, uint32_t len);

/* a native InfiniBand packet (DLT_INFINIBAND: LRH, BTH, payload, ICRC,
 * VCRC) from LID `slid` to `dlid`, QP dqp, PSN psn; returns its length */
uint32_t ib_packet(uint8_t *b, uint16_t slid, uint16_t dlid, uint8_t op,
		   uint32_t dqp, uint32_t psn, const uint8_t *pl, uint32_t n);

#endif
