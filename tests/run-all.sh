#!/usr/bin/env bash
# Run every suite in tests/suites/ (each prints TAP), keep their output, and
# end with one line: "N passed, N failed[, N skipped]".  Exit 1 on any failure.
#
# Suites run side by side, RPCRDMA_CHECK_JOBS at a time (default: one per
# core; 1 runs them one after the other, in order).  The live suite starts
# first: it is the longest, and much of it is waiting (the image's download,
# the guests' timeouts) that the other suites fill.  Each suite's output is
# printed whole when it ends, headed "# suite NAME" and closed with
# "# suite NAME: N s".
set -u
here=$(cd "$(dirname "$0")" && pwd)
export BUILD=${BUILD:-$here/../build}
export BIN=${BIN:-$BUILD/bin}
export TOP=$(cd "$here/.." && pwd)
jobs=${RPCRDMA_CHECK_JOBS:-$(nproc 2>/dev/null || echo 1)}
[[ $jobs =~ ^[1-9][0-9]*$ ]] || jobs=1
pass=0 fail=0 skip=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

suites=()
for suite in "$here"/suites/*.sh; do
	[ -x "$suite" ] || continue
	suites+=("$suite")
done
if ((jobs > 1)); then
	# the longest first
	ordered=()
	for s in "${suites[@]}"; do [[ ${s##*/} == 90-live.sh ]] && ordered+=("$s"); done
	for s in "${suites[@]}"; do [[ ${s##*/} == 90-live.sh ]] || ordered+=("$s"); done
	suites=("${ordered[@]}")
fi

# report NAME: print a finished suite's output and count its results
report() {
	local name=$1 rc took log=$tmp/$1.log p s f
	read -r rc took < "$tmp/$name.rc"
	echo "# suite $name"
	cat "$log"
	echo "# suite $name: $took s"
	p=$(grep -cE '^ok [0-9]+' "$log" | tr -d ' ')
	s=$(grep -cE '^ok [0-9]+.*# (SKIP|skip)' "$log" | tr -d ' ')
	f=$(grep -cE '^not ok [0-9]+' "$log" | tr -d ' ')
	pass=$((pass + p - s)); skip=$((skip + s)); fail=$((fail + f))
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "# suite $name exited $rc without a failing test: counted as a failure"
		fail=$((fail + 1))
	fi
	: > "$tmp/$name.done"
}
# report_finished: every suite that has ended and is not reported yet
report_finished() {
	local s name
	for s in "${suites[@]}"; do
		name=$(basename "$s" .sh)
		[[ -f $tmp/$name.rc && ! -f $tmp/$name.done ]] && report "$name"
	done
	return 0
}

running=0
for suite in "${suites[@]}"; do
	name=$(basename "$suite" .sh)
	(
		t=$SECONDS
		"$suite" > "$tmp/$name.log" 2>&1
		echo "$? $((SECONDS - t))" > "$tmp/$name.rc.tmp"
		mv "$tmp/$name.rc.tmp" "$tmp/$name.rc"
	) &
	running=$((running + 1))
	if ((running >= jobs)); then
		wait -n
		running=$((running - 1))
		report_finished
	fi
done
wait
report_finished

line="$pass passed, $fail failed"
[ "$skip" -gt 0 ] && line="$line, $skip skipped"
echo "$line"
[ "$fail" -eq 0 ]
