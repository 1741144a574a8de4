#!/bin/bash
# tests/live/cases/decode-live.sh - rpcrdma-decode -i (issue 12 item 5): a live
# capture on the guest's cable (veth0; tests/live/README.md "Adding a live
# test") while the kernel's NFS client mounts the export over RPC-over-RDMA,
# writes and reads back (guest-nfs-rw.sh, whose own tcpdump is the reference):
# --json line by line as the messages come, -w saving what was read, --stats
# printed on SIGINT.  One mount of 64 KiB: quick under TCG.
set -u
. "$(cd "$(dirname "$0")" && pwd)/../case-lib.sh"

kind=${LIVE_KIND:?} bin=${LIVE_BIN:-}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=${LIVE_OUT:?}/decode-live-$kind
D=$bin/rpcrdma-decode
ids=(decode-live-json decode-live-write decode-live-stats)
result() { printf 'RESULT %s %s %s\n' "$1" "$2" "${*:3}"; }
all() { local id; for id in "${ids[@]}"; do result "$id" "$1" "$2"; done; exit 0; }

[[ -x $D ]] || all skip "$D is not built"
rm -rf "$out"
mkdir -p "$out"
case $kind in
rxe) filter="udp port 4791" ;;
*) filter="tcp port 20049" ;;
esac
# the live outputs on the guest's own disk: a line-buffered write to the 9p
# share stalls the reader under TCG until the kernel drops packets
w=$(mktemp -d /run/decode-live.XXXXXX)
json= stats=
cleanup() {
    [[ -n $json ]] && kill -INT "$json" 2>/dev/null
    [[ -n $stats ]] && kill -INT "$stats" 2>/dev/null
    wait 2>/dev/null
    cp -r "$w"/. "$out"/ 2>/dev/null     # kept for a look after a failure
    rm -rf "$w"
}
trap cleanup EXIT

"$D" -i veth0 --json -w "$w/live.pcapng" $filter > "$w/live.jsonl" 2> "$w/live.err" &
json=$!
"$D" -i veth0 --stats $filter > "$w/stats.txt" 2> "$w/stats.err" &
stats=$!
both_listening() { grep -q 'listening on' "$w/live.err" && grep -q 'listening on' "$w/stats.err"; }
wait_until 10 both_listening
for f in live stats; do
    grep -q 'listening on' "$w/$f.err" || all fail "rpcrdma-decode -i veth0: $(head -1 "$w/$f.err")"
done

bash "$here/guest-nfs-rw.sh" --vers 4.1 --size 64 "$w/ref.pcap" > "$w/nfs-rw.log" 2>&1 ||
    all fail "the NFS mount failed: $(tail -1 "$w/nfs-rw.log")"

# the messages (not the typed records) as "xid direction proc_name ops"
# (no jq in the guest)
msgs() { grep '^{"valid":'; }
keys() {
    msgs | sed -E 's/.*"xid":"(0x[0-9a-f]+)".*"direction":"?([a-z]+)"?,.*"rpc":(null|\{[^}]*"proc_name":"?([A-Za-z_0-9]*)"?(,"ops":\[([^]]*)\])?).*/\1 \2 \4 \6/'
}
"$D" -r "$w/ref.pcap" --json 2>/dev/null | keys > "$w/ref.keys"
n=$(wc -l < "$w/ref.keys")
# guest-nfs-rw.sh waited 1.5 s after the unmount for its tcpdump; -i is in
# immediate mode: every message should be out by now
all_out() { (($(msgs < "$w/live.jsonl" | wc -l) >= n)); }
wait_until 2 all_out
early=$(msgs < "$w/live.jsonl" | wc -l)
kill -INT "$json" "$stats"
wait "$json"; rc_json=$?
wait "$stats"; rc_stats=$?
json= stats=

# every message of the reference in the live output, in its order (-i ran a
# little longer than tcpdump: what else it saw on the cable is no fault)
keys < "$w/live.jsonl" > "$w/live.keys"
bad=$(grep -cv '^{.*}$' "$w/live.jsonl")
# "N packets dropped by kernel": under load the kernel's ring can overflow;
# then exit 3 (output incomplete) is right and the messages may differ
drops() {
    local d
    d=$(sed -n 's/^\([0-9]*\) packets dropped by kernel$/\1/p' "$w/$1.err")
    echo "${d:-0}"
}
drops=$(drops live)
if [[ $rc_json != 0 ]] && ! [[ $rc_json == 3 && $drops != 0 ]]; then
    result decode-live-json fail "rpcrdma-decode -i --json exited $rc_json: $(tail -1 "$w/live.err")"
elif ((bad)) || ((n < 10)); then
    result decode-live-json fail "$(wc -l < "$w/live.jsonl") lines ($bad not JSON objects), the reference $n messages"
elif ((early < n)); then
    result decode-live-json fail "$early of $n messages out before SIGINT (not line-buffered?)"
elif ! grep -Fxf "$w/ref.keys" "$w/live.keys" | cmp -s - "$w/ref.keys" && [[ $drops == 0 ]]; then
    result decode-live-json fail "the live messages differ from the reference capture's: $(diff "$w/ref.keys" "$w/live.keys" | head -3 | tr '\n' ' ')"
elif ! grep -q ' COMPOUND "SEQUENCE","PUTFH","WRITE"' "$w/live.keys"; then
    result decode-live-json fail "no NFSv4 WRITE COMPOUND among the live messages"
else
    result decode-live-json ok "-i veth0 $filter --json: the $n messages of tcpdump's capture, each out as it came (exit $rc_json, $drops dropped by kernel)"
fi

# -w: what was read, saved; read back, the same objects ("file" apart)
nofile() { sed 's/"file":"[^"]*",//'; }
"$D" -r "$w/live.pcapng" --json 2>/dev/null | nofile > "$w/reread.json"
if nofile < "$w/live.jsonl" | cmp -s - "$w/reread.json" && [[ -s $w/reread.json ]]; then
    result decode-live-write ok "-w: the frames read, saved; read back, the same $(wc -l < "$w/reread.json") objects"
else
    result decode-live-write fail "-w live.pcapng read back differs from what was printed live"
fi

if [[ $rc_stats == 0 || ($rc_stats == 3 && $(drops stats) != 0) ]] &&
   grep -q '^overall: ' "$w/stats.txt" &&
   grep -qE '^  NFS v4 WRITE +[0-9]+ ' "$w/stats.txt" &&
   grep -q 'packets captured' "$w/stats.err"; then
    result decode-live-stats ok "--stats printed on SIGINT ($(grep -c '^  NFS v4 ' "$w/stats.txt") NFSv4 operations timed, exit $rc_stats)"
else
    result decode-live-stats fail "--stats on SIGINT: exit $rc_stats, $(head -c 200 "$w/stats.txt" | tr '\n' ' ')"
fi
exit 0
