#!/bin/sh
# inroot.sh DEBDIR CAPTURE WANT_DECODE PROG_C: run in a clean build root (a
# throwaway overlay over scripts/buildroot.sh's root, tests/deb/release.sh):
# install the packages with apt, then use them.  Prints TAP lines (no plan).
set -u
debs=$1 cap=$2 want=$3 prog=$4
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
nok() { n=$((n + 1)); echo "not ok $n - $1"; shift; for l in "$@"; do echo "#   $l"; done; }
export DEBIAN_FRONTEND=noninteractive
cd "$debs" || exit 1
# the registry's lists (for the packages' dependencies), when the root has none
ls /var/lib/apt/lists/*_Packages >/dev/null 2>&1 || apt-get update -qq >/dev/null 2>&1
if out=$(apt-get install -y -q --no-install-recommends -o Dpkg::Use-Pty=0 ./*.deb 2>&1); then
	ok "apt install ./*.deb: $(ls ./*.deb | sed 's|^\./||; s|_.*||' | tr '\n' ' ')"
else
	nok "apt install ./*.deb" "$(echo "$out" | tail -n 8)"
fi
tools=$(dpkg -L rpcrdma-tools 2>/dev/null | grep '^/usr/bin/rpcrdma-' | sort)
[ "$(echo "$tools" | grep -c .)" -ge 5 ] || nok "rpcrdma-tools holds the tools" "$tools"
for t in $tools; do
	v=$("$t" --version 2>&1 | head -n 1)
	case $v in *[0-9].[0-9]*) ok "$(basename "$t") --version: $v" ;;
	*) nok "$(basename "$t") --version" "got: $v" ;; esac
done
for f in /usr/share/man/man1/rpcrdma-decode.1.gz /usr/share/bash-completion/completions/rpcrdma-decode; do
	[ -f "$f" ] && ok "installed: $f" || nok "installed: $f"
done
got=$(rpcrdma-decode -r "$cap" 2>&1)
if [ "$got" = "$(cat "$want")" ] && [ -n "$got" ]; then
	ok "rpcrdma-decode -r $(basename "$cap"): $(echo "$got" | wc -l) lines, the same as the tree's build"
else
	nok "rpcrdma-decode -r $(basename "$cap") decodes as the tree's build" "$(echo "$got" | head -n 3)" "$(diff "$want" - <<E 2>&1 | head -n 5
$got
E
)"
fi
flags=$(pkg-config --cflags --libs librpcrdma 2>&1)
# shellcheck disable=SC2086
if cc -o /tmp/deb-prog "$prog" $flags 2>/tmp/deb-prog.err &&
	out=$(/tmp/deb-prog) && [ "$out" = "accept xid=0x11223344 vers=1 credits=32 proc=0" ] &&
	ldd /tmp/deb-prog | grep -qE 'librpcrdma\.so\.0 => /(usr/)?lib/'; then
	ok "a program built with pkg-config --cflags --libs librpcrdma ($flags) runs against librpcrdma.so.0: $out"
else
	nok "a program built with pkg-config --libs librpcrdma" "flags: $flags" "$(head -n 3 /tmp/deb-prog.err)" "out: ${out:-}" "$(ldd /tmp/deb-prog 2>&1 | grep rpcrdma)"
fi
pd=$(pkg-config --variable=plugindir wireshark 2>/dev/null || dpkg -L wireshark-plugin-rpcrdma | grep -o '^.*/plugins/[0-9.]*' | head -n 1)
so=$(dpkg -L wireshark-plugin-rpcrdma | grep '/epan/rpcrdma.so$')
case $so in "$pd/epan/rpcrdma.so") ok "wireshark-plugin-rpcrdma installs $so (this release's plugins/X.Y)" ;;
*) nok "wireshark-plugin-rpcrdma installs into $pd/epan" "got: $so" ;; esac
# as an ordinary user (tshark as root ignores some plugin folders)
if setpriv --reuid=65534 --regid=65534 --clear-groups env HOME=/tmp tshark -G plugins 2>/dev/null | grep -q "rpcrdma.so.*$so"; then
	ok "tshark -G plugins loads $so ($(tshark --version 2>/dev/null | head -n 1))"
else
	nok "tshark -G plugins loads the packaged plugin" "$(setpriv --reuid=65534 --regid=65534 --clear-groups env HOME=/tmp tshark -G plugins 2>&1 | grep -i rpcrdma | head -n 3)"
fi
cnt=$(setpriv --reuid=65534 --regid=65534 --clear-groups env HOME=/tmp tshark -r "$cap" -Y rpcrdma.xid -T fields -e frame.number 2>/dev/null | wc -l)
[ "$cnt" -gt 0 ] && ok "the packaged plugin dissects $(basename "$cap") ($cnt frames with rpcrdma.xid)" ||
	nok "the packaged plugin dissects $(basename "$cap")" "0 frames with rpcrdma.xid"
echo "# inroot: $n tests"
