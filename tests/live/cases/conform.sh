#!/bin/bash
# In the guest (guest-smoke.sh runs it per transport, rxe and siw): the
# responder conformance suite, rpcrdma-conform (docs/conformance.md),
#   - against rpcrdma-echo -s: every case passes (or is allowed), none skipped;
#   - against rpcrdma-echo -s --misbehave=MODE: exactly the cases MODE concerns
#     fail (the ones whose message libcodec judges so: "sent_verdict");
#   - against the kernel's NFS server on 198.18.0.1:20049: the run completes,
#     the kernel still serves NFS afterwards (an NFSv3 mount over RDMA, a write
#     and a read), and every deviation the report lists is confirmed in the
#     capture of the same run, decoded with rpcrdma-decode.
# Prints "RESULT conform-<id> ok|fail|skip <text>".  Env: LIVE_KIND,
# LIVE_ADDR_A, LIVE_BIN, LIVE_OUT (tests/live/README.md, "Adding a live test").
# The reports stay in $LIVE_OUT/conform/ (kernel-<kind>.txt is the one
# docs/conformance.md quotes).
set -uo pipefail

kind=${LIVE_KIND:?} A=${LIVE_ADDR_A:?}
C=$LIVE_BIN/rpcrdma-conform E=$LIVE_BIN/rpcrdma-echo D=$LIVE_BIN/rpcrdma-decode
out=${LIVE_OUT:?}/conform
rm -rf "$out" && mkdir -p "$out"
P=20060                          # knfsd has 20049, echo.sh 20050-20052
MODES=(wrong-error drop-bad silent-vers zero-credit)
# the misbehaviour runs: every kind of verdict, and cases no mode concerns
SUBSET='V1 §5.5.1,V1 §5.6,v1-read-*,v1-error-*,v2-optional-*,v2-proc-*,reply-grant-nonzero,reply-xid,inline-1024'

result() { printf 'RESULT conform-%s %s %s\n' "$1" "$2" "${*:3}"; }
note() { echo "conform.sh: $*" >&2; }

ids=(echo "${MODES[@]/#/misbehave-}" kernel kernel-nfs kernel-capture)
if [[ ! -x $C ]]; then
    for id in "${ids[@]}"; do result "$id" skip "$C is not built (it needs the transport)"; done
    exit 0
fi

pids=()
cleanup() {
    local p
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
    wait 2>/dev/null
    mountpoint -q /mnt/conform && umount -f /mnt/conform
}
trap cleanup EXIT

# ---------------------------------------------------------------- JSON Lines
# fields of one case line (the suite's own output: flat strings, no escapes
# in these keys)
jstr() { grep -o "\"$1\":\"[^\"]*\"" <<<"$2" | head -1 | cut -d'"' -f4; }
first_xid() { grep -o '"xids":\["0x[0-9a-f]*' <<<"$1" | grep -o '0x[0-9a-f]*$'; }
# the failing cases of a run, sorted
failed() { grep '"result":"fail"' "$1" | sed 's/^{"case":"\([^"]*\)".*/\1/' | sort; }
summary() { tail -1 "$1" | grep -o '"total":{[^}]*}'; }

# ---------------------------------------------------------------- servers
start_echo() {                   # NAME PORT ARGS...; sets srv_pid
    local name=$1 port=$2 i
    shift 2
    "$E" -s -a "$A" -p "$port" --json "$@" > "$out/$name.json" 2> "$out/$name.err" &
    srv_pid=$!
    pids+=("$srv_pid")
    for i in $(seq 100); do
        grep -q '"type":"listening"' "$out/$name.json" 2>/dev/null && return 0
        kill -0 "$srv_pid" 2>/dev/null || break
        sleep 0.1
    done
    note "$name did not start: $(tail -3 "$out/$name.err")"
    return 1
}

stop_echo() {                    # PID: SIGINT, wait; its exit status
    kill -INT "$1" 2>/dev/null
    timeout 30 tail --pid="$1" -f /dev/null
    wait "$1"
}

# conform NAME PORT ARGS...: one run, text in NAME.txt, JSON Lines in NAME.jsonl
conform() {
    local name=$1 port=$2
    shift 2
    timeout 240 "$C" -p "$port" -t 3000 --json-file "$out/$name.jsonl" "$@" "$A" \
        > "$out/$name.txt" 2> "$out/$name.err"
}

# ---------------------------------------------------------------- 1. our echo server
if [[ ! -x $E ]]; then
    for id in echo "${MODES[@]/#/misbehave-}"; do result "$id" skip "$E is not built"; done
else
    if start_echo echo-$kind $P; then
        conform echo-$kind $P --strict
        rc=$?
        stop_echo "$srv_pid"
        src=$?
        nfail=$(grep -c '"result":"fail"' "$out/echo-$kind.jsonl")
        nskip=$(grep -c '"result":"skip"' "$out/echo-$kind.jsonl")
        if ((rc == 0 && nfail == 0 && nskip == 0 && src == 0)); then
            result echo ok "rpcrdma-conform against rpcrdma-echo -s over $kind: $(grep '^total' "$out/echo-$kind.txt")"
        else
            result echo fail "exit $rc, server exit $src, $nfail failed, $nskip skipped: $(failed "$out/echo-$kind.jsonl" | head -5 | tr '\n' ' ')$(tail -2 "$out/echo-$kind.err")"
        fi
    else
        result echo fail "rpcrdma-echo -s did not start"
    fi

    # ------------------------------------------------------------ 2. broken servers
    i=0
    for mode in "${MODES[@]}"; do
        i=$((i + 1))
        name=misbehave-$mode-$kind
        if ! start_echo "$name" $((P + i)) --misbehave="$mode"; then
            result "misbehave-$mode" fail "rpcrdma-echo -s --misbehave=$mode did not start"
            continue
        fi
        conform "$name" $((P + i)) --only "$SUBSET"
        rc=$?
        stop_echo "$srv_pid"
        # the cases that must fail, from libcodec's verdict on each message sent
        while IFS= read -r line; do
            [[ $line == '{"case":'* ]] || continue
            c=$(jstr case "$line") v=$(jstr sent_verdict "$line")
            case $mode in
            wrong-error) [[ $v == reply_bad_header ]] ;;
            drop-bad) [[ $v == reply_bad_header || $v == reply_err_vers || $v == reply_inval_option ]] ;;
            silent-vers) [[ $v == reply_err_vers ]] ;;
            zero-credit) [[ $c == reply-grant-nonzero ]] ;;
            esac && echo "$c"
        done < "$out/$name.jsonl" | sort > "$out/$name.expected"
        failed "$out/$name.jsonl" > "$out/$name.failed"
        n=$(wc -l < "$out/$name.expected")
        if ((rc == 1 && n > 0)) && cmp -s "$out/$name.expected" "$out/$name.failed"; then
            result "misbehave-$mode" ok "--misbehave=$mode: exactly the $n cases it concerns fail ($(summary "$out/$name.jsonl"))"
        else
            result "misbehave-$mode" fail "--misbehave=$mode: exit $rc; expected vs failed: $(diff "$out/$name.expected" "$out/$name.failed" | grep '^[<>]' | head -6 | tr '\n' ' ')"
        fi
    done
fi

# ---------------------------------------------------------------- 3. the kernel's NFS server
pcap=$out/kernel-$kind.pcap
tcpdump -i veth0 -s 0 -B 65536 -U -w "$pcap" 2> "$out/tcpdump.err" &
td=$!
pids+=("$td")
for _ in $(seq 100); do
    grep -q 'listening on' "$out/tcpdump.err" 2>/dev/null && break
    sleep 0.1
done
conform kernel-$kind 20049
rc=$?
sleep 1.5                        # past tcpdump's 1 s buffer timeout
kill -INT "$td" 2>/dev/null
wait "$td" 2>/dev/null
tot=$(grep '^total' "$out/kernel-$kind.txt")
if ((rc == 0 || rc == 1)) && [[ -n $tot ]]; then
    result kernel ok "rpcrdma-conform against knfsd over $kind completed (exit $rc): $tot"
else
    result kernel fail "exit $rc: $(tail -3 "$out/kernel-$kind.err")"
fi

# ---------------------------------------------------------------- 4. NFS still served
mkdir -p /mnt/conform
msg="conform $kind $$"
if timeout 120 mount -t nfs -o proto=rdma,port=20049,vers=3,nolock,mountproto=tcp \
        "$A:/srv/export" /mnt/conform 2> "$out/mount.err" &&
    echo "$msg" > "/mnt/conform/conform-$kind" && sync &&
    umount /mnt/conform &&
    timeout 120 mount -t nfs -o proto=rdma,port=20049,vers=3,nolock,mountproto=tcp \
        "$A:/srv/export" /mnt/conform 2>> "$out/mount.err" &&
    [[ $(cat "/mnt/conform/conform-$kind") == "$msg" ]]; then
    result kernel-nfs ok "after the run knfsd still serves NFSv3 over RDMA ($kind): mounted, wrote, remounted, read back"
else
    result kernel-nfs fail "NFSv3 over RDMA after the run: $(tail -2 "$out/mount.err")"
fi
mountpoint -q /mnt/conform && umount /mnt/conform

# ---------------------------------------------------------------- 5. deviations in the capture
if [[ ! -x $D ]]; then
    result kernel-capture skip "$D is not built"
    exit 0
fi
n=0 bad=()
while IFS= read -r line; do
    [[ $line == '{"case":'* && $line == *'"result":"fail"'* ]] || continue
    c=$(jstr case "$line") x=$(first_xid "$line") react=$(jstr reaction "$line")
    [[ -n $x ]] || continue
    n=$((n + 1))
    "$D" -r "$pcap" --xid "$x" --json > "$out/cap-$c.json" 2>/dev/null
    ours=$(grep -c "\"src\":\"198.18.0.2\"" "$out/cap-$c.json")
    theirs=$(grep "\"src\":\"198.18.0.1\"" "$out/cap-$c.json")
    errs=$(grep -c '"proc":4' <<<"$theirs")
    code=$(grep -o '"error":{"code":[0-9]*' <<<"$theirs" | head -1 | grep -o '[0-9]*$')
    msgs=$(grep -c . <<<"$theirs")
    ok=0
    case $react in
    discard | no_answer | disconnect | crash) ((msgs == 0)) && ok=1 ;;
    # an error in a version the decoder does not speak has no decoded code
    err_vers) ((errs > 0)) && [[ -z $code || $code == 1 ]] && ok=1 ;;
    err_badheader) ((errs > 0)) && [[ -z $code || $code == 2 ]] && ok=1 ;;
    err_inval_option) ((errs > 0)) && [[ -z $code || $code == 3 ]] && ok=1 ;;
    err_other) ((errs > 0)) && ok=1 ;;
    reply | garbage_args | rpc_error) ((msgs > errs)) && ok=1 ;;
    bad_answer) ((msgs > 0)) && ok=1 ;;
    esac
    ((ours > 0 && ok)) || bad+=("$c($react: ours $ours, theirs $msgs)")
done < "$out/kernel-$kind.jsonl"
if ((${#bad[@]} == 0)); then
    result kernel-capture ok "$n deviations of knfsd, each confirmed in the capture of the run ($("$D" -r "$pcap" 2>/dev/null | wc -l) messages decoded)"
else
    result kernel-capture fail "not as the report says in the capture: ${bad[*]:0:6}"
fi
