#!/usr/bin/env bash
# run-unit.sh DIR [PREFIX]: run every test_* binary in DIR (from the repo
# root, so relative data paths work) and merge their TAP into one stream.
set -u
dir=$1 prefix=${2:-}
cd "$TOP" || exit 2
n=0 rc=0
for t in "$dir"/test_*; do
	[ -x "$t" ] || continue
	name=$(basename "$t")
	out=$("$t" 2>&1); trc=$?
	while IFS= read -r line; do
		case $line in
		"ok "*|"not ok "*)
			n=$((n + 1))
			status=${line%% [0-9]*}
			desc=${line#* - }
			echo "$status $n - $prefix$name: $desc" ;;
		"1.."*" # SKIP"*) n=$((n + 1)); echo "ok $n - $prefix$name # SKIP ${line#*# SKIP }" ;;
		"1.."*) ;;
		*) echo "$line" ;;
		esac
	done <<<"$out"
	if [ "$trc" -ne 0 ] && ! grep -q '^not ok' <<<"$out"; then
		n=$((n + 1)); echo "not ok $n - $prefix$name exited $trc"; rc=1
	fi
	[ "$trc" -ne 0 ] && rc=1
done
echo "1..$n"
exit $rc
