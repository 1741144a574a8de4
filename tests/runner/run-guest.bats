#!/usr/bin/env bats
# run-guest.bats - the live test bed's guard against a hung guest
# (tests/live/run-guest.sh's --idle watchdog): a stand-in qemu on PATH, an
# image directory that only says READY, and deadlines of seconds.  The
# watchdog must stop a guest that stays silent, also when the --watch file
# appears only after the guest has started (the watchdog used to die at
# its first look, and such a guest ran on to --timeout), and one whose
# kernel reports a task blocked for good.  Under TCG the vCPUs share one
# host thread (multi-threaded TCG panicked guests: run-guest.sh).

load /usr/lib/bats/bats-support/load.bash
load /usr/lib/bats/bats-assert/load.bash

: "${TOP:=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)}"

setup() {
	D=$BATS_TEST_TMPDIR
	mkdir -p "$D/bin" "$D/image"
	touch "$D/image/READY"
	printf 'kver 6.1.0-test\nsiw built\n' > "$D/image/info"
	# the stand-in: finds its console file (-serial file:PATH), then does
	# what STUB says, and waits to be stopped
	cat > "$D/bin/qemu-system-x86_64" <<'STUB'
#!/bin/bash
con=
for a in "$@"; do case $a in file:*) con=${a#file:} ;; esac; done
: > "$con"
case $STUB in
args)        # says how it was started, and ends
	printf '%s\n' "$@" > "$STUB_ARGS"; exit 0 ;;
panic)       # the kernel dies before the command runs (-no-reboot: qemu ends)
	printf '[    4.72] Oops: int3: 0000 [#1] PREEMPT SMP NOPTI\r\n[    4.73] Kernel panic - not syncing: Fatal exception\r\n' >> "$con"
	exit 0 ;;
late-watch)  # the watched log appears after a second, then nothing more
	sleep 1; echo "+ case x" >> "$STUB_WATCH" ;;
blocked)     # output keeps coming, but the kernel says a task is stuck
	sleep 1
	echo "[  484.2] INFO: task nfsd:313 blocked for more than 120 seconds." >> "$con"
	echo "[  605.1] INFO: task nfsd:313 blocked for more than 241 seconds." >> "$con"
	while :; do echo "+ still writing" >> "$STUB_WATCH"; sleep 1; done ;;
esac
sleep 600
STUB
	chmod +x "$D/bin/qemu-system-x86_64"
	export PATH="$D/bin:$PATH" LIVE_IMAGE_DIR=$D/image STUB_WATCH=$D/guest.log
}

# run_guest IDLE: run-guest.sh on the stand-in with --timeout 90 and --idle
# IDLE, watching guest.log; took: its seconds
run_guest() {
	SECONDS=0
	run timeout 120 bash "$TOP/tests/live/run-guest.sh" --timeout 90 --idle "$1" --watch "$D/guest.log" \
		--logs "$D/logs" -- true
	took=$SECONDS
}

@test "run-guest.sh --idle: a guest silent after its watched log appeared late is stopped as idle, long before --timeout" {
	export STUB=late-watch
	run_guest 3
	assert_equal "$status" 124
	assert_output --partial "nothing written by the guest for 3 s"
	[ "$took" -lt 60 ] || fail "stopped after $took s (--timeout 90, --idle 3)"
}

@test "run-guest.sh --idle: a task blocked for twice WEDGE_SEC is a wedged guest, stopped although it still writes" {
	export STUB=blocked WEDGE_SEC=120
	run_guest 60
	assert_equal "$status" 124
	assert_output --partial "the guest's kernel is wedged: INFO: task nfsd:313 blocked for more than 241 seconds"
	[ "$took" -lt 60 ] || fail "stopped after $took s"
}

@test "run-guest.sh: under TCG the guest's vCPUs run in one host thread (tcg,thread=single); RPCRDMA_LIVE_ACCEL overrides" {
	export STUB=args STUB_ARGS=$D/args
	want=tcg,thread=single
	[[ -w /dev/kvm ]] && grep -qwE 'vmx|svm' /proc/cpuinfo && want=kvm
	run timeout 60 bash "$TOP/tests/live/run-guest.sh" --timeout 30 --logs "$D/logs" -- true
	run grep -A1 -x -- -accel "$D/args"
	assert_line --index 1 "$want"
	RPCRDMA_LIVE_ACCEL=tcg,thread=multi run timeout 60 bash "$TOP/tests/live/run-guest.sh" --timeout 30 --logs "$D/logs" -- true
	run grep -A1 -x -- -accel "$D/args"
	assert_line --index 1 tcg,thread=multi
}

@test "run-guest.sh: a guest that died before running its command exits 125 and says what its console said first" {
	export STUB=panic
	run timeout 60 bash "$TOP/tests/live/run-guest.sh" --timeout 30 --logs "$D/logs" -- true
	assert_equal "$status" 125
	assert_output --partial "the guest ended without running the command (qemu status 0; its console: Oops: int3: 0000 [#1] PREEMPT SMP NOPTI)"
}
