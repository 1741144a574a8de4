#!/usr/bin/env bash
# bench-ratios.sh DIR: the report of `make bench-live` from what
# tests/live/bench-guest.sh left in DIR (NAME.ROUND.txt and .json for each
# round): perftest's figures, rpcrdma-bench's, and the ratio table (ours /
# raw verbs; ours / kernel) with issue 11's aims marked met or missed:
#   NULL round trip   <= 1.3 x ib_send_lat's round trip (2 x its one-way t_typical)
#   1 MiB chunked BW  >= 0.9 x raw RDMA Read / Write bandwidth
# An ECHO of 1 MiB moves 1 MiB by RDMA Read (the call's read chunk) and 1 MiB
# by RDMA Write (the reply's write chunk), and rpcrdma-bench counts both
# ways; the raw reference is the same two transfers at ib_read_bw's and
# ib_write_bw's rates: 2 / (1/R + 1/W).  Latency compares typical figures
# (medians), bandwidth averages.  A ratio is taken within each round (ours
# and perftest's measured close together, interleaved: DIR/order); the table
# gives the median over the rounds, its min-max and every round's, and
# judges the aims on the median.  Exit 1 when a figure is missing (the
# table is printed as far as it goes).
set -u
d=${1:?directory}
rounds=$(cat "$d/rounds" 2>/dev/null || echo 1)
missing=0

num() { [[ ${1:-} =~ ^[0-9]+(\.[0-9]+)?$ ]]; }
# perftest's data row (the first line that starts with a number after spaces)
perf_row() { awk '/^ *[0-9]/ { print; exit }' "$d/$1.txt" 2>/dev/null; }
jqf() { jq -r "$2 // empty" "$d/$1.json" 2>/dev/null; }
# a figure with the two decimals of rpcrdma-bench's tables (jq drops them)
jq2() {
    local v
    v=$(jqf "$1" "$2")
    num "$v" && awk -v v="$v" 'BEGIN { printf "%.2f", v }'
}
# div A B [K]: K*A/B with two decimals, empty unless both are positive numbers
div() {
    num "${1:-}" && num "${2:-}" &&
        awk -v a="$1" -v b="$2" -v k="${3:-1}" 'BEGIN { if (b > 0) printf "%.2f", k * a / b }'
}
# range V...: "MIN-MAX" of the numbers among V, two decimals; empty when none
range() {
    printf '%s\n' "$@" | grep -E '^[0-9]+(\.[0-9]+)?$' | sort -g |
        awk '{ a[NR] = $1 } END { if (NR) printf "%.2f-%.2f", a[1], a[NR] }'
}
# median V...: of the numbers among V, two decimals; empty when none
median() {
    printf '%s\n' "$@" | grep -E '^[0-9]+(\.[0-9]+)?$' | sort -g |
        awk '{ a[NR] = $1 } END { if (NR) printf "%.2f", NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}
# verdict RATIO OP AIM: met / missed / n/a
verdict() {
    num "$1" || { echo "n/a"; return; }
    awk -v r="$1" -v a="$3" -v op="$2" 'BEGIN {
        ok = (op == "<=") ? (r <= a) : (r >= a); print ok ? "met" : "missed" }'
}
need() { num "$2" || { echo "bench-live: $1 is missing" >&2; missing=1; }; }
list() { local IFS=' '; echo "$*"; }

declare -a sl rd wr o_typ o_min o_p99 k_typ k_min k_p99 m_bw m_cps r1 r2 r3
for ((r = 1; r <= rounds; r++)); do
    read -r _ _ _ _ sl[r] _ < <(perf_row "ib_send_lat.$r")
    read -r _ _ _ rd[r] _ < <(perf_row "ib_read_bw.$r")
    read -r _ _ _ wr[r] _ < <(perf_row "ib_write_bw.$r")
    o_typ[r]=$(jq2 "ours-null.$r" '.latency[0].t_typical_usec')
    o_min[r]=$(jq2 "ours-null.$r" '.latency[0].t_min_usec')
    o_p99[r]=$(jq2 "ours-null.$r" '.latency[0].p99_usec')
    k_typ[r]=$(jq2 "kernel-null.$r" '.latency[0].t_typical_usec')
    k_min[r]=$(jq2 "kernel-null.$r" '.latency[0].t_min_usec')
    k_p99[r]=$(jq2 "kernel-null.$r" '.latency[0].p99_usec')
    m_bw[r]=$(jq2 "ours-1m.$r" '.throughput[0].bw_average')
    m_cps[r]=$(jq2 "ours-1m.$r" '.throughput[0].calls_per_sec')
    raw_rw=$(num "${rd[r]:-}" && num "${wr[r]:-}" &&
             awk -v a="${rd[r]}" -v b="${wr[r]}" 'BEGIN { if (a > 0 && b > 0) printf "%.2f", 2 / (1 / a + 1 / b) }')
    r1[r]=$(div "${o_typ[r]}" "${sl[r]:-}" 0.5)
    r2[r]=$(div "${o_typ[r]}" "${k_typ[r]}")
    r3[r]=$(div "${m_bw[r]}" "$raw_rw")
    need "round $r: ib_send_lat's t_typical" "${sl[r]:-}"
    need "round $r: ib_read_bw's BW average" "${rd[r]:-}"
    need "round $r: ib_write_bw's BW average" "${wr[r]:-}"
    need "round $r: our NULL round trip" "${o_typ[r]}"
    need "round $r: the kernel's NULL round trip" "${k_typ[r]}"
    need "round $r: our 1 MiB throughput" "${m_bw[r]}"
done
sl_m=$(median "${sl[@]:1}")
sl_rtt=$(div "$sl_m" 1 2)
rd_m=$(median "${rd[@]:1}")
wr_m=$(median "${wr[@]:1}")
raw_m=$(num "$rd_m" && num "$wr_m" &&
        awk -v a="$rd_m" -v b="$wr_m" 'BEGIN { if (a > 0 && b > 0) printf "%.2f", 2 / (1 / a + 1 / b) }')
o_m=$(median "${o_typ[@]:1}")
k_m=$(median "${k_typ[@]:1}")
m_m=$(median "${m_bw[@]:1}")
cps_m=$(median "${m_cps[@]:1}")
r1_m=$(median "${r1[@]:1}")
r2_m=$(median "${r2[@]:1}")
r3_m=$(median "${r3[@]:1}")
size=$(cat "$d/send_size" 2>/dev/null)
lat_n=$(jqf ours-null.1 '.latency[0].iterations')
bw_n=$(jqf ours-1m.1 '.throughput[0].iterations')
vers=$(jqf ours-null.1 '.rpcrdma_version')
kvers=$(jqf kernel-null.1 '.rpcrdma_version')
depth=$(jqf ours-1m.1 '.throughput[0].outstanding')
paths="$(jqf ours-1m.1 '.where[0].call_path') chunk out, $(jqf ours-1m.1 '.where[0].reply_path') chunk back"
regs=$(for ((r = 1; r <= rounds; r++)); do jqf "ours-1m.$r" '.where[0].reg_pct'; done)
invs=$(for ((r = 1; r <= rounds; r++)); do jqf "ours-1m.$r" '.where[0].inv_pct'; done)

echo "$rounds rounds; each figure is the median of the rounds (each round's in brackets)"
if [[ -s $d/order ]]; then
    echo "each round, in this order (perftest's figure, then ours divided by it): $(cat "$d/order")"
fi
echo "raw verbs (perftest, rxe1 -> rxe0):"
printf '  %-38s t_typical %s usec one-way [%s]: round trip %s usec\n' \
    "ib_send_lat -s ${size:-?} -n ${lat_n:-?}" "${sl_m:-?}" "$(list "${sl[@]:1}")" "${sl_rtt:-?}"
printf '  %-38s BW average %s MB/sec [%s]\n' "ib_read_bw -s 1048576 -n ${bw_n:-?}" \
    "${rd_m:-?}" "$(list "${rd[@]:1}")"
printf '  %-38s BW average %s MB/sec [%s]\n' "ib_write_bw -s 1048576 -n ${bw_n:-?}" \
    "${wr_m:-?}" "$(list "${wr[@]:1}")"
echo "RPC-over-RDMA (rpcrdma-bench, rxe1 -> rxe0):"
printf '  %-38s t_typical %s usec [%s]; t_min [%s], 99%% [%s]; Version %s\n' \
    "NULL to rpcrdma-echo -s, -n ${lat_n:-?}" "${o_m:-?}" "$(list "${o_typ[@]:1}")" \
    "$(list "${o_min[@]:1}")" "$(list "${o_p99[@]:1}")" "${vers:-?}"
printf '  %-38s t_typical %s usec [%s]; t_min [%s], 99%% [%s]; Version %s\n' \
    "NULL to knfsd :20049 (NFSv3), -n ${lat_n:-?}" "${k_m:-?}" "$(list "${k_typ[@]:1}")" \
    "$(list "${k_min[@]:1}")" "$(list "${k_p99[@]:1}")" "${kvers:-?}"
printf '  %-38s BW average %s MB/sec both ways [%s], %s calls/s;\n' \
    "ECHO 1 MiB, -t ${depth:-?}, -n ${bw_n:-?}" "${m_m:-?}" "$(list "${m_bw[@]:1}")" "${cps_m:-?}"
printf '  %-38s %s; registration [%s] %%, invalidation [%s] %% of a call\n' \
    "" "$paths" "$(echo $regs)" "$(echo $invs)"
echo
echo "issue 8: echo NULL round trip over rxe: ${o_m:-?} usec (t_typical, median of $rounds rounds of ${lat_n:-?} calls)"
echo "issue 8: echo throughput at 1 MiB over rxe: ${m_m:-?} MB/sec both ways ($(div "${m_m:-}" 2) MB/sec each way), ${cps_m:-?} calls/s"
echo
# the ratio of each round, their median (what the aim judges) and range
fmt='%-34s %-13s %-29s %-6s %-11s %-20s %-7s %s\n'
printf "$fmt" "ratio" "ours" "reference" "median" "min-max" "rounds" "aim" "result"
printf "$fmt" "NULL round trip / ib_send_lat" "${o_m:-?} usec" "${sl_rtt:-?} usec (2 x ${sl_m:-?})" \
    "${r1_m:-n/a}" "$(range "${r1[@]:1}")" "$(list "${r1[@]:1}")" "<= 1.3" "$(verdict "${r1_m:-}" "<=" 1.3)"
printf "$fmt" "NULL round trip / kernel NFS NULL" "${o_m:-?} usec" "${k_m:-?} usec" \
    "${r2_m:-n/a}" "$(range "${r2[@]:1}")" "$(list "${r2[@]:1}")" "-" "-"
printf "$fmt" "1 MiB chunked BW / raw Read+Write" "${m_m:-?} MB/s" \
    "${raw_m:-?} MB/s (R ${rd_m:-?}, W ${wr_m:-?})" "${r3_m:-n/a}" "$(range "${r3[@]:1}")" \
    "$(list "${r3[@]:1}")" ">= 0.9" "$(verdict "${r3_m:-}" ">=" 0.9)"
echo "(the aims are judged on the median of the rounds' ratios; absolute times are information only)"
exit "$missing"
