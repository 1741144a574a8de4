#!/usr/bin/env bash
# 06-runner.sh - tests of the runner itself (tests/runner/runner.bats): a
# suite that vanishes, stops early, plans 1..0 or skips for an unlisted
# reason fails make check; so do a lost build output and a decoder without
# --json; and the live test bed's watchdog stops a hung guest
# (tests/runner/run-guest.bats, a stand-in qemu); the soak's RSS verdict
# (tests/runner/case-lib.bats); the live cache rules (tests/runner/live-lib.bats).  TAP.
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
export TOP BUILD=${BUILD:-$TOP/build}
exec bats --tap "$TOP/tests/runner/runner.bats" "$TOP/tests/runner/run-guest.bats" "$TOP/tests/runner/case-lib.bats" \
	"$TOP/tests/runner/live-lib.bats"
