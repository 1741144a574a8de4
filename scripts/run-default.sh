#!/usr/bin/env bash
# make run: the main job on the bundled defaults.  Decodes every sample
# message in samples/messages.hex as a tree, then, when capture decoding is
# built, the bundled captures in samples/ (and the real kernel captures in
# tests/captures/) as one line per message with --stats.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
bin=${BIN:-$top/build/bin}
dec=$bin/rpcrdma-decode
[ -x "$dec" ] || { echo "run: $dec is not built (make)" >&2; exit 2; }

title=
while IFS= read -r line; do
	case $line in
	"#"*) title=${line#\# } ;;
	"") ;;
	*)
		echo "=== $title"
		"$dec" --hex "$line"
		echo "(exit status $?: 0 = a receiver accepts it)"
		echo ;;
	esac
done < "$top/samples/messages.hex"

shopt -s nullglob
caps=("$top"/samples/*.pcap "$top"/samples/*.pcapng "$top"/tests/captures/*.pcap)
if [ ${#caps[@]} -gt 0 ] && "$dec" -r "${caps[0]}" -q >/dev/null 2>&1; [ $? -ne 2 ]; then
	for c in "${caps[@]}"; do
		echo "=== capture ${c#$top/}"
		"$dec" -r "$c" | head -40
		"$dec" -r "$c" --stats -q
		echo
	done
fi
exit 0
