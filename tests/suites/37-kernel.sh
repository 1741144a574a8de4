#!/usr/bin/env bash
# 37-kernel.sh - the kernel's own view (issue 25): rpcrdma-stat's and
# rpcrdma-trace's parsers' unit tests (plain and under ASan+UBSan) and
# tests/kernel/kernel.bats over the samples kept from the test bed
# (tests/captures/kernel).  One TAP stream; a missing build is a failure.
# Measured 11-27 at a load average of 15 on 2 cores: the 19 bats tests 29 s;
# the 300 s bound is the deadline of a hang, not the aim.
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
export TOP BUILD=${BUILD:-$TOP/build} BIN=${BIN:-${BUILD:-$TOP/build}/bin}
"$TOP/tests/unit/need-builds.sh" "$BUILD/kernel-unit" "$BUILD/kernel-asan" || exit 1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$TOP/tests/unit/run-unit.sh" "$BUILD/kernel-unit" "plain " "$TOP/tests/kernel" > "$tmp/plain" 2>&1
rc=$?
"$TOP/tests/unit/run-unit.sh" "$BUILD/kernel-asan" "asan " "$TOP/tests/kernel" > "$tmp/asan" 2>&1
rc=$((rc | $?))
timeout 300 bats --tap "$TOP/tests/kernel/kernel.bats" > "$tmp/bats" 2>&1
rc=$((rc | $?))
awk -f "$TOP/tests/tap-merge.awk" "$tmp/plain" "$tmp/asan" "$tmp/bats"
exit $rc
