/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fuzz_capture.c - libFuzzer target: the whole capture pipeline behind
 * `rpcrdma-decode -r` (libpcap, link, IP/UDP/TCP, IB BTH and ICRC, iWARP
 * MPA/DDP/RDMAP and TCP reassembly, Send and chunk reassembly, conversations,
 * lint, stats, every printer) on any file.  The input is the capture file,
 * handed to libpcap through a memfd; its size picks the output mode.
 * Seeded with the generated and real captures (tests/fuzz/run.sh).
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>
#include "capture.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	/* the messages go nowhere (run with -close_fd_mask=2 to silence the
	 * tool's complaints about bad input: libFuzzer keeps its own stderr) */
	return freopen("/dev/null", "w", stdout) ? 0 : 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64];
	const char *files[1] = { path };
	struct cap_opts o = { .roce_port = 4791 };
	int fd = memfd_create("capture", 0);

	if (fd < 0)
		return 0;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return 0;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	switch (size % 4) {
	case 0: o.json = true; break;
	case 1: o.verbose = true; break;
	case 2: break;                          /* one line per message */
	case 3: o.check = o.stats = true; break;
	}
	cap_run(&o, files, 1);
	close(fd);
	return 0;
}
