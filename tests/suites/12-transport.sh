#!/usr/bin/env bash
# The transport's unit tests over the fake verbs (tests/transport), plain
# and under ASan+UBSan (leak checking on): TAP merged into one stream.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
"$TOP/tests/unit/run-unit.sh" "$BUILD/transport" "(transport) " > "$BUILD/transport/.tap" 2>&1; rc1=$?
"$TOP/tests/unit/run-unit.sh" "$BUILD/asan-transport" "(transport asan+ubsan) " > "$BUILD/asan-transport/.tap" 2>&1; rc2=$?
# renumber the two streams into one
awk '/^(not )?ok [0-9]+/ { n++; sub(/ok [0-9]+/, "ok " n); print; next }
     /^1\.\./ { next } { print } END { print "1.." n }' "$BUILD/transport/.tap" "$BUILD/asan-transport/.tap"
[ "$rc1" -eq 0 ] && [ "$rc2" -eq 0 ]
