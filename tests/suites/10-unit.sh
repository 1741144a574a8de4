#!/usr/bin/env bash
# C unit tests of libcodec, plain build: TAP from each test binary,
# renumbered into one stream (a missing binary is a failure).
exec "$TOP/tests/unit/run-unit.sh" "$BUILD/unit" "" "$TOP/tests/unit"
