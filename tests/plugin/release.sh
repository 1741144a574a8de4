#!/usr/bin/env bash
# release.sh RELEASE SUITE: run a plugin suite (tests/suites/40-plugin.sh or
# 41-plugin-ddp.sh) against another Debian release's Wireshark (issue 24):
# make or reuse that release's build root (scripts/buildroot.sh), build the
# plugin there against its libwireshark-dev (make plugin, in a chroot, into
# $BUILD/ws-RELEASE), then run the suite with tshark from the root
# (RPCRDMA_WS_ROOT: tests/plugin/lib.sh) and everything else from the host.
# Deadlines: the root 1,200 s (a cold debootstrap), the build 900 s, the
# suite RPCRDMA_RELEASE_DEADLINE s (default 1,200; a machine shared with
# other work sets more: on one at load 14, 40-plugin alone took over 20 min);
# a missing piece is a failure, never a skip.  Needs root.
set -u
# (in main, read whole before it runs: an edit of this file while a suite
# runs must not change the running script)
main() {
: "${TOP:?}" "${BUILD:?}"
release=$1 suite=$2
fail() { echo "not ok 1 - $suite on $release: $1"; shift; for l in "$@"; do echo "#   $l"; done; echo "1..1"; exit 1; }
[ "$(id -u)" = 0 ] || fail "needs root (debootstrap, chroot)"
[ -x "$BUILD/plugin-test/mkpcap" ] || fail "no $BUILD/plugin-test/mkpcap (make check-build)"
t0=$(date +%s)
log=$(mktemp)
trap 'rm -f "$log"' EXIT
root=$(timeout 1200 "$TOP/scripts/buildroot.sh" "$release" plugin 2>"$log") ||
	fail "build root (scripts/buildroot.sh $release)" "$(tail -n 8 "$log")"
sed 's/^/# /' "$log"
t1=$(date +%s)
pb=$BUILD/ws-$release
mkdir -p "$pb"
# one build at a time per tree (the two suites of a release run side by side)
(
	flock 9
	TOP=$TOP BUILD=$BUILD timeout 900 "$TOP/scripts/buildroot-run.sh" "$root" \
		chroot "$root" make -s -C "$TOP" BUILD="$pb" -j2 plugin
) 9>"$pb/.lock" >"$log" 2>&1 || fail "make plugin in the $release root" "$(tail -n 8 "$log")"
t2=$(date +%s)
ws=$(basename "$(chroot "$root" pkg-config --variable=plugindir wireshark)")
tsv=$(chroot "$root" dpkg-query -W -f '${Version}' tshark)
echo "# $release root $(basename "$root") (tshark $tsv, plugins/$ws): root ready in $((t1 - t0)) s, plugin built in $((t2 - t1)) s"
# the robustness test's corrupted copies (40-plugin): 12 here against the
# host's 30 (each capture in 4 copies, one pass and two; said in the test's
# name): the same plugin source already went through the 30 on the host, and
# each copy is a tshark -V over a third of all captures (make check's budget,
# issue 24)
export PLUGIN_FUZZ_SEEDS=${PLUGIN_FUZZ_SEEDS:-12}
deadline=${RPCRDMA_RELEASE_DEADLINE:-1200}
TOP=$TOP BUILD=$BUILD timeout "$deadline" "$TOP/scripts/buildroot-run.sh" "$root" \
	env RPCRDMA_WS_ROOT="$root" RPCRDMA_PLUGIN_BUILD="$pb" RPCRDMA_WS_RELEASE="$ws" \
	"$TOP/tests/suites/$suite.sh"
rc=$?
[ $rc = 124 ] && echo "not ok - $suite on $release: past its deadline of $deadline s (RPCRDMA_RELEASE_DEADLINE)"
echo "# $suite on $release: suite $(($(date +%s) - t2)) s"
exit $rc
}
main "$@"; exit  # one line: bash has read the exit before main runs
