#!/usr/bin/env python3
# keys.py - rpcrdma-decode --redact=keys graded (suite 33-redact).  Usage:
#   keys.py A.json B.json
# A: rpcrdma-decode --json of originals, B: of their copies redacted with
# --redact=keys.  Prints one line "RECORDS DIFFER SEGMENTS KEPT INCONSISTENT":
# records that differ once every segment's handle and offset are left out
# (the chunk data must still be matched to its segments: "chunk_data"),
# segments whose (handle, offset) is the original's, and original handles
# that became more than one handle.
import json
import sys


def load(path):
    recs, segs = [], []
    for line in open(path):
        d = json.loads(line)
        for k in ('file', 'time', 'latency_us'):
            d.pop(k, None)
        if isinstance(d.get('rpc'), dict):
            d['rpc'].pop('latency_us', None)
        for key in ('reads', 'writes', 'reply'):
            v = d.get(key) or []
            for s in (v if key != 'writes' else [s for c in v for s in c]):
                segs.append((s.pop('handle', None), s.pop('offset', None)))
        recs.append(d)
    return recs, segs


a, sa = load(sys.argv[1])
b, sb = load(sys.argv[2])
differ = sum(x != y for x, y in zip(a, b)) + abs(len(a) - len(b))
orig = set(sa)
kept = sum(1 for s in sb if s in orig)
m, bad = {}, 0
for x, y in zip(sa, sb):
    bad += m.setdefault(x[0], y[0]) != y[0]
print(len(a), differ, len(sa), kept, bad)
