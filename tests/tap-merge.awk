# tap-merge.awk - merge TAP streams (one file each) into one, renumbered,
# with one plan at the end.  A stream that ends without its plan, plans 0
# tests, or runs a number of tests other than its plan adds a "not ok" line
# naming it: a stream that stopped early, or was never produced, cannot
# pass unseen.   awk -f tests/tap-merge.awk STREAM...
function check_stream() {
	if (file == "") return
	if (plan == "")
		printf "not ok %d - %s: ended without a plan (1..N) after %d tests\n", ++n, label(file), ran
	else if (plan != "skip" && (plan + 0 == 0 || plan + 0 != ran))
		printf "not ok %d - %s: planned %d tests, ran %d\n", ++n, label(file), plan, ran
}
function label(f) { sub(/^.*\//, "", f); return f }
FNR == 1 { check_stream(); file = FILENAME; seen[FILENAME] = 1; plan = ""; ran = 0 }
/^(not )?ok [0-9]+/ {
	ran++; n++; line = $0
	sub(/ok [0-9]+/, "ok " n, line); print line; next
}
/^1\.\.0 # (SKIP|skip)/ { plan = "skip"; printf "ok %d - %s # SKIP %s\n", ++n, label(FILENAME), substr($0, index($0, "SKIP") + 5); next }
/^1\.\.[0-9]+/ { p = $0; sub(/^1\.\./, "", p); sub(/ .*/, "", p); plan = p; next }
{ print }
END {
	check_stream()
	# an empty file has no first line: name every stream given
	for (i = 1; i < ARGC; i++)
		if (ARGV[i] != "" && !(ARGV[i] in seen))
			printf "not ok %d - %s: printed nothing\n", ++n, label(ARGV[i])
	print "1.." n
}
