#!/usr/bin/env bash
# buildroot.sh: make, or reuse, a Debian build root for one release (issue 24),
# and print its directory on stdout (progress on stderr).
#
#   scripts/buildroot.sh RELEASE [SET]     RELEASE: bookworm | trixie | sid
#                                          SET: plugin (default) | deb | kernel
#   scripts/buildroot.sh --list-packages SET
#
# A root is made with debootstrap (minbase) from the package registry the
# host's apt already uses (the first deb.debian.org-style URI in
# /etc/apt/sources.list*; RPCRDMA_ROOT_MIRROR overrides), then apt in the root
# installs SET's packages (debootstrap's own resolver knows no Provides):
#   plugin  gcc, make, pkg-config, the release's libwireshark-dev and tshark
#   deb     plugin's (a copy of that root), plus build-essential, debhelper
#           and the tools' build dependencies
#   kernel  gcc, make, kmod, xz-utils, the release's linux-headers-amd64 and
#           linux-source (the compiler the headers name comes with them):
#           for building an external module such as siw.ko for the release's
#           kernel (tests/live/build-siw-root.sh)
# Roots live under /var/cache/rpcrdma-tools/roots/ (RPCRDMA_ROOTS overrides),
# named RELEASE-SET-KEY, where KEY is the first 12 hex digits of the sha256 of
# the root's exact package list ("name version", dpkg-query, sorted).  The
# symlink RELEASE-SET points at the current one, and RELEASE-SET-KEY/manifest
# holds the list.
#
# Reuse: when a root exists, the registry's dists/RELEASE/InRelease is
# fetched; the same as when the root was made: reused.  Else the root's lists
# are refreshed (apt-get update in it) and an upgrade is simulated; when the
# registry holds other versions, a new root is made (the old one is copied and
# upgraded: a change makes a new key), and the packages that changed are
# printed ("buildroot: trixie-plugin changed: tshark 4.4.19-1 -> 4.4.20-1 ...").
# A set that gained packages (this script changed) makes a new root too, and
# says which.  Never a silent difference.  RPCRDMA_ROOT_OFFLINE=1 reuses a
# root without asking the registry (says so).  Everything runs under one flock
# per release and set, so concurrent callers wait and then reuse.  Apt in the
# roots does not check Valid-Until (the registry may serve a frozen copy).
# Needs root (debootstrap, chroot); scripts/deps.sh installs debootstrap.
set -eu
# (all of it in main, read whole before it runs: an edit of this file while
# a root is being made must not change the running script)
main() {

plugin_pkgs=(make gcc libc6-dev pkg-config libwireshark-dev libglib2.0-dev tshark)
deb_pkgs=("${plugin_pkgs[@]}" build-essential debhelper dpkg-dev fakeroot libpcap-dev zlib1g-dev
	libibverbs-dev librdmacm-dev)
kernel_pkgs=(make gcc libc6-dev kmod xz-utils linux-headers-amd64 linux-source)

die() { echo "buildroot: $*" >&2; exit 1; }
say() { echo "buildroot: $*" >&2; }

if [ "${1:-}" = --list-packages ]; then
	case ${2:-plugin} in
	plugin) printf '%s\n' "${plugin_pkgs[@]}" ;;
	deb) printf '%s\n' "${deb_pkgs[@]}" ;;
	kernel) printf '%s\n' "${kernel_pkgs[@]}" ;;
	*) die "unknown set ${2:-}" ;;
	esac
	exit 0
fi

release=${1:-}
set_=${2:-plugin}
case $release in bookworm | trixie | sid) ;; *) die "usage: $0 bookworm|trixie|sid [plugin|deb|kernel]" ;; esac
case $set_ in
plugin) pkgs=("${plugin_pkgs[@]}") ;;
deb) pkgs=("${deb_pkgs[@]}") ;;
kernel) pkgs=("${kernel_pkgs[@]}") ;;
*) die "unknown set $set_" ;;
esac
[ "$(id -u)" = 0 ] || die "needs root (debootstrap, chroot)"
command -v debootstrap >/dev/null || die "debootstrap missing (scripts/deps.sh installs it)"

roots=${RPCRDMA_ROOTS:-/var/cache/rpcrdma-tools/roots}
mkdir -p "$roots"
name=$release-$set_
exec 9>"$roots/.$name.lock"
flock 9

mirror=${RPCRDMA_ROOT_MIRROR:-}
if [ -z "$mirror" ]; then
	# the registry the host's apt uses (deb822 "URIs:" or one-line "deb URI")
	mirror=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.sources \
		/etc/apt/sources.list.d/*.list 2>/dev/null |
		awk '/^URIs:/ {print $2} /^deb / {for (i = 2; i <= NF; i++) if ($i ~ /^https?:/) {print $i; break}}' |
		grep -v -- '-security' | grep -m1 '/debian/\?$' || true)
	[ -n "$mirror" ] || die "no Debian registry found in /etc/apt/sources.list*; set RPCRDMA_ROOT_MIRROR"
fi

# bind the kernel's file systems for apt/dpkg in the root, in a private
# mount namespace (nothing outlives the command)
in_root() { # in_root DIR CMD...
	local d=$1; shift
	unshare -m --propagation private sh -c '
		d=$1; shift
		mount -t proc proc "$d/proc" && mount --rbind /dev "$d/dev" &&
		exec chroot "$d" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
			DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8 "$@"' sh "$d" "$@"
}
manifest() { in_root "$1" dpkg-query -W -f '${Package} ${Version}\n' | LC_ALL=C sort; }
key_of() { sha256sum "$1" | cut -c1-12; }
# the sha256 of the registry's dists/RELEASE/InRelease (empty when unreachable)
inrelease_sha() {
	python3 -c 'import hashlib, sys, urllib.request
try:
    print(hashlib.sha256(urllib.request.urlopen(sys.argv[1], timeout=30).read()).hexdigest())
except Exception:
    pass' "${mirror%/}/dists/$release/InRelease"
}
adopt() { # adopt STAGE: key it, move it into place, point the link at it
	local stage=$1 key
	manifest "$stage" >"$stage/manifest"
	inrelease_sha >"$stage/inrelease.sha256"
	key=$(key_of "$stage/manifest")
	if [ -d "$roots/$name-$key" ]; then
		rm -rf "$stage"
	else
		mv "$stage" "$roots/$name-$key"
	fi
	ln -sfn "$name-$key" "$roots/$name"
	say "$name: root $roots/$name-$key ($(wc -l <"$roots/$name-$key/manifest") packages)"
}

cur=
if [ -L "$roots/$name" ] && [ -f "$roots/$name/manifest" ]; then
	cur=$(readlink -f "$roots/$name")
fi

if [ -n "$cur" ]; then
	if [ "${RPCRDMA_ROOT_OFFLINE:-0}" = 1 ]; then
		say "$name: reusing $cur without asking the registry (RPCRDMA_ROOT_OFFLINE=1)"
		echo "$cur"; exit 0
	fi
	# the set may have grown since the root was made (this script changed):
	# a copy with the missing packages is a new root
	missing=$(for p in "${pkgs[@]}"; do grep -q "^$p " "$cur/manifest" || echo "$p"; done | tr '\n' ' ')
	if [ -n "$missing" ]; then
		say "$name: $cur lacks $missing; making a new root with them"
		stage="$roots/.stage-$name"
		rm -rf "$stage"
		cp -a "$cur" "$stage"
		# shellcheck disable=SC2086
		in_root "$stage" apt-get update -qq >&2 &&
			in_root "$stage" apt-get install -y -qq --no-install-recommends -o Dpkg::Use-Pty=0 $missing \
				>>"$roots/.$name.log" 2>&1 ||
			{ tail -20 "$roots/.$name.log" >&2; die "$name: apt-get install $missing failed"; }
		in_root "$stage" apt-get clean
		adopt "$stage"
		readlink -f "$roots/$name"
		exit 0
	fi
	# the registry's versions now: its Release file first (one small
	# download); when that changed, refresh the lists and simulate an upgrade
	t0=$(date +%s)
	rel=$(inrelease_sha)
	if [ -n "$rel" ] && [ "$rel" = "$(cat "$cur/inrelease.sha256" 2>/dev/null)" ]; then
		say "$name: reusing $cur (the registry's $release InRelease unchanged)"
		echo "$cur"; exit 0
	fi
	in_root "$cur" apt-get update -qq >&2 || die "$name: apt-get update in $cur failed"
	plan=$(in_root "$cur" apt-get -s -o Debug::NoLocking=1 dist-upgrade 2>/dev/null | grep '^Inst ' || true)
	if [ -z "$plan" ]; then
		[ -z "$rel" ] || echo "$rel" >"$cur/inrelease.sha256"
		say "$name: reusing $cur (registry changed, none of the root's packages; checked in $(($(date +%s) - t0)) s)"
		echo "$cur"; exit 0
	fi
	say "$name: the registry changed $(echo "$plan" | wc -l) packages; making a new root"
	stage="$roots/.stage-$name"
	rm -rf "$stage"
	cp -a "$cur" "$stage"
	in_root "$stage" apt-get -y -qq -o Dpkg::Use-Pty=0 dist-upgrade >&2 || die "$name: upgrade failed"
	in_root "$stage" apt-get clean
	manifest "$stage" >"$stage/manifest.new"
	# the differences, by name
	LC_ALL=C join -a1 -a2 -e - -o 0,1.2,2.2 "$cur/manifest" "$stage/manifest.new" |
		awk '$2 != $3 {printf "%s %s -> %s; ", $1, $2, $3}' | sed 's/; $//' |
		sed "s/^/buildroot: $name changed: /" >&2
	echo >&2
	rm -f "$stage/manifest.new"
	adopt "$stage"
	readlink -f "$roots/$name"
	exit 0
fi

stage="$roots/.stage-$name"
rm -rf "$stage"
t0=$(date +%s)
if [ "$set_" = deb ]; then
	# the deb set is the plugin set's root and the build dependencies:
	# a copy of the current plugin root (made or reused first) and apt
	base=$("$0" "$release" plugin) || die "$name: no plugin root"
	say "$name: from $(basename "$base"), apt-get install ${deb_pkgs[*]}"
	cp -a "$base" "$stage"
	rm -f "$stage/manifest"
	in_root "$stage" apt-get update -qq >&2 &&
		in_root "$stage" apt-get install -y -qq --no-install-recommends -o Dpkg::Use-Pty=0 \
			"${deb_pkgs[@]}" >"$roots/.$name.log" 2>&1 ||
		{ tail -20 "$roots/.$name.log" >&2; die "$name: apt-get install failed"; }
	in_root "$stage" apt-get clean
	say "$name: made in $(($(date +%s) - t0)) s"
	adopt "$stage"
	readlink -f "$roots/$name"
	exit 0
fi
say "$name: debootstrap $release from $mirror, then apt-get install ${pkgs[*]}"
# debootstrap only the minimal base: its own resolver knows no Provides (a
# library renamed for a transition, e.g. sid's libre2-11-absl*, leaves the
# set unconfigured); apt in the root installs the set
if ! debootstrap --variant=minbase "$release" "$stage" "$mirror" \
	>"$roots/.$name.log" 2>&1; then
	tail -20 "$roots/.$name.log" >&2
	die "$name: debootstrap failed (log: $roots/.$name.log)"
fi
t1=$(date +%s)
# apt in the root uses the same registry, for the set, the upgrade check
# and apt install ./*.deb
echo "deb $mirror $release main" >"$stage/etc/apt/sources.list"
# the registry may serve a frozen copy whose Release files are past their
# Valid-Until (sid's, signed on 2026-10-30, was when this was written):
# their signatures are still checked, their dates are not
echo 'Acquire::Check-Valid-Until "false";' >"$stage/etc/apt/apt.conf.d/99rpcrdma-roots"
if ! { in_root "$stage" apt-get update -qq &&
	in_root "$stage" apt-get install -y -qq --no-install-recommends -o Dpkg::Use-Pty=0 "${pkgs[@]}"; } \
	>>"$roots/.$name.log" 2>&1; then
	tail -20 "$roots/.$name.log" >&2
	die "$name: apt-get install in the root failed (log: $roots/.$name.log)"
fi
in_root "$stage" apt-get clean
say "$name: debootstrap $((t1 - t0)) s, apt-get install $(($(date +%s) - t1)) s"
adopt "$stage"
readlink -f "$roots/$name"
}
main "$@"; exit  # one line: bash has read the exit before main runs
