# lib.sh - helpers for the plugin suite: TAP output, unprivileged tshark, field lists.
# Sourced by tests/suites/40-plugin.sh and scripts/bench-plugin.sh.

n=0
ok()   { n=$((n + 1)); echo "ok $n - $1"; }
nok()  { n=$((n + 1)); echo "not ok $n - $1"; shift; for l in "$@"; do echo "#   $l"; done; }
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
check() { # check NAME CMD... : ok when CMD succeeds; its output as diagnostics
	local name=$1 out; shift
	if out=$("$@" 2>&1); then ok "$name"; else nok "$name" "$(echo "$out" | tail -15)"; fi
}

# Which Wireshark: the host's, or, with RPCRDMA_WS_ROOT set, the one in that
# Debian build root (scripts/buildroot.sh; the suite then runs under
# scripts/buildroot-run.sh, which binds /tmp, $TOP and $BUILD into the root
# at the same paths).  tshark, its libraries and data files all come from
# the root (chroot); everything else (rpcrdma-decode, python3, mkpcap,
# editcap) from the host.  RPCRDMA_PLUGIN_BUILD: the build tree holding
# plugins/X.Y/epan/rpcrdma.so for that Wireshark (default $BUILD);
# WS_RELEASE: its X.Y (default: pkg-config's plugindir there).
WS_ROOT=${RPCRDMA_WS_ROOT:-}
# in_ws CMD...: run CMD where that Wireshark is, in the current directory
in_ws() {
	if [ -n "$WS_ROOT" ]; then
		chroot "$WS_ROOT" /bin/sh -c 'cd "$1" 2>/dev/null || cd /; shift; exec "$@"' sh "$PWD" "$@"
	else
		"$@"
	fi
}
PLUGIN_BUILD=${RPCRDMA_PLUGIN_BUILD:-$BUILD}
WS_RELEASE=${RPCRDMA_WS_RELEASE:-$(basename "$(in_ws pkg-config --variable=plugindir wireshark 2>/dev/null)")}
# tshark as an unprivileged user (tshark as root ignores plugin folders)
PLUGIN_DIR=${PLUGIN_DIR:-$PLUGIN_BUILD/plugins}
as_user() {
	if [ "$(id -u)" = 0 ]; then
		in_ws setpriv --reuid=65534 --regid=65534 --clear-groups \
			env HOME=/tmp "$@"
	else
		in_ws env "$@"
	fi
}
ts() { as_user WIRESHARK_PLUGIN_DIR="$PLUGIN_DIR" tshark "$@"; }
# tshark without our plugin (the built-in rpcordma only)
ts_plain() { as_user WIRESHARK_PLUGIN_DIR=/nonexistent tshark "$@"; }

fields() { python3 -c "import sys; sys.path.insert(0, '$TOP/tests/plugin'); import compare; print(' '.join('-e ' + f for f in compare.$1))"; }
PLUGIN_E=$(fields PLUGIN_FIELDS)
BUILTIN_E=$(fields BUILTIN_FIELDS)

# plugin_tsv CAPTURE OUT [tshark options]
plugin_tsv() {
	local cap=$1 out=$2; shift 2
	# shellcheck disable=SC2086
	ts -r "$cap" "$@" -Y "rpcrdma || rpcrdma.cm" -T fields -E occurrence=a -E aggregator=, $PLUGIN_E >"$out"
}
# plugin_pdml CAPTURE OUT: every rpcrdma item with all its fields, one per
# message (a frame can carry several iWARP Sends); every other frame
# Wireshark dissects as InfiniBand or DDP/RDMAP is listed without one (what
# it hands the plugin: compare.py msgs tells the rest apart)
# plugin_pdml CAPTURE OUT [tshark options]: also the frames with rpcrdma.cm
# (RFC 8797 private data) and the trees of infiniband and iwarp_mpa, where
# it is: compare.py experts writes plugin_tsv's fields from it (compare.py
# msgs counts only the frames above as handed to the plugin)
plugin_pdml() {
	local cap=$1 out=$2; shift 2
	ts -r "$cap" "$@" -Y "rpcrdma || rpcrdma.cm || infiniband || iwarp_ddp_rdmap" \
		-T pdml -J "rpcrdma infiniband iwarp_mpa" >"$out"
}
# builtin_tsv CAPTURE OUT: the built-in dissector, with our plugin declining v1
builtin_tsv() {
	# shellcheck disable=SC2086
	ts -r "$1" -o rpcrdma.claim_v1:FALSE -Y rpcordma -T fields \
		-E occurrence=a -E aggregator=, $BUILTIN_E >"$2"
}

# A world-readable scratch directory (the unprivileged tshark reads it)
mkscratch() {
	local d
	d=$(mktemp -d /tmp/rpcrdma-plugin.XXXXXX)
	chmod 755 "$d"
	echo "$d"
}

# py_start DIR: one python3 for the compare.py and stats.py calls (pyc),
# through two FIFOs in DIR; python's start-up is a tenth of a CPU-second,
# and a suite calls it some 300 times.  Its output and exit status are
# those of the one-off run (compare.py serve); it ends with the suite
# (the FIFO closes) or with py_stop.
py_start() {
	mkfifo "$1/py.req" "$1/py.resp" || return 1
	python3 "$TOP/tests/plugin/compare.py" serve "$1/py.req" "$1/py.resp" &
	PY_PID=$!
	exec 7>"$1/py.req" 8<"$1/py.resp"
}
# pyc compare MODE ARGS... | pyc stats ARGS...: as python3 compare.py MODE
# ARGS 2>&1 (stats.py ARGS); exit status 99 when the python is gone
pyc() {
	local line IFS=$'\t'
	[ "$1" = compare ] && shift
	printf '%s\n' "$*" >&7 2>/dev/null || return 99
	while IFS= read -r -t 600 line <&8; do
		case $line in $'\x01'END\ *) return "${line#*END }" ;; esac
		printf '%s\n' "$line"
	done
	return 99
}
py_stop() {
	exec 7>&- 8<&-
	wait "$PY_PID" 2>/dev/null
}
