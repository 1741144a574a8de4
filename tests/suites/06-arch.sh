#!/usr/bin/env bash
# 06-arch.sh - the shape of the house measured from the code
# (tests/arch/callgraph.py: file-level call circles, file and function
# lengths) and the measuring script's own tests (tests/arch/arch.bats).  TAP.
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
export TOP
exec bats --tap "$TOP/tests/arch/arch.bats"
