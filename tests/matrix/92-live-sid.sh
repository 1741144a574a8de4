#!/usr/bin/env bash
# 92-live-sid: the live RDMA suite (tests/live/smoke.sh) in a Debian unstable
# guest (LIVE_SUITE=sid: sid's linux-image-amd64, 7.2 when this was written,
# rxe and a siw.ko built in a sid build root), every default case over rxe and
# siw; make check-matrix only (unstable moves daily; make check's 90-live is
# bookworm's).  Its own output directory ($BUILD/live/smoke-sid), and the
# repository's captures are left to 90-live (RPCRDMA_LIVE_REPO_CAPTURES=0).
# The guests' deadlines are smoke.sh's (RPCRDMA_LIVE_TIMEOUT: a guest silent
# for 900 s is stopped, one that talks is stopped at four times that).
# RPCRDMA_LIVE=0 skips it as it skips 90-live.  What sid's kernel does
# differently from 6.1 and 6.12: docs/kernels.md.
set -u
if [ "${RPCRDMA_LIVE:-1}" = 0 ]; then
	echo "ok 1 - live RDMA suite in the sid guest # SKIP RPCRDMA_LIVE=0 (run make check-live LIVE_SUITE=sid for it)"
	echo "1..1"
	exit 0
fi
cd "$TOP" || exit 2
LIVE_SUITE=sid RPCRDMA_LIVE_SUITE=sid RPCRDMA_LIVE_OUT="$BUILD/live/smoke-sid" RPCRDMA_LIVE_REPO_CAPTURES=0 \
	exec bash tests/live/smoke.sh
