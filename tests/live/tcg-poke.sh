#!/bin/bash
# tcg-poke.sh [N] - in a guest: flips a static key N times (default 2000)
# while two other processes keep both vCPUs busy, then counts the kernel's
# int3 Oopses.  The reproduction behind run-guest.sh's thread=single (its
# comment has the numbers):
#   RPCRDMA_LIVE_ACCEL=tcg,thread=multi LIVE_SUITE=trixie \
#       tests/live/run-guest.sh -- bash tests/live/tcg-poke.sh
# panics the guest within seconds ("the guest ended without running the
# command"; the Oops is in the console kept under --logs); without the
# variable it prints "flipped 2000 times ..." and 0.
# The key: kernel.sched_schedstats, which set_next_entity tests at every
# switch of task; each flip plants int3 bytes in the scheduler's code and
# takes them out again (arch/x86/kernel/alternative.c, text_poke_bp).
n=${1:-2000}
f=/proc/sys/kernel/sched_schedstats
[[ $n =~ ^[0-9]+$ ]] || { echo "tcg-poke.sh: N must be a number" >&2; exit 2; }
[[ -w $f ]] || { echo "tcg-poke.sh: no $f (run it in a guest, as root)" >&2; exit 3; }
(yes | cat > /dev/null) &
p1=$!
(while :; do head -c 64 /dev/urandom > /dev/null; done) &
p2=$!
t=$SECONDS
for ((i = 0; i < n; i++)); do echo 1 > $f; echo 0 > $f; done
kill $p1 $p2 2>/dev/null
echo "flipped $n times in $((SECONDS - t)) s; vCPUs $(nproc)"
dmesg | grep -c 'Oops: int3' || true
