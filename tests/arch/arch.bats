#!/usr/bin/env bats
# arch.bats - the house's shape, measured from the code by
# tests/arch/callgraph.py (the file-level call graph of a directory and its
# circles: strongly connected components): the script's own grading on
# fixtures built to pass and to fail, then the limits of issue 23 on the
# tree (no call circle of more than 3 files; no file over 600 lines, no
# function over 120): tools/transport and tools/capture by name, then every
# directory of tools/ and dissector/.

load /usr/lib/bats/bats-support/load.bash
load /usr/lib/bats/bats-assert/load.bash

: "${TOP:=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)}"
CG=$TOP/tests/arch/callgraph.py
FX=$TOP/tests/arch/fixtures

# ---- the grader, on fixtures ----
@test "callgraph: a 4-file circle a->b->c->d->a is found and fails --max-circle 3" {
	run python3 "$CG" --max-circle 3 "$FX/circle4"
	assert_failure 1
	assert_line --partial "largest 4 files"
	assert_line "  circle of 4 files, 4 arrows inside: a.c b.c c.c d.c"
	assert_line "    d.c -> a.c: a1"
	assert_line --partial "FAIL: a circle of 4 files (at most 3 allowed)"
}

@test "callgraph: a 3-file circle passes --max-circle 3; members, tags, statics, comments, strings and macros are no arrows" {
	run python3 "$CG" --edges --max-circle 3 "$FX/circle3"
	assert_success
	assert_line --partial "4 files, 4 arrows, 1 circle, largest 3 files"
	assert_line "  circle of 3 files, 3 arrows inside: a.c b.c c.c"
	assert_line "  arrow d.c -> a.c: a1"
	refute_output --partial "-> d.c"
	refute_output --partial "FAIL"
}

@test "callgraph: a comment or a string naming a function is no arrow" {
	run python3 "$CG" --edges "$FX/circle4"
	assert_success
	refute_line "  arrow b.c -> a.c: a1"
	refute_line "  arrow c.c -> b.c: b1"
}

@test "callgraph: a function and a file over the limits are named; at the limit they pass" {
	run python3 "$CG" --max-func-lines 4 --max-file-lines 7 "$FX/long"
	assert_failure 1
	assert_line --partial "long/f.c:2: FAIL: five() is 5 lines (at most 4)"
	assert_line --partial "long/f.c: FAIL: 8 lines (at most 7)"
	refute_output --partial "three()"
	run python3 "$CG" --max-func-lines 5 --max-file-lines 8 "$FX/long"
	assert_success
}

@test "callgraph: a missing directory is a usage error" {
	run python3 "$CG" "$FX/no-such-dir"
	assert_failure 2
	assert_output --partial "not a directory"
}

# ---- the tree (issue 23) ----
@test "tools/capture: no call circle of more than 3 files" {
	run python3 "$CG" --max-circle 3 "$TOP/tools/capture"
	echo "$output"
	assert_success
}

@test "tools/capture and tools/decode: no file over 600 lines, no function over 120" {
	run python3 "$CG" --max-file-lines 600 --max-func-lines 120 "$TOP/tools/capture" "$TOP/tools/decode"
	echo "$output"
	assert_success
	refute_output --partial "FAIL"
}

@test "tools/transport: no call circle of more than 3 files" {
	run python3 "$CG" --max-circle 3 "$TOP/tools/transport"
	echo "$output"
	assert_success
}

@test "tools/transport: no file over 600 lines, no function over 120" {
	run python3 "$CG" --max-file-lines 600 --max-func-lines 120 "$TOP/tools/transport"
	echo "$output"
	assert_success
	refute_output --partial "FAIL"
}

# every directory of tools/ (a new one counts without an edit here) and dissector/
arch_dirs() {
	local d
	for d in "$TOP"/tools/*/ "$TOP/dissector/"; do
		ls "$d"*.[ch] > /dev/null 2>&1 && echo "${d%/}"
	done
}

@test "every directory of tools/ and dissector/: no call circle of more than 3 files" {
	local dirs
	dirs=$(arch_dirs)
	[ "$(wc -l <<< "$dirs")" -ge 10 ]
	# one run per directory: a circle is a directory's (arrows across are not seen)
	for d in $dirs; do
		run python3 "$CG" --max-circle 3 "$d"
		echo "$output"
		assert_success
	done
}

@test "every directory of tools/ and dissector/: no file over 600 lines, no function over 120" {
	run python3 "$CG" --max-file-lines 600 --max-func-lines 120 $(arch_dirs)
	echo "$output"
	assert_success
	refute_output --partial "FAIL"
}

@test "docs/architecture.md's transport table names every file of tools/transport, and no other" {
	local f doc
	doc=$(sed -n '/^### The transport/,/^### rpcrdma-ping/p' "$TOP/docs/architecture.md")
	for f in "$TOP"/tools/transport/*.[ch]; do
		f=${f##*/}
		[[ $doc == *"\`$f\`"* || $doc == *"\`${f%.[ch]}.[ch]\`"* ]] ||
			{ echo "not in the table: $f"; return 1; }
	done
	for f in $(grep -o '`xprt[a-z_]*\.[ch]`\|`xprt[a-z_]*\.\[ch\]`' <<< "$doc" | tr -d '`' | sort -u); do
		case $f in
		*.\[ch\]) ls "$TOP/tools/transport/${f%.\[ch\]}".[ch] > /dev/null 2>&1 ;;
		*) [ -e "$TOP/tools/transport/$f" ] ;;
		esac || { echo "in the table, not in the tree: $f"; return 1; }
	done
}
