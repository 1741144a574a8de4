#!/usr/bin/env python3
# bench-check.py - judges the outputs of tests/live/cases/bench.sh (in the
# guest; python3 is in the image) and prints "RESULT <id> ok|fail <text>"
# lines: rpcrdma-bench's tables have every column (man/rpcrdma-bench.1
# OUTPUT FORMAT), percentiles are ordered, the JSON parses and matches the
# tables, the client's byte and call counts equal the server's record of
# the connection (rpcrdma-echo -s --json "disconnect"), every chunk path
# the tables name was taken on the cable (the capture decoded by
# rpcrdma-decode --json), the capture passes rpcrdma-decode --check, the
# plot was written.  Never a speed.
#   bench-check.py DIR RUN...   (runs in order; the captured ones first)
import json
import os
import sys

ECHO_PROG = 0x20524D41
ECHO_PROC = 1
LAT_HEAD = " #bytes #iterations    t_min[usec]"
BW_HEAD = " #bytes     #iterations    BW peak["
WHERE_HEAD = " #bytes     call      reply     t_avg[usec]    post[usec]"


def result(rid, ok, text):
    print("RESULT %s %s %s" % (rid, "ok" if ok else "fail", text), flush=True)


def table(lines, head, ncols):
    """rows under the line starting with head: lists of fields; a row with
    another number of fields is returned too (the caller counts them)"""
    rows, on = [], False
    for ln in lines:
        if ln.startswith(head):
            on = True
            continue
        if not on:
            continue
        if ln.startswith("---") or ln.startswith(" call:") or not ln.strip():
            break
        if ln.startswith(" ("):          # "(N B: fewer outstanding ...)"
            continue
        rows.append(ln.split())
    return rows


def f2(v, d=2):
    return "%.*f" % (d, v)


def main():
    d, runs = sys.argv[1], sys.argv[2:]
    captured = [r for r in runs if r != "all"]
    txt, js, srv = {}, {}, {}
    for r in runs:
        with open(os.path.join(d, r + ".txt")) as f:
            txt[r] = f.read().splitlines()
        try:
            with open(os.path.join(d, r + ".json")) as f:
                js[r] = json.load(f)
        except (OSError, ValueError) as e:
            js[r] = e
        try:
            with open(os.path.join(d, r + ".server.json")) as f:
                srv[r] = json.loads(f.read() or "null")
        except (OSError, ValueError):
            srv[r] = None

    # tables: every column in every row of the three tables
    bad, nrows = [], 0
    for r in runs:
        lat = table(txt[r], LAT_HEAD, 9)
        bw = table(txt[r], BW_HEAD, 6)
        wh = table(txt[r], WHERE_HEAD, 9)
        if not lat or not bw or not wh:
            bad.append("%s: a table is missing (%d/%d/%d rows)" % (r, len(lat), len(bw), len(wh)))
        for name, rows, n in (("latency", lat, 9), ("throughput", bw, 6), ("where", wh, 9)):
            nrows += len(rows)
            for row in rows:
                if len(row) != n:
                    bad.append("%s %s row with %d fields: %s" % (r, name, len(row), " ".join(row)))
    result("bench-tables", not bad, "; ".join(bad[:3]) if bad else
           "%d runs, %d rows, latency 9 / throughput 6 / where 9 columns each" % (len(runs), nrows))

    # percentiles ordered: min <= typical <= 99% <= 99.9% <= max, min <= avg <= max
    bad, n = [], 0
    for r in runs:
        for row in table(txt[r], LAT_HEAD, 9):
            if len(row) != 9:
                continue
            mn, mx, typ, avg, _, p99, p999 = (float(x) for x in row[2:9])
            n += 1
            if not (mn <= typ <= p99 <= p999 <= mx and mn <= avg <= mx):
                bad.append("%s: %s" % (r, " ".join(row)))
    result("bench-percentiles", not bad and n > 0, "; ".join(bad[:3]) if bad else
           "%d latency rows: t_min <= t_typical <= 99%% <= 99.9%% <= t_max" % n)

    # JSON parses and matches the tables
    bad = []
    for r in runs:
        j = js[r]
        if isinstance(j, Exception):
            bad.append("%s.json: %s" % (r, j))
            continue
        lat = table(txt[r], LAT_HEAD, 9)
        want = [[str(e["bytes"]), str(e["iterations"])] +
                [f2(e[k]) for k in ("t_min_usec", "t_max_usec", "t_typical_usec", "t_avg_usec",
                                    "t_stdev_usec", "p99_usec", "p99_9_usec")]
                for e in j["latency"]]
        if want != lat:
            bad.append("%s: latency JSON %s, table %s" % (r, want[:1], lat[:1]))
        bw = table(txt[r], BW_HEAD, 6)
        want = [[str(e["bytes"]), str(e["iterations"]), f2(e["bw_peak"]), f2(e["bw_average"]),
                 f2(e["msg_rate_mpps"], 6), f2(e["calls_per_sec"])] for e in j["throughput"]]
        if want != bw:
            bad.append("%s: throughput JSON %s, table %s" % (r, want[:1], bw[:1]))
        wh = table(txt[r], WHERE_HEAD, 9)
        want = [[str(e["bytes"]),
                 e["call_path"] + ("*" if len(e["call_paths"]) > 1 else ""),
                 e["reply_path"] + ("*" if len(e["reply_paths"]) > 1 else ""),
                 f2(e["t_avg_usec"]), f2(e["post_usec"]), f2(e["reg_usec"]),
                 f2(e["reg_pct"], 1),
                 f2(e["inv_usec"]), f2(e["inv_pct"], 1)] for e in j["where"]]
        if want != wh:
            bad.append("%s: where JSON %s, table %s" % (r, want[:1], wh[:1]))
    result("bench-json", not bad, "; ".join(bad[:2]) if bad else
           "%d JSON files parse; every latency, throughput and where row equals the table's" % len(runs))

    # counts: the client's against the server's record of the connection
    bad, lines = [], []
    for r in runs:
        j, s = js[r], srv[r]
        if isinstance(j, Exception) or not s:
            bad.append("%s: %s" % (r, "no JSON" if isinstance(j, Exception) else
                                   "no server record of the connection"))
            continue
        c, t = j["counts"], s["transport"]
        pairs = (("calls sent / received", c["calls_sent"], t["calls_received"]),
                 ("replies", c["replies_received"], t["replies_sent"]),
                 ("Send bytes client->server", c["bytes_sent"], t["bytes_received"]),
                 ("Send bytes server->client", c["bytes_received"], t["bytes_sent"]),
                 ("NULL + ECHO calls", c["bench_calls"], s["null"] + s["echo"]),
                 ("ECHO data bytes", c["data_bytes_sent"], s["echo_bytes"]))
        for what, a, b in pairs:
            if a != b:
                bad.append("%s: %s: client %d, server %d" % (r, what, a, b))
        paths = set()
        for e in j["where"]:
            paths |= set(e["call_paths"]) | set(e["reply_paths"])
        if r != "all" and paths == {"inline"} and (t["rdma_read_bytes"] or t["rdma_write_bytes"]):
            bad.append("%s: inline only, yet the server moved %d/%d bytes by RDMA Read/Write"
                       % (r, t["rdma_read_bytes"], t["rdma_write_bytes"]))
        if r != "all" and "read" in paths and t["rdma_read_bytes"] != c["data_bytes_sent"]:
            bad.append("%s: read chunks: the server read %d bytes, the calls carried %d"
                       % (r, t["rdma_read_bytes"], c["data_bytes_sent"]))
        if r != "all" and "write" in paths and t["rdma_write_bytes"] != c["data_bytes_received"]:
            bad.append("%s: write chunks: the server wrote %d bytes, the replies carried %d"
                       % (r, t["rdma_write_bytes"], c["data_bytes_received"]))
        lines.append("%s %d calls" % (r, c["calls_sent"]))
    result("bench-counts", not bad, "; ".join(bad[:3]) if bad else
           "client and server agree on calls, replies, Send bytes, ECHO bytes and "
           "RDMA bytes (%s)" % ", ".join(lines))

    # paths on the cable: the capture's ECHO calls and replies per connection
    # (a connection with an ECHO-program message is one of ours: RoCE has
    # queue pairs where TCP has ports)
    bad, seen_txt = [], []
    convs = {}
    try:
        with open(os.path.join(d, "capture.jsonl")) as f:
            for ln in f:
                try:
                    m = json.loads(ln)
                except ValueError:
                    continue
                if "type" in m:     # not a message (connection, lost)
                    continue
                convs.setdefault(m.get("conversation"), []).append(m)
    except OSError as e:
        bad.append("no decoded capture: %s" % e)
    convs = {k: v for k, v in convs.items()
             if any((m.get("rpc") or {}).get("prog") == ECHO_PROG for m in v)}
    order = sorted(convs, key=lambda k: min(m.get("frame", 0) for m in convs[k]))
    if not bad and len(order) != len(captured):
        bad.append("%d ECHO connections in the capture, %d captured runs"
                   % (len(order), len(captured)))
    for r, conv in zip(captured, order):
        j = js[r]
        if isinstance(j, Exception):
            continue
        echo_xids, calls, replies = set(), set(), set()
        for m in convs[conv]:
            rpc = m.get("rpc") or {}
            if m.get("direction") == "call" and not m.get("backward") and \
               rpc.get("prog") == ECHO_PROG and rpc.get("proc") == ECHO_PROC:
                echo_xids.add(m.get("xid"))
                reads = m.get("reads") or []
                if not reads:
                    calls.add("inline")
                elif any(s.get("position") == 0 for s in reads):
                    calls.add("pos0")
                else:
                    calls.add("read")
        for m in convs[conv]:
            if m.get("direction") != "reply" or m.get("xid") not in echo_xids:
                continue
            if m.get("proc_name") in ("RDMA_NOMSG", "RDMA2_NOMSG"):
                replies.add("reply")
            elif any(w for w in (m.get("writes") or [])):
                replies.add("write")
            else:
                replies.add("inline")
        want_c, want_r = set(), set()
        for e in j["where"]:
            want_c |= set(e["call_paths"])
            want_r |= set(e["reply_paths"])
        if calls != want_c or replies != want_r:
            bad.append("%s: the table says calls %s replies %s, the capture shows calls %s "
                       "replies %s" % (r, sorted(want_c), sorted(want_r), sorted(calls),
                                       sorted(replies)))
        n_echo = j["counts"]["bench_calls"] - 1
        if len(echo_xids) != n_echo:
            bad.append("%s: %d ECHO calls in the capture, %d made" % (r, len(echo_xids), n_echo))
        seen_txt.append("%s: %s/%s" % (r, "+".join(sorted(calls)), "+".join(sorted(replies))))
    result("bench-paths", not bad, "; ".join(bad[:3]) if bad else
           "the capture (rpcrdma-decode) shows the paths the tables name, every ECHO call "
           "on the cable (%s)" % ", ".join(seen_txt))

    # the capture passes rpcrdma-decode --check
    status = None
    try:
        with open(os.path.join(d, "runs.log")) as f:
            for ln in f:
                if ln.startswith("check exit "):
                    status = int(ln.split()[2])
        with open(os.path.join(d, "check.txt")) as f:
            check = f.read().strip().splitlines()
    except (OSError, ValueError):
        check = []
    result("bench-lint", status == 0, "rpcrdma-decode --check: no violation in the bench "
           "connections" if status == 0 else "rpcrdma-decode --check exit %s: %s"
           % (status, " | ".join(check[:3])))

    # the plot
    plots = [f for f in os.listdir(d) if f.startswith("bench-") and f.endswith(".svg")]
    ok = False
    for p in plots:
        with open(os.path.join(d, p), errors="replace") as f:
            ok = "<svg" in f.read()
    result("bench-plot", ok, ("%s written by gnuplot" % plots[0]) if ok else
           "no SVG plot written (%s)" % (plots or "none"))


if __name__ == "__main__":
    main()
