#!/bin/bash
# In the guest, after guest-net.sh and guest-nfsd.sh: one NFS mount over
# RPC-over-RDMA recorded three ways at once -- the kernel's rpcrdma trace
# events (client xprtrdma_* and server svcrdma_*, one ring buffer, the
# default tracefs text), tcpdump on the cable, and mountstats read at two
# marks (written into the trace with trace_marker, so that the calls between
# them can be picked out of the trace and the capture).  The server's
# rdma_stat_* counters are read at the same marks.
#   guest-record.sh KIND OUT_DIR [VERS]     (VERS: 3, the default, or 4.1)
# RECORD_FILES: how many files the directory listing makes (default 30: its
# READDIRPLUS replies come back in Reply chunks).  RECORD_LIVE=BIN: also
# BIN (rpcrdma-trace) -i --json on a tracefs instance of its own (so that
# its trace_pipe takes nothing from the buffer copied to trace.txt), into
# OUT_DIR/live.json and live.err.
# OUT_DIR gets trace.txt, cap.pcap, ms-before.txt, ms-after.txt,
# svc-before/ svc-after/ (copies of rdma_stat_*), overruns.txt (the ring
# buffer's own count of events lost, per CPU), record.log.
set -euo pipefail

kind=${1:?rxe or siw} out=${2:?output directory} vers=${3:-3}
server=198.18.0.1 export_dir=/srv/export mnt=/mnt/kview
T=/sys/kernel/tracing
mkdir -p "$out"
exec 3>>"$out/record.log"
say() { printf 'record: %s\n' "$*" >&3; }

mountpoint -q "$T" || mount -t tracefs nodev "$T"
case $kind in
rxe) filter="udp port 4791" ;;
*) filter="tcp port 20049" ;;
esac
opts=proto=rdma,port=20049,vers=$vers
[[ $vers == 3 ]] && opts+=,nolock,mountproto=tcp

run=$(mktemp -d /run/kview.XXXXXX)
td= live=
inst=$T/instances/rpcrdma-kview
finish() {
    if [[ -n $live ]]; then
        kill -INT "$live" 2>/dev/null
        wait "$live" 2>/dev/null
        rmdir "$inst" 2>/dev/null
    fi
    mountpoint -q "$mnt" && umount -f "$mnt" 2>/dev/null
    echo 0 > "$T/tracing_on" 2>/dev/null
    echo 0 > "$T/events/rpcrdma/enable" 2>/dev/null
    if [[ -n $td ]]; then
        kill -INT "$td" 2>/dev/null
        wait "$td" 2>/dev/null
        grep -E 'packets (captured|received|dropped)' "$run/td.err" >&3 || true
    fi
    [[ -f $run/cap.pcap ]] && cp "$run/cap.pcap" "$out/cap.pcap"
    rm -rf "$run"
}
trap finish EXIT

# the ring buffer: 8 MiB per CPU, cleared, the rpcrdma events alone
echo 0 > "$T/tracing_on"
echo 8192 > "$T/buffer_size_kb"
echo 0 > "$T/events/enable"
echo > "$T/trace"
echo 1 > "$T/events/rpcrdma/enable"

if [[ -n ${RECORD_LIVE:-} ]]; then
    rmdir "$inst" 2>/dev/null || true
    mkdir "$inst"
    echo 8192 > "$inst/buffer_size_kb"
    "$RECORD_LIVE" -i --tracefs "$inst" --json > "$out/live.json" 2> "$out/live.err" &
    live=$!
    for _ in $(seq 100); do grep -q 'reading' "$out/live.err" 2>/dev/null && break; sleep 0.1; done
fi
tcpdump -i veth0 -s 0 -B 65536 -U -w "$run/cap.pcap" $filter 2>"$run/td.err" &
td=$!
for _ in $(seq 100); do grep -q 'listening on' "$run/td.err" 2>/dev/null && break; sleep 0.1; done
grep -q 'listening on' "$run/td.err" || { cat "$run/td.err" >&2; exit 1; }

echo 1 > "$T/tracing_on"
mkdir -p "$mnt"
say "mount -o $opts"
timeout 120 mount -t nfs -o "$opts" "$server:$export_dir" "$mnt"
svc() { mkdir -p "$out/$1"; for f in /proc/sys/sunrpc/svc_rdma/rdma_stat_*; do [[ -f $f ]] && cat "$f" > "$out/$1/${f##*/}"; done; true; }
echo "rpcrdma-kview: before" > "$T/trace_marker"
cat /proc/self/mountstats > "$out/ms-before.txt"
svc svc-before

# 128 KiB: far above the 4 KiB inline threshold: the WRITE carries a Read
# chunk, the READ reply comes in a Write chunk; a directory listing of many
# names needs a Reply chunk
head -c $((128 * 1024)) /dev/urandom > "$run/src"
say "write 128 KiB"
cp "$run/src" "$mnt/f-$$"
sync
echo 3 > /proc/sys/vm/drop_caches
say "read back"
cmp "$run/src" "$mnt/f-$$"
mkdir -p "$mnt/d-$$"
for i in $(seq 1 "${RECORD_FILES:-30}"); do : > "$mnt/d-$$/a-file-with-a-rather-long-name-$i"; done
echo 3 > /proc/sys/vm/drop_caches
ls -l "$mnt/d-$$" > /dev/null
rm -rf "$mnt/d-$$" "$mnt/f-$$"
sync

echo "rpcrdma-kview: after" > "$T/trace_marker"
cat /proc/self/mountstats > "$out/ms-after.txt"
svc svc-after
umount "$mnt"
sleep 1.5           # past tcpdump's buffer timeout
echo 0 > "$T/tracing_on"
cp "$T/trace" "$out/trace.txt"
for c in "$T"/per_cpu/cpu*; do
    printf '%s %s\n' "${c##*/}" "$(awk '$1 == "overrun:" { print $2 }' "$c/stats")"
done > "$out/overruns.txt"
echo 0 > "$T/events/rpcrdma/enable"
if [[ -n $live ]]; then
    sleep 0.5           # the live reader drains its pipe
    kill -INT "$live"
    wait "$live"
    echo "rc=$?" >> "$out/live.err"
    live=
    rmdir "$inst" 2>/dev/null || true
fi
say "done: $(wc -l < "$out/trace.txt") trace lines"
