#!/bin/bash
# agree.sh CAPTURE_JSON TRACE_JSON [LOST]: the kernel's trace against the
# capture of the same run, RPC by RPC (tests/live/cases/trace.sh in the
# guest, where there is no jq; suite 37-kernel on the kept samples).
#   CAPTURE_JSON  rpcrdma-decode -r CAP --json
#   TRACE_JSON    rpcrdma-trace -r TRACE --json
#   LOST          events the trace buffer says it lost (overruns): that many
#                 more xids may be missing from the trace
# Matches the calls' xids both ways (capture -> trace, trace -> capture);
# for each xid in both: the credits the call asked (capture call header vs
# svcrdma_decode_rqst), the credits the reply granted (capture reply header
# vs xprtrdma_reply), and the chunk types (a Read list in the call <=> the
# kernel's rtype "read list" or "*read list"; a Write list <=> wtype "write
# list"; a Reply chunk <=> wtype "reply chunk").  Prints one summary line;
# exit 0 when >= 99% of the xids match both ways (LOST allowed besides) and
# nothing disagrees, 1 otherwise (the disagreements listed after it).
set -u
cap=${1:?capture json} tr=${2:?trace json} lost=${3:-0}
awk -v lost="$lost" '
# the value after "key": in this line (a number, a quoted string, or the
# raw text up to the next comma)
function val(key,    i, s) {
    i = index($0, "\"" key "\":")
    if (!i) return ""
    s = substr($0, i + length(key) + 3)
    if (substr(s, 1, 1) == "\"") { s = substr(s, 2); return substr(s, 1, index(s, "\"") - 1) }
    match(s, /^[^,}]*/)
    return substr(s, 1, RLENGTH)
}
function between(a, b,    i, j, s) {
    i = index($0, a); if (!i) return ""
    s = substr($0, i + length(a))
    j = index(s, b); if (!j) return s
    return substr(s, 1, j - 1)
}
function nsegs(s,    n) { n = gsub(/"handle"/, "", s); return n }
FNR == 1 { file++ }
file == 1 && /^\{"valid":true/ {
    x = val("xid"); d = val("direction")
    if (val("backward") == "true") next
    if (d == "call") {
        ncap++; capcall[x] = 1; capcred[x] = val("credits")
        capr[x] = nsegs(between("\"reads\":", ",\"writes\":")) > 0
        capw[x] = nsegs(between("\"writes\":", ",\"reply\":")) > 0
        caprc[x] = between(",\"reply\":", ",\"header_length\":") != "null"
    } else if (d == "reply") {
        caprep[x] = val("credits")
    }
    next
}
file == 2 && /^\{"xid":/ {
    x = val("xid"); side = val("side")
    if (side != "both" && side != "client") next
    ntr++; trcall[x] = 1
    c = between("\"call\":{", "},\"reply\":")
    asked = ""; if (index(c, "\"credits\":")) { s = substr(c, index(c, "\"credits\":") + 10); match(s, /^[0-9]+/); asked = substr(s, 1, RLENGTH) }
    rt = c; sub(/.*"rtype":"/, "", rt); sub(/".*/, "", rt)
    wt = c; sub(/.*"wtype":"/, "", wt); sub(/".*/, "", wt)
    rp = between("},\"reply\":", ",\"server\":")
    granted = ""; if (index(rp, "\"credits\":")) { s = substr(rp, index(rp, "\"credits\":") + 10); match(s, /^[0-9]+/); granted = substr(s, 1, RLENGTH) }
    tasked[x] = asked; tgrant[x] = granted; trt[x] = rt; twt[x] = wt
}
END {
    for (x in capcall) if (x in trcall) m1++; else miss1[++nm1] = x
    for (x in trcall) if (x in capcall) m2++; else miss2[++nm2] = x
    for (x in capcall) {
        if (!(x in trcall)) continue
        if (tasked[x] != "" && tasked[x] != capcred[x]) { cred++; bad[++nb] = x " credits asked: capture " capcred[x] ", trace " tasked[x] }
        if ((x in caprep) && tgrant[x] != "" && tgrant[x] != caprep[x]) { cred++; bad[++nb] = x " credits granted: capture " caprep[x] ", trace " tgrant[x] }
        tr_r = (trt[x] == "read list" || trt[x] == "*read list")
        tr_w = (twt[x] == "write list"); tr_rc = (twt[x] == "reply chunk")
        if (tr_r != capr[x] || tr_w != capw[x] || tr_rc != caprc[x]) {
            chunk++
            bad[++nb] = x " chunks: capture read " capr[x] " write " capw[x] " reply " caprc[x] ", trace " trt[x] "/" twt[x]
        }
    }
    p1 = ncap ? 100 * m1 / ncap : 0; p2 = ntr ? 100 * m2 / ntr : 0
    printf "xids: %d calls in the capture, %d in the trace; capture->trace %d (%.2f%%), trace->capture %d (%.2f%%); %d lost by the trace buffer; credit disagreements %d, chunk-type disagreements %d\n", ncap, ntr, m1, p1, m2, p2, lost, cred, chunk
    for (i = 1; i <= nb && i <= 10; i++) print "  " bad[i]
    for (i = 1; i <= nm1 && i <= 5; i++) print "  in the capture, not the trace: " miss1[i]
    for (i = 1; i <= nm2 && i <= 5; i++) print "  in the trace, not the capture: " miss2[i]
    ok = ncap > 0 && ntr > 0 && cred == 0 && chunk == 0
    ok = ok && (m1 >= 0.99 * ncap || ncap - m1 <= lost) && (m2 >= 0.99 * ntr || ntr - m2 <= lost)
    exit ok ? 0 : 1
}' "$cap" "$tr"
