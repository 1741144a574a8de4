#!/usr/bin/env bash
# bench-codec.sh BUILD: libcodec decode/encode cost per header, as time and
# (with valgrind) as instructions: callgrind counts for N=1000 and N=101000
# runs, the difference divided by 100000, so start-up cost cancels out.
set -eu
build=$1
b=$build/bench/bench_codec
echo "== libcodec: cost per header (ns on this machine; instructions from callgrind)"
"$b"
if ! command -v valgrind >/dev/null; then
	echo "(valgrind not installed: no instruction counts)"
	exit 0
fi
irs() {   # case op n -> total instructions
	local out
	out=$(mktemp)
	valgrind --tool=callgrind --callgrind-out-file="$out" "$b" "$1" "$2" "$3" >/dev/null 2>&1
	awk '/^summary:/ { print $2 }' "$out"
	rm -f "$out"
}
printf '%-16s %18s %18s\n' case "decode instr/hdr" "encode instr/hdr"
# per header = (cost of N2 runs - cost of N1 runs) / (N2 - N1), minus the
# same for the bare loop: start-up and harness cancel out
per() { local a z; a=$(irs "$1" "$2" 1000); z=$(irs "$1" "$2" 101000); echo $(( (z - a) / 100 )); }
# decode targets (issue 27): instructions per header
declare -A aim=([v1-chunkless]=120 [v1-16-segments]=560 [v2-chunkless]=140)
rc=0
for c in v1-chunkless v1-16-segments v2-chunkless; do
	row=$c
	loop=$(per "$c" loop)
	for op in decode encode; do
		x=$(per "$c" "$op")
		row="$row $(( (x - loop) / 1000 )).$(( (x - loop) % 1000 / 100 ))"
		if [ "$op" = decode ] && [ $(( (x - loop) / 1000 )) -gt "${aim[$c]}" ]; then
			rc=1
		fi
	done
	printf '%-16s %18s %18s   (decode target <= %s)\n' $row "${aim[$c]}"
done
[ $rc = 0 ] || echo "codec: a decode target is missed" >&2
exit $rc
