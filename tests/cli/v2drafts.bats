#!/usr/bin/env bats
# v2drafts.bats - Version Two is named as draft-cel-nfsv4-rpcrdma-version-two-01
# in every output, and a peer on a later draft's layout (ietf-07, held-out
# style: tests/capgen's rocev2-v2-ietf07, written by hand from issue 28's
# description) is named once per conversation, not judged as a storm of bad
# cel-01 headers (docs/v2-drafts.md, D-V2-8).
# Env: TOP (repo root), BUILD, BIN.

load /usr/lib/bats/bats-support/load.bash
load /usr/lib/bats/bats-assert/load.bash
bats_require_minimum_version 1.5.0

setup_file() {
	export TOP=${TOP:-$(cd "$BATS_TEST_DIRNAME/../.." && pwd)}
	export BUILD=${BUILD:-$TOP/build}
	export BIN=${BIN:-$BUILD/bin}
	export FIX=$BATS_FILE_TMPDIR
	"$BUILD/capgen/capgen" rocev2-v2-ietf07 -o "$FIX/ietf07.pcap"
	"$BUILD/capgen/capgen" rocev2-v2 -o "$FIX/v2.pcap"
	"$BUILD/capgen/capgen" lint-bad-header -o "$FIX/bad.pcap"
}

setup() {
	D=$BIN/rpcrdma-decode
	L="Version Two, later draft layout (not decoded)"
}

@test "ietf-07 layout: every line names the later draft, no cel-01 verdict, one warning" {
	run --separate-stderr timeout 60 "$D" -r "$FIX/ietf07.pcap"
	assert_success
	[ "$(grep -c "\[$L: ietf-03..07\]\|\[$L: cel-08..ietf-07\]" <<<"$output")" -eq 10 ]
	refute_output --partial reply_bad_header
	[ "$(grep -c "$L" <<<"$stderr")" -eq 1 ]
	[[ $stderr == *"conversation 1, frame 1: $L: fits draft-ietf-nfsv4-rpcrdma-version-two-03..07 (ietf-03..07)"* ]]
}

@test "ietf-07 layout: --check finds no violation, --stats no bad header" {
	run --separate-stderr timeout 60 "$D" -r "$FIX/ietf07.pcap" --check
	assert_success
	assert_output ""
	[[ $stderr == *"0 violations"* ]]
	refute [ "$(grep -c "$L" <<<"$stderr")" -ne 1 ]
	run --separate-stderr timeout 60 "$D" -r "$FIX/ietf07.pcap" --stats
	assert_success
	assert_line "  v2 later draft layout (not decoded): 10 messages, fit draft-ietf-nfsv4-rpcrdma-version-two-03..07 (ietf-03..07)"
	assert_line "  v2 read as draft-cel-nfsv4-rpcrdma-version-two-01: 0 messages"
	refute_output --partial "bad headers 1"
	assert_output --partial "bad headers 0"
}

@test "ietf-07 layout: --json names the family per message and in --stats" {
	run --separate-stderr timeout 60 "$D" -r "$FIX/ietf07.pcap" --json
	assert_success
	jq -e -s 'length == 10 and all(.draft == "ietf-03..07" or .draft == "cel-08..ietf-07")
		and (map(select(.draft == "ietf-03..07")) | length) == 8' <<<"$output"
	run --separate-stderr timeout 60 "$D" -r "$FIX/ietf07.pcap" --json --stats
	jq -e -s 'map(select(.type == "overall"))[0] | .v2_drafts["ietf-03..07"] == 10 and
		.v2_drafts["cel-01"] == 0 and .bad_headers == 0' <<<"$output"
}

@test "a cel-01 bad header is still one (the grader can fail)" {
	run timeout 60 "$D" -r "$FIX/bad.pcap" --check
	assert_output --partial "bad-header"
	# a Version Two type 3: fits no later layout: a cel-01 bad header
	run timeout 10 "$D" --json --hex "5a5a0001 00000002 00000020 00000003"
	jq -e '.draft == "cel-01" and .verdict.action == "reply_bad_header"' <<<"$output"
}

@test "--hex: an ietf-07 CALL_INLINE is named, a cel-01 message too" {
	run timeout 10 "$D" --hex "5a5a0001 00000002 00000020 0000000a 5a5a0001 00000000"
	assert_line --index 0 "RPC-over-RDMA $L: fits draft-ietf-nfsv4-rpcrdma-version-two-03..07, 24 bytes"
	assert_line --partial "verdict: not judged, a later draft's layout (as draft-cel-nfsv4-rpcrdma-version-two-01: "
	run timeout 10 "$D" --json --hex "5a5a0001 00000002 00000020 0000000a 5a5a0001 00000000"
	jq -e '.draft == "ietf-03..07"' <<<"$output"
	run timeout 10 "$D" --hex "5a5a0001 00000002 00000020 00000000 00000000 00000000 00000000 00000000 5a5a0001 00000000"
	assert_line --index 0 "RPC-over-RDMA Version Two (draft-cel-nfsv4-rpcrdma-version-two-01), 40 bytes"
	run timeout 10 "$D" --json --hex "5a5a0001 00000001 00000020 00000000 00000000 00000000 00000000 5a5a0001 00000000"
	jq -e 'has("draft") | not' <<<"$output"
}

@test "cel-01 captures name the draft: line output once per conversation, -V, --json, --stats" {
	run --separate-stderr timeout 60 "$D" -r "$FIX/v2.pcap"
	assert_success
	[ "$(grep -c '^conv 1: Version Two read as draft-cel-nfsv4-rpcrdma-version-two-01$' <<<"$output")" -eq 1 ]
	refute_output --partial "$L"
	run timeout 60 "$D" -r "$FIX/v2.pcap" -V
	[ "$(grep -c '^RPC-over-RDMA Version Two (draft-cel-nfsv4-rpcrdma-version-two-01), ' <<<"$output")" -eq 16 ]
	run timeout 60 "$D" -r "$FIX/v2.pcap" --json
	jq -e -s 'map(select(.vers == 2)) | length == 16 and all(.draft == "cel-01")' <<<"$output"
	run timeout 60 "$D" -r "$FIX/v2.pcap" --stats
	assert_line "  v2 read as draft-cel-nfsv4-rpcrdma-version-two-01: 16 messages"
}
