#!/bin/bash
# In the guest: the repository's reference captures over one transport.
#   guest-captures.sh rxe|siw OUT_DIR [SET]
# SET rw (the default): OUT_DIR/nfs3-<t>.pcap, nfs41-<t>.pcap and
# nfs41-backchannel-<t>.pcap, where <t> is rocev2-rxe or iwarp-siw (the
# backchannel ones: rocev2 / iwarp).  SET reads: nfs3-reads-<t>.pcap and
# nfs41-reads-<t>.pcap, smaller and larger READs and a READLINK.  SET late:
# nfs3-late-<t>.pcap and nfs41-late-<t>.pcap, tcpdump started after the mount
# (no MPA handshake or CM exchange in them), each with nfs*-late-full-<t>.pcap,
# the same run captured from before the mount.  SET release-X.Y (another
# Debian release's kernel, make-captures.sh LIVE_SUITE=...): nfs3-<t>-X.Y.pcap
# and nfs41-<t>-X.Y.pcap only, the rw set's first two, X.Y the kernel's version.
set -euo pipefail

kind=${1:?rxe or siw}
out=${2:?output directory}
set=${3:-rw}
here=$(cd "$(dirname "$0")" && pwd)
case $kind in
rxe) t=rocev2-rxe bt=rocev2 ;;
siw) t=iwarp-siw bt=iwarp ;;
*) echo "guest-captures: unknown kind $kind" >&2; exit 2 ;;
esac
mkdir -p "$out"

bash "$here/guest-net.sh" "$kind"
bash "$here/guest-nfsd.sh"
# Past the 10 s grace periods (NFSv4 and lockd), so the server hands out delegations.
sleep 11

if [[ $set == reads ]]; then
    # 100 B: inline; 5001 B: one Write chunk, 3 bytes short of a multiple of
    # four (the XDR padding the responder must not write); 300000 B: several
    # READs of the client's rsize, each in its own Write chunk
    for v in 3 4.1; do
        bash "$here/guest-nfs-rw.sh" --vers "$v" --reads "100 5001 300000" \
            "$out/nfs${v/./}-reads-$t.pcap"
    done
    exit 0
fi

if [[ $set == late ]]; then
    for v in 3 4.1; do
        bash "$here/guest-nfs-rw.sh" --vers "$v" --size 16 \
            --late "$out/nfs${v/./}-late-$t.pcap" "$out/nfs${v/./}-late-full-$t.pcap"
    done
    exit 0
fi

if [[ $set == release-* ]]; then
    kv=${set#release-}
    bash "$here/guest-nfs-rw.sh" --vers 3 --size 128 "$out/nfs3-$t-$kv.pcap"
    bash "$here/guest-nfs-rw.sh" --vers 4.1 --size 128 "$out/nfs41-$t-$kv.pcap"
    exit 0
fi

# 128 KiB: far above the 4 KiB inline threshold, so the WRITE carries a Read
# chunk and the READ reply a Write chunk, while the capture stays small.
bash "$here/guest-nfs-rw.sh" --vers 3 --size 128 "$out/nfs3-$t.pcap"
bash "$here/guest-nfs-rw.sh" --vers 4.1 --size 128 "$out/nfs41-$t.pcap"
bash "$here/guest-nfs-rw.sh" --vers 4.1 --size 16 --backchannel "$out/nfs41-backchannel-$bt.pcap"
