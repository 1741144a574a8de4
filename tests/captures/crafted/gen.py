#!/usr/bin/env python3
# gen.py - writes the crafted regression captures of this folder (README.md):
# hostile inputs made by hand, written apart from tools/capture from IBTA
# vol. 1 7.7 (LRH) and 7.8.2 (VCRC).  Usage: gen.py [OUTDIR] (default: here)
import os
import struct
import sys


def vcrc16(b):
    c = 0xffff
    for x in b:
        c ^= x
        for _ in range(8):
            c = (c >> 1) ^ 0xd008 if c & 1 else c >> 1
    return c ^ 0xffff


def pcap(path, dlt, frames):
    with open(path, 'wb') as f:
        f.write(struct.pack('<IHHiIII', 0xa1b2c3d4, 2, 4, 0, 0, 65535, dlt))
        for i, fr in enumerate(frames):
            f.write(struct.pack('<IIII', 1700000000, i, len(fr), len(fr)) + fr)


def lrh_pktlen_short():
    """One DLT_INFINIBAND frame of 84 bytes: an LRH (LNH = IBA local) whose
    PktLen says 4 bytes, half the LRH, with a VCRC right over those 4 bytes.
    The VCRC sits where PktLen says the packet ends, i.e. on the PktLen
    field itself, so search the DLID for a CRC that reads as PktLen = 1
    word (reserved bits zero), low byte first as ibdump writes it."""
    for dlid in range(1 << 16):
        lrh4 = bytes([0x00, 0x02]) + struct.pack('>H', dlid)   # VL 0, LNH 2
        v = vcrc16(lrh4)
        le = struct.pack('<H', v)
        if le[0] & 0xf8 == 0 and le[1] == 1:
            # be16(PktLen field) & 0x7ff == 1: reserved bits (top 5) zero
            if struct.unpack('>H', le)[0] & 0x7ff == 1:
                pkt = lrh4 + le + b'\x00\x01'        # SLID 0x0001
                bth = bytes([0x04, 0x00, 0xff, 0xff, 0, 0, 0, 0x11,
                             0x80, 0, 0, 1])         # SEND ONLY to QP 0x11
                body = bth + bytes(84 - len(pkt) - len(bth))
                return pkt + body
    raise SystemExit('gen.py: no DLID gives a usable VCRC')


def grh_pktlen_short():
    """LNH = IBA global, PktLen 40 bytes: the LRH and 32 bytes of the GRH,
    the VCRC right at byte 40, inside the GRH."""
    lrh = bytes([0x00, 0x03, 0x00, 0x02]) + struct.pack('>HH', 10, 1)
    grh = bytearray(40)
    grh[0] = 0x60
    grh[6] = 0x1b
    pkt = bytearray(lrh + grh + bytes(40))
    pkt[40:42] = struct.pack('<H', vcrc16(bytes(pkt[:40])))
    return bytes(pkt)


def erf(rec):
    """an ERF record of type INFINIBAND (21) around a native IB packet"""
    return (struct.pack('<Q', 0) + bytes([21, 0]) +
            struct.pack('>HHH', 16 + len(rec), 0, len(rec)) + rec)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(
        os.path.abspath(__file__))
    fr = lrh_pktlen_short()
    assert len(fr) == 84
    pcap(os.path.join(out, 'ib-lrh-pktlen-short.pcap'), 247, [fr])
    pcap(os.path.join(out, 'erf-lrh-pktlen-short.pcap'), 197, [erf(fr)])
    pcap(os.path.join(out, 'ib-grh-pktlen-short.pcap'), 247,
         [grh_pktlen_short()])


main()
