#!/usr/bin/env bats
# echo.bats - rpcrdma-echo's command line: usage errors and their exit
# status, --help against the man page, the parser and the completion, and
# what it says on a host without RDMA.  Talking to a peer is tested live
# (tests/live/cases/echo.sh).

load /usr/lib/bats/bats-support/load.bash
load /usr/lib/bats/bats-assert/load.bash
load live_opts

: "${TOP:=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)}"
: "${BIN:=$TOP/build/bin}"
E=$BIN/rpcrdma-echo

usage_error() {     # $1 = text the message must contain
	assert_failure 2
	assert_output --partial "rpcrdma-echo: "
	assert_output --partial "$1"
	assert_output --partial "Try 'rpcrdma-echo --help'"
}

@test "--help: usage on stdout, exit 0" {
	run "$E" --help
	assert_success
	assert_line --index 0 --partial "Usage: rpcrdma-echo [options] HOST"
	assert_output --partial "Exit status:"
	run "$E" -h
	assert_success
}

@test "--version" {
	run "$E" --version
	assert_success
	assert_output --regexp '^rpcrdma-echo \(rpcrdma-tools\) [0-9]+\.[0-9]+\.[0-9]+$'
}

@test "usage errors: exit 2, the cause, a hint" {
	run "$E";                          usage_error "no server given"
	run "$E" --bogus h;                 usage_error "unknown or ambiguous option '--bogus'"
	run "$E" -x h;                      usage_error "unknown option -x"
	run "$E" -S;                        usage_error "option -S needs a value"
	run "$E" --chunk;                   usage_error "option --chunk needs a value"
	run "$E" h1 h2;                     usage_error "unexpected argument 'h2'"
	run "$E" -a h1 h2;                  usage_error "the server is given twice"
	run "$E" -p 0 h;                    usage_error "-p: '0' is not a number from 1 to 65535"
	run "$E" -p 20049x h;               usage_error "-p: '20049x'"
	run "$E" -c -1 h;                   usage_error "-c: '-1' is not a number"
	run "$E" -S 1048577 h;              usage_error "-S: '1048577' is not a size from 0 to 1048576"
	run "$E" -S 2m h;                   usage_error "-S: '2m'"
	run "$E" -S 1,,x h;                 usage_error "-S: 'x'"
	run "$E" -S , h;                    usage_error "-S: no size"
	run "$E" -t 0 h;                    usage_error "-t: '0' is not a number from 1 to 1024"
	run "$E" --chunk fast h;            usage_error "--chunk: 'fast' is not auto, inline, read, pos0, write or reply"
	run "$E" --chunk read,,fast h;      usage_error "--chunk: 'fast' is not auto"
	run "$E" --chunk , h;               usage_error "--chunk: no mode"
	run "$E" --chunk auto,auto,auto,auto,auto,auto,auto h; usage_error "--chunk: at most 6 modes"
	run "$E" --versions 3 h;            usage_error "--versions: '3' is not 1, 2 or 1,2"
	run "$E" --credits 0 h;             usage_error "--credits: '0' is not a number from 1 to 1024"
	run "$E" --inline-threshold 512 h;  usage_error "--inline-threshold: '512' is not a number from 1024 to 262144"
	run "$E" --backward 65 h;           usage_error "--backward: '65' is not a number from 0 to 64"
	run "$E" --null --backward 2 h;     usage_error "--backward needs ECHO calls"
	run "$E" --program nfs --backward 1 h; usage_error "--backward needs ECHO calls"
	run "$E" --program bogus h;         usage_error "--program: 'bogus' is neither a number"
	run "$E" --timeout 0 h;             usage_error "--timeout: '0'"
	run "$E" --misbehave drop-bad h;    usage_error "--misbehave is a server option (needs -s)"
	run "$E" -s -c 3;                   usage_error "-c is a client option (not with -s)"
	run "$E" -s --chunk read;           usage_error "--chunk is a client option"
	run "$E" -s h;                      usage_error "unexpected argument 'h' (the server binds to -a ADDR)"
	run "$E" -s --misbehave rude;       usage_error "--misbehave: 'rude' is not wrong-error, drop-bad, silent-vers, zero-credit (server), no-first-wait, ignore-grant, keep-read-pad or send-done (client)"
	run "$E" -s --misbehave ignore-grant; usage_error "--misbehave ignore-grant is a client option (not with -s)"
	run "$E" -s --misbehave no-first-wait; usage_error "--misbehave no-first-wait is a client option (not with -s)"
	run "$E" -s --misbehave keep-read-pad; usage_error "--misbehave keep-read-pad is a client option (not with -s)"
	run "$E" -s --misbehave send-done;  usage_error "--misbehave send-done is a client option (not with -s)"
}

@test "sizes take k and m suffixes, counts 0x hex, chunk lists (parsed, then no RDMA)" {
	[ -d /sys/class/infiniband ] && [ -n "$(ls /sys/class/infiniband)" ] &&
		skip "this host has RDMA devices"
	run "$E" -S 0,1k,64K,1m -c 0x2 --chunk read,write --timeout 500 192.0.2.1
	refute_output --partial "Try 'rpcrdma-echo --help'"
	assert_failure 3
}

@test "--connect-timeout: seconds with up to three decimals, 0.001 to 3600" {
	run "$E" --connect-timeout 0 h;      usage_error "--connect-timeout: '0' is not a number of seconds"
	run "$E" --connect-timeout 1.2345 h; usage_error "--connect-timeout: '1.2345' is not a number of seconds"
	run "$E" --connect-timeout 3601 h;   usage_error "--connect-timeout: '3601'"
	run "$E" --connect-timeout 2s h;     usage_error "--connect-timeout: '2s'"
	run "$E" --connect-timeout;          usage_error "option --connect-timeout needs a value"
	[ -d /sys/class/infiniband ] && [ -n "$(ls /sys/class/infiniband)" ] &&
		skip "this host has RDMA devices"
	for t in 0.001 0.25 2 3600; do       # taken: the run goes on to find no device
		run "$E" --connect-timeout "$t" --timeout 500 192.0.2.1
		refute_output --partial "Try 'rpcrdma-echo --help'"
		assert_failure 3
	done
}

@test "no RDMA device: exit 3, and how to add Soft-RoCE" {
	[ -d /sys/class/infiniband ] && [ -n "$(ls /sys/class/infiniband)" ] &&
		skip "this host has RDMA devices"
	run "$E" --timeout 500 192.0.2.1
	assert_failure 3
	assert_output --partial "rpcrdma-echo: "
	assert_output --partial "rdma link add rxe0 type rxe netdev"
	run "$E" -s -p 20099
	assert_failure 3
	assert_output --partial "rdma link add rxe0 type rxe netdev"
}

# ------------------------------------------------------------ help, man page, completion agree

man_options() {
	sed -n '/^\.SH OPTIONS/,/^\.SH /p' "$TOP/man/rpcrdma-echo.1" |
		sed 's/\\-/-/g' | grep -A1 '^\.TP' | grep -v '^\.TP' |
		grep -oE '(^|[ "])--?[a-zA-Z0-9][a-zA-Z-]*' | tr -d ' "' | sort -u
}

help_options() {
	"$E" --help | grep -E '^ +-' | grep -oE '(^|[ ,])--?[a-zA-Z0-9][a-zA-Z-]*' |
		tr -d ' ,' | sort -u
}

# the parser: tools/echo/main.c and the common table (live_opts.bash)
parser_long_options() { live_parser_long_options "$TOP/tools/echo/main.c"; }
parser_short_options() { live_parser_short_options "$TOP/tools/echo/main.c"; }

completion_options() {
	bash -c "source '$TOP/completion/rpcrdma-echo'
		COMP_WORDS=(rpcrdma-echo -); COMP_CWORD=1; _rpcrdma_echo
		printf '%s\n' \"\${COMPREPLY[@]}\"" | sort -u
}

@test "--help lists exactly the options of the man page" {
	run diff <(man_options) <(help_options)
	assert_success
	[ "$(man_options | wc -l)" -ge 39 ]
}

@test "--help lists every option the parser knows, long and short" {
	run diff <(parser_long_options) <(help_options | grep -- '^--')
	assert_success
	[ "$(parser_long_options | wc -l)" -eq 26 ]
	run diff <(parser_short_options) <(help_options | grep -v -- '^--')
	assert_success
}

@test "completion offers every option --help lists" {
	run diff <(help_options) <(completion_options)
	assert_success
}

@test "completion: values for --chunk, --versions, --misbehave" {
	run bash -c "source '$TOP/completion/rpcrdma-echo'
		COMP_WORDS=(rpcrdma-echo --chunk r); COMP_CWORD=2; _rpcrdma_echo
		echo \"\${COMPREPLY[*]}\"
		COMP_WORDS=(rpcrdma-echo --versions ''); COMP_CWORD=2; _rpcrdma_echo
		echo \"\${COMPREPLY[*]}\"
		COMP_WORDS=(rpcrdma-echo -s --misbehave=d); COMP_CWORD=2; _rpcrdma_echo
		echo \"\${COMPREPLY[*]}\""
	assert_line --index 0 "read reply"
	assert_line --index 1 "1 2 1,2"
	assert_line --index 2 "drop-bad"
}

@test "man page renders without warnings, and has the sections users look for" {
	command -v man >/dev/null || skip "man is not installed"
	run bash -c "man --warnings -l '$TOP/man/rpcrdma-echo.1' 2>&1 >/dev/null"
	assert_success
	assert_output ""
	for s in OPTIONS "OUTPUT FORMAT" "EXIT STATUS" EXAMPLES; do
		grep -q "^\.SH $s" "$TOP/man/rpcrdma-echo.1"
	done
}

@test "the exit statuses of --help are the man page's" {
	local st
	for st in 0 1 2 3 4; do
		grep -A1 '^\.SH EXIT STATUS' -A200 "$TOP/man/rpcrdma-echo.1" |
			grep -q "^\.B $st\$"
		"$E" --help | tr '\n' ' ' | grep -q "$st [a-z]"
	done
}
