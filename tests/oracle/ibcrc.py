#!/usr/bin/env python3
# ibcrc.py - check every InfiniBand ICRC (and VCRC) in a capture, written
# apart from the generator from IBTA vol. 1 §7.8 and RoCEv2 annex A17.3.3:
# CRC-32 (zlib) over 64 one bits standing in for the LRH (RoCE), the IP and
# UDP headers with TOS/TTL/checksum (IPv4) or traffic class/flow label/hop
# limit (IPv6, GRH) and the UDP checksum set to ones, the BTH with resv8a
# set to ones, and the rest up to the ICRC, which is sent low byte first.
# Native IB: the LRH with VL set to ones (LNH = IBA local), or 64 one bits
# instead of the LRH and the GRH masked as above (LNH = IBA global, 7.8.1);
# VCRC = CRC-16 0x100B reflected over LRH..ICRC.  Reads pcap and pcapng.  Prints "checked N bad M" and one
# "bad FRAME icrc|vcrc" line per failure.  Usage: ibcrc.py FILE
import struct
import sys
import zlib


def frames(path):
    data = open(path, 'rb').read()
    magic = data[:4]
    if magic in (b'\xd4\xc3\xb2\xa1', b'\xa1\xb2\xc3\xd4'):
        e = '<' if magic == b'\xd4\xc3\xb2\xa1' else '>'
        dlt = struct.unpack(e + 'I', data[20:24])[0]
        o, n = 24, 0
        while o + 16 <= len(data):
            cap, wire = struct.unpack(e + 'II', data[o + 8:o + 16])
            if o + 16 + cap > len(data):
                return           # the file ends inside this record
            n += 1
            yield n, dlt, data[o + 16:o + 16 + cap], cap == wire
            o += 16 + cap
    elif magic == b'\x0a\x0d\x0d\x0a':
        o, n, dlts = 0, 0, []
        while o + 12 <= len(data):
            btype, blen = struct.unpack('<II', data[o:o + 8])
            if btype == 1:
                dlts.append(struct.unpack('<H', data[o + 8:o + 10])[0])
            elif btype == 6:
                ifc, _, _, cap, wire = struct.unpack('<IIIII', data[o + 8:o + 28])
                n += 1
                yield n, dlts[ifc], data[o + 28:o + 28 + cap], cap == wire
            o += blen
    else:
        raise SystemExit('not a capture: %s' % path)


def vcrc16(b):
    c = 0xffff
    for x in b:
        c ^= x
        for _ in range(8):
            c = (c >> 1) ^ 0xd008 if c & 1 else c >> 1
    return c ^ 0xffff


def ethertype_payload(dlt, f):
    if dlt == 1:
        et, o = struct.unpack('>H', f[12:14])[0], 14
        while et == 0x8100:
            et, o = struct.unpack('>H', f[o + 2:o + 4])[0], o + 4
        return et, o
    if dlt == 113:
        return struct.unpack('>H', f[14:16])[0], 16
    if dlt == 276:
        return struct.unpack('>H', f[0:2])[0], 20
    return None, None


def check(dlt, f):
    """None: not IB; else (icrc_ok, vcrc_ok_or_None)"""
    if dlt in (197, 247):
        o = 0
        if dlt == 197:
            if f[8] & 0x7f != 21:
                return None
            o = 16
        lrh = f[o:o + 8]
        lnh = lrh[1] & 3
        if lnh < 2:
            return None          # raw packets: no ICRC
        plen = (struct.unpack('>H', lrh[4:6])[0] & 0x7ff) * 4
        if plen < (24 if lnh == 2 else 64) or o + plen > len(f):
            return None          # PktLen short of its headers or past
                                 # the frame: no ICRC to check
        pkt = f[o:o + plen]
        if lnh == 2:
            # local: the LRH with VL as ones, then the BTH (resv8a ones)
            m = bytearray(pkt[:20])
            m[0] |= 0xf0
            m[12] = 0xff
            icrc = zlib.crc32(bytes(m) + pkt[20:plen - 4]) & 0xffffffff
        else:
            # global (7.8.1): 64 one bits instead of the LRH (a router
            # rewrites it), the GRH with traffic class, flow label and
            # hop limit as ones, the BTH with resv8a as ones
            g = bytearray(pkt[8:48])
            g[0] |= 0x0f
            g[1:4] = b'\xff\xff\xff'
            g[7] = 0xff
            b = bytearray(pkt[48:60])
            b[4] = 0xff
            icrc = zlib.crc32(b'\xff' * 8 + bytes(g) + bytes(b) +
                              pkt[60:plen - 4]) & 0xffffffff
        ok = struct.unpack('<I', pkt[plen - 4:plen])[0] == icrc
        v = struct.unpack('<H', f[o + plen:o + plen + 2])[0]
        return ok, v == vcrc16(pkt)
    et, o = ethertype_payload(dlt, f)
    if et == 0x0800:
        ihl = (f[o] & 15) * 4
        if f[o + 9] != 17 or struct.unpack('>H', f[o + ihl + 2:o + ihl + 4])[0] != 4791:
            return None
        tot = struct.unpack('>H', f[o + 2:o + 4])[0]
        m = bytearray(f[o:o + ihl + 8 + 12])
        m[1] = 0xff
        m[8] = 0xff
        m[10:12] = b'\xff\xff'
        m[ihl + 6:ihl + 8] = b'\xff\xff'
        m[ihl + 8 + 4] = 0xff
        end = o + tot
        body = f[o + ihl + 20:end - 4]
    elif et in (0x86dd, 0x8915):
        if et == 0x86dd and (f[o + 6] != 17 or
                             struct.unpack('>H', f[o + 42:o + 44])[0] != 4791):
            return None
        if et == 0x8915 and f[o + 6] != 0x1b:
            return None
        hl = 48 if et == 0x86dd else 40
        m = bytearray(f[o:o + hl + 12])
        m[0] |= 0x0f
        m[1:4] = b'\xff\xff\xff'
        m[7] = 0xff
        if et == 0x86dd:
            m[46:48] = b'\xff\xff'
        m[hl + 4] = 0xff
        end = o + 40 + struct.unpack('>H', f[o + 4:o + 6])[0]
        body = f[o + hl + 12:end - 4]
    else:
        return None
    icrc = zlib.crc32(b'\xff' * 8 + bytes(m) + body) & 0xffffffff
    return struct.unpack('<I', f[end - 4:end])[0] == icrc, None


def main():
    checked = bad = 0
    for n, dlt, f, whole in frames(sys.argv[1]):
        if not whole:
            continue
        r = check(dlt, f)
        if r is None:
            continue
        checked += 1
        if not r[0]:
            bad += 1
            print('bad %d icrc' % n)
        if r[1] is False:
            bad += 1
            print('bad %d vcrc' % n)
    print('checked %d bad %d' % (checked, bad))


if __name__ == '__main__':   # also imported (tests/redact/check.py)
    main()
