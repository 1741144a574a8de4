#!/usr/bin/env python3
# compare.py - the oracle: tshark's built-in rpcordma fields against
# rpcrdma-decode --json, frame by frame.  Every frame tshark decodes as
# RPC-over-RDMA Version One must be decoded by rpcrdma-decode with the same
# xid, version, credits, proc and every segment's position, handle, length
# and offset (in tree order: Read list, Write list, Reply chunk) and the
# same chunk counts; for RDMA_ERROR the error code and version range.  Frames tshark reads as another version are left out
# (tshark 4.0 knows only Version One).
# Frames given after the two files are left out too: frames whose CRC was
# planted wrong (a receiver drops them; tshark 4.0 does not check the ICRC).
# Usage: compare.py [--allow-empty] TSHARK_FIELDS_FILE DECODER_JSONL_FILE [FRAME...]
# Prints "agree N frames" or the first mismatch; exit 0 / 1.  Nothing to
# compare (tshark decodes no Version One frame) is a failure, "0 messages
# compared", unless --allow-empty (35-oracle.sh gives it only for the
# captures tests/oracle/expected-empty.txt lists, with their reason).
import json
import sys
from jsonhex import unhex  # noqa: E402 (beside this file)

COLS = ['frame', 'xid', 'vers', 'credits', 'proc', 'reads_count',
        'writes_count', 'reply_count', 'position', 'segment_count', 'handle',
        'length', 'offset', 'errcode', 'vers_low', 'vers_high']



def num(v):
    return int(v, 0)


def nums(v):
    return [num(x) for x in v.split(',')] if v else []


def from_tshark(path):
    out = {}
    for line in open(path):
        f = line.rstrip('\n').split('\t')
        if len(f) < len(COLS) or not f[0] or not f[1]:
            continue
        r = dict(zip(COLS, f))
        rec = {k: num(r[k].split(',')[0]) if r[k] else None
               for k in ('xid', 'vers', 'credits', 'proc')}
        if rec['vers'] != 1:
            continue
        rec['counts'] = [num(r[k]) if r[k] else 0
                         for k in ('reads_count', 'writes_count', 'reply_count')]
        rec['position'] = nums(r['position'])
        rec['segment_count'] = nums(r['segment_count'])
        rec['handle'] = nums(r['handle'])
        rec['length'] = nums(r['length'])
        rec['offset'] = nums(r['offset'])
        if rec['proc'] not in (0, 1, 2):   # no chunk lists in ERROR/DONE
            for k in ('counts', 'position', 'segment_count', 'handle',
                      'length', 'offset'):
                rec.pop(k)
        if rec['proc'] == 4:
            rec['error'] = [num(r[k]) if r.get(k) else None
                            for k in ('errcode', 'vers_low', 'vers_high')]
        out[num(r['frame'])] = rec
    return out


def from_decoder(path):
    out = {}
    for line in open(path):
        line = line.strip()
        if not line.startswith('{'):
            continue
        j = unhex(json.loads(line))
        if 'frame' not in j or j.get('xid') is None:
            continue
        reads = j.get('reads') or []
        writes = j.get('writes') or []
        reply = j.get('reply')
        segs = [r for r in reads] + [s for c in writes for s in c] + (reply or [])
        rec = {'xid': j.get('xid'), 'vers': j.get('vers'),
               'credits': j.get('credits'), 'proc': j.get('proc'),
               'counts': [len(reads), len(writes), 1 if reply is not None else 0],
               'position': [r['position'] for r in reads],
               'segment_count': [len(c) for c in writes] +
                                ([len(reply)] if reply is not None else []),
               'handle': [s['handle'] for s in segs],
               'length': [s['length'] for s in segs],
               'offset': [s['offset'] for s in segs]}
        e = j.get('error')
        if isinstance(e, dict):
            rec['error'] = [e.get('code'), e.get('low'), e.get('high')]
        out.setdefault(j['frame'], []).append(rec)
    return out


def main():
    args = sys.argv[1:]
    allow_empty = bool(args) and args[0] == '--allow-empty'
    if allow_empty:
        args = args[1:]
    ts = from_tshark(args[0])
    dec = from_decoder(args[1])
    for skip in args[2:]:
        ts.pop(int(skip), None)
    seen = []          # tshark records rpcrdma-decode also printed
    resent = 0
    for frame in sorted(ts):
        want = ts[frame]
        got = dec.get(frame)
        if not got and want in seen:
            # the same message again, as a transport retransmission (RoCE:
            # the same PSN; iWARP: TCP): rpcrdma-decode counts it in
            # --stats, prints it once
            resent += 1
            continue
        if not got:
            print('frame %d: tshark decodes xid 0x%08x, rpcrdma-decode has no '
                  'message' % (frame, want['xid']))
            return 1
        seen.append(want)
        best = None
        for g in got:
            diff = [k for k in want if want[k] != g.get(k)]
            if not diff:
                best = None
                break
            if best is None or len(diff) < len(best[0]):
                best = (diff, g)
        if best:
            k = best[0][0]
            print('frame %d: %s: tshark %r, rpcrdma-decode %r'
                  % (frame, k, want[k], best[1].get(k)))
            return 1
    if not ts and not allow_empty:
        print('0 messages compared: tshark decodes no Version One message '
              '(not listed in tests/oracle/expected-empty.txt)')
        return 1
    print('agree %d frames' % (len(ts) - resent) +
          (' (%d retransmissions, printed once)' % resent if resent else ''))
    return 0


sys.exit(main())
