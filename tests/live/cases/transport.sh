#!/bin/bash
# tests/live/cases/transport.sh - the RPC-over-RDMA transport itself over
# real RDMA, in the guest of each transport (rxe, siw; tests/live/README.md
# "Adding a live test"), with its own driver (build/transport/xprt-live):
# our client against our server over every chunk path, byte for byte, in
# Version Two and Version One; a v1-only server against a client that starts
# with Version Two (ERR_VERS, fallback); NULL calls to the kernel's NFS
# server on port 20049 (program 100003, versions 3 and 4: V2 refused with
# ERR_VERS 1..1, V1 works); the whole cable captured and judged by
# rpcrdma-decode --check.  The tools' own live tests are theirs (echo.sh...).
set -u
. "$(cd "$(dirname "$0")" && pwd)/../case-lib.sh"

kind=${LIVE_KIND:?} A=${LIVE_ADDR_A:?} bin=${LIVE_BIN:-}
out=${LIVE_OUT:?}/transport
drv=$bin/../transport/xprt-live
ids=(xprt-paths-v2 xprt-paths-v1 xprt-rinv xprt-fallback xprt-nfs3 xprt-nfs4 xprt-lint)
result() { printf 'RESULT %s %s %s\n' "$1" "$2" "${*:3}"; }
all() { local id; for id in "${ids[@]}"; do result "$id" "$1" "$2"; done; exit 0; }

[[ -x $drv ]] || all skip "$drv is not built"
rm -rf "$out"
mkdir -p "$out"
cap=/tmp/xprt-$kind.pcap
srv= dump=
cleanup() {
    [[ -n $srv ]] && kill -INT $srv 2>/dev/null
    [[ -n $dump ]] && kill -INT $dump 2>/dev/null
    wait 2>/dev/null
}
trap cleanup EXIT
case $kind in
rxe) filter="udp port 4791" ;;
*) filter="tcp port 20049 or tcp port 20050 or tcp port 20051" ;;
esac
tcpdump -i veth0 -B 131072 -U -w "$cap" "$filter" 2> "$out/tcpdump.err" &
dump=$!
sleep 1

serve() {   # serve PORT [ARGS]: our server on end A, once it listens
    "$drv" -s -a "$A" -p "$@" > "$out/server-$1.log" 2>&1 &
    srv=$!
    wait_line 20 "$out/server-$1.log" 'server: listening' "$srv" && return
}
stop() { kill -INT $srv 2>/dev/null; wait $srv 2>/dev/null; srv=; }
judge() {   # judge ID RC TEXT: ok when the driver passed
    if [[ $2 == 0 ]] && ! grep -q '^FAIL' "$out/$1.log"; then
        result "$1" ok "$3 ($(grep -c '^ok' "$out/$1.log") checks)$(retry_note "$1")"
    else
        result "$1" fail "$3: $(grep -m1 '^FAIL' "$out/$1.log" || tail -1 "$out/$1.log")$(retry_note "$1")"
    fi
}
# drive ID SECS ARGS...: the driver as a client, its output added to ID's
# log.  A run whose first call got no reply (siw's lost first Send, Linux
# 6.1: tests/live/README.md; the client closes that connection, V1 4.3.3)
# is made once more on a new connection, counted (case-lib.sh's retried) and
# said on ID's line; its output is kept in ID.first.log
drive() {
    local id=$1 secs=$2 rc
    shift 2
    timeout "$(scaled "$secs")" "$drv" "$@" > "$out/$id.run" 2>&1
    rc=$?
    if ((rc)) && grep -q 'no reply in time to the first call on this connection' "$out/$id.run"; then
        cat "$out/$id.run" >> "$out/$id.first.log"
        retried "$id" "the first call of a connection unanswered, made again on a new connection"
        timeout "$(scaled "$secs")" "$drv" "$@" > "$out/$id.run" 2>&1
        rc=$?
    fi
    cat "$out/$id.run" >> "$out/$id.log"
    rm -f "$out/$id.run"
    return $rc
}

sizes=0,100,3000,5000,65536,1048576
serve 20050 -d -d
drive xprt-paths-v2 120 "$A" -p 20050 -m auto,read,write,reply,pos0 -S $sizes
rc=$?
drive xprt-paths-v2 60 "$A" -p 20050 -m inline -S 0,100,3000 || rc=1
grep -q 'vers 2 ' "$out/xprt-paths-v2.log" || rc=1
judge xprt-paths-v2 $rc "V2: every chunk path, 0 B..1 MiB, every byte back"
drive xprt-paths-v1 120 "$A" -p 20050 -V 1 -m auto,read,write,reply,pos0 -S 0,5000,1048576
rc=$?
grep -q 'vers 1 v2_refused 0' "$out/xprt-paths-v1.log" || rc=1
judge xprt-paths-v1 $rc "V1: every chunk path, every byte back"
# remote invalidation: memory windows where the device has them (rxe), and
# then the server answers with Send With Invalidate; siw has none
drive xprt-rinv 60 "$A" -p 20050 -I -m write,read -S 500,200000
rc=$?
# (rxe does not report IBV_WC_WITH_INV on the Receive: the server's trace
# says what it sent; the requester deallocates its windows either way)
ninv=$(grep -c 'Send With Invalidate' "$out/server-20050.log")
if [[ $kind == rxe ]]; then
    [[ $ninv -ge 2 ]] || rc=1   # the one-chunk calls (two rkeys: a plain Send)
    what="rxe: memory windows, the flag announced, $ninv replies sent With Invalidate"
else
    [[ $ninv == 0 ]] || rc=1
    what="siw: no memory windows, no flag, plain Sends"
fi
judge xprt-rinv $rc "$what"
stop

serve 20051 -V 1
drive xprt-fallback 60 "$A" -p 20051 -S 100,5000
rc=$?
grep -q 'vers 1 v2_refused 1 range 1..1' "$out/xprt-fallback.log" || rc=1
judge xprt-fallback $rc "v1-only server: V2 refused with ERR_VERS 1..1, the call resent in V1"
stop

for v in 3 4; do
    drive xprt-nfs$v 60 "$A" --null 100003 $v
    rc=$?
    grep -q 'vers 1 v2_refused 1 range 1..1' "$out/xprt-nfs$v.log" || rc=1
    judge xprt-nfs$v $rc "kernel NFS server, NULL v$v: V2 refused (ERR_VERS 1..1), V1 answered"
done

sleep 1
kill -INT $dump; wait $dump 2>/dev/null; dump=
cp "$cap" "$out/cable.pcap" 2>/dev/null
dropped=$(sed -n 's/^\([0-9]*\) packets dropped by kernel.*/\1/p' "$out/tcpdump.err")
if [[ ! -x $bin/rpcrdma-decode ]]; then
    result xprt-lint skip "rpcrdma-decode is not built"
elif [[ ${dropped:-0} != 0 ]]; then
    # a capture with holes shows RDMA traffic whose advertisement was lost
    result xprt-lint skip "tcpdump dropped $dropped packets: the capture is not the cable"
elif "$bin/rpcrdma-decode" -r "$cap" --check > "$out/lint.txt" 2>&1; then
    result xprt-lint ok "rpcrdma-decode --check: no violation on the cable ($("$bin/rpcrdma-decode" -r "$cap" 2>/dev/null | wc -l) messages)"
else
    result xprt-lint fail "rpcrdma-decode --check: $(grep -v '^#' "$out/lint.txt" | head -3 | tr '\n' ' ')"
fi
