#!/usr/bin/env bash
# make bench: every performance table.  Never part of make check.
set -u
build=${BUILD:-build}
here=$(cd "$(dirname "$0")" && pwd)
rc=0
"$here/bench-codec.sh" "$build" || rc=1
for extra in bench-xprt.sh bench-capture.sh bench-plugin.sh; do
	if [ -x "$here/$extra" ]; then
		echo
		"$here/$extra" "$build" || rc=1
	fi
done
exit $rc
