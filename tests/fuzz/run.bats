#!/usr/bin/env bats
# run.bats - tests/fuzz/run.sh, the runner behind `make fuzz` and the fuzz
# smoke suite, over stand-in targets (shell scripts that print what libFuzzer
# prints): the count of inputs, FUZZ_JOBS's split of -runs and the sum of
# its processes, a finding in any process failing the target, FUZZ_ONLY's
# names, FUZZ_MAX_LEN and FUZZ_CORPUS, and bad settings refused.

load /usr/lib/bats/bats-support/load.bash
load /usr/lib/bats/bats-assert/load.bash

: "${TOP:=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)}"

# a stand-in target: records its arguments, then says "Done N runs" for
# -runs=N (or 7 with a time limit); FAIL_AT=K: the K-th process to start
# reports a crash after 3 inputs and exits 1, as libFuzzer does
mk_target() {
	cat > "$BUILD/fuzz/$1" <<'EOF'
#!/usr/bin/env bash
exec 9>>"$BUILD/lock"
flock 9                    # the processes of FUZZ_JOBS start together
echo "$*" >> "$BUILD/args.$(basename "$0")"
k=$(wc -l < "$BUILD/args.$(basename "$0")")
flock -u 9
n=7
for a in "$@"; do case $a in -runs=*) n=${a#-runs=} ;; esac; done
if [ "${FAIL_AT:-0}" -eq "$k" ]; then
	echo "#3	NEW    cov: 5 ft: 5 corp: 2/9b"
	echo "==1==ERROR: AddressSanitizer: heap-buffer-overflow"
	echo "SUMMARY: AddressSanitizer: heap-buffer-overflow"
	exit 1
fi
echo "Done $n runs in 0 second(s)"
EOF
	chmod +x "$BUILD/fuzz/$1"
}

setup() {
	export BUILD=$BATS_TEST_TMPDIR/build
	mkdir -p "$BUILD/fuzz"
	mk_target fuzz_aaa
	mk_target fuzz_cap_bbb
	R=$TOP/tests/fuzz/run.sh
}

@test "one process a target: the inputs each ran, a TAP line each and the table" {
	run "$R" -runs=1000
	assert_success
	assert_line --regexp '^ok 1 - fuzz_aaa: 1000 inputs in [0-9]+ s, no finding$'
	# the capture pipeline's targets take 5000 in the smoke run only
	assert_line --regexp '^ok 2 - fuzz_cap_bbb: 1000 inputs in [0-9]+ s, no finding$'
	assert_line '1..2'
	assert_line --regexp '^# fuzz_aaa +1000 +0 +[0-9]+ +1$'
	run cat "$BUILD/args.fuzz_cap_bbb"
	assert_output --partial -max_len=65536
	assert_output --partial "$BUILD/fuzz/corpus-fuzz_cap_bbb"
	# its corpus once, not again as a seed directory (each input run twice)
	run grep -o "corpus-fuzz_cap_bbb" "$BUILD/args.fuzz_cap_bbb"
	assert_output "corpus-fuzz_cap_bbb"
}

@test "the smoke run: 100000 inputs, 5000 for the capture pipeline's targets" {
	run "$R" -runs=100000
	assert_success
	assert_line --regexp '^ok 1 - fuzz_aaa: 100000 inputs'
	assert_line --regexp '^ok 2 - fuzz_cap_bbb: 5000 inputs'
}

@test "FUZZ_JOBS=3: three processes share -runs and the line gives their sum" {
	FUZZ_JOBS=3 run "$R" -runs=1000 fuzz_aaa
	assert_success
	# 334 each, rounded up so that the sum is at least what was asked
	assert_line --regexp '^ok 1 - fuzz_aaa: 1002 inputs in [0-9]+ s, no finding$'
	assert_line --regexp '^# fuzz_aaa +1002 +0 +[0-9]+ +3$'
	run grep -c -- '-runs=334 ' "$BUILD/args.fuzz_aaa"
	assert_output 3
	# every process on the one corpus
	run grep -c -- "$BUILD/fuzz/corpus-fuzz_aaa" "$BUILD/args.fuzz_aaa"
	assert_output 3
}

@test "a finding in one of the processes fails the target and names the log" {
	FAIL_AT=2 FUZZ_JOBS=2 run "$R" -runs=1000 fuzz_aaa
	assert_failure 1
	assert_line --regexp '^not ok 1 - fuzz_aaa: 1 finding\(s\) \(status 1\), see .*/fuzz_aaa\.log$'
	assert_line '# SUMMARY: AddressSanitizer: heap-buffer-overflow'
	# the inputs of both: 500 and the 3 before the crash
	assert_line --regexp '^# fuzz_aaa +503 +1 '
}

@test "TARGET names run those only; an unknown one is refused" {
	run "$R" -runs=10 fuzz_cap_bbb
	assert_success
	assert_line --regexp '^ok 1 - fuzz_cap_bbb'
	refute_line --partial fuzz_aaa
	run "$R" -runs=10 fuzz_nothere
	assert_failure 2
	assert_output --partial 'no fuzz target fuzz_nothere'
}

@test "FUZZ_MAX_LEN and FUZZ_CORPUS reach the capture targets" {
	FUZZ_MAX_LEN=4096 FUZZ_CORPUS=$BATS_TEST_TMPDIR/corp run "$R" -runs=10 fuzz_cap_bbb
	assert_success
	run cat "$BUILD/args.fuzz_cap_bbb"
	assert_output --partial -max_len=4096
	assert_output --partial "$BATS_TEST_TMPDIR/corp/corpus-fuzz_cap_bbb"
	[ -d "$BATS_TEST_TMPDIR/corp/corpus-fuzz_cap_bbb" ]
}

@test "a time limit becomes -max_total_time for every process" {
	FUZZ_JOBS=2 run "$R" 5 fuzz_aaa
	assert_success
	assert_line --regexp '^ok 1 - fuzz_aaa: 14 inputs'
	run grep -c -- '-max_total_time=5 ' "$BUILD/args.fuzz_aaa"
	assert_output 2
}

@test "bad FUZZ_JOBS and FUZZ_MAX_LEN are refused" {
	FUZZ_JOBS=0 run "$R" -runs=10
	assert_failure 2
	assert_output --partial 'FUZZ_JOBS'
	FUZZ_JOBS=two run "$R" -runs=10
	assert_failure 2
	FUZZ_MAX_LEN=-1 run "$R" -runs=10
	assert_failure 2
	assert_output --partial 'FUZZ_MAX_LEN'
}
