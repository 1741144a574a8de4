#!/usr/bin/env python3
# check.py - the graders of rpcrdma-decode --redact (suite 33-redact), one
# process for every capture.  Usage:
#   check.py NAMES DIR NAME...
# DIR holds, for each NAME: NAME (the original) and NAME.red (the redacted
# copy); and a.json and b.json, rpcrdma-decode --json of all the originals
# and of all the redacted copies (one run each: -r DIR/NAME ...), whose
# records name their file.
# Prints TAP lines without numbers ("ok - ..." / "not ok - ..."):
#  - structure: the two --json outputs equal but the keys that name the
#    file or depend on time;
#  - data: every 16-byte window of the RDMA data in the original (RDMA
#    Write and Read Response payloads of InfiniBand/RoCE packets, tagged
#    DDP payloads of iWARP FPDUs: found here from IBTA 9 and RFC 5040/5041
#    /5044, apart from the code under test) that is file data (12 or more
#    distinct byte values: not an RPC header, which the redacted RPC
#    messages in reply chunks keep) is found nowhere in the redacted file;
#  - CRCs: every ICRC and VCRC of the redacted copy right, checked by
#    tests/oracle/ibcrc.py's check(), written apart from the code (IBTA
#    7.8; InfiniBand and RoCE captures);
#  - names: every name tshark's NFS dissector read from the original
#    (NAMES, tests/redact/names.txt; 6 bytes or more, so that no short name
#    turns up by chance) is in the original and not in the redacted copy.
import json
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'oracle'))
import ibcrc  # noqa: E402  (pcap/pcapng frames, link layers)

DROP = ('file', 'time', 'latency_us')
WRITE_OR_RESP = {0x06: 16, 0x07: 0, 0x08: 0, 0x09: 4, 0x0a: 16, 0x0b: 20,
                 0x0d: 4, 0x0e: 0, 0x0f: 4, 0x10: 4}


def structure(path):
    """the records of each capture, by its name (NAME.red as NAME)"""
    out = {}
    for line in open(path):
        d = json.loads(line)
        name = os.path.basename(d.get('file', ''))
        if name.endswith('.red'):
            name = name[:-4]
        for k in DROP:
            d.pop(k, None)
        if isinstance(d.get('rpc'), dict):
            d['rpc'].pop('latency_us', None)
        out.setdefault(name, []).append(d)
    return out


def bth_data(p):
    """the payload of an RDMA Write or Read Response packet (BTH on)"""
    if len(p) < 16 or p[0] not in WRITE_OR_RESP:
        return b''
    pad = (p[1] >> 4) & 3
    return p[12 + WRITE_OR_RESP[p[0]]:len(p) - 4 - pad]


def fpdus_data(seg):
    """tagged DDP payloads of the FPDUs a TCP segment starts with"""
    out, o = [], 0
    while o + 16 <= len(seg):
        ulen = struct.unpack('>H', seg[o:o + 2])[0]
        if ulen < 14 or o + 2 + ulen > len(seg) or (seg[o + 3] >> 6) != 1:
            break
        if seg[o + 2] & 0x80:
            out.append(seg[o + 16:o + 2 + ulen])
        o += (2 + ulen + 3) // 4 * 4 + 4
    return out


def ip_data(f, o):
    v = f[o] >> 4
    if v == 4:
        hl, proto, n = (f[o] & 15) * 4, f[o + 9], struct.unpack('>H', f[o + 2:o + 4])[0]
        end = o + n
    elif v == 6:
        hl, proto = 40, f[o + 6]
        end = o + 40 + struct.unpack('>H', f[o + 4:o + 6])[0]
    else:
        return []
    l4 = o + hl
    if proto == 17 and struct.unpack('>H', f[l4 + 2:l4 + 4])[0] == 4791:
        return [bth_data(f[l4 + 8:end])]
    if proto == 6:
        return fpdus_data(f[l4 + (f[l4 + 12] >> 4) * 4:end])
    return []


def rdma_data(path):
    out = []
    for _, dlt, f, _ in ibcrc.frames(path):
        if dlt in (197, 247):
            o = 16 if dlt == 197 else 0
            lnh = f[o + 1] & 3
            plen = (struct.unpack('>H', f[o + 4:o + 6])[0] & 0x7ff) * 4
            if lnh >= 2:
                h = 8 if lnh == 2 else 48
                out.append(bth_data(f[o + h:o + plen]))
            continue
        et, o = ibcrc.ethertype_payload(dlt, f)
        if et in (0x0800, 0x86dd):
            out.extend(ip_data(f, o))
        elif et == 0x8915:
            out.append(bth_data(f[o + 40:o + 40 + struct.unpack('>H', f[o + 4:o + 6])[0]]))
    return out


def windows(chunks):
    w = set()
    for c in chunks:
        for i in range(0, len(c) - 15, 16):
            x = c[i:i + 16]
            if len(set(x)) >= 12:
                w.add(x)
    return w


def main():
    names = {}
    for line in open(sys.argv[1]):
        if line.strip() and not line.startswith('#'):
            f, *n = line.split()
            names[f] = n
    d = sys.argv[2]
    sa = structure(os.path.join(d, 'a.json'))
    sb = structure(os.path.join(d, 'b.json'))
    for name in sys.argv[3:]:
        base = os.path.join(d, name)
        a, b = sa.get(name, []), sb.get(name, [])
        diff = sum(1 for x, y in zip(a, b) if x != y) + abs(len(a) - len(b))
        # a crafted capture with nothing to decode (a PktLen short of
        # its LRH) decodes to nothing, redacted or not
        print('%s - %s: the redacted copy decodes to the same %d records '
              '(--json but file, time, latency_us; %d differ)%s' %
              ('ok' if (a or not b) and not diff else 'not ok', name,
               len(a), diff, '' if a else ' (the original to none either)'))
        orig = open(base, 'rb').read()
        red = open(base + '.red', 'rb').read()
        seen = {red[i:i + 16] for i in range(len(red) - 15)}
        w = windows(rdma_data(base))
        left = sum(1 for x in w if x in seen)
        if w:
            print('%s - %s: none of the %d 16-byte windows of RDMA file data '
                  'is left (%d are)' % ('ok' if not left else 'not ok', name,
                                        len(w), left))
        checked = bad = 0
        for _, dlt, f, whole in ibcrc.frames(base + '.red'):
            r = ibcrc.check(dlt, f) if whole else None
            if r is not None:
                checked += 1
                bad += (not r[0]) + (r[1] is False)
        if checked:
            print('%s - %s: every ICRC/VCRC of the redacted copy is right '
                  '(%d packets, %d bad)' % ('ok' if not bad else 'not ok',
                                            name, checked, bad))
        want = [n for n in names.get(name, []) if len(n) >= 6]
        if want:
            absent = [n for n in want if orig.count(n.encode()) == 0]
            kept = [n for n in want if red.count(n.encode())]
            print('%s - %s: the %d names (%s) are in the original%s and in '
                  'the redacted copy nowhere%s' %
                  ('ok' if not absent and not kept else 'not ok', name,
                   len(want), ' '.join(want),
                   ' (not: %s)' % ' '.join(absent) if absent else '',
                   ' (but: %s)' % ' '.join(kept) if kept else ''))


main()
