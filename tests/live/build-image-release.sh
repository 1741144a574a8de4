#!/bin/bash
# Builds (once per cache key) the live test bed's guest for a Debian release other
# than the host's (LIVE_SUITE=trixie; build-image.sh builds the host's, bookworm):
# that release's kernel (its linux-image-amd64), a small busybox initramfs and an
# ext4 root image debootstrapped with that release's packages.txt, from the
# registry the host's apt uses.  The release's package versions come from an apt
# state of its own (lib.sh: live_apt_update, LIVE_APT_OPTS), never from the
# host's apt; siw.ko is compiled in a build root of the release
# (build-siw-root.sh, scripts/buildroot.sh RELEASE kernel).
#   LIVE_SUITE=trixie build-image-release.sh     prints the image directory on stdout
# The image lives in $RPCRDMA_LIVE_CACHE/<key>/ (default /var/cache/rpcrdma-tools/live);
# the key is the sha256 of the files that shape the image and of the exact
# package versions (see live_cache_key in lib.sh). A second run reuses it.
# Exit status: 0 ready, 2 cannot be built on this host (reason on stdout), 1 error;
# every failure names the step that failed.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# Modules in the initramfs: enough to mount the ext4 image and the 9p shares.
EARLY_MODULES=(virtio_pci virtio_blk crc32c_generic ext4 9pnet_virtio 9p)
# Modules in the root image (plus their dependencies, resolved by modprobe).
GUEST_MODULES=("${EARLY_MODULES[@]}" veth rdma_rxe ib_core iw_cm rdma_cm rdma_ucm ib_uverbs
               ib_umad libcrc32c crc32_generic rpcrdma sunrpc nfsd nfs nfsv3 nfsv4 nfs_acl lockd)

[[ $LIVE_SUITE != "$LIVE_HOST_SUITE" ]] || live_die "$LIVE_SUITE is the host's release: build-image.sh builds it"
reason=$(bash "$LIVE_DIR/host-setup.sh") || { rc=$?; echo "$reason"; exit "$rc"; }
if live_image_dir && [[ -f $LIVE_IMAGE_DIR/READY ]]; then
    live_log "reusing cached image $LIVE_IMAGE_DIR ($LIVE_SUITE)"
    echo "$LIVE_IMAGE_DIR"
    exit 0
fi
((EUID == 0)) || { echo "not root: cannot build the $LIVE_SUITE guest image"; exit 2; }
mirror=$(live_mirror) || { echo "apt has no $LIVE_HOST_SUITE main source (the registry for $LIVE_SUITE): cannot debootstrap"; exit 2; }
if ! wget -q -T 15 -t 2 -O /dev/null "$mirror/dists/$LIVE_SUITE/Release"; then
    echo "Debian's mirror $mirror cannot be reached: cannot build the guest image"
    exit 2
fi

mkdir -p "$LIVE_CACHE_ROOT"
exec 9>"$LIVE_CACHE_ROOT/.lock"
flock 9
# Fresh package lists of the release before a build (stale ones name packages the
# mirror no longer has); they may name a newer kernel, and so a new key.
live_apt_update || { [[ -f $LIVE_APT_DIR/update.log ]] && tail -5 "$LIVE_APT_DIR/update.log" >&2
                     live_log "apt-get update for $LIVE_SUITE failed; using its package lists as they are"; }
live_image_dir || live_die "$LIVE_SUITE's apt ($LIVE_APT_DIR) knows no $LIVE_KERNEL_META after apt-get update"
image=$LIVE_IMAGE_DIR
key=${image##*/}
if [[ -f $image/READY ]]; then      # built by a concurrent run, or known under the new key
    live_log "reusing cached image $image"
    echo "$image"
    exit 0
fi

start=$SECONDS
live_log "building the $LIVE_SUITE image $key (cold; about 5 minutes)"
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
bash "$LIVE_DIR/build-siw-root.sh" "$LIVE_SUITE" "$kpkg" "$kpkgver" "$work/siw" >"$work/siw.log" 2>&1 &
siw_pid=$!

# The kernel: linux-image-<kver> alone (bookworm, trixie), or (sid, 7.x) an empty
# linux-image-<kver> depending on linux-base-<kver> (config, modules.builtin,
# System.map), linux-binary-<kver> (/usr/lib/modules/<kver>/vmlinuz) and
# linux-modules-<kver> (the modules) of the same version: those are taken too.
kdebs=("$kpkg=$kpkgver")
while read -r p; do
    kdebs+=("$p=$kpkgver")
done < <(apt-cache "${LIVE_APT_OPTS[@]}" depends "$kpkg" 2>/dev/null |
         awk -v k="$kver" '$1 == "Depends:" && $2 ~ /^linux-(base|binary|modules)-/ && substr($2, length($2) - length(k)) == "-" k { print $2 }')
live_log "downloading ${kdebs[*]} ($LIVE_SUITE)"
# (as _apt cannot write into the build directory, apt downloads as root: its warning is dropped)
(cd "$work/debs" && apt-get "${LIVE_APT_OPTS[@]}" download -q "${kdebs[@]}" >"$work/download.log" 2>&1) ||
    { cat "$work/download.log" >&2; live_die "apt-get download ${kdebs[*]} ($LIVE_SUITE) failed"; }
for p in "${kdebs[@]}"; do
    dpkg-deb -x "$work/debs/${p%%=*}_"*.deb "$work/kernel" || live_die "cannot unpack ${p%%=*}"
done
# merged /usr: the modules are in /usr/lib/modules (depmod -b and modprobe -d look in lib/)
if [[ -d $work/kernel/usr/lib/modules && ! -e $work/kernel/lib ]]; then
    ln -s usr/lib "$work/kernel/lib"
fi
vmlinuz=$work/kernel/boot/vmlinuz-$kver
[[ -f $vmlinuz ]] || vmlinuz=$work/kernel/usr/lib/modules/$kver/vmlinuz
cp "$vmlinuz" "$work/out/vmlinuz" || live_die "${kdebs[*]} have no /boot/vmlinuz-$kver nor /usr/lib/modules/$kver/vmlinuz"
kmods=$work/kernel/lib/modules/$kver
depmod -b "$work/kernel" "$kver" || live_die "depmod of $kpkg failed"

mapfile -t pkgs < <(live_image_packages)     # packages.txt and packages-$LIVE_SUITE.txt
live_log "debootstrap $LIVE_SUITE from $mirror with ${pkgs[*]}"
# (debootstrap's cache is per release: a package of one release never stands in for another's)
mkdir -p "$LIVE_CACHE_ROOT/debs-$LIVE_SUITE"
root=$work/root
debootstrap --variant=minbase --cache-dir="$LIVE_CACHE_ROOT/debs-$LIVE_SUITE" \
    --include="$(IFS=,; echo "${pkgs[*]}")" "$LIVE_SUITE" "$root" "$mirror" >"$work/debootstrap.log" 2>&1 ||
    { tail -20 "$work/debootstrap.log" >&2; tail -20 "$root/debootstrap/debootstrap.log" >&2 || true
      live_die "debootstrap failed"; }

# Modules a kernel may lack altogether: 6.14's CRC library rework removed
# crc32c_generic, libcrc32c and crc32_generic (7.2: crc32 is built in, crc32c
# by way of lib/crc); not there, they are left out (with a line in the log).
OPTIONAL_MODULES=" crc32c_generic libcrc32c crc32_generic "
# Module files of the given modules and of everything they depend on, in load order.
closure() {
    local m
    for m in "$@"; do
        if [[ $OPTIONAL_MODULES == *" $m "* ]] &&
           ! modprobe -d "$work/kernel" -S "$kver" --show-depends "$m" >/dev/null 2>&1; then
            live_log "$kpkg has no module $m (nor built in): left out"
            continue
        fi
        modprobe -d "$work/kernel" -S "$kver" --show-depends "$m" | awk '$1 == "insmod" { print $2 }' ||
            live_die "modprobe --show-depends $m: $kpkg has no module $m"
    done | sed -e "s|^$work/kernel/lib/modules/$kver/||" -e "s|^$work/kernel/usr/lib/modules/$kver/||" |
        awk '!seen[$0]++'
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
# Compressed modules (6.12: .ko.xz) are unpacked for busybox's insmod; the list
# initramfs-init reads names the unpacked files.
closure "${EARLY_MODULES[@]}" | grep -v '/crc32c-intel\.ko\(\.xz\|\.zst\)\?$' > "$work/early-modules"
: > "$ird/etc/early-modules"
while read -r m; do
    case $m in
    *.ko.xz) mkdir -p "$ird/lib/modules/${m%/*}"; xz -dc "$kmods/$m" > "$ird/lib/modules/${m%.xz}"; m=${m%.xz} ;;
    *.ko.zst) mkdir -p "$ird/lib/modules/${m%/*}"; zstd -qdc "$kmods/$m" > "$ird/lib/modules/${m%.zst}"; m=${m%.zst} ;;
    *) install -D -m 0644 "$kmods/$m" "$ird/lib/modules/$m" ;;
    esac
    echo "$m" >> "$ird/etc/early-modules"
done < "$work/early-modules"
(cd "$ird" && find . | cpio -o -H newc --quiet | gzip -1) > "$work/out/initrd.img"

wait "$siw_pid" && siw_status=built || siw_status=failed
siw_pid=
if [[ $siw_status == built ]]; then
    install -D -m 0644 "$work/siw/siw.ko" "$dst/updates/siw.ko"
    live_log "siw.ko built (in $(cat "$work/siw/root")) and added"
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
    [[ -f $work/siw/root ]] && echo "siw-root $(cat "$work/siw/root")"
    echo "mirror $mirror"
    echo "built $(date -u +%Y-%m-%dT%H:%M:%SZ) in $((SECONDS - start)) s"
    echo "packages"
    chroot "$root" dpkg-query -W -f '  ${Package} ${Version}\n' 2>/dev/null | sort
} > "$work/out/info"
printf '%s\n' "$LIVE_KEY_INPUTS" > "$work/out/key-inputs"
touch "$work/out/READY"
rm -rf "$image"
mv "$work/out" "$image"

# Keep this image and the two most recent others of the same release (other
# branches); drop the rest of that release's.  Images of other releases are
# never touched here.
live_prune_images "$image"
live_log "image $key built in $((SECONDS - start)) s"
echo "$image"
