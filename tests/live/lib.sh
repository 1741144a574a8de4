# shellcheck shell=bash disable=SC2034
# Shared helpers for the live RDMA test bed (sourced, not run).
# Nothing here shapes the guest image: the image is shaped only by the files
# listed in IMAGE_INPUTS, so editing this file never forces a rebuild.

LIVE_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_ROOT=$(cd "$LIVE_DIR/../.." && pwd)
LIVE_CACHE_ROOT=${RPCRDMA_LIVE_CACHE:-/var/cache/rpcrdma-tools/live}
# The guest's Debian release: LIVE_SUITE (make check-live LIVE_SUITE=trixie) or
# RPCRDMA_LIVE_SUITE; bookworm by default.  bookworm, the host's release, is built
# by build-image.sh with the host's apt (unchanged since before trixie, so its
# cache key did not move); any other release by build-image-release.sh, with an
# apt of its own for that release (live_apt_opts) and siw.ko compiled in a build
# root of the release (scripts/buildroot.sh RELEASE kernel).
LIVE_SUITE=${LIVE_SUITE:-${RPCRDMA_LIVE_SUITE:-bookworm}}
case $LIVE_SUITE in
bookworm | trixie | sid) ;;
*) printf 'live: error: LIVE_SUITE=%s: the test bed knows bookworm, trixie and sid\n' "$LIVE_SUITE" >&2
   exit 1 ;;
esac
LIVE_HOST_SUITE=bookworm
LIVE_KERNEL_META=linux-image-amd64

# The files whose content shapes the image (with the package versions below).
if [[ $LIVE_SUITE == "$LIVE_HOST_SUITE" ]]; then
    IMAGE_INPUTS=(build-image.sh build-siw.sh initramfs-init packages.txt)
else
    IMAGE_INPUTS=(build-image-release.sh build-siw-root.sh initramfs-init packages.txt)
    # packages a release needs besides packages.txt (what bookworm's packages pulled in)
    [[ -f $LIVE_DIR/packages-$LIVE_SUITE.txt ]] && IMAGE_INPUTS+=("packages-$LIVE_SUITE.txt")
fi
# The packages debootstrapped into the image of LIVE_SUITE, one a line.
live_image_packages() {
    local f
    for f in "$LIVE_DIR/packages.txt" "$LIVE_DIR/packages-$LIVE_SUITE.txt"; do
        [[ $LIVE_SUITE != "$LIVE_HOST_SUITE" || $f == */packages.txt ]] || continue
        [[ -f $f ]] && grep -v '^#' "$f" | grep .
    done
    return 0
}
# The script that builds (or reuses) the image of LIVE_SUITE.
live_image_builder() {
    if [[ $LIVE_SUITE == "$LIVE_HOST_SUITE" ]]; then
        printf '%s\n' "$LIVE_DIR/build-image.sh"
    else
        printf '%s\n' "$LIVE_DIR/build-image-release.sh"
    fi
}

# apt for LIVE_SUITE: the host's own apt for the host's release; for another
# release, a state of its own in $LIVE_CACHE_ROOT/apt/RELEASE (sources.list naming
# that release on the host's registry, its lists, an empty dpkg status), so that
# apt-cache and apt-get download answer for that release and the host's apt is
# left alone.  LIVE_APT_OPTS holds the options (empty for the host's release).
LIVE_APT_DIR=$LIVE_CACHE_ROOT/apt/$LIVE_SUITE
LIVE_APT_OPTS=()
if [[ $LIVE_SUITE != "$LIVE_HOST_SUITE" ]]; then
    LIVE_APT_OPTS=(-o "Dir::Etc=$LIVE_APT_DIR/etc" -o "Dir::Etc::sourcelist=$LIVE_APT_DIR/etc/sources.list"
                   -o Dir::Etc::sourceparts=- -o "Dir::State=$LIVE_APT_DIR"
                   -o "Dir::State::lists=$LIVE_APT_DIR/lists" -o "Dir::State::status=$LIVE_APT_DIR/status"
                   -o "Dir::Cache=$LIVE_APT_DIR/cache" -o Acquire::Check-Valid-Until=false)
fi

live_log() { printf 'live: %s\n' "$*" >&2; }
live_die() { printf 'live: error: %s\n' "$*" >&2; exit 1; }

# The mirror apt already uses for Debian's main suite (no other host is ever named);
# RPCRDMA_LIVE_MIRROR overrides it (a local mirror; it does not change the cache key).
live_mirror() {
    local uri s=$LIVE_SUITE
    [[ -n ${RPCRDMA_LIVE_MIRROR:-} ]] && { printf '%s\n' "${RPCRDMA_LIVE_MIRROR%/}"; return 0; }
    # another release comes from the registry that serves the host's
    [[ $LIVE_SUITE == "$LIVE_HOST_SUITE" ]] || s=$LIVE_HOST_SUITE
    uri=$(apt-get indextargets --format '$(REPO_URI) $(CODENAME) $(COMPONENT) $(TARGET_OF)' 2>/dev/null |
          awk -v s="$s" '$2 == s && $3 == "main" && $4 == "deb" { print $1; exit }')
    [[ -n $uri ]] || return 1
    printf '%s\n' "${uri%/}"
}

# "PREFIXNAME VERSION" a line for each PKG, VERSION its candidate (empty
# when apt has none); one apt-cache for all (each costs a second on a loaded host).
live_candidates() {
    local prefix=$1
    shift
    apt-cache "${LIVE_APT_OPTS[@]}" policy "$@" 2>/dev/null |
        awk -v pre="$prefix" '/^[^ ]/ { p = $1; sub(/:$/, "", p) }
             /Candidate:/ { printf "%s%s %s\n", pre, p, ($2 == "(none)" ? "" : $2) }'
}

# Candidate version of a package, empty when apt does not know it.
live_pkg_version() {
    live_candidates "" "$1" | awk 'NR == 1 { print $2 }'
}

# The kernel package behind linux-image-amd64, e.g. linux-image-6.1.0-56-amd64.
live_kernel_pkg() {
    apt-cache "${LIVE_APT_OPTS[@]}" depends "$LIVE_KERNEL_META" 2>/dev/null |
        awk '/Depends: linux-image-/ { print $2; exit }'
}

# Sets up (when root) and refreshes LIVE_SUITE's own apt state; 1 when it failed.
live_apt_update() {
    [[ $LIVE_SUITE != "$LIVE_HOST_SUITE" ]] || { apt-get update -q >/dev/null 2>&1; return; }
    local mirror
    mirror=$(live_mirror) || return 1
    mkdir -p "$LIVE_APT_DIR"/{etc/preferences.d,etc/apt.conf.d,etc/trusted.gpg.d,lists/partial,cache/archives/partial}
    [[ -f $LIVE_APT_DIR/status ]] || : > "$LIVE_APT_DIR/status"
    printf 'deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] %s %s main\n' \
        "$mirror" "$LIVE_SUITE" > "$LIVE_APT_DIR/etc/sources.list"
    apt-get "${LIVE_APT_OPTS[@]}" update -q >"$LIVE_APT_DIR/update.log" 2>&1
}

# The kernel's upstream series, for linux-source-X.Y: 6.1.0-56-amd64 -> 6.1.
live_kseries() { local v=${1#linux-image-}; v=${v%%-*}; v=${v%%+*}; printf '%s\n' "${v%.*}" | awk -F. '{ print $1 "." $2 }'; }

# The version of linux-source-6.1 build-siw.sh builds bookworm's siw.ko from,
# for the kernel package version KVER: KVER itself when the registry lists it
# (it keeps older uploads; a newer source for the same ABI, 6.1.192-3 beside
# the kernel's 6.1.192-2 on 11-28, moved the candidate past the kernel), else
# the candidate (build-siw.sh then stops: its source must match the kernel).
# The one place of that rule: the cache key names what it prints.
live_siw_src_version() {
    if apt-cache madison linux-source-6.1 2>/dev/null | awk -v v="$1" '$3 == v { f = 1 } END { exit !f }'; then
        printf '%s\n' "$1"
    else
        live_pkg_version linux-source-6.1
    fi
}

# Prints the inputs of the cache key, one a line ("suite bookworm", "kernel
# PKG VERSION", "package NAME VERSION", "file NAME SHA256", ...): the suite, the
# kernel package and version, the versions of what siw.ko is built from (for
# bookworm the linux-source-6.1 build-siw.sh takes; for another release the
# linux-source-X.Y, headers, gcc and make of its build root), the version of
# every package the image is made of (packages.txt, packages-RELEASE.txt and
# what they and debootstrap's base pull in), and the files in IMAGE_INPUTS.  Written beside each
# image (key-inputs), so that a new key can say what moved (live_say_changes).
live_key_inputs() {
    local kpkg kver f series pkgs kit=()
    kpkg=$(live_kernel_pkg) || true
    [[ -n $kpkg ]] || return 1
    kver=$(live_pkg_version "$kpkg")
    [[ -n $kver ]] || return 1
    printf 'suite %s\narch %s\n' "$LIVE_SUITE" "$(dpkg --print-architecture)"
    printf 'kernel %s %s\n' "$kpkg" "$kver"
    if [[ $LIVE_SUITE == "$LIVE_HOST_SUITE" ]]; then
        printf 'linux-source-6.1 %s\n' "$(live_siw_src_version "$kver")"
    else
        series=$(live_kseries "$kpkg")
        kit=("linux-source-$series" "linux-headers-${kpkg#linux-image-}" linux-headers-amd64 gcc make)
    fi
    ((${#kit[@]} == 0)) || live_candidates "" "${kit[@]}"
    # Every package the image is made of, at the version it would get now:
    # what apt would install on an empty system for the package lists and the
    # essential and required packages (debootstrap --variant=minbase's base),
    # "package NAME VERSION" sorted (about 210; one apt-get -s, ~3 s).  Apt
    # reads the release's main suite alone, as debootstrap does: another
    # release's own apt state names nothing else; for the host's, a sources
    # list of that one line over the host's lists (its -security and -updates
    # are the kernel's, not the image's).  Its choice among alternatives can
    # differ from debootstrap's in a few trivial packages (bookworm, 11-28:
    # usr-is-merged and lsb-base in the image; usrmerge and perl's in the
    # simulation; every other version the image's own).  Unresolvable: the
    # listed packages' candidates.
    mapfile -t pkgs < <(live_image_packages)
    local sim mirror src= opts=("${LIVE_APT_OPTS[@]}")
    if [[ $LIVE_SUITE == "$LIVE_HOST_SUITE" ]] && mirror=$(live_mirror) && src=$(mktemp); then
        printf 'deb %s %s main\n' "$mirror" "$LIVE_SUITE" > "$src"
        opts=(-o "Dir::Etc::sourcelist=$src" -o Dir::Etc::sourceparts=-)
    fi
    sim=$(apt-get "${opts[@]}" -o Dir::State::status=/dev/null -s install --no-install-recommends \
              "${pkgs[@]}" '?essential' '?priority(required)' 2>/dev/null |
          awk '$1 == "Inst" { v = $3; sub(/^\(/, "", v); print "package " $2 " " v }' | sort)
    [[ -n $src ]] && rm -f "$src"
    if [[ -n $sim ]]; then
        printf '%s\n' "$sim"
    else
        printf 'closure unresolved (apt-get -s install failed): the listed packages only\n'
        live_candidates "package " "${pkgs[@]}"
    fi
    for f in "${IMAGE_INPUTS[@]}"; do
        printf 'file %s %s\n' "$f" "$(sha256sum < "$LIVE_DIR/$f" | cut -d' ' -f1)"
    done
}

# Prints the cache key of the key's inputs TEXT (live_key_inputs): its sha256.
live_cache_key() {
    printf '%s\n' "$1" | sha256sum | cut -d' ' -f1
}

# The release an image directory holds (bookworm's images of before 11-28
# name none in info).
live_image_suite() {
    awk '$1 == "suite" { print $2; f = 1; exit } END { if (!f) print "bookworm" }' "$1/info" 2>/dev/null
}

# The built images of LIVE_SUITE in the cache, newest first, one directory a line.
live_suite_images() {
    local r
    ls -1dt "$LIVE_CACHE_ROOT"/*/READY 2>/dev/null | while read -r r; do
        if [[ $(live_image_suite "${r%/READY}") == "$LIVE_SUITE" ]]; then printf '%s\n' "${r%/READY}"; fi
    done
    return 0
}

# Says (on stderr) what moved the key of the image about to be built
# (LIVE_KEY_INPUTS, set by live_image_dir) against the newest cached image of
# the same release: each input whose version or content differs, "NAME OLD ->
# NEW" (a new image is never a silent difference).
live_say_changes() {
    local old d
    old=
    while read -r d; do
        [[ -f $d/key-inputs ]] && { old=$d; break; }
    done < <(live_suite_images)
    if [[ -z $old ]]; then
        live_log "no earlier $LIVE_SUITE image with its key's inputs (key-inputs) to compare with"
        return 0
    fi
    live_log "a new $LIVE_SUITE image: its key's inputs against the newest cached one (${old##*/}):"
    # (the first 30 lines: more says the inputs changed form, as on 11-28)
    printf '%s\n' "$LIVE_KEY_INPUTS" | awk '
        function say(t) { if (++k <= 30) print "live:   " t }
        NR == FNR { n = $0; sub(/ [^ ]*$/, "", n); o[n] = $NF; next }
        { n = $0; sub(/ [^ ]*$/, "", n); seen[n] = 1
          if (!(n in o)) say(n ": new (" $NF ")")
          else if (o[n] != $NF) say(n ": " o[n] " -> " $NF) }
        END { for (n in o) if (!(n in seen)) say(n ": gone (was " o[n] ")")
              if (k > 30) printf "live:   ... %d more (%d inputs moved in all)\n", k - 30, k }
    ' "$old/key-inputs" - >&2
}

# Drops the images of LIVE_SUITE beyond the three newest (other branches'),
# never KEEP_DIR; images of other releases are never touched.
live_prune_images() {
    live_suite_images | tail -n +4 | while read -r d; do
        if [[ $d != "$1" ]]; then rm -rf "$d"; fi
    done
    return 0
}

# Sets LIVE_IMAGE_DIR to the cached image for the current key (may not exist
# yet), and LIVE_KEY_INPUTS to the text the key is the sha256 of.
live_image_dir() {
    LIVE_KEY_INPUTS=$(live_key_inputs) || return 1
    LIVE_IMAGE_DIR="$LIVE_CACHE_ROOT/$(live_cache_key "$LIVE_KEY_INPUTS")"
}
