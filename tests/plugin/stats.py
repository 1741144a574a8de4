#!/usr/bin/env python3
"""stats.py - `tshark -q -z rpcrdma,stat` against the same numbers computed from rpcrdma-decode --json.

  stats.py TAP.txt DECODE.jsonl [EXCLUDE]

Per conversation (matched as a multiset: the two tools may number them
differently): messages, Version Two messages of a later draft's layout
(counted, not decoded: no direction, credits or chunks), forward and backward calls and replies, the
credits granted by forward and by backward replies (min, max, last), and
the chunks as advertised: messages with a read list, a write list, a reply
chunk, their bytes and the largest.
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
            cur = {"msgs": 0, "later": 0, "calls": 0, "replies": 0, "bcalls": 0,
                   "breplies": 0, "granted": None, "bgranted": None,
                   "read": (0, 0, 0), "write": (0, 0, 0), "reply": (0, 0, 0)}
            convs.append(cur)
            continue
        if cur is None:
            continue
        m = re.match(r"\s+messages\s+(\d+)", line)
        if m:
            cur["msgs"] = int(m.group(1))
        m = re.match(r"\s+later draft layout\s+(\d+)", line)
        if m:
            cur["later"] = int(m.group(1))
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
        m = re.match(r"\s+(read|write|reply) chunks\s+(\d+)(?:, (\d+) bytes, "
                     r"mean \d+, max (\d+))?\s*$", line)
        if m:
            cur[m.group(1)] = tuple(int(x or 0) for x in m.groups()[1:])
    return convs


def chunk_add(c, key, segs):
    n, b, mx = c[key]
    size = sum(s["length"] for s in segs)
    c[key] = (n + 1, b + size, max(mx, size))


def from_json(path, exclude):
    convs = {}
    for line in open(path):
        if not line.strip():
            continue
        o = json.loads(line)
        if "frame" not in o or "type" in o or o["frame"] in exclude:
            continue
        c = convs.setdefault(o.get("conversation"), {
            "msgs": 0, "later": 0, "calls": 0, "replies": 0, "bcalls": 0,
            "breplies": 0, "granted": None, "bgranted": None,
            "read": (0, 0, 0), "write": (0, 0, 0), "reply": (0, 0, 0)})
        c["msgs"] += 1
        if o.get("draft", "cel-01") != "cel-01":
            c["later"] += 1
            continue
        if o.get("reads"):
            chunk_add(c, "read", o["reads"])
        if o.get("writes"):
            chunk_add(c, "write", [s for ch in o["writes"] for s in ch])
        if o.get("reply") is not None:
            chunk_add(c, "reply", o["reply"])
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
