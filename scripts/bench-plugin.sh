#!/usr/bin/env bash
# bench-plugin.sh BUILD - tshark's run time over a large capture with and without the rpcrdma plugin, and the ratio.
#
# Uses BUILD/bench/bench-1m.pcap (made by the capture generator for
# make bench) or, without it, a capture built by repeating the plugin's test
# frames.  Each configuration runs RUNS times (default 3), alternating; the
# best wall-clock and CPU (user+sys) times are kept.  The target (plugin
# <= 1.10 x without, and <= 1.05 x with NFS disabled on both sides: the
# plugin's own cost) is judged on CPU time: on a shared machine wall-clock
# time mostly measures the other jobs; and in instructions (callgrind),
# which load does not change.  Prints each aim met or MISSED; exits 0.
set -u
build=${1:-${BUILD:-build}}
build=$(cd "$build" && pwd)
runs=${RUNS:-3}
so=$build/plugins/4.0/epan/rpcrdma.so
if [ ! -f "$so" ] || ! command -v tshark >/dev/null; then
	echo "plugin benchmark: skipped (no $so or no tshark)"
	exit 0
fi
tmp=$(mktemp -d /tmp/rpcrdma-bench.XXXXXX)
chmod 755 "$tmp"
trap 'rm -rf "$tmp"' EXIT
cap=$build/bench/bench-1m.pcap
if [ ! -s "$cap" ]; then
	"$build/plugin-test/mkpcap" "$tmp/fx.pcap" || exit 1
	cp "$tmp/fx.pcap" "$tmp/x1.pcap"
	for i in $(seq 1 14); do       # 26 frames x 2^14 = 425,984 frames
		mergecap -a -w "$tmp/x2.pcap" "$tmp/x1.pcap" "$tmp/x1.pcap"
		mv "$tmp/x2.pcap" "$tmp/x1.pcap"
	done
	cap=$tmp/x1.pcap
fi
chmod a+r "$cap" 2>/dev/null
chmod -R a+rX "$build/plugins"
frames=$(capinfos -c -M "$cap" 2>/dev/null | awk '/Number of packets/ {print $NF}')

# tshark as root ignores plugin folders: run it unprivileged
user=(env)
[ "$(id -u)" = 0 ] && user=(setpriv --reuid=65534 --regid=65534 --clear-groups env HOME=/tmp)
# one run: prints "wall cpu"
run() {
	local dir=$1; shift
	/usr/bin/time -f "%e %U %S" -o "$tmp/t" "${user[@]}" \
		WIRESHARK_PLUGIN_DIR="$dir" tshark -n "$@" -r "$cap" >/dev/null 2>"$tmp/err"
	awk '{printf "%.2f %.2f\n", $1, $2 + $3}' "$tmp/t"
}
best_w_off=; best_c_off=; best_w_on=; best_c_on=
nfs_off=; nfs_on=
min() { awk -v a="$1" -v b="$2" 'BEGIN {print (a == "" || b + 0 < a + 0) ? b : a}'; }
for i in $(seq 1 "$runs"); do
	read -r w c < <(run /nonexistent)
	best_w_off=$(min "$best_w_off" "$w"); best_c_off=$(min "$best_c_off" "$c")
	read -r w c < <(run "$build/plugins")
	best_w_on=$(min "$best_w_on" "$w"); best_c_on=$(min "$best_c_on" "$c")
	# the transport layers alone: NFS off in both
	read -r w c < <(run /nonexistent --disable-protocol nfs)
	nfs_off=$(min "$nfs_off" "$c")
	read -r w c < <(run "$build/plugins" --disable-protocol nfs)
	nfs_on=$(min "$nfs_on" "$c")
done
ratio_w=$(awk -v a="$best_w_on" -v b="$best_w_off" 'BEGIN {printf "%.3f", a / b}')
ratio_c=$(awk -v a="$best_c_on" -v b="$best_c_off" 'BEGIN {printf "%.3f", a / b}')
echo "plugin benchmark: $(tshark -v 2>/dev/null | head -1 | cut -d' ' -f1-3), $(basename "$cap"), $frames frames, best of $runs"
printf '  %-40s %8s %8s\n' "" "wall s" "cpu s"
printf '  %-40s %8s %8s\n' "tshark without the plugin (rpcordma)" "$best_w_off" "$best_c_off"
printf '  %-40s %8s %8s\n' "tshark with the plugin (rpcrdma)" "$best_w_on" "$best_c_on"
printf '  %-40s %8s %8s   (target: cpu <= 1.10)\n' "ratio with/without" "$ratio_w" "$ratio_c"
printf '  %-40s %8s %8s\n' "--disable-protocol nfs, without plugin" "-" "$nfs_off"
printf '  %-40s %8s %8s\n' "--disable-protocol nfs, with plugin" "-" "$nfs_on"
ratio_n=$(awk -v a="$nfs_on" -v b="$nfs_off" 'BEGIN {printf "%.3f", a / b}')
printf '  %-40s %8s %8s   (target: cpu <= 1.05)\n' "ratio with/without, NFS disabled" "-" "$ratio_n"
echo "  (the built-in cannot pair RPC replies with calls on RoCEv2, so without the"
echo "   plugin NFS replies go undecoded; the plugin decodes them: most of the gap)"
echo "  load average: $(cut -d' ' -f1-3 /proc/loadavg)"

# the same ratios in instructions (callgrind): what a loaded host does not
# change.  The first CG_FRAMES frames (default 20,000); tshark's start-up,
# counted on a one-frame capture of each configuration, taken off, so the
# ratio is of dissection alone.
cg_frames=${CG_FRAMES:-20000}
if command -v valgrind >/dev/null && [ "$cg_frames" -gt 0 ]; then
	editcap -r "$cap" "$tmp/cg.pcap" "1-$cg_frames" 2>/dev/null
	editcap -r "$cap" "$tmp/cg1.pcap" 1 2>/dev/null
	chmod a+r "$tmp"/cg*.pcap
	# instr DIR CAPTURE [tshark options]: instructions of one tshark run
	instr() {
		local dir=$1 c=$2; shift 2
		rm -f "$tmp/cg.out"
		"${user[@]}" WIRESHARK_PLUGIN_DIR="$dir" valgrind --tool=callgrind \
			--callgrind-out-file="$tmp/cg.out" tshark -n "$@" -r "$c" >/dev/null 2>&1
		awk '/^summary:/ {print $2}' "$tmp/cg.out" 2>/dev/null
	}
	chmod 777 "$tmp"
	# cg DIR [options]: instructions over the slice less start-up
	cg() {
		local dir=$1 a b; shift
		a=$(instr "$dir" "$tmp/cg.pcap" "$@"); b=$(instr "$dir" "$tmp/cg1.pcap" "$@")
		awk -v a="$a" -v b="$b" 'BEGIN { if (a == "" || b == "") print ""; else printf "%.0f", a - b }'
	}
	i_off=$(cg /nonexistent); i_on=$(cg "$build/plugins")
	n_off=$(cg /nonexistent --disable-protocol nfs); n_on=$(cg "$build/plugins" --disable-protocol nfs)
	if [ -n "$i_off" ] && [ -n "$i_on" ] && [ -n "$n_off" ] && [ -n "$n_on" ]; then
		iratio=$(awk -v a="$i_on" -v b="$i_off" 'BEGIN {printf "%.3f", a / b}')
		nratio=$(awk -v a="$n_on" -v b="$n_off" 'BEGIN {printf "%.3f", a / b}')
		echo "  instructions (callgrind), the first $cg_frames frames, tshark's start-up taken off:"
		printf '  %-40s %14s %14s %8s\n' "" "without" "with" "ratio"
		printf '  %-40s %14s %14s %8s   (target <= 1.10)\n' "NFS enabled" "$i_off" "$i_on" "$iratio"
		printf '  %-40s %14s %14s %8s   (target <= 1.05)\n' "NFS disabled" "$n_off" "$n_on" "$nratio"
		printf '  %-40s %14.0f %14.0f\n' "per frame" "$(awk -v a="$i_off" -v f="$cg_frames" 'BEGIN {print a / f}')" \
			"$(awk -v a="$i_on" -v f="$cg_frames" 'BEGIN {print a / f}')"
	else
		echo "  instructions (callgrind): not measured (a callgrind run of tshark failed)"
	fi
fi
# the aims, met or missed (make bench reports them; it does not fail on a
# timing: the guide's rule, and a loaded host would make it flaky)
verdict() { awk -v r="$2" -v t="$3" -v n="$1" 'BEGIN { if (r == "") exit; printf "aim: %s <= %s: %s, %s\n", n, t, r, (r + 0 <= t + 0 ? "met" : "MISSED") }'; }
verdict "plugin cpu ratio" "$ratio_c" 1.10
verdict "plugin cpu ratio, NFS disabled" "$ratio_n" 1.05
verdict "plugin instruction ratio" "${iratio:-}" 1.10
verdict "plugin instruction ratio, NFS disabled" "${nratio:-}" 1.05
exit 0
