#!/usr/bin/env bash
# buildroot-deb.sh [RELEASE]: build the Debian packages (debian/: rpcrdma-tools,
# librpcrdma0, librpcrdma-dev, wireshark-plugin-rpcrdma) with
# dpkg-buildpackage -b, and check them with lintian (no error allowed).
# Without RELEASE, or with the host's own (bookworm), they are built on the
# host; for another release (trixie, sid), inside its build root
# (scripts/buildroot.sh RELEASE deb), so that the plugin is built for that
# release's Wireshark.  The packages land in $BUILD/deb/RELEASE/ (the
# source is copied to $BUILD/deb/RELEASE/src first: dpkg-buildpackage
# writes into the parent directory).  make deb [DEB_RELEASE=trixie]
set -eu
main() {
top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$top/build}
case $build in /*) ;; *) build=$top/$build ;; esac
host=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
release=${1:-$host}
out=$build/deb/$release
ver=$(dpkg-parsechangelog -l "$top/debian/changelog" -S Version)
src=$out/src/rpcrdma-tools-$ver
rm -rf "$out"
mkdir -p "$src"
# the tree as it is (work in progress included), without build output or git
(cd "$top" && tar --exclude=./build --exclude=./.git --exclude='./debian/build' -cf - .) | tar -xf - -C "$src"
t0=$(date +%s)
if [ "$release" = "$host" ]; then
	(cd "$src" && dpkg-buildpackage -b -us -uc) >"$out/build.log" 2>&1 ||
		{ tail -n 30 "$out/build.log" >&2; echo "deb: dpkg-buildpackage failed ($out/build.log)" >&2; exit 1; }
	lint=(lintian)
else
	root=$("$top/scripts/buildroot.sh" "$release" deb)
	TOP=$top BUILD=$build "$top/scripts/buildroot-run.sh" "$root" \
		chroot "$root" sh -c 'cd "$1" && dpkg-buildpackage -b -us -uc' sh "$src" >"$out/build.log" 2>&1 ||
		{ tail -n 30 "$out/build.log" >&2; echo "deb: dpkg-buildpackage in the $release root failed ($out/build.log)" >&2; exit 1; }
	# lintian of the release itself when its root has it, else the host's
	if [ -x "$root/usr/bin/lintian" ]; then
		lint=(env TOP="$top" BUILD="$build" "$top/scripts/buildroot-run.sh" "$root" chroot "$root" lintian)
	else
		lint=(lintian)
	fi
fi
t1=$(date +%s)
echo "deb: $release: built in $((t1 - t0)) s: $(cd "$out/src" && ls ./*.deb | tr '\n' ' ')"
mv "$out"/src/*.deb "$out"/src/*.changes "$out"/src/*.buildinfo "$out/"
# lintian on the four packages (not the -dbgsym ones debhelper adds: half
# the time for nothing of ours): errors fail; warnings are counted
mapfile -t debs < <(ls "$out"/*.deb | grep -v -- '-dbgsym_')
if ! "${lint[@]}" --fail-on error "${debs[@]}" >"$out/lintian.txt" 2>&1; then
	cat "$out/lintian.txt" >&2
	echo "deb: lintian found errors ($out/lintian.txt)" >&2
	exit 1
fi
echo "deb: lintian: $(grep -c '^E:' "$out/lintian.txt") errors, $(grep -c '^W:' "$out/lintian.txt") warnings ($out/lintian.txt, $(($(date +%s) - t1)) s)"
}
main "$@"; exit  # one line: bash has read the exit before main runs
