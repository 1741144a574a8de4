# shellcheck shell=bash
# Sourced by tests/live/cases/*.sh in the guest: readiness by events, deadlines
# scaled to the guest's measured speed, and retries that are counted.
#
#   LIVE_SLOW   how many times slower than the reference this guest runs
#               (guest-smoke.sh measures it once: live_measure_speed); every
#               deadline here is multiplied by it (at least 1)
#
# A retry a case makes (only where the protocol allows one: a new connection
# after a lost first message, a connect that a loaded host made slow) goes
# through retried(): the RESULT line then ends "[retried N: WHY]", which
# smoke.sh counts and sums in the suite's last line.  Nothing is retried
# silently.

LIVE_SLOW=${LIVE_SLOW:-1}

# scaled SECONDS: SECONDS x LIVE_SLOW, rounded up, at least SECONDS
scaled() {
    awk -v s="$1" -v f="$LIVE_SLOW" 'BEGIN { f = f < 1 ? 1 : f; v = s * f;
        printf "%d\n", (v == int(v)) ? v : int(v) + 1 }'
}

# wait_until SECONDS CMD...: runs CMD every 0.1 s until it succeeds or the
# scaled deadline passes; 1 then
wait_until() {
    local limit end
    limit=$(scaled "$1")
    shift
    end=$((SECONDS + limit))
    while ! "$@" 2>/dev/null; do
        ((SECONDS < end)) || return 1
        sleep 0.1
    done
}

# wait_line SECONDS FILE PATTERN [PID]: until FILE has a line matching the
# extended regex PATTERN; 1 at the deadline or as soon as PID (a process
# that would write it) is gone without having written it
wait_line() {
    local limit=$1 file=$2 pat=$3 pid=${4:-} end
    end=$((SECONDS + $(scaled "$limit")))
    while :; do
        grep -qE -- "$pat" "$file" 2>/dev/null && return 0
        [[ -n $pid ]] && ! kill -0 "$pid" 2>/dev/null &&
            { grep -qE -- "$pat" "$file" 2>/dev/null; return; }
        ((SECONDS < end)) || return 1
        sleep 0.1
    done
}

# rdma_listening PORT: an rdma_cm listener on PORT (any address), as the
# kernel lists it (rdma resource show cm_id): the event, not a sleep
rdma_listening() {
    rdma resource show cm_id 2>/dev/null | grep -w 'state LISTEN' | grep -qE "src-port $1( |$)" ||
        rdma resource show cm_id 2>/dev/null | grep -w LISTEN | grep -qE ":$1( |$)"
}

# tcp_listening PORT: a TCP socket listening on PORT (ss)
tcp_listening() { ss -Hltn "sport = :$1" 2>/dev/null | grep -q .; }

# Retries: retried ID WHY counts one for ID; retry_note ID prints the suffix
# for its RESULT line (empty when it was not retried).
declare -A LIVE_RETRIES=() LIVE_RETRY_WHY=()
retried() {
    LIVE_RETRIES[$1]=$((${LIVE_RETRIES[$1]:-0} + 1))
    LIVE_RETRY_WHY[$1]=$2
    echo "retry: $1: $2" >&2
}
retry_note() {
    local n=${LIVE_RETRIES[$1]:-0}
    ((n)) && printf ' [retried %d: %s]' "$n" "${LIVE_RETRY_WHY[$1]}"
    return 0
}

# live_measure_speed: LIVE_SLOW from a fixed piece of work (25 forks and
# execs, what the cases spend their time on), against the same work on an
# idle 2-vCPU TCG guest (LIVE_SPEED_REF_MS: 100 took 1,000 ms on 2026-11-26).
# It runs before every case: 100 took 4-5 s a time in a loaded make check
# (11-27), some 45 s of each guest's run, for a factor that only sets
# generous deadlines
LIVE_SPEED_REF_MS=${LIVE_SPEED_REF_MS:-250}
live_measure_speed() {
    local t0 t1 i
    t0=$(date +%s%N)
    for ((i = 0; i < 25; i++)); do /bin/true; done
    t1=$(date +%s%N)
    LIVE_SPEED_MS=$(((t1 - t0) / 1000000))
    # at most 25: deadlines stay within what the tools take (a connect
    # timeout of 120 s x 25 is under rpcrdma-echo's 3,600; a probe that
    # caught a stall read x33 under a two-core hog, 11-27, and 3,976 s was
    # refused as --connect-timeout)
    LIVE_SLOW=$(awk -v m="$LIVE_SPEED_MS" -v r="$LIVE_SPEED_REF_MS" \
        'BEGIN { f = m / r; printf "%.2f\n", (f < 1 ? 1 : (f > 25 ? 25 : f)) }')
    export LIVE_SLOW LIVE_SPEED_MS
}

# guest_cpu_ticks: the guest's busy time so far, all CPUs, in clock ticks
# (/proc/stat: user nice system irq softirq steal; idle and iowait left out)
guest_cpu_ticks() {
    awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8 + $9; exit }' /proc/stat
}

# rss_flat SECS END AT:KIB...: the soak's RSS verdict (soak.sh), a pure
# function of its samples (AT seconds into a SECS-second soak, KIB the
# server's VmRSS then; END the sample after it, empty if none).  The first
# quarter is the warm-up and does not count; the floor (the lowest sample) of
# the second half, END included, may be at most 4 MiB or 5 % above the floor
# of the second quarter (when no sample fell there, a slow host: the first
# sample after the warm-up stands for it).  Not the last quarter against the
# second: in a 20 s soak over siw the heap still grew past +10 s (18 MiB at
# +6..8 s, 23-27 MiB at +16..18 s, 22 MiB at the end, 11-28), warm-up that
# the full 600 s soak shows flat.  A floor, not a mean: a sample
# taken while 1 MiB clients are connected holds their buffers, and END is
# taken with none.  Prints "flat|grew FLOOR1 FLOOR2" ("grew" and "-" for a
# floor when there were too few samples to say).
rss_flat() {
    local secs=$1 end=$2 s at v f1= f2= later=()
    shift 2
    for s in "$@"; do
        at=${s%%:*} v=${s#*:}
        [[ $at =~ ^[0-9]+$ && $v =~ ^[0-9]+$ ]] || continue
        if ((at < secs / 4)); then continue
        elif ((at < secs / 2)); then ((${f1:-v} < v)) || f1=$v
        elif [[ -z $f1 ]]; then f1=$v
        else later+=("$v"); fi
    done
    [[ $end =~ ^[0-9]+$ ]] && later+=("$end")
    for v in "${later[@]}"; do ((${f2:-v} < v)) || f2=$v; done
    if [[ -z $f1 || -z $f2 ]]; then echo "grew ${f1:--} ${f2:--}"
    elif ((f2 - f1 <= 4096 || f2 * 20 <= f1 * 21)); then echo "flat $f1 $f2"
    else echo "grew $f1 $f2"; fi
}

# skip_unless_built [--hint TEXT] TOOL...: when a TOOL is not executable,
# a SKIP ("TOOL is not built[ TEXT]") for every id of the caller's ids array
# through its result(), and the case ends (exit 0)
skip_unless_built() {
    local hint= t id
    [[ $1 == --hint ]] && { hint=" $2"; shift 2; }
    for t in "$@"; do
        if [[ ! -x $t ]]; then
            for id in "${ids[@]}"; do result "$id" skip "$t is not built$hint"; done
            exit 0
        fi
    done
}
