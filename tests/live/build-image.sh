#!/bin/bash
# Builds (once per cache key) the live test bed's guest: Debian's kernel, a small
# busybox initramfs and an ext4 root image debootstrapped from the mirror apt uses.
#   build-image.sh            prints the image directory on stdout
# The image lives in $RPCRDMA_LIVE_CACHE/<key>/ (default /var/cache/rpcrdma-tools/live);
# the key is the sha256 of the files that shape the image and of the kernel
# package versions (see live_cache_key in lib.sh). A second run reuses it.
# Exit status: 0 ready, 2 cannot be built on this host (reason on stdout), 1 error.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# Modules in the initramfs: enough to mount the ext4 image and the 9p shares.
EARLY_MODULES=(virtio_pci virtio_blk crc32c_generic ext4 9pnet_virtio 9p)
# Modules in the root image (plus their dependencies, resolved by modprobe).
GUEST_MODULES=("${EARLY_MODULES[@]}" veth rdma_rxe ib_core iw_cm rdma_cm rdma_ucm ib_uverbs
               ib_umad libcrc32c crc32_generic rpcrdma sunrpc nfsd nfs nfsv3 nfsv4 nfs_acl lockd)

reason=$(bash "$LIVE_DIR/host-setup.sh") || { rc=$?; echo "$reason"; exit "$rc"; }
live_image_dir || { echo "apt knows no $LIVE_KERNEL_META: cannot build the image"; exit 2; }
image=$LIVE_IMAGE_DIR
key=${image##*/}

if [[ -f $image/READY ]]; then
    live_log "reusing cached image $image"
    echo "$image"
    exit 0
fi
((EUID == 0)) || { echo "not root: cannot build the guest image"; exit 2; }
mirror=$(live_mirror) || { echo "apt has no $LIVE_SUITE main source: cannot debootstrap"; exit 2; }
if ! wget -q -T 15 -t 2 -O /dev/null "$mirror/dists/$LIVE_SUITE/Release"; then
    echo "Debian's mirror $mirror cannot be reached: cannot build the guest image"
    exit 2
fi

mkdir -p "$LIVE_CACHE_ROOT"
exec 9>"$LIVE_CACHE_ROOT/.lock"
flock 9
# Fresh package lists before a build (stale ones name packages the mirror no longer
# has); they may name a newer kernel, and so a new key.
apt-get update -q >/dev/null 2>&1 || live_log "apt-get update failed; using the package lists as they are"
live_image_dir || live_die "apt knows no $LIVE_KERNEL_META after apt-get update"
image=$LIVE_IMAGE_DIR
key=${image##*/}
if [[ -f $image/READY ]]; then      # built by a concurrent run, or known under the new key
    live_log "reusing cached image $image"
    echo "$image"
    exit 0
fi

start=$SECONDS
live_log "building image $key (cold; about 2-3 minutes)"
live_say_changes
work=$(mktemp -d "$LIVE_CACHE_ROOT/.build.XXXXXX")
siw_pid=
cleanup() {
    [[ -n $siw_pid ]] && kill "$siw_pid" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
mkdir -p "$work/out" "$work/debs"
chmod 755 "$work" "$work/debs"

kpkg=$(live_kernel_pkg)
kver=${kpkg#linux-image-}
kpkgver=$(live_pkg_version "$kpkg")

# soft-iWARP in the background while debootstrap runs (CPU against network).
bash "$LIVE_DIR/build-siw.sh" "$kpkg" "$work/siw" >"$work/siw.log" 2>&1 &
siw_pid=$!

live_log "downloading $kpkg $kpkgver"
(cd "$work/debs" && apt-get download -q "$kpkg=$kpkgver" >&2 2>/dev/null)
dpkg-deb -x "$work/debs/${kpkg}_"*.deb "$work/kernel"
cp "$work/kernel/boot/vmlinuz-$kver" "$work/out/vmlinuz"
kmods=$work/kernel/lib/modules/$kver
depmod -b "$work/kernel" "$kver"

mapfile -t pkgs < <(grep -v '^#' "$LIVE_DIR/packages.txt" | grep .)
live_log "debootstrap $LIVE_SUITE from $mirror with ${pkgs[*]}"
mkdir -p "$LIVE_CACHE_ROOT/debs"
root=$work/root
debootstrap --variant=minbase --cache-dir="$LIVE_CACHE_ROOT/debs" \
    --include="$(IFS=,; echo "${pkgs[*]}")" "$LIVE_SUITE" "$root" "$mirror" >"$work/debootstrap.log" 2>&1 ||
    { tail -20 "$work/debootstrap.log" >&2; tail -20 "$root/debootstrap/debootstrap.log" >&2 || true
      live_die "debootstrap failed"; }

# Module files of the given modules and of everything they depend on, in load order.
closure() {
    local m
    for m in "$@"; do
        modprobe -d "$work/kernel" -S "$kver" --show-depends "$m" | awk '$1 == "insmod" { print $2 }'
    done | sed "s|^$work/kernel/lib/modules/$kver/||" | awk '!seen[$0]++'
}

live_log "copying kernel modules"
dst=$root/lib/modules/$kver
mkdir -p "$dst"
cp "$kmods"/modules.builtin "$kmods"/modules.builtin.modinfo "$kmods"/modules.order "$dst/"
closure "${GUEST_MODULES[@]}" | while read -r m; do
    install -D -m 0644 "$kmods/$m" "$dst/$m"
done

live_log "making the initramfs"
ird=$work/initramfs
mkdir -p "$ird"/{bin,dev,proc,sys,etc,newroot}
cp /bin/busybox "$ird/bin/busybox"
install -m 0755 "$LIVE_DIR/initramfs-init" "$ird/init"
# (crc32c-intel needs SSE4.2, which TCG's default CPU lacks: crc32c_generic serves.)
closure "${EARLY_MODULES[@]}" | grep -v '/crc32c-intel\.ko$' > "$ird/etc/early-modules"
while read -r m; do
    install -D -m 0644 "$kmods/$m" "$ird/lib/modules/$m"
done < "$ird/etc/early-modules"
(cd "$ird" && find . | cpio -o -H newc --quiet | gzip -1) > "$work/out/initrd.img"

wait "$siw_pid" && siw_status=built || siw_status=failed
siw_pid=
if [[ $siw_status == built ]]; then
    install -D -m 0644 "$work/siw/siw.ko" "$dst/updates/siw.ko"
    live_log "siw.ko built and added"
else
    live_log "siw.ko could not be built; siw tests will be skipped. Last lines of its log:"
    tail -15 "$work/siw.log" >&2
fi
cp "$work/siw.log" "$work/out/siw.log"
depmod -b "$root" "$kver"

live_log "trimming the root file system"
rm -rf "$root"/usr/share/{doc,man,info,locale}/* "$root"/var/cache/apt/archives/*.deb \
       "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/*.bin
echo rpcrdma-live > "$root/etc/hostname"
printf '127.0.0.1 localhost\n198.18.0.1 rdma-a\n198.18.0.2 rdma-b\n' > "$root/etc/hosts"
: > "$root/etc/fstab"
mkdir -p "$root/srv/export" "$root/mnt/nfs"

mb=$(du -sm "$root" | cut -f1)
size=$((mb * 13 / 10 + 128))
live_log "making the ext4 image (${size} MiB)"
mkfs.ext4 -q -F -L rpcrdma-root -O ^metadata_csum -d "$root" "$work/out/rootfs.ext4" "${size}M" >&2

{
    echo "key $key"
    echo "suite $LIVE_SUITE"
    echo "kernel $kpkg $kpkgver"
    echo "kver $kver"
    echo "siw $siw_status"
    echo "mirror $mirror"
    echo "built $(date -u +%Y-%m-%dT%H:%M:%SZ) in $((SECONDS - start)) s"
    echo "packages"
    chroot "$root" dpkg-query -W -f '  ${Package} ${Version}\n' 2>/dev/null | sort
} > "$work/out/info"
printf '%s\n' "$LIVE_KEY_INPUTS" > "$work/out/key-inputs"
touch "$work/out/READY"
rm -rf "$image"
mv "$work/out" "$image"

# Keep this image and the two most recent others of bookworm (other branches);
# drop the rest of bookworm's.  Another release's images are never touched (this
# pruned any image beyond the three newest before 11-28, trixie's too).
live_prune_images "$image"
live_log "image $key built in $((SECONDS - start)) s"
echo "$image"
