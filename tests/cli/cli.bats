#!/usr/bin/env bats
# cli.bats - rpcrdma-decode's command line: option parsing, usage errors and
# exit statuses, and agreement between the parser, --help, the man page and
# the bash completion.  --hex and the JSON contract: decode_hex.bats.

load helpers

setup() {
	common_setup
}

@test "--help: usage on stdout, exit 0" {
	run "$D" --help
	assert_success
	assert_line --index 0 --partial "Usage: rpcrdma-decode --hex HEX"
	run "$D" -h
	assert_success
}

@test "--version: program, package and version" {
	run "$D" --version
	assert_success
	assert_output --regexp '^rpcrdma-decode \(rpcrdma-tools\) [0-9]+\.[0-9]+\.[0-9]+$'
}

@test "no mode: usage error" {
	run "$D"
	usage_error "give --hex HEX, -r FILE or -i IFACE"
	run "$D" --json
	usage_error "give --hex HEX, -r FILE or -i IFACE"
}

@test "--hex and -r together: usage error" {
	run "$D" --hex 00 -r x.pcap
	usage_error "cannot be used together"
}

@test "--hex twice: usage error" {
	run "$D" --hex 0000000100000001 --hex 00
	usage_error "--hex given twice"
}

@test "unknown options and stray arguments: usage error naming them" {
	run "$D" --bogus
	usage_error "'--bogus'"
	run "$D" -Z
	usage_error "-Z"
	run "$D" --hex 00 extra
	usage_error "unexpected argument 'extra'"
}

@test "missing option values: usage error" {
	run "$D" --hex
	usage_error "--hex needs a value"
	run "$D" -r
	usage_error "-r needs a value"
	run "$D" -r x --xid
	usage_error "--xid needs a value"
}

@test "numbers are checked strictly and name the option" {
	for bad in 0 65536 abc -1 1e3 " 80" 80x "" 0x 99999999999999999999; do
		run "$D" -r /nonexistent --roce-port "$bad"
		usage_error "--roce-port: '$bad' is not a number from 1 to 65535"
	done
	run "$D" -r /nonexistent --xid 0x100000000
	usage_error "--xid"
	run "$D" -r /nonexistent --xid 4294967296
	usage_error "--xid"
	run "$D" -r /nonexistent --conversation 0
	usage_error "--conversation"
	run "$D" -r /nonexistent --inline-threshold 1023
	usage_error "--inline-threshold"
	run "$D" -r /nonexistent --inline-threshold 1048577
	usage_error "--inline-threshold"
	run "$D" -r /nonexistent --procedure -3
	usage_error "--procedure"
	for v in 0 3 one; do
		run "$D" -r /nonexistent --rdma-version "$v"
		usage_error "--rdma-version"
	done
	run "$D" -r /nonexistent --program nfs4
	usage_error "--program: 'nfs4'"
}

@test "good values pass the parser (the capture reader then runs)" {
	for args in "--roce-port 1" "--roce-port 65535" "--xid 0xffffffff" \
		    "--xid 4294967295" "--xid 0XaBcD" "--conversation 1" \
		    "--rdma-version 2" "--program nfs" "--program NFS-CB" \
		    "--program echo" "--program 100003" "--program 0x186a3" \
		    "--procedure 0" "--inline-threshold 1024" \
		    "--inline-threshold=4096" "-V" "-q" "--stats" "--check" "--json"; do
		# shellcheck disable=SC2086
		run "$D" -r /nonexistent/x.pcap $args
		refute_output --partial "Try 'rpcrdma-decode --help'"
	done
}

@test "capture-only options are refused with --hex" {
	for opt in --stats --check -q "--roce-port 4791" "--xid 1" \
		   "--conversation 1" "--rdma-version 1" "--program nfs" \
		   "--procedure 1" "--inline-threshold 4096"; do
		# shellcheck disable=SC2086
		run "$D" --hex "$CALL" $opt
		usage_error "applies to captures (-r), not to --hex"
	done
}

@test "a write error on standard output is reported, exit 3" {
	[ -w /dev/full ] || skip "no /dev/full"
	run bash -c "'$D' --hex '$CALL' --json >/dev/full"
	assert_failure 3
	assert_output --partial "rpcrdma-decode: writing output:"
}

# an RDMA_MSG carrying an RPC call of PROG VERS PROC (all decimal)

# ------------------------------------------------------------ help, man page, completion agree

man_options() {
	sed -n '/^\.SH OPTIONS/,/^\.SH /p' "$TOP/man/rpcrdma-decode.1" |
		sed 's/\\-/-/g' | grep -A1 '^\.TP' | grep -v '^\.TP' |
		grep -oE '(^|[ "])--?[a-zA-Z][a-zA-Z-]*' | tr -d ' "' | sort -u
}

help_options() {
	"$D" --help | grep -E '^ +-' | grep -oE '(^|[ ,])--?[a-zA-Z][a-zA-Z-]*' |
		tr -d ' ,' | sort -u
}

# the long options the parser takes: its list of names, long_names[] in
# tools/decode/main.c (cli_longs(), tools/common/cliopt.h)

parser_long_options() {
	sed -n '/long_names\[\] =/,/;$/p' "$TOP/tools/decode/main.c" |
		grep -oE '"[^"]*"' | tr -d '"' | tr ' ' '\n' | sed -n 's/=.*//; s/^./--&/p' |
		sort -u
}

completion_options() {
	bash -c "source '$TOP/completion/rpcrdma-decode'
		COMP_WORDS=(rpcrdma-decode -); COMP_CWORD=1; _rpcrdma_decode
		printf '%s\n' \"\${COMPREPLY[@]}\"" | sort -u
}

@test "--help lists exactly the options of the man page" {
	run diff <(man_options) <(help_options)
	assert_success
	[ "$(man_options | wc -l)" -ge 20 ]
}

@test "--help lists every long option the parser knows" {
	run diff <(parser_long_options) <(help_options | grep -- '^--')
	assert_success
	[ "$(parser_long_options | wc -l)" -eq 28 ]   # 26 + --redact, --redact-key
}

@test "completion offers every option the parser and --help know" {
	run diff <(help_options) <(completion_options)
	assert_success
	run diff <(parser_long_options) <(completion_options | grep -- '^--')
	assert_success
}

@test "completion: values for --rdma-version and --program, capture files for -r" {
	run bash -c "source '$TOP/completion/rpcrdma-decode'
		COMP_WORDS=(rpcrdma-decode --rdma-version ''); COMP_CWORD=2; _rpcrdma_decode
		echo \"\${COMPREPLY[*]}\"
		COMP_WORDS=(rpcrdma-decode --program n); COMP_CWORD=2; _rpcrdma_decode
		echo \"\${COMPREPLY[*]}\""
	assert_line --index 0 "1 2"
	assert_line --index 1 "nfs nfs-cb nlm nfs_acl"
	mkdir -p "$BATS_TEST_TMPDIR/c/dir"
	touch "$BATS_TEST_TMPDIR"/c/{a.pcap,b.pcapng,c.cap,d.erf,e.txt,f.pcap.gz,g.pcapng.gz,h.gz}
	run bash -c "cd '$BATS_TEST_TMPDIR/c'; source '$TOP/completion/rpcrdma-decode'
		COMP_WORDS=(rpcrdma-decode -r ''); COMP_CWORD=2; _rpcrdma_decode
		printf '%s\n' \"\${COMPREPLY[@]}\" | sort"
	assert_output "$(printf '%s\n' a.pcap b.pcapng c.cap d.erf dir/ f.pcap.gz g.pcapng.gz)"
}

@test "man page renders without warnings" {
	command -v man >/dev/null || skip "man is not installed"
	run bash -c "man --warnings -l '$TOP/man/rpcrdma-decode.1' 2>&1 >/dev/null"
	assert_success
	assert_output ""
}

# the N-th .EX block of the man page's EXAMPLES, roff escapes undone
man_example() {
	sed -n '/^\.SH EXAMPLES/,/^\.SH /p' "$TOP/man/rpcrdma-decode.1" |
		awk -v want="$1" '/^\.EX/ { n++; next } /^\.EE/ { if (n == want) exit; next }
			n == want' |
		sed -e 's/\\-/-/g' -e "s/\\\\(aq/'/g"
}

@test "the man page's --hex examples print what the page shows" {
	local i text cmd expect
	for i in 1 2; do
		text=$(man_example "$i")
		# the command: "$ ..." and its indented continuation lines
		cmd=$(printf '%s\n' "$text" | awk 'NR == 1 || (c && /^    /) { c = 1; print; next } { c = 0 }' |
			sed -e '1s/^\$ //')
		expect=$(printf '%s\n' "$text" | awk 'NR == 1 || (c && /^    /) { c = 1; next } { c = 0; print }')
		[ -n "$cmd" ] && [ -n "$expect" ] || fail "example $i not found"
		run bash -c "PATH='$BIN':\$PATH; $cmd"
		assert_output "$expect"
	done
}

@test "--redact takes keys, addresses or both, and nothing else" {
	cap="$TOP/tests/captures/nfs41-rocev2-rxe.pcap"
	out="$BATS_TEST_TMPDIR/red.pcap"
	for v in keys addresses keys,addresses addresses,keys; do
		run "$D" -r "$cap" -w "$out" --redact="$v" --redact-key 000102030405060708090a0b0c0d0e0f
		assert_success
	done
	assert_output --partial "IP addresses (or GIDs) replaced"
	for v in bogus keys,bogus "" keys,; do
		run "$D" -r "$cap" -w "$out" --redact="$v"
		assert_failure 2
	done
	run bash -c "source '$TOP/completion/rpcrdma-decode'
		COMP_WORDS=(rpcrdma-decode --redact = a); COMP_CWORD=3; _rpcrdma_decode
		printf '%s\n' \"\${COMPREPLY[@]}\""
	assert_output "addresses"
}
