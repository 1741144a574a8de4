#!/usr/bin/env bash
# 20-cli.sh - rpcrdma-decode's command line, --hex mode, JSON contract, man
# page and completion agreement (tests/cli/cli.bats).  TAP.
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
export TOP BIN=${BIN:-${BUILD:-$TOP/build}/bin}
exec bats --tap "$TOP/tests/cli/cli.bats"
