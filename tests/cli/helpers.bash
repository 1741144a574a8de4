# helpers.bash - shared by the rpcrdma-decode Bats files: the libraries,
# the binary, sample messages and assertions.
# Env: TOP (repo root), BIN (where rpcrdma-decode is).

load /usr/lib/bats/bats-support/load.bash
load /usr/lib/bats/bats-assert/load.bash

: "${TOP:=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)}"
: "${BIN:=$TOP/build/bin}"
export TOP BIN

common_setup() {
	D=$BIN/rpcrdma-decode
	# V1 RDMA_MSG, no chunks, NFSv3 NULL call (V1 5.1.3; RFC 5531)
	CALL='0a000001 00000001 00000020 00000000 00000000 00000000 00000000
	      0a000001 00000000 00000002 000186a3 00000003 00000000
	      00000000 00000000 00000000 00000000'
	# the same with an accepted reply (for the line printer)
	REPLY='0a000001000000010000002000000000000000000000000000000000
	       0a000001000000010000000000000000000000000000000000000000'
}

usage_error() {     # $1 = text the message must contain
	assert_failure 2
	assert_output --partial "rpcrdma-decode: "
	assert_output --partial "$1"
	assert_output --partial "--help"
}

# an RDMA_MSG carrying an RPC call of PROG VERS PROC (all decimal)
call_hex() {
	printf '0a000001 00000001 00000020 00000000 00000000 00000000 00000000 '
	printf '0a000001 00000000 00000002 %08x %08x %08x ' "$1" "$2" "$3"
	printf '00000000 00000000 00000000 00000000'
}

# the capture tests' places: the generator's captures, the real ones, a
# scratch directory for fixtures (call from setup_file)
capture_env() {
	export CAPS=${BUILD:-$TOP/build}/captures
	export REAL=$TOP/tests/captures
	export FIX=$BATS_FILE_TMPDIR
}
