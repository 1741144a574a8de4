#!/usr/bin/env bash
# make bench-live: RPC-over-RDMA against the raw verbs and the kernel, on one
# Soft-RoCE link in one guest of the live test bed (tests/live), in one run
# (tests/live/bench-guest.sh), then the report and the ratio table
# (scripts/bench-ratios.sh).  The guest is serialized with the other live
# runs by the make target (flock /tmp/rpcrdma-live.lock).  Under TCG the
# absolute figures are emulation speed: compare the ratios.
#   BUILD=/abs/build [BIN=...] bench-live.sh
# Environment: BENCH_LIVE_ROUNDS (rounds of every measurement, default 5;
# in each, perftest's figure and then ours, interleaved; the ratios are
# taken per round and judged on their median), BENCH_LIVE_LAT_ITERS (NULL
# calls and ib_send_lat iterations per round, default 1000),
# BENCH_LIVE_BW_ITERS (1 MiB calls and transfers per round, default 50),
# BENCH_LIVE_ALL_ITERS (> 0: rpcrdma-bench -a with that -n and a plot).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/tests/live/lib.sh"

BUILD=${BUILD:-$top/build}
BUILD=$(mkdir -p "$BUILD" && cd "$BUILD" && pwd)
BIN=${BIN:-$BUILD/bin}
out=$BUILD/live/bench/rxe
lat_n=${BENCH_LIVE_LAT_ITERS:-1000}
bw_n=${BENCH_LIVE_BW_ITERS:-50}
all_n=${BENCH_LIVE_ALL_ITERS:-0}
rounds=${BENCH_LIVE_ROUNDS:-5}
die() { echo "bench-live: $*" >&2; exit 1; }

for t in rpcrdma-bench rpcrdma-echo; do
    [[ -x $BIN/$t ]] || die "$BIN/$t is not built (make)"
done
rm -rf "$out"
mkdir -p "$out"
rc=0
image=$(bash "$(live_image_builder)" 2> "$out/build-image.log") || rc=$?
case $rc in
0) ;;
2) die "this host cannot run the live guest: $image" ;;
*) die "no guest image (see $out/build-image.log)" ;;
esac
shares=()
[[ $BUILD/ == "$top"/* ]] || shares=(--share "$BUILD")
# CPU time on the host: all of it (/proc/stat) and this script's waited
# children's (the guest); the rest is other processes' -- under TCG each
# vCPU is a host thread, and when others take the host's CPUs every message
# waits for a host time slice (ms), in ours and perftest's alike.
cpu_busy() { awk '/^cpu /{print $2+$3+$4+$7+$8+$9; exit}' /proc/stat; }
cpu_ours() {   # cutime + cstime: fields 16 and 17, after "pid (comm) "
    local s f
    s=$(< "/proc/$$/stat")
    read -ra f <<< "${s##*) }"
    echo $((f[13] + f[14]))
}
t0=$SECONDS busy0=$(cpu_busy) ours0=$(cpu_ours)
load0=$(cut -d' ' -f1-3 /proc/loadavg)
LIVE_IMAGE_DIR=$image bash "$LIVE_DIR/run-guest.sh" --timeout 900 --cpus 2 "${shares[@]}" \
    --logs "$out/logs" -- bash "$LIVE_DIR/bench-guest.sh" "$out" "$BIN" "$lat_n" "$bw_n" "$all_n" "$rounds" ||
    die "the guest run failed (logs: $out/logs, $out/guest.log)"
other=$(( (($(cpu_busy) - busy0) - ($(cpu_ours) - ours0)) * 100 /
         ($(getconf CLK_TCK) * $(nproc) * (SECONDS - t0 > 0 ? SECONDS - t0 : 1)) ))
((other < 0)) && other=0
echo
if ((other >= 10)); then
    echo "bench-live: warning: other host processes took ${other}% of the host's" \
         "$(nproc) CPUs during the run: the guest's vCPUs waited for host time" \
         "slices, latencies (ours and perftest's) are not comparable; re-run on an idle host"
fi
echo "== make bench-live: Soft-RoCE (rdma_rxe) between two devices on a veth pair," \
     "one TCG guest, $(date -u +%Y-%m-%dT%H:%MZ), $((SECONDS - t0)) s, host load ${load0} at the start, $(cut -d' ' -f1-3 /proc/loadavg) at the end," \
     "${other}% of the host's CPUs taken by other processes =="
bash "$top/scripts/bench-ratios.sh" "$out"
