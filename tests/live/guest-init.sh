#!/bin/bash
# PID 1 of the live guest (started by the initramfs from the 9p share; not part of
# the image). Sets up a minimal system, runs the job written by run-guest.sh,
# stores its output and exit status in the job directory, and powers off.
set -uo pipefail    # no -e: PID 1 must reach the power-off

export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root TERM=dumb LANG=C.UTF-8

job=
for arg in $(</proc/cmdline); do
    case $arg in rpcrdma.job=*) job=${arg#rpcrdma.job=} ;; esac
done

poweroff_now() {
    sync
    echo o > /proc/sysrq-trigger
    sleep 30
}

mount -t devpts -o gid=5,mode=620 devpts /dev/pts 2>/dev/null || { mkdir -p /dev/pts && mount -t devpts devpts /dev/pts; }
mkdir -p /dev/shm && mount -t tmpfs tmpfs /dev/shm
# A tmpfs on /tmp, unless a share is mounted below it (it would hide the share).
awk '$2 ~ "^/tmp(/|$)" { found = 1 } END { exit !found }' /proc/mounts ||
    mount -t tmpfs -o mode=1777 tmpfs /tmp
mount -t tmpfs -o mode=755 tmpfs /run
mkdir -p /run/lock
hostname rpcrdma-live
ip link set lo up
echo 1 > /proc/sys/kernel/sysrq
[[ -e /proc/sys/kernel/panic_on_oops ]] && echo 1 > /proc/sys/kernel/panic_on_oops

if [[ -z $job || ! -f $job/cmd ]]; then
    echo "guest-init: no job (rpcrdma.job=$job)" > /dev/console
    poweroff_now
fi

dmesg -w > "$job/dmesg" 2>&1 &
bash "$job/cmd" >> "$job/out" 2>&1 < /dev/null
echo $? > "$job/rc"
sleep 0.2
poweroff_now
