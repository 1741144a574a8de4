#!/usr/bin/env bash
# make install into a scratch DESTDIR: every piece lands where users look for
# it, the shared library carries its soname, and a program builds against
# the installed library through pkg-config and runs.
set -u
cd "$TOP" || exit 2
dest=$(mktemp -d)
trap 'rm -rf "$dest"' EXIT
n=0 rc=0
t() {   # t DESCRIPTION COMMAND...
	local d=$1; shift
	n=$((n + 1))
	if "$@" >/dev/null 2>&1; then echo "ok $n - $d"; else echo "not ok $n - $d"; rc=1; fi
}
prefix=/usr/local
t "make install PREFIX=$prefix DESTDIR=..." make -s install PREFIX=$prefix DESTDIR="$dest" BUILD="$BUILD"
root=$dest$prefix
t "static library" test -f "$root/lib/librpcrdma.a"
t "shared library with soname librpcrdma.so.0" \
	sh -c "readelf -d '$root/lib/librpcrdma.so.0.1.0' | grep -q 'SONAME.*librpcrdma.so.0'"
t "librpcrdma.so and .so.0 links" test -L "$root/lib/librpcrdma.so" -a -L "$root/lib/librpcrdma.so.0"
t "headers" test -f "$root/include/rpcrdma/codec.h" -a -f "$root/include/rpcrdma/rpc.h"
t "pkg-config file" test -f "$root/lib/pkgconfig/librpcrdma.pc"
t "rpcrdma-decode" test -x "$root/bin/rpcrdma-decode"
t "man page" test -f "$root/share/man/man1/rpcrdma-decode.1"
t "bash completion" test -f "$root/share/bash-completion/completions/rpcrdma-decode"
cat > "$dest/use.c" <<'C'
#include <rpcrdma/codec.h>
#include <stdio.h>
int main(void)
{
	static const unsigned char m[] = { 0,0,0,1, 0,0,0,1, 0,0,0,1, 0,0,0,2 };
	struct rpcrdma_msg msg;
	rpcrdma_decode(m, sizeof(m), &msg);
	puts(rpcrdma_reason_name(msg.reason));
	return 0;
}
C
export PKG_CONFIG_PATH=$root/lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$dest
t "a program builds with pkg-config --cflags --libs librpcrdma" \
	sh -c "cc -o '$dest/use' '$dest/use.c' \$(pkg-config --cflags --libs librpcrdma)"
t "and runs against the installed shared library" \
	sh -c "LD_LIBRARY_PATH='$root/lib' '$dest/use' | grep -qx msgp"
echo "1..$n"
exit $rc
