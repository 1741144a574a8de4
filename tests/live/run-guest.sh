#!/bin/bash
# Runs one command in a fresh guest and returns its output and exit status.
#   run-guest.sh [--timeout SEC] [--idle SEC [--watch FILE]...] [--share DIR]...
#                [--logs DIR] [--mem MIB] [--cpus N] [--] CMD [ARG]...
# The repository is shared into the guest with 9p at the same path (add more
# directories with --share, e.g. a build tree outside it); the command runs as
# root with bash in the current directory when that lies in a share, / otherwise.
# The guest has no network card (-nic none): all its traffic stays inside it.
# On failure or timeout, the guest console and dmesg are kept under --logs
# (default build/live/logs/<time>) and their path is printed.
# --timeout bounds the guest's whole life; --idle stops it sooner when for SEC
# seconds neither its output nor any --watch file (a log the command writes
# into a share) has changed: a hang, told apart from a guest a loaded host
# makes slow, which keeps writing.  With --idle, a guest whose kernel reports
# a CPU stuck for WEDGE_SEC (120) s or more (soft lockup) or a panic on its
# console is stopped at once: it will not come back (seen once under a
# two-core hog: rpcrdma-trace -i's read of a tracefs instance, 6.1.0-56), or
# an nfsd thread blocked for twice WEDGE_SEC (waiting for ever on an RDMA
# Read siw never completed: the next rpc.nfsd 0 hangs; 6.1.0-56).
# Exit status: the command's; 124 on timeout; 125 when the guest did not run it.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

timeout=600 mem=1536 cpus=2 logs= idle=0
shares=("$REPO_ROOT") watch=()
while (($#)); do
    case $1 in
    --timeout) timeout=$2; shift 2 ;;
    --idle) idle=$2; shift 2 ;;
    --watch) watch+=("$2"); shift 2 ;;
    --share) shares+=("$(cd "$2" && pwd)"); shift 2 ;;
    --logs) logs=$2; shift 2 ;;
    --mem) mem=$2; shift 2 ;;
    --cpus) cpus=$2; shift 2 ;;
    --) shift; break ;;
    -*) live_die "unknown option $1" ;;
    *) break ;;
    esac
done
(($#)) || live_die "usage: run-guest.sh [options] CMD [ARG]..."

if [[ -n ${LIVE_IMAGE_DIR:-} && -f $LIVE_IMAGE_DIR/READY ]]; then
    image=$LIVE_IMAGE_DIR
else
    image=$(bash "$(live_image_builder)") || exit 125
fi

# The job directory is a share of its own: command, output, status, dmesg.
job=$(mktemp -d /var/tmp/rpcrdma-live-job.XXXXXX)
qpid=
cleanup() {
    [[ -n $qpid ]] && kill "$qpid" 2>/dev/null || true
    rm -rf "$job"
}
trap cleanup EXIT
{
    printf 'cd %q 2>/dev/null || cd /\n' "$PWD"
    printf 'export RPCRDMA_LIVE_GUEST=1 LIVE_KVER=%q\n' "$(awk '$1 == "kver" { print $2 }' "$image/info")"
    printf 'export LIVE_SIW=%q\n' "$(awk '$1 == "siw" { print $2 }' "$image/info")"
    printf '%q ' "$@"
    echo
} > "$job/cmd"

# Deduplicate shares, dropping any that lies inside another.
mapfile -t shares < <(printf '%s\n' "${shares[@]}" "$job" | sort -u |
                      awk '{ for (i = 1; i <= n; i++) if (index($0 "/", d[i] "/") == 1) next; d[++n] = $0; print }')
virtfs=() tags=()
for i in "${!shares[@]}"; do
    virtfs+=(-virtfs "local,path=${shares[i]},mount_tag=share$i,security_model=none,id=share$i")
    tags+=("share$i=${shares[i]}")
done

# TCG runs the guest's vCPUs in one host thread (thread=single), not one
# each (QEMU's default, multi-threaded TCG): with a thread each, a vCPU ran
# code another had just patched as it was before, and the kernel's text
# patching (a static key's int3, removed again) came back as "Oops: int3",
# a panic: a 7.2 guest at boot (docs/kernels.md 7.6), a 6.12 guest at 38 s
# in a fresh clone's make check, and what failed stop 34's CI.  Flipping a
# static key in a loop (tests/live/tcg-poke.sh) panics a 6.12 guest within
# 5 s under thread=multi, 4 boots in 4; under thread=single, 3 guests of
# 4,000 flips each, no Oops.  RPCRDMA_LIVE_ACCEL overrides (e.g.
# tcg,thread=multi to see it again)
accel=tcg,thread=single
if [[ -w /dev/kvm ]] && grep -qwE 'vmx|svm' /proc/cpuinfo; then
    accel=kvm
fi
accel=${RPCRDMA_LIVE_ACCEL:-$accel}
append="console=ttyS0 panic=-1 tsc=reliable loglevel=4 rpcrdma.shares=$(IFS=,; echo "${tags[*]}")"
append+=" rpcrdma.init=$LIVE_DIR/guest-init.sh rpcrdma.job=$job"

: > "$job/out"
timeout -k 10 "$timeout" qemu-system-x86_64 -accel "$accel" -smp "$cpus" -m "$mem" \
    -nic none -no-reboot -display none -monitor none -serial "file:$job/console.log" \
    -kernel "$image/vmlinuz" -initrd "$image/initrd.img" -append "$append" \
    -drive "file=$image/rootfs.ext4,if=virtio,format=raw,snapshot=on" \
    "${virtfs[@]}" >"$job/qemu.log" 2>&1 &
qpid=$!
tail -n +1 -f --pid="$qpid" "$job/out" &
tpid=$!
# the idle watchdog: the sizes and times of the output and the watched
# files, every 5 s; unchanged for $idle s, qemu is stopped (and says so)
wpid=
if ((idle > 0)); then
    (
        # a watchdog must not die of a command that fails: under the
        # script's set -e and pipefail, stat of a --watch file the guest
        # has not written yet ended this loop at its first turn, silently
        # (a guest hung in rpc.nfsd ran on to --timeout)
        set +e +o pipefail
        last= since=$SECONDS wedge=${WEDGE_SEC:-120}
        while kill -0 "$qpid" 2>/dev/null; do
            # the kernel says it is stuck (the watchdog's soft lockup
            # line, "stuck for NNs!") for wedge s or more, an nfsd thread
            # in D state for twice that ("task nfsd:PID blocked for more
            # than NN seconds": waiting on an RDMA Read siw never
            # completed; the next rpc.nfsd 0 hangs too), or panicked.
            # Only knfsd's threads: a client task may block that long on
            # a server a loaded host makes slow
            w=$(awk -v w="$wedge" '
                    /Kernel panic/ { print; exit }
                    /soft lockup - CPU#[0-9]+ stuck for [0-9]+s!/ {
                        s = $0; sub(/.*stuck for /, "", s)
                        if (s + 0 >= w) { print; exit } }
                    /INFO: task (rpc\.)?nfsd:[0-9]+ blocked for more than [0-9]+ seconds/ {
                        s = $0; sub(/.*blocked for more than /, "", s)
                        if (s + 0 >= 2 * w) { print; exit } }' "$job/console.log" 2>/dev/null)
            if [[ -n $w ]]; then
                echo "wedged ${w#*] }" > "$job/idle"
                kill "$qpid" 2>/dev/null
                break
            fi
            now=$(stat -c '%s %Y' "$job/out" "${watch[@]}" 2>/dev/null | tr '\n' ' ')
            if [[ $now != "$last" ]]; then
                last=$now since=$SECONDS
            elif ((SECONDS - since >= idle)); then
                echo "idle $((SECONDS - since))" > "$job/idle"
                kill "$qpid" 2>/dev/null
                break
            fi
            sleep 5
        done
    ) &
    wpid=$!
fi
qrc=0
wait "$qpid" || qrc=$?
if [[ -n $wpid ]]; then
    kill "$wpid" 2>/dev/null || true
    wait "$wpid" 2>/dev/null || true
fi
qpid=
wait "$tpid" 2>/dev/null || true

if [[ -s $job/idle && $(<"$job/idle") == wedged* ]]; then
    rc=124
    echo "run-guest: stopped: the guest's kernel is wedged: $(cut -d' ' -f2- "$job/idle")" >&2
elif [[ -s $job/idle ]]; then
    rc=124
    echo "run-guest: stopped: nothing written by the guest for $idle s (--idle; a hang, not slowness)" >&2
elif ((qrc == 124 || qrc == 137)); then
    rc=124
    echo "run-guest: timed out after $timeout s" >&2
elif [[ -s $job/rc ]]; then
    rc=$(<"$job/rc")
else
    rc=125
    # what the kernel said last, if it said it was dying (a panic, an Oops)
    said=$(tr -d '\r' < "$job/console.log" 2>/dev/null |
           grep -aoE '(Kernel panic|Oops|BUG:|general protection fault).*' | head -1 | cut -c1-120) || true
    echo "run-guest: the guest ended without running the command (qemu status $qrc${said:+; its console: $said})" >&2
fi

if ((rc != 0)); then
    logs=${logs:-$REPO_ROOT/build/live/logs/$(date +%Y%m%d-%H%M%S)-$$}
    mkdir -p "$logs"
    cp "$job/console.log" "$logs/console.log" 2>/dev/null || true
    cp "$job/dmesg" "$logs/dmesg" 2>/dev/null || true
    cp "$job/qemu.log" "$logs/qemu.log" 2>/dev/null || true
    cp "$job/out" "$logs/output" 2>/dev/null || true
    echo "run-guest: exit status $rc; console, dmesg and output kept in $logs" >&2
fi
exit "$rc"
