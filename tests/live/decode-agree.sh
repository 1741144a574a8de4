#!/bin/bash
# Checks that rpcrdma-decode and tshark's built-in rpcordma dissector find the
# same RPC-over-RDMA messages in a capture: the same set of (frame, xid, version,
# credits, procedure), one per message. A transport-level retransmission (RoCE:
# a Send whose last packet repeats an earlier one's destination QP and PSN; iWARP:
# a TCP retransmission) is the same message again: tshark shows it twice, the
# decoder may report it once, so such repeats are left out of tshark's side.
# TCP segments out of order are reassembled in order by both.
#   decode-agree.sh CAPTURE [RPCRDMA_DECODE]
# Exit status: 0 agree, 1 disagree or the decoder failed (a usage error
# included: a command-line regression must not pass as a skip), 2 other
# trouble (reason on stdout: no binary, no tshark).  Never 77: nothing here
# is a reason to skip.
set -euo pipefail

cap=${1:?capture}
bin=${2:-${BIN:-${BUILD:-build}/bin}/rpcrdma-decode}

if [[ ! -x $bin ]]; then
    echo "no $bin (not built: make builds it)"
    exit 2
fi
command -v tshark >/dev/null || { echo "tshark is not installed"; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

rc=0
"$bin" -r "$cap" --json > "$work/decode.json" 2> "$work/decode.err" || rc=$?
if ((rc != 0)) && [[ ! -s $work/decode.json ]]; then
    msg=$(head -1 "$work/decode.err")
    echo "rpcrdma-decode -r failed (exit status $rc): $msg"
    exit 1
fi

# tcp.reassemble_out_of_order: a segment the capture holds after the one it
# precedes (the veth under load reorders) is put in its place, as
# rpcrdma-decode does (without it, tshark's MPA reassembly of an iWARP
# stream loses its FPDU boundaries there and the messages after them:
# 9 of 98 in a siw capture of check-live-repeat under a hog, 11-28)
tshark -o tcp.reassemble_out_of_order:TRUE -r "$cap" -Y rpcordma -T fields -E separator=/t -E occurrence=a -E aggregator=, \
    -e frame.number -e rpcordma.xid -e rpcordma.version -e rpcordma.flow_control \
    -e rpcordma.msg_type -e ip.dst -e infiniband.bth.destqp -e infiniband.bth.psn \
    -e tcp.analysis.retransmission > "$work/tshark.tsv" 2> "$work/tshark.err" ||
    { echo "tshark failed: $(head -1 "$work/tshark.err")"; exit 2; }

python3 - "$work/decode.json" "$work/tshark.tsv" <<'EOF'
import json, sys

def num(v):
    if isinstance(v, int):
        return v
    v = str(v)
    return int(v, 16) if v.lower().startswith("0x") else int(v)

ours = []
for n, line in enumerate(open(sys.argv[1]), 1):
    line = line.strip()
    if not line:
        continue
    try:
        o = json.loads(line)
        if "type" in o:                     # not a message (connection, lost)
            continue
        ours.append(tuple(num(o[k]) for k in ("frame", "xid", "vers", "credits", "proc")))
    except (ValueError, KeyError, TypeError) as e:
        print(f"rpcrdma-decode line {n}: cannot use it ({e}): {line[:120]}")
        sys.exit(1)

theirs, seen, repeats = [], {}, 0
left_out = {}                                 # frame -> why, for the report
for line in open(sys.argv[2]):
    f = line.rstrip("\n").split("\t") + [""] * 9
    if not f[1]:
        continue
    if f[8]:                                  # TCP retransmission
        repeats += 1
        left_out[int(f[0])] = "a TCP retransmission"
        continue
    if f[6] and f[7]:                         # RoCE: destination, QP, PSN
        key = (f[5], f[6], f[7])
        if key in seen:
            repeats += 1
            left_out[int(f[0])] = (f"a repeat of frame {seen[key]} (to {f[5]} "
                                   f"QP {f[6]} PSN {f[7]})")
            continue
        seen[key] = int(f[0])
    cols = [c.split(",") for c in f[1:5]]
    for i in range(len(cols[0])):
        theirs.append((int(f[0]),) + tuple(num(c[i]) for c in cols))

ours.sort()
theirs.sort()
note = f" ({repeats} retransmitted left out)" if repeats else ""
if not theirs:
    print("tshark finds no RPC-over-RDMA message in the capture")
    sys.exit(1)
if ours == theirs:
    print(f"{len(ours)} messages, all the same{note}")
    sys.exit(0)
so, st = set(ours), set(theirs)
only_ours = [m for m in ours if m not in st]
only_theirs = [m for m in theirs if m not in so]
fmt = lambda m: "frame %d xid 0x%08x vers %d credits %d proc %d" % m
print(f"rpcrdma-decode: {len(ours)} messages, tshark: {len(theirs)}; "
      f"{len(only_ours)} only in rpcrdma-decode, {len(only_theirs)} only in tshark")
for m in only_ours[:5]:
    why = left_out.get(m[0], "no RPC-over-RDMA message there")
    print("  only rpcrdma-decode: " + fmt(m) + f" (tshark's frame {m[0]}: {why})")
for m in only_theirs[:5]:
    print("  only tshark:         " + fmt(m))
if not only_ours and not only_theirs:
    print("  the same messages, but not as many times")
sys.exit(1)
EOF
