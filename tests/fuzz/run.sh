#!/usr/bin/env bash
# run.sh [SECONDS | -runs=N] [TARGET...]: run every libFuzzer target in
# $BUILD/fuzz (or the TARGETs named), seeded from the hand-written vectors;
# print one TAP line per target with the number of inputs executed and the
# time taken, and a table of them at the end.  `make fuzz` runs 60 s each by
# default; `make check` runs -runs=100000 (the capture pipeline targets:
# 5000, a whole run of the pipeline per input: 20000 took 314 s of the
# CI's 25 minutes, 5000 ~80 s).
#
# A campaign (docs/fuzzing.md): `make fuzz FUZZ_RUNS=10000000 FUZZ_JOBS=2`.
#   FUZZ_JOBS=N      N processes a target side by side, sharing one corpus
#                    (libFuzzer reloads it from disk as it grows); with
#                    -runs=R each runs R/N inputs (rounded up), and the
#                    line gives their sum
#   FUZZ_MAX_LEN=B   the capture targets' largest input (default 65536)
#   FUZZ_CORPUS=DIR  where the corpora grow (default $BUILD/fuzz); a corpus
#                    left there is where the next run starts
set -u
arg=${1:-60}
[ $# -gt 0 ] && shift
case $arg in -runs=*) limit=$arg ;; *) limit=-max_total_time=$arg ;; esac
case ${FUZZ_JOBS:-1} in
''|*[!0-9]*|0) echo "run.sh: FUZZ_JOBS must be a number of processes, 1 or more" >&2; exit 2 ;;
esac
case ${FUZZ_MAX_LEN:-65536} in
''|*[!0-9]*|0) echo "run.sh: FUZZ_MAX_LEN must be a number of bytes" >&2; exit 2 ;;
esac
jobs=${FUZZ_JOBS:-1}
maxlen=${FUZZ_MAX_LEN:-65536}
corpora=${FUZZ_CORPUS:-$BUILD/fuzz}
for want in "$@"; do
	[ -x "$BUILD/fuzz/$want" ] || { echo "run.sh: no fuzz target $want in $BUILD/fuzz" >&2; exit 2; }
done
top=$(cd "$(dirname "$0")/../.." && pwd)
corpus_seed=$BUILD/fuzz/seed
mkdir -p "$corpus_seed"
# one seed file per vector (hex lines of tests/vectors/vectors.txt), written
# as bytes by one process (a process a vector cost ~20 s on a loaded host)
python3 - "$corpus_seed" "$top/tests/vectors/vectors.txt" <<'PY' 2>/dev/null
import os, re, sys
out, name, hexs = sys.argv[1], None, []
def flush():
    if name is not None and hexs:
        try:
            data = bytes.fromhex(''.join(hexs))
        except ValueError:
            return
        with open(os.path.join(out, name), 'wb') as f:
            f.write(data)
for line in open(sys.argv[2], encoding='utf-8', errors='replace'):
    if line.startswith('['):
        flush()
        name, hexs = line[1:line.index(']')] if ']' in line else None, []
    elif re.match(r'hex *=', line):
        v = re.sub(r'^hex *= *', '', line)
        v = re.sub(r'#.*', '', v)
        hexs.append(re.sub(r'[ :\t\n]', '', v))
flush()
PY
# the capture target's seeds: the generated and real captures up to 64 KiB
capture_seed=$BUILD/fuzz/seed-capture
mkdir -p "$capture_seed"
for f in "$BUILD"/captures/*.pcap "$BUILD"/captures/*.pcapng "$top"/tests/captures/*.pcap \
	 "$top"/tests/oracle/regress/*.pcap "$top"/tests/captures/crafted/*.pcap; do
	[ -f "$f" ] && [ "$(stat -c %s "$f")" -le 65536 ] && cp "$f" "$capture_seed/"
done
# iWARP without the MPA handshake (the framing inferred): `make fuzz` only,
# the smoke run's 20000 inputs (now 5000) took 5-9 s longer with them
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
# fuzz_nfs3_serve's seeds: a call of every NFSv3 and MOUNT v3 procedure,
# written from RFC 1813's XDR (tests/fuzz/nfs3_seeds.py)
nfs3_seed=$BUILD/fuzz/seed-nfs3
python3 "$top/tests/fuzz/nfs3_seeds.py" "$nfs3_seed"
# fuzz_conform_nfs's seeds: the replies rpcrdma-conform's NFS calls get,
# and a backward call, from the specs' XDR (tests/fuzz/conform_nfs_seeds.py)
conform_nfs_seed=$BUILD/fuzz/seed-conform-nfs
python3 "$top/tests/fuzz/conform_nfs_seeds.py" "$conform_nfs_seed"
# the number of inputs a process executed: "Done N runs", else (stopped by
# a finding) its last "#N" status line
inputs() {
	local n
	n=$(grep -oE 'Done [0-9]+ runs' "$1" | tail -1 | grep -oE '[0-9]+')
	[ -n "$n" ] || n=$(grep -oE '^#[0-9]+' "$1" | tail -1 | tr -d '#')
	echo "${n:-0}"
}
n=0 rc=0 table=
for t in "$BUILD"/fuzz/fuzz_*; do
	[ -x "$t" ] || continue
	name=$(basename "$t")
	if [ $# -gt 0 ]; then
		case " $* " in *" $name "*) ;; *) continue ;; esac
	fi
	n=$((n + 1))
	corpus=$corpora/corpus-$name
	mkdir -p "$corpus"
	log=$BUILD/fuzz/$name.log
	seed=$corpus_seed extra=
	case $name in
	fuzz_capture)   # whole capture files: seeded with the test captures
		seed=$capture_seed
		extra="-max_len=$maxlen -close_fd_mask=2"
		[ "$limit" = -runs=100000 ] && limit_t=-runs=5000 || limit_t=$limit ;;
	fuzz_cap_*)     # the capture pipeline's layers: a run per input
		seed=            # fuzz_cap_tcp, fuzz_cap_ib: their corpus alone
		[ "$name" = fuzz_cap_frames ] && seed=$frames_seed
		[ "$name" = fuzz_cap_redact ] && seed=$capture_seed   # whole files
		extra="-max_len=$maxlen -close_fd_mask=2"
		[ "$limit" = -runs=100000 ] && limit_t=-runs=5000 || limit_t=$limit ;;
	fuzz_nfs3_serve)  # calls of every procedure (nfs3_seeds.py)
		seed=$nfs3_seed limit_t=$limit ;;
	fuzz_conform_nfs)  # replies to the NFS target's calls (conform_nfs_seeds.py)
		seed=$conform_nfs_seed limit_t=$limit ;;
	*) limit_t=$limit ;;
	esac
	# inputs that once crashed it (tests/fuzz/regress/NAME/), run every time
	regress=$top/tests/fuzz/regress/$name
	[ -d "$regress" ] || regress=
	# with FUZZ_JOBS, each process its share of -runs
	case $limit_t in
	-runs=*) per=-runs=$(( (${limit_t#-runs=} + jobs - 1) / jobs )) ;;
	*) per=$limit_t ;;
	esac
	start=$(date +%s) pids= logs=
	for j in $(seq 1 "$jobs"); do
		jlog=$log
		[ "$jobs" -gt 1 ] && jlog=$BUILD/fuzz/$name.$j.log
		logs="$logs $jlog"
		# shellcheck disable=SC2086
		"$t" $per $extra -rss_limit_mb=2048 \
			-artifact_prefix="$BUILD/fuzz/$name-" \
			"$corpus" ${seed:+"$seed"} ${regress:+"$regress"} >"$jlog" 2>&1 &
		pids="$pids $!"
	done
	trc=0 runs=0 found=0
	for p in $pids; do wait "$p" || { trc=$?; found=$((found + 1)); }; done
	took=$(( $(date +%s) - start ))
	for jlog in $logs; do runs=$(( runs + $(inputs "$jlog") )); done
	# shellcheck disable=SC2086
	[ "$jobs" -gt 1 ] && cat $logs > "$log"
	table="$table$(printf '%-24s %12s %8s %8s %4s' "$name" "$runs" "$found" "$took" "$jobs")
"
	if [ "$found" -eq 0 ]; then
		echo "ok $n - $name: $runs inputs in $took s, no finding"
	else
		rc=1
		echo "not ok $n - $name: $found finding(s) (status $trc), see $log"
		grep -E 'ERROR|SUMMARY|assert' "$log" | head -5 | sed 's/^/# /'
	fi
done
echo "1..$n"
if [ "$n" -gt 0 ]; then
	printf '# %-24s %12s %8s %8s %4s\n' target inputs findings seconds jobs
	printf '%s' "$table" | sed 's/^/# /'
fi
exit $rc
