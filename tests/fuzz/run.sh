#!/usr/bin/env bash
# run.sh [SECONDS | -runs=N]: run every libFuzzer target in $BUILD/fuzz,
# seeded from the hand-written vectors; print one TAP line per target with
# the number of inputs executed.  `make fuzz` runs 60 s each by default;
# `make check` runs -runs=100000 (the capture pipeline targets: 20000, a
# whole run of the pipeline per input).
set -u
arg=${1:-60}
case $arg in -runs=*) limit=$arg ;; *) limit=-max_total_time=$arg ;; esac
top=$(cd "$(dirname "$0")/../.." && pwd)
corpus_seed=$BUILD/fuzz/seed
mkdir -p "$corpus_seed"
# one seed file per vector (hex lines of tests/vectors/vectors.txt)
awk -v dir="$corpus_seed" '
	/^\[/ { if (hex != "") print hex > (dir "/" name); close(dir "/" name); name = substr($0, 2, index($0, "]") - 2); hex = ""; next }
	/^hex *=/ { sub(/^hex *= */, ""); sub(/#.*/, ""); gsub(/[ :\t]/, ""); hex = hex $0 }
	END { if (hex != "") print hex > (dir "/" name) }' "$top/tests/vectors/vectors.txt" 2>/dev/null
for f in "$corpus_seed"/*; do [ -f "$f" ] && xxd -r -p "$f" > "$f.bin" 2>/dev/null && mv "$f.bin" "$f"; done
# the capture target's seeds: the generated and real captures up to 64 KiB
capture_seed=$BUILD/fuzz/seed-capture
mkdir -p "$capture_seed"
for f in "$BUILD"/captures/*.pcap "$BUILD"/captures/*.pcapng "$top"/tests/captures/*.pcap \
	 "$top"/tests/oracle/regress/*.pcap "$top"/tests/captures/crafted/*.pcap; do
	[ -f "$f" ] && [ "$(stat -c %s "$f")" -le 65536 ] && cp "$f" "$capture_seed/"
done
# iWARP without the MPA handshake (the framing inferred): `make fuzz` only,
# the smoke run's 20000 inputs took 5-9 s longer with them
if [ "$limit" != -runs=100000 ]; then
	for f in "$top"/tests/captures/nohandshake/*-late-iwarp-*.pcap; do
		[ -f "$f" ] && [ "$(stat -c %s "$f")" -le 65536 ] && cp "$f" "$capture_seed/"
	done
else
	rm -f "$capture_seed"/*-late-*.pcap
fi
# fuzz_cap_frames' seeds: the frames of the small test captures in its
# input form ([link type selector][length][bytes] each; tests/fuzz/fuzz_cap_frames.c)
frames_seed=$BUILD/fuzz/seed-frames
mkdir -p "$frames_seed"
python3 - "$frames_seed" "$capture_seed"/*.pcap "$top"/tests/captures/crafted/*.pcap <<'PY' 2>/dev/null
import os, struct, sys
sel = {1: 0, 113: 3, 276: 4, 197: 5, 247: 6}
out = sys.argv[1]
for path in sys.argv[2:]:
    b = open(path, 'rb').read()
    if len(b) < 24 or b[:4] not in (b'\xd4\xc3\xb2\xa1', b'\x4d\x3c\xb2\xa1'):
        continue
    dlt = struct.unpack('<I', b[20:24])[0]
    if dlt not in sel:
        continue
    o, fr = 24, bytearray(b'\x06')           # mode byte: one line per message
    while o + 16 <= len(b) and len(fr) < 60000:
        incl = struct.unpack('<I', b[o + 8:o + 12])[0]
        fr += bytes([sel[dlt]]) + struct.pack('>H', incl) + b[o + 16:o + 16 + incl]
        o += 16 + incl
    open(os.path.join(out, os.path.basename(path) + '.frames'), 'wb').write(fr)
PY
n=0 rc=0
for t in "$BUILD"/fuzz/fuzz_*; do
	[ -x "$t" ] || continue
	n=$((n + 1)); name=$(basename "$t")
	corpus=$BUILD/fuzz/corpus-$name
	mkdir -p "$corpus"
	log=$BUILD/fuzz/$name.log
	seed=$corpus_seed extra=
	case $name in
	fuzz_capture)   # whole capture files: seeded with the test captures
		seed=$capture_seed
		extra="-max_len=65536 -close_fd_mask=2"
		[ "$limit" = -runs=100000 ] && limit_t=-runs=20000 || limit_t=$limit ;;
	fuzz_cap_*)     # the capture pipeline's layers: a run per input
		seed=$corpus
		[ "$name" = fuzz_cap_frames ] && seed=$frames_seed
		extra="-max_len=65536 -close_fd_mask=2"
		[ "$limit" = -runs=100000 ] && limit_t=-runs=20000 || limit_t=$limit ;;
	*) limit_t=$limit ;;
	esac
	# inputs that once crashed it (tests/fuzz/regress/NAME/), run every time
	regress=$top/tests/fuzz/regress/$name
	[ -d "$regress" ] || regress=
	# shellcheck disable=SC2086
	if "$t" $limit_t $extra -rss_limit_mb=2048 -artifact_prefix="$BUILD/fuzz/$name-" \
		"$corpus" "$seed" ${regress:+"$regress"} >"$log" 2>&1; then
		runs=$(grep -oE 'Done [0-9]+ runs' "$log" | tail -1 | grep -oE '[0-9]+')
		echo "ok $n - $name: ${runs:-?} inputs, no finding"
	else
		rc=1
		echo "not ok $n - $name: finding, see $log"
		grep -E 'ERROR|SUMMARY|assert' "$log" | head -5 | sed 's/^/# /'
	fi
done
echo "1..$n"
exit $rc
