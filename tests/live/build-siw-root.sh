#!/bin/bash
# Builds soft-iWARP (siw.ko) as an external module for a Debian release other
# than the host's, inside a build root of that release (scripts/buildroot.sh
# RELEASE kernel: its linux-source and linux-headers-amd64, and the compiler
# those headers name), never with the host's apt or compiler.
#   build-siw-root.sh RELEASE KERNEL_PKG KERNEL_VERSION OUT_DIR
# KERNEL_PKG (linux-image-<kver>) and KERNEL_VERSION are the image's kernel; the
# root's linux-headers-<kver> and linux-source-X.Y must be that same version
# (else it says which differ and fails: the registry moved between the two).
# Writes OUT_DIR/siw.ko and OUT_DIR/root (the build root's directory, whose name
# carries the key of its exact package list); exits non-zero with a message on
# any failure.
set -euo pipefail

release=${1:?release}
kpkg=${2:?kernel package}
kpkgver=${3:?kernel version}
out=${4:?output directory}
kver=${kpkg#linux-image-}
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/live/lib.sh"
series=$(live_kseries "$kpkg")

log() { printf 'build-siw: %s\n' "$*" >&2; }
fail() { log "$*"; exit 1; }

log "build root: scripts/buildroot.sh $release kernel"
root=$(bash "$top/scripts/buildroot.sh" "$release" kernel) || fail "scripts/buildroot.sh $release kernel failed"
[[ -d $root ]] || fail "scripts/buildroot.sh printed no root directory"
mkdir -p "$out"
echo "$root" > "$out/root"

ver_in_root() { awk -v p="$1" '$1 == p { print $2 }' "$root/manifest"; }
hv=$(ver_in_root "linux-headers-$kver")
sv=$(ver_in_root "linux-source-$series")
[[ -n $hv ]] || fail "the root $root has no linux-headers-$kver (its linux-headers-amd64 names another kernel: $(grep -o '^linux-headers-[^ ]*-amd64 [^ ]*' "$root/manifest" | tr '\n' ' '))"
[[ $hv == "$kpkgver" ]] || fail "linux-headers-$kver $hv in the root does not match $kpkg $kpkgver"
[[ -n $sv ]] || fail "the root $root has no linux-source-$series"
[[ $sv == "$kpkgver" ]] || fail "linux-source-$series $sv in the root does not match $kpkg $kpkgver"

hdr=/usr/src/linux-headers-$kver
tarball=/usr/src/linux-source-$series.tar.xz
[[ -f $root$tarball ]] || fail "no $tarball in the root"
# the compiler the kernel was built with, as its configuration names it
# (CONFIG_CC_VERSION_TEXT="x86_64-linux-gnu-gcc-14 (Debian 14.2.0-19) 14.2.0")
cc=$(sed -n 's/^CONFIG_CC_VERSION_TEXT="\([^ ]*\) .*/\1/p' "$root$hdr/.config" 2>/dev/null | head -1)
[[ -n $cc ]] || fail "no CONFIG_CC_VERSION_TEXT in $hdr/.config of the root"
[[ -x $root/usr/bin/$cc ]] || fail "the kernel was built with $cc, which the root lacks"
log "linux-source-$series $sv, linux-headers-$kver $hv, $cc ($(grep -o '^gcc-[0-9]* [^ ]*' "$root/manifest" | tr '\n' ' '))"

# A copy of nothing: the build happens in a scratch directory inside the root,
# removed afterwards, in a private mount namespace (as buildroot.sh's in_root).
scratch=$(mktemp -d "$root/tmp/siw.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
rel=/tmp/${scratch##*/}
log "unpacking drivers/infiniband/sw/siw from $tarball"
tar -xJf "$root$tarball" -C "$scratch" --strip-components=4 "linux-source-$series/drivers/infiniband/sw/siw"
[[ -f $scratch/siw/Makefile ]] || fail "siw sources missing from $tarball"

log "building siw.ko against $hdr with $cc in the root"
unshare -m --propagation private sh -c '
    d=$1; shift
    mount -t proc proc "$d/proc" && mount --rbind /dev "$d/dev" &&
    exec chroot "$d" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LC_ALL=C.UTF-8 "$@"' sh "$root" \
    make -C "$hdr" M="$rel/siw" CONFIG_RDMA_SIW=m CC="$cc" -j"$(nproc)" modules >&2 ||
    fail "make of siw.ko failed (above)"
[[ -f $scratch/siw/siw.ko ]] || fail "make left no siw.ko"
vm=$(modinfo -F vermagic "$scratch/siw/siw.ko")
[[ $vm == "$kver "* ]] || fail "siw.ko vermagic '$vm' does not match $kver"
install -m 0644 "$scratch/siw/siw.ko" "$out/siw.ko"
log "built $out/siw.ko ($vm)"
