#!/usr/bin/env bash
# 21-vectors.sh - every hand-written vector (tests/vectors/vectors.txt) through
# rpcrdma-decode --hex --json: keys, verdict and exit status.  TAP.
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
export TOP BIN=${BIN:-${BUILD:-$TOP/build}/bin}
exec "$TOP/tests/cli/vectors.sh"
