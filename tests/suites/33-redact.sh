#!/usr/bin/env bash
# 33-redact.sh - rpcrdma-decode -r IN -w OUT --redact (issue 28 item 1;
# man rpcrdma-decode, REDACTION).  For every capture of tests/captures/ and
# its folders (NFSv3 and NFSv4.1, RoCEv2 and iWARP, Ethernet; crafted and
# mid-stream ones; an iWARP gap never filled) and one generated capture
# of each other link type and transport (tests/capgen: raw InfiniBand, ERF,
# GRH, RoCEv1, Linux cooked v1/v2, IPv6, VLAN, pcapng, iWARP with MPA CRCs,
# FPDUs split over segments and a window out of order): the redacted copy
# decodes to the same --json (but file and time), holds none of the RDMA
# file data and none of the names tshark reads, and its ICRCs/VCRCs are
# right (tests/redact/check.py, with tests/oracle/ibcrc.py's checker); tshark
# finds the MPA CRC32c and TCP/IP checksums right; the graders shown able to
# fail; the same key gives the same bytes; usage errors.  TAP.
set -u
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
BUILD=${BUILD:-$TOP/build}
BIN=${BIN:-$BUILD/bin}
D=$BIN/rpcrdma-decode
GEN=$BUILD/captures
KEY=000102030405060708090a0b0c0d0e0f
n=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
notok() { n=$((n + 1)); echo "not ok $n - $*"; }
check() { local what=$1; shift; if "$@"; then ok "$what"; else notok "$what"; fi; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

gen="ib-247.pcap ib-erf.pcap ib-grh.pcap rocev1.pcap sll.pcap sll2.pcap
rocev2-ipv6.pcap rocev2-vlan.pcap rocev2-pcapng.pcapng iwarp-basic.pcap
iwarp-split.pcap iwarp-window.pcap"
names=""
# every capture of tests/captures/: the test bed's, and those of its
# folders (crafted/: lost segments, full tables, long private data;
# nohandshake/: iWARP taken up mid-stream; kernel/); their names differ
for f in "$TOP"/tests/captures/*.pcap "$TOP"/tests/captures/*/*.pcap; do
	[ -e "$tmp/$(basename "$f")" ] && notok "two captures named $(basename "$f") in tests/captures/"
	cp "$f" "$tmp/" && names="$names $(basename "$f")"
done
for f in $gen; do
	if [ -e "$GEN/$f" ]; then
		cp "$GEN/$f" "$tmp/" && names="$names $f"
	else
		notok "$f: generated (make captures writes $GEN/$f)"
	fi
done

bad="" ra="" rb=""
for f in $names; do
	timeout 20 "$D" -r "$tmp/$f" -w "$tmp/$f.red" --redact --redact-key $KEY \
		2>"$tmp/$f.err" || bad="$bad $f"
	ra="$ra -r $tmp/$f" rb="$rb -r $tmp/$f.red"
done
# one run over all the originals, one over all the copies (each record
# names its file)
timeout 60 "$D" $ra --json >"$tmp/a.json" 2>/dev/null
timeout 60 "$D" $rb --json >"$tmp/b.json" 2>/dev/null
check "--redact writes every one of the $(wc -w <<<"$names") captures${bad:+ (failed:$bad)}" \
	test -z "$bad"
timeout 60 python3 "$TOP/tests/redact/check.py" "$TOP/tests/redact/names.txt" \
	"$tmp" $names >"$tmp/graded" 2>&1
while IFS= read -r line; do
	case $line in
	"ok - "*) ok "${line#ok - }" ;;
	"not ok - "*) notok "${line#not ok - }" ;;
	*) notok "check.py: $line" ;;
	esac
done <"$tmp/graded"

# tshark: TCP/UDP/IP checksums and MPA CRC32c.  A real RoCE capture (its
# IP checksums all right in the original: rdma_rxe fills them): all right,
# none bad; the generated iWARP one with MPA CRCs and FPDUs split over
# segments: all right.  (The real siw captures' TCP checksums were left to
# the NIC and are wrong in the original: they stay so, counted on stderr.)
f=nfs41-reads-rocev2-rxe.pcap
TF() { timeout 30 tshark -o ip.check_checksum:TRUE -T fields -e frame.number \
	-e nfs.fh.hash -e nfs.stateid.hash -e ip.checksum.status -r "$1" 2>/dev/null; }
TF "$tmp/$f" >"$tmp/o.tsv"; TF "$tmp/$f.red" >"$tmp/r.tsv"
st=$(cut -f4 "$tmp/r.tsv" | sort | uniq -c | tr -s ' \n' ' ')
check "$f: tshark finds every IPv4 header checksum of the redacted copy right (status 1: [$st])" \
	test "$st" = " 548 1 "
# file handles and stateids in calls (replies keep only their status):
# the same original, the same replacement, and never the original
fh=$(paste "$tmp/o.tsv" "$tmp/r.tsv" | python3 -c '
import sys
m, bad, n = {}, 0, 0
for l in sys.stdin:
    c = l.rstrip("\n").split("\t")
    for o, r in ((c[1], c[5]), (c[2], c[6])):
        for a, b in zip(o.split(","), r.split(",")):
            if a and b:
                n += 1
                bad += m.setdefault(a, b) != b or a == b
print(n, len(m), len(set(m.values())), bad)')
set -- $fh
check "$f: $1 file handles and stateids in calls, $2 different, become $3 different others, the same each time (tshark; $4 not)" \
	test "${1:-0}" -gt 50 -a "${2:-0}" -eq "${3:-1}" -a "${4:-1}" -eq 0
f=iwarp-split.pcap
timeout 30 tshark -o ip.check_checksum:TRUE -o tcp.check_checksum:TRUE -V \
	-r "$tmp/$f.red" >"$tmp/ts" 2>/dev/null
good=$(grep -c 'Good CRC32' "$tmp/ts") badc=$(grep -cE 'status: Bad|Bad CRC32' "$tmp/ts")
check "$f: tshark finds $good good MPA CRC32c and $badc bad checksums in the redacted copy" \
	test "$good" -gt 5 -a "$badc" -eq 0

# every iWARP capture of tests/captures/ that tshark frames (its MPA
# handshake in the capture): as many good MPA CRC32c in the redacted copy as
# in the original, none bad; among them the one with a TCP gap never filled
mpa=""
mpabad=""
for f in $names; do
	case $f in *iwarp* | *siw*) ;; *) continue ;; esac
	[ -e "$tmp/$f.red" ] || continue
	go=$(timeout 30 tshark -V -r "$tmp/$f" 2>/dev/null | grep -c 'Good CRC32')
	timeout 30 tshark -V -r "$tmp/$f.red" >"$tmp/ts" 2>/dev/null
	gr=$(grep -c 'Good CRC32' "$tmp/ts") br=$(grep -c 'Bad CRC32' "$tmp/ts")
	[ "$go" -gt 0 ] || continue
	mpa="$mpa $f:$gr"
	[ "$gr" = "$go" ] && [ "$br" = 0 ] || mpabad="$mpabad $f: $go good in the original, $gr good and $br bad in the copy;"
done
check "tshark: the redacted iWARP captures' MPA CRC32c all good, as many as in the originals ($mpa)${mpabad:+; but$mpabad}" \
	eval '[ -z "$mpabad" ] && grep -q "iwarp-lost-segment.pcap:319" <<<"$mpa"'

# --redact=keys: RDMA handles and addresses remapped, the same messages and
# chunk data matched to their segments (a RoCE and an iWARP capture)
ka="" kb=""
for f in nfs41-reads-rocev2-rxe.pcap nfs3-reads-iwarp-siw.pcap iwarp-split.pcap; do
	"$D" -r "$tmp/$f" -w "$tmp/$f.k" --redact=keys --redact-key $KEY 2>/dev/null
	ka="$ka -r $tmp/$f" kb="$kb -r $tmp/$f.k"
done
"$D" $ka --json >"$tmp/ka.json" 2>/dev/null
"$D" $kb --json >"$tmp/kb.json" 2>/dev/null
set -- $(python3 "$TOP/tests/redact/keys.py" "$tmp/ka.json" "$tmp/kb.json")
check "--redact=keys: $1 records, $2 differ but handles and offsets; $3 segments, $4 with the original handle and offset, $5 handles mapped two ways" \
	test "${1:-0}" -gt 150 -a "${2:-1}" -eq 0 -a "${3:-0}" -gt 40 -a "${4:-1}" -eq 0 -a "${5:-1}" -eq 0
python3 "$TOP/tests/redact/keys.py" "$tmp/ka.json" "$tmp/ka.json" >"$tmp/kself"
check "keys.py sees the original handles kept when given the original twice ($(cat "$tmp/kself"))" \
	test "$(cut -d' ' -f4 "$tmp/kself")" = "$(cut -d' ' -f3 "$tmp/kself")"

# --redact=addresses: three real captures (RoCEv2 with its CM, iWARP,
# the backchannel; all ten cost ~6 CPU-s more) and the generated IPv6,
# RoCEv1, GRH, pcapng, Linux cooked v2 and iWARP ones: the same --json but file,
# time and the addresses, those mapped one to one, as many conversations,
# no original address left in the bytes (tests/redact/addresses.py); the
# ICRCs (tests/oracle/ibcrc.py) and, by tshark, the IPv4 header and TCP
# checksums right; the grader fails the original given as its own copy
aa="" ab="" pairs=""
for f in nfs41-reads-rocev2-rxe.pcap nfs3-iwarp-siw.pcap nfs41-backchannel-rocev2.pcap \
	rocev2-ipv6.pcap rocev1.pcap ib-grh.pcap rocev2-pcapng.pcapng sll2.pcap iwarp-split.pcap; do
	[ -e "$tmp/$f" ] || continue
	timeout 20 "$D" -r "$tmp/$f" -w "$tmp/$f.ad" --redact=addresses \
		--redact-key $KEY 2>"$tmp/$f.aderr" || notok "--redact=addresses $f"
	aa="$aa -r $tmp/$f" ab="$ab -r $tmp/$f.ad" pairs="$pairs $tmp/$f $tmp/$f.ad"
done
timeout 60 "$D" $aa --json >"$tmp/aa.json" 2>/dev/null
timeout 60 "$D" $ab --json >"$tmp/ab.json" 2>/dev/null
set -- $(timeout 60 python3 "$TOP/tests/redact/addresses.py" "$tmp/aa.json" "$tmp/ab.json" $pairs)
check "--redact=addresses: $1 records, $2 differ but file, time and addresses; conversations $3 and $4; $5 addresses, $6 mapped two ways, $7 kept, $8 found in the copies' bytes" \
	test "${1:-0}" -gt 200 -a "${2:-1}" -eq 0 -a "${3:-0}" -eq "${4:-1}" -a "${3:-0}" -gt 6 -a "${5:-0}" -ge 4 -a "${6:-1}" -eq 0 -a "${7:-1}" -eq 0 -a "${8:-1}" -eq 0
grep -q "IP addresses (or GIDs) replaced" "$tmp/nfs41-reads-rocev2-rxe.pcap.aderr"
check "--redact=addresses says on stderr how many it replaced" test $? -eq 0
set -- $(timeout 60 python3 "$TOP/tests/redact/addresses.py" "$tmp/aa.json" "$tmp/aa.json" \
	"$tmp/nfs41-rocev2-rxe.pcap" "$tmp/nfs41-rocev2-rxe.pcap")
check "addresses.py fails the original given as its own copy ($7 kept, $8 found)" \
	test "${7:-0}" -gt 0 -a "${8:-0}" -gt 0
icrc=""
for f in nfs41-backchannel-rocev2.pcap rocev2-ipv6.pcap rocev1.pcap ib-grh.pcap; do
	icrc="$icrc $f:$(timeout 30 python3 "$TOP/tests/oracle/ibcrc.py" "$tmp/$f.ad" | tail -1 | tr ' ' _)"
done
check "--redact=addresses: ICRCs and VCRCs right by ibcrc.py ($icrc)" \
	eval '! grep -q "bad_[1-9]\|checked_0_" <<<"$icrc"'
f=nfs41-reads-rocev2-rxe.pcap
st=$(TF "$tmp/$f.ad" | cut -f4 | sort | uniq -c | tr -s ' \n' ' ')
check "$f --redact=addresses: tshark finds every IPv4 header checksum right (status 1: [$st])" \
	test "$st" = " 548 1 "
timeout 30 tshark -o ip.check_checksum:TRUE -o tcp.check_checksum:TRUE -T fields \
	-e ip.checksum.status -e tcp.checksum.status -r "$tmp/iwarp-split.pcap.ad" 2>/dev/null \
	| sort | uniq -c | tr -s ' \n\t' ' ' >"$tmp/tcpst"
check "iwarp-split.pcap --redact=addresses: tshark finds every IPv4 and TCP checksum right ($(cat "$tmp/tcpst"))" \
	eval 'grep -q "^ [0-9]* 1 1 $" "$tmp/tcpst"'
"$D" -r "$tmp/$f" -w "$tmp/both" --redact=keys,addresses --redact-key $KEY 2>/dev/null
check "--redact=keys,addresses: both (other bytes than either alone)" \
	eval '! cmp -s "$tmp/both" "$tmp/$f.ad" && ! cmp -s "$tmp/both" "$tmp/$f.red"'

# the graders can fail: an unredacted copy, one byte of it changed
f=nfs41-reads-rocev2-rxe.pcap
mkdir "$tmp/raw"
cp "$tmp/$f" "$tmp/raw/$f"; cp "$tmp/$f" "$tmp/raw/$f.red"
"$D" -r "$tmp/raw/$f" --json >"$tmp/raw/a.json" 2>/dev/null
sed "s|$f\"|$f.red\"|" "$tmp/raw/a.json" >"$tmp/raw/b.json"
printf '\x55' | dd of="$tmp/raw/$f.red" bs=1 seek=2000 conv=notrunc status=none
python3 "$TOP/tests/redact/check.py" "$TOP/tests/redact/names.txt" "$tmp/raw" "$f" \
	>"$tmp/raw/graded" 2>&1
check "check.py fails the original given as its own redacted copy with a byte changed (data, CRC, names: $(grep '^not ok' "$tmp/raw/graded" | grep -o 'windows\|ICRC\|names' | tr '\n' ' '))" \
	test "$(grep '^not ok' "$tmp/raw/graded" | grep -o 'windows\|ICRC\|names' | tr '\n' ' ')" = "windows ICRC names "

# the key: the same bytes again; a random key other bytes, the same messages
"$D" -r "$tmp/$f" -w "$tmp/again" --redact --redact-key $KEY 2>/dev/null
check "the same key writes the same bytes" cmp -s "$tmp/again" "$tmp/$f.red"
"$D" -r "$tmp/$f" -w "$tmp/random" --redact 2>/dev/null
"$D" -r "$tmp/random" --json | jq -c 'del(.file, .time)' >"$tmp/random.json" 2>/dev/null
"$D" -r "$tmp/$f.red" --json | jq -c 'del(.file, .time)' >"$tmp/keyed.json" 2>/dev/null
check "a random key writes other bytes, the same messages" \
	eval '! cmp -s "$tmp/random" "$tmp/$f.red" && cmp -s "$tmp/random.json" "$tmp/keyed.json"'
sz=$(stat -c %s "$tmp/$f") szr=$(stat -c %s "$tmp/$f.red")
check "the redacted copy has the original's size ($sz, $szr) and its pcap header" \
	eval '[ "$sz" -eq "$szr" ] && cmp -s <(head -c 24 "$tmp/$f") <(head -c 24 "$tmp/$f.red")'
grep -q 'redacted to' "$tmp/$f.err"
check "--redact says on stderr what it did ($(head -c 200 "$tmp/$f.err"))" \
	grep -q "names and .* handles replaced" "$tmp/$f.err"

# usage
"$D" -r "$tmp/$f" --redact 2>"$tmp/e1"; r1=$?
"$D" -r "$tmp/$f" -w "$tmp/x" --redact --redact-key 12 2>"$tmp/e2"; r2=$?
"$D" -r "$tmp/$f" -w "$tmp/x" --redact-key $KEY 2>"$tmp/e3"; r3=$?
"$D" -r "$tmp/$f" -w "$tmp/x" --redact --json 2>"$tmp/e4"; r4=$?
"$D" -r "$tmp/$f" -w "$tmp/x" --redact=keys,bogus 2>"$tmp/e7"; r7=$?
check "usage errors exit 2: no -w ($r1), a short key ($r2), a key without --redact ($r3), --json with it ($r4), =keys,bogus ($r7)" \
	test "$r1$r2$r3$r4$r7" = 22222
gzip -c "$tmp/$f" >"$tmp/gz.pcap.gz"
"$D" -r "$tmp/gz.pcap.gz" -w "$tmp/x" --redact 2>"$tmp/e5"; r5=$?
check "a gzipped capture is refused, exit 3 ($r5: $(head -c 120 "$tmp/e5"))" \
	eval '[ "$r5" -eq 3 ] && grep -q gunzip "$tmp/e5"'
head -c 5000 "$tmp/$f" >"$tmp/cut.pcap"
"$D" -r "$tmp/cut.pcap" -w "$tmp/cut.red" --redact 2>"$tmp/e6"; r6=$?
check "a capture cut short is written up to its last whole record, exit 3 ($r6)" \
	eval '[ "$r6" -eq 3 ] && [ -s "$tmp/cut.red" ] && grep -q "left out" "$tmp/e6"'

echo "1..$n"
