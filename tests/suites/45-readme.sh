#!/usr/bin/env bash
# 45-readme.sh - README.md pasted line by line (issue 30): every command
# example the host can run (files: rpcrdma-decode, tshark, --plot) runs as
# written, with the exit status and the output the README shows
# (tests/readme/readme-lib.sh); the examples on the network run in the guest
# (tests/live/cases/readme.sh), each listed here by its line.  As root (the
# README's reader) the tshark examples run after the README's own
# `make install-plugin`, in a private mount namespace whose Wireshark plugin
# folder is a scratch one (the system's stays untouched); `make
# uninstall-plugin` takes it out again.  TAP.
set -u
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
BUILD=${BUILD:-$TOP/build}
BIN=${BIN:-$BUILD/bin}
export TOP BUILD BIN
. "$TOP/tests/readme/readme-lib.sh"

plugindir=$(pkg-config --variable=plugindir wireshark 2>/dev/null)
# as root: into a mount namespace of our own, the plugin folder a tmpfs
if [[ $(id -u) == 0 && -z ${README_NS:-} && -n $plugindir && -d $plugindir ]] &&
   unshare -m true 2>/dev/null; then
    export README_NS=1
    exec unshare -m bash -c 'mount -t tmpfs readme-plugins "$1" && exec bash "$2"' \
        _ "$plugindir" "$0"
fi

T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
export BIN
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
nok() { n=$((n + 1)); echo "not ok $n - $1"; shift; local l; for l in "$@"; do echo "#   $l"; done; }

{
readme_extract "$TOP/README.md" "$T/ex"
# the README's placeholders: nfs.pcap (a bundled capture), tests/, samples/,
# build/ as after `make`
W=$T/work
mkdir -p "$W"
cp "$TOP/tests/captures/nfs3-rocev2-rxe.pcap" "$W/nfs.pcap"
ln -s "$TOP/tests" "$W/tests"
ln -s "$TOP/samples" "$W/samples"
ln -s "$BUILD" "$W/build"
export PATH=$BIN:$PATH

# item 2: the root way before the first tshark example (make install-plugin),
# the unprivileged one after it
plugin_so=$plugindir/epan/rpcrdma.so
if [[ -n ${README_NS:-} ]]; then
    if out=$(make -s -C "$TOP" BUILD="$BUILD" install-plugin 2>&1) && [[ -f $plugin_so ]] &&
       tshark -G plugins 2>/dev/null | grep -q "$plugin_so"; then
        ok "as root: make install-plugin puts rpcrdma.so in $plugindir/epan and tshark (root) loads it"
    else
        nok "as root: make install-plugin puts rpcrdma.so in $plugindir/epan and tshark (root) loads it" "$out" \
            "$(tshark -G plugins 2>&1 | grep -i rpcrdma | head -2)"
    fi
    tsh=()
else
    # not root: the README's unprivileged way
    tsh=(env WIRESHARK_PLUGIN_DIR="$BUILD/plugins")
    # root without a mount namespace (a container that forbids unshare):
    # the unprivileged way, as nobody
    if [[ $(id -u) == 0 ]]; then
        chmod 755 "$T"
        tsh=(setpriv --reuid=65534 --regid=65534 --clear-groups env HOME=/tmp
             WIRESHARK_PLUGIN_DIR="$BUILD/plugins")
    fi
    d=$T/destdir
    make -s -C "$TOP" BUILD="$BUILD" DESTDIR="$d" install-plugin >/dev/null 2>&1 &&
        [[ -f $d$plugin_so ]] && ok "make install-plugin DESTDIR=..." || nok "make install-plugin DESTDIR=..."
    make -s -C "$TOP" BUILD="$BUILD" DESTDIR="$d" uninstall-plugin >/dev/null 2>&1 &&
        [[ ! -e $d$plugin_so ]] && ok "make uninstall-plugin DESTDIR=..." || nok "make uninstall-plugin DESTDIR=..."
fi

    grep -q 'make install-plugin' <(sed -n '/^## Wireshark plugin/,/^\$ tshark/p' "$TOP/README.md") &&
        ok "README: make install-plugin comes before the first tshark example" ||
        nok "README: make install-plugin comes before the first tshark example"
guest=0 notrun=0
for meta in "$T"/ex/*.meta; do
    f=${meta%.meta}
    read -r line kind < "$meta"
    raw=$(cat "$f.cmd")
    cmd=$(readme_strip "$raw")
    label="README.md:$line: ${cmd//$'\n'/ }"
    if [[ $kind == unmarked ]]; then
        nok "README.md:$line: a code block with no \"\$ \" command and no <!-- test: --> mark"
        continue
    fi
    if [[ -f $f.skip ]]; then
        echo "# not run: README.md:$line: $(cat "$f.skip")"
        notrun=$((notrun + 1))
        continue
    fi
    where=$(readme_where "$cmd")
    case $where in
    guest) guest=$((guest + 1)); echo "# in the guest (tests/live/cases/readme.sh): $label"; continue ;;
    none*) notrun=$((notrun + 1)); echo "# not run: $label: ${where#none }"; continue ;;
    esac
    [[ $kind == output ]] && label="$label (output shown at README.md:$line)"
    rc=0
    pre=()
    [[ $cmd == tshark* ]] && pre=("${tsh[@]}")
    (cd "$W" && timeout 60 "${pre[@]}" bash -c "set -o pipefail; $cmd") > "$T/out" 2> "$T/err" || rc=$?
    if ! readme_exit_ok "$cmd" "$rc"; then
        nok "$label" "exit status $rc" "$(head -3 "$T/err")"
        continue
    fi
    if [[ -s $f.shown ]]; then
        sed '/^$/d' "$f.shown" > "$T/exp"
        sed '/^$/d' "$T/out" > "$T/act"
        if why=$(readme_match "$T/exp" "$T/act" all); then
            ok "$label: exit $rc, the output shown"
        else
            nok "$label: the output differs from the README's" "$why"
        fi
    elif [[ ! -s $T/out && ! -s $T/err && $cmd != *" -w "* && $cmd != *--plot* ]]; then
        nok "$label: exit $rc but printed nothing"
    else
        ok "$label: exit $rc"
    fi
done

# the grader can fail: the first example with output, one word of what the
# README shows changed, must be reported as differing
first=$(grep -l . "$T"/ex/*.shown 2>/dev/null | head -1)
if [[ -n $first ]]; then
    f=${first%.shown}
    cmd=$(readme_strip "$(cat "$f.cmd")")
    (cd "$W" && timeout 60 bash -c "$cmd") 2>/dev/null | sed '/^$/d' > "$T/act"
    sed '/^$/d' "$first" | awk 'NR == 1 { $NF = $NF "X" } 1' > "$T/exp"
    if ! readme_match "$T/exp" "$T/act" all > /dev/null; then
        ok "a README line that drifts from the tool fails (README.md:$(cut -d' ' -f1 "$f.meta"), one word changed)"
    else
        nok "a README line that drifts from the tool fails: the changed line matched"
    fi
else
    nok "the README shows no output to check"
fi

if [[ -n ${README_NS:-} ]]; then
    if make -s -C "$TOP" BUILD="$BUILD" uninstall-plugin >/dev/null 2>&1 && [[ ! -e $plugin_so ]]; then
        ok "as root: make uninstall-plugin removes $plugin_so"
    else
        nok "as root: make uninstall-plugin removes $plugin_so"
    fi
fi
echo "# $n host tests, $guest examples in the guest, $notrun not run (reasons above)"
echo "1..$n"
} > "$T/readme.tap"
# the messages of issue 30 item 5 and -B, by their words
bats --tap "$TOP/tests/readme/messages.bats" > "$T/messages.tap" 2>&1
awk -f "$TOP/tests/tap-merge.awk" "$T/readme.tap" "$T/messages.tap"
rc=$?
# a failing test fails the suite's status too, not only its count
grep -q '^not ok' "$T/readme.tap" "$T/messages.tap" && rc=1
exit $rc
