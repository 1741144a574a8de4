#!/usr/bin/env bash
# buildroot-run.sh ROOT CMD...: run CMD on the host with a Debian build root
# (scripts/buildroot.sh) ready for chroot: in a private mount namespace
# (nothing outlives CMD, nothing is seen by other processes), /proc, /dev,
# /tmp and the source tree ($TOP, and $BUILD when it is elsewhere) are bound
# into ROOT at the same paths, so that "chroot ROOT tshark -r /tmp/x.pcap"
# and "chroot ROOT make -C $TOP ..." see the host's files.  Needs root.
#   TOP=/path/to/tree BUILD=/path/to/build scripts/buildroot-run.sh ROOT CMD...
set -eu
root=${1:?usage: buildroot-run.sh ROOT CMD...}; shift
[ -d "$root/usr/bin" ] || { echo "buildroot-run: $root is not a root" >&2; exit 1; }
top=${TOP:-$(cd "$(dirname "$0")/.." && pwd)}
build=${BUILD:-$top/build}
exec unshare -m --propagation private bash -c '
	set -e
	r=$1 top=$2 build=$3; shift 3
	mount -t proc proc "$r/proc"
	mount --rbind /dev "$r/dev"
	mount --bind /tmp "$r/tmp"
	mkdir -p "$r$top" && mount --bind "$top" "$r$top"
	case $build in "$top" | "$top"/*) ;; *)
		mkdir -p "$build" "$r$build" && mount --bind "$build" "$r$build" ;;
	esac
	exec "$@"' sh "$root" "$top" "$build" "$@"
