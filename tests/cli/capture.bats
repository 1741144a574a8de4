#!/usr/bin/env bats
# capture.bats - rpcrdma-decode -r: every link type and transport decodes to
# the same messages, the hard cases (multi-packet SEND and READ response, FPDU
# split across TCP segments, out-of-order and retransmitted TCP, markers,
# VLAN, IPv6, pcapng, stdin), CRC failures, truncated files, --check against
# tests/capgen/lint-expect.txt, --stats, filters, and robustness under
# ASan+UBSan on corrupted captures.
# Env: TOP (repo root), BUILD, BIN.  Captures: $BUILD/captures (make captures).

load /usr/lib/bats/bats-support/load.bash
load /usr/lib/bats/bats-assert/load.bash
bats_require_minimum_version 1.5.0

setup_file() {
	export TOP=${TOP:-$(cd "$BATS_TEST_DIRNAME/../.." && pwd)}
	export BUILD=${BUILD:-$TOP/build}
	export BIN=${BIN:-$BUILD/bin}
	export CAPS=$BUILD/captures
	export FIX=$BATS_FILE_TMPDIR
	# fixtures derived from the generator's captures (tests/capgen)
	if [ -e "$CAPS/rocev2-v1-basic.pcap" ]; then
		python3 - "$CAPS" "$FIX" <<'PY'
import struct, sys, random, os
caps, fix = sys.argv[1], sys.argv[2]
def read(path):
    b = open(path, 'rb').read()
    hdr, off, recs = b[:24], 24, []
    while off + 16 <= len(b):
        ts, us, incl, orig = struct.unpack('<IIII', b[off:off+16])
        recs.append((b[off:off+16], b[off+16:off+16+incl])); off += 16 + incl
    return hdr, recs
def write(path, hdr, recs):
    with open(path, 'wb') as f:
        f.write(hdr)
        for h, d in recs: f.write(h + d)
hdr, recs = read(caps + '/rocev2-v1-basic.pcap')
# a retransmitted SEND ONLY: the first one again, right after itself
i = next(i for i, (h, d) in enumerate(recs)
         if d[12:14] == b'\x08\x00' and d[23] == 17 and d[36:38] == b'\x12\xb7' and d[42] == 4)
write(fix + '/retrans.pcap', hdr, recs[:i + 1] + recs[i:])
# InfiniBand (DLT 247): frame 1 with its VCRC broken; frame 1 with a
# payload byte changed and the VCRC made right again (so the ICRC fails)
def vcrc(data):
    c = 0xffff
    for x in data:
        c ^= x
        for _ in range(8):
            c = (c >> 1) ^ 0xd008 if c & 1 else c >> 1
    return c ^ 0xffff
ih, irs = read(caps + '/ib-247.pcap')
# the first RC SEND ONLY (LRH, maybe GRH, then the BTH)
k = next(k for k, (h, d) in enumerate(irs) if d[8 + (40 if d[1] & 3 == 3 else 0)] == 4)
open(fix + '/ib-frame', 'w').write(str(k + 1))
rh, d = irs[k]
bad = bytearray(d); bad[-1] ^= 0xff
write(fix + '/ib-badvcrc.pcap', ih, irs[:k] + [(rh, bytes(bad))] + irs[k + 1:])
bad = bytearray(d); bad[-12] ^= 0x01
assert vcrc(d[:-2]) in (struct.unpack('<H', d[-2:])[0], struct.unpack('>H', d[-2:])[0])
le = struct.unpack('<H', d[-2:])[0] == vcrc(d[:-2])
bad[-2:] = struct.pack('<H' if le else '>H', vcrc(bytes(bad[:-2])))
write(fix + '/ib-badicrc.pcap', ih, irs[:k] + [(rh, bytes(bad))] + irs[k + 1:])
# the same connection twice (CM REQ/REP again, same QPNs, same PSNs)
if os.path.exists(caps + '/rocev2-cm.pcap'):
    ch, crs = read(caps + '/rocev2-cm.pcap')
    write(fix + '/cm-twice.pcap', ch, crs + crs)
# a corrupt record header: the 5th record claims 4 GiB
b = bytearray(open(caps + '/rocev2-v1-basic.pcap', 'rb').read())
off = 24
for _ in range(4):
    off += 16 + struct.unpack('<I', b[off + 8:off + 12])[0]
b[off + 8:off + 12] = struct.pack('<I', 0xfffffff0)
open(fix + '/bogus-record.pcap', 'wb').write(b)
open(fix + '/bogus-offset', 'w').write(str(off))
# 802.1ad: an S-tag in front of every C-tag of rocev2-vlan.pcap
if os.path.exists(caps + '/rocev2-vlan.pcap'):
    vh, vrs = read(caps + '/rocev2-vlan.pcap')
    out = []
    for rh, d in vrs:
        d = d[:12] + b'\x88\xa8\x00\x64' + d[12:]
        ts, us, incl, orig = struct.unpack('<IIII', rh)
        out.append((struct.pack('<IIII', ts, us, incl + 4, orig + 4), d))
    write(fix + '/qinq.pcap', vh, out)
# ERF records with one extension header each (type bit 0x80)
if os.path.exists(caps + '/ib-erf.pcap'):
    eh, ers = read(caps + '/ib-erf.pcap')
    out = []
    for rh, d in ers:
        rlen = struct.unpack('>H', d[10:12])[0] + 8
        d = d[:8] + bytes([d[8] | 0x80]) + d[9:10] + struct.pack('>H', rlen) + d[12:16] + \
            bytes([0x01, 0, 0, 0, 0, 0, 0, 0]) + d[16:]
        ts, us, incl, orig = struct.unpack('<IIII', rh)
        out.append((struct.pack('<IIII', ts, us, incl + 8, orig + 8), d))
    write(fix + '/erf-ext.pcap', eh, out)
# iWARP streams cut again at random points, pieces of one segment swapped
# and repeated: TCP reassembly must give back the same byte stream
def resegment(path, out_path, seed):
    rnd = random.Random(seed)
    h, rs = read(path)
    out = []
    for rh, d in rs:
        ihl = (d[14] & 15) * 4
        tcp = 14 + ihl
        doff = (d[tcp + 12] >> 4) * 4
        payload = d[tcp + doff:]
        if d[23] != 6 or not payload:
            out.append((rh, d))
            continue
        seq = struct.unpack('>I', d[tcp + 4:tcp + 8])[0]
        pieces, off = [], 0
        while off < len(payload):
            n = rnd.randint(1, 300)
            pieces.append((off, payload[off:off + n]))
            off += n
        if len(pieces) > 1 and rnd.random() < 0.5:
            i = rnd.randrange(len(pieces) - 1)
            pieces[i], pieces[i + 1] = pieces[i + 1], pieces[i]
        if rnd.random() < 0.3:
            pieces.insert(rnd.randrange(len(pieces) + 1), rnd.choice(pieces))
        ts, us, incl, orig = struct.unpack('<IIII', rh)
        for off, p in pieces:
            hdr = bytearray(d[:tcp + doff])
            struct.pack_into('>H', hdr, 16, ihl + doff + len(p))
            struct.pack_into('>I', hdr, tcp + 4, (seq + off) & 0xffffffff)
            pkt = bytes(hdr) + p
            out.append((struct.pack('<IIII', ts, us, len(pkt), len(pkt)), pkt))
    write(out_path, h, out)
for name in ('iwarp-basic', 'iwarp-markers'):
    if os.path.exists(caps + '/' + name + '.pcap'):
        for seed in range(3):
            resegment(caps + '/' + name + '.pcap', '%s/reseg-%s-%d.pcap' % (fix, name, seed), seed)
# RoCEv2 with every third packet sent twice (go-back-N retransmissions)
ch2, crs2 = read(caps + '/rocev2-v1-chunks.pcap')
out = []
for i, r in enumerate(crs2):
    out.append(r)
    if i % 3 == 2:
        out.append(r)
write(fix + '/roce-dups.pcap', ch2, out)
# an unsupported link type (DLT_IEEE802_11 = 105)
write(fix + '/linktype105.pcap', hdr[:20] + struct.pack('<I', 105), recs)
# corrupted copies of every capture: random byte flips, fixed seeds
import glob, os
os.makedirs(fix + '/fuzz', exist_ok=True)
for i, path in enumerate(sorted(glob.glob(caps + '/*.pcap'))):
    h, rs = read(path)
    for s in range(2):
        rnd = random.Random(i * 10 + s)
        out = []
        for rh, d in rs:
            d = bytearray(d)
            for _ in range(rnd.randint(0, 3)):
                if d: d[rnd.randrange(len(d))] = rnd.randrange(256)
            if rnd.random() < 0.1 and len(d) > 20:
                cut = rnd.randrange(len(d))
                d = d[:cut]
                rh = rh[:8] + struct.pack('<II', len(d), struct.unpack('<I', rh[12:16])[0])
            out.append((rh, bytes(d)))
        write('%s/fuzz/%s.%d.pcap' % (fix, os.path.basename(path), s), h, out)
    # and cut short at a few offsets
    b = open(path, 'rb').read()
    for s, cut in enumerate((25, 40, len(b) // 2, len(b) - 3)):
        open('%s/fuzz/%s.cut%d.pcap' % (fix, os.path.basename(path), s), 'wb').write(b[:cut])
PY
	fi
	# state limits: 5000 conversations, then 70000 calls that are never
	# answered, each advertising a read segment (RoCEv2 with a real ICRC)
	python3 - "$FIX/limits.pcap" <<'PY'
import struct, sys, zlib
out = open(sys.argv[1], 'wb')
out.write(struct.pack('<IHHiIII', 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))
def rocev2(src, dst, qp, psn, payload, op=0x04):
    bth = struct.pack('>BBHI I', op, 0, 0xffff, qp & 0xffffff, psn & 0xffffff)
    ulen = 8 + len(bth) + len(payload) + 4
    ip = struct.pack('>BBHHHBBH4s4s', 0x45, 0, 20 + ulen, 0, 0x4000, 64, 17, 0, src, dst)
    udp = struct.pack('>HHHH', 0xc000, 4791, ulen, 0)
    m = bytearray(ip + udp + bth)
    m[1] = m[8] = m[10] = m[11] = 0xff
    m[26] = m[27] = 0xff
    m[28 + 4] = 0xff
    icrc = zlib.crc32(b'\xff' * 8 + bytes(m) + payload) & 0xffffffff
    return b'\x02' * 6 + b'\x04' * 6 + b'\x08\x00' + ip + udp + bth + payload + struct.pack('<I', icrc)
def call(xid, nread):
    h = struct.pack('>IIII', xid, 1, 32, 0)
    for i in range(nread):
        h += struct.pack('>IIIIQ', 1, 44, 0x1000 + xid % 7, 8192, 0x7f0000000000 + 8192 * i)
    h += struct.pack('>III', 0, 0, 0)
    return h + struct.pack('>' + 'I' * 10, xid, 0, 2, 100003, 3, 7, 0, 0, 0, 0) + b'\0' * 8
n = 0
def put(pkt):
    global n
    n += 1
    out.write(struct.pack('<IIII', 1700000000 + n // 1000000, n % 1000000, len(pkt), len(pkt)) + pkt)
# a connection whose start is captured (CM REQ/REP): two calls before the
# first grant (V1 4.3.3), then a backward call with zero credits (V1 7.2.1)
def mad(attr, body):
    m = bytes([1, 7, 2, 3]) + b'\0' * 12 + struct.pack('>HHI', attr, 0, 0) + body
    return m + b'\0' * (256 - len(m))
def ud_cm(src, dst, m):
    # UD SEND ONLY to QP1, DETH (Q_Key, source QP 1), then the MAD
    return rocev2(src, dst, 1, 0, struct.pack('>II', 0x80010000, 1) + m, op=0x64)
A, B = b'\xc6\x12\x00\x0a', b'\xc6\x12\x00\x0b'
def reply(xid, credits):
    return struct.pack('>IIII', xid, 1, credits, 0) + b'\0' * 12 + \
        struct.pack('>' + 'I' * 6, xid, 1, 0, 0, 0, 0) + b'\0' * 8
def cbcall(xid, credits):
    return struct.pack('>IIII', xid, 1, credits, 0) + b'\0' * 12 + \
        struct.pack('>' + 'I' * 10, xid, 0, 2, 0x40000000, 1, 1, 0, 0, 0, 0)
cs = open(sys.argv[1].replace('limits.pcap', 'credit-start.pcap'), 'wb')
cs.write(struct.pack('<IHHiIII', 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))
for i, pkt in enumerate([
        ud_cm(A, B, mad(0x10, struct.pack('>II', 0xc0de0001, 0) + b'\0' * 24 + struct.pack('>I', 0x100 << 8))),
        ud_cm(B, A, mad(0x13, struct.pack('>III', 0xc0de0002, 0xc0de0001, 0) + struct.pack('>I', 0x200 << 8))),
        rocev2(A, B, 0x200, 10, call(1, 0)),
        rocev2(A, B, 0x200, 11, call(2, 0)),
        rocev2(B, A, 0x100, 50, reply(1, 32)),
        rocev2(B, A, 0x100, 51, cbcall(0x99, 0)),
        rocev2(A, B, 0x100 * 0 + 0x200, 12, reply(0x99, 8)),
        rocev2(B, A, 0x100, 52, reply(2, 32)),
        # DREQ from A to B (Remote QPN = B's); B, not yet gone, sends
        # its last reply again (the same PSN: a retransmission, not a
        # message); B's DREP; then the QPs reused
        ud_cm(A, B, mad(0x15, struct.pack('>III', 0xc0de0001, 0xc0de0002, 0x200 << 8))),
        rocev2(B, A, 0x100, 52, reply(2, 32)),
        ud_cm(B, A, mad(0x16, struct.pack('>II', 0xc0de0002, 0xc0de0001))),
        rocev2(A, B, 0x200, 5, call(3, 0))]):
    cs.write(struct.pack('<IIII', 1700000000, i, len(pkt), len(pkt)) + pkt)
cs.close()
# a connection whose first reply is an RDMA_NOMSG (its RPC reply in the reply
# chunk the call offered): that reply grants 32 like any other (V1 4.3.3);
# the two calls after it are within the grant
def msg_rc(xid):    # RDMA_MSG call offering a reply chunk of one segment
    return struct.pack('>IIII', xid, 1, 32, 0) + struct.pack('>III', 0, 0, 1) + \
        struct.pack('>IIIQ', 1, 0x77, 8192, 0x7f0000100000) + \
        struct.pack('>' + 'I' * 10, xid, 0, 2, 100003, 3, 17, 0, 0, 0, 0)
nomsg = lambda xid: struct.pack('>IIII', xid, 1, 32, 1) + struct.pack('>III', 0, 0, 1) + \
    struct.pack('>IIIQ', 1, 0x77, 200, 0x7f0000100000)
ng = open(sys.argv[1].replace('limits.pcap', 'nomsg-grant.pcap'), 'wb')
ng.write(struct.pack('<IHHiIII', 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1))
for i, pkt in enumerate([
        ud_cm(A, B, mad(0x10, struct.pack('>II', 0xc0de0011, 0) + b'\0' * 24 + struct.pack('>I', 0x300 << 8))),
        ud_cm(B, A, mad(0x13, struct.pack('>III', 0xc0de0012, 0xc0de0011, 0) + struct.pack('>I', 0x400 << 8))),
        rocev2(A, B, 0x400, 20, msg_rc(0x51)),
        # the RPC reply into the reply chunk (RDMA WRITE ONLY, RETH), then
        # the RDMA_NOMSG that says it is there
        rocev2(B, A, 0x300, 69, struct.pack('>QII', 0x7f0000100000, 0x77, 200) +
               struct.pack('>' + 'I' * 6, 0x51, 1, 0, 0, 0, 0) + b'\0' * 176, op=0x0a),
        rocev2(B, A, 0x300, 70, nomsg(0x51)),
        rocev2(A, B, 0x400, 21, call(0x52, 0)),
        rocev2(A, B, 0x400, 22, call(0x53, 0))]):
    ng.write(struct.pack('<IIII', 1700000000, i, len(pkt), len(pkt)) + pkt)
ng.close()
for c in range(5000):
    put(rocev2(struct.pack('>I', 0x0a000000 + c), b'\xc6\x12\x00\x01', 0x11, 1, call(c + 1, 0)))
for i in range(70000):
    put(rocev2(b'\xc6\x12\x00\x02', b'\xc6\x12\x00\x01', 0x22, i, call(0x100000 + i, 1)))
PY
	# rpcrdma-decode under ASan+UBSan, for the robustness tests: make check
	# builds it (tools/module.mk, DECODE_ASAN: the same sources and flags,
	# -O1 -g and mk/config.mk's SAN_FLAGS); compiling another copy here cost
	# ~30 CPU-s of this suite
	export ASAN_DECODE=$BUILD/asan/rpcrdma-decode
}

setup() {
	D=$BIN/rpcrdma-decode
}

# the frame lint-expect.txt plants CHECK at in FILE
planted() {
	awk -v f="$1" -v c="$2" '$1 == f && $3 == c { print $2; exit }' "$CAPS/lint-expect.txt"
}

need() {
	for f in "$@"; do
		[ -e "$CAPS/$f" ] || skip "$CAPS/$f absent (make captures)"
	done
}

# the messages of a capture as JSON, without what depends on the link and
# the framing: frame numbers, times, addresses, transport
messages() {
	"$D" --json -r "$1" | python3 -c '
import json, sys
for l in sys.stdin:
    o = json.loads(l)
    for k in ("file", "frame", "time", "src", "dst", "transport", "src_qp", "dst_qp",
              "src_port", "dst_port"):
        o.pop(k, None)
    for d in (o.get("chunk_data") or {}).values():
        d.pop("first_frame"), d.pop("last_frame")
    for k in ("call_frame", "latency_us"):
        (o.get("rpc") or {}).pop(k, None)
    print(json.dumps(o, sort_keys=True))'
}

@test "RoCEv2 over IPv4: calls and replies with their RPC summaries" {
	need rocev2-v1-basic.pcap
	run "$D" -r "$CAPS/rocev2-v1-basic.pcap"
	assert_success
	assert_line --index 0 --regexp '^ +[0-9]+ .*198\.18\.0\.1.* > 198\.18\.0\.2/qp=0x456 .*v1 RDMA_MSG .*xid 0x5a000001 .*credits +32 .*NFS v3 GETATTR call$'
	assert_line --index 1 --regexp '^ +[0-9]+ .*xid 0x5a000001 .*NFS v3 GETATTR reply$'
	assert_line --regexp 'NFS v4 COMPOUND call PUTROOTFH GETFH$'
	assert_line --regexp 'NFS v4 COMPOUND reply PUTROOTFH GETFH$'
	[ "$(grep -cE ' call( [A-Z_ ]+)?$' <<<"$output")" -eq "$(grep -cE ' reply( [A-Z_ ]+)?$' <<<"$output")" ]
}

@test "CM REQ/REP name the QP pair: both QPs known from the first message" {
	need rocev2-cm.pcap
	run "$D" -r "$CAPS/rocev2-cm.pcap"
	assert_success
	assert_line --index 0 --regexp ' 198\.18\.0\.1/qp=0x123 +> 198\.18\.0\.2/qp=0x456 .*GETATTR call$'
	run "$D" --stats -r "$CAPS/rocev2-cm.pcap"
	assert_line --regexp '^conversation 1: '
	refute_line --regexp '^conversation 2: '
}

@test "a new CM exchange on the same QPs starts a new conversation" {
	[ -e "$FIX/cm-twice.pcap" ] || skip "no rocev2-cm.pcap"
	one=$("$D" -r "$CAPS/rocev2-cm.pcap" | wc -l)
	run "$D" -r "$FIX/cm-twice.pcap"
	assert_success
	[ "${#lines[@]}" -eq $((2 * one)) ]
	run "$D" --stats -r "$FIX/cm-twice.pcap"
	assert_line --regexp '^conversation 2: '
	refute_output --regexp 'retransmissions [1-9]'
}

@test "every link type and transport gives the same messages" {
	need rocev2-v1-chunks.pcap rocev2-vlan.pcap rocev2-ipv6.pcap rocev2-pcapng.pcapng \
		rocev1.pcap ib-247.pcap ib-erf.pcap ib-grh.pcap sll.pcap sll2.pcap
	ref=$(messages "$CAPS/rocev2-v1-chunks.pcap")
	[ "$(wc -l <<<"$ref")" -ge 8 ]
	for f in rocev2-vlan.pcap rocev2-ipv6.pcap rocev2-pcapng.pcapng rocev1.pcap \
		 ib-247.pcap ib-erf.pcap ib-grh.pcap sll.pcap sll2.pcap; do
		got=$(messages "$CAPS/$f")
		[ "$got" = "$ref" ] || { echo "$f differs:"; diff <(echo "$ref") <(echo "$got"); return 1; }
	done
}

@test "802.1ad double tags and ERF extension headers give the same messages" {
	[ -e "$FIX/qinq.pcap" ] && [ -e "$FIX/erf-ext.pcap" ] || skip "no generator captures"
	[ "$(messages "$FIX/qinq.pcap")" = "$(messages "$CAPS/rocev2-vlan.pcap")" ]
	[ "$(messages "$FIX/erf-ext.pcap")" = "$(messages "$CAPS/ib-erf.pcap")" ]
	[ "$(messages "$FIX/qinq.pcap" | wc -l)" -ge 8 ]
}

@test "transport names: rocev2, rocev1, infiniband, iwarp" {
	need rocev2-v1-basic.pcap rocev1.pcap ib-247.pcap iwarp-basic.pcap
	run "$D" --json -r "$CAPS/rocev1.pcap"
	assert_output --partial '"transport":"rocev1"'
	run "$D" --json -r "$CAPS/ib-247.pcap"
	assert_output --partial '"transport":"infiniband"'
	assert_output --partial '"src":"lid:0x0011'
	run "$D" --json -r "$CAPS/iwarp-basic.pcap"
	assert_output --partial '"transport":"iwarp"'
	assert_output --partial '"src":"198.18.0.1","src_port":40001,"dst":"198.18.0.2","dst_port":20049'
}

@test "iWARP: split FPDUs, out-of-order TCP and markers give the same messages" {
	need iwarp-basic.pcap iwarp-split.pcap iwarp-ooo.pcap iwarp-markers.pcap
	ref=$(messages "$CAPS/iwarp-basic.pcap")
	[ "$(wc -l <<<"$ref")" -ge 10 ]
	for f in iwarp-split.pcap iwarp-ooo.pcap iwarp-markers.pcap; do
		got=$(messages "$CAPS/$f")
		[ "$got" = "$ref" ] || { echo "$f differs:"; diff <(echo "$ref") <(echo "$got"); return 1; }
	done
}

@test "iWARP: TCP cut again at random points, reordered and repeated: same messages" {
	need iwarp-basic.pcap iwarp-markers.pcap
	for name in iwarp-basic iwarp-markers; do
		ref=$(messages "$CAPS/$name.pcap")
		for seed in 0 1 2; do
			got=$(messages "$FIX/reseg-$name-$seed.pcap")
			[ "$got" = "$ref" ] || { echo "$name seed $seed differs"; diff <(echo "$ref") <(echo "$got") | head; return 1; }
		done
		run "$D" --check -r "$FIX/reseg-$name-0.pcap"
		assert_success
	done
}

@test "multi-packet SEND: reassembled, numbered by the frame of SEND LAST" {
	need rocev2-v1-multisend.pcap
	run "$D" -V -r "$CAPS/rocev2-v1-multisend.pcap"
	assert_success
	# every reassembled Send is printed under the frame of its last packet
	n=0
	while read -r first last; do
		grep -q "^frame $last " <<<"$output"
		[ "$last" -gt "$first" ]
		n=$((n + 1))
	done < <(sed -nE 's/^  reassembly: Send of [0-9]+ packets, frames ([0-9]+)-([0-9]+)$/\1 \2/p' <<<"$output")
	[ "$n" -ge 2 ]
	assert_output --partial 'call NFS v3 SYMLINK'
	run "$D" --json -r "$CAPS/rocev2-v1-multisend.pcap"
	grep '"xid":"0x5a000002",' <<<"$output" | grep -q '"proc_name":"SYMLINK"'
}

@test "Long Call: position-zero read chunk fetched by multi-packet READ response, call rebuilt" {
	need rocev2-v1-chunks.pcap
	run "$D" --json -r "$CAPS/rocev2-v1-chunks.pcap"
	line=$(grep '"proc_name":"RDMA_NOMSG"' <<<"$output" | grep '"direction":"call"')
	[[ $line == *'"rpc_source":"position-zero read chunk"'* ]]
	[[ $line == *'"prog":100003'* && $line == *'"proc_name":"SYMLINK"'* ]]
	# numbered by its Send, though printed once the READ responses are in
	frame=$(sed -E 's/.*"frame":([0-9]+),.*/\1/' <<<"$line")
	grep -q "\"proc_name\":\"SYMLINK\",\"call_frame\":$frame[,}]" <<<"$output"
	run "$D" -V -r "$CAPS/rocev2-v1-chunks.pcap"
	assert_output --regexp 'read chunk data: 1620 bytes, frames [0-9]+-[0-9]+'
}

@test "Long Reply: reply chunk data rebuilt into the RPC reply" {
	need iwarp-basic.pcap
	run "$D" -V -r "$CAPS/iwarp-basic.pcap"
	assert_output --regexp 'reply to NFS v3 READDIR \(reply chunk\), call in frame [0-9]+'
	assert_output --regexp 'reply chunk data: [0-9]+ bytes, frames [0-9]+-[0-9]+'
}

@test "a retransmitted SEND is shown once and counted" {
	[ -e "$FIX/retrans.pcap" ] || skip "no generator captures"
	run "$D" -r "$FIX/retrans.pcap"
	assert_success
	[ "$(grep -c 'xid 0x5a000001 .*GETATTR call' <<<"$output")" -eq 1 ]
	run "$D" --stats -r "$FIX/retrans.pcap"
	assert_output --regexp 'retransmissions 1'
}

@test "RoCEv2 packets repeated: same messages, retransmissions counted, no violation" {
	[ -e "$FIX/roce-dups.pcap" ] || skip "no generator captures"
	[ "$(messages "$FIX/roce-dups.pcap")" = "$(messages "$CAPS/rocev2-v1-chunks.pcap")" ]
	run "$D" --check -r "$FIX/roce-dups.pcap"
	assert_success
	run "$D" --stats -r "$FIX/roce-dups.pcap"
	assert_line --regexp 'retransmissions [1-9]'
}

@test "backward direction: callbacks matched in their own XID space" {
	need rocev2-bidir.pcap
	run "$D" --json -r "$CAPS/rocev2-bidir.pcap"
	assert_success
	# the same XID 0x5a000002 is a forward COMPOUND and a backward CB_COMPOUND
	[ "$(grep -c '"xid":"0x5a000002",.*"call_frame"' <<<"$output")" -eq 2 ]
	cb=$(jq -c 'select(.xid == "0x5a000002" and .direction == "call" and
		.rpc.proc_name == "CB_COMPOUND") | .frame' <<<"$output")
	[ "$(jq -c "select(.rpc.proc_name == \"CB_COMPOUND\" and .rpc.call_frame == $cb) | .frame" <<<"$output" | wc -l)" -eq 1 ]
	run "$D" --stats -r "$CAPS/rocev2-bidir.pcap"
	assert_output --regexp 'backward calls [1-9]'
}

@test "--json marks backward-direction messages and multi-packet Sends" {
	need rocev2-bidir.pcap
	need rocev2-v1-multisend.pcap
	run "$D" --json -r "$CAPS/rocev2-bidir.pcap"
	assert_success
	# every CB_COMPOUND call and its reply are backward; NFS COMPOUNDs are not
	[ "$(jq -r 'select(.rpc.proc_name == "CB_COMPOUND") | .backward' <<<"$output" | sort -u)" = true ]
	[ "$(jq -r 'select(.rpc.proc_name == "COMPOUND") | .backward' <<<"$output" | sort -u)" = false ]
	run "$D" --json -r "$CAPS/rocev2-v1-multisend.pcap"
	assert_success
	# a Send of several packets names its first frame and its packet count
	jq -e -s 'map(select(.frames != null)) | length > 0 and all(.frames > 1 and .first_frame < .frame)' <<<"$output"
}

@test "Version Two decodes" {
	need rocev2-v2.pcap
	run "$D" -r "$CAPS/rocev2-v2.pcap"
	assert_success
	assert_line --regexp 'v2 RDMA2_MSG .*NFS v3 GETATTR call$'
	assert_line --regexp 'v2 RDMA2_NOMSG .*SYMLINK call$'
}

@test "standard input: -r - gives what the file gives" {
	need rocev2-v1-basic.pcap rocev2-pcapng.pcapng
	for f in rocev2-v1-basic.pcap rocev2-pcapng.pcapng; do
		a=$("$D" -r "$CAPS/$f")
		b=$("$D" -r - <"$CAPS/$f")
		[ "$a" = "$b" ]
	done
}

@test "JSON lines: one object per message with the capture keys (records apart)" {
	need iwarp-basic.pcap rocev2-v1-chunks.pcap
	for f in iwarp-basic.pcap rocev2-v1-chunks.pcap; do
		"$D" --json -r "$CAPS/$f" | python3 -c '
import json, sys
n = 0
for l in sys.stdin:
    o = json.loads(l)
    if "type" in o:                 # a connection or "lost" record
        assert o["type"] in ("connection", "lost") and "xid" not in o, l
        continue
    n += 1
    for k in ("frame", "time", "src", "dst", "transport", "conversation", "xid", "vers", "credits"):
        assert k in o, (k, l)
    assert isinstance(o["frame"], int) and o["frame"] >= 1
assert n >= 8, n'
	done
}

@test "ICRC failure: flagged, the packet is dropped" {
	need rocev2-badcrc.pcap
	fr=$(planted rocev2-badcrc.pcap crc-error)
	run "$D" --check -r "$CAPS/rocev2-badcrc.pcap"
	assert_failure 1
	assert_line --regexp "^frame $fr: crc-error: ICRC mismatch"
	run "$D" -r "$CAPS/rocev2-badcrc.pcap"
	assert_success
	refute_line --regexp "^ +$fr "
	assert_output --partial "frame $fr: ICRC mismatch"
	run "$D" --stats -r "$CAPS/rocev2-badcrc.pcap"
	[ "$(grep -c 'CRC failures 1' <<<"$output")" -eq 2 ]    # conversation, overall
}

@test "a long call whose read chunk the capture has only part of: no RPC message shown, no false xid-mismatch" {
	need rocev2-read-partial.pcap
	f=$CAPS/rocev2-read-partial.pcap
	fr=$(planted rocev2-read-partial.pcap crc-error)
	run "$D" --check -r "$f"
	assert_failure 1
	assert_line --regexp "^frame $fr: crc-error: ICRC mismatch"
	assert_line '1 violations'          # that one: no xid-mismatch after it
	run "$D" -V -r "$f"
	assert_success
	call=$(awk '/^frame /{ p = ($2 == 5) } p' <<<"$output")
	[[ $call == *"rdma_proc: RDMA_NOMSG"* && $call == *"read chunk data: 596 bytes"* ]]
	[[ $call != *"rpc: "* ]]            # its RPC header lay in the lost part
}

@test "native InfiniBand: VCRC and ICRC failures flagged, packet dropped" {
	[ -e "$FIX/ib-badvcrc.pcap" ] || skip "no generator captures"
	fr=$(cat "$FIX/ib-frame")
	run "$D" --check -r "$FIX/ib-badvcrc.pcap"
	assert_failure 1
	assert_output --regexp "^frame $fr: crc-error: VCRC 0x[0-9a-f]{4}, computed"
	run "$D" --check -r "$FIX/ib-badicrc.pcap"
	assert_failure 1
	assert_output --regexp "^frame $fr: crc-error: ICRC mismatch"
	refute_output --partial VCRC
	run "$D" -r "$FIX/ib-badicrc.pcap"
	refute_line --regexp "^ +$fr "
}

@test "MPA CRC32c failure: flagged" {
	need iwarp-badcrc.pcap
	run "$D" --check -r "$CAPS/iwarp-badcrc.pcap"
	assert_failure 1
	assert_line --regexp "^frame $(planted iwarp-badcrc.pcap crc-error): crc-error: MPA CRC32c mismatch"
}

@test "truncated capture file: earlier messages, then the message, exit 3" {
	need rocev2-truncated.pcap
	# where the last whole record ends, and how many frames come before
	read -r n off < <(python3 -c '
import struct, sys
b = open(sys.argv[1], "rb").read(); off, n = 24, 0
while off + 16 <= len(b) and off + 16 + struct.unpack("<I", b[off+8:off+12])[0] <= len(b):
    off += 16 + struct.unpack("<I", b[off+8:off+12])[0]; n += 1
print(n, off)' "$CAPS/rocev2-truncated.pcap")
	full=$("$D" --json -r "$CAPS/rocev2-truncated.pcap" 2>/dev/null | grep -c '"frame"')
	run --separate-stderr "$D" -r "$CAPS/rocev2-truncated.pcap"
	assert_failure 3
	[ "${#lines[@]}" -eq "$full" ] && [ "$full" -ge 4 ]
	[[ $stderr == *"rpcrdma-decode: $CAPS/rocev2-truncated.pcap: truncated at frame $((n + 1)) (byte offset $off)"* ]]
	run --separate-stderr "$D" -r - <"$CAPS/rocev2-truncated.pcap"
	assert_failure 3
	[[ $stderr == *"rpcrdma-decode: stdin: truncated at frame $((n + 1)) (byte offset $off)"* ]]
}

@test "corrupt record header: earlier messages, the frame, the reason, exit 3" {
	[ -e "$FIX/bogus-record.pcap" ] || skip "no generator captures"
	run --separate-stderr "$D" -r "$FIX/bogus-record.pcap"
	assert_failure 3
	[ "${#lines[@]}" -ge 1 ]
	[[ $stderr == *"bogus-record.pcap: truncated at frame 5 (byte offset $(cat "$FIX/bogus-offset"))"* ]]
	[[ $stderr == *"bogus-record.pcap: frame 5: invalid packet capture length"* ]]
}

@test "snapshot length: headers still decoded, no violation" {
	need rocev2-snaplen.pcap
	run "$D" -r "$CAPS/rocev2-snaplen.pcap"
	assert_success
	assert_line --regexp 'xid 0x5a000001 .*GETATTR call$'
	run "$D" --check -r "$CAPS/rocev2-snaplen.pcap"
	assert_success
}

@test "--check --json: one object per violation, and the total on stderr" {
	need lint-credits-exceeded.pcap
	run --separate-stderr "$D" --check --json -r "$CAPS/lint-credits-exceeded.pcap"
	assert_failure 1
	python3 -c 'import json,sys; o=json.loads(sys.argv[1]); assert o["frame"]==int(sys.argv[2]) and o["check"]=="credits-exceeded" and o["section"]=="V1 4.3.1" and o["text"]' "$output" "$(planted lint-credits-exceeded.pcap credits-exceeded)"
	[ "$stderr" = "1 violations" ]
}

@test "--inline-threshold changes what inline-too-large reports" {
	need lint-inline-too-large.pcap rocev2-v1-basic.pcap
	run "$D" --check --inline-threshold 4096 -r "$CAPS/lint-inline-too-large.pcap"
	refute_output --partial inline-too-large
	run "$D" --check --inline-threshold 1024 -r "$CAPS/lint-inline-too-large.pcap"
	assert_failure 1
	assert_output --partial 'inline-too-large: 1148-byte Send exceeds the receiver'"'"'s 1024-byte inline threshold'
}

@test "--stats: per conversation and overall, credits, sizes, latency" {
	need rocev2-v1-chunks.pcap
	run "$D" --stats -r "$CAPS/rocev2-v1-chunks.pcap"
	assert_success
	assert_line --regexp '^conversation 1: 198\.18\.0\.1 <-> 198\.18\.0\.2 \(rocev2\)'
	frames=$(capinfos -c -M "$CAPS/rocev2-v1-chunks.pcap" | awk '/Number of packets/ { print $4 }')
	assert_line --regexp "^overall: $frames frames"
	assert_line --regexp 'v1 messages: 10 \(MSG 8, NOMSG 2\)'
	assert_line --regexp 'credits granted: min 32, max 32, final 32'
	assert_line --regexp 'calls 5, replies 5'
	assert_line --regexp '^  NFS v3 READ +1( +[0-9]+){5}$'
}

@test "--stats: the RFC 8797 private data of both ends, RoCE (CM) and iWARP (MPA v2)" {
	# Linux's NFS client sends 01 01 03 03 (remote invalidation, 4 KiB
	# each way), knfsd answers 01 00 03 03 (tests/captures/README.md)
	local f
	for f in nfs3-rocev2-rxe.pcap nfs3-iwarp-siw.pcap; do
		run "$D" --stats -q -r "$TOP/tests/captures/$f"
		assert_success
		assert_line "  private data: requester RFC 8797 v1, send 4096, receive 4096, remote invalidation; responder RFC 8797 v1, send 4096, receive 4096, no remote invalidation"
	done
	# a capture without the connection's start says nothing about it
	[ -e "$CAPS/rocev2-v1-chunks.pcap" ] || return 0
	run "$D" --stats -r "$CAPS/rocev2-v1-chunks.pcap"
	refute_output --partial "private data"
}

@test "filters: --xid, --conversation, --rdma-version, --program, --procedure" {
	need rocev2-v1-basic.pcap rocev2-v2.pcap
	run "$D" -r "$CAPS/rocev2-v1-basic.pcap" --xid 0x5a000002
	assert_success
	[ "${#lines[@]}" -eq 2 ]
	assert_line --index 0 --partial 'COMPOUND call'
	run "$D" -r "$CAPS/rocev2-v1-basic.pcap" --conversation 2
	[ -z "$output" ]
	run "$D" -r "$CAPS/rocev2-v2.pcap" --rdma-version 1
	[ -z "$output" ]
	# GETATTR (v3) and COMPOUND (v4) are both procedure 1 of NFS
	run "$D" -r "$CAPS/rocev2-v1-basic.pcap" --program 100003 --procedure 1
	[ "${#lines[@]}" -eq 10 ]
	run "$D" -r "$CAPS/rocev2-v1-basic.pcap" --program 100003 --procedure 0
	[ -z "$output" ]
	run "$D" -r "$CAPS/rocev2-v1-basic.pcap" --program 100005
	[ -z "$output" ]
}

@test "--roce-port: another port sees no RoCEv2, and says so (exit 4)" {
	need rocev2-v1-basic.pcap
	run --separate-stderr "$D" --roce-port 9999 -r "$CAPS/rocev2-v1-basic.pcap"
	assert_failure 4
	[ -z "$output" ]
	[[ $stderr == *"no RPC-over-RDMA traffic found in "*" frames"*"(most to port 4791): RoCEv2 on another port? --roce-port 4791"* ]]
}

@test "unsupported link type: named, with the supported ones" {
	[ -e "$FIX/linktype105.pcap" ] || skip "no generator captures"
	run "$D" -r "$FIX/linktype105.pcap"
	assert_failure 3
	assert_output --partial 'unsupported link type 105'
	assert_output --partial 'EN10MB (1), LINUX_SLL (113), ERF (197, InfiniBand records), INFINIBAND (247), LINUX_SLL2 (276)'
}

@test "not a capture: a clear error, exit 3" {
	run "$D" -r "$TOP/Makefile"
	assert_failure 3
	assert_output --regexp "^rpcrdma-decode: $TOP/Makefile: "
	run "$D" -r /nonexistent.pcap
	assert_failure 3
}

@test "robustness: corrupted and cut captures under ASan+UBSan" {
	[ -x "$ASAN_DECODE" ] || { echo "$ASAN_DECODE not built (make check builds it)"; return 1; }
	[ -d "$FIX/fuzz" ] || skip "no generator captures"
	# ten files a run (-r FILE -r FILE ...: one run, each file read in
	# turn, conversations carried from one to the next), each mode; a run
	# that fails is run again a file at a time to name the file.  (One
	# ASan process a file cost ~1,200 starts, most of this suite's time.)
	local files=("$FIX"/fuzz/*.pcap "$CAPS"/*.pcap*) i mode args f
	bad() { [ "$1" -eq 2 ] || [ "$1" -gt 4 ] || grep -q 'Sanitizer' "$FIX/asan.err"; }
	for ((i = 0; i < ${#files[@]}; i += 10)); do
		for mode in -V --check; do
			args=()
			for f in "${files[@]:i:10}"; do args+=(-r "$f"); done
			"$ASAN_DECODE" $mode "${args[@]}" >/dev/null 2>"$FIX/asan.err" && rc=0 || rc=$?
			bad "$rc" || continue
			echo "files $((i + 1))-$((i + 10)) $mode: rc $rc"; head -20 "$FIX/asan.err"
			for f in "${files[@]:i:10}"; do
				"$ASAN_DECODE" $mode -r "$f" >/dev/null 2>"$FIX/asan.err" && rc=0 || rc=$?
				bad "$rc" && { echo "$f $mode alone: rc $rc"; head -20 "$FIX/asan.err"; }
			done
			return 1
		done
	done
	[ "${#files[@]}" -ge 50 ]
}

@test "state limits: warned once each, memory bounded, every call still printed, losses counted, exit 3" {
	[ -s "$FIX/limits.pcap" ] || skip "fixture not built"
	# outputs of 75,000 lines go to files (bats' run would split each
	# into an array, minutes of the suite's time)
	local out=$BATS_TEST_TMPDIR/limits.out err=$BATS_TEST_TMPDIR/limits.err rc
	/usr/bin/time -f 'rss %M' "$D" -r "$FIX/limits.pcap" >"$out" 2>"$err" && rc=0 || rc=$?
	[ "$rc" -eq 3 ]
	grep -qF 'output incomplete: state limits reached' "$err"
	[ "$(wc -l <"$out")" -eq 75000 ]
	[ "$(grep -c 'more than 4096 open conversations' "$err")" -eq 1 ]
	[ "$(grep -c 'more than 65536 calls without a reply' "$err")" -eq 1 ]
	rss=$(sed -n 's/^rss //p' "$err")
	echo "peak RSS $rss KiB"
	[ "$rss" -lt 65536 ]
	"$D" --stats -r "$FIX/limits.pcap" >"$out" 2>/dev/null || true
	grep -qE '^conversation 5001: ' "$out"
	# 5001 conversations in a table of 4096, one call each in flight;
	# 74096 calls in a table of 65536
	grep -qE '^  lost: 905 conversations closed early with a message in flight \(of 905 closed for room\), 9464 calls forgotten before their reply, ' "$out"
	"$D" --json -r "$FIX/limits.pcap" >"$out" 2>/dev/null || true
	grep -qE '^\{"type":"lost","conversations":905,"calls":9464,"untracked_calls":0,"tcp_resyncs":0,' "$out"
}

@test "a captured connection start: one credit until the first grant; backward zero credits" {
	[ -s "$FIX/credit-start.pcap" ] || skip "fixture not built"
	run --separate-stderr "$D" --check -r "$FIX/credit-start.pcap"
	assert_failure 1
	[ "$stderr" = "2 violations" ]
	assert_line --regexp '^frame 4: credits-exceeded: 2 calls outstanding before the peer granted any credit .*\[V1 4\.3\.3\]$'
	assert_line --regexp '^frame 6: zero-credit: backward-direction call with zero credits \[V1 7\.2\.1\]$'
	[ "${#lines[@]}" -eq 2 ]
	run "$D" -r "$FIX/credit-start.pcap"
	assert_line --index 0 --regexp ' 198\.18\.0\.10/qp=0x100 +> 198\.18\.0\.11/qp=0x200 '
	assert_line --regexp 'NFS callback v1 .* call( |$)'
	# between the DREQ and its DREP the conversation still knows its PSNs:
	# the reply sent again is a retransmission; after the DREP the same
	# QPs are a new conversation (and PSN 5 is not a retransmission)
	run "$D" --json -r "$FIX/credit-start.pcap"
	[ "$(grep -v '^{"type":' <<<"$output" | grep -c '"conversation":1,')" -eq 6 ]
	grep -q '"conversation":2,.*"xid":"0x00000003",' <<<"$output"
	run "$D" --stats -r "$FIX/credit-start.pcap"
	assert_line --regexp '^  RDMA bytes .* retransmissions 1, '
}

@test "an RDMA_NOMSG reply to a call is a grant like any other: two calls after it break no credit rule" {
	[ -s "$FIX/nomsg-grant.pcap" ] || skip "fixture not built"
	run --separate-stderr "$D" --check -r "$FIX/nomsg-grant.pcap"
	assert_success
	[ "$stderr" = "" ] || [ "$stderr" = "0 violations" ]
	run "$D" -r "$FIX/nomsg-grant.pcap"
	assert_line --regexp ' RDMA_NOMSG +xid 0x00000051 credits +32 '
	[ "$(grep -c ' call' <<<"$output")" -eq 3 ]
}

@test "1M-frame bench capture: peak RSS under 64 MiB" {
	[ -s "$BUILD/bench/bench-1m.pcap" ] || skip "the 1M-frame capture is made by make bench, not make check ($BUILD/bench/bench-1m.pcap)"
	for mode in -q --stats; do
		/usr/bin/time -f '%M' -o "$FIX/rss" "$D" $mode -r "$BUILD/bench/bench-1m.pcap" >/dev/null
		echo "$mode: $(cat "$FIX/rss") KiB"
		[ "$(cat "$FIX/rss")" -lt 65536 ]
	done
}

@test "real kernel captures in tests/captures: decoded, clean, backchannel seen" {
	shopt -s nullglob
	caps=("$TOP"/tests/captures/*.pcap "$TOP"/tests/captures/*.pcapng)
	[ ${#caps[@]} -gt 0 ] || skip "no captures in tests/captures yet"
	for f in "${caps[@]}"; do
		"$D" -r "$f" >"$FIX/out" 2>"$FIX/err" || { echo "$f: $(cat "$FIX/err")"; return 1; }
		[ -s "$FIX/out" ] || { echo "$f: no message"; return 1; }
		! grep -q 'unknown' "$FIX/out" || { echo "$f: $(grep unknown "$FIX/out" | head -3)"; return 1; }
		"$D" --check -r "$f" || { echo "$f: violations"; return 1; }
		# every read chunk fully fetched by RDMA Read responses, and every
		# write chunk's returned length written by RDMA Writes
		"$D" -V -r "$f" | python3 -c '
import re, sys
msgs = sys.stdin.read().split("\nframe ")
n = 0
for m in msgs:
    reads = sum(int(x) for x in re.findall(r"^    position \d+ handle 0x[0-9a-f]+ length (\d+)", m, re.M))
    got = re.search(r"read chunk data: (\d+) bytes", m)
    if reads and "direction: call" in m:
        assert got and int(got.group(1)) == reads, m[:200]
        n += 1
    if "direction: reply" in m and "rdma_writes:" in m:
        sec = m.split("rdma_writes:")[1].split("rdma_reply:")[0]
        w = sum(int(x) for x in re.findall(r"handle 0x[0-9a-f]+ length (\d+)", sec))
        got = re.search(r"write chunk data: (\d+) bytes", m)
        assert not w or (got and int(got.group(1)) == w), m[:200]
print(n, "read chunks complete")' || { echo "$f: chunk data incomplete"; return 1; }
		if [[ $f == *backchannel* ]]; then
			grep -q 'NFS callback v1 CB_COMPOUND call' "$FIX/out"
			"$D" --stats -r "$f" | grep -q 'backward calls [1-9]'
		fi
	done
}

@test "real captures of another kernel (*-X.Y.pcap): NFSv3 and NFSv4.1 over rxe and siw each, in the README, 0 violations" {
	# make-captures.sh LIVE_SUITE=trixie: nfs3-rocev2-rxe-6.12.pcap ...; each
	# kernel's set complete, its row in tests/captures/README.md, --check clean
	# (the kernels' known deviations would be listed there: none so far)
	shopt -s nullglob
	local kv f base n=0
	kvs=$(for f in "$TOP"/tests/captures/*-[0-9]*.[0-9]*.pcap; do
		[[ ${f##*/} =~ -([0-9]+\.[0-9]+)\.pcap$ ]] && echo "${BASH_REMATCH[1]}"; done | sort -u)
	[ -n "$kvs" ] || { echo "no *-X.Y.pcap in tests/captures"; return 1; }
	for kv in $kvs; do
		for base in nfs3-rocev2-rxe nfs41-rocev2-rxe nfs3-iwarp-siw nfs41-iwarp-siw; do
			f=$TOP/tests/captures/$base-$kv.pcap
			[ -f "$f" ] || { echo "kernel $kv: no $base-$kv.pcap"; return 1; }
			grep -q "^| \`$base-$kv.pcap\` | NFSv" "$TOP/tests/captures/README.md" ||
				{ echo "$base-$kv.pcap: not in tests/captures/README.md"; return 1; }
			run "$D" --check -r "$f"
			assert_success
			assert_output --partial "0 violations"
			# the same private data as the 6.1 captures (RFC 8797, both ends)
			run "$D" --stats -q -r "$f"
			assert_line "  private data: requester RFC 8797 v1, send 4096, receive 4096, remote invalidation; responder RFC 8797 v1, send 4096, receive 4096, no remote invalidation"
			n=$((n + 1))
		done
		grep -q "| \`\*-$kv.pcap\` |$" "$TOP/tests/captures/README.md" ||
			{ echo "kernel $kv: no release row in tests/captures/README.md"; return 1; }
	done
	[ "$n" -ge 4 ]
}

@test "--stats: frames stamped more than a second back (6.12's rxe mixes two clocks) make the latency table say it is not to be trusted" {
	# docs/kernels.md (difference 6): on 6.12 the frames rxe receives carry the
	# time since boot, the ones it sends the wall clock
	local f=$TOP/tests/captures/nfs3-rocev2-rxe-6.12.pcap
	[ -f "$f" ] || skip "no $f"
	run "$D" --stats -q -r "$f"
	assert_success
	assert_line --regexp '^  timestamps: [0-9]+ frames stamped more than a second before the frame before them \(the first: frame 24, [0-9]+ s back\): the capture mixes two clocks, so the latencies below are not to be trusted$'
	run "$D" --stats --json -q -r "$f"
	assert_success
	assert_output --partial '"ts_first_step_back_frame":24,'
	# one clock (6.1's capture of the same workload): no such line or key
	run "$D" --stats -q -r "$TOP/tests/captures/nfs3-rocev2-rxe.pcap"
	assert_success
	refute_output --partial "timestamps:"
	run "$D" --stats --json -q -r "$TOP/tests/captures/nfs3-rocev2-rxe.pcap"
	refute_output --partial '"ts_steps_back"'
}
