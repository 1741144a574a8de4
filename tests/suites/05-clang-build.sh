#!/usr/bin/env bash
# The library and tools build with clang too, -Wall -Wextra -Werror (the
# default build, and so every other suite, uses gcc).  At -O0 without -g:
# clang's warnings come from its front end (Sema), not from its optimizer, so
# they are the same at -O2; the build costs 39 CPU-s instead of 58.
set -u
cd "$TOP" || exit 2
out=$BUILD/clang
if ! command -v clang >/dev/null; then
	# scripts/deps.sh installs clang (the fuzz targets need it too)
	echo "not ok 1 - clang build: clang not installed (scripts/deps.sh installs it)"; echo "1..1"; exit 1
fi
if log=$(make -s BUILD="$out" CC=clang OPT=-O0 all 2>&1); then
	echo "ok 1 - make CC=clang OPT=-O0: library, tools and plugin build with -Werror"
else
	echo "not ok 1 - make CC=clang"
	printf '%s\n' "$log" | tail -20 | sed 's/^/# /'
	echo "1..1"; exit 1
fi
echo "1..1"
