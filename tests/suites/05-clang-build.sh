#!/usr/bin/env bash
# The library and tools build with clang too, -Wall -Wextra -Werror (the
# default build, and so every other suite, uses gcc).
set -u
cd "$TOP" || exit 2
out=$BUILD/clang
if ! command -v clang >/dev/null; then
	# scripts/deps.sh installs clang (the fuzz targets need it too)
	echo "not ok 1 - clang build: clang not installed (scripts/deps.sh installs it)"; echo "1..1"; exit 1
fi
if log=$(make -s BUILD="$out" CC=clang all 2>&1); then
	echo "ok 1 - make CC=clang: library, tools and plugin build with -Werror"
else
	echo "not ok 1 - make CC=clang"
	printf '%s\n' "$log" | tail -20 | sed 's/^/# /'
	echo "1..1"; exit 1
fi
echo "1..1"
