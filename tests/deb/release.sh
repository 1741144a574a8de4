#!/usr/bin/env bash
# release.sh RELEASE: the Debian packages on one release (issue 24): build
# them (scripts/buildroot-deb.sh: on the host for bookworm, in the release's
# build root otherwise; lintian without error), then install them with apt
# into a clean copy of that release's root (an overlay over
# scripts/buildroot.sh's plugin root, thrown away afterwards: the root holds
# Debian's own packages only, none of ours) and use them there
# (tests/deb/inroot.sh).  Deadlines: packages 1,500 s, root 1,200 s, the
# installation and its tests 600 s.  Needs root.
set -u
# (in main, read whole before it runs: an edit of this file while a suite
# runs must not change the running script)
main() {
: "${TOP:?}" "${BUILD:?}"
BIN=${BIN:-$BUILD/bin}
release=$1
n=0 fails=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
nok() { n=$((n + 1)) fails=1; echo "not ok $n - $1"; shift; for l in "$@"; do echo "#   $l"; done; }
finish() { echo "1..$n"; exit "$1"; }
[ "$(id -u)" = 0 ] || { nok "deb on $release: needs root (debootstrap, chroot, overlay)"; finish 1; }
T=$(mktemp -d /var/tmp/rpcrdma-deb.XXXXXX)
trap 'rm -rf "$T"' EXIT
t0=$(date +%s)
# RPCRDMA_DEB_REUSE=1: the packages make deb left in $BUILD/deb/RELEASE
# (a quick re-run of the installation; the lintian result is that run's)
if [ "${RPCRDMA_DEB_REUSE:-0}" = 1 ] && ls "$BUILD/deb/$release"/*.deb >/dev/null 2>&1 &&
	[ -f "$BUILD/deb/$release/lintian.txt" ] && ! grep -q '^E:' "$BUILD/deb/$release/lintian.txt"; then
	echo "deb: reused $BUILD/deb/$release (RPCRDMA_DEB_REUSE=1): lintian $(grep -c '^E:' "$BUILD/deb/$release/lintian.txt") errors" >"$T/deb.log"
	ok "packages of $release reused from make deb (RPCRDMA_DEB_REUSE=1), lintian without error there"
elif BUILD=$BUILD timeout 1500 "$TOP/scripts/buildroot-deb.sh" "$release" >"$T/deb.log" 2>&1; then
	ok "packages build on $release and lintian has no error: $(grep '^deb: .*built in' "$T/deb.log" | sed 's/^deb: //') $(grep '^deb: lintian' "$T/deb.log" | sed 's/^deb: //')"
else
	nok "packages build on $release and pass lintian" "$(tail -n 12 "$T/deb.log")"; finish 1
fi
t1=$(date +%s)
root=$(timeout 1200 "$TOP/scripts/buildroot.sh" "$release" plugin 2>"$T/root.log") ||
	{ nok "build root $release" "$(tail -n 8 "$T/root.log")"; finish 1; }
sed 's/^/# /' "$T/root.log"
cap=$TOP/tests/captures/nfs3-rocev2-rxe.pcap
"$BIN/rpcrdma-decode" -r "$cap" >"$T/want" 2>&1
mkdir -p "$T/upper" "$T/work" "$T/merged"
# the four packages (the -dbgsym ones debhelper adds are left out)
cp $(ls "$BUILD/deb/$release"/*.deb | grep -v -- '-dbgsym_') "$cap" "$TOP/tests/deb/prog.c" "$T/want" "$TOP/tests/deb/inroot.sh" "$T/upper/" 2>/dev/null
mkdir -p "$T/upper/tmp/deb" && mv "$T/upper"/*.deb "$T/upper"/*.pcap "$T/upper"/prog.c "$T/upper"/want "$T/upper"/inroot.sh "$T/upper/tmp/deb/"
chmod -R a+rX "$T/upper/tmp/deb"
timeout 600 unshare -m --propagation private sh -c '
	set -e
	T=$1 root=$2
	mount -t overlay overlay -o "lowerdir=$root,upperdir=$T/upper,workdir=$T/work" "$T/merged"
	mount -t proc proc "$T/merged/proc"
	mount --rbind /dev "$T/merged/dev"
	chmod 1777 "$T/merged/tmp"
	exec chroot "$T/merged" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LC_ALL=C.UTF-8 \
		sh /tmp/deb/inroot.sh /tmp/deb /tmp/deb/nfs3-rocev2-rxe.pcap /tmp/deb/want /tmp/deb/prog.c' \
	sh "$T" "$root" >"$T/inroot.out" 2>"$T/inroot.err"
rc=$?
# renumber inroot.sh's lines into this plan
while IFS= read -r l; do
	case $l in
	"ok "*) ok "$release: ${l#ok * - }" ;;
	"not ok "*) nok "$release: ${l#not ok * - }" ;;
	*) echo "$l" ;;
	esac
done <"$T/inroot.out"
grep -q '^# inroot: ' "$T/inroot.out" || nok "the tests in the $release root ran to the end" "exit $rc: $(tail -n 5 "$T/inroot.err")"
echo "# $release: packages $((t1 - t0)) s, root and install tests $(($(date +%s) - t1)) s"
finish $fails
}
main "$@"; exit  # one line: bash has read the exit before main runs
