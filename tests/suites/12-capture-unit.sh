#!/usr/bin/env bash
# 12-capture-unit.sh - unit tests of the capture pipeline (tests/capunit):
# TCP reassembly, MPA framing, PSN windows, buffer budgets, the checked
# cursor, CRCs and time stamps; plain, then under ASan+UBSan.  TAP.
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
export TOP BUILD=${BUILD:-$TOP/build}
plain=$("$TOP/tests/unit/run-unit.sh" "$BUILD/capunit"); rc1=$?
asan=$("$TOP/tests/unit/run-unit.sh" "$BUILD/capunit-asan" "asan "); rc2=$?
n1=$(grep -c '^\(not \)\?ok ' <<<"$plain")
printf '%s\n' "$plain" | grep -v '^1\.\.'
# renumber the second stream after the first
printf '%s\n' "$asan" | grep -v '^1\.\.' | awk -v base="$n1" '
	/^(not )?ok [0-9]+/ { n = $0; sub(/^(not )?ok /, "", n); sub(/ .*/, "", n);
			      pre = ($1 == "not") ? "not ok " : "ok ";
			      rest = $0; sub(/^(not )?ok [0-9]+/, "", rest);
			      print pre (n + base) rest; next } { print }'
echo "1..$((n1 + $(grep -c '^\(not \)\?ok ' <<<"$asan")))"
[ "$rc1" -eq 0 ] && [ "$rc2" -eq 0 ]
