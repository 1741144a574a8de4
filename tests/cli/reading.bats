#!/usr/bin/env bats
# reading.bats - how rpcrdma-decode reads captures: pcap in both byte orders
# and with nanosecond time stamps, pcapng whose interfaces have different
# link types (mergecap), gzip-compressed files and streams, a pipe that
# grows while it is read (tcpdump -U -w - | rpcrdma-decode -r -), several
# -r files, and the exit statuses for what cannot be read.
# Env: TOP, BUILD, BIN.  Uses tests/captures and $BUILD/captures.

load helpers
bats_require_minimum_version 1.5.0

setup_file() {
	capture_env
	# the same capture big-endian, and with nanosecond time stamps
	python3 - "$REAL/nfs41-rocev2-rxe.pcap" "$FIX" <<'PY'
import struct, sys
b = open(sys.argv[1], 'rb').read()
fix = sys.argv[2]
magic, vmaj, vmin, tz, sig, snap, dlt = struct.unpack('<IHHiIII', b[:24])
be, ns = [struct.pack('>IHHiIII', magic, vmaj, vmin, tz, sig, snap, dlt)], \
         [struct.pack('<IHHiIII', 0xa1b23c4d, vmaj, vmin, tz, sig, snap, dlt)]
off = 24
while off < len(b):
    s, us, incl, orig = struct.unpack('<IIII', b[off:off + 16])
    data = b[off + 16:off + 16 + incl]
    be.append(struct.pack('>IIII', s, us, incl, orig) + data)
    ns.append(struct.pack('<IIII', s, us * 1000 + 999, incl, orig) + data)
    off += 16 + incl
open(fix + '/be.pcap', 'wb').write(b''.join(be))
open(fix + '/ns.pcap', 'wb').write(b''.join(ns))
PY
}

setup() {
	common_setup
}

need() {
	for f in "$@"; do
		[ -e "$CAPS/$f" ] || skip "no $f (make captures)"
	done
}

@test "pcap big-endian and with nanosecond time stamps: the same messages" {
	want=$("$D" -r "$REAL/nfs41-rocev2-rxe.pcap")
	[ "$(wc -l <<<"$want")" -ge 90 ]
	run "$D" -r "$FIX/be.pcap"
	assert_success
	[ "$output" = "$want" ]
	run "$D" -r "$FIX/ns.pcap"
	assert_success
	[ "$output" = "$want" ]
}

@test "pcapng with interfaces of different link types (mergecap of ERF and Ethernet)" {
	need ib-erf.pcap rocev2-v1-basic.pcap
	command -v mergecap >/dev/null || skip "no mergecap"
	mergecap -w "$FIX/mixed.pcapng" "$CAPS/ib-erf.pcap" "$CAPS/rocev2-v1-basic.pcap"
	ib=$("$D" -r "$CAPS/ib-erf.pcap" | wc -l)
	roce=$("$D" -r "$CAPS/rocev2-v1-basic.pcap" | wc -l)
	run --separate-stderr "$D" -r "$FIX/mixed.pcapng" --json
	assert_success
	[ -z "$stderr" ]
	[ "${#lines[@]}" -eq $((ib + roce)) ]
	[ "$(grep -c '"transport":"infiniband"' <<<"$output")" -eq "$ib" ]
	[ "$(grep -c '"transport":"rocev2"' <<<"$output")" -eq "$roce" ]
	# tshark numbers the frames of the merged file the same way
	if command -v tshark >/dev/null; then
		n=$(tshark -r "$FIX/mixed.pcapng" 2>/dev/null | wc -l)
		last=$(jq -s 'map(.frame) | max' <<<"$output")
		[ "$last" -le "$n" ]
	fi
}

@test "pcapng: an interface of an unsupported link type is skipped, with a warning" {
	need rocev2-pcapng.pcapng
	python3 - "$CAPS/rocev2-pcapng.pcapng" "$FIX/idb105.pcapng" <<'PY'
import struct, sys
b = bytearray(open(sys.argv[1], 'rb').read())
# a second IDB (link type 105, interface 1) right after the first IDB
off = struct.unpack('<I', b[4:8])[0]
while struct.unpack('<I', b[off:off + 4])[0] != 1:
    off += struct.unpack('<I', b[off + 4:off + 8])[0]
off += struct.unpack('<I', b[off + 4:off + 8])[0]
idb = struct.pack('<IIHHII', 1, 20, 105, 0, 65535, 20)
open(sys.argv[2], 'wb').write(bytes(b[:off]) + idb + bytes(b[off:]))
PY
	want=$("$D" -r "$CAPS/rocev2-pcapng.pcapng")
	run --separate-stderr "$D" -r "$FIX/idb105.pcapng"
	assert_success
	[ "$output" = "$want" ]
	[[ $stderr == *"interface 1: unsupported link type 105"*"its frames are skipped"* ]]
}

@test ".pcap.gz and .pcapng.gz, from a file and from standard input" {
	need rocev2-pcapng.pcapng
	for f in "$REAL/nfs3-iwarp-siw.pcap" "$CAPS/rocev2-pcapng.pcapng"; do
		want=$("$D" -r "$f" --json | jq -c 'del(.file)')
		gzip -c "$f" >"$FIX/c.gz"
		run "$D" -r "$FIX/c.gz" --json
		assert_success
		[ "$(jq -c 'del(.file)' <<<"$output")" = "$want" ]
		run "$D" -r - --json <"$FIX/c.gz"
		assert_success
		[ "$(jq -c 'del(.file)' <<<"$output")" = "$want" ]
	done
	# two gzip members one after the other are one stream (gzip(1))
	head -c 5000 "$REAL/nfs3-iwarp-siw.pcap" | gzip -c >"$FIX/m.gz"
	tail -c +5001 "$REAL/nfs3-iwarp-siw.pcap" | gzip -c >>"$FIX/m.gz"
	run "$D" -r "$FIX/m.gz"
	assert_success
	[ "$output" = "$("$D" -r "$REAL/nfs3-iwarp-siw.pcap")" ]
}

@test "a gzip stream cut short: the messages before, then exit 3 with the reason" {
	gzip -c "$REAL/nfs41-rocev2-rxe.pcap" | head -c 20000 >"$FIX/cut.gz"
	run --separate-stderr "$D" -r "$FIX/cut.gz"
	assert_failure 3
	[ "${#lines[@]}" -ge 10 ]
	[[ $stderr == *"cut.gz: truncated at frame "*"compressed data cut short"* ]]
}

@test "a growing stream (tcpdump -U -w - | rpcrdma-decode -r -): messages print as they arrive" {
	f=$REAL/nfs41-rocev2-rxe.pcap
	mkfifo "$FIX/pipe"
	# the writer stops half-way for a while, with the pipe open
	( head -c 40000 "$f"; sleep 4; tail -c +40001 "$f" ) >"$FIX/pipe" &
	"$D" -r - <"$FIX/pipe" >"$FIX/out" &
	pid=$!
	sleep 2
	early=$(wc -l <"$FIX/out")
	wait "$pid"
	total=$(wc -l <"$FIX/out")
	# the messages of the first 40000 bytes are out before the rest arrives
	[ "$early" -ge 10 ] && [ "$early" -lt "$total" ]
	[ "$(cat "$FIX/out")" = "$("$D" -r "$f")" ]
}

@test "exit status 3: missing file, not a capture, truncated file; other files still read" {
	run --separate-stderr "$D" -r /nonexistent.pcap -r "$REAL/nfs3-iwarp-siw.pcap"
	assert_failure 3
	[[ $stderr == *"/nonexistent.pcap: No such file or directory"* ]]
	[ "${#lines[@]}" -ge 10 ]
	run --separate-stderr "$D" -r "$TOP/Makefile"
	assert_failure 3
	[[ $stderr == *"Makefile: not a pcap or pcapng capture file"* ]]
	: >"$FIX/empty"
	run --separate-stderr "$D" -r "$FIX/empty"
	assert_failure 3
	[[ $stderr == *"empty: not a capture file (0 bytes)"* ]]
}

@test "-w FILE without filters: every frame read, as pcapng; read back, the same messages" {
	f=$REAL/nfs41-rocev2-rxe.pcap
	run --separate-stderr "$D" -r "$f" -w "$FIX/all.pcapng"
	assert_success
	[ "$(head -c 4 "$FIX/all.pcapng" | xxd -p)" = 0a0d0d0a ]
	[ "$("$D" -r "$FIX/all.pcapng")" = "$output" ]
	if command -v capinfos >/dev/null; then
		[ "$(capinfos -c -M "$FIX/all.pcapng" | awk '/Number of packets/ { print $4 }')" = \
		  "$(capinfos -c -M "$f" | awk '/Number of packets/ { print $4 }')" ]
	fi
	# -w - : the capture on standard output (messages not printed), as tcpdump
	"$D" -r "$f" -w - | "$D" -r - --json | jq -c 'del(.file)' >"$FIX/a"
	"$D" -r "$f" --json | jq -c 'del(.file)' >"$FIX/b"
	cmp "$FIX/a" "$FIX/b"
	run "$D" -r "$f" -w - --stats
	usage_error "-w - writes the capture to standard output"
}

@test "-w FILE with filters: the frames of the messages that pass (Send and chunk data)" {
	f=$REAL/nfs41-rocev2-rxe.pcap
	run "$D" -r "$f" --procedure READ -w "$FIX/read.pcapng"
	assert_success
	[ "${#lines[@]}" -ge 2 ]
	# read back: the same messages (numbered in the smaller file)
	sel='[.xid, .direction, .time, .rpc.proc_name, .rpc.ops, .verdict.action]'
	[ "$("$D" -r "$FIX/read.pcapng" --json | jq -c "$sel")" = \
	  "$("$D" -r "$f" --procedure READ --json | jq -c "$sel")" ]
	# and their chunk data with them
	a=$("$D" -r "$f" --procedure READ --json | jq -c '.chunk_data // empty | map_values(.bytes)')
	b=$("$D" -r "$FIX/read.pcapng" --json | jq -c '.chunk_data // empty | map_values(.bytes)')
	[ -n "$a" ] && [ "$a" = "$b" ]
	n=$(capinfos -c -M "$FIX/read.pcapng" 2>/dev/null | awk '/Number of packets/ { print $4 }')
	[ -z "$n" ] || [ "$n" -lt "$(capinfos -c -M "$f" | awk '/Number of packets/ { print $4 }')" ]
	# -c with it: only the first message's frames
	run "$D" -r "$f" --procedure GETATTR -c 1 -w "$FIX/one.pcapng"
	[ "${#lines[@]}" -eq 1 ]
	[ "$("$D" -r "$FIX/one.pcapng" | wc -l)" -eq 1 ]
	run "$D" -r "$f" -w /nonexistent/dir/x.pcapng
	assert_failure 3
	assert_output --partial "-w /nonexistent/dir/x.pcapng: No such file or directory"
}

@test "a filter expression after the options (pcap-filter), on files; a bad one is a usage error" {
	f=$REAL/nfs41-rocev2-rxe.pcap
	run "$D" -r "$f" src host 198.18.0.1
	assert_success
	[ "${#lines[@]}" -eq "$("$D" -r "$f" | grep -c ' 198\.18\.0\.1/qp=[^ ]* *> ')" ]
	# frame numbers stay the file's
	[ "$(head -1 <<<"$output" | awk '{ print $1 }')" = 6 ]
	run "$D" -r "$f" 'udp and not port 4791'
	assert_failure 4
	run "$D" -r "$f" 'udp and sr host'
	usage_error "filter 'udp and sr host': syntax error"
	run "$D" --hex 00 extra
	usage_error "unexpected argument 'extra'"
}

@test "-i IFACE: a live capture (loopback), messages as they come, counts on SIGINT, --stats at -c COUNT" {
	[ "$(id -u)" = 0 ] || skip "capturing needs root"
	run "$D" -i no-such-interface
	assert_failure 3
	assert_output --partial "-i no-such-interface: "
	run "$D" -i lo -r "$REAL/nfs3-iwarp-siw.pcap"
	usage_error "-r and -i cannot be used together"
	# the UDP payloads of a RoCEv2 capture sent again over lo to port 47910
	# (other addresses: ICRCs are not checked)
	f=$REAL/nfs41-rocev2-rxe.pcap
	want=$("$D" -r "$f" | wc -l)
	"$D" -i lo --roce-port 47910 --no-crc-check --json -w "$FIX/lo.pcapng" \
		udp dst port 47910 >"$FIX/lo.json" 2>"$FIX/lo.err" &
	pid=$!
	# the --stats reader ends by itself after the last message (-c): a
	# SIGINT sent when the JSON reader had them all could come before this
	# one had read them (a fresh clone of 11-27: no READ in its table)
	"$D" -i lo --roce-port 47910 --no-crc-check --stats -c "$want" udp dst port 47910 \
		>"$FIX/lo.stats" 2>"$FIX/lo.stats.err" &
	pid2=$!
	for _ in $(seq 50); do
		grep -q 'listening on' "$FIX/lo.err" && grep -q 'listening on' "$FIX/lo.stats.err" && break
		sleep 0.1
	done
	python3 - "$f" <<'PY'
import socket, struct, sys, time
b = open(sys.argv[1], 'rb').read(); off = 24
# each end of the capture gets an address of its own: 198.18.0.N -> 127.0.0.N+1
socks = {}
def sock(ip):
    if ip not in socks:
        socks[ip] = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        socks[ip].bind(('127.0.0.%d' % (ip[3] + 1), 0))
    return socks[ip]
while off < len(b):
    n = struct.unpack('<I', b[off + 8:off + 12])[0]
    d = b[off + 16:off + 16 + n]; off += 16 + n
    if d[12:14] == b'\x08\x00' and d[23] == 17 and d[36:38] == b'\x12\xb7':
        src, dst = d[26:30], d[30:34]
        sock(src).sendto(d[14 + (d[14] & 15) * 4 + 8:], ('127.0.0.%d' % (dst[3] + 1), 47910))
        time.sleep(0.001)
PY
	# every message out while the capture still runs (polled: a loaded machine is slow)
	for _ in $(seq 200); do
		early=$(grep -c '^{"valid":' "$FIX/lo.json")     # messages, not records
		[ "$early" -ge "$want" ] && break
		sleep 0.1
	done
	kill -INT "$pid"
	wait "$pid"
	for _ in $(seq 200); do kill -0 "$pid2" 2>/dev/null || break; sleep 0.1; done
	if kill -0 "$pid2" 2>/dev/null; then
		kill -INT "$pid2"
		wait "$pid2"
		fail "the --stats reader had not read $want messages 20 s after the JSON one had: $(cat "$FIX/lo.stats" "$FIX/lo.stats.err")"
	fi
	wait "$pid2"
	[ "$early" -eq "$want" ]                   # out before the end
	diff <(jq -r '[.xid, .direction, .rpc.proc_name] | join(" ")' "$FIX/lo.json") \
	     <("$D" -r "$f" --json | jq -r '[.xid, .direction, .rpc.proc_name] | join(" ")')
	grep -q 'listening on lo, link-type EN10MB' "$FIX/lo.err"
	grep -qE '^[0-9]+ packets captured$' "$FIX/lo.err"
	grep -q '^overall: ' "$FIX/lo.stats"
	grep -qE '^  NFS v4 READ +1 ' "$FIX/lo.stats"
	# -w saved what was read
	[ "$("$D" -r "$FIX/lo.pcapng" --roce-port 47910 --no-crc-check --json | jq -c 'del(.file)')" = \
	  "$(jq -c 'del(.file)' "$FIX/lo.json")" ]
}
