# shellcheck shell=bash disable=SC2034
# Shared helpers for the live RDMA test bed (sourced, not run).
# Nothing here shapes the guest image: the image is shaped only by the files
# listed in IMAGE_INPUTS, so editing this file never forces a rebuild.

LIVE_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_ROOT=$(cd "$LIVE_DIR/../.." && pwd)
LIVE_CACHE_ROOT=${RPCRDMA_LIVE_CACHE:-/var/cache/rpcrdma-tools/live}
LIVE_SUITE=bookworm
LIVE_KERNEL_META=linux-image-amd64

# The files whose content shapes the image (with the package versions below).
IMAGE_INPUTS=(build-image.sh build-siw.sh initramfs-init packages.txt)

live_log() { printf 'live: %s\n' "$*" >&2; }
live_die() { printf 'live: error: %s\n' "$*" >&2; exit 1; }

# The mirror apt already uses for Debian's main suite (no other host is ever named);
# RPCRDMA_LIVE_MIRROR overrides it (a local mirror; it does not change the cache key).
live_mirror() {
    local uri
    [[ -n ${RPCRDMA_LIVE_MIRROR:-} ]] && { printf '%s\n' "${RPCRDMA_LIVE_MIRROR%/}"; return 0; }
    uri=$(apt-get indextargets --format '$(REPO_URI) $(CODENAME) $(COMPONENT) $(TARGET_OF)' 2>/dev/null |
          awk -v s="$LIVE_SUITE" '$2 == s && $3 == "main" && $4 == "deb" { print $1; exit }')
    [[ -n $uri ]] || return 1
    printf '%s\n' "${uri%/}"
}

# Candidate version of a package, empty when apt does not know it.
live_pkg_version() {
    apt-cache policy "$1" 2>/dev/null | awk '/Candidate:/ { if ($2 != "(none)") print $2; exit }'
}

# The kernel package behind linux-image-amd64, e.g. linux-image-6.1.0-56-amd64.
live_kernel_pkg() {
    apt-cache depends "$LIVE_KERNEL_META" 2>/dev/null |
        awk '/Depends: linux-image-/ { print $2; exit }'
}

# Prints the cache key: sha256 over the image inputs and the versions of the
# Debian packages that end up in the image (kernel, kernel source for siw).
live_cache_key() {
    local kpkg kver f
    kpkg=$(live_kernel_pkg) || true
    [[ -n $kpkg ]] || return 1
    kver=$(live_pkg_version "$kpkg")
    [[ -n $kver ]] || return 1
    {
        printf 'suite %s\narch %s\n' "$LIVE_SUITE" "$(dpkg --print-architecture)"
        printf 'kernel %s %s\n' "$kpkg" "$kver"
        printf 'linux-source-6.1 %s\n' "$(live_pkg_version linux-source-6.1)"
        for f in "${IMAGE_INPUTS[@]}"; do
            printf 'file %s %s\n' "$f" "$(sha256sum < "$LIVE_DIR/$f" | cut -d' ' -f1)"
        done
    } | sha256sum | cut -d" " -f1
}

# Sets LIVE_IMAGE_DIR to the cached image for the current key (may not exist yet).
live_image_dir() {
    local key
    key=$(live_cache_key) || return 1
    LIVE_IMAGE_DIR="$LIVE_CACHE_ROOT/$key"
}
