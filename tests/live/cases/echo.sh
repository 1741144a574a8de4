#!/bin/bash
# In the guest (guest-smoke.sh runs it per transport, rxe and siw): rpcrdma-echo
# against itself and against the kernel's NFS server, every conversation captured
# on the cable and checked with rpcrdma-decode --check; then the robustness run of
# issue 8 item 5 against an ASan+UBSan build of the server.  Prints
# "RESULT echo-<id> ok|fail|skip <text>".  Env: LIVE_KIND, LIVE_ADDR_A, LIVE_BIN,
# LIVE_OUT (tests/live/README.md, "Adding a live test").
set -uo pipefail

kind=${LIVE_KIND:?} A=${LIVE_ADDR_A:?}
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
. "$here/../case-lib.sh"
build=$(cd "${LIVE_BIN:?}/.." && pwd)
E=$LIVE_BIN/rpcrdma-echo D=$LIVE_BIN/rpcrdma-decode
EA=$build/asan/rpcrdma-echo RAW=$build/live/echo-raw
out=${LIVE_OUT:?}/echo
rm -rf "$out" && mkdir -p "$out"
P=20050 P1=20051 PR=20052     # knfsd has 20049
# ECHO_PARTS=robust runs the robustness part alone (when working on it)
parts=${ECHO_PARTS:-all}

# siw on 6.1 counts every registration against RLIMIT_MEMLOCK, even root's
# (6.1's siw_umem_get has no CAP_IPC_LOCK bypass): the default 8 MiB is some
# forty connections' buffers.  6.12's siw_umem_get calls ib_umem_get, which
# lets root's CAP_IPC_LOCK pass (soak-limits, docs/kernels.md).  A server for
# many clients lifts it, as here, whatever the kernel.
ulimit -l unlimited 2>/dev/null || note "cannot raise RLIMIT_MEMLOCK: $(ulimit -l) KiB"

# the case's line; a client made again since the last one (client) says so
result() {
    local r=
    if ((${first_retries:-0})); then
        r=" [retried $first_retries: the first call of a new connection went unanswered, made again on another]"
        first_retries=0
    fi
    printf 'RESULT echo-%s %s %s%s\n' "$1" "$2" "${*:3}" "$r"
}
note() { echo "echo.sh: $*" >&2; }
# jget KEY FILE: the first value of "KEY": in the file's last line (the summary)
jget() { tail -1 "$2" | grep -o "\"$1\":[^,}]*" | head -1 | cut -d: -f2- | tr -d '"'; }

all_ids=(v1-chunks v2-chunks v1-only-server backward knfsd server-counts capture-check
         robust-vectors robust-flood robust-killed robust-64-clients robust-alive robust-clean)
if [[ ! -x $E ]]; then
    for id in "${all_ids[@]}"; do result "$id" skip "$E is not built"; done
    exit 0
fi

pids=()
cleanup() {
    local p
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
    wait 2>/dev/null
}
trap cleanup EXIT

# start_server NAME ARGS...: in the background, JSON Lines in $out/NAME.json;
# waits for its "listening" line; sets srv_pid
start_server() {
    local name=$1 bin=$2 i
    shift 2
    "$bin" -s -a "$A" --json "$@" > "$out/$name.json" 2> "$out/$name.err" &
    srv_pid=$!
    pids+=("$srv_pid")
    wait_line 10 "$out/$name.json" '"type":"listening"' "$srv_pid" && return 0
    note "$name did not start: $(tail -3 "$out/$name.err")"
    return 1
}

# stop_server PID: SIGINT, wait; its exit status
stop_server() {
    kill -INT "$1" 2>/dev/null
    timeout "$(scaled 30)" tail --pid="$1" -f /dev/null
    wait "$1"
}

# client NAME ARGS...: one rpcrdma-echo client run, its JSON Lines (a line per
# call, the summary last) in $out/NAME.json; made again once, on a new
# connection, when the first call of its connection got no reply (siw can
# lose the first Send of a new connection; V1 §4.3.3 then lets no other call
# follow on it, and the transport closes it).  first_retries counts it; the
# next result line says so.
first_retries=0
client() {
    local name=$1 rc
    shift
    timeout "$(scaled 120)" "$E" --json "$@" > "$out/$name.json" 2> "$out/$name.err"
    rc=$?
    if ((rc)) && grep -q 'no reply in time to the first call on this connection' \
            "$out/$name.json" "$out/$name.err"; then
        note "$name: the first call of its connection went unanswered: made again"
        first_retries=$((first_retries + 1))
        mv "$out/$name.err" "$out/$name.first.err"
        timeout "$(scaled 120)" "$E" --json "$@" > "$out/$name.json" 2> "$out/$name.err"
        rc=$?
    fi
    ((rc)) && note "$name: exit $rc: $(tail -2 "$out/$name.err") $(tail -1 "$out/$name.json")"
    return $rc
}

if [[ $parts == all ]]; then
# ---------------------------------------------------------------- the cable
tcpdump -i veth0 -s 0 -B 65536 -U -w "$out/echo-$kind.pcap" 2> "$out/tcpdump.err" &
td=$!
pids+=("$td")
wait_line 10 "$out/tcpdump.err" 'listening on' "$td"

# ---------------------------------------------------------------- our client, our server
echo_total=0
start_server server "$E" -p $P || true
srv=$srv_pid
# per version: every --chunk mode but inline on one connection, every size
# from 0 to 1 MiB with each; inline on another, with sizes that fit.  The call
# lines say which path each call and reply took; what each mode must show,
# sizes 0 1 1000 4093 64Ki 1Mi with 4 KiB thresholds: auto moves the last
# three in chunks both ways, read and write every size but 0 (nothing to
# move), pos0 all six, reply the three replies over 4 KiB.
# npath FILE MODE KEY VALUE: how many of that mode's calls show KEY VALUE
npath() { grep "\"chunk\":\"$2\"" "$1" | grep -c "\"$3\":\"$4\""; }
for v in 1 2; do
    bad= paths=
    f=$out/v$v-chunks.json fi=$out/v$v-inline.json
    if ! client "v$v-chunks" --versions $v --chunk auto,read,pos0,write,reply \
            -S 0,1,1000,4093,65536,1m -p $P "$A"; then
        bad+=" chunks(exit)"
    fi
    [[ $(jget vers "$f") == "$v" && $(jget identical "$f") == 30 ]] ||
        bad+=" (vers $(jget vers "$f"), $(jget identical "$f")/30 identical)"
    for want in "auto call_path read 3" "auto reply_path write 3" "read call_path read 5" \
                "pos0 call_path pos0 6" "write reply_path write 5" "reply reply_path reply 3"; do
        set -- $want
        n=$(npath "$f" "$1" "$2" "$3")
        ((n == $4)) || bad+=" $1: $n $2 $3, not $4;"
        paths+=" $1 $2=$3:$n"
    done
    if client "v$v-inline" --versions $v --chunk inline -S 0,1,100,900 -p $P "$A" &&
       [[ $(jget identical "$fi") == 4 && $(npath "$fi" inline call_path inline) == 4 &&
          $(npath "$fi" inline reply_path inline) == 4 ]]; then
        paths+=" inline: 4 of 4 inline both ways"
    else
        bad+=" inline (exit or paths);"
    fi
    n1=$(jget identical "$f") n2=$(jget identical "$fi")
    echo_total=$((echo_total + ${n1:-0} + ${n2:-0}))
    if [[ -z $bad ]]; then
        result "v$v-chunks" ok "V$v over $kind: --chunk auto, read, pos0, write, reply with sizes 0..1 MiB on one connection and inline on another, every byte identical;$paths"
    else
        result "v$v-chunks" fail "V$v over $kind:$bad"
    fi
done

# a client that starts with V2, a server that speaks V1 only
if start_server server-v1 "$E" -p $P1 --versions 1; then
    srv1=$srv_pid
    f=$out/v1-only.json
    if client v1-only -S 0,1m -p $P1 "$A" && [[ $(jget vers "$f") == 1 && $(jget v2_refused "$f") == true ]]; then
        result v1-only-server ok "V2 client, V1-only server over $kind: V2 refused (ERR_VERS $(jget vers_low "$f")..$(jget vers_high "$f")), V1 used, 0 and 1 MiB identical"
    else
        result v1-only-server fail "vers $(jget vers "$f"), v2_refused $(jget v2_refused "$f"), exit status above"
    fi
    stop_server "$srv1" > /dev/null
else
    result v1-only-server fail "the V1-only server did not start"
fi

# backward calls: 64 of the largest size the ULB allows
f=$out/backward.json
if client backward --backward 64 -S 948 -p $P "$A" &&
   [[ $(jget received "$f") == 64 && $(jget identical "$f") == 1 && $(jget server_identical "$f") == 64 ]]; then
    result backward ok "64 backward ECHO calls of 948 bytes over $kind, answered and identical both ways"
    echo_total=$((echo_total + 1))
else
    result backward fail "received $(jget received "$f"), server counted $(jget server_identical "$f")"
fi

# the kernel's NFS server: NULL over V1 after V2 is refused
bad= txt=
for nv in 3 4; do
    f=$out/knfsd-$nv.json
    if client "knfsd-$nv" --program nfs --program-version $nv -c 2 "$A" &&
       [[ $(jget vers "$f") == 1 && $(jget v2_refused "$f") == true && $(jget replies "$f") == 2 ]]; then
        txt+=" NFSv$nv: 2 NULL replies, V2 refused (ERR_VERS $(jget vers_low "$f")..$(jget vers_high "$f")), V1 used;"
    else
        bad+=" NFSv$nv: vers $(jget vers "$f"), v2_refused $(jget v2_refused "$f"), replies $(jget replies "$f");"
    fi
done
[[ -z $bad ]] && result knfsd ok "kernel NFS server over $kind:$txt" || result knfsd fail "$bad"

# the server's own counts agree with the clients'
if stop_server "$srv" && f=$out/server.json &&
   [[ $(jget rpc_errors "$f") == 0 && $(jget ddp_violations "$f") == 0 ]] &&
   tail -1 "$f" | grep -q "\"total\":{\"null\":[0-9]*,\"echo\":$echo_total,"; then
    result server-counts ok "server over $kind: exit 0 on SIGINT; $(jget connections "$f") connections, $echo_total ECHO calls, as the clients counted"
else
    result server-counts fail "server: $(tail -c 300 "$out/server.json") (the clients counted $echo_total ECHO calls)"
fi

# every conversation on the cable, checked
sleep 1.5   # past tcpdump's buffer timeout
kill -INT "$td" 2>/dev/null
wait "$td" 2>/dev/null
pcap=$out/echo-$kind.pcap
if [[ ! -x $D ]]; then
    result capture-check skip "$D is not built"
elif [[ ! -s $pcap ]]; then
    result capture-check fail "no capture"
else
    # Every end here announces 4 KiB inline sizes in its RFC 8797 private
    # data (the clients' "inline_send"/"inline_recv" show it: Linux's too),
    # which rpcrdma-decode does not read yet: its --check would hold V1
    # messages to V1's default of 1024 bytes.
    th=$(jget inline_recv "$out/v1-chunks.json")
    msgs=$("$D" -r "$pcap" 2> "$out/decode.err" | wc -l)
    if "$D" -r "$pcap" --check -q --inline-threshold "${th:-4096}" > "$out/check.out" 2>&1; then
        result capture-check ok "rpcrdma-decode --check --inline-threshold ${th:-4096}: no violation in $msgs messages on the cable over $kind ($(grep -o '[0-9]* packets captured' "$out/tcpdump.err"))"
    else
        result capture-check fail "rpcrdma-decode --check over $kind: $(head -3 "$out/check.out" | tr '\n' ' ')"
    fi
fi

fi
# ---------------------------------------------------------------- robustness (item 5)
robust=(robust-vectors robust-flood robust-killed robust-64-clients robust-alive robust-clean)
if [[ ! -x $EA || ! -x $RAW ]]; then
    for id in "${robust[@]}"; do result "$id" skip "$EA or $RAW is not built (make check builds them)"; done
    exit 0
fi
export ASAN_OPTIONS=detect_leaks=1:log_path=$out/asan:abort_on_error=0
export UBSAN_OPTIONS=print_stacktrace=1:log_path=$out/asan
if ! start_server robust-server "$EA" -p $PR --credits 8 -d; then
    for id in "${robust[@]}"; do result "$id" fail "the ASan server did not start"; done
    exit 0
fi
rs=$srv_pid
unset ASAN_OPTIONS UBSAN_OPTIONS

# Under TCG an ASan server with some seventy connections answers slowly:
# every call here may take up to a minute, and so may a connect (the
# tools' --connect-timeout defaults to 30 s; --timeout bounds only a call)
# (x LIVE_SLOW, the guest's speed measured before this case: a loaded host
# stretches every one of them alike)
T=$(($(scaled 60) * 1000)) CT=$(scaled 120) TO=$(scaled 200)
timeout $TO "$RAW" --vectors "$top/tests/vectors/vectors.txt" --timeout $T -p $PR "$A" \
    > "$out/raw-vectors.out" 2>&1 &
vec=$!
timeout $TO "$RAW" --flood 64 --credits 8 --timeout $T -p $PR "$A" > "$out/raw-flood.out" 2>&1 &
fl=$!
"$E" -q -c 0 -S 1m --chunk read --timeout $T --connect-timeout $CT -p $PR "$A" > "$out/killed.out" 2>&1 &
kl=$!
pids+=("$vec" "$fl" "$kl")
clients=()
for i in $(seq 64); do
    timeout $TO "$E" -c 1 -S 4k,64k --credits 4 --timeout $T --connect-timeout $CT -p $PR "$A" > "$out/c$i.out" 2>&1 &
    clients+=($!)
done
sleep 2
kill -9 "$kl" 2>/dev/null
good=0 k=0
for p in "${clients[@]}"; do
    k=$((k + 1))
    if wait "$p"; then
        good=$((good + 1))
    elif grep -q 'no reply in time to the first call on this connection' "$out/c$k.out"; then
        # siw can lose the first Send of a new connection (client() above):
        # made again once on a new connection, counted (a fresh clone, 11-28:
        # 63 of 64, the 64th's first NULL unanswered)
        mv "$out/c$k.out" "$out/c$k.first.out"
        retried robust-64-clients "a client's first call went unanswered, made again on a new connection"
        timeout $TO "$E" -c 1 -S 4k,64k --credits 4 --timeout $T --connect-timeout $CT -p $PR "$A" > "$out/c$k.out" 2>&1 &&
            good=$((good + 1))
    fi
done
wait "$vec"; vrc=$?
wait "$fl"; frc=$?

# echo-raw gave its first NULL call up unanswered and made it again on a
# new connection (the siw race): said on the result line, counted by smoke.sh
raw_retry() { grep -q '^first NULL call unanswered' "$1" &&
    printf ' [retried 1: %s]' "$(grep -m1 '^first NULL call unanswered' "$1")"; return 0; }
if ((vrc == 0)); then
    result robust-vectors ok "over $kind: $(tail -1 "$out/raw-vectors.out")$(raw_retry "$out/raw-vectors.out")"
else
    result robust-vectors fail "over $kind (exit $vrc): $(grep -v '^[0-9]* malformed' "$out/raw-vectors.out" | head -3 | tr '\n' ' ') $(tail -1 "$out/raw-vectors.out")"
fi
if ((frc == 0)); then
    result robust-flood ok "over $kind: $(tail -1 "$out/raw-flood.out")$(raw_retry "$out/raw-flood.out")"
else
    result robust-flood fail "over $kind (exit $frc): $(tail -2 "$out/raw-flood.out" | tr '\n' ' ')"
fi
kill -0 "$kl" 2>/dev/null && result robust-killed fail "the client did not die" ||
    result robust-killed ok "a client killed (SIGKILL) during 1 MiB read-chunk calls over $kind"
# a connection request the RDMA stack gave up on (siw's MPA Reply timer,
# with the ASan server accepting late under TCG) is made again by the tool
# within --connect-timeout, said on its stderr: counted here
nre=$(cat "$out"/c*.out | grep -c 'no answer to the connection request after .*connecting again')
for ((k = 0; k < nre; k++)); do
    retried robust-64-clients "connection requests timed out below the tool (the server accepting late), made again within --connect-timeout"
done
if ((good == 64)); then
    result robust-64-clients ok "64 clients at once over $kind, each 4 KiB and 64 KiB (a read and a write chunk) and a backward call, all identical$(retry_note robust-64-clients)"
else
    result robust-64-clients fail "$good of 64 clients succeeded over $kind: $(grep -hE 'rpcrdma-echo:|seq=[0-9]*: ' "$out"/c*.out | sed 's/seq=[0-9]*/seq=N/' | sort | uniq -c | sort -rn | head -3 | tr '\n' ' ')$(retry_note robust-64-clients)"
fi
f=$out/robust-alive.json
# (with the bounds above: the 1 MiB call of the default 10 s timed out over
# rxe in a fresh clone beside two builds, 11-27)
if kill -0 "$rs" 2>/dev/null && client robust-alive -S 0,1m --timeout $T --connect-timeout $CT -p $PR "$A"; then
    result robust-alive ok "the server still answers over $kind (0 and 1 MiB identical)"
else
    result robust-alive fail "the server is $(kill -0 "$rs" 2>/dev/null && echo 'running but does not answer' || echo gone)"
fi
stop_server "$rs"; src=$?
reports=$(cat "$out"/asan.* 2>/dev/null | grep -E 'ERROR: (Address|Leak)Sanitizer|runtime error' | head -3)
if ((src == 0)) && [[ -z $reports ]]; then
    result robust-clean ok "the ASan+UBSan server over $kind: exit 0 on SIGINT, no leak, no error; $(jget connections "$out/robust-server.json") connections, $(jget dropped "$out/robust-server.json") dropped"
else
    result robust-clean fail "the server exited $src; $reports"
    cat "$out"/asan.* 2>/dev/null | head -40 | sed 's/^/# /' >&2
fi
exit 0
