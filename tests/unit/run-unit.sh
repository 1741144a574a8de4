#!/usr/bin/env bash
# run-unit.sh DIR [PREFIX] [SRCDIR]: run every test_* binary in DIR (from the
# repo root, so relative data paths work) and merge their TAP into one stream.
#
# Nothing vanishes quietly: a missing DIR, a DIR without test binaries, a
# binary for a SRCDIR/test_*.c source that is not there, a binary that ends
# without its plan or runs fewer tests than it planned, or that exits
# non-zero, each is a "not ok" line and the exit status is 1.
set -u
dir=$1 prefix=${2:-} srcdir=${3:-}
cd "$TOP" || exit 2
n=0 rc=0
notok() { n=$((n + 1)); echo "not ok $n - $prefix$*"; rc=1; }
shopt -s nullglob
bins=()
for t in "$dir"/test_*; do [ -x "$t" ] && [ -f "$t" ] && bins+=("$t"); done
if [ ! -d "$dir" ]; then
	notok "$dir does not exist (not built: make check builds it)"
elif [ ${#bins[@]} -eq 0 ]; then
	notok "$dir has no test_* binary (not built: make check builds it)"
fi
if [ -n "$srcdir" ]; then
	for s in "$srcdir"/test_*.c; do
		b=$(basename "$s" .c)
		[ -x "$dir/$b" ] || notok "$b: no binary $dir/$b for $s (not built)"
	done
fi
for t in "${bins[@]}"; do
	name=$(basename "$t")
	out=$("$t" 2>&1); trc=$?
	ran=0 plan=
	while IFS= read -r line; do
		case $line in
		"ok "*|"not ok "*)
			n=$((n + 1)); ran=$((ran + 1))
			status=${line%% [0-9]*}
			desc=${line#* - }
			echo "$status $n - $prefix$name: $desc" ;;
		"1.."*" # SKIP"*) n=$((n + 1)); plan=skip; echo "ok $n - $prefix$name # SKIP ${line#*# SKIP }" ;;
		"1.."*) plan=${line#1..}; plan=${plan%% *} ;;
		*) echo "$line" ;;
		esac
	done <<<"$out"
	if [ "$trc" -ne 0 ] && ! grep -q '^not ok' <<<"$out"; then
		notok "$name exited $trc"
	fi
	[ "$trc" -ne 0 ] && rc=1
	if [ -z "$plan" ]; then
		notok "$name ended without a plan (1..N) after $ran tests (exit status $trc)"
	elif [ "$plan" != skip ] && { [ "$plan" = 0 ] || [ "$plan" != "$ran" ]; }; then
		notok "$name planned $plan tests and ran $ran"
	fi
done
echo "1..$n"
exit $rc
