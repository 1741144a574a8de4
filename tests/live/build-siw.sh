#!/bin/bash
# Builds soft-iWARP (siw.ko) as an external module for Debian's kernel, which
# ships rdma_rxe but not siw (CONFIG_RDMA_SIW is not set).
#   build-siw.sh KERNEL_PKG OUT_DIR
# KERNEL_PKG is the package behind linux-image-amd64 (linux-image-<kver>); the
# source comes from linux-source-6.1 of the same version, built against the
# matching linux-headers-<kver> (+ -common, linux-kbuild-6.1), with gcc-12.
# Writes OUT_DIR/siw.ko; exits non-zero with a message on any failure.
set -euo pipefail

kpkg=${1:?kernel package}
out=${2:?output directory}
kver=${kpkg#linux-image-}
kpkgver=$(apt-cache policy "$kpkg" | awk '/Candidate:/ { print $2; exit }')

log() { printf 'build-siw: %s\n' "$*" >&2; }

# the source of the kernel's own version: the registry keeps older uploads,
# and a newer linux-source-6.1 for the same ABI (6.1.192-3 beside the
# kernel's 6.1.192-2, 2026-11-28) moved the candidate past the kernel
src_ver=$kpkgver
apt-cache madison linux-source-6.1 | awk -v v="$kpkgver" '$3 == v { f = 1 } END { exit !f }' ||
    src_ver=$(apt-cache policy linux-source-6.1 | awk '/Candidate:/ { print $2; exit }')
if [[ $src_ver != "$kpkgver" ]]; then
    log "linux-source-6.1 $src_ver does not match $kpkg $kpkgver"
    exit 1
fi

log "installing linux-source-6.1 and linux-headers-$kver ($kpkgver) on the host"
DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
    "linux-source-6.1=$src_ver" "linux-headers-$kver=$kpkgver" gcc-12 make >&2

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tarball=/usr/src/linux-source-6.1.tar.xz
[[ -f $tarball ]] || { log "no $tarball"; exit 1; }
log "unpacking drivers/infiniband/sw/siw from $tarball"
tar -xJf "$tarball" -C "$work" --strip-components=4 linux-source-6.1/drivers/infiniband/sw/siw
[[ -f $work/siw/Makefile ]] || { log "siw sources missing from $tarball"; exit 1; }

log "building siw.ko against /usr/src/linux-headers-$kver"
make -C "/usr/src/linux-headers-$kver" M="$work/siw" CONFIG_RDMA_SIW=m CC=gcc-12 \
    -j"$(nproc)" modules >&2
modinfo -F vermagic "$work/siw/siw.ko" | grep -q "^$kver " ||
    { log "siw.ko vermagic does not match $kver"; exit 1; }
mkdir -p "$out"
install -m 0644 "$work/siw/siw.ko" "$out/siw.ko"
log "built $out/siw.ko"
