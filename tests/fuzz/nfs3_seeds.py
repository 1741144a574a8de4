#!/usr/bin/env python3
# nfs3_seeds.py DIR: the seeds of fuzz_nfs3_serve (tests/fuzz/fuzz_nfs3_serve.c),
# one file a call: every procedure of NFS version 3 and MOUNT version 3,
# written from RFC 5531 §9 (call_body) and RFC 1813's XDR (§2.5, §2.6,
# §3.3.x, Appendix I), never from the code under test; the handles are the
# tree's ("rqtree03" and the fileid, tools/ulb/nfs3_tree.h).  Byte 0 is the
# target's mode: 0x00 the NFS caller's output buffer, 0x01 the MOUNT
# caller's (512), 0x02 then a byte: a buffer of 2 * that; 0xf0 + k the
# decoder k alone on the rest.
import os
import struct
import sys

def w(*v):
    return b''.join(struct.pack('>I', x & 0xffffffff) for x in v)

def h(v):
    return struct.pack('>Q', v)

def opaque(b):
    return w(len(b)) + b + b'\0' * ((4 - len(b) % 4) % 4)

def call(xid, prog, vers, proc, args=b'', cred=None):
    # AUTH_NONE credential and verifier, or AUTH_SYS (RFC 5531 §A.2)
    c = w(0, 0) if cred is None else w(1) + opaque(cred)
    return w(xid, 0, 2, prog, vers, proc) + c + w(0, 0) + args

def fh(fileid):
    return opaque(b'rqtree03' + h(fileid))

ROOT, HELLO, DATA, ODD, EMPTY, MANY, SINK = 1, 2, 3, 4, 5, 6, 7
NFS, MNT = 100003, 100005
VERF = b'rqverf01'
sys_cred = w(1, 0) + opaque(b'client') + w(0, 0, 1, 0)   # stamp, machine, uid, gid, gids<1>

seeds = {
    'null': call(1, NFS, 3, 0),
    'getattr-root': call(2, NFS, 3, 1, fh(ROOT)),
    'getattr-sys-cred': call(3, NFS, 3, 1, fh(HELLO), cred=sys_cred),
    'setattr': call(4, NFS, 3, 2, fh(HELLO) + w(0, 0, 0, 0, 0, 0, 0)),
    'lookup-hello': call(5, NFS, 3, 3, fh(ROOT) + opaque(b'hello.txt')),
    'lookup-entry': call(6, NFS, 3, 3, fh(MANY) + opaque(b'entry-123')),
    'lookup-dotdot': call(7, NFS, 3, 3, fh(MANY) + opaque(b'..')),
    'access': call(8, NFS, 3, 4, fh(SINK) + w(0x3f)),
    'readlink': call(9, NFS, 3, 5, fh(HELLO)),
    'read-hello': call(10, NFS, 3, 6, fh(HELLO) + h(0) + w(4096)),
    'read-data': call(11, NFS, 3, 6, fh(DATA) + h(1000) + w(65536)),
    'read-odd-tail': call(12, NFS, 3, 6, fh(ODD) + h(4090) + w(100)),
    'read-entry': call(13, NFS, 3, 6, fh(1042) + h(3) + w(100)),
    'write-sink': call(14, NFS, 3, 7, fh(SINK) + h(0) + w(5, 2) + opaque(b'hello')),
    'write-hello': call(15, NFS, 3, 7, fh(HELLO) + h(0) + w(1, 0) + opaque(b'x')),
    'create': call(16, NFS, 3, 8, fh(ROOT) + opaque(b'new') + w(0) + w(0, 0, 0, 0, 0, 0)),
    'mkdir': call(17, NFS, 3, 9, fh(ROOT) + opaque(b'd') + w(0, 0, 0, 0, 0, 0)),
    'symlink': call(18, NFS, 3, 10, fh(ROOT) + opaque(b'l') + w(0, 0, 0, 0, 0, 0) + opaque(b'hello.txt')),
    'mknod': call(19, NFS, 3, 11, fh(ROOT) + opaque(b'f') + w(7) + w(0, 0, 0, 0, 0, 0)),
    'remove': call(20, NFS, 3, 12, fh(ROOT) + opaque(b'empty')),
    'rmdir': call(21, NFS, 3, 13, fh(ROOT) + opaque(b'many')),
    'rename': call(22, NFS, 3, 14, fh(ROOT) + opaque(b'empty') + fh(ROOT) + opaque(b'e2')),
    'link': call(23, NFS, 3, 15, fh(HELLO) + fh(ROOT) + opaque(b'h2')),
    'readdir-root': call(24, NFS, 3, 16, fh(ROOT) + h(0) + b'\0' * 8 + w(8192)),
    'readdir-many-cont': call(25, NFS, 3, 16, fh(MANY) + h(100) + VERF + w(1024)),
    'readdir-small': call(26, NFS, 3, 16, fh(MANY) + h(0) + b'\0' * 8 + w(120)),
    'readdirplus-root': call(27, NFS, 3, 17, fh(ROOT) + h(0) + b'\0' * 8 + w(4096, 32768)),
    'readdirplus-many': call(28, NFS, 3, 17, fh(MANY) + h(5) + VERF + w(512, 65536)),
    'fsstat': call(29, NFS, 3, 18, fh(ROOT)),
    'fsinfo': call(30, NFS, 3, 19, fh(ROOT)),
    'pathconf': call(31, NFS, 3, 20, fh(HELLO)),
    'commit-sink': call(32, NFS, 3, 21, fh(SINK) + h(0) + w(0)),
    'proc-22': call(33, NFS, 3, 22),
    'nfs-v4': call(34, NFS, 4, 0),
    'nlm': call(35, 100021, 4, 0),
    'rpcvers-3': w(36, 0, 3, NFS, 3, 0, 0, 0, 0, 0),
    'getattr-stale': call(37, NFS, 3, 1, fh(999)),
    'getattr-badhandle': call(38, NFS, 3, 1, opaque(b'\1\2\3\4')),
    'lookup-name-256': call(40, NFS, 3, 3, fh(ROOT) + opaque(b'n' * 256)),
    'read-garbage': call(39, NFS, 3, 6, w(16) + b'rq'),
}
mount = {
    'mnt-null': call(101, MNT, 3, 0),
    'mnt-root': call(102, MNT, 3, 1, opaque(b'/')),
    'mnt-other': call(103, MNT, 3, 1, opaque(b'/export')),
    'mnt-dump': call(104, MNT, 3, 2),
    'mnt-umnt': call(105, MNT, 3, 3, opaque(b'/')),
    'mnt-umntall': call(106, MNT, 3, 4),
    'mnt-export': call(107, MNT, 3, 5),
    'mnt-v1': call(108, MNT, 1, 0),
    'mnt-proc-6': call(109, MNT, 3, 6),
}
# the decoders alone (0xf0 + the index of decs[] in the target)
decs = {
    0: fh(HELLO), 1: opaque(b'hello.txt'), 2: fh(ROOT) + opaque(b'many'),
    5: fh(ROOT) + w(0x3f), 6: fh(DATA) + h(4096) + w(8192),
    7: fh(SINK) + h(0) + w(3, 0) + opaque(b'abc'), 8: fh(SINK) + h(0) + w(0),
    9: fh(ROOT) + h(0) + VERF + w(4096), 10: fh(ROOT) + h(0) + VERF + w(1024, 8192),
    15: opaque(b'/'),
}
out = sys.argv[1]
os.makedirs(out, exist_ok=True)
for name, m in seeds.items():
    open(os.path.join(out, 'nfs-' + name), 'wb').write(b'\0' + m)
for name in ('readdir-many-cont', 'read-data', 'readdirplus-many', 'lookup-hello'):
    open(os.path.join(out, 'cut-' + name), 'wb').write(b'\2\x60' + seeds[name])
for name, m in mount.items():
    open(os.path.join(out, name), 'wb').write(b'\1' + m)
for k, m in decs.items():
    open(os.path.join(out, 'dec-%02d' % k), 'wb').write(bytes([0xf0 + k]) + m)
