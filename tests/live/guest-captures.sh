#!/bin/bash
# In the guest: the repository's reference captures over one transport.
#   guest-captures.sh rxe|siw OUT_DIR
# Writes OUT_DIR/nfs3-<t>.pcap, nfs41-<t>.pcap and nfs41-backchannel-<t>.pcap,
# where <t> is rocev2-rxe or iwarp-siw (the backchannel ones: rocev2 / iwarp).
set -euo pipefail

kind=${1:?rxe or siw}
out=${2:?output directory}
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

# 128 KiB: far above the 4 KiB inline threshold, so the WRITE carries a Read
# chunk and the READ reply a Write chunk, while the capture stays small.
bash "$here/guest-nfs-rw.sh" --vers 3 --size 128 "$out/nfs3-$t.pcap"
bash "$here/guest-nfs-rw.sh" --vers 4.1 --size 128 "$out/nfs41-$t.pcap"
bash "$here/guest-nfs-rw.sh" --vers 4.1 --size 16 --backchannel "$out/nfs41-backchannel-$bt.pcap"
