#!/usr/bin/env bats
# output.bats - what rpcrdma-decode prints for captures, as scripts read it:
# stable one-word columns with the conversation number, the JSON schema
# shared with --hex (xids, handles, offsets as "0x" strings, exact through
# jq), src/dst as address and QP or port, NFSv4 COMPOUND operations (checked
# against tshark's NFS dissector), per-message RPC latency and chunk data
# byte counts in -V and --json, several -r files named.
# Env: TOP, BUILD, BIN.  Uses tests/captures and $BUILD/captures.

load helpers
bats_require_minimum_version 1.5.0

setup() {
	common_setup
	CAPS=${BUILD:-$TOP/build}/captures
	REAL=$TOP/tests/captures
}

@test "columns: the same number of words up to BODY on every line, whatever the transport" {
	for f in "$REAL"/*.pcap "$CAPS"/ib-247.pcap "$CAPS"/rocev2-ipv6.pcap "$CAPS"/iwarp-basic.pcap; do
		[ -e "$f" ] || continue
		"$D" -r "$f" 2>/dev/null | awk -v f="$f" '
			$3 != "conv" || $4 !~ /^[0-9]+$/ || $6 != ">" || $8 !~ /^v[0-9-]+$/ ||
			$10 != "xid" || $12 != "credits" ||
			($5 !~ /^[^ ]+(\/qp=(0x[0-9a-f]+|\?)|:[0-9]+)$/) ||
			($7 !~ /^[^ ]+(\/qp=0x[0-9a-f]+|:[0-9]+)$/) { print f ": " $0; bad = 1 }
			END { exit bad }'
	done
}

@test "columns: the conversation number is what --conversation takes" {
	# two files: conversations are numbered on across them
	a=$REAL/nfs3-iwarp-siw.pcap b=$REAL/nfs41-rocev2-rxe.pcap
	run "$D" -r "$a" -r "$b"
	convs=$(awk '{ print $5 }' <<<"$output" | sort -u)
	[ "$(wc -l <<<"$convs")" -eq 2 ]
	for n in $convs; do
		want=$(awk -v n="$n" '$5 == n' <<<"$output")
		[ "$("$D" -r "$a" -r "$b" --conversation "$n")" = "$want" ]
	done
}

@test "JSON: xids, handles and offsets are 0x strings, exact through jq" {
	f=$REAL/nfs41-rocev2-rxe.pcap
	run "$D" -r "$f" --json
	assert_success
	# every one of them, and no number where a 0x string belongs (the
	# messages: typed records such as "connection" have no xid)
	res=$(jq 'select(has("type") | not) | (.xid | test("^0x[0-9a-f]{8}$")) and
	       ((.rpc // {}).xid // "0x00000000" | test("^0x[0-9a-f]{8}$")) and
	       ([.reads[]?, .writes[]?[]?, .reply[]?] |
		all((.handle | test("^0x[0-9a-f]{8}$")) and (.offset | test("^0x[0-9a-f]{16}$"))))' \
		<<<"$output") || return 1
	[ "$(sort -u <<<"$res")" = true ]
	[ "$(wc -l <<<"$res")" -eq "$("$D" -r "$f" | wc -l)" ]
	# the reply chunk offsets of the capture, as the text tree prints them
	a=$(jq -r '.reply[]?.offset' <<<"$output" | sort -u)
	b=$("$D" -r "$f" -V | sed -nE 's/^    handle 0x[0-9a-f]+ length [0-9]+ offset (0x[0-9a-f]{16})$/\1/p' | sort -u)
	[ -n "$a" ] && [ "$a" = "$b" ]
}

@test "JSON: one schema for --hex and captures (the same message gives the same keys and values)" {
	f=$REAL/nfs41-rocev2-rxe.pcap
	# the first inline RDMA_MSG call: a RoCEv2 SEND ONLY, its payload
	# between the BTH and the ICRC
	read -r frame hex < <(python3 - "$f" <<'PY'
import struct, sys
b = open(sys.argv[1], 'rb').read()
off, n = 24, 0
while off < len(b):
    incl = struct.unpack('<I', b[off + 8:off + 12])[0]
    d = b[off + 16:off + 16 + incl]; off += 16 + incl; n += 1
    if d[12:14] == b'\x08\x00' and d[23] == 17 and d[36:38] == b'\x12\xb7' and d[42] == 4:
        msg = d[54:-4]
        if msg[12:16] == b'\0\0\0\0' and msg[32:36] == b'\0\0\0\0':   # RDMA_MSG, RPC CALL
            print(n, msg.hex()); break
PY
)
	[ -n "$hex" ]
	cap=$("$D" -r "$f" --json | jq -c "select(.frame == $frame) |
		del(.file, .frame, .time, .src, .dst, .src_qp, .dst_qp, .src_port,
		    .dst_port, .transport, .conversation, .backward, .first_frame, .frames)")
	one=$("$D" --hex "$hex" --json | jq -c .)
	[ -n "$cap" ] && [ "$cap" = "$one" ]
}

@test "JSON: src and dst are addresses, with the QP (RoCE, IB) or port (iWARP) apart" {
	run "$D" -r "$REAL/nfs41-rocev2-rxe.pcap" --json
	jq -se 'map(select(.frame == 6))[0] | .src == "198.18.0.1" and .src_qp == "0x12" and
		.dst == "198.18.0.2" and .dst_qp == "0x12" and (has("src_port") | not)' <<<"$output"
	run "$D" -r "$REAL/nfs3-iwarp-siw.pcap" --json
	jq -se 'map(select(.frame == 31))[0] | .src == "198.18.0.2" and .src_port == 39377 and
		.dst == "198.18.0.1" and .dst_port == 20049 and (has("src_qp") | not)' <<<"$output"
}

@test "NFSv4 COMPOUND and CB_COMPOUND: every call's operations, as tshark's NFS dissector reads them" {
	command -v tshark >/dev/null || skip "no tshark"
	for f in "$REAL"/nfs41-*.pcap; do
		# RFC 8881 operation numbers (section 16.2.2 and 20), by name
		"$D" -r "$f" --json | python3 -c '
import json, sys
names = """ACCESS CLOSE COMMIT CREATE DELEGPURGE DELEGRETURN GETATTR GETFH LINK
    LOCK LOCKT LOCKU LOOKUP LOOKUPP NVERIFY OPEN OPENATTR OPEN_CONFIRM
    OPEN_DOWNGRADE PUTFH PUTPUBFH PUTROOTFH READ READDIR READLINK REMOVE RENAME
    RENEW RESTOREFH SAVEFH SECINFO SETATTR SETCLIENTID SETCLIENTID_CONFIRM
    VERIFY WRITE RELEASE_LOCKOWNER BACKCHANNEL_CTL BIND_CONN_TO_SESSION
    EXCHANGE_ID CREATE_SESSION DESTROY_SESSION FREE_STATEID GET_DIR_DELEGATION
    GETDEVICEINFO GETDEVICELIST LAYOUTCOMMIT LAYOUTGET LAYOUTRETURN
    SECINFO_NO_NAME SEQUENCE SET_SSV TEST_STATEID WANT_DELEGATION
    DESTROY_CLIENTID RECLAIM_COMPLETE""".split()
fore = {n: i + 3 for i, n in enumerate(names)}          # RFC 8881 16.2.2
cb = """CB_GETATTR CB_RECALL CB_LAYOUTRECALL CB_NOTIFY CB_PUSH_DELEG
    CB_RECALL_ANY CB_RECALLABLE_OBJ_AVAIL CB_RECALL_SLOT CB_SEQUENCE
    CB_WANTS_CANCELLED CB_NOTIFY_LOCK CB_NOTIFY_DEVICEID""".split()
back = {n: i + 3 for i, n in enumerate(cb)}              # RFC 8881 20
assert fore["SEQUENCE"] == 53 and fore["RECLAIM_COMPLETE"] == 58 and back["CB_SEQUENCE"] == 11
for l in sys.stdin:
    o = json.loads(l)
    r = o.get("rpc") or {}
    if r.get("msg_type") == 0 and "ops" in r:
        t = back if r["proc_name"] == "CB_COMPOUND" else fore
        print(",".join(str(t[n]) for n in r["ops"]))
' | sort >"$BATS_TEST_TMPDIR/ours"
		# (a call with read chunks is numbered by its Send here, by the
		# last Read response in tshark: compare the lists, not the frames)
		tshark -r "$f" -Y 'rpc.msgtyp == 0 && (nfs.opcode || nfs.cb.operation)' \
			-T fields -e nfs.opcode -e nfs.cb.operation 2>/dev/null |
			awk -F'\t' '{ print $1 $2 }' | sort >"$BATS_TEST_TMPDIR/theirs"
		[ "$(wc -l <"$BATS_TEST_TMPDIR/ours")" -ge 20 ]
		diff "$BATS_TEST_TMPDIR/theirs" "$BATS_TEST_TMPDIR/ours"
	done
}

@test "NFSv4: the line names the operations, a reply its call's" {
	run "$D" -r "$REAL/nfs41-rocev2-rxe.pcap"
	assert_line --regexp 'NFS v4 COMPOUND call SEQUENCE PUTFH READ$'
	assert_line --regexp 'NFS v4 COMPOUND reply SEQUENCE PUTFH READ$'
	run "$D" -r "$REAL/nfs41-backchannel-iwarp.pcap"
	assert_line --regexp 'NFS callback v1 CB_COMPOUND call CB_SEQUENCE CB_RECALL$'
	run "$D" -r "$REAL/nfs41-rocev2-rxe.pcap" -V
	assert_line --regexp '^  rpc: xid 0x[0-9a-f]{8} call NFS v4 COMPOUND SEQUENCE PUTFH READ$'
}

@test "RPC latency of each reply: -V and --json, from the call's and the reply's time stamps" {
	f=$REAL/nfs3-iwarp-siw.pcap
	run "$D" -r "$f" --json
	# latency_us = reply time - call time, for every reply
	python3 -c '
import json, sys
ms = [json.loads(l) for l in sys.stdin]
at = {m["frame"]: m["time"] for m in ms}
n = 0
for m in ms:
    r = m.get("rpc") or {}
    if "call_frame" in r:
        want = round((m["time"] - at[r["call_frame"]]) * 1e6)
        assert r["latency_us"] == want, (m["frame"], r["latency_us"], want)
        n += 1
assert n >= 10, n' <<<"$output"
	r=$(jq -c 'select(.rpc.latency_us) | [.frame, .rpc.call_frame, .rpc.latency_us]' <<<"$output" | head -1)
	read -r fr cf us < <(tr -d '[]' <<<"$r" | tr ',' ' ')
	run "$D" -r "$f" -V
	assert_line "  latency: reply to frame $cf, $us us"
}

@test "chunk data byte counts in --json as in -V" {
	f=$REAL/nfs41-backchannel-rocev2.pcap
	a=$("$D" -r "$f" --json | jq -r 'select(.chunk_data) | .frame as $f | .chunk_data |
		to_entries[] | "\($f) \(.key) chunk data: \(.value.bytes) bytes, frames \(.value.first_frame)-\(.value.last_frame)"')
	b=$("$D" -r "$f" -V | awk '/^frame / { f = $2 } /^  (read|write|reply) chunk data:/ { sub(/^  /, ""); print f " " $0 }')
	[ "$(wc -l <<<"$a")" -ge 5 ]
	[ "$a" = "$b" ]
}

@test "several -r files: each line, tree, JSON object and --stats conversation names its file" {
	a=$REAL/nfs3-iwarp-siw.pcap b=$REAL/nfs41-rocev2-rxe.pcap
	run "$D" -r "$a" -r "$b"
	assert_success
	[ "$(grep -c "^$a: " <<<"$output")" -eq "$("$D" -r "$a" | wc -l)" ]
	[ "$(grep -c "^$b: " <<<"$output")" -eq "$("$D" -r "$b" | wc -l)" ]
	# the frame numbers restart with each file; the columns stay in place
	[ "$(awk '{ print $4 }' <<<"$output" | sort -u)" = "conv" ]
	run "$D" -r "$a" -r "$b" -V
	assert_line --regexp "^$b: frame [0-9]+ "
	run "$D" -r "$a" -r - --json <"$b"
	[ "$(jq -r .file <<<"$output" | sort -u | tr '\n' ' ')" = "$a stdin " ]
	# --stats: each conversation's frame range names its file
	run "$D" --stats -r "$a" -r - <"$b"
	assert_line --regexp "^conversation 1: .*, frames [0-9]+-[0-9]+ of $a\$"
	assert_line --regexp "^conversation 2: .*, frames [0-9]+-[0-9]+ of stdin\$"
	[ "$("$D" --stats --json -r "$a" -r "$b" | jq -r 'select(.type == "conversation") | .file' | tr '\n' ' ')" = "$a $b " ]
	run "$D" --stats -r "$a"
	assert_line --regexp "^conversation 1: .*, frames [0-9]+-[0-9]+\$"
	# one file: no prefix on the lines, the file in the JSON
	run "$D" -r "$a"
	refute_output --partial "$a"
	run "$D" -r "$a" --json
	[ "$(jq -r .file <<<"$output" | sort -u)" = "$a" ]
}
