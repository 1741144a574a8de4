#!/bin/bash
# In the guest: what `make bench-live` measures, on one Soft-RoCE link
# (rxe0 on veth0, 198.18.0.1 <-> rxe1 on veth1, 198.18.0.2), in one run:
#   - rpcrdma-bench's NULL round trip against rpcrdma-echo -s (port 20050),
#     and its ECHO throughput at 1 MiB (read chunk out, write chunk back);
#   - rpcrdma-bench's NULL round trip against the kernel NFS server
#     (198.18.0.1:20049, program 100003 version 3);
#   - perftest's ib_send_lat at the size of our NULL call's Send, and
#     ib_read_bw and ib_write_bw at 1 MiB (-R: rdma_cm; -F: no CPU
#     frequency check; the guest runs with tsc=reliable).
# In ROUNDS rounds (default 5), interleaved: perftest's figure, then ours
# that is divided by it, perftest, ours ... (the machine's load drifts;
# ratios are taken per round, the report judges their median).  Our
# server runs only while we measure (it spins on its queues, as perftest
# does: it must not take a CPU from the others).  The raw outputs go to
# OUT_DIR as NAME.ROUND.{txt,json}; scripts/bench-ratios.sh reads them.
#   bench-guest.sh OUT_DIR BIN_DIR [LAT_ITERS] [BW_ITERS] [ALL_ITERS] [ROUNDS]
# ALL_ITERS > 0 adds rpcrdma-bench -a with a plot (the README's).
set -uo pipefail

out=${1:?output directory} bin=${2:?bin directory}
lat_n=${3:-1000} bw_n=${4:-50} all_n=${5:-0} rounds=${6:-5}
here=$(cd "$(dirname "$0")" && pwd)
A=198.18.0.1 port=20050
mkdir -p "$out"
log=$out/guest.log
: > "$log"
say() { echo "bench-live: $*"; }
die() { say "error: $*"; tail -20 "$log" | sed 's/^/  /'; exit 1; }

bash "$here/guest-net.sh" rxe >> "$log" 2>&1 || die "no rxe link (guest-net.sh)"
bash "$here/guest-nfsd.sh" >> "$log" 2>&1 || die "the kernel NFS server did not start"

srv=
trap '[[ -n $srv ]] && kill -TERM $srv 2>/dev/null; wait 2>/dev/null' EXIT
# --poll: the server spins on its completion queues, as perftest's server does
server_start() {
    "$bin/rpcrdma-echo" -s --poll -a "$A" -p "$port" >> "$out/echo-server.txt" 2>&1 &
    srv=$!
    for _ in $(seq 100); do
        (($(grep -c listening "$out/echo-server.txt") >= $1)) && return 0
        sleep 0.1
    done
    die "rpcrdma-echo -s did not start: $(tail -3 "$out/echo-server.txt")"
}
server_stop() {
    kill -TERM "$srv" 2>/dev/null
    wait "$srv" 2>/dev/null
    srv=
}
: > "$out/echo-server.txt"
starts=0

# bench NAME ARGS...: rpcrdma-bench with its tables in NAME.txt, JSON in
# NAME.json; a failed run is tried once more, and says so (a measurement,
# not a test: the live tests report such failures)
bench() {
    local name=$1 try
    shift
    for try in 1 2; do
        if ((try == 1)); then
            say "rpcrdma-bench $* $A"
        else
            say "rpcrdma-bench $* $A again, after: $(tail -1 "$log")"
        fi
        echo "+ rpcrdma-bench $* $A" >> "$log"
        "$bin/rpcrdma-bench" "$@" --timeout 20000 --out_json_file "$out/$name.json" "$A" \
            > "$out/$name.txt" 2>> "$log" && return 0
    done
    die "rpcrdma-bench $* failed twice"
}
# perf NAME TOOL ARGS...: server on rxe0, client on rxe1; perftest under
# TCG sometimes fails its clock calibration after a good run ("Can't
# produce a report"): one retry
perf() {
    local name=$1 tool=$2 try
    shift 2
    for try in 1 2; do
        say "$tool $* (try $try)"
        echo "+ $tool $*" >> "$log"
        timeout 120 "$tool" -R -F -d rxe0 "$@" > "$out/$name.server.txt" 2>&1 &
        local s=$!
        sleep 1
        if timeout 120 "$tool" -R -F -d rxe1 "$@" "$A" > "$out/$name.txt" 2>&1 &&
           wait "$s" && grep -q '^ *[0-9]' "$out/$name.txt"; then
            return 0
        fi
        kill "$s" 2>/dev/null
        wait "$s" 2>/dev/null
        cat "$out/$name.txt" >> "$log"
    done
    die "$tool failed twice"
}
# ours KIND ROUND: our server up, one measurement (lat: the NULL round
# trip; bw: 1 MiB ECHOs), our server down
ours() {
    starts=$((starts + 1))
    server_start "$starts"
    case $1 in
    lat) bench "ours-null.$2" --null --lat -n "$lat_n" -p "$port" ;;
    bw) bench "ours-1m.$2" --bw -s 1048576 -n "$bw_n" -p "$port" ;;
    esac
    server_stop
}
# perftest at the size of our NULL call's Send (header + RPC call): from a
# short run before the rounds
starts=$((starts + 1))
server_start "$starts"
bench ours-null.0 --null --lat -n 100 -p "$port"
server_stop
send_size=$(python3 -c '
import json, sys
c = json.load(open(sys.argv[1]))["counts"]
print(max(2, round(c["bytes_sent"] / max(1, c["calls_sent"]))))' "$out/ours-null.0.json") ||
    die "no counts in ours-null.0.json"
echo "$send_size" > "$out/send_size"
# Interleaved: in every round each of our figures right after perftest's
# that it is divided by (perftest, ours, perftest, ours ...), so that the
# host's load, which drifts, weighs on both alike; the report takes the
# ratio within each round and judges the median of the rounds
order="ib_send_lat ours-null kernel-null ib_read_bw ib_write_bw ours-1m"
echo "$order" > "$out/order"
for ((r = 1; r <= rounds; r++)); do
    say "round $r of $rounds"
    perf "ib_send_lat.$r" ib_send_lat -s "$send_size" -n "$lat_n"
    ours lat "$r"
    bench "kernel-null.$r" -P nfs -V 3 --lat -n "$lat_n"
    perf "ib_read_bw.$r" ib_read_bw -s 1048576 -n "$bw_n"
    perf "ib_write_bw.$r" ib_write_bw -s 1048576 -n "$bw_n"
    ours bw "$r"
done
if ((all_n > 0)); then
    starts=$((starts + 1))
    server_start "$starts"
    bench ours-all -a -n "$all_n" -p "$port" --plot "$out/rpcrdma-bench-rxe.svg"
    server_stop
fi
echo "$rounds" > "$out/rounds"
say "done"
