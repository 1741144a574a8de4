#!/bin/bash
# In the guest (guest-smoke.sh runs it per transport, rxe and siw): the
# other side (issue 26), rpcrdma-conform --requester --serve, a read-only
# NFSv3 export of our own, mounted by the Linux client over RPC-over-RDMA
# with MOUNT over TCP:
#   - mount -t nfs -o vers=3,proto=rdma,port=RP,mountport=MP,mountproto=tcp,
#     nolock,soft,timeo=...: mounted;
#   - ls -l of / and of /many (300 entries), stat's sizes, every file read
#     back byte for byte against the tree's definition (tools/ulb/nfs3_tree.h:
#     byte i of a pattern file with fileid f is (i + f) % 251);
#   - umount, then SIGTERM: the server's counts name READ and READDIRPLUS;
#   - the capture of the same run, decoded with rpcrdma-decode: READ replies
#     with a write list, a READDIRPLUS reply through a reply chunk.
# Prints "RESULT requester-<id> ok|fail|skip <text>".  Env: LIVE_KIND,
# LIVE_ADDR_A, LIVE_BIN, LIVE_OUT (tests/live/README.md, "Adding a live test").
# First run 11-27 (RPCRDMA_LIVE_CASES=requester): over rxe every step passed;
# over siw the Linux client ended every connection at the first READ reply
# with a Terminate: our Send With Invalidate carried STag 0 (rdma-core's siw
# provider reads wr.rdma.rkey; fixed in xprt_verbs_rdma_mem.c).  Opt-in
# (cases/opt-in.txt) until it has run clean in the repeat runs.
set -uo pipefail

kind=${LIVE_KIND:?} A=${LIVE_ADDR_A:?}
C=$LIVE_BIN/rpcrdma-conform D=$LIVE_BIN/rpcrdma-decode
out=${LIVE_OUT:?}/requester
rm -rf "$out" && mkdir -p "$out"
. "$(cd "$(dirname "$0")/.." && pwd)/case-lib.sh"
RP=20071 MP=20072                # knfsd 20049, echo 20050-20052, conform 20060
M=/mnt/requester

result() { printf 'RESULT requester-%s %s %s\n' "$1" "$2" "${*:3}"; }
note() { echo "requester.sh: $*" >&2; }
ids=(serve mount ls-root ls-many stat read-all counts capture)
for t in "$C" "$D"; do
    if [[ ! -x $t ]]; then
        for id in "${ids[@]}"; do result "$id" skip "$t is not built"; done
        exit 0
    fi
done

pids=()
cleanup() {
    local p
    mountpoint -q "$M" && umount -f "$M"
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
    wait 2>/dev/null
}
trap cleanup EXIT

# ---------------------------------------------------------------- capture
pcap=$out/requester-$kind.pcap
if [[ $kind == siw ]]; then filt="tcp port $RP"; else filt="udp port 4791"; fi
tcpdump -i veth0 -s 0 -B 65536 -U -w "$pcap" $filt 2> "$out/tcpdump.err" &
td=$!
pids+=("$td")
wait_line 10 "$out/tcpdump.err" 'listening on' "$td" || note "tcpdump did not say it listens"

# ---------------------------------------------------------------- serve
"$C" --requester --serve -a "$A" -p "$RP" --mount-port "$MP" > "$out/serve.out" 2> "$out/serve.err" &
srv=$!
pids+=("$srv")
if wait_until 20 rdma_listening "$RP" && wait_until 20 tcp_listening "$MP"; then
    result serve ok "rpcrdma-conform --requester --serve listens over $kind on $RP and MOUNT on tcp $MP"
else
    result serve fail "not listening: $(tail -2 "$out/serve.err")"
    for id in "${ids[@]:1}"; do result "$id" skip "the server did not start"; done
    exit 0
fi

# ---------------------------------------------------------------- mount
mkdir -p "$M"
opts="vers=3,proto=rdma,port=$RP,mountport=$MP,mountproto=tcp,nolock,soft,timeo=100,retrans=2"
if timeout "$(scaled 60)" mount -t nfs -o "$opts" "$A:/" "$M" 2> "$out/mount.err" &&
    grep -q " $M nfs .*proto=rdma" /proc/mounts; then
    result mount ok "mount -t nfs -o $opts $A:/ over $kind"
else
    result mount fail "mount -o $opts: $(tail -2 "$out/mount.err")"
    for id in "${ids[@]:2}"; do result "$id" skip "not mounted"; done
    exit 0
fi

# ---------------------------------------------------------------- ls, stat
names=$(timeout "$(scaled 30)" ls "$M" 2> "$out/ls.err" | tr '\n' ' ')
if [[ $names == "data-1m.bin empty hello.txt many odd-4099.bin " ]] &&
    timeout "$(scaled 30)" ls -l "$M" > "$out/ls-l.txt" 2>> "$out/ls.err"; then
    result ls-root ok "ls / and ls -l /: the five names"
else
    result ls-root fail "ls /: '$names' $(tail -1 "$out/ls.err")"
fi
n=$(timeout "$(scaled 60)" ls -l "$M/many" 2> "$out/ls-many.err" | grep -c ' entry-[0-9][0-9][0-9]$')
first=$(ls "$M/many" 2>/dev/null | head -1) last=$(ls "$M/many" 2>/dev/null | tail -1)
if [[ $n == 300 && $first == entry-000 && $last == entry-299 ]]; then
    result ls-many ok "ls -l /many: 300 entries, entry-000 .. entry-299 (READDIRPLUS)"
else
    result ls-many fail "ls -l /many: $n entries, first '$first', last '$last' $(tail -1 "$out/ls-many.err")"
fi
sizes=$(cd "$M" && timeout "$(scaled 30)" stat -c '%n=%s' hello.txt data-1m.bin odd-4099.bin empty many/entry-042 2>&1 | tr '\n' ' ')
if [[ $sizes == "hello.txt=43 data-1m.bin=1048576 odd-4099.bin=4099 empty=0 many/entry-042=10 " ]]; then
    result stat ok "stat: every size as the tree has it"
else
    result stat fail "stat: $sizes"
fi

# ---------------------------------------------------------------- read back
# the expected bytes from the tree's definition (perl-base is essential in
# Debian), never from the server
pattern() { perl -e 'my ($n, $f) = @ARGV; print map { chr(($_ + $f) % 251) } 0 .. $n - 1' "$1" "$2"; }
exp=$out/expected
mkdir -p "$exp"
printf "Hello from rpcrdma-conform's NFSv3 export.\n" > "$exp/hello.txt"
pattern 1048576 3 > "$exp/data-1m.bin"
pattern 4099 4 > "$exp/odd-4099.bin"
: > "$exp/empty"
bad=()
for f in hello.txt data-1m.bin odd-4099.bin empty; do
    timeout "$(scaled 60)" cmp "$exp/$f" "$M/$f" > /dev/null 2>> "$out/cmp.err" || bad+=("$f")
done
for k in 000 001 150 298 299; do
    [[ $(timeout "$(scaled 10)" cat "$M/many/entry-$k" 2>> "$out/cmp.err") == "entry $k" ]] || bad+=("many/entry-$k")
done
if ((${#bad[@]} == 0)); then
    result read-all ok "every file read back byte for byte (1 MiB, 4099 bytes, 43 bytes, empty, 5 of /many)"
else
    result read-all fail "differ: ${bad[*]} $(tail -1 "$out/cmp.err")"
fi

# ---------------------------------------------------------------- counts
umount "$M" 2> "$out/umount.err" || note "umount: $(cat "$out/umount.err")"
kill -TERM "$srv"
timeout "$(scaled 20)" tail --pid="$srv" -f /dev/null
wait "$srv"
rc=$?
if ((rc == 0)) && grep -qE '^  NFSv3 READ +[0-9]+' "$out/serve.out" &&
    grep -qE '^  NFSv3 READDIRPLUS +[0-9]+' "$out/serve.out" &&
    grep -qE '^  MOUNT MNT +[0-9]+' "$out/serve.out"; then
    result counts ok "SIGTERM: exit 0, $(grep -c '^  ' "$out/serve.out") procedures counted"
else
    result counts fail "exit $rc: $(tr '\n' ' ' < "$out/serve.out") $(tail -2 "$out/serve.err")"
fi

# ---------------------------------------------------------------- the capture
sleep 1.5                        # past tcpdump's 1 s buffer timeout
kill -INT "$td" 2>/dev/null
wait "$td" 2>/dev/null
"$D" -r "$pcap" --json > "$out/decoded.jsonl" 2> "$out/decode.err"
# replies (rpcrdma-decode's keys: "direction", "writes", "proc_name" of the
# transport header and of the RPC message)
replies=$(grep '"direction":"reply"' "$out/decoded.jsonl")
wl=$(grep '"writes":\[\[' <<< "$replies" | grep -c '"proc_name":"READ"')
rc_=$(grep '"proc_name":"RDMA_NOMSG"' <<< "$replies" | grep -c '"proc_name":"READDIRPLUS"')
bad=$(grep -c '"valid":false\|"action":"\(reply_err\|discard\|disconnect\)' "$out/decoded.jsonl")
if ((wl > 0 && rc_ > 0)); then
    result capture ok "the capture: $wl READ replies with a write list, $rc_ READDIRPLUS replies as RDMA_NOMSG (reply chunk), $bad messages judged other than accept"
else
    result capture fail "the capture: $wl READ replies with a write list, $rc_ READDIRPLUS as RDMA_NOMSG: $(tail -1 "$out/decode.err")"
fi
