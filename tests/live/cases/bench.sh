#!/bin/bash
# tests/live/cases/bench.sh - rpcrdma-bench in the guest of each transport
# (rxe, siw; tests/live/README.md "Adding a live test"): against
# rpcrdma-echo -s on end A, one run per chunk path (inline, read, pos0,
# write, reply) captured on the cable, then a run over every size with a plot.
# tests/live/bench-check.py judges the outputs: tables with every column,
# percentiles ordered, JSON that parses and matches the tables, byte and
# call counts equal to what the server counted, every chunk path the table
# names seen in the capture (rpcrdma-decode), the plot written.  Small -n:
# quick under TCG.  Never a speed.
set -u
. "$(cd "$(dirname "$0")" && pwd)/../case-lib.sh"

kind=${LIVE_KIND:?} A=${LIVE_ADDR_A:?} bin=${LIVE_BIN:-}
out=${LIVE_OUT:?}/bench
port=20050                      # knfsd has 20049 on end A
here=$(cd "$(dirname "$0")/.." && pwd)
ids=(bench-run bench-tables bench-percentiles bench-json bench-counts bench-paths
     bench-lint bench-plot)
result() { printf 'RESULT %s %s %s\n' "$1" "$2" "${*:3}"; }
all() {     # all STATUS TEXT: every id the same
    local id
    for id in "${ids[@]}"; do result "$id" "$1" "$2"; done
    exit 0
}

for t in rpcrdma-bench rpcrdma-echo rpcrdma-decode; do
    [[ -x $bin/$t ]] || all skip "$bin/$t is not built"
done
command -v python3 >/dev/null || all skip "no python3 in the guest"
rm -rf "$out"
mkdir -p "$out"
cap=/tmp/bench-$kind.pcap       # on the guest's disk, not the 9p share

srv_pid= dump_pid=
cleanup() {
    [[ -n $dump_pid ]] && kill -INT "$dump_pid" 2>/dev/null
    [[ -n $srv_pid ]] && kill -TERM "$srv_pid" 2>/dev/null
    wait 2>/dev/null
}
trap cleanup EXIT

case $kind in
rxe) filter="udp port 4791" ;;
*) filter="tcp port $port" ;;
esac
tcpdump -i veth0 -U -w "$cap" "$filter" 2> "$out/tcpdump.err" &
dump_pid=$!
"$bin/rpcrdma-echo" -s -a "$A" -p "$port" --json > "$out/server.jsonl" 2> "$out/server.err" &
srv_pid=$!
# the server has logged more disconnects than N (a run's connection closed)
disconnects_over() { (($(grep -c '"disconnect"' "$out/server.jsonl") > $1)); }
wait_line 10 "$out/server.jsonl" '"listening"' "$srv_pid"
grep -q '"listening"' "$out/server.jsonl" || all fail "rpcrdma-echo -s did not listen: $(head -c 300 "$out/server.err")"
sleep 0.5                       # tcpdump attached

# run NAME ARGS...: one rpcrdma-bench connection; waits for the server's
# record of it (its "disconnect" line), which bench-check.py compares with
# the client's counts
nruns=0 failed_runs=
run() {
    local name=$1 rc=0 before
    shift
    before=$(grep -c '"disconnect"' "$out/server.jsonl")
    timeout "$(scaled 120)" "$bin/rpcrdma-bench" -p "$port" --timeout "$(($(scaled 15) * 1000))" --out_json_file "$out/$name.json" "$@" "$A" \
        > "$out/$name.txt" 2> "$out/$name.err" || rc=$?
    echo "$name: rpcrdma-bench $* $A: exit $rc" >> "$out/runs.log"
    ((rc == 0)) || failed_runs+=" $name (exit $rc: $(tail -1 "$out/$name.err"))"
    wait_until 5 disconnects_over "$before"
    grep '"disconnect"' "$out/server.jsonl" | tail -1 > "$out/$name.server.json"
    nruns=$((nruns + 1))
}

run inline -s 64 -n 20 -t 4 --chunk inline
run read -s 8192 -n 10 -t 4 --chunk read
run pos0 -s 8192 -n 10 -t 4 --chunk pos0
run write -s 512 -n 10 -t 4 --chunk write      # an inline call, the reply's data in a write chunk
run reply -s 8192 -n 10 -t 4 --chunk reply     # the reply in the reply chunk (RDMA_NOMSG)
# tcpdump lags under TCG: stop it once its file has stopped growing
size=-1
for _ in $(seq "$(scaled 20)"); do
    sleep 1
    now=$(stat -c %s "$cap" 2>/dev/null || echo 0)
    ((now == size)) && break
    size=$now
done
kill -INT "$dump_pid" 2>/dev/null
wait "$dump_pid" 2>/dev/null
dump_pid=
# every size, auto chunks, with a plot (not captured: it moves MiBs)
run all -a -n 3 -t 4 --plot "$out/bench-$kind.svg"
kill -TERM "$srv_pid" 2>/dev/null
wait "$srv_pid" 2>/dev/null
srv_pid=

if [[ -n $failed_runs ]]; then
    result bench-run fail "runs failed:$failed_runs"
else
    result bench-run ok "$nruns runs against rpcrdma-echo -s over $kind, exit 0"
fi
"$bin/rpcrdma-decode" -r "$cap" --json > "$out/capture.jsonl" 2> "$out/decode.err"
echo "decode exit $?" >> "$out/runs.log"
"$bin/rpcrdma-decode" -r "$cap" --check > "$out/check.txt" 2>&1
echo "check exit $?" >> "$out/runs.log"
cp "$cap" "$out/" 2>/dev/null
python3 "$here/bench-check.py" "$out" inline read pos0 write reply all
