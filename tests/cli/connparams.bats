#!/usr/bin/env bats
# connparams.bats - RFC 8797 connection private data (cap_conn.c): shown for
# every connection of the real captures in -V, --json (one record per
# connection) and --stats, from the CM REQ/REP (RoCEv2) and the MPA
# Request/Reply (iWARP); and --check holds an inline Send to what its
# receiver announced (the command line overriding, the version's default
# where nothing was announced), on the crafted captures.
# Env: TOP, BUILD, BIN.

load /usr/lib/bats/bats-support/load.bash
load /usr/lib/bats/bats-assert/load.bash
bats_require_minimum_version 1.5.0

setup() {
	D=$BIN/rpcrdma-decode
	C=$TOP/tests/captures/crafted
	R=$TOP/tests/captures
}

@test "real captures: one connection record each in --json, with both ends' RFC 8797 data" {
	n=0
	for f in "$R"/*.pcap; do
		run --separate-stderr "$D" --json -r "$f"
		recs=$(grep -c '^{"type":"connection"' <<<"$output")
		[ "$recs" -eq 1 ] || { echo "$f: $recs records"; return 1; }
		rec=$(grep '^{"type":"connection"' <<<"$output")
		python3 -c '
import json, sys
r = json.loads(sys.argv[1])
want = "MPA Reply" if r["transport"] == "iwarp" else "CM REP"
assert r["established_by"] == want, r
for end, inval in (("requester", True), ("responder", False)):
    p = r[end]["private_data"]
    assert p["rfc8797"] and p["version"] == 1, p
    assert p["max_send_size"] == 4096 and p["max_recv_size"] == 4096, p
    assert p["remote_invalidate"] == inval, p
assert r["requester"]["addr"] == "198.18.0.2" and r["responder"]["addr"] == "198.18.0.1", r
' "$rec" || { echo "$f: $rec"; return 1; }
		n=$((n + 1))
	done
	[ "$n" -ge 6 ]
}

@test "real captures: -V says when the connection was set up and what each end announced" {
	for f in "$R"/nfs41-rocev2-rxe.pcap "$R"/nfs41-iwarp-siw.pcap; do
		run "$D" -V -r "$f"
		assert_line --regexp '^frame [0-9]+ connection: 198\.18\.0\.2(:[0-9]+)? <-> 198\.18\.0\.1(:20049)? (rocev2|iwarp) conversation 1, set up by the (CM REP|MPA Reply)$'
		assert_line '  private data: requester RFC 8797 v1, send 4096, receive 4096, remote invalidation; responder RFC 8797 v1, send 4096, receive 4096, no remote invalidation'
		run "$D" --stats -r "$f"
		assert_line '  private data: requester RFC 8797 v1, send 4096, receive 4096, remote invalidation; responder RFC 8797 v1, send 4096, receive 4096, no remote invalidation'
	done
}

@test "--check: a 2000-byte inline Send within the 4096 bytes its receiver announced is no violation" {
	run --separate-stderr "$D" --check -r "$C/rocev2-pd-4096.pcap"
	assert_success
	[ "$stderr" = "0 violations" ]
}

@test "--check: over what the receiver announced (1024): inline-too-large, naming the source" {
	run --separate-stderr "$D" --check -r "$C/rocev2-pd-1024.pcap"
	assert_failure 1
	assert_output 'frame 3: inline-too-large: 2000-byte Send exceeds the receiver'"'"'s 1024-byte inline threshold (announced in its private data, RFC 8797) [V1 4.3.2]'
}

@test "--check: --inline-threshold overrides what was announced; nothing announced: the version's default" {
	run --separate-stderr "$D" --check --inline-threshold 1024 -r "$C/rocev2-pd-4096.pcap"
	assert_failure 1
	assert_output --partial "1024-byte inline threshold (--inline-threshold)"
	run --separate-stderr "$D" --check --inline-threshold 2048 -r "$C/rocev2-pd-1024.pcap"
	assert_success
	run --separate-stderr "$D" --check -r "$C/rocev2-pd-none.pcap"
	assert_failure 1
	assert_output --partial "1024-byte inline threshold (the version's default)"
}

@test "--json connection record: an end whose private data are not RFC 8797's: rfc8797 false, the default threshold" {
	python3 - "$C/rocev2-pd-4096.pcap" "$BATS_TEST_TMPDIR/norep.pcap" <<'PY'
import struct, sys
b = open(sys.argv[1], 'rb').read()
out, off, i = [b[:24]], 24, 0
while off + 16 <= len(b):
    incl = struct.unpack('<I', b[off + 8:off + 12])[0]
    rec = b[off:off + 16 + incl]
    if i == 1:   # the REP: private data zeroed (not RFC 8797)
        rec = bytearray(rec)
        at = 16 + 14 + 20 + 8 + 12 + 8 + 24 + 36
        rec[at:at + 8] = bytes(8)
        # the ICRC is checked: recompute it as ibcrc.py does
        import zlib
        f = rec[16:]
        m = bytearray(f[14:34]); m[1] = 0xff; m[8] = 0xff; m[10:12] = b'\xff\xff'
        u = bytearray(f[34:54]); u[6:8] = b'\xff\xff'; u[12] = 0xff
        icrc = zlib.crc32(b'\xff' * 8 + bytes(m) + bytes(u) + bytes(f[54:-4])) & 0xffffffff
        rec[-4:] = struct.pack('<I', icrc)
        rec = bytes(rec)
    out.append(rec)
    off += 16 + incl
    i += 1
open(sys.argv[2], 'wb').write(b''.join(out))
PY
	run --separate-stderr "$D" --json -r "$BATS_TEST_TMPDIR/norep.pcap"
	assert_line --regexp '"responder":\{"addr":"198\.18\.0\.1","qp":"0x22","private_data":\{"bytes":"0000000000000000","rfc8797":false\}\}'
	run --separate-stderr "$D" --check -r "$BATS_TEST_TMPDIR/norep.pcap"
	assert_output --partial "(the version's default)"
}
