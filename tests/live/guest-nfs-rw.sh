#!/bin/bash
# In the guest, after guest-net.sh and guest-nfsd.sh: mounts the export over
# RPC-over-RDMA from end B (198.18.0.2) to the server on end A (198.18.0.1),
# writes a file, drops the caches, reads it back and compares, and captures the
# cable (veth0) with tcpdump from before the mount to after the unmount.
#   guest-nfs-rw.sh [options] PCAP
#     --vers V          3, 4.0, 4.1 or 4.2 (default 4.1)
#     --size KIB        file size in KiB (default 4096)
#     --snaplen N       tcpdump snap length (default 0: whole frames)
#     --backchannel     NFSv4.x: hold a read delegation and break it from the
#                       server side, so the server sends CB_RECALL on the backchannel
#     --reads "B..."    instead of writing: the server makes files of these
#                       sizes in bytes and a symbolic link; the client reads
#                       each file and the link (READ and READLINK replies only)
#     --late PCAP2      a second capture, started after the mount (as users
#                       start tcpdump: no MPA handshake or CM exchange in it)
set -euo pipefail
. "$(cd "$(dirname "$0")" && pwd)/case-lib.sh"

vers=4.1 size=4096 snaplen=0 backchannel=0 reads= late=
while (($#)); do
    case $1 in
    --vers) vers=$2; shift 2 ;;
    --size) size=$2; shift 2 ;;
    --snaplen) snaplen=$2; shift 2 ;;
    --backchannel) backchannel=1; shift ;;
    --reads) reads=$2; shift 2 ;;
    --late) late=$2; shift 2 ;;
    -*) echo "guest-nfs-rw: unknown option $1" >&2; exit 2 ;;
    *) break ;;
    esac
done
pcap=${1:?pcap file}
server=198.18.0.1 export_dir=/srv/export mnt=/mnt/nfs
name=rw-$vers-$$
say() { printf 'nfs-rw: %s\n' "$*"; }

opts=proto=rdma,port=20049,vers=$vers
[[ $vers == 3 ]] && opts+=,nolock,mountproto=tcp

run=$(mktemp -d /run/nfs-rw.XXXXXX)
tdpids=()
# tcpdump NAME: capture the cable to $run/NAME.pcap, once it is listening
tcpdump_start() {
    tcpdump -i veth0 -s "$snaplen" -B 65536 -U -w "$run/$1.pcap" 2>"$run/$1.err" &
    tdpids+=($!)
    for _ in $(seq 100); do
        grep -q 'listening on' "$run/$1.err" 2>/dev/null && return 0
        sleep 0.1
    done
    cat "$run/$1.err" >&2
    exit 1
}
finish() {
    mountpoint -q "$mnt" && umount -f "$mnt" 2>/dev/null
    if ((${#tdpids[@]})); then
        sleep 1.5       # past tcpdump's 1 s buffer timeout: every packet is delivered
        for pid in "${tdpids[@]}"; do
            kill -INT "$pid" 2>/dev/null
            wait "$pid" 2>/dev/null
        done
        # "N packets captured / received by filter / dropped by kernel"
        # ("nfs-rw: tcpdump: ..." for the main capture, guest-smoke.sh reads it)
        for e in "$run"/*.err; do
            name=$(basename "$e" .err)
            [[ $name == cap ]] && name= || name=" $name"
            grep -E 'packets (captured|received|dropped)' "$e" | tr '\n' ' ' | sed "s/^/nfs-rw: tcpdump$name: /; s/ \$/\n/"
        done
    fi
    [[ -f $run/cap.pcap ]] && cp "$run/cap.pcap" "$pcap"
    [[ -n $late && -f $run/late.pcap ]] && cp "$run/late.pcap" "$late"
    rm -rf "$run"
}
trap finish EXIT

tcpdump_start cap

mkdir -p "$mnt"
say "mount -o $opts $server:$export_dir $mnt"
timeout "$(scaled 120)" mount -t nfs -o "$opts" "$server:$export_dir" "$mnt"
xprt=$(awk -v m="$mnt" '$1 == "device" && $5 == m { on = 1; next } $1 == "device" { on = 0 } on && $1 == "xprt:" { print $2; exit }' /proc/self/mountstats)
[[ $xprt == rdma ]] || { echo "nfs-rw: transport is '$xprt', not rdma" >&2; exit 1; }
if [[ -n $late ]]; then
    # the mount's traffic over, then the late capture: what follows is in both
    sleep 1
    say "late capture from here"
    tcpdump_start late
    sleep 0.5
fi

if [[ -n $reads ]]; then
    # Files made on the server (no WRITE on the wire), read after a fresh
    # lookup; a link whose target is long enough to name a path
    for b in $reads; do
        head -c "$b" /dev/urandom > "$export_dir/$name-$b"
    done
    ln -s "../some/where/$name/target-of-a-symbolic-link" "$export_dir/$name-link"
    echo 3 > /proc/sys/vm/drop_caches
    for b in $reads; do
        say "read $b bytes"
        cmp "$export_dir/$name-$b" "$mnt/$name-$b" || { echo "nfs-rw: $b bytes read differ" >&2; exit 1; }
    done
    [[ $(readlink "$mnt/$name-link") == "../some/where/$name/target-of-a-symbolic-link" ]] ||
        { echo "nfs-rw: readlink differs" >&2; exit 1; }
    rm -f "$export_dir/$name"-*
    umount "$mnt"
    say "done"
    exit 0
fi

head -c "$((size * 1024))" /dev/urandom > "$run/src"
say "write $size KiB"
cp "$run/src" "$mnt/$name"
sync
cmp "$run/src" "$export_dir/$name" || { echo "nfs-rw: the server's copy differs" >&2; exit 1; }
echo 3 > /proc/sys/vm/drop_caches
say "read back"
cmp "$run/src" "$mnt/$name" || { echo "nfs-rw: the data read back differs" >&2; exit 1; }

if ((backchannel)); then
    # A file the server made itself (never opened for write over NFS): the
    # client's read open gets a read delegation, and a local write on the server
    # breaks it: CB_RECALL on the backchannel, then DELEGRETURN.
    # The server grants delegations only once it has probed the backchannel
    # (CB_NULL), which under TCG can come seconds after the mount: try fresh
    # files for up to 20 s.
    granted=0
    for try in $(seq 1 20); do
        deleg=deleg-$name-$try
        echo "delegate me" > "$export_dir/$deleg"
        exec 3<"$mnt/$deleg"
        cat <&3 >/dev/null
        if grep -qs 'type: deleg' /proc/fs/nfsd/clients/*/states; then
            granted=1
            break
        fi
        exec 3<&-
        sleep 1
    done
    if ((!granted)); then
        echo "nfs-rw: the server granted no delegation in 20 tries" >&2
        exit 1
    fi
    say "delegation granted (try $try); break it from the server side"
    timeout "$(scaled 60)" sh -c "echo recall >> '$export_dir/$deleg'"
    exec 3<&-
    rm -f "$mnt"/deleg-"$name"-*
    sleep 1
fi

rm -f "$mnt/$name"
umount "$mnt"
say "done"
