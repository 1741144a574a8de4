#!/usr/bin/env bats
# decode_hex.bats - `rpcrdma-decode --hex`: hex input, the tree, the JSON
# contract (man/rpcrdma-decode.1 OUTPUT FORMAT), error replies (V1 5.5), RPC
# procedure names, and the printers with capture context (a small harness).

load helpers
bats_require_minimum_version 1.5.0

setup_file() {
	export HARNESS=$BATS_FILE_TMPDIR/msgprint_harness
	# the printers with capture context, which --hex cannot give (tools/common
	# without the live tools' shell, live*.c, which stands on the transport)
	cc -std=c11 -D_DEFAULT_SOURCE -Wall -Wextra -Werror \
		-I"$TOP/libcodec/include" -I"$TOP/tools/common" \
		-o "$HARNESS" "$TOP/tests/cli/msgprint_harness.c" \
		$(ls "$TOP"/tools/common/*.c | grep -v '/live[^/]*\.c$') "$TOP/libcodec/src/"*.c \
		-I"$TOP/libcodec/src" 2>"$BATS_FILE_TMPDIR/harness.log" || true
}

setup() {
	common_setup
}

@test "--hex: accepted message exits 0 and prints the tree" {
	run "$D" --hex "$CALL"
	assert_success
	assert_line --index 0 "RPC-over-RDMA Version One, 68 bytes"
	assert_line "  rdma_xid: 0x0a000001"
	assert_line "  rdma_credit: 32"
	assert_line "  rdma_proc: RDMA_MSG (0)"
	assert_line "  rpc: xid 0x0a000001 call NFS v3 NULL"
	assert_line "verdict: accept (ok: well-formed)"
}

@test "--hex: a rejected message exits 1; the tree names reason, byte and section" {
	run "$D" --hex 0a000001000000010000002000000002
	assert_failure 1
	assert_line "verdict: reply_bad_header (msgp: RDMA_MSGP is no longer supported, at byte 12, V1 5.6.1)"
	assert_line "error_reply: 0a00000100000001000000200000000400000002"
	run "$D" --hex 0a000001
	assert_failure 1
	assert_output --partial "verdict: discard (short_prefix"
}

@test "--hex: spaces, tabs, newlines and ':' are ignored; case does not matter" {
	run "$D" --json --hex "$(printf '0A:00:00:01\t00000001\n0000 0020 00000000 00000000 00000000 00000000 0a000001 00000000 00000002 000186a3 00000003 00000000 00000000 00000000 00000000 00000000')"
	assert_success
	assert_output --partial '"valid":true'
}

@test "--hex -: reads standard input" {
	# (a message is one line of standard input)
	run bash -c "printf '%s\n' '$(echo $CALL)' | '$D' --hex - --json"
	assert_success
	assert_output --partial '"xid":"0x0a000001"'
	run bash -c "printf 'zz' | '$D' --hex -"
	assert_failure 2
	assert_output --partial "bad character at position 1: 'z'"
}

@test "--hex -: one message per line, '#' comments and blank lines skipped (samples/)" {
	n=$(grep -v '^#' "$TOP/samples/messages.hex" | grep -c .)
	run --separate-stderr "$D" --hex - --json <"$TOP/samples/messages.hex"
	[ "${#lines[@]}" -eq "$n" ] && [ "$n" -ge 10 ]
	# each line as its own --hex gives the same object
	i=0
	while read -r hex; do
		[ "$("$D" --hex "$hex" --json)" = "${lines[$i]}" ]
		i=$((i + 1))
	done < <(grep -v '^#' "$TOP/samples/messages.hex" | grep .)
	# trees are separated by a blank line
	run "$D" --hex - <"$TOP/samples/messages.hex"
	[ "$(grep -c '^RPC-over-RDMA' <<<"$output")" -eq "$n" ]
	[ "$(grep -c '^$' <<<"$output")" -eq $((n - 1)) ]
	# a comment after the digits; exit 1 when any message is not accepted
	run bash -c "printf '%s # NULL call\n\n# nothing\n%s\n' '$(echo $CALL)' 0a0000 | '$D' --hex - --json"
	assert_failure 1
	[ "${#lines[@]}" -eq 2 ]
	printf '%s\n' "${lines[0]}" | jq -e '.valid'
	run bash -c "printf '%s\n' '$(echo $CALL)' '$(echo $CALL)' | '$D' --hex - --json"
	assert_success
	[ "${#lines[@]}" -eq 2 ]
	# a bad line: the messages before it, then its number
	run --separate-stderr bash -c "printf '%s\n00 0g\n' '$(echo $CALL)' | '$D' --hex - --json"
	assert_failure 2
	[ "${#lines[@]}" -eq 1 ]
	[ "$stderr" = "rpcrdma-decode: --hex -: line 2: bad character at position 5: 'g' (expected hex digits, spaces or ':')" ]
}

@test "--hex: input errors are clear and exit 2" {
	run "$D" --hex 000
	assert_failure 2
	assert_output "rpcrdma-decode: --hex: odd number of hex digits (need an even count, have 3)"
	run "$D" --hex "00 0g"
	assert_failure 2
	assert_output "rpcrdma-decode: --hex: bad character at position 5: 'g' (expected hex digits, spaces or ':')"
	run "$D" --hex $'00\x01'
	assert_failure 2
	assert_output --partial "position 3: 0x01"
	run "$D" --hex ""
	assert_failure 2
	assert_output --partial "no hex digits"
	run "$D" --hex " : "
	assert_failure 2
	assert_output --partial "no hex digits"
	run bash -c "printf '' | '$D' --hex -"
	assert_failure 2
	assert_output --partial "no hex digits"
}

@test "--hex: more than 1 MiB is refused, exactly 1 MiB is decoded" {
	# 1 MiB of zero bytes: decoded (rdma_vers 0: reply_err_vers), exit 1
	run bash -c "head -c 2097152 /dev/zero | tr '\\0' 0 | '$D' --hex - --json"
	assert_failure 1
	printf '%s\n' "$output" | jq -e '.verdict.action == "reply_err_vers"'
	run bash -c "head -c 2097154 /dev/zero | tr '\\0' 0 | '$D' --hex - --json"
	assert_failure 2
	assert_output "rpcrdma-decode: --hex -: line 1: message too large (need at most 1048576 bytes, have more)"
}

@test "--json: exactly one object, valid and verdict agree with the exit status" {
	run "$D" --hex "$CALL" --json
	assert_success
	[ "$(printf '%s\n' "$output" | jq -s length)" = 1 ]
	printf '%s\n' "$output" | jq -e 'type == "object" and .valid == true and
		.verdict.action == "accept" and .verdict.reason == "ok" and
		(.verdict | has("offset") | not) and .proc_name == "RDMA_MSG" and
		.direction == "call" and .reads == [] and .writes == [] and
		.reply == null and .header_length == 28 and .payload_length == 40 and
		.rpc == {"xid":"0x0a000001","msg_type":0,"prog":100003,"vers":3,"proc":0,"proc_name":"NULL"} and
		.notes == [] and (has("error_reply") | not) and (has("error") | not)'
}

@test "--json: keys are absent where the bytes end" {
	run "$D" --hex 0a0000010000000100000020 --json     # 12 bytes
	assert_failure 1
	printf '%s\n' "$output" | jq -e 'has("xid") and has("vers") and has("credits") and
		(has("proc") | not) and (has("proc_name") | not) and (has("reads") | not) and
		(has("header_length") | not) and .verdict.offset == 12 and
		.verdict.reason == "truncated" and .verdict.section == "V1 5.5.2" and
		(.verdict.text | length > 0)'
	run "$D" --hex 0a0000010000 --json                  # 6 bytes
	printf '%s\n' "$output" | jq -e 'has("xid") and (has("vers") | not) and
		.verdict.action == "discard" and .direction == null and .rpc == null'
}

@test "--json: xids, handles and 64-bit offsets are exact 0x strings (jq 1.6 rounds numbers above 2^53)" {
	# V1 RDMA_NOMSG, one position-zero read segment: handle 0xffffffff,
	# length 0xffffffff, offset 0xffffffffffffffff
	run "$D" --json --hex '0a000002 00000001 00000001 00000001
		00000001 00000000 ffffffff ffffffff ffffffff ffffffff 00000000
		00000000 00000000'
	assert_success
	assert_output --partial '"reads":[{"position":0,"handle":"0xffffffff","length":4294967295,"offset":"0xffffffffffffffff"}]'
	# two offsets 1 apart stay apart through jq
	run "$D" --json --hex '0a000002 00000001 00000001 00000001
		00000001 00000000 00000001 00000010 00200000 00000001
		00000001 00000000 00000002 00000010 00200000 00000002 00000000
		00000000 00000000'
	[ "$(printf '%s\n' "$output" | jq -r '.reads | map(.offset) | unique | length')" = 2 ]
	run "$D" --json --hex '0a000002 00000001 00000001 00000001
		00000001 00000000 ffffffff ffffffff ffffffff ffffffff 00000000
		00000000 00000000'
	assert_output --partial '"direction":"call","direction_inferred":true'
}

@test "--json: write chunks and the reply chunk" {
	run "$D" --json --hex '0a000003 00000001 00000020 00000000 00000000
		00000001 00000002 00000011 00000100 00000000 00001000
		00000012 00000200 00000000 00002000 00000000
		00000001 00000001 00000013 00000300 11223344 55667788
		0a000003 00000000 00000002 000186a3 00000003 00000006
		00000000 00000000 00000000 00000000'
	assert_success
	assert_output --partial '"writes":[[{"handle":"0x00000011","length":256,"offset":"0x0000000000001000"},{"handle":"0x00000012","length":512,"offset":"0x0000000000002000"}]]'
	assert_output --partial '"reply":[{"handle":"0x00000013","length":768,"offset":"0x1122334455667788"}]'
	assert_output --partial '"proc_name":"READ"'
}

@test "--json: error_reply for a bad version is ERR_VERS 1-2 with the same xid, vers and credits" {
	run "$D" --json --hex 1234abcd000000070000004000000000
	assert_failure 1
	printf '%s\n' "$output" | jq -e '.verdict.action == "reply_err_vers" and
		.error_reply == "1234abcd000000070000004000000004000000010000000100000002"'
}

@test "--json: error_reply for RDMA_MSGP is ERR_BADHEADER" {
	run "$D" --json --hex 0a000001000000010000002000000002000000040000040000000000
	assert_failure 1
	printf '%s\n' "$output" | jq -e '.verdict == {"action":"reply_bad_header",
		"reason":"msgp","offset":12,"text":"RDMA_MSGP is no longer supported",
		"section":"V1 5.6.1"} and
		.error_reply == "0a00000100000001000000200000000400000002"'
}

@test "--json: error_reply grants 1 credit when rdma_credit is 0 or absent" {
	run "$D" --json --hex 0a000001000000010000000000000003
	printf '%s\n' "$output" | jq -e '.verdict.reason == "done" and
		.error_reply == "0a00000100000001000000010000000400000002"'
	run "$D" --json --hex 0a00000100000009
	printf '%s\n' "$output" | jq -e '.verdict.action == "reply_err_vers" and
		(has("credits") | not) and
		.error_reply == "0a000001000000090000000100000004000000010000000100000002"'
	run "$D" --json --hex 0a00000100000001000000200000000400000002
	printf '%s\n' "$output" | jq -e '.valid and (has("error_reply") | not)'
}

@test "--json: RDMA_ERROR: low and high only for ERR_VERS" {
	run "$D" --json --hex 0a00000100000001000000200000000400000002
	assert_success
	printf '%s\n' "$output" | jq -e '.error == {"code":2,"name":"RDMA_ERR_BADHEADER","low":null,"high":null} and .direction == "reply"'
	run "$D" --json --hex '0a0000010000000100000020000000040000000100000001 00000002'
	assert_success
	printf '%s\n' "$output" | jq -e '.error == {"code":1,"name":"RDMA_ERR_VERS","low":1,"high":2}'
}

@test "--json: RDMA2_OPTIONAL: optional object, inval_option reply, rpc from the payload" {
	run "$D" --json --hex '0b000001 00000002 00000010 00000005 00000000 00000077
		00000004 deadbeef 0b000001 00000000'
	assert_failure 1
	printf '%s\n' "$output" | jq -e '.optional == {"direction":"call","type":119,"info_length":4} and
		.verdict.action == "reply_inval_option" and .verdict.offset == 20 and
		.rpc.xid == "0x0b000001" and .rpc.msg_type == 0 and .rpc.prog == null and
		.error_reply == "0b00000100000002000000100000000400000003"'
}

@test "--json: a short RPC payload still gives xid and msg_type" {
	run "$D" --json --hex '0a000001000000010000002000000000000000000000000000000000 0a00000100000000'
	assert_success
	printf '%s\n' "$output" | jq -e '.rpc == {"xid":"0x0a000001","msg_type":0,"prog":null,"vers":null,"proc":null,"proc_name":null}'
}

@test "--json: notes are names" {
	# V1 RDMA_ERROR reply with rdma_credit 0 and 4 trailing bytes
	run "$D" --json --hex 0a000001000000010000000000000004000000020000abcd
	printf '%s\n' "$output" | jq -e '.notes == ["zero_credit","trailing_bytes"]'
}

# ------------------------------------------------------------ RPC names

@test "RPC procedure names: NFSv3, NFSv4, callback, MOUNT, NLM, portmap, echo" {
	while read -r prog vers proc name; do
		run "$D" --json --hex "$(call_hex "$prog" "$vers" "$proc")"
		assert_success
		got=$(printf '%s\n' "$output" | jq -r '.rpc.proc_name')
		[ "$got" = "$name" ] || fail "$prog/$vers/$proc: expected $name, got $got"
	done <<'TABLE'
100003 3 0 NULL
100003 3 1 GETATTR
100003 3 6 READ
100003 3 17 READDIRPLUS
100003 3 21 COMMIT
100003 3 22 null
100003 2 1 null
100003 4 0 NULL
100003 4 1 COMPOUND
100003 4 2 null
1073741824 1 0 CB_NULL
1073741824 1 1 CB_COMPOUND
100005 3 1 MNT
100005 3 5 EXPORT
100005 3 6 null
100021 4 2 LOCK
100021 4 15 GRANTED_RES
100021 4 16 null
100021 4 20 SHARE
100021 4 23 FREE_ALL
100021 4 24 null
100000 2 3 GETPORT
100000 2 5 CALLIT
100000 3 3 null
542264641 1 0 NULL
542264641 1 1 ECHO
542264641 1 2 CALLBACK
542264641 1 3 null
100227 3 1 GETACL
100227 3 3 null
123456 1 0 null
TABLE
}

@test "the tree names unknown programs and procedures by number" {
	run "$D" --hex "$(call_hex 123456 7 9)"
	assert_success
	assert_line "  rpc: xid 0x0a000001 call prog 123456 v7 proc 9"
	run "$D" --hex "$(call_hex 100005 3 77)"
	assert_line "  rpc: xid 0x0a000001 call MOUNT v3 proc 77"
	run "$D" --hex "$(call_hex 100227 3 2)"
	assert_line "  rpc: xid 0x0a000001 call NFS_ACL v3 SETACL"
}

# ------------------------------------------------------------ printers with capture context

@test "capture JSON keys: frame, time with microseconds, addresses, rpc from the call" {
	[ -x "$HARNESS" ] || fail "harness did not build: $(cat "$BATS_FILE_TMPDIR/harness.log")"
	run "$HARNESS" json "$(echo $REPLY | tr -d ' ')"
	assert_success
	assert_output --partial '{"valid":true,"frame":12,"time":1700000000.123456,"src":"198.18.0.1:40123","dst":"198.18.0.2:20049","transport":"rocev2","conversation":3,'
	printf '%s\n' "$output" | jq -e '.rpc.prog == 100003 and .rpc.proc == 6 and
		.rpc.proc_name == "READ" and .rpc.call_frame == 7 and .rpc_source == "inline"'
}

@test "capture line: columns as in the man page" {
	[ -x "$HARNESS" ] || fail "harness did not build"
	run "$HARNESS" line "$(echo $REPLY | tr -d ' ')"
	assert_output "    12 1700000000.123456 conv 3 198.18.0.1:40123      > 198.18.0.2:20049      v1 RDMA_MSG       xid 0x0a000001 credits  32 reads 0 writes 0 reply - NFS v3 READ reply"
	run "$HARNESS" line 0a000001000000010000002000000002
	assert_output --regexp 'v1 RDMA_MSGP +xid 0x0a000001 credits  32 \[reply_bad_header msgp at 12\]$'
	run "$HARNESS" line 0a0000
	assert_output --regexp 'v- -              xid -          credits   - \[discard short_prefix at 0\]$'
}

@test "capture tree: first line names frame, time, addresses, transport, conversation" {
	[ -x "$HARNESS" ] || fail "harness did not build"
	run "$HARNESS" tree "$(echo $REPLY | tr -d ' ')"
	assert_line --index 0 "frame 12 1700000000.123456 198.18.0.1:40123 > 198.18.0.2:20049 rocev2 conversation 3"
	assert_line "  rpc: xid 0x0a000001 reply to NFS v3 READ (inline), call in frame 7"
}

@test "JSON writer: escaping, invalid UTF-8, exact 64-bit integers, times" {
	[ -x "$HARNESS" ] || fail "harness did not build"
	run "$HARNESS" escape
	assert_output '{"s":"q\"b\\s/\n\t\u0001\u001f ok é bad \ufffd\ufffd end","a":[18446744073709551615,-9223372036854775808,null,[],{},false]}'
	printf '%s\n' "$output" | jq -e . >/dev/null
	run "$HARNESS" time 1700000000 123456
	assert_output "1700000000.123456"
	run "$HARNESS" time 0 5
	assert_output "0.000005"
	run "$HARNESS" time -1 500000
	assert_output "-0.500000"
	run "$HARNESS" time 7 2500000
	assert_output "9.500000"
}

# ------------------------------------------------------------ robustness

@test "every prefix of a message with all three lists: one JSON object; rejected until the RPC xid and msg_type are in" {
	# header: prefix 16 + read list 28 + write list 28 + reply chunk 24 = 96;
	# RDMA_MSG needs the RPC xid and msg_type after it (V1 5.2.4): 104 bytes
	local full='0a000005 00000001 00000020 00000000
		00000001 00000000 00000021 00000400 00000000 00001000 00000000
		00000001 00000001 00000011 00000100 00000000 00001000 00000000
		00000001 00000001 00000013 00000300 11223344 55667788
		0a000005 00000000 00000002 000186a3 00000003 00000007
		00000000 00000000 00000000 00000000'
	local hex=${full//[$' \t\n']/} n out=$BATS_TEST_TMPDIR/all rc want
	: >"$out"
	for ((n = 2; n <= ${#hex}; n += 2)); do
		rc=0
		"$D" --hex "${hex:0:n}" --json >>"$out" || rc=$?
		want=$((n / 2 < 104 ? 1 : 0))
		[ "$rc" -eq "$want" ] || fail "prefix of $((n / 2)) bytes: exit $rc, expected $want"
	done
	# one object a line; a fault lies at or before the end of the bytes; once accepted
	# the header is 96 bytes and the rest is payload
	run jq -c -s '
		[ to_entries[] | (.key + 1) as $len | .value |
		  select(if .valid then .header_length != 96 or .payload_length != $len - 96
			 else .verdict.offset > $len or (.verdict.action != "reply_bad_header" and $len >= 8) end) |
		  $len ] | [ length, . ]' "$out"
	assert_output "[0,[]]"
	[ "$(wc -l <"$out")" -eq $(( ${#hex} / 2 )) ]
}

@test "random bytes: always one JSON object and exit 0 or 1" {
	local i hex rc
	for i in $(seq 1 60); do
		hex=$(head -c $((RANDOM % 80 + 1)) /dev/urandom | od -An -tx1 | tr -d ' \n')
		# half of them start like a real header, to get past the prefix checks
		((i % 2)) && hex="0a0000010000000$((RANDOM % 2 + 1))000000200000000$((RANDOM % 6))$hex"
		run "$D" --hex "$hex" --json
		[ "$status" -le 1 ] || fail "exit $status for $hex"
		printf '%s\n' "$output" | jq -e -s 'length == 1 and (.[0] | type) == "object"' >/dev/null ||
			fail "not one object for $hex: $output"
		run "$D" --hex "$hex"
		[ "$status" -le 1 ] || fail "tree: exit $status for $hex"
	done
}
