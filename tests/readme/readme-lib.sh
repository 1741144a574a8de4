# shellcheck shell=bash
# tests/readme/readme-lib.sh - the README test's common part, sourced by the
# host suite (tests/suites/45-readme.sh) and the guest's live case
# (tests/live/cases/readme.sh).  Plain bash, awk and sed: the guest has no
# python.
#
# Every example of README.md (tests/readme/extract.awk) runs where it can:
#   host   files: rpcrdma-decode --hex/-r, tshark -r, gnuplot's --plot
#   guest  the network: an address of the test bed (198.18.*, SERVER, HOST),
#          an interface (-i), tcpdump
# in a scratch directory holding the README's placeholder files (nfs.pcap is a
# bundled capture on the host, tcpdump's own in the guest; tests/ and samples/
# are the repository's), with the tools first on PATH.  Its exit status must be
# 0 (1 too where the README says 1 means findings: --check, rpcrdma-conform,
# --hex of a message a receiver does not accept),
# and its output must have the structure the README shows: on the host line
# for line; in the guest after readme_norm (numbers, addresses, xids, device
# names and spacing aside).  In a shown line "..." stands for any text; a line
# "..." alone for any lines.  "^C" is the terminal's echo of Ctrl-C.

README_LIB_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# readme_extract README DIR: the examples, as extract.awk writes them
readme_extract() {
    rm -rf "$2" && mkdir -p "$2" && awk -v dir="$2" -f "$README_LIB_DIR/extract.awk" "$1"
}

# readme_strip CMD: without a trailing "# comment" (outside quotes)
readme_strip() {
    awk 'BEGIN { RS = "\0" } {
        out = ""; q = 0
        for (i = 1; i <= length($0); i++) {
            c = substr($0, i, 1)
            if (c == "\047") q = !q
            if (!q && c == "#" && (i == 1 || substr($0, i - 1, 1) ~ /[ \t]/)) {
                while (i <= length($0) && substr($0, i, 1) != "\n") i++
                if (i <= length($0)) out = out "\n"
                continue
            }
            out = out c
        }
        sub(/[ \t\n]+$/, "", out); gsub(/[ \t]+\n/, "\n", out)
        printf "%s", out
    }' <<<"$1"
}

# readme_where CMD: host, guest, or "none REASON"
readme_where() {
    local c=$1
    case $c in
    *wireshark\ *) echo "none the Wireshark GUI (its tshark examples run)"; return ;;
    *ibdump* | *mlx5_0* | *eth1*) echo "none a hardware RDMA NIC or a mirrored port"; return ;;
    esac
    if readme_is_bg "$c" || [[ $c == *tcpdump* || $c == *" -i "* || $c =~ 198\.18\.|SERVER|HOST ]] &&
       ! [[ $c == rpcrdma-decode\ -r\ * && $c != *tcpdump* ]]; then
        echo guest
    else
        echo host
    fi
}

# readme_is_bg CMD: runs until interrupted (a server, a live capture)
readme_is_bg() {
    [[ $1 == "rpcrdma-echo -s"* || $1 == tcpdump\ *-w\ [!-]* || $1 == "rpcrdma-decode -i"* ]]
}

# readme_exit_ok CMD RC: the exit status the README promises
readme_exit_ok() {
    (($2 == 0)) && return 0
    [[ $2 == 1 && ($1 == *--check* || $1 == rpcrdma-conform* || $1 == *--hex*) ]]
}

# readme_norm: the guest's view of a line: numbers, addresses, xids, device
# names and spacing aside
readme_norm() {
    sed -E 's/\^C//; s/\b(rxe|siw)[0-9]+\b/DEV/g; s/0x[0-9a-f]+/X/g;
            s/[0-9]+(\.[0-9]+)*/N/g; s/[[:space:]]+/ /g; s/^ //; s/ $//'
}

# readme_match EXP ACT MODE: ACT has the structure EXP shows (both files of
# lines, already normalized as wanted).  MODE: all (every line of ACT
# matched), prefix (EXP shows ACT's first lines), within (EXP shows lines
# found in ACT from anywhere on).  Prints what differs first, returns 1.
readme_match() {
    awk -v mode="$3" '
    function glob(p, s,    parts, k, n, pos) {
        if (index(p, "...") == 0) return p == s
        n = split(p, parts, /\.\.\./)
        if (substr(s, 1, length(parts[1])) != parts[1]) return 0
        s = substr(s, length(parts[1]) + 1)
        for (k = 2; k <= n; k++) {
            if (parts[k] == "") continue
            pos = index(s, parts[k]); if (!pos) return 0
            s = substr(s, pos + length(parts[k]))
        }
        return parts[n] == "" || s == ""
    }
    FNR == NR { e[++ne] = $0; next }
    { a[++na] = $0 }
    END {
        i = 1; j = 1
        if (mode == "within" && ne) {
            while (j <= na && !glob(e[1], a[j])) j++
            if (j > na) { printf "the line \"%s\" is not in the output\n", e[1]; exit 1 }
        }
        while (i <= ne) {
            if (e[i] == "...") {
                i++
                if (i > ne) { j = na + 1; break }
                while (j <= na && !glob(e[i], a[j])) j++
                if (j > na) { printf "shown line %d \"%s\": not in the output\n", i, e[i]; exit 1 }
                continue
            }
            if (j > na) { printf "shown line %d \"%s\": the output ended after %d lines\n", i, e[i], na; exit 1 }
            if (!glob(e[i], a[j])) {
                printf "shown line %d \"%s\", printed \"%s\"\n", i, e[i], a[j]; exit 1
            }
            i++; j++
        }
        if (mode == "all" && j <= na) { printf "%d more lines than shown, from \"%s\"\n", na - j + 1, a[j]; exit 1 }
    }' "$1" "$2"
}
