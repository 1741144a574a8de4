#!/usr/bin/env bash
# bench-xprt.sh BUILD - the user-space instructions of one NULL round trip
# through tools/transport (issue 27): BUILD/bench/bench_xprt, a client and
# a server in one process over the fake verbs, under callgrind for N1 and N2
# calls; the difference divided by N2 - N1 (start-up and connection cancel
# out), split by where the instructions run: libcodec, tools/transport, the
# tool (bench_xprt.c), the fake fabric (stands in for rdma-core and the
# device: not ours) and libc.  Prints "aim" against XPRT_RT_AIM (ours =
# codec + transport + tool): by default 2638, half of the first
# measurement (5,276 on 11-26, issue 27); XPRT_RT_AIM= (empty) for none.
set -u
build=${1:-${BUILD:-build}}
b=$build/bench/bench_xprt
n1=${XPRT_N1:-1000} n2=${XPRT_N2:-6000}
echo "== transport: user-space instructions per NULL round trip (fake verbs, one process)"
if ! command -v valgrind >/dev/null; then
	echo "(valgrind not installed: no instruction counts)"
	exit 0
fi
if [ ! -x "$b" ]; then
	echo "bench-xprt: $b missing (make $b)" >&2
	exit 1
fi
# by_part N: "codec transport tool fabric libc" instructions of a run of N calls
by_part() {
	local out
	out=$(mktemp)
	if ! valgrind --tool=callgrind --callgrind-out-file="$out" "$b" "$1" >/dev/null 2>&1; then
		echo "bench-xprt: $b $1 failed" >&2
		rm -f "$out"
		return 1
	fi
	callgrind_annotate --auto=no --threshold=100 --inclusive=no "$out" 2>/dev/null | awk '
		/^ *[0-9,]+ +(\([ 0-9.]+%\) +)?[^ =]*:/ && !/PROGRAM TOTALS/ {
			n = $1; gsub(",", "", n)
			f = $0; sub(/^ *[0-9,]+ (\([^)]*\) )? */, "", f)
			if (f ~ /libcodec\//) p["codec"] += n
			else if (f ~ /tools\/transport\//) p["transport"] += n
			else if (f ~ /tests\/bench\//) p["tool"] += n
			else if (f ~ /tests\/transport\//) p["fabric"] += n
			else p["libc"] += n
		}
		END { printf "%d %d %d %d %d\n", p["codec"], p["transport"], p["tool"], p["fabric"], p["libc"] }'
	rm -f "$out"
}
a=$(by_part "$n1") || exit 1
z=$(by_part "$n2") || exit 1
read -r a1 a2 a3 a4 a5 <<<"$a"
read -r z1 z2 z3 z4 z5 <<<"$z"
d=$((n2 - n1))
codec=$(( (z1 - a1) / d )) xprt=$(( (z2 - a2) / d )) tool=$(( (z3 - a3) / d ))
fabric=$(( (z4 - a4) / d )) libc=$(( (z5 - a5) / d ))
ours=$((codec + xprt + tool))
printf '%-10s %-10s %-10s %-10s %-12s %-10s\n' codec transport tool "ours" "fake fabric" libc
printf '%-10s %-10s %-10s %-10s %-12s %-10s\n' "$codec" "$xprt" "$tool" "$ours" "$fabric" "$libc"
echo "(instructions per round trip: a call and its reply, both ends; libc is both ends' and the fabric's)"
XPRT_RT_AIM=${XPRT_RT_AIM-2638}
if [ -n "$XPRT_RT_AIM" ]; then
	if [ "$ours" -le "$XPRT_RT_AIM" ]; then
		echo "aim: ours <= $XPRT_RT_AIM per NULL round trip: $ours, met"
	else
		echo "aim: ours <= $XPRT_RT_AIM per NULL round trip: $ours, MISSED"
	fi
fi
