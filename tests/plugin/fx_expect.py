#!/usr/bin/env python3
"""fx_expect.py CAPTURE.pcap: the expected decode of every RPC-over-RDMA
message in a RoCEv2 capture, from a second implementation written here in
the test harness from the drafts' XDR -- not from libcodec, which both the
plugin and rpcrdma-decode link.  One JSON line per message, in the shape
compare.py's json_view() gives (compare.py spec compares the keys stated).

  V1: draft-ietf-nfsv4-rfc5666bis-04 5.1.2 (rpcrdma_prefix), 5.2 (body),
      5.3 (chunk lists, RFC 4506 4.19 optional-data), 5.5 (errors),
      5.6.1-2 (MSGP, DONE no longer supported), 4.3.1 (credits not zero)
  V2: draft-cel-nfsv4-rpcrdma-version-two-01 4.2 (rpcrdma2_xprt_hdr),
      4.2.1-2 (payload presence, direction), 3.1 (no option type defined)

The verdict (action, reason) and notes use rpcrdma-decode's JSON names
(docs/verdicts.md); the rules are the drafts' sentences cited above.
Sends are put together from SEND FIRST/MIDDLE/LAST (IBTA 9.2: opcodes 0-4);
the message is reported in the frame of its last packet.
"""
import json
import struct
import sys

SEND_FIRST, SEND_MIDDLE, SEND_LAST, SEND_ONLY = 0, 1, 2, 4


class Fault(Exception):
    def __init__(self, action, reason):
        Exception.__init__(self, reason)
        self.action, self.reason = action, reason


class Xdr:
    def __init__(self, b):
        self.b, self.off = b, 0

    def left(self):
        return len(self.b) - self.off

    def u32(self):
        if self.left() < 4:
            raise Fault('reply_bad_header', 'truncated')
        v = struct.unpack_from('>I', self.b, self.off)[0]
        self.off += 4
        return v

    def u64(self):
        hi = self.u32()
        return hi << 32 | self.u32()

    def present(self):          # RFC 4506 4.19: 0 or 1
        v = self.u32()
        if v > 1:
            raise Fault('reply_bad_header', 'bad_discriminant')
        return v == 1

    def segment(self):          # HLOO: handle, length, offset
        if self.left() < 16:
            raise Fault('reply_bad_header', 'truncated')
        return {'handle': self.u32(), 'length': self.u32(), 'offset': self.u64()}

    def write_chunk(self):      # a counted array of segments, one or more
        n = self.u32()
        if n == 0:
            raise Fault('reply_bad_header', 'empty_chunk')
        if n > self.left() // 16:
            raise Fault('reply_bad_header', 'bad_count')
        return [self.segment() for _ in range(n)]


def decode(b):
    rec = {}
    x = Xdr(b)
    if len(b) < 8:
        return {'verdict': {'action': 'discard', 'reason': 'short_prefix'}}
    rec['xid'] = x.u32()
    rec['vers'] = x.u32()
    if rec['vers'] not in (1, 2):
        # V1 5.5.1: answered with ERR_VERS (an RDMA_ERROR is never answered)
        rec['verdict'] = {'action': 'reply_err_vers', 'reason': 'bad_vers'}
        return rec
    v2 = rec['vers'] == 2
    try:
        rec['credits'] = x.u32()
        rec['proc'] = proc = x.u32()
        if proc in (0, 1):                       # MSG, NOMSG
            if v2:
                d = x.u32()
                if d > 1:
                    raise Fault('reply_bad_header', 'bad_direction')
                rec['direction'] = ('call', 'reply')[d]
            reads, writes, reply = [], [], None
            while x.present():
                if x.left() < 20:
                    raise Fault('reply_bad_header', 'truncated')
                pos = x.u32()
                if pos & 3:
                    raise Fault('reply_bad_header', 'bad_position')
                reads.append(dict(position=pos, **x.segment()))
            while x.present():
                writes.append(x.write_chunk())
            if x.present():
                reply = x.write_chunk()
            rec['reads'] = reads
            rec['writes'] = writes
            if reply is not None:
                rec['reply'] = reply
            payload = b[x.off:]
            if proc == 1:
                if not v2:   # a Long Call carries the call in a read chunk
                    rec['direction'] = 'call' if reads else 'reply'
                if not (reads or writes or reply is not None):
                    raise Fault('reply_bad_header', 'nomsg_without_chunks')
            else:
                if len(payload) < 8:
                    raise Fault('reply_bad_header', 'missing_payload')
                rpc_xid, mtype = struct.unpack_from('>II', payload)
                if not v2 and mtype <= 1:
                    rec['direction'] = ('call', 'reply')[mtype]
                if rpc_xid != rec['xid']:
                    raise Fault('reply_bad_header', 'xid_mismatch')
                if v2 and rec['direction'] != ('call', 'reply')[min(mtype, 1)]:
                    raise Fault('reply_bad_header', 'direction_mismatch')
        elif proc == 4:                          # ERROR
            rec['direction'] = 'reply'
            code = x.u32()
            low = high = None
            if code == 1:
                low, high = x.u32(), x.u32()
            elif code not in ((2, 3) if v2 else (2,)):
                raise Fault('discard', 'bad_err_code')
            rec['error'] = {'code': code, 'low': low, 'high': high}
        elif v2 and proc == 5:                   # OPTIONAL
            d = x.u32()
            t = x.u32()
            n = x.u32()
            if n > x.left():
                raise Fault('reply_bad_header', 'bad_count')
            rec['optional'] = {'direction': ('call', 'reply')[d] if d <= 1 else None,
                               'type': t, 'info_length': n}
            raise Fault('reply_inval_option', 'unknown_option')
        elif not v2 and proc == 2:
            raise Fault('reply_bad_header', 'msgp')
        elif not v2 and proc == 3:
            raise Fault('reply_bad_header', 'done')
        else:
            raise Fault('reply_bad_header', 'bad_proc')
        rec['verdict'] = {'action': 'accept', 'reason': 'ok'}
    except Fault as f:
        # the fields decoded before the fault are not stated: where a
        # decoder stops inside a list is its own business
        for k in ('reads', 'writes', 'reply', 'error'):
            rec.pop(k, None)
        if f.reason not in ('direction_mismatch', 'xid_mismatch', 'unknown_option'):
            rec.pop('direction', None)
        rec['verdict'] = {'action': f.action, 'reason': f.reason}
    # V1 4.3.1: rdma_credit "MUST NOT be zero" in a reply
    rec['notes'] = ['zero_credit'] if rec.get('direction') == 'reply' and \
        rec.get('credits') == 0 else []
    return rec


def sends(path):
    """(frame, Send payload) for each whole Send of a RoCEv2 capture"""
    d = open(path, 'rb').read()
    if d[:4] != b'\xd4\xc3\xb2\xa1' or struct.unpack_from('<I', d, 20)[0] != 1:
        sys.exit('%s: not a little-endian Ethernet pcap' % path)
    off, frame, partial = 24, 0, {}
    while off + 16 <= len(d):
        incl = struct.unpack_from('<I', d, off + 8)[0]
        pkt = d[off + 16:off + 16 + incl]
        off += 16 + incl
        frame += 1
        if len(pkt) < 14 + 20 + 8 + 12 + 4 or pkt[12:14] != b'\x08\x00':
            continue
        ihl = (pkt[14] & 15) * 4
        udp = 14 + ihl
        if pkt[23] != 17 or struct.unpack_from('>H', pkt, udp + 2)[0] != 4791:
            continue
        bth = udp + 8
        op = pkt[bth]
        qp = struct.unpack_from('>I', pkt, bth + 4)[0] & 0xffffff
        body = pkt[bth + 12:len(pkt) - 4]       # less the ICRC
        key = (pkt[26:30], qp)                  # source address, dest QP
        if op == SEND_ONLY:
            yield frame, body
        elif op == SEND_FIRST:
            partial[key] = body
        elif op == SEND_MIDDLE and key in partial:
            partial[key] += body
        elif op == SEND_LAST and key in partial:
            yield frame, partial.pop(key) + body


def main():
    for frame, b in sends(sys.argv[1]):
        rec = decode(b)
        rec['frame'] = frame
        print(json.dumps(rec, sort_keys=True))


main()
