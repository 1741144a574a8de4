#!/usr/bin/env bash
# 51-abi.sh - librpcrdma.so exports exactly the public API (docs/abi.md): the
# functions declared in include/rpcrdma/, the version script
# libcodec/librpcrdma.map and `nm -D` of the built library agree, and
# struct rpcrdma_msg keeps its size and the offset of its reserve.  TAP.
set -u
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
BUILD=${BUILD:-$TOP/build}
so=$BUILD/lib/librpcrdma.so
n=0 rc=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
bad() { n=$((n + 1)); echo "not ok $n - $1"; rc=1; shift; for l in "$@"; do echo "# $l"; done; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# the API: functions declared in the public headers (preprocessed: no comments)
for h in "$TOP"/libcodec/include/rpcrdma/*.h; do printf '#include <rpcrdma/%s>\n' "${h##*/}"; done |
	${CC:-cc} -E -P -I"$TOP/libcodec/include" -x c - |
	grep -oE '\b(rpcrdma|rpc)_[a-z0-9_]+ *\(' | tr -d ' (' | sort -u >"$tmp/api"
sed -n 's/^[[:space:]]*\([a-z_0-9]*\);$/\1/p' "$TOP/libcodec/librpcrdma.map" |
	sort -u >"$tmp/map"
if [ ! -s "$tmp/api" ]; then
	bad "the public headers declare functions" "none found"
elif cmp -s "$tmp/api" "$tmp/map"; then
	ok "librpcrdma.map lists exactly the $(wc -l <"$tmp/api") functions the headers declare"
else
	bad "librpcrdma.map lists exactly the functions the headers declare" \
		"$(diff "$tmp/api" "$tmp/map" | grep '^[<>]' | tr '\n' ' ')"
fi

if [ ! -f "$so" ]; then
	bad "nm -D $so" "no such file (make)"
else
	nm -D --defined-only "$so" | awk '$2 != "A" { sub(/@.*/, "", $3); print $3 }' |
		sort -u >"$tmp/exported"
	extra=$(comm -13 "$tmp/api" "$tmp/exported" | tr '\n' ' ')
	if [ -z "$extra" ]; then
		ok "nm -D shows only the public API ($(wc -l <"$tmp/exported") functions)"
	else
		bad "nm -D shows only the public API" "exported but not public: $extra"
	fi
	# every public function the library defines is exported; one declared
	# but not (yet) in any object file is named, not failed
	nm --defined-only "$BUILD/lib/librpcrdma.a" 2>/dev/null |
		awk '$2 == "T" { print $3 }' | sort -u >"$tmp/defined"
	hidden=$(comm -12 "$tmp/api" "$tmp/defined" | comm -23 - "$tmp/exported" | tr '\n' ' ')
	missing=$(comm -23 "$tmp/api" "$tmp/defined" | tr '\n' ' ')
	if [ -z "$hidden" ]; then
		ok "every public function the library defines is exported${missing:+ # declared, not defined yet: $missing}"
	else
		bad "every public function the library defines is exported" "hidden: $hidden"
	fi
	if nm -D "$so" | grep -q ' LIBRPCRDMA_0$' &&
	   nm -D --defined-only "$so" | grep -q 'rpcrdma_decode@@LIBRPCRDMA_0'; then
		ok "symbols carry the version node LIBRPCRDMA_0"
	else
		bad "symbols carry the version node LIBRPCRDMA_0" "$(nm -D "$so" | grep rpcrdma_decode)"
	fi
	# a program links against the shared library and decodes
	cat >"$tmp/use.c" <<'C'
#include <rpcrdma/codec.h>
#include <stdio.h>
int main(void)
{
	static const unsigned char b[] = { 0,0,0,1, 0,0,0,1, 0,0,0,1, 0,0,0,2 };
	struct rpcrdma_msg m;
	rpcrdma_decode(b, sizeof(b), &m);
	for (unsigned i = 0; i < sizeof(m.reserved) / sizeof(m.reserved[0]); i++)
		if (m.reserved[i])
			return 1;
	return puts(rpcrdma_reason_name(m.reason)) < 0;
}
C
	if ${CC:-cc} -I"$TOP/libcodec/include" -o "$tmp/use" "$tmp/use.c" -L"$BUILD/lib" -lrpcrdma 2>"$tmp/err" &&
	   LD_LIBRARY_PATH=$BUILD/lib "$tmp/use" >/dev/null; then
		ok "a program links with -lrpcrdma (shared), decodes, and finds the reserve zeroed"
	else
		bad "a program links with -lrpcrdma (shared) and decodes" "$(head -3 "$tmp/err")"
	fi
fi

# struct rpcrdma_msg: size and reserve offset pinned (LP64; docs/abi.md)
cat >"$tmp/layout.c" <<'C'
#include <stddef.h>
#include <rpcrdma/codec.h>
#if defined(__LP64__)
_Static_assert(sizeof(struct rpcrdma_msg) == 200, "struct rpcrdma_msg changed size");
_Static_assert(offsetof(struct rpcrdma_msg, reserved) == 136, "reserve moved");
_Static_assert(offsetof(struct rpcrdma_msg, notes) == 132, "a field moved");
_Static_assert(sizeof(((struct rpcrdma_msg *)0)->reserved) == 64, "reserve resized");
#endif
int main(void) { return 0; }
C
if ${CC:-cc} -std=c11 -I"$TOP/libcodec/include" -o "$tmp/layout" "$tmp/layout.c" 2>"$tmp/err"; then
	ok "struct rpcrdma_msg: 200 bytes, reserve of 64 at offset 136 (LP64)"
else
	bad "struct rpcrdma_msg: 200 bytes, reserve of 64 at offset 136 (LP64)" "$(grep error "$tmp/err" | head -3)"
fi
echo "1..$n"
exit $rc
