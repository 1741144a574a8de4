#!/usr/bin/env python3
"""conform_nfs_seeds.py DIR: seeds of fuzz_conform_nfs, one file each:
[reader byte][buffer size byte][RPC message].  The replies a server sends to
rpcrdma-conform's NFS calls, written from the specs' XDR, not from our code:
RFC 5531 section 9 (accepted_reply), RFC 1813 section 3.3.6 (READ3res),
RFC 7530 section 16 (COMPOUND4res; PUTROOTFH, LOOKUP, GETFH), RFC 8881
section 18 and 20 (EXCHANGE_ID, CREATE_SESSION, SEQUENCE, RECLAIM_COMPLETE,
PUTFH, OPEN; CB_COMPOUND with CB_SEQUENCE and CB_RECALL)."""
import os
import struct
import sys


def u32(*v):
    return b''.join(struct.pack('>I', x) for x in v)


def u64(v):
    return struct.pack('>Q', v)


def opaque(b):
    return u32(len(b)) + b + b'\0' * (-len(b) % 4)


def reply(xid, body):
    # xid, REPLY, MSG_ACCEPTED, verf AUTH_NONE (flavor, empty body), SUCCESS
    return u32(xid, 1, 0, 0, 0, 0) + body


def compound(results, status=0):
    # COMPOUND4res: status, tag<>, resarray<>
    return u32(status) + opaque(b'') + u32(len(results)) + b''.join(results)


OP_PUTFH, OP_PUTROOTFH, OP_LOOKUP, OP_GETFH, OP_OPEN = 22, 24, 15, 10, 18
OP_EXCHANGE_ID, OP_CREATE_SESSION, OP_SEQUENCE, OP_RECLAIM_COMPLETE = 42, 43, 53, 58
SID = bytes(range(16))
FH = b'fh-of-sixteen-by'
STATEID = u32(1) + b'state-other!'                  # seqid, other[12]
SEQUENCE_OK = u32(OP_SEQUENCE, 0) + SID + u32(1, 0, 0, 0, 0)  # sequenceid, slotid,
# highest_slotid, target_highest_slotid, status_flags
CHANNEL = u32(0, 8192, 8192, 4096, 16, 8) + u32(0)  # channel_attrs4, ca_rdma_ird<1>

seeds = {
    # 0: LOOKUP { PUTROOTFH, LOOKUP, LOOKUP, GETFH }
    'lookup': (0, reply(1, compound([u32(OP_PUTROOTFH, 0), u32(OP_LOOKUP, 0),
                                     u32(OP_LOOKUP, 0), u32(OP_GETFH, 0) + opaque(FH)]))),
    'lookup-noent': (0, reply(2, compound([u32(OP_PUTROOTFH, 0), u32(OP_LOOKUP, 2)], 2))),
    # 1: READ3res: NFS3_OK, post_op_attr with fattr3, count, eof, data<>
    'read3': (1, reply(3, u32(0, 1) + u32(1, 0o644, 1, 0, 0) + u64(5) + u64(4096) +
                       u64(0) + u64(7) + u64(12) + u64(0) * 3 + u32(5, 1) + opaque(b'hello'))),
    'read3-noattr': (1, reply(4, u32(0, 0) + u32(0, 1) + opaque(b''))),
    # 2: EXCHANGE_ID4resok: clientid, sequenceid, flags, SP4_NONE,
    # server_owner4, server_scope, eir_server_impl_id<1>
    'exchange-id': (2, reply(5, compound([u32(OP_EXCHANGE_ID, 0) + u64(0x1122334455667788) +
                                          u32(1, 0x10000, 0) + u64(7) + opaque(b'major') +
                                          opaque(b'scope') + u32(0)]))),
    # 3: CREATE_SESSION4resok: sessionid, sequence, flags, fore and back
    'create-session': (3, reply(6, compound([u32(OP_CREATE_SESSION, 0) + SID + u32(1, 2) +
                                             CHANNEL + CHANNEL]))),
    # 4: { SEQUENCE, RECLAIM_COMPLETE }
    'reclaim-complete': (4, reply(7, compound([SEQUENCE_OK, u32(OP_RECLAIM_COMPLETE, 0)]))),
    # 5: { SEQUENCE, PUTFH, OPEN }: OPEN4resok with a read delegation
    # (open_read_delegation4: stateid, recall, nfsace4) and with none
    'open-read-deleg': (5, reply(8, compound([
        SEQUENCE_OK, u32(OP_PUTFH, 0),
        u32(OP_OPEN, 0) + STATEID + u32(1) + u64(1) + u64(2) + u32(4) + u32(1, 0) +
        u32(1) + STATEID + u32(0) + u32(0, 0, 1) + opaque(b'EVERYONE@')]))),
    'open-no-deleg': (5, reply(9, compound([
        SEQUENCE_OK, u32(OP_PUTFH, 0),
        u32(OP_OPEN, 0) + STATEID + u32(1) + u64(1) + u64(2) + u32(4) + u32(0) + u32(0)]))),
    # 6: a backward call: CB_COMPOUND { CB_SEQUENCE, CB_RECALL } (RFC 8881
    # section 20.9, 20.2), and CB_NULL
    'cb-compound': (6, u32(10, 0, 2, 0x40000000, 1, 1, 0, 0, 0, 0) + opaque(b'') + u32(1, 0, 2) +
                    u32(11) + SID + u32(1, 0, 0, 0, 0) + u32(4) + STATEID + u32(0) + opaque(FH)),
    # with a referring_call_list4 (sessionid, referring_call4<>: sequenceid,
    # slotid) in CB_SEQUENCE4args (RFC 8881 section 20.9.1)
    'cb-compound-referring': (6, u32(12, 0, 2, 0x40000000, 1, 1, 0, 0, 0, 0) + opaque(b'') +
                              u32(1, 0, 2) + u32(11) + SID + u32(1, 0, 0, 0) +
                              u32(1) + SID + u32(2, 7, 0, 3, 1) +
                              u32(4) + STATEID + u32(0) + opaque(FH)),
    'cb-null': (6, u32(11, 0, 2, 0x40000000, 1, 0, 0, 0, 0, 0)),
}

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
for name, (reader, msg) in seeds.items():
    with open(os.path.join(out, name), 'wb') as f:
        f.write(bytes([reader, 255]) + msg)
