#!/usr/bin/env bash
# make mutate: plant each hand-written mutant of tests/mutate/*.mutant, one at
# a time, in a copy of the tree, rebuild what it names and run the suites it
# names (tests/run-all.sh with RPCRDMA_CHECK_ONLY: never the live or plugin
# suites); each must make them fail.  Prints a line per mutant, "caught" or
# "SURVIVED", and the survivors at the end; exits 1 when one survived, did
# not apply any more (its original text not found exactly once), or the
# unmutated tree does not pass the same suites.
#   run.sh [NAME...]      (MUTATE_DIR: the copy, default $BUILD/mutate)
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$top/build}
work=${MUTATE_DIR:-$BUILD/mutate}
tree=$work/tree
mutants=()
if [ $# -gt 0 ]; then
	for a in "$@"; do mutants+=("$top/tests/mutate/${a%.mutant}.mutant"); done
else
	mutants=("$top"/tests/mutate/*.mutant)
fi
t0=$SECONDS
# every mutant must still apply: checked before anything is built
stale=""
for m in "${mutants[@]}"; do
	python3 "$top/tests/mutate/apply.py" "$m" "$top" --check >/dev/null || stale="$stale $(basename "$m" .mutant)"
done
if [ -n "$stale" ]; then
	echo "make mutate: these mutants no longer apply (rewrite them):$stale"
	exit 1
fi

# the copy: the tree as it is (tracked and new files, edits included) and
# the build made so far, so that make rebuilds only what a mutant touches
mkdir -p "$tree"
# the seed texts beside the copy, where they stand beside the checkout
# (../shared/specs: 26-conform reads them)
if [ -d "$top/../shared" ] && [ ! -e "$work/shared" ]; then
	ln -s "$(cd "$top/../shared" && pwd)" "$work/shared"
fi
(cd "$top" && git ls-files -co --exclude-standard -z | xargs -0 ls -d 2>/dev/null | tar -cf - -T -) |
	tar -xf - -C "$tree"
if [ -d "$BUILD" ] && [ ! -d "$tree/build" ]; then
	mkdir -p "$tree/build"
	(cd "$BUILD" && tar -cf - --exclude='./mutate*' --exclude=./live .) | tar -xf - -C "$tree/build"
fi

# run_suites SUITES TARGETS: rebuild, run; the exit status of run-all
run_suites() {
	local suites=$1 targets=$2 log=$3
	# shellcheck disable=SC2086
	(cd "$tree" && nice make -s -j"${MUTATE_JOBS:-2}" BUILD=build $targets) >"$log" 2>&1 || return 99
	(cd "$tree" && RPCRDMA_CHECK_ONLY="$suites" BUILD="$tree/build" RPCRDMA_LIVE=0 \
		nice tests/run-all.sh) >>"$log" 2>&1
}

# the same suites must pass unmutated first (else a mutant "caught" proves nothing)
all_suites=$(for m in "${mutants[@]}"; do sed -n 's/^suites: *//p' "$m"; done | tr ' ' '\n' | sort -u | tr '\n' ' ')
all_targets=$(for m in "${mutants[@]}"; do sed -n 's/^targets: *//p' "$m"; done | tr ' ' '\n' | sort -u | tr '\n' ' ')
t=$SECONDS
if ! run_suites "$all_suites" "$all_targets" "$work/baseline.log"; then
	echo "make mutate: the unmutated tree fails its suites ($all_suites): see $work/baseline.log"
	tail -5 "$work/baseline.log"
	exit 1
fi
echo "baseline: $all_suites pass unmutated ($((SECONDS - t)) s)"

survived="" caught=0
for m in "${mutants[@]}"; do
	name=$(basename "$m" .mutant)
	head=$(python3 "$top/tests/mutate/apply.py" "$m" "$tree") || { survived="$survived $name(no-apply)"; continue; }
	eval "$head"
	t=$SECONDS
	# every mutant rebuilds the targets of all (not only its own): no
	# binary left from the mutant before it can fail, or pass, in its name
	run_suites "$suites" "$all_targets" "$work/$name.log"; rc=$?
	# put the original back (a fresh mtime: make rebuilds from it)
	cp "$top/$file" "$tree/$file"; touch "$tree/$file"
	if [ "$rc" -eq 99 ]; then
		echo "caught   $name ($file): it does not build ($((SECONDS - t)) s) -- $why"
		caught=$((caught + 1))
	elif [ "$rc" -ne 0 ]; then
		first=$(grep -m1 '^not ok\|counted as a failure' "$work/$name.log" | cut -c1-150)
		echo "caught   $name ($file, by $suites in $((SECONDS - t)) s: $first)"
		caught=$((caught + 1))
	else
		echo "SURVIVED $name ($file: $suites passed, $((SECONDS - t)) s) -- $why"
		survived="$survived $name"
	fi
done
# the copy rebuilt from the originals, for the next run
echo "${#mutants[@]} mutants, $caught caught, $((SECONDS - t0)) s in all"
if [ -n "$survived" ]; then
	echo "survived:$survived"
	exit 1
fi
echo "every mutant caught"
