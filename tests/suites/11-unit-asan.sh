#!/usr/bin/env bash
# The same C unit tests built with -fsanitize=address,undefined (a missing
# binary is a failure).
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
exec "$TOP/tests/unit/run-unit.sh" "$BUILD/asan" "(asan+ubsan) " "$TOP/tests/unit"
