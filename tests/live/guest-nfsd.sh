#!/bin/bash
# In the guest (no systemd): the kernel NFS server speaking RPC-over-RDMA on
# port 20049, exporting a tmpfs (a 9p share cannot be exported) to 198.18.0.0/15.
# NFSv4 lease and grace times are cut to 10 s.
#   guest-nfsd.sh [EXPORT_DIR]      (default /srv/export)
set -euo pipefail

export_dir=${1:-/srv/export}

modprobe -a nfsd rpcrdma nfsv3 nfsv4
# lockd's grace period (50 s by default) holds back delegations: cut it to 10 s.
echo 10 > /proc/sys/fs/nfs/nlm_grace_period
mountpoint -q /proc/fs/nfsd || mount -t nfsd nfsd /proc/fs/nfsd
mkdir -p /var/lib/nfs/rpc_pipefs /var/lib/nfs/v4recovery "$export_dir"
mountpoint -q /var/lib/nfs/rpc_pipefs || mount -t rpc_pipefs sunrpc /var/lib/nfs/rpc_pipefs
mountpoint -q "$export_dir" || mount -t tmpfs -o size=256m,mode=0777 tmpfs "$export_dir"

rpcbind -w
echo "$export_dir 198.18.0.0/15(rw,no_root_squash,no_subtree_check,insecure,fsid=1)" > /etc/exports
exportfs -ra
rpc.mountd
echo 10 > /proc/fs/nfsd/nfsv4leasetime
echo 10 > /proc/fs/nfsd/nfsv4gracetime
# NFSv4.0 on, whatever the release's default: nfs-utils 3.x (sid's 3.1.1; its
# nfs.conf says "# vers4.0=n") leaves it off, and rpcrdma-conform looks its file
# up with an NFSv4.0 COMPOUND (answered NFS4ERR_MINOR_VERS_MISMATCH without it:
# seven of its knfsd cases skipped, docs/kernels.md); bookworm's and trixie's
# nfs-utils have it on already
rpc.nfsd -V 4.0 4
echo 'rdma 20049' > /proc/fs/nfsd/portlist
grep -q '^rdma 20049' /proc/fs/nfsd/portlist || { echo "guest-nfsd: no rdma listener" >&2; exit 1; }
