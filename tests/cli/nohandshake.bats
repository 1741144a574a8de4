#!/usr/bin/env bats
# nohandshake.bats - iWARP captures that lack the MPA Request/Reply (tcpdump
# started after the mount, as users start it): rpcrdma-decode infers the MPA
# framing from the stream and finds every message, in both directions, that
# the same run's capture from before the mount has (tests/captures/nohandshake,
# README.md there); -V, --stats and --stats --json say the framing was
# inferred.  And a capture cut inside the traffic (the handshake and a
# message in flight removed from a full one).
# Env: TOP, BIN.

load helpers
bats_require_minimum_version 1.5.0

setup() {
	common_setup
	NH=$TOP/tests/captures/nohandshake
	# what identifies a message, whichever capture it came from (frame
	# numbers differ, and so do the two tcpdumps' time stamps by a few us)
	KEY='select(.valid != null) | [.src, .src_port, .dst, .dst_port, .xid,
	     .proc_name, .direction, .credits, .header_length, .payload_length,
	     (.reads | length), (.writes | length), (.reply != null),
	     .rpc.proc_name, .verdict.action] | @tsv'
}

# the time stamp of the first frame of pcap $1
first_time() {
	python3 - "$1" <<'PY'
import struct, sys
b = open(sys.argv[1], 'rb').read()
s, u = struct.unpack('<II', b[24:32])
print('%d.%06d' % (s, u))
PY
}

@test "captured after the mount (no MPA handshake): the messages of the same run captured from before it, both directions, in order" {
	for v in nfs3 nfs41; do
		late=$NH/$v-late-iwarp-siw.pcap full=$NH/$v-late-full-iwarp-siw.pcap
		t0=$(first_time "$late")
		# the late capture starts after a second without traffic
		want=$("$D" -r "$full" --json | jq -r "select(.time != null and .time >= $t0 - 0.5) | $KEY")
		run --separate-stderr "$D" -r "$late" --json
		assert_success
		got=$(jq -r "$KEY" <<<"$output")
		[ "$(wc -l <<<"$want")" -ge 20 ]
		diff <(echo "$want") <(echo "$got")
		# both directions, every reply matched to its call
		[ "$(grep -c $'\tcall\t' <<<"$got")" -eq "$(grep -c $'\treply\t' <<<"$got")" ]
		[ "$(jq -r 'select(.direction == "reply") | .rpc.call_frame // "none"' <<<"$output" | grep -c none)" -eq 0 ]
		# chunks: the WRITE's Read chunk, the READ reply's Write chunk
		jq -e -s 'map(select(.valid != null)) | (map(.reads | length) | add > 0) and (map(.writes | length) | add > 0)' <<<"$output" >/dev/null
		[[ $stderr == *"no MPA handshake in the capture: the framing is inferred from the stream"* ]]
	done
}

@test "no MPA handshake: -V, --stats and --stats --json say the framing was inferred, and how" {
	late=$NH/nfs3-late-iwarp-siw.pcap
	run --separate-stderr "$D" -V -r "$late"
	assert_success
	assert_output --partial "MPA framing of 198.18.0.2:"
	assert_output --partial "> 198.18.0.1:20049 inferred (no MPA handshake in the capture): CRC off, markers off"
	assert_output --partial "MPA framing of 198.18.0.1:20049 > 198.18.0.2:"
	run --separate-stderr "$D" --stats -r "$late"
	assert_output --partial "MPA framing inferred (no MPA handshake in the capture): CRC off, markers off, both directions"
	run --separate-stderr "$D" --stats --json -r "$late"
	[ "$(jq -r 'select(.type == "conversation") | .mpa_inferred | "\(.crc) \(.markers) \(.directions)"' <<<"$output")" = "false off 2" ]
	# with the handshake: nothing inferred
	run --separate-stderr "$D" -V --stats -r "$NH/nfs3-late-full-iwarp-siw.pcap"
	refute_output --partial "inferred (no MPA"
	[[ $stderr != *"inferred"* ]]
}

@test "no MPA handshake, the capture cut inside the traffic: the rest of the messages as with it" {
	full=$TOP/tests/captures/nfs3-iwarp-siw.pcap
	cut=$BATS_TEST_TMPDIR/cut.pcap
	# frames 40 on: no SYN, no MPA Request/Reply, a message in flight cut
	python3 - "$full" "$cut" 40 <<'PY'
import struct, sys
b = open(sys.argv[1], 'rb').read(); out = [b[:24]]; off, n = 24, 0
while off < len(b):
    incl = struct.unpack('<I', b[off + 8:off + 12])[0]
    n += 1
    if n >= int(sys.argv[3]):
        out.append(b[off:off + 16 + incl])
    off += 16 + incl
open(sys.argv[2], 'wb').write(b''.join(out))
PY
	t0=$(first_time "$cut")
	want=$("$D" -r "$full" --json | jq -r "select(.time != null and .time >= $t0) | $KEY")
	got=$("$D" -r "$cut" --json 2>/dev/null | jq -r "$KEY")
	[ "$(wc -l <<<"$want")" -ge 25 ]
	diff <(echo "$want") <(echo "$got")
}
