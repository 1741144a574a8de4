#!/bin/bash
# In the guest (opt-in: RPCRDMA_LIVE_CASES=requester-faults; guest-smoke.sh
# runs it per transport, rxe and siw): issue 26 item 2, faults from the
# responder's side.  rpcrdma-conform --requester --faults runs its fault
# cases (tools/conform/req_fault_cases.c), each a listener of its own; the
# guest's Linux NFS client mounts it once per case (soft, short timeo),
# lists /many, reads data-1m.bin (compared byte for byte with the tree's
# definition; and with O_DIRECT, its READs out at once), two small files
# and stats two, stats hello.txt again (the
# mount still usable after the fault), and unmounts.  Checks:
#   - faults-cases: every case graded (PASS, FAIL or NOTE: the client's
#     FAILs and NOTEs are findings, reported, not failures of the test);
#     the run ends in its deadline;
#   - faults-mount: what the mount did under each fault (usable after it,
#     data-1m.bin read right or which error), reported per case;
#   - faults-capture: each fault as the capture of the same run shows it
#     (the grants, the RDMA_ERROR replies, a reply for no call) and each
#     error case's grade against the capture: the error's xid sent again
#     (rpcrdma-decode's calls) iff the grade says so.
# Prints "RESULT requester-faults-<id> ok|fail|skip <text>".  Env: LIVE_KIND,
# LIVE_ADDR_A, LIVE_BIN, LIVE_OUT (tests/live/README.md).
set -uo pipefail

kind=${LIVE_KIND:?} A=${LIVE_ADDR_A:?}
C=$LIVE_BIN/rpcrdma-conform D=$LIVE_BIN/rpcrdma-decode
out=${LIVE_OUT:?}/requester-faults
rm -rf "$out" && mkdir -p "$out"
. "$(cd "$(dirname "$0")/.." && pwd)/case-lib.sh"
RP=20073 MP=20074                # requester.sh 20071-20072
M=/mnt/requester-faults

result() { printf 'RESULT requester-faults-%s %s %s\n' "$1" "$2" "${*:3}"; }
note() { echo "requester-faults.sh: $*" >&2; }
ids=(cases mount capture)
skip_unless_built "$C" "$D"

pids=()
cleanup() {
    local p
    mountpoint -q "$M" && umount -f "$M"
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
    wait 2>/dev/null
}
trap cleanup EXIT

pcap=$out/faults-$kind.pcap
if [[ $kind == siw ]]; then filt="tcp port $RP"; else filt="udp port 4791"; fi
tcpdump -i veth0 -s 0 -B 65536 -U -w "$pcap" $filt 2> "$out/tcpdump.err" &
td=$!
pids+=("$td")
wait_line 10 "$out/tcpdump.err" 'listening on' "$td" || note "tcpdump did not say it listens"

pattern() { perl -e 'my ($n, $f) = @ARGV; print map { chr(($_ + $f) % 251) } 0 .. $n - 1' "$1" "$2"; }
pattern 1048576 3 > "$out/data-1m.expected"

mkdir -p "$M"
# soft, 5 s a try, 2 retransmissions: a client the fault stalls gives up in
# its deadline (every command below has its own as well)
opts="vers=3,proto=rdma,port=$RP,mountport=$MP,mountproto=tcp,nolock,soft,timeo=50,retrans=2"
ncases=7
"$C" --requester --faults -a "$A" -p "$RP" --mount-port "$MP" -t "$(($(scaled 15) * 1000))" \
    --json-file "$out/cases.jsonl" > "$out/cases.out" 2> "$out/cases.err" &
cpid=$!
pids+=("$cpid")
listening() { (($(grep -c ': listening on port ' "$out/cases.err" 2>/dev/null) >= $1)); }
case_over() { (($(grep -c ': done (' "$out/cases.err" 2>/dev/null) >= $1)); }
case_name() { grep ': listening on port ' "$out/cases.err" | sed -n "${1}p" | sed 's/.*case \([^:]*\):.*/\1/'; }
ran=0 drove=0 mounts=()
t0=$SECONDS
while ((ran < ncases)) && wait_until 30 listening $((ran + 1)); do
    ran=$((ran + 1))
    name=$(case_name "$ran")
    if timeout "$(scaled 40)" mount -t nfs -o "$opts" "$A:/" "$M" 2>> "$out/mount-$ran.err"; then
        work=()
        timeout "$(scaled 40)" ls -l "$M/many" > /dev/null 2>> "$out/work-$ran.err" & work+=($!)
        timeout "$(scaled 40)" cat "$M/data-1m.bin" > "$out/data-$ran.bin" 2>> "$out/work-$ran.err" & work+=($!)
        timeout "$(scaled 40)" cat "$M/odd-4099.bin" "$M/hello.txt" > /dev/null 2>> "$out/work-$ran.err" & work+=($!)
        timeout "$(scaled 40)" stat "$M/many/entry-007" "$M/empty" > /dev/null 2>> "$out/work-$ran.err" & work+=($!)
        # O_DIRECT: the 1 MiB read goes out as READs of rsize at once, so
        # that the client has more calls out than a shrunk grant allows
        timeout "$(scaled 40)" dd if="$M/data-1m.bin" of=/dev/null bs=1M iflag=direct status=none 2>> "$out/work-$ran.err" & work+=($!)
        timeout "$(scaled 40)" dd if="$M/odd-4099.bin" of=/dev/null bs=64k iflag=direct status=none 2>> "$out/work-$ran.err" & work+=($!)
        wait "${work[@]}"
        if cmp -s "$out/data-1m.expected" "$out/data-$ran.bin"; then data="data-1m.bin right"
        else data="data-1m.bin: $(wc -c < "$out/data-$ran.bin") bytes, $(grep -o 'cat: [^:]*: .*' "$out/work-$ran.err" | head -1 | sed 's/.*: //')"; fi
        if timeout "$(scaled 20)" stat -c %s "$M/hello.txt" > /dev/null 2>> "$out/work-$ran.err"; then
            after="usable after"
        else
            after="NOT usable after"
        fi
        mounts+=("$name: mounted, $data, $after")
        timeout "$(scaled 30)" umount "$M" 2>> "$out/mount-$ran.err" || umount -f "$M" 2>/dev/null
        drove=$((drove + 1))
    else
        mounts+=("$name: mount failed ($(tail -1 "$out/mount-$ran.err"))")
    fi
    wait_until 30 case_over "$ran" || note "case $ran: no 'done' line in 30 s"
done
timeout "$(scaled 60)" tail --pid="$cpid" -f /dev/null
wait "$cpid"
crc=$?
took=$((SECONDS - t0))
summary=$(grep -o '"total":{[^}]*}' "$out/cases.jsonl" 2>/dev/null)
graded=$(grep -c '"result":"\(pass\|fail\|note\)"' "$out/cases.jsonl" 2>/dev/null)
grades=$(grep -o '"case":"[^"]*".*"result":"[a-z]*"' "$out/cases.jsonl" 2>/dev/null |
         sed 's/"case":"\([^"]*\)".*"result":"\([a-z]*\)"/\1 \2/' | tr '\n' ';')
if ((crc <= 1 && ran == ncases && graded == ncases)); then
    result cases ok "rpcrdma-conform --requester --faults against the Linux client over $kind in ${took} s: $summary; $grades"
else
    result cases fail "exit $crc, $ran cases listened, $drove mounted, $graded graded: $summary $grades $(grep -v ': \(listening\|done\)' "$out/cases.err" | tail -2)"
fi
if ((drove > 0)); then
    result mount ok "$(IFS=';'; echo "${mounts[*]}")"
else
    result mount fail "no case mounted: $(IFS=';'; echo "${mounts[*]}")"
fi

# ---------------------------------------------------------------- the capture
sleep 1.5                        # past tcpdump's 1 s buffer timeout
kill -INT "$td" 2>/dev/null
wait "$td" 2>/dev/null
"$D" -r "$pcap" --json > "$out/decoded.jsonl" 2> "$out/decode.err"
"$D" -r "$pcap" --check > "$out/check.out" 2>&1
replies=$(grep '"direction":"reply"' "$out/decoded.jsonl")
calls=$(grep '"direction":"call"' "$out/decoded.jsonl")
verdict() { grep -o "\"case\":\"$1\".*\"result\":\"[a-z]*\"" "$out/cases.jsonl" 2>/dev/null | sed 's/.*"result":"//; s/"$//'; }
observed() { grep -o "\"case\":\"$1\".*\"observed\":\"[^\"]*" "$out/cases.jsonl" 2>/dev/null | sed 's/.*"observed":"//'; }
seen=() missing=() agree=() disagree=()
shows() {   # shows WHAT COUNT
    if (($2 > 0)); then seen+=("$1: $2"); else missing+=("$1"); fi
}
shows "replies granting 2 (rq-grant-shrink, rq-stray-xid)" "$(grep -c '"credits":2[,}]' <<< "$replies")"
shows "replies granting 256 (rq-grant-grow)" "$(grep -c '"credits":256[,}]' <<< "$replies")"
shows "replies granting 0 (rq-grant-0)" "$(grep -c '"credits":0[,}]' <<< "$replies")"
shows "RDMA_ERROR replies" "$(grep -c '"proc_name":"RDMA_ERROR"' <<< "$replies")"
# each error case: its xid from the grade, then the calls with that xid in
# the capture: the call, and as many again as the grade counted on its
# connection (a NOTE when any: D-RQF-4) and on a later one (reported)
for cs in rq-err-vers rq-err-badheader; do
    v=$(verdict "$cs") ob=$(observed "$cs")
    xid=$(grep -o 'xid 0x[0-9a-f]*' <<< "$ob" | head -1 | sed 's/xid //')
    [[ -z $xid ]] && { agree+=("$cs $v: no READ answered with an error"); continue; }
    same=$(sed -n 's/.*again \([0-9]*\) on its connection.*/\1/p' <<< "$ob")
    later=$(sed -n 's/.*, \([0-9]*\) on a later one.*/\1/p' <<< "$ob")
    n=$(grep -ci "\"xid\":\"$xid\"" <<< "$calls")
    if [[ -n $same && -n $later ]] && ((n == 1 + same + later)) &&
        [[ ($v == note && $same -gt 0) || ($v == pass && $same -eq 0) || $v == fail ]]; then
        agree+=("$cs $v: $n call(s) with xid $xid in the capture ($same again on its connection, $later on a later one)")
    else
        disagree+=("$cs $v, but $n call(s) with xid $xid in the capture (the grade: ${same:-?} again on its connection, ${later:-?} on a later one)")
    fi
done
# the credit rules every case grades: rpcrdma-decode --check's
# credits-exceeded over the whole capture (the grants are in it) is 0
# unless a case FAILed on them
c_credit=$(grep -c 'credits-exceeded' "$out/check.out")
c_fail=$(grep -c '"fail_requirement":"V1-4.3.[13]-' "$out/cases.jsonl" 2>/dev/null)
if (((c_credit == 0) == (c_fail == 0))); then
    agree+=("credits: $c_fail case(s) FAIL on the credit rules, $c_credit credits-exceeded")
else
    disagree+=("credits: $c_fail case(s) FAIL on the credit rules, but $c_credit credits-exceeded in the capture")
fi
c_zero=$(grep -c 'zero-credit' "$out/check.out")
if ((${#missing[@]} == 0 && ${#disagree[@]} == 0)); then
    result capture ok "the capture shows $(IFS=';'; echo "${seen[*]}"); zero-credit lints $c_zero; $(IFS=';'; echo "${agree[*]}")"
else
    result capture fail "not in the capture: ${missing[*]:-none}; ${disagree[*]:-}; seen: ${seen[*]:-none}"
fi
