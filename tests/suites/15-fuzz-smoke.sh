#!/usr/bin/env bash
# Every libFuzzer target for 100k inputs, so that a crash fails CI.
exec "$TOP/tests/fuzz/run.sh" -runs=100000
