#!/usr/bin/env bash
# The transport's unit tests over the fake verbs (tests/transport), plain
# and under ASan+UBSan (leak checking on): TAP merged into one stream
# (tests/tap-merge.awk: a stream cut short is a failure).
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
"$TOP/tests/unit/need-builds.sh" "$BUILD/transport" "$BUILD/asan-transport" || exit 1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$TOP/tests/unit/run-unit.sh" "$BUILD/transport" "(transport) " "$TOP/tests/transport" > "$tmp/plain" 2>&1; rc1=$?
"$TOP/tests/unit/run-unit.sh" "$BUILD/asan-transport" "(transport asan+ubsan) " "$TOP/tests/transport" > "$tmp/asan" 2>&1; rc2=$?
awk -f "$TOP/tests/tap-merge.awk" "$tmp/plain" "$tmp/asan"
[ "$rc1" -eq 0 ] && [ "$rc2" -eq 0 ]
