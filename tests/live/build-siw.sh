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
# (bookworm, the host's release: lib.sh's apt is the host's)
. "$(dirname "$0")/lib.sh"
kpkgver=$(live_pkg_version "$kpkg")

log() { printf 'build-siw: %s\n' "$*" >&2; }

# the source of the kernel's own version (lib.sh: the rule and why)
src_ver=$(live_siw_src_version "$kpkgver")
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
