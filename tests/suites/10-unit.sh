#!/usr/bin/env bash
# C unit tests of libcodec, plain build: TAP from each test binary,
# renumbered into one stream.
exec "$TOP/tests/unit/run-unit.sh" "$BUILD/unit"
