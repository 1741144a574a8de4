#!/usr/bin/env bash
# 30-capture.sh - rpcrdma-decode -r FILE: link types, transports, reassembly,
# chunks, conversations, --check, --stats, bad input (tests/cli/capture.bats);
# iWARP without its MPA handshake (tests/cli/nohandshake.bats).
# Uses the generator's captures in $BUILD/captures (make captures).  TAP.
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
export TOP BUILD=${BUILD:-$TOP/build}
export BIN=${BIN:-$BUILD/bin}
exec bats --tap "$TOP/tests/cli/capture.bats" "$TOP/tests/cli/reading.bats" \
	"$TOP/tests/cli/output.bats" "$TOP/tests/cli/modes.bats" \
	"$TOP/tests/cli/nohandshake.bats" "$TOP/tests/cli/v2drafts.bats"
