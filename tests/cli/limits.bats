#!/usr/bin/env bats
# limits.bats - every bounded table of the capture pipeline when it is full
# (docs/capture.md, "Bounded memory"): rpcrdma-decode built with small
# tables (-DCAP_MAX_*, make build/asan/rpcrdma-decode-small, ASan+UBSan) on
# the crafted captures of tests/captures/crafted: what happens is defined,
# no false violation follows, the loss is counted in --stats and --json and
# the exit status is 3; the normal build decodes the same captures whole.
# Env: TOP, BUILD, BIN.

load /usr/lib/bats/bats-support/load.bash
load /usr/lib/bats/bats-assert/load.bash
bats_require_minimum_version 1.5.0

setup() {
	D=$BIN/rpcrdma-decode
	S=$BUILD/asan/rpcrdma-decode-small
	C=$TOP/tests/captures/crafted
	[ -x "$S" ] || skip "no $S (make $S)"
}

# the --stats "lost:" line of a run
lost_line() {
	"$@" 2>/dev/null | grep '^  lost: '
}

@test "segments full: the call is untracked, not half registered; no false write-chunk-segments-changed" {
	run --separate-stderr "$D" --check -r "$C/rocev2-segs-full.pcap"
	assert_success
	run --separate-stderr "$S" --check -r "$C/rocev2-segs-full.pcap"
	assert_failure 3
	[ "$stderr" != "${stderr/more than 64 advertised segments outstanding/}" ]
	[ "$stderr" != "${stderr/output incomplete/}" ]
	refute_output --partial 'write-chunk-segments-changed'
	# a verdict on what was read, said to be no more than that
	[ "${stderr##*$'\n'}" = "0 violations in the 11 frames read (output incomplete: not a verdict on the whole capture)" ]
	run lost_line "$S" --stats -r "$C/rocev2-segs-full.pcap"
	assert_output --partial ', 2 calls with untracked chunks, '
	run --separate-stderr "$S" -r "$C/rocev2-segs-full.pcap"
	[ "${#lines[@]}" -eq 11 ]
}

@test "conversations full: idle ones go first; one with a call in flight is counted lost; every message still printed" {
	run --separate-stderr "$D" --check -r "$C/rocev2-convs-full.pcap"
	assert_success
	run --separate-stderr "$D" -r "$C/rocev2-convs-full.pcap"
	[ "$(grep -c 'NULL reply' <<<"$output")" -eq 50 ]     # every reply matched
	run --separate-stderr "$S" -r "$C/rocev2-convs-full.pcap"
	assert_failure 3
	[ "${#lines[@]}" -eq 100 ]
	[ "$(grep -c 'NULL reply' <<<"$output")" -eq 45 ]
	[ "$(grep -c 'more than 16 open conversations' <<<"$stderr")" -eq 1 ]
	run lost_line "$S" --stats -r "$C/rocev2-convs-full.pcap"
	assert_output --regexp '^  lost: 5 conversations closed early with a message in flight \(of 39 closed for room\), 5 calls forgotten before their reply, '
}

@test "conversations full of idle ones only (100 QP pairs, a call and its reply each): closed for room, nothing lost, exit 0" {
	[ -x "$BUILD/capgen/capgen" ] || skip "no capgen"
	"$BUILD/capgen/capgen" --bench-qps "$BATS_TEST_TMPDIR/q.pcap" 400 100 sends
	run --separate-stderr "$S" --stats -r "$BATS_TEST_TMPDIR/q.pcap"
	assert_success
	assert_line '  conversations closed early for room: 84 (nothing in flight lost)'
	assert_line --regexp '^  forward calls 100, replies 100, '
	refute_line --regexp '^  lost: '
	# conversations closed for room leave no false violation behind
	run --separate-stderr "$S" --check -r "$BATS_TEST_TMPDIR/q.pcap"
	assert_success
	[ "${stderr##*$'\n'}" = "0 violations" ]
	# acknowledgements alone open no conversation (and hold no RPC-over-RDMA
	# message: exit 4)
	"$BUILD/capgen/capgen" --bench-qps "$BATS_TEST_TMPDIR/a.pcap" 400 100
	run --separate-stderr "$S" --stats -r "$BATS_TEST_TMPDIR/a.pcap"
	assert_failure 4
	assert_line --regexp '^overall: 400 frames, 400 RDMA packets, 0 truncated, 0 invalid, 0 conversations$'
}

@test "calls full: the oldest is forgotten, its reply unmatched, counted" {
	run --separate-stderr "$D" -r "$C/rocev2-calls-full.pcap"
	assert_success
	run --separate-stderr "$S" -r "$C/rocev2-calls-full.pcap"
	assert_failure 3
	[ "${#lines[@]}" -eq 140 ]
	[ "$(grep -c "NULL reply" <<<"$output")" -eq 64 ]
	run lost_line "$S" --stats -r "$C/rocev2-calls-full.pcap"
	assert_output --partial ', 6 calls forgotten before their reply, '
	run --separate-stderr "$S" --json -r "$C/rocev2-calls-full.pcap"
	assert_failure 3
	[ "${lines[-1]}" = '{"type":"lost","conversations":0,"calls":6,"untracked_calls":0,"tcp_resyncs":0,"stream_bytes":0,"budget":0,"sends":0,"evicted":0}' ]
}

@test "byte budget full: the big Send is not reassembled, the next message is decoded" {
	run --separate-stderr "$D" -r "$C/rocev2-big-send.pcap"
	assert_success
	[ "${#lines[@]}" -eq 2 ]
	run --separate-stderr "$S" -r "$C/rocev2-big-send.pcap"
	assert_failure 3
	[ "${#lines[@]}" -eq 1 ]
	assert_output --partial 'xid 0x00005001'
	run lost_line "$S" --stats -r "$C/rocev2-big-send.pcap"
	assert_output --partial ', 1 reassemblies over the byte budget, '
}

@test "TCP: a segment the capture lost, more out-of-order segments than slots: resynchronised, every later message decoded" {
	for bin in "$D" "$S"; do
		run --separate-stderr "$bin" -r "$C/iwarp-lost-segment.pcap"
		assert_failure 3
		# 320 calls sent, the 5th lost with its segment
		[ "${#lines[@]}" -eq 319 ]
		refute_output --partial 'xid 0x00001004 '
		assert_line --regexp 'xid 0x0000113f '
		[ "$stderr" != "${stderr/TCP stream resynchronised/}" ]
		run lost_line "$bin" --stats -r "$C/iwarp-lost-segment.pcap"
		assert_output --partial ', 1 TCP resynchronisations (92 stream bytes), '
		# no reply grants a credit, so the calls past the first exceed
		# it (true); nothing else is flagged after the resynchronisation
		run --separate-stderr "$bin" --check -r "$C/iwarp-lost-segment.pcap"
		[ "$(grep -c ': credits-exceeded: ' <<<"$output")" -eq 318 ]
		[ "${#lines[@]}" -eq 318 ]
	done
}

@test "TCP: the peer acknowledges past the lost segment: resynchronised at once, replies matched, no violation" {
	for bin in "$D" "$S"; do
		run --separate-stderr "$bin" --check -r "$C/iwarp-lost-segment-replies.pcap"
		assert_failure 3
		[ "${stderr##*$'\n'}" = "0 violations in the 641 frames read (output incomplete: not a verdict on the whole capture)" ]
		run --separate-stderr "$bin" -r "$C/iwarp-lost-segment-replies.pcap"
		[ "${#lines[@]}" -eq 639 ]
		# 319 replies matched to their calls, one (to the lost call) not
		[ "$(grep -c 'NULL reply' <<<"$output")" -eq 319 ]
	done
}
