#!/bin/bash
# tests/live/cases/wildcard.sh - the README's own commands, as a user types
# them, in the guest of each transport (rxe, siw): `rpcrdma-echo -s` with no
# address and the default port (20049: the kernel's NFS server is stopped
# for it, and started again at the end), then from end B `rpcrdma-echo HOST`,
# `rpcrdma-echo -S 0,4k,1m HOST`, `rpcrdma-bench HOST` and
# `rpcrdma-conform HOST`.  Until 11-26 the server listened on the IPv6
# wildcard alone and every IPv4 client over siw was rejected (reason -104);
# it now listens on 0.0.0.0 and on :: (IPv6 only), as knfsd does.
# Runs last (the name sorts after the other cases): knfsd is down meanwhile.
# Prints "RESULT readme-<id> ok|fail|skip <text>".
set -uo pipefail

kind=${LIVE_KIND:?} A=${LIVE_ADDR_A:?} bin=${LIVE_BIN:?}
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/case-lib.sh"
out=${LIVE_OUT:?}/wildcard
rm -rf "$out" && mkdir -p "$out"
E=$bin/rpcrdma-echo B=$bin/rpcrdma-bench C=$bin/rpcrdma-conform
ids=(server-listens echo echo-sizes bench conform server-stops knfsd-back)

result() { printf 'RESULT readme-%s %s %s\n' "$1" "$2" "${*:3}"; }
note() { echo "wildcard.sh: $*" >&2; }
all() { local id; for id in "${ids[@]}"; do result "$id" "$1" "$2"; done; exit 0; }
for t in "$E" "$B" "$C"; do
    [[ -x $t ]] || all skip "$t is not built"
done

srv=
knfsd_was_up=0
grep -q '^rdma 20049' /proc/fs/nfsd/portlist 2>/dev/null && knfsd_was_up=1
knfsd_up() {
    rpc.nfsd 4 && echo 'rdma 20049' > /proc/fs/nfsd/portlist &&
        grep -q '^rdma 20049' /proc/fs/nfsd/portlist
}
cleanup() {
    [[ -n $srv ]] && kill -INT "$srv" 2>/dev/null && wait "$srv" 2>/dev/null
    ((knfsd_was_up)) && ! grep -q '^rdma 20049' /proc/fs/nfsd/portlist 2>/dev/null && knfsd_up
}
trap cleanup EXIT

# knfsd off: no thread, no listener on 20049 (rpc.nfsd 0 closes its ports)
if ((knfsd_was_up)); then
    rpc.nfsd 0
    if ! wait_until 20 bash -c "! grep -q '^rdma' /proc/fs/nfsd/portlist"; then
        all fail "the kernel's NFS server would not stop: $(tr '\n' ' ' < /proc/fs/nfsd/portlist)"
    fi
fi

# 1. rpcrdma-echo -s, exactly (stdbuf: its first line says it listens)
stdbuf -oL "$E" -s > "$out/server.out" 2> "$out/server.err" &
srv=$!
if wait_line 30 "$out/server.out" '^rpcrdma-echo: listening on all addresses port 20049' "$srv"; then
    rdma resource show cm_id > "$out/cm_ids.txt" 2>&1
    result server-listens ok "rpcrdma-echo -s over $kind: $(head -1 "$out/server.out")"
else
    result server-listens fail "rpcrdma-echo -s over $kind: $(head -c 300 "$out/server.out") $(tail -2 "$out/server.err" | tr '\n' ' ')"
    kill "$srv" 2>/dev/null
    srv=
    for id in "${ids[@]:1:5}"; do result "$id" fail "no server"; done
    cleanup
    ((knfsd_was_up)) || { result knfsd-back skip "the kernel's NFS server was not up before this case"; exit 0; }
    knfsd_was_up=0
    grep -q '^rdma 20049' /proc/fs/nfsd/portlist 2>/dev/null &&
        result knfsd-back ok "the kernel's NFS server listens on rdma 20049 again" ||
        result knfsd-back fail "the kernel's NFS server did not come back"
    exit 0
fi

# client CMD NAME ARGS...: one run from end B (the policy routing sends it
# out of veth1 with source B), bounded; its status in $rc
client() {
    local name=$1
    shift
    timeout "$(scaled 300)" "$@" > "$out/$name.out" 2> "$out/$name.err"
    rc=$?
    echo "$name: $*: exit $rc" >> "$out/runs.log"
}
why() { printf 'exit %s: %s' "$rc" "$(tail -2 "$out/$1.err" "$out/$1.out" 2>/dev/null | grep -v '^==>' | tr '\n' ' ' | cut -c1-300)"; }

# 2. rpcrdma-echo HOST
client echo "$E" "$A"
if ((rc == 0)); then
    result echo ok "rpcrdma-echo $A over $kind: $(grep -m1 -E 'ECHO identical' "$out/echo.out")"
else
    result echo fail "rpcrdma-echo $A over $kind: $(why echo)"
fi
# 3. rpcrdma-echo -S 0,4k,1m HOST (README: "An echo over RPC-over-RDMA")
client echo-sizes "$E" -S 0,4k,1m "$A"
if ((rc == 0)); then
    result echo-sizes ok "rpcrdma-echo -S 0,4k,1m $A over $kind: $(grep -m1 -E 'ECHO identical' "$out/echo-sizes.out")"
else
    result echo-sizes fail "rpcrdma-echo -S 0,4k,1m $A over $kind: $(why echo-sizes)"
fi
# 4. rpcrdma-bench HOST
client bench "$B" "$A"
if ((rc == 0)) && grep -qE '^ *2 ' "$out/bench.out"; then
    result bench ok "rpcrdma-bench $A over $kind: exit 0, $(grep -cE '^ *2 ' "$out/bench.out") table rows for 2 bytes"
else
    result bench fail "rpcrdma-bench $A over $kind: $(why bench)"
fi
# 5. rpcrdma-conform HOST
client conform "$C" "$A"
if ((rc == 0)) && grep -q '^total' "$out/conform.out"; then
    result conform ok "rpcrdma-conform $A over $kind: exit 0, $(grep '^total' "$out/conform.out")"
else
    result conform fail "rpcrdma-conform $A over $kind: $(why conform)"
fi

# 6. ^C: the server's statistics, exit 0
kill -INT "$srv"
timeout "$(scaled 30)" tail --pid="$srv" -f /dev/null
wait "$srv"
src=$?
srv=
if ((src == 0)) && grep -q 'server statistics' "$out/server.out"; then
    result server-stops ok "SIGINT: exit 0; $(grep -m1 '^[0-9]* connections:' "$out/server.out" | cut -c1-200)"
else
    result server-stops fail "SIGINT: exit $src: $(tail -3 "$out/server.out" "$out/server.err" | tr '\n' ' ' | cut -c1-300)"
fi

# 7. knfsd as it was, for whatever runs after
if ((!knfsd_was_up)); then
    result knfsd-back skip "the kernel's NFS server was not up before this case"
elif knfsd_up; then
    result knfsd-back ok "the kernel's NFS server listens on rdma 20049 again"
else
    result knfsd-back fail "the kernel's NFS server did not come back: $(tr '\n' ' ' < /proc/fs/nfsd/portlist)"
fi
exit 0
