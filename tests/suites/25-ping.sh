#!/usr/bin/env bash
# 25-ping.sh - rpcrdma-ping: the unit tests of its pure parts (plain and
# under ASan+UBSan) and, once the tool is built, its command line
# (tests/cli/ping.bats).  TAP.
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
export TOP BUILD=${BUILD:-$TOP/build} BIN=${BIN:-${BUILD:-$TOP/build}/bin}
out=$("$TOP/tests/unit/run-unit.sh" "$BUILD/ping-unit" "plain ")
rc=$?
out+=$'\n'$("$TOP/tests/unit/run-unit.sh" "$BUILD/ping-asan" "asan ")
rc=$((rc | $?))
if [ -x "$BIN/rpcrdma-ping" ]; then
	out+=$'\n'$(bats --tap "$TOP/tests/cli/ping.bats")
	rc=$((rc | $?))
fi
# one TAP stream: renumber, one plan
n=0
while IFS= read -r line; do
	case $line in
	"ok "*|"not ok "*)
		n=$((n + 1))
		status=${line%% [0-9]*}
		echo "$status $n ${line#* [0-9]* }" ;;
	"1.."*) ;;
	*) echo "$line" ;;
	esac
done <<<"$out"
echo "1..$n"
exit $rc
