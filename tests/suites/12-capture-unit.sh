#!/usr/bin/env bash
# 12-capture-unit.sh - unit tests of the capture pipeline (tests/capunit):
# TCP reassembly, MPA framing, PSN windows, buffer budgets, the checked
# cursor, CRCs and time stamps; plain, then under ASan+UBSan.  TAP, one
# stream (tests/tap-merge.awk: a stream cut short is a failure).
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
export TOP BUILD=${BUILD:-$TOP/build}
"$TOP/tests/unit/need-builds.sh" "$BUILD/capunit" "$BUILD/capunit-asan" || exit 1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$TOP/tests/unit/run-unit.sh" "$BUILD/capunit" "" "$TOP/tests/capunit" >"$tmp/plain" 2>&1; rc1=$?
"$TOP/tests/unit/run-unit.sh" "$BUILD/capunit-asan" "asan " "$TOP/tests/capunit" >"$tmp/asan" 2>&1; rc2=$?
awk -f "$TOP/tests/tap-merge.awk" "$tmp/plain" "$tmp/asan"
[ "$rc1" -eq 0 ] && [ "$rc2" -eq 0 ]
