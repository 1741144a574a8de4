#!/bin/bash
# `make live-captures`: regenerates tests/captures/*.pcap, real traffic of the
# kernel's NFS/RDMA client and server in the live guest, over RoCEv2 (rxe) and
# iWARP (siw), and rewrites tests/captures/README.md to say how they were made.
#   BUILD=/abs/build [CAPTURE_SET=rw|reads|late] [LIVE_SUITE=REL] make-captures.sh [rxe|siw]...
# LIVE_SUITE another than bookworm (make live-captures LIVE_SUITE=trixie): that
# release's kernel, NFSv3 and NFSv4.1 over each transport only, named with the
# kernel's X.Y (nfs3-rocev2-rxe-6.12.pcap, nfs41-iwarp-siw-6.12.pcap); README.md's
# row of the release is rewritten, the other releases' rows are kept.
# CAPTURE_SET reads makes only the nfs*-reads-* captures (guest-captures.sh);
# late (siw only) the nfs*-late-* pairs in tests/captures/nohandshake, one
# capture started after the mount (no MPA handshake) and the same run's from
# before it; README.md is left as it is (it describes them).
# Each capture is checked before it replaces the old one: at most 2 MiB, tshark
# finds RPC-over-RDMA in it, Read and Write chunks (and CB_RECALL in the
# backchannel ones) are there, and no packet is missing from it.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

BUILD=${BUILD:-$REPO_ROOT/build}
BUILD=$(mkdir -p "$BUILD" && cd "$BUILD" && pwd)
kinds=("$@")
set=${CAPTURE_SET:-rw}
((${#kinds[@]})) || kinds=(rxe siw)
dest=$REPO_ROOT/tests/captures
[[ $set == late ]] && { dest=$dest/nohandshake; kinds=(siw); }
work=$BUILD/live/captures
max_bytes=$((2 * 1024 * 1024))

image=$(bash "$(live_image_builder)") || live_die "no guest image: $image"
kver_short=$(awk '$1 == "kver" { split($2, v, "."); print v[1] "." v[2] }' "$image/info")
[[ $kver_short =~ ^[0-9]+\.[0-9]+$ ]] || live_die "no kernel version in $image/info"
if [[ $LIVE_SUITE != "$LIVE_HOST_SUITE" ]]; then
    [[ -z ${CAPTURE_SET:-} ]] || live_die "CAPTURE_SET=$CAPTURE_SET: LIVE_SUITE=$LIVE_SUITE makes the NFSv3 and NFSv4.1 captures only"
    set=release-$kver_short
fi
shares=()
[[ $BUILD/ == "$REPO_ROOT"/* ]] || shares=(--share "$BUILD")

count() { tshark -r "$1" -Y "$2" 2>/dev/null | wc -l; }

# check PCAP: prints a problem and fails, or prints "<frames> <messages>".
check() {
    local f=$1 size frames msgs
    size=$(stat -c %s "$f")
    ((size <= max_bytes)) || { echo "$f is $size bytes, more than 2 MiB"; return 1; }
    frames=$(count "$f" frame)
    msgs=$(count "$f" rpcordma.xid)
    # without the MPA handshake tshark's iWARP dissector finds nothing
    [[ $f == *-late-iwarp-* ]] && msgs=$("$BUILD/bin/rpcrdma-decode" -r "$f" -q --stats 2>/dev/null |
        awk '/^overall:/ { o = 1 } o && /messages:/ { print $3; exit }')
    ((msgs > 0)) || { echo "$f: no RPC-over-RDMA message found"; return 1; }
    (($(count "$f" 'tcp.analysis.lost_segment || tcp.analysis.retransmission || tcp.analysis.out_of_order') == 0)) ||
        { echo "$f: TCP segments missing or repeated"; return 1; }
    if [[ $f == *-late-iwarp-* ]]; then
        # tshark sees no message without the handshake: ours must find the chunks
        "$BUILD/bin/rpcrdma-decode" -r "$f" --json 2>/dev/null | jq -e -s \
            'map(select(.valid != null)) | (map(.reads | length) | add > 0) and (map(.writes | length) | add > 0)' \
            >/dev/null || { echo "$f: no Read or Write chunk found"; return 1; }
    elif [[ $f == *-reads-* ]]; then
        (($(count "$f" 'rpcordma.writes_count > 0') > 0)) || { echo "$f: no Write chunk"; return 1; }
    elif [[ $f == *backchannel* ]]; then
        (($(count "$f" 'rpc.msgtyp == 0 && nfs.cb.operation == 4') > 0)) || { echo "$f: no CB_RECALL"; return 1; }
    else
        (($(count "$f" 'rpcordma.reads_count > 0') > 0)) || { echo "$f: no Read chunk"; return 1; }
        (($(count "$f" 'rpcordma.writes_count > 0') > 0)) || { echo "$f: no Write chunk"; return 1; }
    fi
    echo "$frames $msgs"
}

siw_state=$(awk '$1 == "siw" { print $2 }' "$image/info")
mkdir -p "$dest"
for kind in "${kinds[@]}"; do
    if [[ $kind == siw && $siw_state != built ]]; then
        live_log "siw.ko was not built for this image: the iWARP captures are left as they are"
        continue
    fi
    ok=0
    for attempt in 1 2 3; do
        rm -rf "${work:?}/$kind"
        mkdir -p "$work/$kind"
        live_log "$kind: capturing (attempt $attempt)"
        if ! LIVE_IMAGE_DIR=$image bash "$LIVE_DIR/run-guest.sh" --timeout 300 "${shares[@]}" \
                --logs "$work/$kind-logs" -- bash "$LIVE_DIR/guest-captures.sh" "$kind" "$work/$kind" "$set" >&2; then
            continue
        fi
        ok=1
        for f in "$work/$kind"/*.pcap; do
            msg=$(check "$f") || { live_log "$msg"; ok=0; }
        done
        ((ok)) && break
    done
    ((ok)) || live_die "$kind: no good captures after 3 attempts (logs in $work)"
    cp "$work/$kind"/*.pcap "$dest/"
done
if [[ $set == late ]]; then
    live_log "captures in $dest:"
    ls -l "$dest" >&2
    exit 0
fi

kver=$(awk '$1 == "kernel" { print $2 " " $3 }' "$image/info")
rdma_core=$(awk '$1 == "rdma-core" { print $2 }' "$image/info")
nfs_utils=$(awk '$1 == "nfs-kernel-server" { print $2 }' "$image/info")
case $LIVE_SUITE in
bookworm) debian="Debian 12 bookworm" siw_from="built from Debian's \`linux-source-6.1\` of the same version (Debian does not ship siw)" ;;
trixie) debian="Debian 13 trixie" ;;
sid) debian="Debian unstable (sid)" ;;
esac
[[ $LIVE_SUITE == "$LIVE_HOST_SUITE" ]] ||
    siw_from="built from \`linux-source-$kver_short\` in a $LIVE_SUITE build root (\`tests/live/build-siw-root.sh\`)"
suffix=
[[ $LIVE_SUITE == "$LIVE_HOST_SUITE" ]] || suffix="-$kver_short"
# The release table's rows: this run's release rewritten, every other kept as it was.
release_row=$(printf '| %s | `%s` | rdma-core %s, nfs-utils %s | %s | %s |' "$debian" "$kver" "$rdma_core" \
    "$nfs_utils" "$siw_from" "$([[ -n $suffix ]] && echo "\`*$suffix.pcap\`" || echo "the others")")
old_rows=$(grep -E '^\| Debian ' "$dest/README.md" 2>/dev/null | grep -vF "| $debian |" || true)
release_rows=$(printf '%s\n%s\n' "$old_rows" "$release_row" | grep . | sort -t'|' -k2,2)

describe() {
    local f=${1##*/} k=
    # a release's capture: the same workload as the default release's of that name
    if [[ $f =~ ^(.*)-([0-9]+\.[0-9]+)\.pcap$ ]]; then f=${BASH_REMATCH[1]}.pcap k=", kernel ${BASH_REMATCH[2]}"; fi
    case $f in
    nfs3-rocev2-rxe.pcap) echo "NFSv3 | RoCEv2 (rxe) | mount, write 128 KiB, read it back, remove, unmount" ;;
    nfs41-rocev2-rxe.pcap) echo "NFSv4.1 | RoCEv2 (rxe) | mount, write 128 KiB, read it back, remove, unmount" ;;
    nfs3-iwarp-siw.pcap) echo "NFSv3 | iWARP (siw) | mount, write 128 KiB, read it back, remove, unmount" ;;
    nfs41-iwarp-siw.pcap) echo "NFSv4.1 | iWARP (siw) | mount, write 128 KiB, read it back, remove, unmount" ;;
    nfs41-backchannel-rocev2.pcap) echo "NFSv4.1 | RoCEv2 (rxe) | as above with 16 KiB, then a read delegation recalled: CB_RECALL on the backchannel" ;;
    nfs41-backchannel-iwarp.pcap) echo "NFSv4.1 | iWARP (siw) | as above with 16 KiB, then a read delegation recalled: CB_RECALL on the backchannel" ;;
    nfs3-reads-rocev2-rxe.pcap) echo "NFSv3 | RoCEv2 (rxe) | mount, read files of 100, 5001 and 300000 bytes made on the server, readlink, unmount" ;;
    nfs41-reads-rocev2-rxe.pcap) echo "NFSv4.1 | RoCEv2 (rxe) | mount, read files of 100, 5001 and 300000 bytes made on the server, readlink, unmount" ;;
    nfs3-reads-iwarp-siw.pcap) echo "NFSv3 | iWARP (siw) | mount, read files of 100, 5001 and 300000 bytes made on the server, readlink, unmount" ;;
    nfs41-reads-iwarp-siw.pcap) echo "NFSv4.1 | iWARP (siw) | mount, read files of 100, 5001 and 300000 bytes made on the server, readlink, unmount" ;;
    *) echo "? | ? | ?" ;;
    esac | sed "s/)/)$k/"
}

{
cat <<EOF
# Real NFS/RDMA captures

Traffic of the Linux kernel's own NFS client and server speaking RPC-over-RDMA,
captured in the live test bed's qemu guest (\`tests/live/\`), so that the
decoder's and the plugin's tests run on real traffic on any machine. (Hand-made hostile
captures are in \`crafted/\`, with their own README.) Regenerate
them all with \`make live-captures\` (\`tests/live/make-captures.sh\`, as root;
it builds or reuses the cached guest image), and those of another Debian release's
kernel with \`make live-captures LIVE_SUITE=trixie\` or \`LIVE_SUITE=sid\` (named \`*-6.12.pcap\`,
\`*-7.2.pcap\`: NFSv3 and NFSv4.1 over each transport). Nothing here left the guest: it has
no network card, and the two RDMA hosts are the two ends of a veth pair in it.

## How they were made

- Guest kernel (\`linux-image-amd64\` of the release), under qemu TCG. RoCEv2: its
  \`rdma_rxe\`. iWARP: \`siw.ko\`, as the table says (Debian ships no siw).

| release | kernel | userland | siw.ko | captures |
|---|---|---|---|---|
$release_rows

- Two devices, \`rxe0\`/\`rxe1\` or \`siw0\`/\`siw1\`, on \`veth0\` (198.18.0.1, the
  server) and \`veth1\` (198.18.0.2, the client), policy routing forcing the traffic
  over the pair (\`tests/live/guest-net.sh\`); GSO is off on the pair, so every
  frame is no larger than the 1500-byte MTU, as on a real cable.
- Server (\`tests/live/guest-nfsd.sh\`): knfsd exporting a tmpfs,
  \`echo 'rdma 20049' > /proc/fs/nfsd/portlist\`, NFSv4 lease and grace 10 s.
- Client and capture (\`tests/live/guest-nfs-rw.sh\`):
  \`tcpdump -i veth0 -s 0 -w FILE\` started before the mount (so the iWARP MPA
  handshake is in it) and stopped after the unmount;
  \`mount -t nfs -o proto=rdma,port=20049,vers=3,nolock,mountproto=tcp\` (NFSv3; the
  MOUNT and portmap calls go over TCP) or \`vers=4.1\`; a file of random bytes written
  with \`cp\`, \`sync\`, caches dropped, read back and compared, removed, unmounted.
  128 KiB is far above the 4 KiB inline threshold: each WRITE carries a Read chunk
  and each READ reply a Write chunk.
- Backchannel captures: after the same steps with a 16 KiB file, the server makes a
  file locally, the client opens it for reading (the server grants a read
  delegation), and a local write on the server breaks it: CB_SEQUENCE + CB_RECALL
  from server to client over the same RDMA connection, then DELEGRETURN.
- Checked by make-captures.sh: at most 2 MiB each, no packet missing (tcpdump
  dropped none, no TCP segment missing or repeated), tshark's \`rpcordma\` dissector
  finds the messages, the chunks or the CB_RECALL are there.

## Files

| file | NFS | transport | workload | frames | RPC-over-RDMA messages (tshark) | bytes |
|---|---|---|---|---|---|---|
EOF
for f in "$dest"/*.pcap; do
    read -r frames msgs < <(check "$f" 2>/dev/null || echo "? ?")
    printf '| `%s` | %s | %s | %s | %s |\n' "${f##*/}" "$(describe "$f")" "$frames" "$msgs" "$(stat -c %s "$f")"
done
cat <<EOF

## What differs between the kernels' captures

\`rpcrdma-decode --check\` finds no violation in any capture here, of 6.1, 6.12 or 7.2
(\`tests/cli/capture.bats\`, "real kernel captures"): no kernel deviation from the specs shows
in these workloads, so none is listed as allowed. What does differ, none of it a protocol matter:

- **Timestamps of the RoCEv2 captures of 6.12 and 7.2** (\`*-rocev2-rxe-6.12.pcap\`,
  \`*-rocev2-rxe-7.2.pcap\`): every frame that
  end B (\`rxe1\`, 198.18.0.2, the NFS client) sent carries the guest's time since boot (a
  date in 1970 in the pcap) where end A's frames carry the wall clock: \`capinfos\` says
  "Strict time order: False". So \`rpcrdma-decode --stats\` shows meaningless RPC latencies
  (about 1.8e15 us) for them; the frame order, the decode and \`--check\` are not touched.
  Seen in every rxe capture of the 6.12 guest on 11-28 (the NFS mounts and rpcrdma-conform's
  run as well), never over siw, never on 6.1: it is the veth pair's receiving side, either
  end, for any rxe traffic (rping too) (\`docs/kernels.md\`, difference 6).
  The same on 7.2 (the two \`*-rocev2-rxe-7.2.pcap\`, 11-28 17:13: first frame 1970, "Strict
  time order: False"; the siw ones in order).
- NFSv4.1: 90 RPC-over-RDMA messages on 6.12, 92 on 6.1 (one GETATTR call fewer), over
  both transports; NFSv3 36 on both. The RFC 8797 private data are the same (client
  \`01 01 03 03\`, knfsd \`01 00 03 03\`).
- 7.2 (\`*-7.2.pcap\`): NFSv3 44 messages, NFSv4.1 94, over both transports. The client reads
  the 128 KiB file back in five READs (offset/count 0/16384, 16384/32768, 49152/16384,
  65536/32768, 98304/32768) where 6.1 and 6.12 send one READ of 131072; its NFSv4.1 WRITE
  COMPOUND is SEQUENCE, PUTFH, WRITE without 6.12's trailing GETATTR. The same private data;
  every READ reply's data still in a Write chunk (\`docs/kernels.md\`, Linux 7.2).

## Captures without the MPA handshake (\`nohandshake/\`)

Users start tcpdump after the mount, so an iWARP capture usually lacks the MPA
Request/Reply that says whether CRCs and markers are on; \`rpcrdma-decode\` then
infers the framing from the stream (\`tools/capture/cap_mpa.c\`,
\`tests/cli/nohandshake.bats\`). Made with \`CAPTURE_SET=late make-captures.sh siw\`
(\`guest-nfs-rw.sh --late\`): in one run, \`tcpdump\` started before the mount (the
\`-full\` file) and a second \`tcpdump\` started one quiet second after the mount (no
TCP or MPA handshake in it); then a 16 KiB file written with \`cp\`, \`sync\`, caches
dropped, read back and compared, removed, unmounted. Both captures end after the
unmount. siw negotiates CRCs off and markers off.

| file | NFS | capture | frames | RPC-over-RDMA messages (rpcrdma-decode) | bytes |
|---|---|---|---|---|---|
| \`nohandshake/nfs3-late-iwarp-siw.pcap\` | NFSv3 | started after the mount | 119 | 22 | 47522 |
| \`nohandshake/nfs3-late-full-iwarp-siw.pcap\` | NFSv3 | the same run, from before the mount | 166 | 36 | 53544 |
| \`nohandshake/nfs41-late-iwarp-siw.pcap\` | NFSv4.1 | started after the mount | 103 | 32 | 49246 |
| \`nohandshake/nfs41-late-full-iwarp-siw.pcap\` | NFSv4.1 | the same run, from before the mount | 178 | 92 | 68808 |

The late capture's messages are the full capture's from its first frame on,
in both directions and in the same order (tshark finds none in the late ones:
Wireshark's iWARP dissector needs the handshake).

## What tshark (4.0) shows in them

\`tshark -r FILE -Y rpcordma\` decodes the transport headers in every file, and
the NFS calls and replies above them. Expect \`[Malformed Packet]\` on NFS READ
replies whose data went by RDMA Write (tshark does not join the Write chunk to the
reply), and RoCE retransmissions shown twice (same QP and PSN) when rxe retransmitted.
With this project's plugin (\`dissector/\`) those replies decode with their data
put back, in one pass and in two (\`docs/wireshark-plugin.md\`).
EOF
} > "$dest/README.md"
live_log "captures in $dest:"
ls -l "$dest" >&2
