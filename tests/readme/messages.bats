#!/usr/bin/env bats
# messages.bats - issue 30 item 5 (and -B of item 3): the messages that sent
# the README's reader the wrong way, each checked by its words.  Run by
# tests/suites/45-readme.sh.  The guest checks the rest (tests/live/cases/
# readme.sh: the busy port, -i on an RDMA device, the capture's drops).
# Env: TOP, BIN.

load ../cli/helpers
bats_require_minimum_version 1.5.0

setup() {
	common_setup
	CAP=$TOP/tests/captures/nfs41-rocev2-rxe.pcap
}

@test "a filter expression that matches nothing says so, not 'no RoCE at all ... capture on mlx5_0'" {
	run --separate-stderr "$D" -r "$CAP" host 10.0.0.9
	[ "$status" -eq 4 ]
	frames=$("$D" -r "$CAP" --stats --json 2>/dev/null | grep -o '"frames":[0-9]*' | head -1 | cut -d: -f2)
	[[ $stderr == *"the filter expression 'host 10.0.0.9' left out $frames of the $frames frames read (all of them): try without it"* ]]
	[[ $stderr != *"no IP, RoCEv1 or InfiniBand transport traffic at all"* ]]
	[[ $stderr != *mlx5_0* ]]
}

@test "-i on an RDMA device name libpcap does not know: its RDMA sniffer is missing, capture the Ethernet interface" {
	[ "$(id -u)" = 0 ] || skip "capturing needs root"
	[ ! -e /sys/class/infiniband/rxe0 ] || skip "this host has RDMA devices"
	run --separate-stderr "$D" -i rxe0
	[ "$status" -eq 3 ]
	[[ $stderr == *"-i rxe0: No such device exists"* ]]
	[[ $stderr != *"No such device exists: No such device exists"* ]]
	[[ $stderr == *"RDMA sniffer"*"Debian's libpcap is built without it"*"capture its Ethernet interface instead"* ]]
	# an ordinary missing interface gets no word of RDMA
	run --separate-stderr "$D" -i nosuch0
	[ "$status" -eq 3 ]
	[[ $stderr != *RDMA* ]]
}

@test "--check on a capture it could not read prints no '0 violations'" {
	run --separate-stderr "$D" -r "$BATS_TEST_TMPDIR/missing.pcap" --check
	[ "$status" -eq 3 ]
	[[ $stderr != *"0 violations"* ]]
	[[ $stderr == *"--check: nothing checked: the capture could not be read"* ]]
	printf 'garbage\n' > "$BATS_TEST_TMPDIR/g.pcap"
	run --separate-stderr "$D" -r "$BATS_TEST_TMPDIR/g.pcap" --check
	[ "$status" -eq 3 ]
	[[ $stderr != *"0 violations"* ]]
	# cut in the middle: what was read is counted, and said to be partial
	head -c 200000 "$CAP" > "$BATS_TEST_TMPDIR/cut.pcap"
	run --separate-stderr "$D" -r "$BATS_TEST_TMPDIR/cut.pcap" --check
	[ "$status" -eq 3 ]
	[[ $stderr =~ [0-9]+\ violations\ in\ the\ [0-9]+\ frames\ read\ \(output\ incomplete ]]
	# a whole capture still ends "0 violations"
	run --separate-stderr "$D" -r "$CAP" --check
	[ "$status" -eq 0 ]
	[ "$stderr" = "0 violations" ]
}

@test "ECHO's CALLBACK (procedure 2, docs/echo-ulb.md) is named, not 'proc 2'" {
	# RDMA_MSG, then an RPC call of program 0x20524d41 (ECHO) v1 proc 2
	run "$D" --hex '0a000003 00000001 00000020 00000000 00000000 00000000 00000000
	                0a000003 00000000 00000002 20524d41 00000001 00000002
	                00000000 00000000 00000000 00000000 00000000 00000000'
	assert_output --partial "call rpcrdma-echo v1 CALLBACK"
	refute_output --partial "proc 2"
}

@test "-B KIB: the live capture's buffer, as tcpdump -B; a usage error out of range or without -i" {
	run "$D" -i lo -B 10
	usage_error "-B: '10' is not a number of KiB from 64 to 4194304"
	run "$D" -i lo -B x
	usage_error "-B: 'x'"
	run "$D" -r "$CAP" -B 1024
	[ "$status" -eq 2 ]
	assert_output --partial "-B applies to a live capture (-i)"
	[ "$(id -u)" = 0 ] || skip "capturing needs root"
	"$D" -i lo -B 1024 udp dst port 47911 > "$BATS_TEST_TMPDIR/b.out" 2> "$BATS_TEST_TMPDIR/b.err" &
	pid=$!
	for _ in $(seq 50); do grep -q 'listening on' "$BATS_TEST_TMPDIR/b.err" && break; sleep 0.1; done
	kill -INT "$pid"
	run timeout 10 tail --pid="$pid" -f /dev/null     # ends promptly on SIGINT
	[ "$status" -eq 0 ]
	grep -q '^0 packets dropped by kernel$' "$BATS_TEST_TMPDIR/b.err"
	"$D" --help | grep -q -- '-B, --buffer-size KIB'
	grep -q 'buffer\\-size' "$TOP/man/rpcrdma-decode.1"
	grep -q -- '--buffer-size' "$TOP/completion/rpcrdma-decode"
}
