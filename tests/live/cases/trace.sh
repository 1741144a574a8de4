#!/bin/bash
# tests/live/cases/trace.sh - the kernel's own view (issue 25): one NFSv3
# mount over this transport recorded three ways at once by
# tests/kernel/guest-record.sh -- the rpcrdma trace events of client and
# server (this guest is both), tcpdump on the cable, mountstats at two marks
# -- and rpcrdma-trace -i reading the same events live from a tracefs
# instance of its own.  Then, in the guest (no jq: tests/kernel/*.sh are awk):
#   trace-xids        >= 99% of the calls' xids matched both ways between
#                     the trace (rpcrdma-trace -r --json) and the capture
#                     (rpcrdma-decode --json), the events the ring buffer
#                     reports lost allowed besides; 0 credit and 0 chunk-type
#                     disagreements (tests/kernel/agree.sh)
#   trace-mountstats  mountstats' change between the marks equals the
#                     capture's counts of the calls marshalled between them
#                     (tests/kernel/ms-agree.sh, rpcrdma-stat --json)
#   trace-check       rpcrdma-trace --check passes on the trace, and reads it
#                     with no malformed line, unknown event or format drift
#   trace-live        rpcrdma-trace -i saw the same calls as the trace file
# The files stay in LIVE_OUT/trace-KIND.
set -u

kind=${LIVE_KIND:?} bin=${LIVE_BIN:-}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
top=$(cd "$here/../.." && pwd)
out=${LIVE_OUT:?}/trace-$kind
T=$bin/rpcrdma-trace S=$bin/rpcrdma-stat D=$bin/rpcrdma-decode
ids=(trace-xids trace-mountstats trace-check trace-live)
result() { printf 'RESULT %s %s %s\n' "$1" "$2" "${*:3}"; }
all() { local id; for id in "${ids[@]}"; do result "$id" "$1" "$2"; done; exit 0; }

for b in "$T" "$S" "$D"; do [[ -x $b ]] || all fail "$b is not built"; done
rm -rf "$out"
mkdir -p "$out"
w=$(mktemp -d /run/trace-case.XXXXXX)
trap 'cp -r "$w"/. "$out"/ 2>/dev/null; rm -rf "$w"' EXIT
t0=$SECONDS
RECORD_LIVE=$T bash "$top/tests/kernel/guest-record.sh" "$kind" "$w" 3 > "$w/record.out" 2>&1 ||
    all fail "guest-record.sh failed: $(tail -2 "$w/record.out" | tr '\n' ' ')"
rec_s=$((SECONDS - t0))
lost=$(awk '{ s += $2 } END { print s + 0 }' "$w/overruns.txt")

"$D" -r "$w/cap.pcap" --json > "$w/cap.json" 2> "$w/decode.err"
"$T" -r "$w/trace.txt" --json > "$w/trace.json" 2> "$w/trace.err"
msg=$(bash "$top/tests/kernel/agree.sh" "$w/cap.json" "$w/trace.json" "$lost" 2>&1)
if [[ $? == 0 ]]; then result trace-xids ok "$kind: $(head -1 <<< "$msg") (recorded in $rec_s s)"
else result trace-xids fail "$kind: $(tr '\n' ' ' <<< "$msg")"; fi

msg=$(bash "$top/tests/kernel/ms-agree.sh" "$w/trace.txt" "$w/cap.json" "$w/ms-before.txt" "$w/ms-after.txt" "$S" 2>&1)
if [[ $? == 0 ]]; then result trace-mountstats ok "$kind: $(tail -1 <<< "$msg")"
else result trace-mountstats fail "$kind: $(tr '\n' ' ' <<< "$msg")"; fi

"$T" -r "$w/trace.txt" -q --stats --check > "$w/check.txt" 2> "$w/check.err"
rc=$?
drift=$(grep -c . "$w/check.err")
if ((rc == 0 && drift == 0)) && grep -q '^check: pass' "$w/check.txt" &&
   grep -q ' 0 malformed, 0 too long' "$w/check.txt"; then
    result trace-check ok "$kind: $(grep -E '^  RPCs' "$w/check.txt" | sed 's/^ *//'); --check passes, nothing unknown or drifted"
else
    result trace-check fail "$kind: exit $rc, $(grep -E '^check:|unknown|drift' "$w/check.txt" "$w/check.err" | tr '\n' ' ')"
fi

# the live reader's calls against the file's (both from the same events)
live_x() { sed -nE 's/^\{"xid":"(0x[0-9a-f]+)","side":"(both|client)".*/\1/p' "$1" | sort -u; }
if ! grep -q '^rc=0' "$w/live.err"; then
    result trace-live fail "$kind: rpcrdma-trace -i: $(tr '\n' ' ' < "$w/live.err")"
else
    live_x "$w/trace.json" > "$w/file.xids"
    live_x "$w/live.json" > "$w/live.xids"
    nf=$(wc -l < "$w/file.xids") nl=$(wc -l < "$w/live.xids")
    d=$(comm -3 "$w/file.xids" "$w/live.xids" | wc -l)
    if ((nf > 0 && d == 0)); then result trace-live ok "$kind: rpcrdma-trace -i on a tracefs instance saw the same $nl calls as the trace file"
    else result trace-live fail "$kind: -i saw $nl calls, the file $nf, $d differ"; fi
fi
