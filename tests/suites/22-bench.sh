#!/usr/bin/env bash
# 22-bench.sh - rpcrdma-bench's command line and outputs (tests/cli/bench.bats;
# the live runs are tests/live/cases/bench.sh).  TAP.
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
export TOP BIN=${BIN:-${BUILD:-$TOP/build}/bin}
exec bats --tap "$TOP/tests/cli/bench.bats"
