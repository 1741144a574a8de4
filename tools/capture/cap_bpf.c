/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cap_bpf.c - a capture filter expression (pcap-filter(7), what tcpdump
 * takes after its options) applied to the frames of capture files: compiled
 * by libpcap once per link type (pcap_open_dead), run on each frame with
 * pcap_offline_filter().  A frame that does not match is counted, so frame
 * numbers stay those of the file, and goes no further.  (A live capture
 * gives the expression to the kernel instead: cap_live.c.)
 */
#include <pcap/pcap.h>
#include <stdlib.h>
#include <string.h>
#include "cap_state.h"

#define BPF_LINKS 8u                   /* link types with a program */

struct cap_bpf {
	int dlt[BPF_LINKS];
	bool bad[BPF_LINKS];               /* does not compile for it */
	struct bpf_program prog[BPF_LINKS];
	unsigned n;
};

static struct bpf_program *program(struct cap_state *st, int dlt)
{
	struct cap_bpf *b = st->bpf;

	for (unsigned i = 0; i < b->n; i++)
		if (b->dlt[i] == dlt)
			return b->bad[i] ? NULL : &b->prog[i];
	if (b->n == BPF_LINKS)
		return NULL;
	unsigned i = b->n++;
	b->dlt[i] = dlt;
	pcap_t *dead = pcap_open_dead(dlt, 262144);
	if (!dead || pcap_compile(dead, &b->prog[i], st->o->filter, 1,
				  PCAP_NETMASK_UNKNOWN) != 0) {
		const char *n = pcap_datalink_val_to_name(dlt);
		fflush(st->out);
		cap_progress_clear(st);
		fprintf(stderr, "rpcrdma-decode: %s: filter '%s' for link type %s: %s; "
			"its frames are skipped\n", st->file, st->o->filter,
			n ? n : "?", dead ? pcap_geterr(dead) : "out of memory");
		b->bad[i] = true;
	}
	if (dead)
		pcap_close(dead);
	return b->bad[i] ? NULL : &b->prog[i];
}

bool cap_bpf_match(struct cap_state *st, int dlt, const struct cap_frame *f)
{
	struct pcap_pkthdr h = { .caplen = f->len, .len = f->wire_len };

	if (!st->bpf && !(st->bpf = calloc(1, sizeof(*st->bpf))))
		return false;
	const struct bpf_program *p = program(st, dlt);
	return p && pcap_offline_filter(p, &h, f->p) != 0;
}

void cap_bpf_free(struct cap_state *st)
{
	struct cap_bpf *b = st->bpf;

	for (unsigned i = 0; b && i < b->n; i++)
		if (!b->bad[i])
			pcap_freecode(&b->prog[i]);
	free(b);
	st->bpf = NULL;
}
