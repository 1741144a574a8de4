#!/bin/bash
# Installs on the host what the live test bed needs (as root, from Debian).
# Exit status: 0 ready, 2 this host cannot run the live tests (the reason is
# printed on stdout as one line), 1 unexpected error.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

need=(qemu-system-x86 debootstrap busybox-static cpio e2fsprogs kmod tshark wget)
declare -A probe=(
    [qemu-system-x86]=qemu-system-x86_64 [debootstrap]=debootstrap [busybox-static]=/bin/busybox
    [cpio]=cpio [e2fsprogs]=mkfs.ext4 [kmod]=depmod [tshark]=tshark [wget]=wget)

missing=()
for p in "${need[@]}"; do
    if [[ $p == busybox-static ]]; then
        dpkg-query -W -f '${Status}' busybox-static 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
    elif ! command -v "${probe[$p]}" >/dev/null 2>&1 && ! [[ -x /usr/sbin/${probe[$p]} ]]; then
        missing+=("$p")
    fi
done

if ((${#missing[@]} == 0)) && [[ -n $(live_kernel_pkg) ]]; then
    exit 0
fi
if ((EUID != 0)); then
    echo "not root: cannot install ${missing[*]:-the package lists}"
    exit 2
fi
export DEBIAN_FRONTEND=noninteractive
if ! apt-get update -q >&2; then
    echo "apt-get update failed: Debian's mirror cannot be reached"
    exit 2
fi
if ((${#missing[@]})); then
    live_log "installing on the host: ${missing[*]}"
    if ! apt-get install -y -q --no-install-recommends "${missing[@]}" >&2; then
        echo "cannot install ${missing[*]} from Debian's mirror"
        exit 2
    fi
fi
# another release's kernel is known to its own apt state (lib.sh), made here
# on a cold cache: before, a first `make check-live LIVE_SUITE=trixie` on a
# machine without it stopped with "apt does not know linux-image-amd64"
if [[ $LIVE_SUITE != "$LIVE_HOST_SUITE" && -z $(live_kernel_pkg) ]] && ! live_apt_update; then
    echo "apt-get update for $LIVE_SUITE failed (log: $LIVE_APT_DIR/update.log)"
    exit 2
fi
[[ -n $(live_kernel_pkg) ]] || { echo "apt does not know $LIVE_KERNEL_META${LIVE_APT_OPTS:+ in $LIVE_SUITE}"; exit 2; }
exit 0
