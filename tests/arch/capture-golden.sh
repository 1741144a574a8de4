#!/usr/bin/env bash
# capture-golden.sh - rpcrdma-decode's capture outputs on every capture, for
# byte-for-byte comparison across a refactoring of tools/capture/ (issue 23).
#
#   tests/arch/capture-golden.sh OUTDIR            write the outputs to OUTDIR
#   tests/arch/capture-golden.sh OUTDIR REFDIR     ... and diff them with REFDIR
#
# Captures: every *.pcap* under tests/captures/ and $BUILD/captures/ (make
# captures).  Per capture and mode, OUTDIR/NAME.MODE holds stdout, then
# "--- stderr", stderr, then "--- exit N".  Modes: -V, --json, --stats,
# --check, --json --stats, --check=inline --json, -V --check=inline,
# -w - (the pcapng written).  Exit 0 when no REFDIR or no difference.
set -u
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
BUILD=${BUILD:-$TOP/build}
BIN=${BIN:-$BUILD/bin}
out=${1:?usage: capture-golden.sh OUTDIR [REFDIR]}
ref=${2:-}
mkdir -p "$out"
modes=("-V" "--json" "--stats" "--check" "--json --stats"
       "--check=inline --json" "-V --check=inline" "-w -")
n=0
while IFS= read -r f; do
	name=${f#"$TOP"/}
	name=${name#"$BUILD"/}
	name=${name//\//_}
	for m in "${modes[@]}"; do
		tag=${m// /}
		tag=${tag//=/}
		dst="$out/$name.$tag"
		# shellcheck disable=SC2086
		timeout 120 "$BIN/rpcrdma-decode" -r "$f" $m >"$dst" 2>"$dst.err"
		rc=$?
		{ echo "--- stderr"; cat "$dst.err"; echo "--- exit $rc"; } >>"$dst"
		rm -f "$dst.err"
		n=$((n + 1))
	done
done < <(find "$TOP/tests/captures" "$BUILD/captures" -type f \
	\( -name '*.pcap' -o -name '*.pcapng' -o -name '*.pcap.gz' -o -name '*.pcapng.gz' \) | sort)
echo "capture-golden: $n outputs in $out"
if [ -n "$ref" ]; then
	if diff -r -q "$ref" "$out" >/dev/null; then
		echo "capture-golden: identical to $ref"
	else
		diff -r "$ref" "$out" | head -40
		echo "capture-golden: DIFFERENT from $ref"
		exit 1
	fi
fi
