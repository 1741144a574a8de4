#!/usr/bin/env bash
# 25-ping.sh - rpcrdma-ping: the unit tests of its pure parts (plain and
# under ASan+UBSan) and its command line (tests/cli/ping.bats).  One TAP
# stream (tests/tap-merge.awk); a missing build or binary is a failure.
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
export TOP BUILD=${BUILD:-$TOP/build} BIN=${BIN:-${BUILD:-$TOP/build}/bin}
"$TOP/tests/unit/need-builds.sh" "$BUILD/ping-unit" "$BUILD/ping-asan" || exit 1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$TOP/tests/unit/run-unit.sh" "$BUILD/ping-unit" "plain " "$TOP/tests/ping" > "$tmp/plain" 2>&1
rc=$?
"$TOP/tests/unit/run-unit.sh" "$BUILD/ping-asan" "asan " "$TOP/tests/ping" > "$tmp/asan" 2>&1
rc=$((rc | $?))
if [ -x "$BIN/rpcrdma-ping" ]; then
	bats --tap "$TOP/tests/cli/ping.bats" > "$tmp/bats" 2>&1
	rc=$((rc | $?))
else
	printf 'not ok 1 - ping.bats: no %s (not built), its tests did not run\n1..1\n' "$BIN/rpcrdma-ping" > "$tmp/bats"
	rc=1
fi
awk -f "$TOP/tests/tap-merge.awk" "$tmp/plain" "$tmp/asan" "$tmp/bats"
exit $rc
