#!/bin/bash
# `make check-live-repeat N=5`: the live suite (smoke.sh) N times in a row,
# then per test how many runs failed it and how many retries it made, and
# how long each run took.  A flaky test shows up here as "failed 1 of 5".
# Each run's TAP is kept in $BUILD/live/repeat/run-K.tap, its results in
# run-K.tsv, and a run that failed a test keeps build/live/smoke (the guests'
# logs, each case's outputs) in run-K-logs/.  Exit 1 when any run failed a
# test.
#   BUILD=/abs/build [BIN=...] repeat.sh N [rxe|siw]...
set -uo pipefail
. "$(dirname "$0")/lib.sh"

n=${1:-3}
shift || true
[[ $n =~ ^[1-9][0-9]*$ ]] || { echo "repeat.sh: N must be a number of runs, 1 or more" >&2; exit 2; }
BUILD=${BUILD:-$REPO_ROOT/build}
dir=$BUILD/live/repeat
rm -rf "$dir" && mkdir -p "$dir"

load=$(cut -d' ' -f1-3 /proc/loadavg)
echo "# check-live-repeat: $n runs of the live suite; load average at start $load"
for ((k = 1; k <= n; k++)); do
    t0=$SECONDS
    BUILD=$BUILD bash "$LIVE_DIR/smoke.sh" "$@" > "$dir/run-$k.tap" 2>&1
    rc=$?
    cp "$BUILD/live/smoke/results.tsv" "$dir/run-$k.tsv" 2>/dev/null || : > "$dir/run-$k.tsv"
    # a run with a failure keeps its guests' logs and case outputs (the
    # next run writes over build/live/smoke): run-K-logs/
    ((rc)) && cp -r "$BUILD/live/smoke" "$dir/run-$k-logs" 2>/dev/null
    echo "# run $k: exit $rc, $((SECONDS - t0)) s, load $(cut -d' ' -f1 /proc/loadavg): $(tail -1 "$dir/run-$k.tap")"
    echo "$rc $((SECONDS - t0))" > "$dir/run-$k.rc"
done

# per test: runs, failures, skips, retries (a test missing from a run counts
# as failed in it: it was expected and did not report)
awk -F'\t' -v n="$n" '
    FNR == 1 { run++ }
    { key = $2; seen[key, run] = 1; keys[key] = 1
      if ($1 == "fail") fails[key]++
      if ($1 == "skip") skips[key]++
      retries[key] += $3 }
    END {
        for (k in keys) {
            miss = 0
            for (r = 1; r <= run; r++) if (!((k, r) in seen)) miss++
            f = fails[k] + miss
            tot_f += f; tot_r += retries[k]
            if (f || retries[k]) printf "%-70s failed %d of %d, retries %d%s\n", k, f, n, retries[k] + 0, miss ? " (missing from " miss " runs)" : "" | "sort"
            ntests++
        }
        close("sort")
        printf "# %d tests, %d runs: %d failures, %d retries in all\n", ntests, n, tot_f, tot_r
        exit tot_f > 0
    }' "$dir"/run-*.tsv
