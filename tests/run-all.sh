#!/usr/bin/env bash
# Run every suite in tests/suites/ (each prints TAP), keep their output, and
# end with one line: "N passed, N failed[, N skipped]".  Exit 1 on any failure.
set -u
here=$(cd "$(dirname "$0")" && pwd)
export BUILD=${BUILD:-$here/../build}
export BIN=${BIN:-$BUILD/bin}
export TOP=$(cd "$here/.." && pwd)
pass=0 fail=0 skip=0 broken=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for suite in "$here"/suites/*.sh; do
	[ -x "$suite" ] || continue
	name=$(basename "$suite" .sh)
	echo "# suite $name"
	t_suite=$SECONDS
	"$suite" >"$log" 2>&1
	rc=$?
	cat "$log"
	echo "# suite $name: $((SECONDS - t_suite)) s"
	p=$(grep -cE '^ok [0-9]+' "$log" | tr -d ' ')
	s=$(grep -cE '^ok [0-9]+.*# (SKIP|skip)' "$log" | tr -d ' ')
	f=$(grep -cE '^not ok [0-9]+' "$log" | tr -d ' ')
	pass=$((pass + p - s)); skip=$((skip + s)); fail=$((fail + f))
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "# suite $name exited $rc without a failing test: counted as a failure"
		fail=$((fail + 1)); broken=1
	fi
done
line="$pass passed, $fail failed"
[ "$skip" -gt 0 ] && line="$line, $skip skipped"
echo "$line"
[ "$fail" -eq 0 ]
