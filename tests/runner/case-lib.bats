#!/usr/bin/env bats
# case-lib.bats - the live cases' pure helpers (tests/live/case-lib.sh), run
# on the host with made-up samples: rss_flat, the soak's RSS verdict
# (tests/live/cases/soak.sh), must say a steady server is flat even when its
# heap grew once in the warm-up, and must say a leaking one grew.

load /usr/lib/bats/bats-support/load.bash
load /usr/lib/bats/bats-assert/load.bash

: "${TOP:=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)}"

setup() {
	. "$TOP/tests/live/case-lib.sh"
}

@test "rss_flat: the heap grown once in the warm-up (CI of 11-27: 14,196 KiB at +0 s, then 19-21 MiB) is flat" {
	run rss_flat 20 19180 0:14196 2:20856 4:19296 6:19488 8:19488 10:19328 12:19760 14:19012
	assert_output "flat 19488 19012"
}

@test "rss_flat: a heap still growing past half-time in a 20 s soak over siw (11-28), 22 MiB at the end, is flat" {
	run rss_flat 20 22328 0:13816 2:15840 4:15832 6:18316 8:17944 10:17196 12:17704 14:19880 16:23484 18:27108
	assert_output "flat 17944 17196"
}

@test "rss_flat: a server that leaks 2 MiB a second is not flat" {
	run rss_flat 20 40000 0:10000 2:14000 6:22000 8:26000 10:30000 12:34000 14:38000 16:42000 18:46000
	assert_output "grew 22000 30000"
}

@test "rss_flat: the 600-second soak whose floor climbs 5 MiB and 30 % is not flat; one whose 1 MiB clients lift every sample but the end is" {
	run rss_flat 600 21500 0:10000 150:15000 210:15500 300:20500 360:21000 480:22000 540:23000
	assert_output "grew 15000 20500"
	run rss_flat 600 15200 0:10000 150:15000 210:15500 300:20500 360:21000 480:22000 540:23000
	assert_output "flat 15000 15200"
}

@test "rss_flat: no sample in the second quarter (a slow host): the first one after the warm-up stands for it" {
	run rss_flat 20 19100 1:14000 12:19000 16:19300
	assert_output "flat 19000 19100"
}

@test "rss_flat: too few samples to judge is not flat" {
	run rss_flat 20 "" 0:14196
	assert_output "grew - -"
	run rss_flat 20 "" 6:14196
	assert_output "grew 14196 -"
}

@test "live_measure_speed: LIVE_SLOW is a number from 1 to 25, and nothing is written" {
	cd "$BATS_TEST_TMPDIR"
	LIVE_SPEED_REF_MS=100000 live_measure_speed
	assert_equal "$LIVE_SLOW" 1.00
	LIVE_SPEED_REF_MS=1 live_measure_speed
	assert_equal "$LIVE_SLOW" 25.00
	[[ $LIVE_SPEED_MS =~ ^[0-9]+$ ]] || fail "LIVE_SPEED_MS '$LIVE_SPEED_MS'"
	run ls -A
	assert_output ""
}
