#!/usr/bin/env bash
# 26-conform.sh - rpcrdma-conform's command line and report
# (tests/cli/conform.bats), run over the model responder of
# tests/conform/fake_xprt.c.  TAP.  Its unit tests run with the others
# (10-unit, 11-unit-asan); its live runs are tests/live/cases/conform.sh.
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
export TOP BUILD=${BUILD:-$TOP/build}
exec bats --tap "$TOP/tests/cli/conform.bats"
