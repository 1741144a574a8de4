#!/usr/bin/env bats
# docs.bats - every documented rpcrdma-decode example runs as documented:
# the man page's EXAMPLES and STATISTICS, the README's "Reading captures".
# An example that shows its output must print exactly that (a "..." in a
# shown line stands for the rest of it); one that does not must run and
# exit 0 or 1.  Placeholder files (nfs.pcap, nfs.pcapng, msg.hex, tcpdump
# writing to a pipe) are replaced by bundled ones.
# Env: TOP, BIN.

load helpers
bats_require_minimum_version 1.5.0

setup_file() {
	export DOCS_TMP=$BATS_FILE_TMPDIR
	"$BIN/rpcrdma-decode" -r "$TOP/tests/captures/nfs3-rocev2-rxe.pcap" -q \
		-w "$DOCS_TMP/nfs.pcapng"
}

# run_examples FILE: the examples (a line "$ cmd", continued while it ends in
# '|' or has an open quote, then its output) of FILE, on stdin as text
run_examples() {
	cat >"$DOCS_TMP/examples.py" <<'PY'
import re, subprocess, sys
tmp = sys.argv[1]
subst = [
    (r"tcpdump [^|]*-w - [^|]*\|", "cat tests/captures/nfs41-rocev2-rxe.pcap |"),
    (r"\bnfs\.pcapng\b", tmp + "/nfs.pcapng"),
    (r"\bnfs\.pcap\b", "tests/captures/nfs3-rocev2-rxe.pcap"),
    (r"\bmsg\.hex\b", "samples/messages.hex"),
    (r"\breads\.pcapng\b", tmp + "/reads.pcapng"),
]
lines = sys.stdin.read().split("\n")
examples, cur = [], None
i = 0
while i < len(lines):
    l = lines[i]
    if l == "---END---":                   # the end of a code block
        cur = None
    elif l.startswith("$ "):
        cmd = l[2:]
        while (cmd.rstrip().endswith("|") or cmd.count("'") % 2) and i + 1 < len(lines):
            i += 1
            cmd += "\n" + lines[i]
        cur = [cmd, []]
        examples.append(cur)
    elif cur is not None:
        cur[1].append(l)
    i += 1
bad = n = 0
for cmd, out in examples:
    while out and out[-1] == "":
        out.pop()
    cmd = re.sub(r"\s+#.*$", "", cmd)          # a trailing comment
    if "rpcrdma-decode" not in cmd:
        continue
    for a, b in subst:
        cmd = re.sub(a, b, cmd)
    r = subprocess.run(["bash", "-c", "set -o pipefail; " + cmd],
                       capture_output=True, text=True)
    n += 1
    got = r.stdout.rstrip("\n").split("\n") if r.stdout else []
    if out:
        ok = len(got) == len(out) and all(
            g == w or (w.endswith("...") and g.startswith(w[:-3]))
            for g, w in zip(got, out))
        if not ok:
            bad += 1
            print("example: $ %s\n  documented:\n    %s\n  printed:\n    %s"
                  % (cmd, "\n    ".join(out), "\n    ".join(got)))
    elif r.returncode not in (0, 1):
        bad += 1
        print("example: $ %s\n  exit %d: %s" % (cmd, r.returncode, r.stderr[:300]))
print("%d examples, %d differ" % (n, bad))
sys.exit(1 if bad or n == 0 else 0)
PY
	cd "$TOP" && PATH="$BIN:$PATH" python3 "$DOCS_TMP/examples.py" "$DOCS_TMP"
}

# the .EX blocks of a man page section, roff escapes undone
man_blocks() {
	sed -n "/^\.SH $1/,/^\.SH /p" "$TOP/man/rpcrdma-decode.1" |
		awk '/^\.EX/ { on = 1; next } /^\.EE/ { on = 0; print "---END---"; next } on' |
		sed -e 's/\\-/-/g' -e "s/\\\\(aq/'/g" -e 's/\\(dq/"/g' -e 's/\\\\/\\/g'
}

@test "man page EXAMPLES: every rpcrdma-decode example runs and prints what the page shows" {
	run run_examples < <(man_blocks EXAMPLES)
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	[[ ${lines[-1]} =~ ^([0-9]+)\ examples ]] && [ "${BASH_REMATCH[1]}" -ge 8 ]
}

@test "man page STATISTICS: the --stats output shown is the bundled capture's" {
	# the page shows nfs41-backchannel-rocev2.pcap's conversation and rows
	# of its latency table; each shown line is printed
	out=$("$BIN/rpcrdma-decode" -r "$TOP/tests/captures/nfs41-backchannel-rocev2.pcap" --stats)
	n=0
	while IFS= read -r l; do
		[ -z "$l" ] || [ "$l" = ---END--- ] && continue
		if [[ $l == *... ]]; then
			grep -qF -- "${l%...}" <<<"$out" || { echo "not printed: $l"; return 1; }
		else
			grep -qxF -- "$l" <<<"$out" || { echo "not printed: $l"; return 1; }
		fi
		n=$((n + 1))
	done < <(man_blocks STATISTICS)
	[ "$n" -ge 10 ]
}

@test "README, Reading captures: every rpcrdma-decode example runs and prints what it shows" {
	run run_examples < <(sed -n '/^## Reading captures/,/^### Capturing/p' "$TOP/README.md" |
		awk '/^```/ { if (on) print "---END---"; on = !on; next } on')
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
	[[ ${lines[-1]} =~ ^([0-9]+)\ examples ]] && [ "${BASH_REMATCH[1]}" -ge 8 ]
}

@test "README and man page name the same exit statuses as the tool" {
	run "$BIN/rpcrdma-decode" --help
	for n in 0 1 2 3 4; do
		assert_output --regexp "(Exit status: |, )$n "
	done
	man=$(sed -n '/^\.SH EXIT STATUS/,/^\.SH /p' "$TOP/man/rpcrdma-decode.1" | grep -A1 '^\.TP' |
		grep -oE '^\.B [0-9]$' | cut -d' ' -f2 | tr '\n' ' ')
	[ "$man" = "0 1 2 3 4 " ]
	# the README's sentence on them
	readme=$(tr '\n' ' ' <"$TOP/README.md")
	[[ $readme == *"violations (1)"*"could not be read (3)"*"no RPC-over-RDMA traffic at all (4,"* ]]
}

@test "README, Reading captures: the commands shown in the text run (a filter expression; --plot has its own test)" {
	n=0
	while IFS= read -r cmd; do
		cmd=${cmd//nfs.pcap/tests\/captures\/nfs3-rocev2-rxe.pcap}
		run bash -c "cd '$TOP' && PATH='$BIN':\$PATH $cmd"
		[ "$status" -le 1 ] || { echo "$cmd: exit $status: $output"; return 1; }
		[ "$(wc -l <<<"$output")" -ge 2 ] || { echo "$cmd: $output"; return 1; }
		n=$((n + 1))
	done < <(sed -n '/^## Reading captures/,/^### Capturing/p' "$TOP/README.md" |
		grep -v '^\$ ' | grep -o '`rpcrdma-decode -r [^`]*`' | grep -v -- --plot | tr -d '`')
	[ "$n" -ge 1 ]
}

@test "README, Capturing RDMA traffic: hardware HCAs (libpcap's RDMA sniffer, ibdump, port mirroring), as the tool's hint says" {
	sec=$(sed -n '/^### Capturing RDMA traffic/,/^## /p' "$TOP/README.md")
	[[ $sec == *'tcpdump -i eth0` on the host sees none of it'* ]]
	[[ $sec == *'tcpdump -i mlx5_0 -s 0 -w'* ]]
	[[ $sec == *'ibdump -d mlx5_0'* ]]
	[[ $sec == *'**Port mirroring**'* ]]
	# a capture with no IP at all (ARP only): the tool names the same three ways
	python3 - "$DOCS_TMP/arp.pcap" <<'PY'
import struct, sys
recs = [struct.pack('<IHHiIII', 0xa1b2c3d4, 2, 4, 0, 0, 65535, 1)]
for i in range(3):
    fr = b'\xff' * 6 + b'\x02' * 6 + b'\x08\x06' + bytes(28)
    recs.append(struct.pack('<IIII', 1700000000 + i, 0, len(fr), len(fr)) + fr)
open(sys.argv[1], 'wb').write(b''.join(recs))
PY
	run --separate-stderr "$BIN/rpcrdma-decode" -r "$DOCS_TMP/arp.pcap"
	[ "$status" -eq 4 ]
	[[ $stderr == *"no RPC-over-RDMA traffic found in 3 frames"* ]]
	[[ $stderr == *"tcpdump -i eth0 sees no RDMA"*"tcpdump -i mlx5_0"*"ibdump"*"mirrored switch port"* ]]
}

@test "README: the plot it shows is what its command draws from the bundled captures" {
	command -v gnuplot >/dev/null || skip "no gnuplot (gnuplot-nox)"
	cmd=$(grep -o '`rpcrdma-decode -r tests/captures/[^`]*--plot stats.png[^`]*`' "$TOP/README.md" | tr -d '`')
	[ -n "$cmd" ]
	grep -q '](docs/img/rpcrdma-decode-stats.png)' "$TOP/README.md"
	[ -s "$TOP/docs/img/rpcrdma-decode-stats.png" ]
	(cd "$TOP" && PATH="$BIN:$PATH" bash -c "${cmd/stats.png/$DOCS_TMP/stats.png}" >/dev/null)
	[ "$(head -c 8 "$DOCS_TMP/stats.png" | xxd -p)" = 89504e470d0a1a0a ]
}
