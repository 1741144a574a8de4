#!/usr/bin/env bats
# ping.bats - rpcrdma-ping's command line: usage errors and their exit
# status, --help, --version, agreement between the parser, --help, the man
# page and the completion, and the set-up errors a machine without RDMA
# gives (live behaviour is in tests/live/cases/ping.sh).

load /usr/lib/bats/bats-support/load.bash
load /usr/lib/bats/bats-assert/load.bash
load live_opts

: "${TOP:=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)}"
: "${BIN:=$TOP/build/bin}"

setup() {
	P=$BIN/rpcrdma-ping
	[ -x "$P" ] || skip "rpcrdma-ping is not built"
}

usage_error() {     # $1 = text the message must contain
	assert_failure 2
	assert_output --partial "rpcrdma-ping: "
	assert_output --partial "$1"
	assert_output --partial "Try 'rpcrdma-ping --help'"
}

@test "--help: usage on stdout, exit 0" {
	run "$P" --help
	assert_success
	assert_line --index 0 "Usage: rpcrdma-ping [options] HOST"
	assert_output --partial "Exit status: 0"
	run "$P" -h
	assert_success
}

@test "--version: name and version, exit 0" {
	run "$P" --version
	assert_success
	assert_output --regexp '^rpcrdma-ping \(rpcrdma-tools\) [0-9]+\.[0-9]+\.[0-9]+$'
}

@test "no HOST: usage error, exit 2" {
	run "$P"
	usage_error "no HOST given"
	run "$P" -c 3
	usage_error "no HOST given"
}

@test "two hosts: usage error" {
	run "$P" a b
	usage_error "unexpected argument 'b'"
}

@test "numbers out of range or malformed: usage errors naming the option" {
	run "$P" -c 0 h;        usage_error "-c: '0' is not a number from 1"
	run "$P" -c x h;        usage_error "-c: 'x'"
	run "$P" -c 4294967296 h; usage_error "-c: '4294967296'"
	run "$P" -p 0 h;        usage_error "-p: '0' is not a number from 1 to 65535"
	run "$P" -p 65536 h;    usage_error "-p: '65536'"
	run "$P" -i -1 h;       usage_error "-i: '-1' is not a number of seconds"
	run "$P" -i 1.0000001 h; usage_error "-i: '1.0000001'"
	run "$P" -i 3601 h;     usage_error "-i: '3601'"
	run "$P" -W 0 h;        usage_error "-W: '0' is not a number of seconds from 0.000001"
	run "$P" -W 0.0001 h;   usage_error "-W: '0.0001'"
	run "$P" -V x h;        usage_error "-V: 'x'"
}

@test "programs: names, numbers, and a number without -V" {
	run "$P" -P bogus h
	usage_error "-P: 'bogus' is neither a number from 0 to 4294967295 nor one of nfs, nfs-cb, mount, nlm, portmap, echo"
	run "$P" -P 99999 h
	usage_error "program 99999 has no default version: give -V"
}

@test "unknown options and missing values" {
	run "$P" --bogus h;  usage_error "unknown or ambiguous option '--bogus'"
	run "$P" -z h;       usage_error "unknown option -z"
	run "$P" -c;         usage_error "option -c needs a value"
	run "$P" h --count;  usage_error "option --count needs a value"
}

@test "--connect-timeout: seconds with up to three decimals, 0.001 to 3600, apart from -W" {
	run "$P" --connect-timeout 0 h;      usage_error "--connect-timeout: '0' is not a number of seconds"
	run "$P" --connect-timeout 0.0001 h; usage_error "--connect-timeout: '0.0001'"
	run "$P" --connect-timeout 3601 h;   usage_error "--connect-timeout: '3601'"
	run "$P" --connect-timeout -1 h;     usage_error "--connect-timeout: '-1'"
	run "$P" h --connect-timeout;        usage_error "option --connect-timeout needs a value"
	[ -d /sys/class/infiniband ] && [ -n "$(ls /sys/class/infiniband)" ] &&
		skip "this host has RDMA devices"
	for t in 0.001 0.5 7 3600; do        # taken: the run goes on to find no device
		run "$P" -c 1 -W 1 --connect-timeout "$t" 192.0.2.1
		refute_output --partial "Try 'rpcrdma-ping --help'"
		assert_failure 3                 # no RDMA device: 3, as every tool
		assert_output --partial "rdma link add"
	done
}

@test "a machine without a usable RDMA path: set-up error, exit 2 (3: no RDMA device), with advice" {
	# 192.0.2.1 (TEST-NET-1) is reachable over RDMA from nowhere; without
	# any RDMA device the transport says how to add Soft-RoCE, and the
	# exit status is 3 as in rpcrdma-echo, -bench and -conform (issue 30)
	run "$P" -c 1 -W 1 192.0.2.1
	assert_output --regexp '^rpcrdma-ping: '
	if [ ! -d /sys/class/infiniband ] || [ -z "$(ls /sys/class/infiniband 2>/dev/null)" ]; then
		assert_failure 3
		assert_output --partial "rdma link add"
	else
		assert_failure 2
	fi
}

@test "--json: a set-up failure is one fatal object on stdout as well" {
	run bash -c "'$P' --json -c 1 -W 1 192.0.2.1 2>/dev/null"
	[ "$status" = 2 ] || [ "$status" = 3 ]   # 3: no RDMA device
	assert_output --regexp '^\{"type":"fatal","error":"[a-z-]+","message":".+","hint":'
}

@test "a host name that does not resolve: exit 2 (3 first when there is no RDMA device)" {
	run "$P" -c 1 -W 1 no-such-host.invalid
	if [ -z "$(ls /sys/class/infiniband 2>/dev/null)" ]; then assert_failure 3; else assert_failure 2; fi
	assert_output --regexp '^rpcrdma-ping: '
}

# ------------------------------------------------------------ help, man page, completion agree

man_options() {
	sed -n '/^\.SH OPTIONS/,/^\.SH /p' "$TOP/man/rpcrdma-ping.1" |
		sed 's/\\-/-/g' | grep -A1 '^\.TP' | grep -v '^\.TP' |
		grep -oE '(^|[ "])--?[a-zA-Z][a-zA-Z-]*' | tr -d ' "' | sort -u
}

help_options() {
	"$P" --help | grep -E '^ +-' | grep -oE '(^|[ ,])--?[a-zA-Z][a-zA-Z-]*' |
		tr -d ' ,' | sort -u
}

# the parser: tools/ping/ping_args.c and the common table (live_opts.bash)
parser_long_options() { live_parser_long_options "$TOP/tools/ping/ping_args.c"; }
parser_short_options() { live_parser_short_options "$TOP/tools/ping/ping_args.c"; }

completion_options() {
	bash -c "source '$TOP/completion/rpcrdma-ping'
		COMP_WORDS=(rpcrdma-ping -); COMP_CWORD=1; _rpcrdma_ping
		printf '%s\n' \"\${COMPREPLY[@]}\"" | sort -u
}

@test "--help lists exactly the options of the man page" {
	run diff <(man_options) <(help_options)
	assert_success
	[ "$(man_options | wc -l)" -ge 20 ]
}

@test "--help lists every option the parser knows, long and short" {
	run diff <(parser_long_options) <(help_options | grep -- '^--')
	assert_success
	run diff <(parser_short_options) <(help_options | grep -v -- '^--')
	assert_success
	[ "$(parser_long_options | wc -l)" -eq 14 ]
}

@test "completion offers every option the parser and --help know" {
	run diff <(help_options) <(completion_options)
	assert_success
}

@test "completion: program names for -P" {
	run bash -c "source '$TOP/completion/rpcrdma-ping'
		COMP_WORDS=(rpcrdma-ping -P n); COMP_CWORD=2; _rpcrdma_ping
		echo \"\${COMPREPLY[*]}\"
		COMP_WORDS=(rpcrdma-ping --program=e); COMP_CWORD=1; _rpcrdma_ping
		echo \"\${COMPREPLY[*]}\""
	assert_line --index 0 "nfs nfs-cb nlm"
	assert_line --index 1 "echo"
}

@test "man page renders without warnings" {
	command -v man >/dev/null || skip "man is not installed"
	run bash -c "man --warnings -l '$TOP/man/rpcrdma-ping.1' 2>&1 >/dev/null"
	assert_success
	assert_output ""
}

@test "the man page's exit statuses are the ones --help gives" {
	run bash -c "sed -n '/^\.SH EXIT STATUS/,/^\.SH /p' '$TOP/man/rpcrdma-ping.1' | grep -A1 '^\.TP' | grep -oE '^\.B [0-9]'"
	assert_output "$(printf '.B 0\n.B 1\n.B 2\n.B 3')"
}

@test "the README's rpcrdma-ping session is the man page's first example" {
	readme=$(sed -n '/^## Is the server up: rpcrdma-ping/,/^## /p' "$TOP/README.md" |
		sed -n '/^\$ rpcrdma-ping -c 3/,/^```/p' | sed '$d')
	man=$(sed -n '/^\.SH EXAMPLES/,/^\.SH /p' "$TOP/man/rpcrdma-ping.1" |
		sed -n '/^\$ rpcrdma\\-ping \\-c 3/,/^\.EE/p' | sed '$d' | sed 's/\\-/-/g')
	[ -n "$readme" ]
	[ "$readme" = "$man" ]
}
