#!/usr/bin/env bash
# Every libFuzzer target for 100k inputs, so that a crash fails CI; then the
# runner's own tests (tests/fuzz/run.bats, over stand-in targets).
"$TOP/tests/fuzz/run.sh" -runs=100000
rc=$?
bats --tap "$TOP/tests/fuzz/run.bats" || rc=1
exit $rc
