#!/usr/bin/env bash
# 31-crafted.sh - hand-made hostile captures (tests/captures/crafted): no
# crash, no sanitizer report, the fault named (tests/cli/crafted.bats); every
# bounded table full, in a small-table build (tests/cli/limits.bats).  TAP.
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
export TOP BUILD=${BUILD:-$TOP/build}
export BIN=${BIN:-$BUILD/bin}
exec bats --tap "$TOP/tests/cli/crafted.bats" "$TOP/tests/cli/limits.bats" \
	"$TOP/tests/cli/connparams.bats"
