#!/usr/bin/env bash
# 20-cli.sh - rpcrdma-decode's command line (tests/cli/cli.bats) and --hex
# mode with its JSON contract and printers (tests/cli/decode_hex.bats);
# rpcrdma-echo's command line (tests/cli/echo.bats); every documented
# rpcrdma-decode example (tests/cli/docs.bats).  TAP.
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
export TOP BIN=${BIN:-${BUILD:-$TOP/build}/bin}
exec bats --tap "$TOP/tests/cli/cli.bats" "$TOP/tests/cli/decode_hex.bats" \
	"$TOP/tests/cli/echo.bats" "$TOP/tests/cli/docs.bats"
