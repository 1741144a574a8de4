#!/usr/bin/env python3
"""addresses.py ORIG.json RED.json ORIG RED [ORIG RED ...] - grades
rpcrdma-decode --redact=addresses (tests/suites/33-redact.sh): the copies'
--json records equal the originals' but for file, time, latency and the
IP addresses (and GIDs) themselves; those mapped one to one (the same
original always the same replacement, two originals never one, none kept);
the same number of conversations; and no original address (4 bytes for
IPv4, 16 for IPv6, the IPv4 ones also as IPv4-mapped GIDs) anywhere in the
copies' bytes.  Prints one line of counts:
  records differing conversations_orig conversations_red addresses
  mapped_two_ways kept found_in_bytes"""
import ipaddress
import json
import sys

DROP = ("file", "time")


def addr(v):
    if not isinstance(v, str):
        return None
    try:
        return ipaddress.ip_address(v)
    except ValueError:
        return None


def strip(o, found):
    """o without file/time/latency; addresses replaced by a marker and
    collected in found (in order)"""
    if isinstance(o, dict):
        return {k: strip(v, found) for k, v in o.items()
                if k not in DROP and "latency" not in k}
    if isinstance(o, list):
        return [strip(v, found) for v in o]
    a = addr(o)
    if a is not None:
        found.append(a)
        return "<addr>"
    return o


def load(path):
    with open(path) as f:
        return [json.loads(l) for l in f if l.strip()]


def main():
    a, b = load(sys.argv[1]), load(sys.argv[2])
    differ = abs(len(a) - len(b))
    fwd, back, kept = {}, {}, 0
    conv_a, conv_b = set(), set()
    for ra, rb in zip(a, b):
        fa, fb = [], []
        if strip(ra, fa) != strip(rb, fb) or len(fa) != len(fb):
            differ += 1
            continue
        conv_a.add((ra.get("file"), ra.get("conversation")))
        conv_b.add((rb.get("file"), rb.get("conversation")))
        for x, y in zip(fa, fb):
            fwd.setdefault(x, set()).add(y)
            back.setdefault(y, set()).add(x)
    two = sum(len(v) > 1 for v in fwd.values()) + \
        sum(len(v) > 1 for v in back.values())
    kept = sum(x in v for x, v in fwd.items())
    pats = []
    for x in fwd:
        pats.append(x.packed)
        if x.version == 4:
            pats.append(b"\0" * 10 + b"\xff\xff" + x.packed)
    found = 0
    files = sys.argv[3:]
    for red in files[1::2]:
        with open(red, "rb") as f:
            data = f.read()
        found += sum(data.count(p) for p in pats if len(p) == 16)
        found += sum(data.count(p) for p in pats if len(p) == 4)
    print(len(a), differ, len(conv_a), len(conv_b), len(fwd), two, kept,
          found)


if __name__ == "__main__":
    main()
