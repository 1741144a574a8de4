#!/usr/bin/env bats
# live-lib.bats - the live test bed's cache rules (tests/live/lib.sh), on the
# host with a made-up cache and a stand-in apt-cache: which linux-source-6.1
# bookworm's siw.ko is built from, what a new image says moved its key, and
# which images a build prunes (never another release's).

load /usr/lib/bats/bats-support/load.bash
load /usr/lib/bats/bats-assert/load.bash

: "${TOP:=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)}"

setup() {
	export RPCRDMA_LIVE_CACHE=$BATS_TEST_TMPDIR/cache LIVE_SUITE=bookworm
	mkdir -p "$RPCRDMA_LIVE_CACHE"
	. "$TOP/tests/live/lib.sh"
	# the registry as apt-cache shows it: the kernel 6.1.192-2, its source
	# 6.1.192-2 and a newer 6.1.192-3 (11-28), unless MADISON says otherwise
	MADISON=${MADISON:-"6.1.192-3 6.1.192-2"}
	CANDIDATE=6.1.192-3
}
apt-cache() {
	local v
	case $1 in
	madison) for v in $MADISON; do printf ' linux-source-6.1 | %s | http://deb.debian.org/debian bookworm/main amd64 Packages\n' "$v"; done ;;
	policy) printf '%s:\n  Installed: (none)\n  Candidate: %s\n' "$2" "$CANDIDATE" ;;
	esac
}
# image DIR SUITE|- KEY-INPUTS-TEXT AGE_S: a built image in the made-up cache
image() {
	mkdir -p "$RPCRDMA_LIVE_CACHE/$1"
	if [[ $2 == - ]]; then echo "key $1" > "$RPCRDMA_LIVE_CACHE/$1/info"
	else printf 'key %s\nsuite %s\n' "$1" "$2" > "$RPCRDMA_LIVE_CACHE/$1/info"; fi
	[[ -n $3 ]] && printf '%s\n' "$3" > "$RPCRDMA_LIVE_CACHE/$1/key-inputs"
	touch -d "@$(($(date +%s) - $4))" "$RPCRDMA_LIVE_CACHE/$1/READY"
}

@test "live_siw_src_version: the kernel's own version when the registry lists it, not the newer candidate" {
	run live_siw_src_version 6.1.192-2
	assert_output 6.1.192-2
}

@test "live_siw_src_version: the candidate when the kernel's version is gone (build-siw.sh then stops)" {
	MADISON=6.1.192-3
	run live_siw_src_version 6.1.192-2
	assert_output 6.1.192-3
}

@test "live_say_changes: each input that moved, against the newest image of the same release" {
	image old-bw bookworm $'suite bookworm\nkernel linux-image-6.1.0-56-amd64 6.1.192-2\nlinux-source-6.1 6.1.192-2\npackage tcpdump 4.99.3-1\npackage gnuplot-nox 5.4.4\nfile build-siw.sh aaaa' 100
	image older-bw - $'suite bookworm\npackage tcpdump 1.0' 200
	image new-trixie trixie $'suite trixie\npackage tcpdump 4.99.5-2' 10
	LIVE_KEY_INPUTS=$'suite bookworm\nkernel linux-image-6.1.0-56-amd64 6.1.192-2\nlinux-source-6.1 6.1.192-3\npackage tcpdump 4.99.3-1+deb12u1\npackage perftest 4.5\nfile build-siw.sh bbbb'
	run live_say_changes
	assert_success
	assert_line --index 0 "live: a new bookworm image: its key's inputs against the newest cached one (old-bw):"
	assert_line "live:   linux-source-6.1: 6.1.192-2 -> 6.1.192-3"
	assert_line "live:   package tcpdump: 4.99.3-1 -> 4.99.3-1+deb12u1"
	assert_line "live:   file build-siw.sh: aaaa -> bbbb"
	assert_line "live:   package perftest: new (4.5)"
	assert_line "live:   package gnuplot-nox: gone (was 5.4.4)"
	refute_output --partial "kernel linux-image"
	assert_equal "${#lines[@]}" 6
}

@test "live_say_changes: says when there is nothing to compare with" {
	image old-bw bookworm "" 100
	LIVE_KEY_INPUTS=$'suite bookworm'
	run live_say_changes
	assert_output "live: no earlier bookworm image with its key's inputs (key-inputs) to compare with"
}

@test "live_prune_images: three newest of the release kept, another release's never touched" {
	image bw1 bookworm "" 10
	image bw2 - "" 20
	image bw3 bookworm "" 30
	image bw4 bookworm "" 40
	image tx1 trixie "" 50
	image tx2 trixie "" 60
	image tx3 trixie "" 70
	image tx4 trixie "" 80
	image sid1 sid "" 5
	live_prune_images "$RPCRDMA_LIVE_CACHE/bw1"
	run ls "$RPCRDMA_LIVE_CACHE"
	assert_output $'bw1\nbw2\nbw3\nsid1\ntx1\ntx2\ntx3\ntx4'
}

@test "live_prune_images: the image being kept is never dropped, however old" {
	image bw1 bookworm "" 400
	image bw2 bookworm "" 20
	image bw3 bookworm "" 30
	image bw4 bookworm "" 40
	live_prune_images "$RPCRDMA_LIVE_CACHE/bw1"
	run ls "$RPCRDMA_LIVE_CACHE"
	assert_output $'bw1\nbw2\nbw3\nbw4'
}

@test "live_say_changes: more than 30 inputs moved: the first 30, then how many more" {
	image old-bw bookworm $'suite bookworm' 100
	LIVE_KEY_INPUTS=$'suite bookworm\n'$(for i in $(seq 1 40); do echo "package p$i 1.$i"; done)
	run live_say_changes
	assert_equal "${#lines[@]}" 32
	assert_line --index 31 "live:   ... 10 more (40 inputs moved in all)"
}
