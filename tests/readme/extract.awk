# tests/readme/extract.awk - the command examples of README.md, one file set
# per example in DIR (awk -v dir=DIR -f extract.awk README.md):
#   NNN.cmd   the command as the README writes it (continuation lines kept)
#   NNN.shown   the output the README shows under it (may be empty)
#   NNN.meta  "LINE KIND" -- README line; KIND is "block" (a "$ " line of a
#             fenced block), "inline" (a code span in the prose that runs
#             something: rpcrdma-* with a file, an address or an interface)
#             or "output" (a fenced block that shows the output of a command
#             run elsewhere; NNN.cmd is then that command, from the mark)
#   NNN.skip  the reason, for an example the README test does not run
# Marks (an HTML comment, invisible when rendered, on the line before a fence):
#   <!-- test: not run: REASON -->          the block is not run
#   <!-- test: output of: CMD [after Ctrl-C] -->  the block is CMD's output
# A fenced block with neither a "$ " line nor a mark is an error (NNN.meta
# KIND "unmarked"): a new example must say how it is tested.
function emit(kind, line, cmd, shown, skip,    f) {
    n++
    f = sprintf("%s/%03d", dir, n)
    printf "%s", cmd > (f ".cmd"); close(f ".cmd")
    printf "%s", shown > (f ".shown"); close(f ".shown")
    printf "%d %s\n", line, kind > (f ".meta"); close(f ".meta")
    if (skip != "") { printf "%s\n", skip > (f ".skip"); close(f ".skip") }
}
function quotes_open(s,    t) { t = s; return gsub(/'/, "", t) % 2 }
function flush_block(    i, l, cmd, shown, start, any) {
    any = 0
    if (mark ~ /^output of: /) {
        cmd = substr(mark, 12)
        shown = ""
        for (i = 1; i <= nb; i++) shown = shown body[i] "\n"
        emit("output", bline, cmd, shown, "")
        return
    }
    i = 1
    while (i <= nb) {
        l = body[i]
        if (l ~ /^\$ /) {
            any = 1
            start = bline + i
            cmd = substr(l, 3)
            while ((cmd ~ /[|\\][ \t]*$/ || quotes_open(cmd)) && i < nb) {
                i++
                cmd = cmd "\n" body[i]
            }
            shown = ""
            i++
            while (i <= nb && body[i] !~ /^\$ /) { shown = shown body[i] "\n"; i++ }
            emit("block", start, cmd, shown, mark ~ /^not run: / ? substr(mark, 10) : "")
            continue
        }
        i++
    }
    if (!any) {
        if (mark ~ /^not run: /)
            emit("block", bline, "", "", substr(mark, 10))
        else
            emit("unmarked", bline, "", "", "")
    }
}
BEGIN { n = 0; infence = 0; mark = ""; prev = "" }
{
    if (!infence && $0 ~ /^```/) {
        infence = 1; nb = 0; bline = NR
        mark = ""
        if (prev ~ /^<!-- test: .* -->$/) {
            mark = prev
            sub(/^<!-- test: /, "", mark); sub(/ -->$/, "", mark)
        }
        prev = $0
        next
    }
    if (infence && $0 ~ /^```/) { infence = 0; flush_block(); prev = $0; next }
    if (infence) { body[++nb] = $0; prev = $0; next }
    # code spans in the prose that run something
    s = $0
    while (match(s, /`[^`]+`/)) {
        c = substr(s, RSTART + 1, RLENGTH - 2)
        s = substr(s, RSTART + RLENGTH)
        if (c ~ /^rpcrdma-[a-z]+ / && (c ~ / -r / || c ~ /198\.18\.|SERVER|HOST| -i /))
            emit("inline", NR, c, "", "")
    }
    prev = $0
}
