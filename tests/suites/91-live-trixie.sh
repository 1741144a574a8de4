#!/usr/bin/env bash
# The live RDMA suite on Debian 13's kernel (trixie, Linux 6.12) as part of
# make check (issue 24): the same smoke.sh as 90-live.sh, in a guest made of
# trixie's packages (tests/live/build-image-release.sh, cached by their exact
# versions), with the cases the issue names -- the guest's own set-up (devices,
# rping, NFSv3 and NFSv4.1 mounts captured and decoded by tshark and
# rpcrdma-decode) and conform (against knfsd and rpcrdma-echo), decode-live,
# echo, ping and bench -- over rxe and siw.  The whole trixie suite is
# `make check-live LIVE_SUITE=trixie`; what 6.12 does differently is
# docs/kernels.md.  RPCRDMA_LIVE=0 skips it as it skips 90-live.
set -u
if [ "${RPCRDMA_LIVE:-1}" = 0 ]; then
	echo "ok 1 - live RDMA suite on Debian 13's kernel # SKIP RPCRDMA_LIVE=0 (run make check-live LIVE_SUITE=trixie for it)"
	echo "1..1"
	exit 0
fi
cd "$TOP" || exit 2
# the repository's captures are 90-live's (RPCRDMA_LIVE_REPO_CAPTURES=0);
# the results go beside its own (build/live/smoke-trixie)
LIVE_SUITE=trixie RPCRDMA_LIVE_SUITE=trixie \
	RPCRDMA_LIVE_CASES=${RPCRDMA_LIVE_TRIXIE_CASES:-"conform decode-live echo ping bench"} \
	RPCRDMA_LIVE_OUT=$BUILD/live/smoke-trixie RPCRDMA_LIVE_REPO_CAPTURES=0 \
	exec bash tests/live/smoke.sh
