#!/bin/bash
# `make check-live`: the live RDMA suite, as TAP, ending with "N passed, N failed[, N skipped]".
# Builds (or reuses) the guest image, then per transport (rxe = RoCEv2, siw =
# iWARP) boots a fresh guest that runs guest-smoke.sh: two devices on a veth
# pair, ibv_rc_pingpong, rping, NFSv3 and NFSv4.1 mounts with proto=rdma, each
# captured on the cable. On the host, tshark and rpcrdma-decode read the captures.
# The repository's captures (tests/captures/*.pcap) are checked the same way.
# When the host cannot run the guest, the guest tests are skipped with the reason
# and the exit status is 0 -- except under make check (RPCRDMA_CHECK=1, set by
# tests/run-all.sh, or CI=true): there the guest is a dependency
# scripts/deps.sh prepares, and each test that cannot run is a failure.
#   BUILD=/abs/build [BIN=...] smoke.sh [rxe|siw]...
set -euo pipefail
. "$(dirname "$0")/lib.sh"

BUILD=${BUILD:-$REPO_ROOT/build}
BUILD=$(mkdir -p "$BUILD" && cd "$BUILD" && pwd)
BIN=${BIN:-$BUILD/bin}
[[ $BIN == /* ]] || BIN=$REPO_ROOT/$BIN
kinds=("$@")
((${#kinds[@]})) || kinds=(rxe siw)
# where the guests' results and logs go (RPCRDMA_LIVE_OUT: make check's
# second guest release, tests/suites/91-live-trixie.sh, writes beside the first)
out=${RPCRDMA_LIVE_OUT:-$BUILD/live/smoke}
# A guest that writes nothing (output, or its log in the share) for
# RPCRDMA_LIVE_TIMEOUT seconds is taken as hung and stopped; one a loaded
# host makes slow goes on, to four times that in all (its cases' deadlines
# follow its measured speed: case-lib.sh)
guest_timeout=${RPCRDMA_LIVE_TIMEOUT:-900}

n=0 passed=0 failed=0 skipped=0 retries=0
strict=
[[ ${RPCRDMA_CHECK:-} == 1 || ${CI:-} == true ]] && strict=1
# no_guest_tap DESCRIPTION REASON: a skip, or under make check a failure
no_guest_tap() {
    if [[ -n $strict ]]; then tap fail "$1" "$2 (make check: the guest is required)"
    else tap skip "$1" "$2"; fi
}
tap() {     # tap ok|fail|skip DESCRIPTION [REASON]
    n=$((n + 1))
    # a retry a case made says so in its text ("[retried N: WHY]",
    # tests/live/case-lib.sh): counted here, summed in the last line
    local re='\[retried ([0-9]+):' r=0
    [[ "$2 ${3:-}" =~ $re ]] && r=${BASH_REMATCH[1]}
    retries=$((retries + r))
    # one line per test for check-live-repeat: status, a stable key (tkey
    # when the caller set one: the description carries run-dependent text)
    printf '%s\t%s\t%s\n' "$1" "${tkey:-$2}" "$r" >> "$out/results.tsv"
    tkey=
    case $1 in
    ok) passed=$((passed + 1)); echo "ok $n - $2" ;;
    fail) failed=$((failed + 1)); echo "not ok $n - $2${3:+: $3}" ;;
    skip) skipped=$((skipped + 1)); echo "ok $n - $2 # SKIP ${3:-}" ;;
    esac
}
finish() {
    echo "1..$n"
    local line="$passed passed, $failed failed"
    ((skipped)) && line+=", $skipped skipped"
    ((retries)) && line+=", $retries retried (counted in the results above)"
    echo "$line"
    ((failed == 0))
}

guest_ids=(devices pingpong rping nfs3 nfs41)
declare -A what=(
    [devices]="two %s devices on a veth pair (ibv_devices)"
    [pingpong]="ibv_rc_pingpong over %s"
    [rping]="rping over %s"
    [nfs3]="NFSv3 mount proto=rdma over %s: write and read back 4 MiB, captured"
    [nfs41]="NFSv4.1 mount proto=rdma over %s: write and read back 4 MiB, delegation recall, captured"
    [tshark-nfs3]="tshark decodes RPC-over-RDMA and NFS in the NFSv3 capture over %s"
    [tshark-nfs41]="tshark decodes RPC-over-RDMA, NFS and the backchannel in the NFSv4.1 capture over %s"
    [decode-nfs3]="rpcrdma-decode agrees with tshark on the NFSv3 capture over %s"
    [decode-nfs41]="rpcrdma-decode agrees with tshark on the NFSv4.1 capture over %s"
)
host_ids=(tshark-nfs3 tshark-nfs41 decode-nfs3 decode-nfs41)
label() { printf "%s: ${what[$2]}" "$1" "$1"; }

# tshark_check PCAP VERS [backchannel]: prints what it found; fails when something is missing.
tshark_check() {
    local pcap=$1 vers=$2 bc=${3:-} msgs write read rchunk wchunk cb
    msgs=$(tshark -r "$pcap" -Y 'rpcordma.xid' 2>/dev/null | wc -l)
    if [[ $vers == 3 ]]; then
        write=$(tshark -r "$pcap" -Y 'rpc.msgtyp == 0 && nfs.procedure_v3 == 7' 2>/dev/null | wc -l)
        read=$(tshark -r "$pcap" -Y 'rpc.msgtyp == 0 && nfs.procedure_v3 == 6' 2>/dev/null | wc -l)
    else
        write=$(tshark -r "$pcap" -Y 'rpc.msgtyp == 0 && nfs.opcode == 38' 2>/dev/null | wc -l)
        read=$(tshark -r "$pcap" -Y 'rpc.msgtyp == 0 && nfs.opcode == 25' 2>/dev/null | wc -l)
    fi
    rchunk=$(tshark -r "$pcap" -Y 'rpcordma.reads_count > 0' 2>/dev/null | wc -l)
    wchunk=$(tshark -r "$pcap" -Y 'rpcordma.writes_count > 0' 2>/dev/null | wc -l)
    echo "$msgs RPC-over-RDMA messages, $write WRITE and $read READ calls, $rchunk with a read list, $wchunk with a write list"
    ((msgs > 0 && write > 0 && read > 0 && rchunk > 0 && wchunk > 0)) || return 1
    if [[ -n $bc ]]; then
        cb=$(tshark -r "$pcap" -Y 'rpc.msgtyp == 0 && nfs.cb.operation == 4' 2>/dev/null | wc -l)
        echo "  $cb CB_RECALL calls on the backchannel"
        ((cb > 0)) || return 1
    fi
}

# decode_test DESCRIPTION PCAP
decode_test() {
    local msg rc=0
    msg=$(bash "$LIVE_DIR/decode-agree.sh" "$2" "$BIN/rpcrdma-decode" 2>&1) || rc=$?
    case $rc in
    0) tap ok "$1 ($msg)" ;;
    77) tap skip "$1" "$msg" ;;
    *) tap fail "$1" "$(head -1 <<<"$msg")"; tail -n +2 <<<"$msg" | sed 's/^/# /' ;;
    esac
}

tkey=
# the repository's captures (section 3), unless RPCRDMA_LIVE_REPO_CAPTURES=0
# (a second release's run in the same make check: the first checked them)
captures=()
if [[ ${RPCRDMA_LIVE_REPO_CAPTURES:-1} != 0 ]]; then
    for f in "$REPO_ROOT"/tests/captures/*.pcap; do
        [[ -f $f ]] && captures+=("$f")
    done
fi

# 1. The image.
t0=$SECONDS
rc=0
mkdir -p "$out"
: > "$out/results.tsv"
tkey=image
image=$(bash "$(live_image_builder)" 2> "$out/build-image.log") || rc=$?
sed 's/^/# /' "$out/build-image.log"
no_guest=
case $rc in
0)
    if grep -q 'reusing cached image' "$out/build-image.log"; then
        tap ok "guest image reused from the cache: $image"
    else
        tap ok "guest image built in $((SECONDS - t0)) s: $image"
    fi ;;
2) no_guest="this host cannot run the live guest: $image"
   no_guest_tap "guest image" "$no_guest" ;;
*) no_guest="no guest image (the build failed)"
   tap fail "guest image" "${LIVE_SUITE} image: $(basename "$(live_image_builder)") exit status $rc" ;;
esac
siw_state=
[[ -z $no_guest ]] && siw_state=$(awk '$1 == "siw" { print $2 }' "$image/info")
[[ -z $no_guest ]] && echo "# guest: Debian $LIVE_SUITE, kernel $(awk '$1 == "kver" { print $2 }' "$image/info")"

# 2. Per transport: one fresh guest for the guest tests, then the host's checks.
#    The guests run at the same time (RPCRDMA_LIVE_PARALLEL=0: one after the
#    other): much of a guest's time is spent waiting (timeouts, tcpdump's
#    buffer, servers starting), which the other guest fills.
declare -A skip_of=() gpid=() t_start=()
for kind in "${kinds[@]}"; do
    skip_reason=$no_guest
    if [[ -z $skip_reason && $kind == siw && $siw_state != built ]]; then
        skip_reason="siw.ko could not be built for the guest kernel (see $image/siw.log)"
    fi
    skip_of[$kind]=$skip_reason
    [[ -n $skip_reason ]] && continue
    rm -rf "${out:?}/$kind"
    mkdir -p "$out/$kind"
    shares=()
    [[ $BUILD/ == "$REPO_ROOT"/* ]] || shares=(--share "$BUILD")
    t_start[$kind]=$SECONDS
    (
        grc=0
        LIVE_IMAGE_DIR=$image bash "$LIVE_DIR/run-guest.sh" --timeout "$((guest_timeout * 4))" \
            --idle "$guest_timeout" --watch "$out/$kind/guest-$kind.log" --cpus "${RPCRDMA_LIVE_CPUS:-2}" "${shares[@]}" \
            --logs "$out/$kind/logs" -- env LIVE_CASES="${RPCRDMA_LIVE_CASES:-}" \
            LIVE_FAKE_WEDGE="${RPCRDMA_LIVE_FAKE_WEDGE:-}" \
            LIVE_SOAK_CONNS="${LIVE_SOAK_CONNS:-}" LIVE_SOAK_AT_ONCE="${LIVE_SOAK_AT_ONCE:-}" \
            LIVE_SOAK_SECONDS="${LIVE_SOAK_SECONDS:-}" \
            bash "$LIVE_DIR/guest-smoke.sh" "$kind" "$out/$kind" "$BIN" \
            > "$out/$kind/guest.out" 2> "$out/$kind/guest.err" || grc=$?
        echo "$grc $((SECONDS - t_start[$kind]))" > "$out/$kind/guest.rc"
    ) &
    gpid[$kind]=$!
    [[ ${RPCRDMA_LIVE_PARALLEL:-1} == 0 ]] && wait "${gpid[$kind]}"
done
for kind in "${kinds[@]}"; do
    [[ -n ${gpid[$kind]:-} ]] && wait "${gpid[$kind]}"
done

# A guest whose kernel wedged under a case (run-guest.sh: "the guest's kernel
# is wedged", a soft lockup or a blocked nfsd thread; seen twice under TCG in
# 6.1's tracing while trace.sh set up its ring buffers, 11-27 and 11-28, the
# second time in a fresh clone's make check) does not come back, and the cases
# after it never ran.  That case and the ones after it run once more, in a
# fresh guest, after the others; each of their results says so ("[retried 1:
# ...]", counted as the cases' own retries are), and a second wedge is a
# failure.  The first guest's log, with the wedge, stays in $out/KIND/logs.
for kind in "${kinds[@]}"; do
    [[ -n ${gpid[$kind]:-} ]] || continue
    why=$(grep -h "run-guest: stopped: the guest's kernel is wedged" "$out/$kind/guest.err" 2>/dev/null | tail -1) || true
    [[ -n $why ]] || continue
    glog=$out/$kind/guest-$kind.log
    rest=()
    for case in "$LIVE_DIR"/cases/*.sh; do
        name=${case##*/} && name=${name%.sh}
        if [[ -n ${RPCRDMA_LIVE_CASES:-} ]]; then
            [[ " $RPCRDMA_LIVE_CASES " == *" $name "* ]] || continue
        else
            grep -qx "$name" "$LIVE_DIR/cases/opt-in.txt" 2>/dev/null && continue
        fi
        grep -qE "^\+ case $name\.sh: [0-9]+ s(,|$)" "$glog" 2>/dev/null && continue
        rest+=("$name")
    done
    ((${#rest[@]})) || continue
    wedged_in=$(sed -n 's/^+ case \([^ ]*\) (.*/\1/p' "$glog" 2>/dev/null | tail -1)
    prefix="run-guest: stopped: the guest's kernel is wedged: "
    mark="[retried 1: the $kind guest's kernel wedged in ${wedged_in:-a case} (${why#"$prefix"}); ${rest[*]} ran again in a fresh guest]"
    echo "# $kind: ${why#run-guest: }; running ${rest[*]} again in a fresh guest"
    again=$out/$kind/again
    rm -rf "$again" && mkdir -p "$again"
    grc=0
    t_again=$SECONDS
    LIVE_IMAGE_DIR=$image bash "$LIVE_DIR/run-guest.sh" --timeout "$((guest_timeout * 4))" \
        --idle "$guest_timeout" --watch "$again/guest-$kind.log" --cpus "${RPCRDMA_LIVE_CPUS:-2}" "${shares[@]}" \
        --logs "$again/logs" -- env LIVE_CASES="${rest[*]}" \
        LIVE_SOAK_CONNS="${LIVE_SOAK_CONNS:-}" LIVE_SOAK_AT_ONCE="${LIVE_SOAK_AT_ONCE:-}" \
        LIVE_SOAK_SECONDS="${LIVE_SOAK_SECONDS:-}" \
        bash "$LIVE_DIR/guest-smoke.sh" "$kind" "$again" "$BIN" \
        > "$again/guest.out" 2> "$again/guest.err" || grc=$?
    echo "# $kind: the second guest: exit status $grc after $((SECONDS - t_again)) s (log: $again/guest-$kind.log)"
    # its cases' results and log lines join the first guest's (the set-up's
    # results, run again, stay the first guest's); a result of a case that
    # ran again carries the mark
    while read -r tag id status text; do
        [[ $tag == RESULT ]] || continue
        [[ " ${guest_ids[*]} " == *" $id "* ]] && continue
        printf 'RESULT %s %s %s %s\n' "$id" "$status" "$text" "$mark"
    done < "$again/guest.out" >> "$out/$kind/guest.out"
    grep '^# case ' "$again/guest.out" >> "$out/$kind/guest.out" || true
    grep '^+ case ' "$again/guest-$kind.log" >> "$glog" || true
    grep -h 'run-guest: stopped' "$again/guest.err" >> "$out/$kind/guest.err" || true
done

for kind in "${kinds[@]}"; do
    skip_reason=${skip_of[$kind]}
    if [[ -n $skip_reason ]]; then
        if [[ $skip_reason == "$no_guest" ]]; then
            for id in "${guest_ids[@]}" "${host_ids[@]}"; do no_guest_tap "$(label "$kind" "$id")" "$skip_reason"; done
        elif [[ -n $strict ]]; then
            # make check's kernels (bookworm's, trixie's) are known to build
            # siw.ko: there, one that did not build is a fault of the image
            # (as when the registry's kernel source moved ahead of its
            # kernel, 11-28), never a skip
            for id in "${guest_ids[@]}" "${host_ids[@]}"; do
                tap fail "$(label "$kind" "$id")" "$skip_reason (make check: siw is required)"
            done
        else
            for id in "${guest_ids[@]}" "${host_ids[@]}"; do tap skip "$(label "$kind" "$id")" "$skip_reason"; done
        fi
        continue
    fi
    read -r grc took < "$out/$kind/guest.rc" || { grc=125; took=?; }
    echo "# $kind guest: exit status $grc after $took s (log: $out/$kind/guest-$kind.log)"
    # (a guest that never ran its command has no case line: not a reason to stop here)
    grep '^# case ' "$out/$kind/guest.out" | sed "s/^# case /# $kind case /" || true
    declare -A res=() txt=()
    extra=()
    while read -r tag id status text; do
        [[ $tag == RESULT ]] || continue
        [[ -n ${what[$id]:-} || -n ${res[$id]:-} ]] || extra+=("$id")
        res[$id]=$status txt[$id]=$text
    done < "$out/$kind/guest.out"
    for id in "${guest_ids[@]}"; do
        tkey="$kind: $id"
        case ${res[$id]:-none} in
        ok) tap ok "$(label "$kind" "$id") (${txt[$id]})" ;;
        skip) tap skip "$(label "$kind" "$id")" "${txt[$id]}" ;;
        fail) tap fail "$(label "$kind" "$id")" "${txt[$id]}"
              grep -v '^RESULT' "$out/$kind/guest.out" | tail -20 | sed 's/^/# /' ;;
        none) gwhy=$(grep -h '^run-guest: ' "$out/$kind/guest.err" 2>/dev/null | grep -v '^run-guest: exit status' | tail -1) || true
              tap fail "$(label "$kind" "$id")" "no result from the guest (exit status $grc${gwhy:+; ${gwhy#run-guest: }})"
              tail -5 "$out/$kind/guest.err" | sed 's/^/# /' ;;
        esac
    done
    for v in 3 41; do
        pcap=$out/$kind/nfs$v-$kind.pcap
        tkey="$kind: tshark-nfs$v"
        if [[ ${res[nfs$v]:-} != ok || ! -s $pcap ]]; then
            tap skip "$(label "$kind" "tshark-nfs$v")" "no capture (the NFS test did not pass)"
            continue
        fi
        bc=
        [[ $v == 41 ]] && bc=backchannel
        if msg=$(tshark_check "$pcap" "${v/1/.1}" $bc); then
            tap ok "$(label "$kind" "tshark-nfs$v") ($(echo $msg))"
        else
            tap fail "$(label "$kind" "tshark-nfs$v")" "$(echo $msg)"
        fi
    done
    for v in 3 41; do
        pcap=$out/$kind/nfs$v-$kind.pcap
        tkey="$kind: decode-nfs$v"
        if [[ ! -s $pcap ]]; then
            tap skip "$(label "$kind" "decode-nfs$v")" "no capture (the NFS test did not pass)"
        else
            decode_test "$(label "$kind" "decode-nfs$v")" "$pcap"
        fi
    done
    # a case that began and did not end (the guest stopped under it: a
    # hang, or a wedged kernel): a failure of its own, with run-guest's why
    glog=$out/$kind/guest-$kind.log
    for c in $(sed -n 's/^+ case \([^ ]*\) (.*/\1/p' "$glog" 2>/dev/null); do
        grep -qE "^\+ case $c: [0-9]+ s(,|$)" "$glog" && continue
        tkey="$kind: case-${c%.sh}"
        tap fail "$kind: case-${c%.sh} (tests/live/cases/$c)" \
            "began and did not end: $(grep -h 'run-guest: stopped' "$out/$kind/guest.err" | tail -1)$(tail -1 "$glog" | sed 's/^/; its last line: /')"
    done
    # Results of tests/live/cases/*.sh (the other tools' live tests).
    for id in "${extra[@]}"; do
        tkey="$kind: $id"
        case ${res[$id]} in
        ok) tap ok "$kind: $id (${txt[$id]})" ;;
        skip) tap skip "$kind: $id" "${txt[$id]}" ;;
        *) tap fail "$kind: $id" "${txt[$id]}" ;;
        esac
    done
    unset res txt
done

# 3. The repository's real captures.
for f in "${captures[@]}"; do
    rel=${f#"$REPO_ROOT"/}
    if ! command -v tshark >/dev/null; then
        tap fail "tshark decodes RPC-over-RDMA in $rel" "tshark is not installed (scripts/deps.sh installs it)"
        tap fail "rpcrdma-decode agrees with tshark on $rel" "tshark is not installed (scripts/deps.sh installs it)"
        continue
    fi
    msgs=$(tshark -r "$f" -Y 'rpcordma.xid' 2>/dev/null | wc -l)
    tkey="tshark: $rel"
    if ((msgs > 0)); then
        tap ok "tshark decodes RPC-over-RDMA in $rel ($msgs messages)"
    else
        tap fail "tshark decodes RPC-over-RDMA in $rel" "no rpcordma message"
    fi
    tkey="decode: $rel"
    decode_test "rpcrdma-decode agrees with tshark on $rel" "$f"
done

echo "# live suite: $((SECONDS - t0)) s"
finish
