#!/usr/bin/env bats
# crafted.bats - the hostile captures of tests/captures/crafted (README.md
# there says what each one plants): the regenerated files equal the kept
# ones, and each decodes in every output mode without a crash or a sanitizer
# report (rpcrdma-decode built with ASan+UBSan), naming its fault.
# Env: TOP, BUILD, BIN.

load /usr/lib/bats/bats-support/load.bash
load /usr/lib/bats/bats-assert/load.bash
bats_require_minimum_version 1.5.0

setup() {
	D=$BIN/rpcrdma-decode
	A=$BUILD/asan/rpcrdma-decode
	C=$TOP/tests/captures/crafted
}

# every output mode under ASan+UBSan (BIN: that build): exit 0, 1, 3 or 4
# (a state limit), no sanitizer report
survives() {
	local bin=${2:-$A}
	[ -x "$bin" ] || skip "no $bin (make $bin)"
	for mode in "" -V --json --check "--check --json" --stats "--stats --json"; do
		"$bin" $mode -r "$1" >/dev/null 2>"$BATS_TEST_TMPDIR/err" && rc=0 || rc=$?
		if [ "$rc" = 2 ] || [ "$rc" -gt 4 ] ||
		   grep -q 'Sanitizer\|runtime error' "$BATS_TEST_TMPDIR/err"; then
			echo "$1 $mode: rc $rc"; head -30 "$BATS_TEST_TMPDIR/err"; return 1
		fi
	done
}

@test "crafted: gen.py rebuilds the kept captures byte for byte" {
	python3 "$C/gen.py" "$BATS_TEST_TMPDIR"
	for f in "$C"/*.pcap; do
		cmp "$f" "$BATS_TEST_TMPDIR/$(basename "$f")"
	done
}

@test "crafted: LRH PktLen below the LRH (84-byte DLT_INFINIBAND frame): no wrap, truncated-frame" {
	for f in ib-lrh-pktlen-short erf-lrh-pktlen-short; do
		survives "$C/$f.pcap"
		run "$D" --check -r "$C/$f.pcap"
		assert_failure 1
		assert_output --partial 'frame 1: truncated-frame: LRH PktLen says 4 bytes, less than the LRH (8)'
		assert_line '1 violations'      # that one, nothing false after it
		run --separate-stderr "$D" -r "$C/$f.pcap"
		assert_failure 4                # no RPC-over-RDMA message at all
		[ -z "$output" ]
		[[ $stderr == *"frame 1: LRH PktLen says 4 bytes"* ]]
	done
}

@test "crafted: LRH PktLen inside the GRH: truncated-frame" {
	survives "$C/ib-grh-pktlen-short.pcap"
	run "$D" --check -r "$C/ib-grh-pktlen-short.pcap"
	assert_failure 1
	assert_output --partial 'LRH PktLen says 40 bytes, less than the LRH and GRH (48)'
	assert_line '1 violations'
}

@test "crafted: every crafted capture, every output mode, normal and small tables, under ASan+UBSan" {
	for f in "$C"/*.pcap; do
		survives "$f"
		survives "$f" "$BUILD/asan/rpcrdma-decode-small"
	done
}
