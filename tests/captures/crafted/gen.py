#!/usr/bin/env python3
# gen.py - writes the crafted regression captures of this folder (README.md):
# hostile inputs made by hand, written apart from tools/capture from IBTA
# vol. 1 7.7 (LRH), 7.8 (ICRC, VCRC), RoCEv2 annex A17, RFC 5044 (MPA),
# RFC 5041 (DDP), RFC 5040 (RDMAP), RFC 9293 (TCP) and the RPC-over-RDMA
# Version One XDR.  Usage: gen.py [OUTDIR] (default: here)
import os
import struct
import sys
import zlib


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


# ------------------------------------------------------------------ RPC
def rpc_call(xid, proc=0):
    """an ONC RPC call header (RFC 5531): NFSv3 procedure `proc`, AUTH_NONE"""
    return struct.pack('>10I', xid, 0, 2, 100003, 3, proc, 0, 0, 0, 0)


def rdma_msg(xid, writes=(), credits=32, body=None, reply=False):
    """an RDMA_MSG (V1 5.2): empty Read list, the given write chunks (each a
    list of (handle, length, offset)), no Reply chunk, then the RPC message"""
    h = struct.pack('>4I', xid, 1, credits, 0) + struct.pack('>I', 0)
    for chunk in writes:
        h += struct.pack('>II', 1, len(chunk))
        for hd, ln, off in chunk:
            h += struct.pack('>IIQ', hd, ln, off)
    h += struct.pack('>II', 0, 0)
    if body is None:
        body = (struct.pack('>6I', xid, 1, 0, 0, 0, 0) if reply else
                rpc_call(xid))
    return h + body


# --------------------------------------------------------------- frames
def eth_ipv4(src, dst, proto, payload, ident=0):
    ip = struct.pack('>BBHHHBBH4s4s', 0x45, 0, 20 + len(payload), ident, 0x4000,
                     64, proto, 0, src, dst)
    csum = sum(struct.unpack('>10H', ip))
    csum = (csum & 0xffff) + (csum >> 16)
    csum = (csum & 0xffff) + (csum >> 16)
    ip = ip[:10] + struct.pack('>H', ~csum & 0xffff) + ip[12:]
    return b'\x02' * 6 + b'\x04' * 6 + b'\x08\x00' + ip + payload


def rocev2(src, dst, dqp, psn, payload, op=0x04):
    """Ethernet/IPv4/UDP 4791/BTH + payload + ICRC (annex A17.3.3: 8 bytes
    of ones for the LRH, TOS/TTL/checksums and BTH resv8a set to ones)"""
    bth = struct.pack('>BBHII', op, 0, 0xffff, dqp & 0xffffff, psn & 0xffffff)
    udp = struct.pack('>HHHH', 49152, 4791, 8 + len(bth) + len(payload) + 4, 0)
    fr = eth_ipv4(src, dst, 17, udp + bth + payload + b'\0' * 4)
    ip = bytearray(fr[14:34])
    ip[1] = 0xff
    ip[8] = 0xff
    ip[10:12] = b'\xff\xff'
    m = bytearray(udp + bth)
    m[6:8] = b'\xff\xff'
    m[8 + 4] = 0xff
    icrc = zlib.crc32(b'\xff' * 8 + bytes(ip) + bytes(m) + payload) & 0xffffffff
    return fr[:-4] + struct.pack('<I', icrc)


def crc32c(b):
    c = 0xffffffff
    for x in b:
        c ^= x
        for _ in range(8):
            c = (c >> 1) ^ 0x82f63b78 if c & 1 else c >> 1
    return c ^ 0xffffffff


def fpdu_send(msn, msg):
    """one MPA FPDU (RFC 5044 4.1, CRC on, no markers) of an untagged DDP
    Send on queue 0 (RFC 5041 5.2; RDMAP Send, RFC 5040 4.2)"""
    ddp = bytes([0x41, 0x43]) + b'\0' * 4 + struct.pack('>III', 0, msn, 0)
    ulpdu = ddp + msg
    f = struct.pack('>H', len(ulpdu)) + ulpdu
    f += b'\0' * ((4 - len(f) % 4) % 4)
    # the CRC32c's four bytes least significant first, as siw and
    # Wireshark have them (rpcrdma-decode takes either order)
    return f + struct.pack('<I', crc32c(f))


class Tcp:
    """one TCP connection's segments, each side's sequence numbers"""
    def __init__(self, a, b, pa, pb):
        self.ip = (a, b)
        self.port = (pa, pb)
        self.seq = [1000, 900000]

    def seg(self, d, data, flags=0x18):
        s, t = self.ip[d], self.ip[1 - d]
        tcp = struct.pack('>HHIIBBHHH', self.port[d], self.port[1 - d],
                          self.seq[d], self.seq[1 - d], 5 << 4, flags, 65535,
                          0, 0)   # ACK: all the peer sent
        self.seq[d] = (self.seq[d] + len(data)) & 0xffffffff
        return eth_ipv4(s, t, 6, tcp + data)


def mpa_frame(req):
    key = b'MPA ID Req Frame' if req else b'MPA ID Rep Frame'
    return key + bytes([0x40, 1]) + struct.pack('>H', 0)   # C set, rev 1


def tcp_lost_segment(replies):
    """iWARP, MPA handshake, then 320 calls (one FPDU, one TCP segment each)
    from the client; the capture lost the 5th.  Without replies, more than
    the 256 out-of-order slots wait behind the gap; with the server's
    replies, their acknowledgements pass the gap at once (each segment
    acknowledges all the peer sent)"""
    A, B = bytes([198, 18, 0, 2]), bytes([198, 18, 0, 1])
    t = Tcp(A, B, 40001, 20049)
    out = [t.seg(0, mpa_frame(True)), t.seg(1, mpa_frame(False))]
    for i in range(320):
        f = t.seg(0, fpdu_send(i + 1, rdma_msg(0x1000 + i)))
        if i != 4:
            out.append(f)
        if replies:
            out.append(t.seg(1, fpdu_send(i + 1, rdma_msg(0x1000 + i,
                                                          reply=True))))
    return out


def segs_full():
    """RoCEv2: 9 calls, each with one write chunk of 8 segments, no
    replies; then a 10th with 8 segments and its reply.  With 64 segment
    slots (the -DCAP_MAX_SEGS=64 build) the 10th finds 0 free: before, the
    call was half registered and --check reported a false
    write-chunk-segments-changed; now it is untracked"""
    A, B = bytes([198, 18, 0, 2]), bytes([198, 18, 0, 1])
    out, psn = [], 100
    for i in range(10):
        segs = [(0x5000 + i, 4096, 0x7f0000000000 + 4096 * k) for k in range(8)]
        out.append(rocev2(A, B, 0x11, psn, rdma_msg(0x2000 + i, [segs])))
        psn += 1
    # the server writes nothing and returns the last call's chunk unused
    segs = [(0x5009, 0, 0x7f0000000000 + 4096 * k) for k in range(8)]
    out.append(rocev2(B, A, 0x22, 500, rdma_msg(0x2009, [segs], reply=True)))
    return out


def ack(src, dst, dqp, psn):
    """an RC ACKNOWLEDGE (AETH: ACK, MSN 0)"""
    return rocev2(src, dst, dqp, psn, struct.pack('>I', 0x1f000000), op=0x11)


def convs_full():
    """RoCEv2: 30 clients each make a call that is answered (idle
    conversations after), then 20 others each send a call, then the server
    replies to each.  With 16 conversation slots the idle ones go first
    (nothing lost), then 4 with a call in flight"""
    B = bytes([198, 18, 0, 1])
    out = []
    for i in range(30):
        A = bytes([198, 18, 1, i])
        out.append(rocev2(A, B, 0x300 + i, 1, rdma_msg(0x6000 + i)))
        out.append(ack(B, A, 0x400 + i, 1))
        out.append(rocev2(B, A, 0x400 + i, 7, rdma_msg(0x6000 + i, reply=True)))
    for i in range(20):
        out.append(rocev2(bytes([198, 18, 2, i]), B, 0x11, 10, rdma_msg(0x3000 + i)))
    for i in range(20):
        out.append(rocev2(B, bytes([198, 18, 2, i]), 0x22, 50,
                          rdma_msg(0x3000 + i, reply=True)))
    return out


def calls_full():
    """RoCEv2, one QP pair: 70 calls, then their 70 replies (credits 100).
    With 64 call slots the 6 oldest are forgotten"""
    A, B = bytes([198, 18, 0, 2]), bytes([198, 18, 0, 1])
    out = [rocev2(A, B, 0x11, 100 + i, rdma_msg(0x4000 + i, credits=100))
           for i in range(70)]
    out += [rocev2(B, A, 0x22, 500 + i, rdma_msg(0x4000 + i, credits=100,
                                                 reply=True))
            for i in range(70)]
    return out


def big_send():
    """RoCEv2: a 300 KiB Send in 75 packets (FIRST, MIDDLE.., LAST, path
    MTU 4096), then a small call.  With a 256 KiB reassembly budget the big
    one is not reassembled; the small one is decoded"""
    A, B = bytes([198, 18, 0, 2]), bytes([198, 18, 0, 1])
    msg = rdma_msg(0x5000, body=rpc_call(0x5000) + bytes(300 * 1024))
    pk = [msg[i:i + 4096] for i in range(0, len(msg), 4096)]
    out = []
    for i, p in enumerate(pk):
        op = 0x00 if i == 0 else 0x02 if i == len(pk) - 1 else 0x01
        out.append(rocev2(A, B, 0x11, 100 + i, p, op=op))
    out.append(rocev2(A, B, 0x11, 100 + len(pk), rdma_msg(0x5001)))
    return out


def cm_mad(attr, fields):
    """a CM MAD (IBTA 12.6): base version 1, class 7 (CM), version 2,
    method Send; `fields` placed at their offsets after the 24-byte
    header"""
    m = bytearray(256)
    m[0:4] = bytes([1, 7, 2, 3])
    m[16:18] = struct.pack('>H', attr)
    for off, b in fields:
        m[24 + off:24 + off + len(b)] = b
    return bytes(m)


def rfc8797(send, recv, inval):
    """RFC 8797 3: magic, version 1, flags, send and receive size in KiB - 1"""
    return struct.pack('>IBBBB', 0xf6ab0e18, 1, 1 if inval else 0,
                       send // 1024 - 1, recv // 1024 - 1)


def ud_cm(src, dst, mad):
    """UD SEND ONLY to QP1: BTH, DETH (Q_Key 0x80010000, source QP 1), MAD"""
    return rocev2(src, dst, 1, 0, struct.pack('>II', 0x80010000, 1) + mad,
                  op=0x64)


def private_data(server_recv):
    """RoCEv2: CM REQ (client QP 0x11, announcing receive 4096) and REP
    (server QP 0x22, announcing `server_recv`), then a 2000-byte inline
    call from the client: over V1's 1024-byte default, within 4096"""
    A, B = bytes([198, 18, 0, 2]), bytes([198, 18, 0, 1])
    req = cm_mad(0x10, [(0, struct.pack('>I', 0xc0de0001)),
                        (8, struct.pack('>Q', 0)),           # Service ID
                        (32, struct.pack('>I', 0x11 << 8)),  # local QPN
                        (140, rfc8797(4096, 4096, True))])
    rep = cm_mad(0x13, [(0, struct.pack('>I', 0xc0de0002)),
                        (4, struct.pack('>I', 0xc0de0001)),  # remote comm ID
                        (12, struct.pack('>I', 0x22 << 8)),  # local QPN
                        (36, rfc8797(4096, server_recv, False))])
    big = rdma_msg(0x7000, body=rpc_call(0x7000) + bytes(2000 - 28 - 40))
    assert len(big) == 2000
    return [ud_cm(A, B, req), ud_cm(B, A, rep),
            rocev2(A, B, 0x22, 100, big),
            rocev2(B, A, 0x11, 500, rdma_msg(0x7000, reply=True))]


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(
        os.path.abspath(__file__))
    fr = lrh_pktlen_short()
    assert len(fr) == 84
    pcap(os.path.join(out, 'ib-lrh-pktlen-short.pcap'), 247, [fr])
    pcap(os.path.join(out, 'erf-lrh-pktlen-short.pcap'), 197, [erf(fr)])
    pcap(os.path.join(out, 'ib-grh-pktlen-short.pcap'), 247,
         [grh_pktlen_short()])
    pcap(os.path.join(out, 'iwarp-lost-segment.pcap'), 1,
         tcp_lost_segment(False))
    pcap(os.path.join(out, 'iwarp-lost-segment-replies.pcap'), 1,
         tcp_lost_segment(True))
    pcap(os.path.join(out, 'rocev2-segs-full.pcap'), 1, segs_full())
    pcap(os.path.join(out, 'rocev2-convs-full.pcap'), 1, convs_full())
    pcap(os.path.join(out, 'rocev2-calls-full.pcap'), 1, calls_full())
    pcap(os.path.join(out, 'rocev2-big-send.pcap'), 1, big_send())
    pcap(os.path.join(out, 'rocev2-pd-4096.pcap'), 1, private_data(4096))
    pcap(os.path.join(out, 'rocev2-pd-1024.pcap'), 1, private_data(1024))
    pcap(os.path.join(out, 'rocev2-pd-none.pcap'), 1, private_data(4096)[2:])


main()
