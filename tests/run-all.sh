#!/usr/bin/env bash
# Run every suite in tests/suites/ (each prints TAP), keep their output, and
# end with one line: "N passed, N failed[, N skipped]".  Exit 1 on any failure.
#
# Suites run side by side, RPCRDMA_CHECK_JOBS at a time (default: one per
# core; 1 runs them one after the other, in order).  The live suites (90-live,
# 91-live-trixie) start first: they are the longest, and much of them is
# waiting (the images' download, the guests' timeouts) that the other suites fill.  Each suite's output is
# printed whole when it ends, headed "# suite NAME" and closed with
# "# suite NAME: N s".
#
# The runner counts what it expected (tests/suite-plans.txt, docs/testing.md):
# a suite fails when it ends without a plan (1..N), plans 0 tests, runs a
# number of tests other than its plan, or fewer than the least its line in
# tests/suite-plans.txt declares (a suite without a line there fails too).
# A skip is allowed only for a reason listed in tests/skip-reasons.txt: any
# other "# SKIP" line is a failure.  Before the summary, one line says how
# many of the passes are sanitizer re-runs of the same assertions (tests
# named "asan ...", "(asan+ubsan) ...", "(transport asan+ubsan) ...").
#
#   RPCRDMA_CHECK_ONLY="10-unit 20-cli"   run these suites alone
#   RPCRDMA_CHECK_EXCLUDE="40-plugin"     all but these
# (a suite left out is named on a "# not run" line; make mutate uses these)
set -u
here=$(cd "$(dirname "$0")" && pwd)
export BUILD=${BUILD:-$here/../build}
export BIN=${BIN:-$BUILD/bin}
export TOP=$(cd "$here/.." && pwd)
# suites can tell a make check run (a missing dependency is a failure there)
export RPCRDMA_CHECK=1
PLANS=${RPCRDMA_SUITE_PLANS:-$here/suite-plans.txt}
REASONS=${RPCRDMA_SKIP_REASONS:-$here/skip-reasons.txt}
jobs=${RPCRDMA_CHECK_JOBS:-$(nproc 2>/dev/null || echo 1)}
[[ $jobs =~ ^[1-9][0-9]*$ ]] || jobs=1
pass=0 fail=0 skip=0 san=0 total_cpu=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# python3: Debian's own (/usr/bin/python3, which scripts/deps.sh installs;
# the tests use its standard library only) ahead of a version manager's shim
# on PATH: a pyenv shim is a shell script that costs ~1.4 s a start on this
# kind of machine against 0.15 s, and make check starts python3 ~1,000 times
if [ -x /usr/bin/python3 ] && [ "$(command -v python3)" != /usr/bin/python3 ]; then
	mkdir -p "$tmp/bin" && ln -s /usr/bin/python3 "$tmp/bin/python3" &&
		export PATH="$tmp/bin:$PATH"
fi

suites=() left_out=()
SUITES_DIR=${RPCRDMA_SUITES_DIR:-$here/suites}
for suite in "$SUITES_DIR"/*.sh; do
	[ -x "$suite" ] || continue
	name=$(basename "$suite" .sh)
	if [ -n "${RPCRDMA_CHECK_ONLY:-}" ] && [[ " $RPCRDMA_CHECK_ONLY " != *" $name "* ]]; then
		left_out+=("$name"); continue
	fi
	if [[ " ${RPCRDMA_CHECK_EXCLUDE:-} " == *" $name "* ]]; then
		left_out+=("$name"); continue
	fi
	suites+=("$suite")
done
# suite_fail MESSAGE: a failure of a suite as a whole (no plan, too few
# tests, an unlisted skip, a suite asked for that is not there): said
# where it happens and listed at the end
suite_fail() {
	echo "$1"
	echo "  ${1#\# }" | cut -c1-240 >> "$tmp/failures"
	fail=$((fail + 1))
}
for want in ${RPCRDMA_CHECK_ONLY:-}; do
	[ -x "$SUITES_DIR/$want.sh" ] || suite_fail "# RPCRDMA_CHECK_ONLY names no suite $want: counted as a failure"
done
if [ ${#suites[@]} -eq 0 ]; then
	echo "# no suite selected (RPCRDMA_CHECK_ONLY='${RPCRDMA_CHECK_ONLY:-}')"
	echo "0 passed, 1 failed"
	exit 1
fi
if ((jobs > 1)); then
	# the longest first: the live suites (90-live, 91-live-trixie), in order
	ordered=()
	for s in "${suites[@]}"; do [[ ${s##*/} == 9[0-9]-live*.sh ]] && ordered+=("$s"); done
	for s in "${suites[@]}"; do [[ ${s##*/} == 9[0-9]-live*.sh ]] || ordered+=("$s"); done
	suites=("${ordered[@]}")
fi

# report NAME: print a finished suite's output and count its results
report() {
	local name=$1 rc took cpu log=$tmp/$1.log p s f a
	read -r rc took cpu < "$tmp/$name.rc"
	echo "# suite $name"
	cat "$log"
	echo "# suite $name: $took s (cpu $cpu s)"
	total_cpu=$((total_cpu + cpu))
	p=$(grep -cE '^ok [0-9]+' "$log" | tr -d ' ')
	s=$(grep -cE '^ok [0-9]+.*# (SKIP|skip)' "$log" | tr -d ' ')
	f=$(grep -cE '^not ok [0-9]+' "$log" | tr -d ' ')
	# sanitizer re-runs: passes whose name, up to its first colon, says asan
	a=$(grep -E '^ok [0-9]+' "$log" | grep -vE '# (SKIP|skip)' |
		sed -E 's/^ok [0-9]+ (- )?//' | cut -d: -f1 | grep -c 'asan' | tr -d ' ')
	pass=$((pass + p - s)); skip=$((skip + s)); fail=$((fail + f)); san=$((san + a))
	# every failing test, with the first comment line after it (its
	# reason, as the suite said it), for the list before the summary
	awk -v s="$name" '
		pending && /^[ \t]*#/ { sub(/^[ \t]*# ?/, ""); print "    " substr($0, 1, 200); pending = 0; next }
		{ pending = 0 }
		/^not ok [0-9]+/ { print "  " s ": " substr($0, 1, 200); pending = 1 }
	' "$log" >> "$tmp/failures"
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		suite_fail "# suite $name exited $rc without a failing test: counted as a failure"
	fi
	# the plan: exactly one, not 0, as many tests as it says, at least
	# as many as tests/suite-plans.txt expects
	local plans nplan ran=$((p + f)) least
	plans=$(grep -E '^1\.\.[0-9]+' "$log" | sed -E 's/^1\.\.([0-9]+).*/\1/')
	nplan=$(grep -c . <<<"$plans")
	least=$(awk -v s="$name" '$1 == s { print $2 }' "$PLANS" 2>/dev/null)
	if [ "$nplan" -eq 0 ]; then
		suite_fail "# suite $name ended without a plan (1..N) after $ran tests: counted as a failure"
	elif [ "$nplan" -gt 1 ]; then
		suite_fail "# suite $name printed $nplan plans (one stream expected): counted as a failure"
	elif [ "$plans" -eq 0 ]; then
		suite_fail "# suite $name planned 1..0 (ran nothing): counted as a failure"
	elif [ "$plans" -ne "$ran" ]; then
		suite_fail "# suite $name planned $plans tests and ran $ran: counted as a failure"
	fi
	if [ -z "$least" ]; then
		suite_fail "# suite $name has no line in ${PLANS#"$TOP"/} (how many tests it runs at least): counted as a failure"
	elif [ "$ran" -lt "$least" ]; then
		suite_fail "# suite $name ran $ran tests, fewer than the $least ${PLANS#"$TOP"/} declares: counted as a failure"
	fi
	# skips: only for a reason in tests/skip-reasons.txt (its text starts
	# with a listed line)
	local bad
	bad=$(grep -E '^ok [0-9]+.*# (SKIP|skip)' "$log" | sed -E 's/^.*# (SKIP|skip) ?//' |
		while IFS= read -r r; do
			listed=0
			while IFS= read -r want; do
				[[ -z $want || $want == \#* ]] && continue
				[[ $r == "$want"* ]] && { listed=1; break; }
			done < "$REASONS"
			[ "$listed" = 1 ] || echo "$r"
		done)
	if [ -n "$bad" ]; then
		while IFS= read -r r; do
			suite_fail "# suite $name: a SKIP whose reason is not in ${REASONS#"$TOP"/}: counted as a failure: $r"
		done <<<"$bad"
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
		rc=$?
		# the CPU time the suite took (its processes', user + system):
		# what a loaded host does not change, as wall time does
		# (times itself, not in a pipe: a forked shell has no children's times)
		times > "$tmp/$name.times"
		cpu=$(awk 'NR == 2 { for (i = 1; i <= 2; i++) { split($i, a, /[ms]/); s += a[1] * 60 + a[2] } } END { printf "%.0f", s }' "$tmp/$name.times")
		echo "$rc $((SECONDS - t)) $cpu" > "$tmp/$name.rc.tmp"
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

# the failures again, last: CI keeps the end of a run's output (the
# list first, at most 16 lines, so that the summary is the last line)
if [ -s "$tmp/failures" ]; then
	n=$(wc -l < "$tmp/failures")
	echo "# what failed (each failing test, the line after it; the suites' output above has the rest):"
	head -n 16 "$tmp/failures"
	[ "$n" -gt 16 ] && echo "  ... and $((n - 16)) lines more"
fi
[ ${#left_out[@]} -gt 0 ] && echo "# not run (RPCRDMA_CHECK_ONLY/EXCLUDE): ${left_out[*]}"
echo "# suites' CPU time: $total_cpu s in all, $SECONDS s of wall time"
echo "$san of the $pass passes are sanitizer re-runs (ASan+UBSan) of the same assertions"
line="$pass passed, $fail failed"
[ "$skip" -gt 0 ] && line="$line, $skip skipped"
echo "$line"
[ "$fail" -eq 0 ]
