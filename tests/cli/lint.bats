#!/usr/bin/env bats
# lint.bats - rpcrdma-decode --check's rules, each able to fail: every
# capture of tests/capgen/lint-expect.txt gives exactly its planted
# violations, nothing more and nothing less; thresholds at their edges.
# Its own suite (32-lint) so that make mutate's lint mutants run it alone.

load /usr/lib/bats/bats-support/load.bash
load /usr/lib/bats/bats-assert/load.bash

setup() {
	export TOP=${TOP:-$(cd "$BATS_TEST_DIRNAME/../.." && pwd)}
	export BUILD=${BUILD:-$TOP/build}
	export BIN=${BIN:-$BUILD/bin}
	CAPS=$BUILD/captures
	D=$BIN/rpcrdma-decode
}

need() {
	for f in "$@"; do
		[ -e "$CAPS/$f" ] || { echo "$CAPS/$f absent (make captures)"; return 1; }
	done
}

@test "--check finds exactly the planted violations (lint-expect.txt): nothing more, nothing less" {
	need lint-expect.txt
	n=0
	# each file's expected set: "FRAME CHECK" lines, sorted (none: empty)
	for file in $(awk '{ print $1 }' "$CAPS/lint-expect.txt" | sort -u); do
		[ -e "$CAPS/$file" ] || { echo "$file: listed in lint-expect.txt, not generated"; return 1; }
		want=$(awk -v f="$file" '$1 == f && $2 != "-" { print $2 " " $3 }' "$CAPS/lint-expect.txt" | sort)
		out=$("$D" --check -r "$CAPS/$file" 2>/dev/null) && rc=0 || rc=$?
		got=$(sed -n 's/^frame \([0-9]*\): \([a-z0-9-]*\): .*/\1 \2/p' <<<"$out" | sort)
		other=$(grep -v '^frame [0-9]*: [a-z0-9-]*: ' <<<"$out" | grep . || true)
		if [ -z "$want" ]; then
			# (a cut capture file exits 1 without a violation)
			[ -z "$out" ] && { [ "$rc" -eq 0 ] || [[ $file == *truncated* ]]; } ||
				{ echo "$file: expected no violation, got: $out (rc $rc)"; return 1; }
		else
			[ "$got" = "$want" ] && [ -z "$other" ] && [ "$rc" -eq 1 ] ||
				{ echo "$file: expected exactly [$want], got [$got] ${other:+and: $other} (rc $rc)"; return 1; }
		fi
		n=$((n + 1))
	done
	[ "$n" -ge 40 ]
}

@test "inline-too-large at its edge: a 1148-byte Send fits a 1148-byte threshold, not 1147 (V1 4.3.2)" {
	need lint-inline-too-large.pcap
	run "$D" --check --inline-threshold 1148 -r "$CAPS/lint-inline-too-large.pcap"
	assert_success
	refute_output --partial inline-too-large
	run "$D" --check --inline-threshold 1147 -r "$CAPS/lint-inline-too-large.pcap"
	assert_failure 1
	assert_output --partial 'inline-too-large: 1148-byte Send exceeds the receiver'"'"'s 1147-byte inline threshold'
}
