#!/usr/bin/env bash
# 32-lint.sh - rpcrdma-decode --check: exactly the planted violations of
# every lint capture, thresholds at their edges (tests/cli/lint.bats).  TAP.
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
export TOP BUILD=${BUILD:-$TOP/build}
export BIN=${BIN:-$BUILD/bin}
exec bats --tap "$TOP/tests/cli/lint.bats"
