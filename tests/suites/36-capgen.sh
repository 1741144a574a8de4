#!/usr/bin/env bash
# 36-capgen: self-tests of the test-capture generator (tests/capgen):
# scenario list, determinism, lint-expect.txt, and tshark as the referee:
# every capture reads, nothing malformed but the known frames, IP/UDP/TCP
# checksums and MPA CRCs good except where planted, ICRC/VCRC checked by an
# independent checker (tests/oracle/ibcrc.py), every link type decodes to
# the same RPC-over-RDMA fields as plain Ethernet.
set -u
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
BUILD=${BUILD:-$TOP/build}
CAPGEN=$BUILD/capgen/capgen
EXPECT=$TOP/tests/capgen/lint-expect.txt
KNOWN=$TOP/tests/capgen/tshark-known.txt
n=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
notok() { n=$((n + 1)); echo "not ok $n - $*"; }
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
check() { local what=$1; shift; if "$@"; then ok "$what"; else notok "$what"; fi; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ ! -x "$CAPGEN" ]; then
	notok "capgen built at $CAPGEN"
	echo "1..$n"
	exit 1
fi

# ---- the generator itself
$CAPGEN --list >"$tmp/list"
need="rocev2-v1-basic rocev2-v1-chunks rocev2-v1-multisend rocev2-v1-multichunk rocev2-v2 rocev2-bidir rocev2-cm rocev2-two-qps
rocev2-vlan rocev2-ipv6 rocev2-pcapng rocev2-badcrc rocev2-truncated rocev2-snaplen
rocev1 ib-247 ib-erf ib-grh sll sll2 iwarp-basic iwarp-markers iwarp-split iwarp-ooo iwarp-badcrc"
checks="credits-exceeded zero-credit inline-too-large xid-mismatch nomsg-without-chunks
msgp-sent done-sent write-chunk-overrun reply-chunk-overrun write-chunk-segments-changed
unused-write-chunk-nonzero unadvertised-rdma direction-mismatch error-answered-with-error
bad-header reply-version-mismatch crc-error"
missing=""
for s in $need; do grep -q "^$s " "$tmp/list" || missing="$missing $s"; done
for c in $checks; do grep -q "^lint-$c " "$tmp/list" || missing="$missing lint-$c"; done
check "capgen --list names every required scenario${missing:+ (missing:$missing)}" test -z "$missing"

undoc=""
for f in $(awk '{ print $2 }' "$tmp/list"); do
	grep -q "^| $f |" "$TOP/tests/capgen/SCENARIOS.md" || undoc="$undoc $f"
done
check "SCENARIOS.md has a row for every scenario${undoc:+ (missing:$undoc)}" test -z "$undoc"

mkdir -p "$tmp/a" "$tmp/b"
$CAPGEN --all "$tmp/a" && $CAPGEN --all "$tmp/b"
check "capgen --all writes $(ls "$tmp/a" | wc -l) files, identical on a second run" \
	diff -r "$tmp/a" "$tmp/b"
$CAPGEN rocev2-v1-basic -o "$tmp/one.pcap"
check "capgen SCENARIO -o FILE writes the same bytes as --all" \
	cmp -s "$tmp/one.pcap" "$tmp/a/rocev2-v1-basic.pcap"
$CAPGEN nosuch -o "$tmp/x.pcap" 2>/dev/null; rc=$?
check "an unknown scenario exits 2" test "$rc" -eq 2
check "lint-expect.txt is what the generator plants (capgen --expect)" \
	diff <($CAPGEN --expect) "$EXPECT"
bad=""
for c in $checks; do
	# planted in one capture (several frames of it may carry it)
	[ "$(grep "^lint-.* $c\$" "$EXPECT" | cut -d' ' -f1 | sort -u | wc -l)" = 1 ] || bad="$bad $c"
	grep -q "^lint-$c.pcap [0-9][0-9]* $c\$" "$EXPECT" || bad="$bad lint-$c"
done
check "each check is planted in exactly one capture, its own${bad:+ (bad:$bad)}" test -z "$bad"
check "every clean scenario is listed with no violation" \
	test "$(grep -c ' - none$' "$EXPECT")" -ge 15

$CAPGEN --bench "$tmp/bench.pcap" 5000
frames=$(python3 - "$tmp/bench.pcap" <<'PY'
import struct, sys
d = open(sys.argv[1], 'rb').read(); o = 24; n = 0
while o + 16 <= len(d):
    o += 16 + struct.unpack('<I', d[o + 8:o + 12])[0]; n += 1
print(n)
PY
)
check "capgen --bench FILE 5000 writes exactly 5000 frames (got $frames)" test "$frames" = 5000

# the ICRC checker against the Linux kernel's (rdma_rxe) on real captures
shopt -s nullglob
real=("$TOP"/tests/captures/*rocev2*.pcap)
shopt -u nullglob
if [ ${#real[@]} -gt 0 ]; then
	sum=0 badr=0
	for f in "${real[@]}"; do
		out=$(python3 "$TOP/tests/oracle/ibcrc.py" "$f" | tail -1)
		sum=$((sum + $(awk '{ print $2 }' <<<"$out")))
		badr=$((badr + $(awk '{ print $4 }' <<<"$out")))
	done
	check "ibcrc.py agrees with rdma_rxe's ICRC on $sum real packets (${#real[@]} captures, $badr bad)" \
		test "$sum" -gt 0 -a "$badr" -eq 0
else
	notok "ibcrc.py agrees with rdma_rxe's ICRC on real captures: no tests/captures/*rocev2*.pcap"
fi

# ---- capture loss (issue 28): frames removed at known places (--drop);
# the figure is exact for PSN and TCP streams; a network retransmission is
# not capture loss; a violation the loss explains is downgraded, and said
D="$BUILD/bin/rpcrdma-decode"
lost() {  # FILE: overall capture_lost, then per direction, from --json
	timeout 60 "$D" -r "$1" --json 2>/dev/null | jq -r -s \
		'(map(select(.type == "capture_lost" and .overall))[0].capture_lost // 0 | tostring) + " " +
		 ([map(select(.type == "capture_lost" and .conversation))[] | .capture_loss[].capture_lost] | map(tostring) | join(","))'
}
for spec in "rocev2-v1-chunks 8,17,31 3 1,2" "rocev2-v1-chunks 5,8,17,31,33 4 2,2" \
	"rocev2-v1-chunks 16,18,25,30 4 3,1" "iwarp-basic 13,23,40 3 1,2" \
	"iwarp-basic 6,10,13,24,33,41 6 4,2" "iwarp-markers 8,14 2 -"; do
	set -- $spec
	$CAPGEN "$1" -o "$tmp/drop.pcap" --drop "$2"
	got=$(lost "$tmp/drop.pcap")
	want="$3"; [ "$4" = - ] || want="$3 $4"
	if [ "$4" = - ]; then got=${got%% *}; fi
	check "capture loss: $1 without frames $2: lost $3 (got $got)" test "$got" = "$want"
done
$CAPGEN rocev2-v1-chunks -o "$tmp/whole.pcap"
$CAPGEN iwarp-basic -o "$tmp/whole-iw.pcap"
check "capture loss: nothing lost, no record (RoCEv2, iWARP)" \
	test "$(lost "$tmp/whole.pcap")/$(lost "$tmp/whole-iw.pcap")" = "0 /0 "
# the network's retransmission: frame 8 (a WRITE MIDDLE) missed, then 8 and
# 9 resent after 9 (go-back-N): retransmitted, not lost
python3 - "$tmp/whole.pcap" "$tmp/gbn.pcap" <<'PY'
import struct, sys
b = open(sys.argv[1], 'rb').read(); o = 24; r = []
while o + 16 <= len(b):
    n = struct.unpack('<I', b[o + 8:o + 12])[0]; r.append(b[o:o + 16 + n]); o += 16 + n
r = r[:7] + [r[8], r[7], r[8]] + r[9:]
open(sys.argv[2], 'wb').write(b[:24] + b''.join(r))
PY
got=$(lost "$tmp/gbn.pcap")
got=${got%% *}
rt=$(timeout 60 "$D" -r "$tmp/gbn.pcap" --stats --json 2>/dev/null | jq -s 'map(select(.type == "overall"))[0] | [.capture_lost, .retransmissions, (.capture_loss[1].psn_retransmitted)] | map(tostring) | join(" ")')
check "capture loss: a go-back-N retransmission is the network's (lost $got; lost, retransmissions, PSNs retransmitted: $rt)" \
	test "$got" = 0 -a "$rt" = '"0 1 1"'
# rocev2-cm without frame 6 (the first reply): the second call exceeds the
# one credit a requester may assume before a grant -- the loss explains it
$CAPGEN rocev2-cm -o "$tmp/cm6.pcap" --drop 6
out=$(timeout 60 "$D" -r "$tmp/cm6.pcap" --check 2>&1); rc=$?
check "capture loss: --check downgrades credits-exceeded the lost reply explains, and says so (rc $rc)" \
	test "$rc" = 0 -a "$(grep -c 'credits-exceeded: .*(downgraded: the capture lost' <<<"$out")" = 1 \
	-a "$(grep -c '^0 violations, 1 more downgraded (explained by capture loss)$' <<<"$out")" = 1
js=$(timeout 60 "$D" -r "$tmp/cm6.pcap" --check --json 2>/dev/null | jq -c 'select(.check) | [.check, .downgraded]')
check "capture loss: --check --json marks it downgraded ($js)" test "$js" = '["credits-exceeded",true]'
$CAPGEN rocev2-cm -o "$tmp/cm.pcap"
out=$(timeout 60 "$D" -r "$tmp/cm.pcap" --check 2>&1)
check "capture loss: the same capture whole has no violation and no loss" test "$out" = "0 violations"
# the grader can fail: a credits violation with no loss is not downgraded
ce=$(awk '$3 == "credits-exceeded" { print $1; exit }' "$EXPECT")
out=$(timeout 60 "$D" -r "$tmp/a/$ce" --check 2>&1)
check "capture loss: $ce keeps its credits-exceeded violation (nothing lost)" \
	test "$(grep -c 'credits-exceeded' <<<"$out")" -ge 1 -a "$(grep -c downgraded <<<"$out")" = 0
st=$(timeout 60 "$D" -r "$tmp/cm6.pcap" --stats 2>&1)
check "capture loss: a warning line and the --stats line" \
	test "$(grep -c 'warning: conversation 1: the capture lost 1 packets' <<<"$st")" = 1 \
	-a "$(grep -c '^  capture lost 1 packets: ' <<<"$st")" = 2

# ---- tshark as the referee
if ! command -v tshark >/dev/null; then
	notok "tshark checks: tshark installed (scripts/deps.sh installs it)"
	echo "1..$n"
	exit 1
fi
TS() { tshark -o ip.check_checksum:TRUE -o tcp.check_checksum:TRUE \
	-o udp.check_checksum:TRUE "$@" 2>/dev/null; }
cd "$tmp/a"
for f in *.pcap *.pcapng; do
	case $f in
	ib-247.pcap)
		skip "$f: tshark reads it" "tshark 4.0 cannot read LINKTYPE_INFINIBAND (247) in pcap"
		continue ;;
	rocev2-truncated.pcap)
		err=$(tshark -r "$f" 2>&1 >/dev/null)
		check "$f: tshark reports the file cut in the middle of a packet" \
			grep -q "cut short in the middle of a packet" <<<"$err"
		continue ;;
	esac
	TS -r "$f" -V >"$tmp/v" 2>&1; rc=$?
	got=$(awk '/^Frame [0-9]+:/ { fr = $2; sub(":", "", fr) }
		/^\[Malformed Packet/ && fr != last { printf "%s ", fr; last = fr }' "$tmp/v")
	want=$(awk -v f="$f" '$1 == f { printf "%s ", $2 }' "$KNOWN")
	check "$f: tshark reads it (rc $rc); malformed frames [${got}] are the known [${want}]" \
		test "$rc" -eq 0 -a "$got" = "$want"
	badsum=$(grep -c -E 'status: Bad' "$tmp/v")
	check "$f: no bad IP/UDP/TCP checksum ($badsum)" test "$badsum" -eq 0
	case $f in
	iwarp-*)
		good=$(grep -c 'Good CRC32' "$tmp/v")
		badf=$(awk '/^Frame [0-9]+:/ { fr = $2 } /Bad CRC32/ { sub(":", "", fr); printf "%s ", fr }' "$tmp/v")
		wantbad=$(awk -v f="$f" '$1 == f && $3 == "crc-error" { printf "%s ", $2 }' "$EXPECT")
		check "$f: tshark finds $good good MPA CRC32c, bad ones only in the planted frame [${badf}] [${wantbad}]" \
			test "$good" -gt 5 -a "$badf" = "$wantbad"
		;;
	*)
		out=$(python3 "$TOP/tests/oracle/ibcrc.py" "$f")
		badf=$(awk '$1 == "bad" { printf "%s ", $2 }' <<<"$out")
		wantbad=$(awk -v f="$f" '$1 == f && $3 == "crc-error" { printf "%s ", $2 }' "$EXPECT")
		nchk=$(awk '$1 == "checked" { print $2 }' <<<"$out")
		check "$f: ibcrc.py checks $nchk ICRC/VCRC, bad only where planted [${badf}] [${wantbad}]" \
			test "${nchk:-0}" -gt 5 -a "$badf" = "$wantbad"
		;;
	esac
done

# every link type carries the same RPC-over-RDMA messages as plain Ethernet
F="-Y rpcordma -T fields -E separator=/t -E occurrence=a -e rpcordma.xid -e rpcordma.version
   -e rpcordma.flow_control -e rpcordma.msg_type -e rpcordma.position -e rpcordma.rdma_handle
   -e rpcordma.rdma_length -e rpcordma.rdma_offset"
TS -r rocev2-v1-chunks.pcap $F >"$tmp/ref"
check "rocev2-v1-chunks: tshark decodes $(wc -l <"$tmp/ref") RPC-over-RDMA messages" \
	test "$(wc -l <"$tmp/ref")" -eq 10
for f in rocev2-cm.pcap rocev2-vlan.pcap rocev2-ipv6.pcap rocev2-pcapng.pcapng rocev1.pcap ib-erf.pcap ib-grh.pcap sll.pcap sll2.pcap; do
	check "$f: the same RPC-over-RDMA fields as rocev2-v1-chunks" \
		diff <(TS -r "$f" $F) "$tmp/ref"
done
ops=$(TS -r rocev2-v1-multisend.pcap -T fields -e infiniband.bth.opcode | sort -n -u | tr '\n' ' ')
check "multisend: SEND FIRST, MIDDLE, LAST, ONLY and ACK, nothing else ($ops)" \
	test "$ops" = "0 1 2 4 17 "
ops=$(TS -r rocev2-v1-chunks.pcap -T fields -e infiniband.bth.opcode | sort -n -u | tr '\n' ' ')
check "chunks: WRITE FIRST/MIDDLE/LAST, READ REQUEST, RESPONSE FIRST/MIDDLE/LAST, ACK ($ops)" \
	test "$ops" = "4 6 7 8 12 13 14 15 17 "
reps=$(TS -r rocev2-cm.pcap -Y 'rpc.msgtyp == 1' -T fields -e rpc.repframe | grep -c .)
allreps=$(TS -r rocev2-cm.pcap -Y 'rpc.msgtyp == 1' -T fields -e frame.number | grep -c .)
cm=$(TS -r rocev2-cm.pcap -Y 'infiniband.bth.destqp == 1' -T fields -e frame.number | tr '\n' ' ')
check "rocev2-cm: CM REQ/REP/RTU in frames 1-3 [$cm]; tshark matches all $allreps RPC replies to their calls ($reps)" \
	test "$cm" = "1 2 3 " -a "$reps" -eq "$allreps" -a "$allreps" -ge 4
short=$(TS -r rocev2-snaplen.pcap -T fields -e frame.cap_len -e frame.len | awk '$1 < $2' | wc -l)
check "snaplen: $short frames have caplen < len" test "$short" -gt 5
both=$(TS -r rocev2-bidir.pcap -Y 'rpc.msgtyp == 0' -T fields -e rpc.xid -e ip.src |
	sort -u | awk '{ c[$1]++ } END { for (x in c) if (c[x] == 2) n++; print n + 0 }')
check "bidir: exactly one XID is called in both directions ($both)" test "$both" -eq 1
ops=$(TS -r iwarp-basic.pcap -T fields -e iwarp_rdma.opcode | grep . | sort -u | tr '\n' ' ')
check "iwarp-basic: RDMAP Write, Read Request/Response, Send, Send with Invalidate, Terminate ($ops)" \
	test "$ops" = "0x00 0x01 0x02 0x03 0x04 0x07 "
mk=$(TS -r iwarp-markers.pcap -T fields -e iwarp_mpa.marker_fpduptr | grep -c .)
check "iwarp-markers: tshark finds markers in $mk FPDUs" test "$mk" -gt 3
echo "1..$n"
