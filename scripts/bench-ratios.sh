#!/usr/bin/env bash
# bench-ratios.sh DIR: the report of `make bench-live` from what
# tests/live/bench-guest.sh left in DIR: perftest's figures, rpcrdma-bench's,
# and the ratio table (ours / raw verbs; ours / kernel) with issue 11's aims
# marked met or missed:
#   NULL round trip   <= 1.3 x ib_send_lat's round trip (2 x its one-way t_typical)
#   1 MiB chunked BW  >= 0.9 x raw RDMA Read / Write bandwidth
# An ECHO of 1 MiB moves 1 MiB by RDMA Read (the call's read chunk) and 1 MiB
# by RDMA Write (the reply's write chunk), and rpcrdma-bench counts both
# ways; the raw reference is the same two transfers at ib_read_bw's and
# ib_write_bw's rates: 2 / (1/R + 1/W).  Typical figures (medians) are
# compared for latency, averages for bandwidth.  Exit 1 when a figure is
# missing (the table is printed as far as it goes).
set -u
d=${1:?directory}
missing=0

num() { [[ $1 =~ ^[0-9]+(\.[0-9]+)?$ ]]; }
# perftest's data row (the first line that starts with a number after spaces)
perf_row() { awk '/^ *[0-9]/ { print; exit }' "$d/$1.txt" 2>/dev/null; }
jqf() { jq -r "$2 // empty" "$d/$1.json" 2>/dev/null; }
# a figure with the two decimals of rpcrdma-bench's tables (jq drops them)
jq2() {
    local v
    v=$(jqf "$1" "$2")
    num "$v" && awk -v v="$v" 'BEGIN { printf "%.2f", v }'
}
# ratio A B: A/B with two decimals, "n/a" unless both are positive numbers
ratio() {
    if num "$1" && num "$2" && awk -v b="$2" 'BEGIN { exit !(b > 0) }'; then
        awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'
    else
        echo n/a
    fi
}
# verdict RATIO OP AIM: met / missed / n/a
verdict() {
    num "$1" || { echo "n/a"; return; }
    awk -v r="$1" -v a="$3" -v op="$2" 'BEGIN {
        ok = (op == "<=") ? (r <= a) : (r >= a); print ok ? "met" : "missed" }'
}
need() { num "$2" || { echo "bench-live: $1 is missing" >&2; missing=1; }; }

size=$(cat "$d/send_size" 2>/dev/null)
read -r _ lat_iters _ _ sl_typ _ < <(perf_row ib_send_lat)
read -r _ rd_iters _ rd_avg _ < <(perf_row ib_read_bw)
read -r _ _ _ wr_avg _ < <(perf_row ib_write_bw)
sl_rtt=$(num "${sl_typ:-}" && awk -v t="$sl_typ" 'BEGIN { printf "%.2f", 2 * t }')
raw_rw=$(num "${rd_avg:-}" && num "${wr_avg:-}" &&
         awk -v r="$rd_avg" -v w="$wr_avg" 'BEGIN { if (r > 0 && w > 0) printf "%.2f", 2 / (1 / r + 1 / w) }')

o_typ=$(jq2 ours-null '.latency[0].t_typical_usec')
o_min=$(jq2 ours-null '.latency[0].t_min_usec')
o_p99=$(jq2 ours-null '.latency[0].p99_usec')
o_n=$(jqf ours-null '.latency[0].iterations')
o_vers=$(jqf ours-null '.rpcrdma_version')
k_typ=$(jq2 kernel-null '.latency[0].t_typical_usec')
k_min=$(jq2 kernel-null '.latency[0].t_min_usec')
k_p99=$(jq2 kernel-null '.latency[0].p99_usec')
k_vers=$(jqf kernel-null '.rpcrdma_version')
k_n=$(jqf kernel-null '.latency[0].iterations')
m_bw=$(jq2 ours-1m '.throughput[0].bw_average')
m_peak=$(jq2 ours-1m '.throughput[0].bw_peak')
m_cps=$(jq2 ours-1m '.throughput[0].calls_per_sec')
m_n=$(jqf ours-1m '.throughput[0].iterations')
m_t=$(jqf ours-1m '.throughput[0].outstanding')
m_call=$(jqf ours-1m '.where[0].call_path')
m_reply=$(jqf ours-1m '.where[0].reply_path')
m_reg=$(jqf ours-1m '.where[0].reg_pct')
m_inv=$(jqf ours-1m '.where[0].inv_pct')
m_dir=$(num "${m_bw:-}" && awk -v b="$m_bw" 'BEGIN { printf "%.2f", b / 2 }')

need "ib_send_lat's t_typical" "${sl_typ:-}"
need "ib_read_bw's BW average" "${rd_avg:-}"
need "ib_write_bw's BW average" "${wr_avg:-}"
need "our NULL round trip" "$o_typ"
need "the kernel's NULL round trip" "$k_typ"
need "our 1 MiB throughput" "$m_bw"

echo "raw verbs (perftest, rxe1 -> rxe0):"
printf '  %-40s t_typical %s usec one-way: round trip %s usec\n' \
    "ib_send_lat -s ${size:-?} -n ${lat_iters:-?}" "${sl_typ:-?}" "${sl_rtt:-?}"
printf '  %-40s BW average %s MB/sec\n' "ib_read_bw -s 1048576 -n ${rd_iters:-?}" "${rd_avg:-?}"
printf '  %-40s BW average %s MB/sec\n' "ib_write_bw -s 1048576 -n ${rd_iters:-?}" "${wr_avg:-?}"
echo "RPC-over-RDMA (rpcrdma-bench, rxe1 -> rxe0):"
printf '  %-40s t_typical %s usec (t_min %s, 99%% %s), Version %s\n' \
    "NULL to rpcrdma-echo -s, -n ${o_n:-?}" "${o_typ:-?}" "${o_min:-?}" "${o_p99:-?}" "${o_vers:-?}"
printf '  %-40s t_typical %s usec (t_min %s, 99%% %s), Version %s\n' \
    "NULL to knfsd :20049 (NFSv3), -n ${k_n:-?}" "${k_typ:-?}" "${k_min:-?}" "${k_p99:-?}" "${k_vers:-?}"
printf '  %-40s BW average %s MB/sec both ways (peak %s), %s calls/s;\n' \
    "ECHO 1 MiB, -t ${m_t:-?}, -n ${m_n:-?}" "${m_bw:-?}" "${m_peak:-?}" "${m_cps:-?}"
printf '  %-40s call %s chunk, reply %s chunk; registration %s%%, invalidation %s%% of a call\n' \
    "" "${m_call:-?}" "${m_reply:-?}" "${m_reg:-?}" "${m_inv:-?}"
echo
echo "issue 8: echo NULL round trip over rxe: ${o_typ:-?} usec (t_typical of ${o_n:-?} calls)"
echo "issue 8: echo throughput at 1 MiB over rxe: ${m_bw:-?} MB/sec both ways (${m_dir:-?} MB/sec each way), ${m_cps:-?} calls/s"
echo
r1=$(ratio "${o_typ:-}" "${sl_rtt:-}")
r2=$(ratio "${o_typ:-}" "${k_typ:-}")
r3=$(ratio "${m_bw:-}" "${raw_rw:-}")
fmt='%-34s %-15s %-31s %-6s %-7s %s\n'
printf "$fmt" "ratio" "ours" "reference" "ratio" "aim" "result"
printf "$fmt" "NULL round trip / ib_send_lat" "${o_typ:-?} usec" \
    "${sl_rtt:-?} usec (2 x ${sl_typ:-?})" "$r1" "<= 1.3" "$(verdict "$r1" "<=" 1.3)"
printf "$fmt" "NULL round trip / kernel NFS NULL" "${o_typ:-?} usec" "${k_typ:-?} usec" \
    "$r2" "-" "-"
printf "$fmt" "1 MiB chunked BW / raw Read+Write" "${m_bw:-?} MB/s" \
    "${raw_rw:-?} MB/s (R ${rd_avg:-?}, W ${wr_avg:-?})" "$r3" ">= 0.9" "$(verdict "$r3" ">=" 0.9)"
exit "$missing"
