#!/usr/bin/env bash
# need-builds.sh DIR...: a suite of several build outputs checks them all
# before it runs any: a missing one is a "not ok" line each, a plan, and exit
# status 1 (nothing else of the suite runs: make check builds them all, and a
# half-built tree is not worth minutes of the other half).  Prints nothing
# and exits 0 when every DIR is there.
n=0
for d in "$@"; do
	[ -d "$d" ] && continue
	n=$((n + 1))
	echo "not ok $n - $d does not exist (not built: make check builds it); the rest of this suite did not run"
done
[ "$n" -eq 0 ] && exit 0
echo "1..$n"
exit 1
