#!/usr/bin/env bash
# Every libFuzzer target for 100k inputs, so that a crash fails CI; then the
# runner's own tests (tests/fuzz/run.bats, over stand-in targets).  Every
# tests/fuzz/fuzz_*.c must have its target built: a missing one is a
# failure, not a shorter list.  One TAP stream (tests/tap-merge.awk).
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
missing=0
for s in "$TOP"/tests/fuzz/fuzz_*.c; do
	t=$(basename "$s" .c)
	if [ ! -x "$BUILD/fuzz/$t" ]; then
		missing=$((missing + 1))
		echo "not ok $missing - $t: no fuzz target $BUILD/fuzz/$t for $s (not built)"
	fi
done > "$tmp/missing"
echo "1..$missing" >> "$tmp/missing"
# a target missing: the build is not what make check builds; nothing else runs
if [ "$missing" -gt 0 ]; then
	cat "$tmp/missing"; exit 1
fi
"$TOP/tests/fuzz/run.sh" -runs=100000 > "$tmp/fuzz" 2>&1
rc=$?
bats --tap "$TOP/tests/fuzz/run.bats" > "$tmp/bats" 2>&1 || rc=1
awk -f "$TOP/tests/tap-merge.awk" "$tmp/fuzz" "$tmp/bats"
exit $rc
