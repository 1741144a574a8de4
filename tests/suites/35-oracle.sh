#!/usr/bin/env bash
# 35-oracle: tshark is the referee.  For every capture tshark can read (the
# generated ones in $BUILD/captures, the real ones in tests/captures and the
# regression cuts of real captures in tests/oracle/regress),
# tshark's built-in rpcordma fields and rpcrdma-decode -r --json must agree
# on every frame tshark decodes as RPC-over-RDMA Version One: xid, version,
# credits, message type, chunk counts and every segment's position, handle,
# length and offset, and an RDMA_ERROR's code and version range
# (tests/oracle/compare.py).  One TAP line per capture,
# with the first mismatch.
set -u
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
BUILD=${BUILD:-$TOP/build}
BIN=${BIN:-$BUILD/bin}
DEC=$BIN/rpcrdma-decode
EXPECT=$TOP/tests/capgen/lint-expect.txt
n=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
notok() { n=$((n + 1)); echo "not ok $n - $*"; }
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
shopt -s nullglob
caps=("$BUILD"/captures/*.pcap "$BUILD"/captures/*.pcapng "$TOP"/tests/captures/*.pcap "$TOP"/tests/captures/*.pcapng "$TOP"/tests/oracle/regress/*.pcap)
# a missing capture set, tshark or decoder is a failure (scripts/deps.sh
# installs tshark; make check makes the captures and the decoder)
if [ ${#caps[@]} -eq 0 ]; then
	notok "oracle: captures to compare (none in $BUILD/captures: make captures)"
	echo "1..$n"; exit 1
fi
if ! command -v tshark >/dev/null; then
	notok "oracle: tshark installed (scripts/deps.sh installs it)"
	echo "1..$n"; exit 1
fi
if [ ! -x "$DEC" ]; then
	notok "rpcrdma-decode built at $DEC"
	echo "1..$n"; exit 1
fi
EMPTY=$TOP/tests/oracle/expected-empty.txt

F=(-Y rpcordma -T fields -E separator=/t -E occurrence=a -e frame.number
   -e rpcordma.xid -e rpcordma.version -e rpcordma.flow_control -e rpcordma.msg_type
   -e rpcordma.reads_count -e rpcordma.writes_count -e rpcordma.reply_count
   -e rpcordma.position -e rpcordma.segment_count -e rpcordma.rdma_handle
   -e rpcordma.rdma_length -e rpcordma.rdma_offset -e rpcordma.errcode
   -e rpcordma.vers_low -e rpcordma.vers_high)

# the comparison itself must be able to fail: falsify one field of our
# output (sed expression) and the oracle must name it
must_catch() {   # must_catch CAPTURE SED-EXPR WORD DESCRIPTION
	local cap=$1 expr=$2 word=$3 what=$4 res
	[ -f "$cap" ] || { notok "the oracle catches $what: no $cap (make captures)"; return; }
	tshark -r "$cap" "${F[@]}" >"$tmp/ts0" 2>/dev/null
	"$DEC" -r "$cap" --json 2>/dev/null | sed "$expr" >"$tmp/dec0"
	res=$(python3 "$TOP/tests/oracle/compare.py" "$tmp/ts0" "$tmp/dec0" 2>&1)
	if [ $? -eq 1 ] && grep -q "$word" <<<"$res"; then
		ok "the oracle catches $what ($res)"
	else
		notok "the oracle catches $what (got: $res)"
	fi
}
must_catch "$BUILD/captures/rocev2-v1-chunks.pcap" '0,/"handle":"0x\([0-9a-f]*\)"/s//"handle":"0x1\1"/' \
	handle "one changed segment handle"
must_catch "$BUILD/captures/lint-xid-mismatch.pcap" 's/"error":{"code":2/"error":{"code":1/' \
	error "a changed RDMA_ERROR code"

for f in "${caps[@]}"; do
	b=$(basename "$f")
	tshark -r "$f" "${F[@]}" >"$tmp/ts" 2>"$tmp/tserr"
	tsrc=$?
	if grep -q "unknown or unsupported" "$tmp/tserr" && grep -q "network type 247" "$tmp/tserr"; then
		skip "$b: tshark and rpcrdma-decode agree" \
			"tshark 4.0 cannot read LINKTYPE_INFINIBAND (247) in pcap"
		continue
	fi
	if [ "$tsrc" -ne 0 ] && [ ! -s "$tmp/ts" ] && ! grep -q "cut short in the middle of a packet" "$tmp/tserr"; then
		notok "$b: tshark reads it (exit status $tsrc, no output: $(head -1 "$tmp/tserr"))"
		continue
	fi
	"$DEC" -r "$f" --json >"$tmp/dec" 2>"$tmp/decerr"
	decrc=$?
	# a file cut in the middle of a packet on purpose (rocev2-truncated):
	# rpcrdma-decode reports it (exit 3) as tshark does, and what was read
	# before the cut is compared
	cut=
	grep -q "cut short in the middle of a packet" "$tmp/tserr" &&
		grep -q "truncated at frame" "$tmp/decerr" && [ "$decrc" -eq 3 ] && cut=1
	if { [ "$decrc" -ge 2 ] && [ -z "$cut" ]; } || [ ! -s "$tmp/dec" ]; then
		notok "$b: rpcrdma-decode -r --json reads it (exit status $decrc, $(wc -l <"$tmp/dec") lines: $(head -1 "$tmp/decerr"))"
		continue
	fi
	planted=$(awk -v f="$b" '$1 == f && $3 == "crc-error" { print $2 }' "$EXPECT" 2>/dev/null)
	why=$(awk -v f="$b" '$1 == f { $1 = ""; sub(/^ /, ""); print; exit }' "$EMPTY")
	if [ -n "$why" ]; then
		# listed: tshark must find no Version One message, the decoder some
		res=$(python3 "$TOP/tests/oracle/compare.py" --allow-empty "$tmp/ts" "$tmp/dec" $planted 2>&1)
		msgs=$(grep -c '"xid"' "$tmp/dec")
		if [ "$res" = "agree 0 frames" ] && [ "$msgs" -gt 0 ]; then
			ok "$b: tshark decodes no Version One message, as expected ($why); rpcrdma-decode $msgs messages"
		else
			notok "$b: listed in tests/oracle/expected-empty.txt ($why) but compare.py says: $res; rpcrdma-decode $msgs messages"
		fi
		continue
	fi
	res=$(python3 "$TOP/tests/oracle/compare.py" "$tmp/ts" "$tmp/dec" $planted 2>&1)
	rc=$?
	if [ $rc -eq 0 ]; then
		ok "$b: tshark and rpcrdma-decode $res"
	else
		notok "$b: tshark and rpcrdma-decode disagree: $res"
	fi
done
echo "1..$n"
