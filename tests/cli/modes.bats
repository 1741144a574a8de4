#!/usr/bin/env bats
# modes.bats - what scripts rely on in every capture mode: filters in
# printing, --stats and --check alike (repeated values, every program name
# the output prints, NFSv4 operations as procedures); --stats by direction
# of RPC with exact latency percentiles (a histogram within 1 % past the
# memory cap, said in the output) and --stats --json; --check --json with
# xid and conversation, --check=inline; -c, -t formats, -n; exit status 4
# "no RPC-over-RDMA traffic found" with its reasons.
# Env: TOP, BUILD, BIN.  Uses tests/captures and $BUILD/captures.

load helpers
bats_require_minimum_version 1.5.0

setup_file() {
	capture_env
	[ -e "$CAPS/rocev2-v1-basic.pcap" ] || return 0
	python3 - "$CAPS/rocev2-v1-basic.pcap" "$FIX" <<'PY'
import struct, sys, random
src, fix = sys.argv[1], sys.argv[2]
b = open(src, 'rb').read()
hdr, off, out = b[:24], 24, [b[:24]]
while off < len(b):
    h = b[off:off + 16]; incl = struct.unpack('<I', h[8:12])[0]
    d = bytearray(b[off + 16:off + 16 + incl]); off += 16 + incl
    if d[12:14] == b'\x08\x00' and d[23] == 17 and d[36:38] == b'\x12\xb7':
        d[-1] ^= 0x5a                   # the ICRC of every RoCEv2 packet
    out.append(h + bytes(d))
open(fix + '/allbadcrc.pcap', 'wb').write(b''.join(out))
# twelve TCP segments of random bytes to PORT: not RDMA
random.seed(7)
def tcp_capture(port, name):
    recs = [hdr]
    for i in range(12):
        pl = bytes(random.getrandbits(8) for _ in range(120))
        tcp = struct.pack('>HHIIBBHHH', 40000, port, 1000 + i * 120, 1, 0x50, 0x18, 65535, 0, 0)
        ip = struct.pack('>BBHHHBBH4s4s', 0x45, 0, 20 + 20 + len(pl), i, 0x4000, 64, 6, 0,
                         bytes([198, 18, 0, 2]), bytes([198, 18, 0, 1]))
        fr = b'\x02' * 6 + b'\x04' * 6 + b'\x08\x00' + ip + tcp + pl
        recs.append(struct.pack('<IIII', 1700000000 + i, 0, len(fr), len(fr)) + fr)
    open(fix + '/' + name, 'wb').write(b''.join(recs))
tcp_capture(2049, 'nfs-tcp.pcap')       # NFS over TCP
tcp_capture(20049, 'tcp-20049.pcap')    # NFS/RDMA's port, but no iWARP stream
# every frame cut at 50 bytes, inside the BTH (tcpdump -s 50)
recs, off = [hdr[:16] + struct.pack('<I', 50) + hdr[20:]], 24
while off < len(b):
    h = b[off:off + 16]; incl = struct.unpack('<I', h[8:12])[0]
    d = b[off + 16:off + 16 + incl]; off += 16 + incl
    recs.append(h[:8] + struct.pack('<I', min(incl, 50)) + h[12:] + d[:50])
open(fix + '/snap50.pcap', 'wb').write(b''.join(recs))
PY
}

setup() {
	common_setup
	S=${BUILD:-$TOP/build}/asan/rpcrdma-decode-small
}

need() {
	for f in "$@"; do
		[ -e "$CAPS/$f" ] || skip "no $f (make captures)"
	done
}

# ------------------------------------------------------------ --stats

@test "--stats: calls, replies and credits by direction; the backchannel's grant apart" {
	run "$D" --stats -r "$REAL/nfs41-backchannel-rocev2.pcap"
	assert_success
	# RPC server -> client credits (64) and the client's backchannel grant (16)
	[ "$(grep -c '^  forward calls 53, replies 53, replies without a call 0; credits granted: min 64, max 64, final 64$' <<<"$output")" -eq 2 ]
	[ "$(grep -c '^  backward calls 1, replies 1, replies without a call 0; credits granted: min 16, max 16, final 16$' <<<"$output")" -eq 2 ]
	run "$D" --stats -r "$REAL/nfs41-rocev2-rxe.pcap"
	assert_line '  backward calls 0, replies 0, replies without a call 0; credits granted: none seen'
}

# nearest-rank percentiles and min/max of the replies' latency_us, per
# procedure (an NFSv4 COMPOUND by its main operation), from --json
exact_table() {
	"$D" --json "$@" | python3 -c '
import json, math, sys
main_skip = {"SEQUENCE", "PUTFH", "PUTROOTFH", "PUTPUBFH", "SAVEFH", "RESTOREFH"}
along = {"GETATTR", "GETFH"}
lat = {}
for l in sys.stdin:
    r = json.loads(l).get("rpc") or {}
    if "latency_us" not in r or r.get("prog") is None:
        continue
    name = r["proc_name"]
    ops = r.get("ops")
    if ops:
        cb = name == "CB_COMPOUND"
        rest = [o for o in ops if o != "CB_SEQUENCE"] if cb else \
               [o for o in ops if o not in main_skip and o not in along]
        if not rest and not cb:
            rest = [o for o in ops if o in along]
        name = (rest or ops)[0]
    lat.setdefault((r["prog"], r["vers"], name), []).append(r["latency_us"])
for k in sorted(lat):
    v = sorted(lat[k])
    pct = lambda p: v[max(1, math.ceil(len(v) * p / 100)) - 1]
    print(k[0], k[1], k[2], len(v), v[0], pct(50), pct(90), pct(99), v[-1])'
}

@test "--stats: exact min, max and nearest-rank percentiles of every procedure (NFSv4 by operation)" {
	files=(-r "$REAL/nfs41-rocev2-rxe.pcap" -r "$REAL/nfs3-reads-rocev2-rxe.pcap"
	       -r "$REAL/nfs41-backchannel-iwarp.pcap")
	want=$(exact_table "${files[@]}")
	[ "$(wc -l <<<"$want")" -ge 15 ]
	got=$("$D" --stats --json "${files[@]}" | jq -r 'select(.type == "overall") |
		.latency[] | select(.exact) | [.prog, .vers, (.op // (.name | split(" ") | last)),
		.count, .min_us, .p50_us, .p90_us, .p99_us, .max_us] | join(" ")' | sort)
	[ "$(sort <<<"$want")" = "$got" ]
	# the text table says the same (the last six columns)
	run "$D" --stats "${files[@]}"
	refute_output --partial '~'
	while read -r prog vers name n mn p50 p90 p99 mx; do
		assert_line --regexp " v$vers $name +$n +$mn +$p50 +$p90 +$p99 +$mx\$"
	done <<<"$want"
}

@test "--stats: past the memory cap a histogram within 1 %, marked ~ and said (small-table build)" {
	[ -x "$S" ] || skip "no $S"
	files=(-r "$REAL/nfs41-rocev2-rxe.pcap" -r "$REAL/nfs41-iwarp-siw.pcap"
	       -r "$REAL/nfs41-reads-rocev2-rxe.pcap")
	want=$(exact_table "${files[@]}")
	run --separate-stderr "$S" --stats "${files[@]}"
	assert_line --regexp '^  ~ p50, p90, p99 within 1 % \(a histogram\): more than 64 latencies in all; count, min and max exact$'
	approx=$(grep -c ' ~$' <<<"$output")
	[ "$approx" -ge 3 ]
	# every approximate row: count, min, max exact; percentiles within 1 %
	while read -r prog vers name n mn p50 p90 p99 mx; do
		row=$(grep -E " v$vers $name +$n " <<<"$output")
		read -r -a c <<<"${row##* $name }"
		[ "${c[0]}" = "$n" ] && [ "${c[1]}" = "$mn" ] && [ "${c[5]}" = "$mx" ]
		python3 -c 'import sys
got, want = [int(x) for x in sys.argv[1:4]], [int(x) for x in sys.argv[4:7]]
assert all(abs(g - w) <= 0.01 * w for g, w in zip(got, want)), (got, want)' \
			"${c[2]}" "${c[3]}" "${c[4]}" "$p50" "$p90" "$p99"
	done <<<"$want"
}

@test "--stats --json: one object per conversation and one overall, the text's numbers" {
	f=$REAL/nfs41-backchannel-iwarp.pcap
	run "$D" --stats --json -r "$f"
	assert_success
	[ "$(jq -r .type <<<"$output" | tr '\n' ' ')" = "conversation overall " ]
	jq -se 'map(select(.type == "conversation"))[0] | .conversation == 1 and .transport == "iwarp" and
		.endpoints[0].port > 0 and .backward.calls >= 1 and .backward.credits.final > 0 and
		.forward.replies == .forward.calls and .private_data.requester.version == 1' <<<"$output"
	text=$("$D" --stats -r "$f")
	calls=$(jq 'select(.type == "overall") | .forward.calls' <<<"$output")
	grep -q "^  forward calls $calls, " <<<"$text"
	frames=$(jq 'select(.type == "overall") | .frames' <<<"$output")
	grep -q "^overall: $frames frames" <<<"$text"
}

@test "-q and -V add nothing to --stats and --check, --json turns them to JSON (the man page's -q)" {
	f=$REAL/nfs41-backchannel-rocev2.pcap
	want=$("$D" --stats -r "$f")
	[ "$("$D" --stats -q -r "$f")" = "$want" ]
	[ "$("$D" --stats -V -r "$f")" = "$want" ]
	"$D" --stats -q --json -r "$f" | jq -e .type >/dev/null
	need lint-credits-exceeded.pcap
	f=$CAPS/lint-credits-exceeded.pcap
	want=$("$D" --check -r "$f" 2>&1) || true
	[[ $want == *credits-exceeded* ]]
	[ "$("$D" --check -q -r "$f" 2>&1)" = "$want" ] || false
	[ "$("$D" --check -V -r "$f" 2>&1)" = "$want" ] || false
	[ "$("$D" --check -q --json -r "$f" 2>/dev/null | jq -r .check | sort -u)" = credits-exceeded ]
}

# ------------------------------------------------------------ filters

@test "filters in every mode: --stats and --check count only what passes" {
	f=$REAL/nfs41-backchannel-rocev2.pcap
	run "$D" --stats -r "$f" --program nfs-cb
	assert_line '  forward calls 0, replies 0, replies without a call 0; credits granted: none seen'
	assert_line '  backward calls 1, replies 1, replies without a call 0; credits granted: min 16, max 16, final 16'
	assert_line --regexp '^  v1 messages: 2 \(MSG 2\)$'
	refute_line --regexp '^  NFS v4 '
	run "$D" --stats -r "$f" --procedure READ
	assert_line --regexp '^  NFS v4 READ +2 '
	[ "$(grep -c '^  NFS ' <<<"$output")" -eq 1 ]
	# the conversation's own RDMA traffic stays (man page, --stats)
	[ "$(grep '^  RDMA bytes' <<<"$output")" = "$("$D" --stats -r "$f" | grep '^  RDMA bytes')" ]
	need lint-credits-exceeded.pcap
	run "$D" --check -r "$CAPS/lint-credits-exceeded.pcap"
	assert_failure 1
	n=$(grep -c credits-exceeded <<<"$output")
	# a conversation or XID that is not the violation's: nothing, exit 0
	run --separate-stderr "$D" --check -r "$CAPS/lint-credits-exceeded.pcap" --conversation 99
	assert_success
	[ -z "$output" ] && [ "$stderr" = "0 violations" ]
	xid=$("$D" --check --json -r "$CAPS/lint-credits-exceeded.pcap" | jq -r 'select(.check == "credits-exceeded") | .xid' | head -1)
	run --separate-stderr "$D" --check -r "$CAPS/lint-credits-exceeded.pcap" --xid "$xid"
	assert_failure 1
	[ "$(grep -c credits-exceeded <<<"$output")" -eq 1 ]
	[ "$n" -ge 1 ]
}

@test "filters: --xid and --conversation repeated mean any of them" {
	f=$REAL/nfs3-iwarp-siw.pcap
	mapfile -t x < <("$D" -r "$f" --json | jq -r 'select(.direction == "call") | .xid' | sed -n '3p;7p')
	a=${x[0]} b=${x[1]}
	run "$D" -r "$f" --xid "$a" --xid "$b"
	assert_success
	[ "${#lines[@]}" -eq 4 ]
	[ "$(awk '{ print $11 }' <<<"$output" | sort -u | tr '\n' ' ')" = "$(printf '%s\n' "$a" "$b" | sort | tr '\n' ' ')" ]
	run "$D" -r "$REAL/nfs3-iwarp-siw.pcap" -r "$REAL/nfs41-iwarp-siw.pcap" --conversation 1 --conversation 2
	[ "${#lines[@]}" -eq "$("$D" -r "$REAL/nfs3-iwarp-siw.pcap" -r "$REAL/nfs41-iwarp-siw.pcap" | wc -l)" ]
}

@test "--program takes every program name the output prints" {
	f=$REAL/nfs41-backchannel-iwarp.pcap
	n=$("$D" -r "$f" | grep -c 'NFS callback v1')
	[ "$n" -ge 2 ]
	for p in nfs-cb 'NFS callback' nfs_cb callback 0x40000000; do
		[ "$("$D" -r "$f" --program "$p" | wc -l)" -eq "$n" ]
	done
	for p in NFS nfs 100003; do
		[ "$("$D" -r "$f" --program "$p" | grep -c 'NFS v4')" -ge 20 ]
	done
	for p in NFS_ACL nfs_acl nfs-acl MOUNT rpcrdma-echo echo portmap nlm; do
		run "$D" -r "$f" --program "$p"
		assert_success
	done
	# NFS_ACL (NFSv3 mounts probe it) by each of its names
	f=$REAL/nfs3-iwarp-siw.pcap
	n=$("$D" -r "$f" | grep -c ' NFS_ACL v3 ')
	[ "$n" -ge 2 ]
	for p in NFS_ACL nfs_acl nfs-acl 100227; do
		run "$D" -r "$f" --program "$p"
		[ "${#lines[@]}" -eq "$n" ] && [ "$(grep -c ' NFS_ACL v3 ' <<<"$output")" -eq "$n" ]
	done
}

@test "--procedure: a number, a procedure name, or an NFSv4 operation" {
	f=$REAL/nfs41-rocev2-rxe.pcap
	run "$D" -r "$f" --procedure READ
	assert_success
	[ "${#lines[@]}" -eq "$("$D" -r "$f" | grep -c ' COMPOUND \(call\|reply\) .*READ')" ]
	run "$D" -r "$f" --procedure sequence --procedure EXCHANGE_ID
	[ "$(grep -vc 'SEQUENCE\|EXCHANGE_ID' <<<"$output")" -eq 0 ]
	[ "$(grep -c 'SEQUENCE' <<<"$output")" -ge 10 ]
	[ "$("$D" -r "$f" --procedure 0 | grep -c 'NFS v4 NULL')" -eq 2 ]
	run "$D" -r "$REAL/nfs3-rocev2-rxe.pcap" --procedure FSINFO
	[ "${#lines[@]}" -ge 2 ]
	[ "$(grep -vc FSINFO <<<"$output")" -eq 0 ]
	run "$D" -r "$f" --procedure NOSUCHOP
	usage_error "--procedure: 'NOSUCHOP'"
}

# ------------------------------------------------------------ --check

@test "--check --json: xid and conversation with each violation" {
	need lint-credits-exceeded.pcap lint-crc-error.pcap
	run --separate-stderr "$D" --check --json -r "$CAPS/lint-credits-exceeded.pcap"
	assert_failure 1
	jq -se 'map(select(.check == "credits-exceeded"))[0] | (.xid | test("^0x[0-9a-f]{8}$")) and
		.conversation == 1 and .file != null and .section == "V1 4.3.1"' <<<"$output"
	# a CRC error is in no message: no xid
	run --separate-stderr "$D" --check --json -r "$CAPS/lint-crc-error.pcap"
	jq -se 'map(select(.check == "crc-error"))[0] | (has("xid") | not)' <<<"$output"
}

@test "--check=inline: each violation after the message it concerns, in every output mode" {
	need lint-credits-exceeded.pcap
	f=$CAPS/lint-credits-exceeded.pcap
	fr=$("$D" --check -r "$f" | sed -nE 's/^frame ([0-9]+): credits-exceeded: .*/\1/p' | head -1)
	run --separate-stderr "$D" --check=inline -r "$f"
	assert_failure 1
	[[ $stderr == *violations* ]]
	i=$(grep -nE "^ +$fr " <<<"$output" | cut -d: -f1)
	[ -n "$i" ]
	[[ ${lines[$i]} == "frame $fr: credits-exceeded: "* ]]
	[ "$(grep -c ' xid ' <<<"$output")" -eq "$("$D" -r "$f" | wc -l)" ]
	run --separate-stderr "$D" --check=inline --json -r "$f"
	jq -se "map(select(.frame == $fr))[0] | .violations[0].check == \"credits-exceeded\"" <<<"$output"
	[ "$(jq -c 'select(.frame != '"$fr"') | .violations' <<<"$output" | sort -u)" = "[]" ]
	run --separate-stderr "$D" --check=inline -V -r "$f"
	assert_line --regexp "^frame $fr: credits-exceeded: "
	run "$D" --check=bogus -r "$f"
	usage_error "--check=bogus"
}

# ------------------------------------------------------------ -c, -t, -n

@test "-c COUNT: the first COUNT messages that pass the filters, in every mode" {
	f=$REAL/nfs41-rocev2-rxe.pcap
	run "$D" -c 5 -r "$f"
	assert_success
	[ "$output" = "$("$D" -r "$f" | head -5)" ]
	run "$D" -c 3 --procedure GETATTR -r "$f"
	[ "$output" = "$("$D" --procedure GETATTR -r "$f" | head -3)" ]
	run "$D" -c 10 --stats -r "$f"
	assert_line --regexp '^  v1 messages: 10 '
	run "$D" -c 0 -r "$f"
	usage_error "-c: '0'"
}

@test "-t: none, epoch, delta, date, relative; --time-format clock; -n accepted" {
	f=$REAL/nfs3-iwarp-siw.pcap
	epoch=$("$D" -r "$f" | head -3 | awk '{ print $2 }')
	run "$D" -t -r "$f"
	[ "$(head -1 <<<"$output" | awk '{ print $2 }')" = conv ]
	[ "$("$D" -tt -r "$f" | head -3 | awk '{ print $2 }')" = "$epoch" ]
	[ "$("$D" -n -r "$f")" = "$("$D" -r "$f")" ]
	read -r t1 t2 t3 <<<"$(echo $epoch)"
	want=$(python3 -c 'import sys; a = [float(x) for x in sys.argv[1:]]
print("0.000000 %.6f %.6f" % (a[1] - a[0], a[2] - a[1]))' $t1 $t2 $t3)
	[ "$("$D" -ttt -r "$f" | head -3 | awk '{ print $2 }' | tr '\n' ' ' | sed 's/ $//')" = "$want" ]
	want=$(python3 -c 'import sys; a = [float(x) for x in sys.argv[1:]]
print("0.000000 %.6f %.6f" % (a[1] - a[0], a[2] - a[0]))' $t1 $t2 $t3)
	[ "$("$D" -ttttt -r "$f" | head -3 | awk '{ print $2 }' | tr '\n' ' ' | sed 's/ $//')" = "$want" ]
	d=$(TZ=UTC "$D" -tttt -r "$f" | head -1 | awk '{ print $2 }')
	[ "$d" = "$(TZ=UTC date -d "@${t1%.*}" +%Y-%m-%dT%H:%M:%S).${t1#*.}" ]
	c=$(TZ=UTC "$D" --time-format clock -r "$f" | head -1 | awk '{ print $2 }')
	[ "$c" = "${d#*T}" ]
	run "$D" --time-format none -r "$f"
	[ "$(head -1 <<<"$output" | awk '{ print $2 }')" = conv ]
	# JSON keeps seconds since the epoch
	[ "$("$D" -ttt --json -r "$f" | head -1 | jq .time)" = "$t1" ]
	run "$D" -tttttt -r "$f"
	usage_error "-t: at most five"
}

# ------------------------------------------------------------ nothing found

@test "no RPC-over-RDMA traffic: said with the likely reasons, exit 4" {
	need rocev2-v1-basic.pcap
	n=$(capinfos -c -M "$CAPS/rocev2-v1-basic.pcap" | awk '/Number of packets/ { print $4 }')
	run --separate-stderr "$D" -r "$FIX/allbadcrc.pcap"
	assert_failure 4
	[[ $stderr == *"no RPC-over-RDMA traffic found in $n frames"* ]]
	[[ $stderr == *"every one of the "*" RDMA packets failed its CRC"*"--no-crc-check"* ]]
	run --separate-stderr "$D" -r "$FIX/nfs-tcp.pcap"
	assert_failure 4
	[[ $stderr == *"12 TCP segments that are not an iWARP stream (most to port 2049): NFS over TCP (port 2049) is not RDMA"* ]]
	run --separate-stderr "$D" -r "$FIX/tcp-20049.pcap"
	assert_failure 4
	[[ $stderr == *" TCP segments that are not an iWARP stream (most to port 20049): an iWARP stream is followed from its MPA start"*"--mpa-crc/--mpa-markers"* ]]
	run --separate-stderr "$D" -r "$FIX/snap50.pcap"
	assert_failure 4
	[[ $stderr == *"no RPC-over-RDMA traffic found in $n frames"* ]]
	[[ $stderr == *"$n frames cut by the snapshot length: capture with tcpdump -s 0"* ]]
	[[ $stderr != *"no IP, RoCEv1 or InfiniBand transport traffic"* ]]
	# with --check, the CRC errors are the violations: exit 1
	run --separate-stderr "$D" --check -r "$FIX/allbadcrc.pcap"
	assert_failure 1
	# filters that select nothing are not "nothing found"
	run "$D" -r "$REAL/nfs3-iwarp-siw.pcap" --xid 0x1
	assert_success
	[ -z "$output" ]
}

# ------------------------------------------------------------ CRCs, MPA

@test "--no-crc-check: packets whose CRC is wrong are decoded (a NIC that fills them late)" {
	need rocev2-v1-basic.pcap iwarp-badcrc.pcap
	want=$("$D" -r "$CAPS/rocev2-v1-basic.pcap" | cut -c8-)
	run --separate-stderr "$D" --no-crc-check -r "$FIX/allbadcrc.pcap"
	assert_success
	[ "$(cut -c8- <<<"$output")" = "$want" ]
	run --separate-stderr "$D" --no-crc-check --check -r "$FIX/allbadcrc.pcap"
	assert_success
	[ "$stderr" = "0 violations" ]
	# MPA CRC32c, and InfiniBand's VCRC and ICRC
	fr=$("$D" --check -r "$CAPS/iwarp-badcrc.pcap" | sed -nE 's/^frame ([0-9]+): crc-error: .*/\1/p')
	[ -n "$fr" ]
	run "$D" --no-crc-check --check -r "$CAPS/iwarp-badcrc.pcap"
	refute_output --partial crc-error
	[ "$("$D" --no-crc-check -r "$CAPS/iwarp-badcrc.pcap" | wc -l)" -gt "$("$D" -r "$CAPS/iwarp-badcrc.pcap" 2>/dev/null | wc -l)" ]
	need ib-247.pcap
	python3 - "$CAPS/ib-247.pcap" "$FIX/ib-badcrcs.pcap" <<'PY'
import struct, sys
b = open(sys.argv[1], 'rb').read(); out = [b[:24]]; off = 24
while off < len(b):
    h = b[off:off + 16]; n = struct.unpack('<I', h[8:12])[0]
    d = bytearray(b[off + 16:off + 16 + n]); off += 16 + n
    d[-1] ^= 0xff; d[-3] ^= 0xff           # the VCRC and the ICRC
    out.append(h + bytes(d))
open(sys.argv[2], 'wb').write(b''.join(out))
PY
	run --separate-stderr "$D" -r "$FIX/ib-badcrcs.pcap"
	assert_failure 4
	run --separate-stderr "$D" --no-crc-check -r "$FIX/ib-badcrcs.pcap"
	assert_success
	[ "$(cut -c8- <<<"$output")" = "$("$D" -r "$CAPS/ib-247.pcap" | cut -c8-)" ]
}

@test "--mpa-markers, --mpa-crc: an iWARP stream whose MPA handshake is not in the capture" {
	need iwarp-markers.pcap
	# the same capture without its SYNs and MPA Request/Reply
	python3 - "$CAPS/iwarp-markers.pcap" "$FIX/nohs.pcap" <<'PY'
import struct, sys
b = open(sys.argv[1], 'rb').read(); out = [b[:24]]; off = 24
while off < len(b):
    h = b[off:off + 16]; n = struct.unpack('<I', h[8:12])[0]
    d = b[off + 16:off + 16 + n]; off += 16 + n
    if d[12:14] == b'\x08\x00' and d[23] == 6:
        t = 14 + (d[14] & 15) * 4
        pl = d[t + (d[t + 12] >> 4) * 4:]
        if d[t + 13] & 2 or pl[:10] in (b'MPA ID Req', b'MPA ID Rep'):
            continue
    out.append(h + d)
open(sys.argv[2], 'wb').write(b''.join(out))
PY
	want=$("$D" -r "$CAPS/iwarp-markers.pcap" 2>/dev/null | cut -c8-)
	[ "$(wc -l <<<"$want")" -ge 8 ]
	# the framing inferred from the stream: CRC and markers on, their phase
	run --separate-stderr "$D" -r "$FIX/nohs.pcap"
	[ "$(cut -c8- <<<"$output")" = "$want" ]
	[[ $stderr == *"no MPA handshake in the capture: the framing is inferred from the stream"* ]]
	run --separate-stderr "$D" -r "$FIX/nohs.pcap" --mpa-markers on
	[ "$(cut -c8- <<<"$output")" = "$want" ]
	# both given: taken as they are, nothing inferred
	run --separate-stderr "$D" -r "$FIX/nohs.pcap" --mpa-markers on --mpa-crc on
	[ "$(cut -c8- <<<"$output")" = "$want" ]
	[[ $stderr != *"inferred"* ]]
	# forced against what the stream has: no framing validates
	run --separate-stderr "$D" -r "$FIX/nohs.pcap" --mpa-markers off
	[ "${#lines[@]}" -lt "$(wc -l <<<"$want")" ]
	# forced over the handshake: markers off where they are on loses the messages
	run --separate-stderr "$D" -r "$CAPS/iwarp-markers.pcap" --mpa-markers off
	[ "${#lines[@]}" -lt "$(wc -l <<<"$want")" ]
	# CRCs off: a corrupt CRC is not looked at
	need iwarp-badcrc.pcap
	run "$D" --check -r "$CAPS/iwarp-badcrc.pcap" --mpa-crc off
	refute_output --partial crc-error
	run "$D" -r "$CAPS/iwarp-basic.pcap" --mpa-crc maybe
	usage_error "--mpa-crc: 'maybe' is not one of on, off, auto"
}

# ------------------------------------------------------------ --plot

@test "--stats --plot FILE.svg: one figure, a panel per chart, from gnuplot" {
	command -v gnuplot >/dev/null || skip "no gnuplot (gnuplot-nox)"
	f=$REAL/nfs41-backchannel-rocev2.pcap
	run --separate-stderr "$D" -r "$f" --stats --plot "$FIX/p.svg"
	assert_success
	assert_line --regexp '^overall: '
	grep -q '<svg' "$FIX/p.svg" && grep -q '</svg>' "$FIX/p.svg"
	for t in 'credits granted' 'RPC latency of each reply' 'RPC latency distribution per procedure' \
		 'message sizes: inline and chunked' 'NFS v4 GETATTR' 'conv 1 credits'; do
		grep -q "$t" "$FIX/p.svg" || { echo "no '$t' in the SVG"; return 1; }
	done
	# PNG too, and --plot alone implies --stats
	run --separate-stderr "$D" -r "$f" --plot "$FIX/p.png"
	assert_success
	assert_line --regexp '^overall: '
	[ "$(head -c 8 "$FIX/p.png" | xxd -p)" = 89504e470d0a1a0a ]
}

@test "--plot FILE.gp: the script, with every reply's latency and the credits as data" {
	f=$REAL/nfs41-rocev2-rxe.pcap
	run "$D" -r "$f" --plot "$FIX/p.gp" -q
	assert_success
	n=$("$D" -r "$f" --json | grep -c '"latency_us"')
	# the $lat data block: one line per reply, "slot seconds latency"
	got=$(sed -n '/^\$lat << EOD$/,/^EOD$/p' "$FIX/p.gp" | grep -c '^[0-9]')
	[ "$got" -eq "$n" ] && [ "$n" -ge 40 ]
	want=$("$D" -r "$f" --json | jq -r 'select(.rpc.latency_us) | .rpc.latency_us' | sort -n | tr '\n' ' ')
	[ "$(sed -n '/^\$lat << EOD$/,/^EOD$/p' "$FIX/p.gp" | awk '/^[0-9]/ && NF == 3 { print $3 }' | sort -n | tr '\n' ' ')" = "$want" ]
	# the credits the server granted, in every forward call and reply point
	[ "$(sed -n '/^\$conv << EOD$/,/^EOD$/p' "$FIX/p.gp" | awk '/^[0-9]/ && NF == 4 && $3 != 0 { print $3 }' | sort -u)" = 64 ]
	if command -v gnuplot >/dev/null; then
		(cd "$FIX" && sed "s|^# set output 'FILE.svg'|set output 'gp.svg'|" p.gp | gnuplot)
		grep -q '</svg>' "$FIX/gp.svg"
	fi
}

@test "--plot: errors named (file kind, gnuplot missing), exit 2 or 3" {
	run "$D" -r "$REAL/nfs3-iwarp-siw.pcap" --plot x.pdf
	usage_error "--plot x.pdf: give a file ending in .svg, .png or .gp"
	run --separate-stderr env PATH=/nonexistent "$D" -r "$REAL/nfs3-iwarp-siw.pcap" --plot "$FIX/none.svg"
	assert_failure 3
	[[ $stderr == *"--plot $FIX/none.svg: gnuplot is not installed (Debian: apt-get install gnuplot-nox)"* ]]
}
