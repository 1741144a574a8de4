#!/bin/bash
# In the guest: the smoke tests over one soft RDMA transport. Prints one line
# per test, "RESULT <id> ok|fail|skip <text>", for smoke.sh on the host to number;
# leaves the NFS captures in OUT_DIR for the host's tshark and rpcrdma-decode.
# Then runs every tests/live/cases/*.sh (the live tests of the other tools: echo,
# ping, bench...) with the same environment; each prints its own RESULT lines.
#   guest-smoke.sh rxe|siw OUT_DIR [BIN_DIR]
set -uo pipefail

kind=${1:?rxe or siw}
out=${2:?output directory}
bin=${3:-}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/case-lib.sh"
A=198.18.0.1 B=198.18.0.2
mkdir -p "$out"
log=$out/guest-$kind.log
: > "$log"
# How slow this guest is today (the host is shared): every deadline of the
# cases is scaled by it (case-lib.sh)
live_measure_speed
echo "# guest speed: 25 fork+exec in $LIVE_SPEED_MS ms, deadlines x$LIVE_SLOW (reference $LIVE_SPEED_REF_MS ms)"

result() { printf 'RESULT %s %s %s\n' "$1" "$2" "${*:3}"; }
# Runs a command with its output in the log; on failure shows the log's tail.
logged() {
    echo "+ $*" >> "$log"
    "$@" >> "$log" 2>&1 && return 0
    local rc=$?
    echo "  (exit $rc)" >> "$log"
    tail -15 "$log" | sed 's/^/# /'
    return "$rc"
}
fail_rest() {
    local id
    for id in devices pingpong rping nfs3 nfs41; do
        [[ " $done_ids " == *" $id "* ]] || result "$id" fail "$1"
    done
    exit 0
}
done_ids=

# The port's GID that carries an IPv4 address (::ffff:a.b.c.d).
ipv4_gid_index() {
    local f
    for f in /sys/class/infiniband/"$1"/ports/1/gids/*; do
        [[ $(<"$f") == 0000:0000:0000:0000:0000:ffff:* ]] && { echo "${f##*/}"; return 0; }
    done 2>/dev/null
    return 1
}

# 1. Two devices on the two ends of a veth pair.
if ! logged bash "$here/guest-net.sh" "$kind"; then
    result devices fail "guest-net.sh $kind failed"
    done_ids+=" devices"
    fail_rest "no $kind devices"
fi
d0=${kind}0 d1=${kind}1
list=$(ibv_devices 2>>"$log")
echo "$list" >> "$log"
if grep -qw "$d0" <<<"$list" && grep -qw "$d1" <<<"$list"; then
    result devices ok "ibv_devices lists $d0 and $d1"
else
    result devices fail "ibv_devices does not list $d0 and $d1"
fi
done_ids+=" devices"

# The NFS server starts now, so its grace period runs out during the verbs tests.
nfsd_ok=1
logged bash "$here/guest-nfsd.sh" || nfsd_ok=0

# 2. ibv_rc_pingpong: raw verbs, connection set up by hand (RoCE only).
if [[ $kind == siw ]]; then
    result pingpong skip "iWARP QPs connect only through rdma_cm; ibv_rc_pingpong sets up raw RC QPs (rping and NFS cover siw)"
elif ! g0=$(ipv4_gid_index "$d0") || ! g1=$(ipv4_gid_index "$d1"); then
    result pingpong fail "no IPv4 GID on $d0/$d1"
else
    timeout "$(scaled 60)" ibv_rc_pingpong -d "$d0" -g "$g0" -n 200 -s 4096 >> "$log" 2>&1 &
    srv=$!
    # ready when its TCP socket for the QP exchange listens (port 18515)
    wait_until 20 tcp_listening 18515 || echo "  (ibv_rc_pingpong's port 18515 not listening after $(scaled 20) s)" >> "$log"
    if logged timeout "$(scaled 60)" ibv_rc_pingpong -d "$d1" -g "$g1" -n 200 -s 4096 "$A" && wait "$srv"; then
        result pingpong ok "ibv_rc_pingpong $d1 -> $d0, 200 x 4 KiB ($(grep -m1 -o '[0-9.]* usec/iter' "$log"))"
    else
        kill "$srv" 2>/dev/null
        result pingpong fail "ibv_rc_pingpong $d1 -> $d0"
    fi
fi
done_ids+=" pingpong"

# 3. rping: rdma_cm connection, RDMA Read/Write and Sends.  Judged by what
# went over the connection: the client's exit status and its 20 verified
# pings (-V: a mismatch is an error), the server's 20 "server ping data"
# lines.  rping's server has a race of its own at the end (rdma-core 44's
# rping.c: the client's disconnect ends the server's loop, "wait for
# RDMA_READ_ADV state 10", and while the main thread tears down, its CM
# thread may get EBADF from rdma_get_cm_event and exit(255)); that exit,
# with that message after 20 good pings, is accepted and named in the
# result, any other server failure is one.
# A connection that ends before its first ping (over siw under a two-core
# hog, 11-28: the client saw DISCONNECT while it waited for the server's
# RDMA_WRITE_ADV, exit 0 with no ping, and the server waited on to its
# timeout): no ping went either way, so rping runs once more on a new
# connection, counted (retried) and said on the line.
rs_out=$out/rping-server.out
rping_once() {   # one server, one client: rping_rc rs_rc n_cli n_srv
    local mark
    timeout "$(scaled 60)" rping -s -a "$A" -C 20 -v -V > "$rs_out" 2>&1 &
    srv=$!
    wait_until 20 rdma_listening 7174 || echo "  (no rdma_cm listener on 7174 after $(scaled 20) s)" >> "$log"
    rping_rc=0
    mark=$(wc -l < "$log")
    logged timeout "$(scaled 60)" rping -c -a "$A" -I "$B" -C 20 -v -V || rping_rc=$?
    n_cli=$(tail -n +"$((mark + 1))" "$log" | grep -c '^ping data: rdma-ping-')
    # a client that pinged nothing leaves a server with nothing to wait for
    ((n_cli == 0)) && ! wait_until 5 server_gone && kill "$srv" 2>/dev/null
    wait "$srv"
    rs_rc=$?
    cat "$rs_out" >> "$log"
    n_srv=$(grep -c '^server ping data: rdma-ping-' "$rs_out")
}
server_gone() { ! kill -0 "$srv" 2>/dev/null; }
rping_once
if ((n_cli == 0 && n_srv == 0)); then
    retried rping "the connection ended before rping's first ping (client exit $rping_rc: $(grep -v 'ping data' "$log" | tail -1)), made again on a new connection"
    rping_once
fi
if ((rping_rc == 0 && n_cli >= 20 && n_srv == 20)) && { ((rs_rc == 0)) ||
       { ((rs_rc == 255)) && grep -q 'rdma_get_cm_event: Bad file descriptor' "$rs_out"; }; }; then
    how="server exit 0"
    ((rs_rc == 0)) || how="server exit 255 from rping's own teardown race (rdma_get_cm_event: Bad file descriptor, after the 20 pings): accepted"
    result rping ok "rping $B -> $A over $kind, 20 verified pings; $how$(retry_note rping)"
else
    kill "$srv" 2>/dev/null
    result rping fail "rping $B -> $A over $kind: client exit $rping_rc, $n_cli client and $n_srv server pings, server exit $rs_rc: $(grep -v 'ping data' "$rs_out" | tail -2 | tr '\n' ' ')$(retry_note rping)"
fi
done_ids+=" rping"

# 4, 5. The kernel's NFS client and server over RPC-over-RDMA, captured on the cable.
if ((!nfsd_ok)); then
    fail_rest "the NFS server did not start"
fi
for v in 3 4.1; do
    id=nfs${v/./}
    args=(--vers "$v" --size 4096)
    [[ $v == 4.1 ]] && args+=(--backchannel)
    if logged bash "$here/guest-nfs-rw.sh" "${args[@]}" "$out/$id-$kind.pcap"; then
        result "$id" ok "NFSv$v proto=rdma over $kind: 4 MiB written, read back, identical; $(grep 'tcpdump:' "$log" | tail -1 | grep -o '[0-9]* packets captured')"
    else
        result "$id" fail "NFSv$v proto=rdma over $kind"
    fi
    done_ids+=" $id"
done

# The other tools' live tests. Environment: LIVE_KIND (rxe|siw), LIVE_DEV_A/B
# (rxe0/rxe1...), LIVE_ADDR_A/B (198.18.0.1/2, A runs the NFS server on
# port 20049 and exports /srv/export), LIVE_BIN (the host's build/bin, shared at
# the same path), LIVE_OUT (a directory for their files). Each case prints
# "RESULT <id> ok|fail|skip <text>" lines with ids unique to it.
export LIVE_KIND=$kind LIVE_DEV_A=$d0 LIVE_DEV_B=$d1 LIVE_ADDR_A=$A LIVE_ADDR_B=$B
export LIVE_BIN=$bin LIVE_OUT=$out LIVE_SLOW
for v in LIVE_SOAK_CONNS LIVE_SOAK_AT_ONCE LIVE_SOAK_SECONDS; do
    [[ -n ${!v:-} ]] || unset "$v"
done
# LIVE_CASES="echo ping" (smoke.sh passes RPCRDMA_LIVE_CASES): those alone,
# for work on them; the other cases' results are then missing
[[ -n ${LIVE_CASES:-} ]] && echo "# cases limited to: $LIVE_CASES"
echo "# case (the set-up: devices, pingpong, rping, NFS): $SECONDS s, guest cpu $(($(guest_cpu_ticks) / 100)) s since boot"
for case in "$here"/cases/*.sh; do
    [[ -f $case ]] || continue
    name=${case##*/}
    [[ -z ${LIVE_CASES:-} || " $LIVE_CASES " == *" ${name%.sh} "* ]] || continue
    # cases run only when named (cases/opt-in.txt says why each is there)
    [[ -z ${LIVE_CASES:-} ]] && grep -qx "${name%.sh}" "$here/cases/opt-in.txt" 2>/dev/null && continue
    # the host's load changes from case to case (other guests, builds):
    # the speed is measured again before each, and its deadlines follow it
    live_measure_speed
    echo "+ case $name (guest speed: deadlines x$LIVE_SLOW)" >> "$log"
    # test only (RPCRDMA_LIVE_FAKE_WEDGE=CASE, the first guest alone): the
    # kernel's soft lockup line on the console and no more progress, as the
    # wedge seen in trace.sh: smoke.sh's run of the rest in a fresh guest
    if [[ -n ${LIVE_FAKE_WEDGE:-} && $LIVE_FAKE_WEDGE == "${name%.sh}" ]]; then
        echo "<2>watchdog: BUG: soft lockup - CPU#0 stuck for 999s! [bash:$$] (RPCRDMA_LIVE_FAKE_WEDGE)" > /dev/kmsg
        sleep 100000
    fi
    t_case=$SECONDS c_case=$(guest_cpu_ticks)
    # each RESULT line also goes to the log with the second it came at (profiling)
    limit=300
    [[ $name == soak.sh && -n ${LIVE_SOAK_SECONDS:-} ]] && limit=$((LIVE_SOAK_SECONDS + 600))
    { timeout "$(scaled $limit)" bash "$case" 2>> "$log" ||
        result "case-${name%.sh}" fail "$name exited with status $?"; } |
        while IFS= read -r line; do
            printf '%s\n' "$line"
            [[ $line == RESULT* ]] && printf '+ %s at %s s: %s\n' "$name" "$((SECONDS - t_case))" "${line:0:60}" >> "$log"
        done
    # and the guest's CPU time it took (all vCPUs, the kernel's RDMA
    # included): what a case costs the host under TCG
    c_case=$(( ($(guest_cpu_ticks) - c_case) / 100 ))   # USER_HZ, 100 on x86
    echo "+ case $name: $((SECONDS - t_case)) s, guest cpu $c_case s" >> "$log"
    echo "# case $name: $((SECONDS - t_case)) s, guest cpu $c_case s"
done
exit 0
