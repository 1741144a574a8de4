#!/usr/bin/env bats
# runner.bats - tests of the test runner itself (tests/run-all.sh, the suite
# scripts, tests/unit/run-unit.sh, tests/tap-merge.awk): a suite that runs
# fewer tests than it planned, plans 1..0, has no plan, or loses a build
# fails make check; so does a SKIP whose reason tests/skip-reasons.txt does
# not list, and a decoder without --json.  Fake suites, a fake BUILD (the
# real one's entries but one) and a stub decoder stand in.

load /usr/lib/bats/bats-support/load.bash
load /usr/lib/bats/bats-assert/load.bash

: "${TOP:=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)}"
: "${BUILD:=$TOP/build}"
REAL_BUILD=$BUILD

setup() {
	S=$BATS_TEST_TMPDIR/suites
	mkdir -p "$S"
	printf '10-a 2\n20-b 1\n' > "$BATS_TEST_TMPDIR/plans"
	printf 'a listed reason\n' > "$BATS_TEST_TMPDIR/reasons"
	export RPCRDMA_SUITES_DIR=$S RPCRDMA_SUITE_PLANS=$BATS_TEST_TMPDIR/plans
	export RPCRDMA_SKIP_REASONS=$BATS_TEST_TMPDIR/reasons RPCRDMA_CHECK_JOBS=1
	unset RPCRDMA_CHECK_ONLY RPCRDMA_CHECK_EXCLUDE
}

suite() {   # suite NAME TAP-TEXT [EXIT]
	# the text's lines, one echo each
	{ echo '#!/bin/bash'; while IFS= read -r l; do printf 'echo %q\n' "$l"; done <<<"$2"; echo "exit ${3:-0}"; } > "$S/$1.sh"
	chmod +x "$S/$1.sh"
}

@test "good suites pass; the summary keeps its shape, the sanitizer line before it" {
	suite 10-a $'ok 1 - one\nok 2 - asan test_x: the same\n1..2'
	suite 20-b $'1..1\nok 1 - (asan+ubsan) test_y: z'
	run "$TOP/tests/run-all.sh"
	assert_success
	assert_line --index $((${#lines[@]} - 2)) "2 of the 3 passes are sanitizer re-runs (ASan+UBSan) of the same assertions"
	assert_line --index $((${#lines[@]} - 1)) "3 passed, 0 failed"
}

@test "the run ends with what failed, each failing test and the line after it, then the summary" {
	suite 10-a $'ok 1 - one\nnot ok 2 - siw: NFSv3 mount\n# mount.nfs: Connection refused\n1..2'
	suite 20-b $'ok 1 - one'
	run "$TOP/tests/run-all.sh"
	assert_failure
	n=${#lines[@]}
	assert_line --index $((n - 1)) "2 passed, 2 failed"
	assert_line --index $((n - 7)) --partial "# what failed"
	assert_line --index $((n - 6)) "  10-a: not ok 2 - siw: NFSv3 mount"
	assert_line --index $((n - 5)) "    mount.nfs: Connection refused"
	assert_line --index $((n - 4)) --partial "  suite 20-b ended without a plan (1..N) after 1 tests"
	# at most 16 lines of it, then how many more
	suite 10-a "$(printf 'not ok %d - t%d\n' $(seq 1 20 | sed 's/.*/& &/'); echo 1..20)"
	run "$TOP/tests/run-all.sh"
	assert_failure
	assert_output --partial "  10-a: not ok 16 - t16"
	refute_output --partial "  10-a: not ok 17 - t17"
	assert_output --partial "  ... and 5 lines more"
}

@test "a suite that prints 1..0 fails" {
	suite 10-a $'ok 1 - one\nok 2 - two\n1..2'
	suite 20-b '1..0'
	run "$TOP/tests/run-all.sh"
	assert_failure
	assert_output --partial "suite 20-b planned 1..0"
	assert_line --regexp '^2 passed, [1-9][0-9]* failed$'
}

@test "a suite without a plan fails" {
	suite 10-a $'ok 1 - one\nok 2 - two'
	suite 20-b $'ok 1 - one\n1..1'
	run "$TOP/tests/run-all.sh"
	assert_failure
	assert_output --partial "suite 10-a ended without a plan"
}

@test "a suite that runs fewer tests than it planned fails" {
	suite 10-a $'1..3\nok 1 - one\nok 2 - two'
	suite 20-b $'ok 1 - one\n1..1'
	run "$TOP/tests/run-all.sh"
	assert_failure
	assert_output --partial "suite 10-a planned 3 tests and ran 2"
}

@test "a suite that runs fewer tests than tests/suite-plans.txt declares fails, and one not listed there" {
	suite 10-a $'ok 1 - one\n1..1'
	suite 20-b $'ok 1 - one\n1..1'
	suite 30-c $'ok 1 - one\n1..1'
	run "$TOP/tests/run-all.sh"
	assert_failure
	assert_output --partial "suite 10-a ran 1 tests, fewer than the 2"
	assert_output --partial "suite 30-c has no line in"
	assert_line "3 passed, 2 failed"
}

@test "a suite that exits non-zero without a failing test fails" {
	suite 10-a $'ok 1 - one\nok 2 - two\n1..2' 3
	suite 20-b $'ok 1 - one\n1..1'
	run "$TOP/tests/run-all.sh"
	assert_failure
	assert_line "3 passed, 1 failed"
}

@test "a SKIP for a listed reason is counted as skipped; any other reason fails" {
	suite 10-a $'ok 1 - one\nok 2 - two # SKIP a listed reason (details)\n1..2'
	suite 20-b $'ok 1 - one\n1..1'
	run "$TOP/tests/run-all.sh"
	assert_success
	assert_line "2 passed, 0 failed, 1 skipped"
	suite 20-b $'ok 1 - one # SKIP tshark not installed\n1..1'
	run "$TOP/tests/run-all.sh"
	assert_failure
	assert_output --partial "a SKIP whose reason is not in"
	assert_line "1 passed, 1 failed, 2 skipped"
}

@test "tap-merge.awk: a stream cut short, without a plan, or empty is a failure" {
	printf 'ok 1 - a\n1..1\n' > "$BATS_TEST_TMPDIR/s1"
	printf '1..3\nok 1 - b\n' > "$BATS_TEST_TMPDIR/s2"
	: > "$BATS_TEST_TMPDIR/s3"
	printf 'ok 1 - c\n' > "$BATS_TEST_TMPDIR/s4"
	run awk -f "$TOP/tests/tap-merge.awk" "$BATS_TEST_TMPDIR"/s[1-4]
	assert_line "ok 2 - b"
	assert_line --regexp "^not ok [0-9]+ - s2: planned 3 tests, ran 1$"
	assert_line --regexp "^not ok [0-9]+ - s3: printed nothing$"
	assert_line --regexp "^not ok [0-9]+ - s4: ended without a plan"
	assert_line --index $((${#lines[@]} - 1)) "1..6"
}

@test "run-unit.sh on a missing build directory fails (not 1..0, exit 0)" {
	run env TOP="$TOP" "$TOP/tests/unit/run-unit.sh" /nonexistent
	assert_failure
	assert_line --regexp '^not ok 1 - /nonexistent does not exist'
	assert_line "1..1"
}

@test "run-unit.sh: a test binary missing for its source, or one that stops before its plan, fails" {
	d=$BATS_TEST_TMPDIR/u
	mkdir -p "$d" "$BATS_TEST_TMPDIR/src"
	: > "$BATS_TEST_TMPDIR/src/test_a.c"; : > "$BATS_TEST_TMPDIR/src/test_b.c"
	printf '#!/bin/sh\necho "ok 1 - x"\necho "1..2"\n' > "$d/test_a"; chmod +x "$d/test_a"
	run env TOP="$TOP" "$TOP/tests/unit/run-unit.sh" "$d" "" "$BATS_TEST_TMPDIR/src"
	assert_failure
	assert_output --partial "test_b: no binary"
	assert_output --partial "test_a planned 2 tests and ran 1"
}

# fake_build MISSING...: a BUILD with the real one's entries (symbolic
# links) but MISSING
fake_build() {
	F=$BATS_TEST_TMPDIR/build
	mkdir -p "$F"
	for e in "$REAL_BUILD"/* "$REAL_BUILD"/.[!.]*; do
		[ -e "$e" ] || continue
		b=${e##*/}
		case " $* " in *" $b "*) continue ;; esac
		ln -s "$e" "$F/$b"
	done
}

# with_real_suites SUITE...: the real suites, only these
with_real_suites() {
	export RPCRDMA_SUITES_DIR=$TOP/tests/suites RPCRDMA_SUITE_PLANS=$TOP/tests/suite-plans.txt
	export RPCRDMA_SKIP_REASONS=$TOP/tests/skip-reasons.txt RPCRDMA_CHECK_ONLY="$*"
}

@test "removing a unit build's output fails make check (unit, asan, capunit, capunit-asan, transport, asan-transport, ping-unit, ping-asan, kernel-unit, kernel-asan)" {
	for pair in unit:10-unit asan:11-unit-asan capunit:12-capture-unit capunit-asan:12-capture-unit \
		    transport:12-transport asan-transport:12-transport ping-unit:25-ping ping-asan:25-ping \
		    kernel-unit:37-kernel kernel-asan:37-kernel; do
		dir=${pair%%:*} s=${pair#*:}
		[ -d "$REAL_BUILD/$dir" ] || { echo "no $REAL_BUILD/$dir to remove: make check first"; return 1; }
		rm -rf "$BATS_TEST_TMPDIR/build"
		fake_build "$dir"
		with_real_suites "$s"
		run env BUILD="$F" BIN="$F/bin" "$TOP/tests/run-all.sh"
		[ "$status" -ne 0 ] || { echo "without $dir, $s passed: $output"; return 1; }
		assert_output --partial "$dir"
		assert_line --regexp '^[0-9]+ passed, [1-9][0-9]* failed'
	done
}

@test "removing the fuzz targets, the plugin or the generated captures fails make check" {
	for pair in fuzz:15-fuzz-smoke plugins:40-plugin capgen:36-capgen; do
		dir=${pair%%:*} s=${pair#*:}
		rm -rf "$BATS_TEST_TMPDIR/build"
		fake_build "$dir"
		with_real_suites "$s"
		# the fuzz targets' runner, with nothing to run, is quick
		run env BUILD="$F" BIN="$F/bin" "$TOP/tests/run-all.sh"
		[ "$status" -ne 0 ] || { echo "without $dir, $s passed: $output"; return 1; }
		assert_line --regexp '^[0-9]+ passed, [1-9][0-9]* failed'
	done
}

@test "removing rpcrdma-ping fails make check: ping.bats does not vanish" {
	rm -rf "$BATS_TEST_TMPDIR/build"
	fake_build bin
	mkdir "$F/bin"
	for b in "$REAL_BUILD"/bin/*; do [ "${b##*/}" = rpcrdma-ping ] || ln -s "$b" "$F/bin/"; done
	with_real_suites 25-ping
	run env BUILD="$F" BIN="$F/bin" "$TOP/tests/run-all.sh"
	assert_failure
	assert_output --partial "ping.bats: no $F/bin/rpcrdma-ping"
}

@test "a decoder without --json fails make check (21-vectors)" {
	stub=$BATS_TEST_TMPDIR/stub
	mkdir -p "$stub"
	for b in "$REAL_BUILD"/bin/*; do ln -s "$b" "$stub/"; done
	rm "$stub/rpcrdma-decode"
	cat > "$stub/rpcrdma-decode" <<STUB
#!/bin/sh
for a in "\$@"; do
	[ "\$a" = --json ] && { echo "rpcrdma-decode: unknown option --json (try --help)" >&2; exit 2; }
done
exec "$REAL_BUILD/bin/rpcrdma-decode" "\$@"
STUB
	chmod +x "$stub/rpcrdma-decode"
	for s in 21-vectors; do
		with_real_suites "$s"
		run env BIN="$stub" "$TOP/tests/run-all.sh"
		[ "$status" -ne 0 ] || { echo "$s passed with a decoder without --json: $output"; return 1; }
		assert_line --regexp '^[0-9]+ passed, [1-9][0-9]* failed'
	done
}

@test "decode-agree.sh: a decoder usage error is a failure (exit 1), never a skip (77)" {
	stub=$BATS_TEST_TMPDIR/dec
	printf '#!/bin/sh\necho "rpcrdma-decode: unknown option -r; usage: ..." >&2\nexit 2\n' > "$stub"
	chmod +x "$stub"
	cap=$(ls "$TOP"/tests/captures/*.pcap | head -1)
	run bash "$TOP/tests/live/decode-agree.sh" "$cap" "$stub"
	assert_failure 1
	assert_output --partial "rpcrdma-decode -r failed"
}

@test "oracle compare.py: 0 messages compared is a failure unless allowed" {
	: > "$BATS_TEST_TMPDIR/ts"; : > "$BATS_TEST_TMPDIR/dec"
	run python3 "$TOP/tests/oracle/compare.py" "$BATS_TEST_TMPDIR/ts" "$BATS_TEST_TMPDIR/dec"
	assert_failure 1
	assert_output --partial "0 messages compared"
	run python3 "$TOP/tests/oracle/compare.py" --allow-empty "$BATS_TEST_TMPDIR/ts" "$BATS_TEST_TMPDIR/dec"
	assert_success
	assert_output "agree 0 frames"
}

@test "the live suite under make check: a host that cannot run the guest is a failure, not skips" {
	grep -q 'RPCRDMA_CHECK:-} == 1 || ${CI:-} == true' "$TOP/tests/live/smoke.sh"
	grep -q 'no_guest_tap "guest image" "$no_guest"' "$TOP/tests/live/smoke.sh"
	grep -q '^export RPCRDMA_CHECK=1' "$TOP/tests/run-all.sh"
}

@test "every mutant of make mutate still applies to the tree" {
	for m in "$TOP"/tests/mutate/*.mutant; do
		python3 "$TOP/tests/mutate/apply.py" "$m" "$TOP" --check >/dev/null ||
			{ echo "$m no longer applies"; return 1; }
	done
}
