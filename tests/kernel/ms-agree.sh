#!/bin/bash
# ms-agree.sh TRACE_TXT CAPTURE_JSON MS_BEFORE MS_AFTER STAT_BIN [MOUNTPOINT]:
# mountstats' change between two marks against the capture.  The marks are
# trace_marker lines "rpcrdma-kview: before" and "rpcrdma-kview: after"
# written where mountstats was read (tests/kernel/guest-record.sh); the calls
# marshalled between them (their xids, from the trace) are looked up in the
# capture (rpcrdma-decode --json), and their counts must equal the change of
# the kernel's counters (rpcrdma-stat --json):
#   sends              the calls          recvs              their replies
#   read_chunk_count   Read list segments write_chunk_count  Write list segments
#   reply_chunk_count  Reply chunk segments
#   total_rdma_request the bytes the Write list and Reply chunk segments offer
# (the kernel counts segments, one per MR, in rpc_rdma.c's encoders; its
# Read list encoder adds no bytes to total_rdma_request: measured on 6.1,
# the 128 KiB Read chunk of a WRITE is not in it).
# The kernel counts a segment when it encodes it: a marshal that fails
# (xprtrdma_marshal_failed, e.g. -EAGAIN when no MR is free) and is retried
# has its first attempt's segments counted too, though they never reach the
# wire.  Those segments (the xprtrdma_chunk_* events of a task followed by
# its xprtrdma_marshal_failed, between the marks) are added to the capture's
# counts and shown apart.
# Prints one line per counter and a summary; exit 0 when all agree.
set -u
trace=${1:?} cap=${2:?} before=${3:?} after=${4:?} stat=${5:?} mnt=${6:-/mnt/kview}
xids=$(awk '/tracing_mark_write: rpcrdma-kview: before/ { on = 1; next }
            /tracing_mark_write: rpcrdma-kview: after/ { on = 0 }
            on && / xprtrdma_marshal: / { if (match($0, /xid=0x[0-9a-f]+/)) print substr($0, RSTART + 4, RLENGTH - 4) }' "$trace")
# "FAILED counter n": segments (and bytes) of the marshals that failed
failed=$(awk '/tracing_mark_write: rpcrdma-kview: before/ { on = 1; next }
            /tracing_mark_write: rpcrdma-kview: after/ { on = 0 }
            !on { next }
            function task() { return match($0, /task:[0-9a-f]+@[0-9a-f]+/) ? substr($0, RSTART, RLENGTH) : "" }
            function len() { return match($0, / [0-9]+@0x/) ? substr($0, RSTART + 1, RLENGTH - 4) + 0 : 0 }
            / xprtrdma_chunk_read: / { t = task(); r[t]++ }
            / xprtrdma_chunk_(write|wp): / { t = task(); w[t]++; b[t] += len() }
            / xprtrdma_chunk_reply: / { t = task(); rc[t]++; b[t] += len() }
            / xprtrdma_marshal: / { t = task(); delete r[t]; delete w[t]; delete rc[t]; delete b[t] }
            / xprtrdma_marshal_failed: / { t = task(); fr += r[t]; fw += w[t]; frc += rc[t]; fb += b[t]
                                           delete r[t]; delete w[t]; delete rc[t]; delete b[t] }
            END { printf "FAILED read_chunk_count %d\nFAILED write_chunk_count %d\nFAILED reply_chunk_count %d\nFAILED total_rdma_request %d\n", fr, fw, frc, fb }' "$trace")
counters() {
    "$stat" -f "$1" --json | awk -v m="$mnt" 'index($0, "\"mountpoint\":\"" m "\"") {
        n = split("sends recvs read_chunk_count write_chunk_count reply_chunk_count total_rdma_request", k, " ")
        for (i = 1; i <= n; i++) {
            j = index($0, "\"" k[i] "\":"); s = substr($0, j + length(k[i]) + 3); match(s, /^[0-9]+/)
            printf "%s %s\n", k[i], substr(s, 1, RLENGTH)
        }
        exit }'
}
{
    echo XIDS $xids
    echo "$failed"
    counters "$before" | sed 's/^/B /'
    counters "$after" | sed 's/^/A /'
    cat "$cap"
} | awk '
function between(a, b,    i, j, s) {
    i = index($0, a); if (!i) return ""
    s = substr($0, i + length(a)); j = index(s, b); if (!j) return s
    return substr(s, 1, j - 1)
}
function nsegs(s) { return gsub(/"handle"/, "", s) }
function bytes(s,    t, n) { t = 0; while (match(s, /"length":[0-9]+/)) { t += substr(s, RSTART + 9, RLENGTH - 9); s = substr(s, RSTART + RLENGTH) } return t }
$1 == "XIDS" { for (i = 2; i <= NF; i++) want[$i] = 1; nx = NF - 1; next }
$1 == "B" { b[$2] = $3; next }
$1 == "FAILED" { f[$2] = $3; next }
$1 == "A" { a[$2] = $3; next }
/^\{"valid":true/ {
    if (!match($0, /"xid":"0x[0-9a-f]+"/)) next
    x = substr($0, RSTART + 7, RLENGTH - 8)
    if (!(x in want) || index($0, "\"backward\":true")) next
    if (index($0, "\"direction\":\"call\"")) {
        if (x in seen) { retx++; next }
        seen[x] = 1
        c["sends"]++
        r = between("\"reads\":", ",\"writes\":"); w = between("\"writes\":", ",\"reply\":")
        rc = between(",\"reply\":", ",\"header_length\":")
        c["read_chunk_count"] += nsegs(r); c["write_chunk_count"] += nsegs(w); c["reply_chunk_count"] += nsegs(rc)
        c["total_rdma_request"] += bytes(w) + bytes(rc)
    } else if (index($0, "\"direction\":\"reply\"")) {
        c["recvs"]++
    }
}
END {
    n = split("sends recvs read_chunk_count write_chunk_count reply_chunk_count total_rdma_request", k, " ")
    if (!(("sends") in a) || !(("sends") in b)) { print "mountstats: no counters for the mount in the files"; exit 1 }
    bad = 0; line = ""
    for (i = 1; i <= n; i++) {
        d = a[k[i]] - b[k[i]]; expct = c[k[i]] + f[k[i]]
        printf "  %-20s mountstats +%d, capture %d%s%s\n", k[i], d, c[k[i]] + 0,
            f[k[i]] ? sprintf(" + %d of failed marshals", f[k[i]]) : "", d == expct ? "" : "  DISAGREE"
        if (d != expct) bad++
        nf += f[k[i]] && k[i] != "total_rdma_request" ? f[k[i]] : 0
        line = line sprintf("%s%s +%d", i > 1 ? ", " : "", k[i], d)
    }
    printf "mountstats deltas over %d calls between the marks (%d found in the capture, %d repeated; %d segments of failed marshals added): %s; %d disagree\n", nx, c["sends"], retx, nf, line, bad
    exit bad ? 1 : 0
}'
