#!/usr/bin/env bash
# The live RDMA suite (tests/live: a qemu guest with Soft-RoCE, soft-iWARP and
# the kernel's NFS/RDMA server) as part of make check.  It builds or reuses
# the cached guest image and skips itself, saying why, when this host cannot
# run the guest.  RPCRDMA_LIVE=0 skips it on purpose (a quick local run);
# `make check-live` runs it alone.
set -u
if [ "${RPCRDMA_LIVE:-1}" = 0 ]; then
	echo "ok 1 - live RDMA suite # SKIP RPCRDMA_LIVE=0 (run make check-live for it)"
	echo "1..1"
	exit 0
fi
cd "$TOP" || exit 2
# this suite's guest is bookworm's, whatever LIVE_SUITE / RPCRDMA_LIVE_SUITE say;
# Debian 13's kernel is 91-live-trixie.sh (a subset of the cases)
LIVE_SUITE=bookworm RPCRDMA_LIVE_SUITE=bookworm exec bash tests/live/smoke.sh
