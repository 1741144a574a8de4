#!/usr/bin/env python3
"""stats.py - `tshark -q -z rpcrdma,stat` against the same numbers computed from rpcrdma-decode --json.

  stats.py TAP.txt DECODE.jsonl [EXCLUDE]

Per conversation (matched as a multiset: the two tools may number them
differently): messages, forward and backward calls and replies, and the
credits granted by forward and by backward replies (min, max, last).
Frames listed in EXCLUDE (CRC-corrupt ones rpcrdma-decode drops) are
ignored.  Prints the conversations compared; exits 1 on a difference.
"""
import json
import re
import sys


def from_tap(path):
    convs, cur = [], None
    for line in open(path):
        if line.startswith("conversation "):
            cur = {"msgs": 0, "calls": 0, "replies": 0, "bcalls": 0,
                   "breplies": 0, "granted": None, "bgranted": None}
            convs.append(cur)
            continue
        if cur is None:
            continue
        m = re.match(r"\s+messages\s+(\d+)", line)
        if m:
            cur["msgs"] = int(m.group(1))
        m = re.match(r"\s+directions\s+calls (\d+), replies (\d+), backward "
                     r"calls (\d+), backward replies (\d+)", line)
        if m:
            (cur["calls"], cur["replies"], cur["bcalls"],
             cur["breplies"]) = map(int, m.groups())
        m = re.match(r"\s+(credits|backward) granted\s+min (\d+), max (\d+), "
                     r"last (\d+)", line)
        if m:
            key = "granted" if m.group(1) == "credits" else "bgranted"
            cur[key] = tuple(map(int, m.groups()[1:]))
    return convs


def from_json(path, exclude):
    convs = {}
    for line in open(path):
        if not line.strip():
            continue
        o = json.loads(line)
        if "frame" not in o or "type" in o or o["frame"] in exclude:
            continue
        c = convs.setdefault(o.get("conversation"), {
            "msgs": 0, "calls": 0, "replies": 0, "bcalls": 0,
            "breplies": 0, "granted": None, "bgranted": None})
        c["msgs"] += 1
        back = bool(o.get("backward"))
        d = o.get("direction")
        if d == "call":
            c["bcalls" if back else "calls"] += 1
        elif d == "reply":
            c["breplies" if back else "replies"] += 1
            key = "bgranted" if back else "granted"
            v = o["credits"]
            g = c[key]
            c[key] = (v, v, v) if g is None else (min(g[0], v), max(g[1], v), v)
    return list(convs.values())


def main():
    if len(sys.argv) not in (3, 4):
        sys.stderr.write(__doc__)
        return 2
    exclude = set()
    if len(sys.argv) == 4:
        exclude = {int(x) for x in open(sys.argv[3]).read().split()}
    tap = from_tap(sys.argv[1])
    dec = from_json(sys.argv[2], exclude)
    key = lambda c: json.dumps(c, sort_keys=True)
    a, b = sorted(map(key, tap)), sorted(map(key, dec))
    if a != b:
        print("tshark -z rpcrdma,stat:", *a, sep="\n  ")
        print("rpcrdma-decode --json:", *b, sep="\n  ")
        return 1
    print("%d conversations, %d messages agree"
          % (len(a), sum(c["msgs"] for c in tap)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
