#!/bin/bash
# doc-table.sh LIST_JSON DOC: rewrite the case table of docs/conformance.md
# ("## The cases" up to the next "## ") from `rpcrdma-conform --list --json`,
# so that the page lists every case (tests/cli/conform.bats checks it).
# make conform-doc runs it.
set -euo pipefail
list=${1:?rpcrdma-conform --list --json output} doc=${2:?docs/conformance.md}
table=$(awk '
    function get(k,   v) {
        if (!match($0, "\"" k "\":(\"[^\"]*\"|null|true|false)")) return ""
        v = substr($0, RSTART + length(k) + 3, RLENGTH - length(k) - 3)
        if (v == "null" || v == "false") return ""
        sub(/^"/, "", v); sub(/"$/, "", v); gsub(/\|/, "\\|", v)
        return v
    }
    {
        d = get("draft")
        if (d != cur) {
            cur = d
            printf "\n### %s\n\n", d == "V1" ? "Version One" : d == "V2" ? "Version Two" : "Bi-directional"
            print "| case | rule | keyword (or our reading) | what the rule requires | requirements | passes | allowed (why) | needs |"
            print "|---|---|---|---|---|---|---|---|"
        }
        needs = ""
        if (match($0, /"needs":\[[^]]*\]/)) {
            needs = substr($0, RSTART + 9, RLENGTH - 10); gsub(/"/, "", needs); gsub(/,/, ", ", needs)
        }
        if (get("fresh_connection") == "true")
            needs = needs (needs == "" ? "" : ", ") "own connection"
        allowed = get("allowed")
        if (allowed != "") allowed = allowed " (" get("allowed_why") ")"
        kw = get("decision") != "" ? get("decision") : get("level")
        printf "| `%s` | %s | %s | %s | %s | %s | %s | %s |\n", get("case"), get("section"), kw,
            get("text"), get("requirements"), get("pass"), allowed, needs
    }' "$list")
awk -v table="$table" 'BEGIN { sub(/^\n/, "", table) }
    /^## The cases/ { print; incase = 1; next }
    incase && /^### / && !done { print table; done = 1; skip = 1; next }
    skip && /^## / { skip = 0; incase = 0; print ""; print; next }
    skip { next }
    { print }' "$doc" > "$doc.tmp"
mv "$doc.tmp" "$doc"
# the section "## Requirements: a case, a lint rule, or why neither" (up to
# the next "## "): the catalogue's rows no case checks and the summary per
# party, from docs/requirements.tsv and the same list (req-doc.sh --coverage)
here=$(cd "$(dirname "$0")" && pwd)
cover=$("$here/req-doc.sh" "$here/../../docs/requirements.tsv" "$list" --coverage)
awk -v cover="$cover" '
    /^## Requirements: / { print; print ""; print cover; skip = 1; next }
    skip && /^## / { skip = 0; print ""; print; next }
    skip { next }
    { print }' "$doc" > "$doc.tmp"
mv "$doc.tmp" "$doc"
