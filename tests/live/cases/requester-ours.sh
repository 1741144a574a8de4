#!/bin/bash
# In the guest (guest-smoke.sh runs it per transport, rxe and siw): the
# requester cases of rpcrdma-conform --requester (tools/conform/req_cases.c)
# against OUR requesters, which speak only NULL and ECHO calls, no NFS file
# operations (issue 26 item 3): rpcrdma-echo's client, rpcrdma-ping, and
# rpcrdma-echo's client with each test-only requester misbehave mode.  One
# rpcrdma-conform --requester run per requester, its seven cases each driven
# by one client run (the case ends when the client has left).
#
# What applies to a client of NULL and ECHO calls (the expected grade per
# case; SKIP is "not applicable", never counted as a PASS):
#   rq-first-one-call, rq-grant-1, rq-calls-valid: every requester; the echo
#     client has 4 calls ready at once (--depth 4), ping one at a time
#     (so ping's two credit PASSes show only that it never has two ready);
#   rq-inline-default: ECHO calls of 2000 and 4097 bytes (over the 1024 to
#     assume without private data) go in read chunks: PASS; ping's NULL
#     calls never need more than 1024 bytes: SKIP (not applicable);
#   rq-read-chunks: the ECHO data in a read chunk (--chunk read, auto):
#     PASS; ping sends no data: SKIP (not applicable);
#   rq-read-write-chunk: an NFSv3 READ's or an ECHO call's write chunk
#     against what it asks back (req_nfs.c's observe_echo: the ECHO data's
#     length); the echo client provides one with --chunk write (every
#     size) and where the 4097-byte reply would exceed its 4096-byte inline
#     threshold (auto, read, pos0): PASS; ping sends NULL only, the
#     forced-inline client provides no chunk: SKIP (not applicable);
#   rq-reply-chunk: a call without a write chunk whose largest reply
#     exceeds the requester's inline threshold (its RFC 8797 Receive Size,
#     4096) carries a reply chunk; the echo client's ECHO of 4097 bytes with
#     --chunk reply (its reply up to 4128 bytes): PASS; ping's NULL replies
#     (32 bytes at most) and the forced-inline ECHO of 2000 (2028) never
#     exceed it: SKIP (not applicable).
# And what must FAIL, exactly:
#   --misbehave no-first-wait: rq-first-one-call and rq-grant-1, both on
#     V1-4.3.3-first; the other five as the plain echo client;
#   --misbehave ignore-grant: rq-grant-1 on V1-4.3.1-limit; the rest as the
#     plain client;
#   --misbehave keep-read-pad (added for this test: an item moved into a
#     read chunk leaves its XDR pad in the Payload stream): rq-read-chunks
#     on V1-4.4.5.1-pad (the 4097-byte ECHO data); the rest as the plain
#     client;
#   --misbehave send-done --versions 1 (added for this test: after the
#     first reply of a connection, an RDMA_DONE for its xid): rq-calls-valid
#     on V1-5.6.2-send; the rest as the plain client.  The RDMA_DONE is no
#     call: the credit cases do not count it; the responder answers it
#     RDMA_ERROR, which the client drops (that xid is no longer
#     outstanding).  Version One, since Version Two has no RDMA_DONE (there
#     procedure 3 is a NOTE on D-RQ-1, test_conform_req).
#   --chunk inline -S 2000 (the call forced inline, the test knob the
#     transport already has): rq-inline-default on V1-4.3.3-assume; nothing
#     reduced into a read chunk, so rq-read-chunks SKIPs, and
#     no chunk provided and no reply over 4096 bytes: rq-read-write-chunk and
#     rq-reply-chunk SKIP.
# First runs 11-28 under the two-core hog: every grade as above over rxe and
# siw in four runs (105-211 s of each guest; once 355 s, a guest slowed
# 19.7 times); with --depth 8 siw lost no-first-wait's rq-grant-1 (ECHO_ARGS).
# With the ECHO forms and send-done (seven requesters), three runs 11-28:
# every grade as above, this script 108-146 s of the rxe guest and 121-131 s
# of the siw guest (docs/conformance.md, "Our own requesters").
# Prints "RESULT requester-ours-<id> ok|fail|skip <text>".  Env: LIVE_KIND,
# LIVE_ADDR_A, LIVE_BIN, LIVE_OUT (tests/live/README.md, "Adding a live test").
set -uo pipefail

kind=${LIVE_KIND:?} A=${LIVE_ADDR_A:?}
C=$LIVE_BIN/rpcrdma-conform E=$LIVE_BIN/rpcrdma-echo P=$LIVE_BIN/rpcrdma-ping
out=${LIVE_OUT:?}/requester-ours
rm -rf "$out" && mkdir -p "$out"
. "$(cd "$(dirname "$0")/.." && pwd)/case-lib.sh"
RP=20073 MP=20074                # requester.sh 20071-20072

result() { printf 'RESULT requester-ours-%s %s %s\n' "$1" "$2" "${*:3}"; }
note() { echo "requester-ours.sh: $*" >&2; }
ids=(echo ping no-first-wait ignore-grant keep-read-pad send-done forced-inline)
skip_unless_built "$C" "$E" "$P"

pids=()
cleanup() {
    local p
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
    wait 2>/dev/null
}
trap cleanup EXIT

ncases=7
cases=(rq-first-one-call rq-grant-1 rq-calls-valid rq-read-write-chunk rq-reply-chunk
       rq-inline-default rq-read-chunks)
# the echo client's calls per case: 4 ready at once, every chunk mode, sizes
# under and over the 1024 a requester assumes without private data.  Not
# more at once: a listener granting 1 posts 2 x 1 + 4 Receives
# (xprt_cm.c), and over siw (iWARP has no RNR retry) a misbehaving burst of
# 8 Sends ran past them and the connection ended before any was graded
# (the first run, 11-28: no-first-wait's rq-grant-1 over siw)
ECHO_ARGS=(--depth 4 -c 1 -S 64,2000,4097 --chunk auto,read,pos0,write,reply --backward 0)

# drive NAME CASE CMD...: one client run for one case, bounded; made again
# once when the first call of its connection went unanswered (siw can lose
# the first Send of a new connection, tests/live/cases/echo.sh)
retries=0
drive() {
    local name=$1 cs=$2 rc
    shift 2
    timeout "$(scaled 60)" "$@" > "$out/$name-$cs.out" 2> "$out/$name-$cs.err"
    rc=$?
    if grep -q 'no reply in time to the first call' "$out/$name-$cs.out" "$out/$name-$cs.err"; then
        note "$name $cs: the first call of its connection went unanswered: made again"
        retries=$((retries + 1))
        mv "$out/$name-$cs.err" "$out/$name-$cs.first.err"
        timeout "$(scaled 60)" "$@" > "$out/$name-$cs.out" 2> "$out/$name-$cs.err"
        rc=$?
    fi
    echo "$name $cs: exit $rc" >> "$out/clients.log"
}

# grades FILE: "case=result[:requirement]" per case, in the table's order
grades() {
    local cs v r
    for cs in "${cases[@]}"; do
        v=$(grep -o "\"case\":\"$cs\".*\"result\":\"[a-z]*\"" "$1" 2>/dev/null | sed 's/.*"result":"//; s/"$//')
        r=$(grep -o "\"case\":\"$cs\".*\"fail_requirement\":\"[^\"]*\"" "$1" 2>/dev/null |
            sed 's/.*"fail_requirement":"//; s/"$//')
        printf '%s=%s%s ' "$cs" "${v:-none}" "${r:+:$r}"
    done
}

# why a case SKIPs for one of our requesters: not applicable, said so
declare -A why_na=(
    [rq-read-write-chunk]="no READ or ECHO call with a write chunk: ping sends NULL only, --chunk inline provides none"
    [rq-reply-chunk]="no reply that may exceed the 4096-byte threshold: NULL replies 32 bytes, ECHO 2000 at most 2028"
    [rq-inline-default]="no call over 1024 bytes (NULL only)"
    [rq-read-chunks]="no item moved into a read chunk: ping has no data, --chunk inline keeps it inline")
# na WANT: "CASE (WHY), ..." for the cases WANT has SKIP
na_text() {
    local w t=
    for w in $1; do
        [[ $w == *=skip ]] && t+="${t:+, }${w%=skip} (${why_na[${w%=skip}]})"
    done
    echo "${t:-none}"
}

# run ID WANT CLIENT...: rpcrdma-conform --requester, each case driven by
# CLIENT (with -p and the address added), the grades against WANT
run() {
    local id=$1 want=$2 ran=0 t0=$SECONDS cpid crc got cs
    shift 2
    local j=$out/$id.jsonl e=$out/$id.err
    "$C" --requester -a "$A" -p "$RP" --mount-port "$MP" -t "$(($(scaled 15) * 1000))" \
        --json-file "$j" > "$out/$id.out" 2> "$e" &
    cpid=$!
    pids+=("$cpid")
    listening() { (($(grep -c ': listening on port ' "$e" 2>/dev/null) >= $1)); }
    case_over() { (($(grep -c ': done (' "$e" 2>/dev/null) >= $1)); }
    while ((ran < ncases)) && wait_until 30 listening $((ran + 1)); do
        ran=$((ran + 1))
        cs=$(grep ': listening on port ' "$e" | sed -n "${ran}s/.*case \([^:]*\):.*/\1/p")
        drive "$id" "${cs:-case$ran}" "$@" -p "$RP" "$A"
        wait_until 30 case_over "$ran" || note "$id case $ran: no 'done' line in 30 s"
    done
    timeout "$(scaled 60)" tail --pid="$cpid" -f /dev/null
    wait "$cpid"
    crc=$?
    got=$(grades "$j")
    echo "$id ($((SECONDS - t0)) s): $got" >> "$out/grades.log"
    if ((ran == ncases)) && [[ $got == "$want" ]]; then
        result "$id" ok "over $kind, $((SECONDS - t0)) s, exit $crc: $got; not applicable: $(na_text "$want")"
    else
        result "$id" fail "over $kind, exit $crc, $ran cases listened: got $got; want $want" \
            "$(grep -v ': \(listening\|done\)' "$e" | tail -2)"
    fi
}

ch="rq-read-write-chunk=pass rq-reply-chunk=pass" na="rq-read-write-chunk=skip rq-reply-chunk=skip"
run echo "rq-first-one-call=pass rq-grant-1=pass rq-calls-valid=pass $ch rq-inline-default=pass rq-read-chunks=pass " \
    "$E" --json "${ECHO_ARGS[@]}"
run ping "rq-first-one-call=pass rq-grant-1=pass rq-calls-valid=pass $na rq-inline-default=skip rq-read-chunks=skip " \
    "$P" -c 4 -i 0 -W "$(scaled 5)" --json
run no-first-wait "rq-first-one-call=fail:V1-4.3.3-first rq-grant-1=fail:V1-4.3.3-first rq-calls-valid=pass $ch rq-inline-default=pass rq-read-chunks=pass " \
    "$E" --json --misbehave no-first-wait "${ECHO_ARGS[@]}"
run ignore-grant "rq-first-one-call=pass rq-grant-1=fail:V1-4.3.1-limit rq-calls-valid=pass $ch rq-inline-default=pass rq-read-chunks=pass " \
    "$E" --json --misbehave ignore-grant "${ECHO_ARGS[@]}"
run keep-read-pad "rq-first-one-call=pass rq-grant-1=pass rq-calls-valid=pass $ch rq-inline-default=pass rq-read-chunks=fail:V1-4.4.5.1-pad " \
    "$E" --json --misbehave keep-read-pad "${ECHO_ARGS[@]}"
run send-done "rq-first-one-call=pass rq-grant-1=pass rq-calls-valid=fail:V1-5.6.2-send $ch rq-inline-default=pass rq-read-chunks=pass " \
    "$E" --json --misbehave send-done --versions 1 "${ECHO_ARGS[@]}"
run forced-inline "rq-first-one-call=pass rq-grant-1=pass rq-calls-valid=pass $na rq-inline-default=fail:V1-4.3.3-assume rq-read-chunks=skip " \
    "$E" --json --versions 1 --depth 4 -c 3 -S 2000 --chunk inline --backward 0
((retries)) && note "$retries client run(s) made again after a lost first call"
exit 0
