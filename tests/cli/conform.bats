#!/usr/bin/env bats
# conform.bats - rpcrdma-conform's command line: options, usage errors and
# exit statuses, --list, the safety rule, the report's shape (text and JSON
# Lines), --only/--skip, --strict; and agreement between the parser, --help,
# the man page, the bash completion and docs/conformance.md.  Runs are made
# by rpcrdma-conform-fake, the same program over the transport's API
# implemented in process with a model responder (tests/conform/fake_xprt.c;
# RPCRDMA_FAKE picks its faults); the live runs are tests/live/cases/conform.sh.

load /usr/lib/bats/bats-support/load.bash
load /usr/lib/bats/bats-assert/load.bash
load live_opts

bats_require_minimum_version 1.5.0

: "${TOP:=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)}"
: "${BUILD:=$TOP/build}"

setup() {
	C=$BUILD/conform/rpcrdma-conform-fake
	[ -x "$C" ] || skip "$C is not built"
	A=198.18.0.1
}

usage_error() {     # $1 = text the message must contain
	assert_failure 2
	assert_output --partial "rpcrdma-conform: "
	assert_output --partial "$1"
	assert_output --partial "--help"
}

@test "--help: usage on stdout, exit 0" {
	run "$C" --help
	assert_success
	assert_line --index 0 --partial "Usage: rpcrdma-conform [options] HOST"
	run "$C" -h
	assert_success
}

@test "--version: program, package and version" {
	run "$C" --version
	assert_success
	assert_output --regexp '^rpcrdma-conform \(rpcrdma-tools\) [0-9]+\.[0-9]+\.[0-9]+$'
}

@test "usage errors exit 2" {
	run "$C"
	usage_error "give the responder's HOST"
	run "$C" --bogus $A
	usage_error "--bogus: unknown option"
	run "$C" -t
	usage_error "needs an argument"
	run "$C" -t 5 $A
	usage_error "--timeout 5: give milliseconds"
	run "$C" -p 0 $A
	usage_error "--port 0: not a port number"
	run "$C" -p 70000 $A
	usage_error "--port 70000"
	run "$C" --program nfs4 $A
	usage_error "--program nfs4: give auto, echo or nfs"
	run "$C" --fh 0g $A
	usage_error "--fh 0g: give the file handle in hex, 1 to 64 bytes"
	run "$C" --fh abc $A
	usage_error "--fh abc: give the file handle in hex"
	run "$C" --fh "$(printf 'ab%.0s' $(seq 65))" $A
	usage_error "give the file handle in hex, 1 to 64 bytes"
	run "$C" --file '' $A
	usage_error "--file : give the file's path on the server"
	run "$C" -v -q $A
	usage_error "-v and -q cannot be used together"
	run "$C" $A 198.18.0.2
	usage_error "one host only"
	run "$C" -a $A 198.18.0.2
	usage_error "the host given twice"
	run "$C" --only no-such-case $A
	usage_error "no case matches"
}

@test "--connect-timeout: seconds with up to three decimals, 0.001 to 3600" {
	run "$C" --connect-timeout 0 $A
	usage_error "--connect-timeout 0: not a number of seconds"
	run "$C" --connect-timeout 1.0001 $A
	usage_error "--connect-timeout 1.0001"
	run "$C" --connect-timeout 3601 $A
	usage_error "--connect-timeout 3601"
	run "$C" --connect-timeout 0.25 --only 'v1-*' $A    # taken: the run goes on
	refute_output --partial "--help"
}

@test "safety: a host outside the test bed needs --yes" {
	run "$C" 10.0.0.1
	usage_error "10.0.0.1 is outside the test bed's addresses"
	assert_output --partial "needs --yes"
	run "$C" 2001:db8::1
	usage_error "outside the test bed"
	# nothing is sent: the notice comes only once the run may start
	refute_output --partial "sending"
}

@test "safety: an unknown host exits 3" {
	run "$C" no-such-host.invalid
	assert_failure 3
	assert_output --partial "no-such-host.invalid"
}

@test "the notice on stderr before any traffic" {
	run bash -c "'$C' --only vers-3 $A 2>&1 >/dev/null"
	assert_success
	assert_output --partial "rpcrdma-conform: sending 1 cases of malformed and unusual RPC-over-RDMA messages to $A port 20049, one at a time"
}

@test "--list: every case, one line each; no traffic, no host" {
	run "$C" --list
	assert_success
	[ "${#lines[@]}" -ge 170 ]
	assert_line --regexp '^v1-read-disc-2 +V1 §5\.5\.2 +MUST +optional-data discriminator'
	assert_line --regexp '^v1-proc-done +V1 §5\.6\.2 +SHOULD +RDMA_DONE'
	assert_line --regexp '^credit-overrun +V1 §4\.3\.1 +D-CONF-8 '
	assert_line --regexp '^v2-optional-unknown-type +V2 §3\.1 +MUST'
	assert_line --regexp '^bidi-xid-spaces +BIDI §2\.4\.1'
	# names are unique
	[ "$("$C" --list | awk '{ print $1 }' | sort | uniq -d)" = "" ]
}

@test "--list --only/--skip by draft, section and name" {
	run "$C" --list --only V2
	assert_success
	refute_output --regexp ' V1 §'
	refute_output --regexp ' BIDI §'
	assert_output --partial "v2-negotiation"
	run "$C" --list --only 'V1 §5.5'
	refute_output --partial "§5.6"
	assert_output --partial "V1 §5.5.1"
	assert_output --partial "V1 §5.5.2"
	run "$C" --list --only V1:5.5.1
	assert_output --partial "vers-0"
	refute_output --partial "§5.5.2"
	run "$C" --list --only 'v1-read-*' --skip v1-read-disc-2
	assert_output --partial "v1-read-disc-ffffffff"
	refute_output --partial "v1-read-disc-2 "
	refute_output --partial "v1-write"
	run "$C" --list --only vers-0,vers-3
	[ "${#lines[@]}" -eq 2 ]
}

@test "--list --json: one object per case" {
	run "$C" --list --json --only V1:5.6
	assert_success
	[ "${#lines[@]}" -eq 3 ]
	assert_line --index 0 --regexp '^\{"case":"v1-proc-msgp","draft":"V1","section":"V1 §5\.6\.1","level":"SHOULD",'
}

@test "a run against a responder that follows the drafts: exit 0, totals per draft" {
	run bash -c "'$C' $A 2>/dev/null"
	assert_success
	assert_line --index 0 "rpcrdma-conform: $A port 20049, program echo"
	assert_line --regexp '^  PASS     V1 §5\.5\.2 +MUST   optional-data discriminator is neither 0 nor 1: answered with ERR_BADHEADER \[v1-read-disc-2\]$'
	assert_line --regexp '^V1 +[0-9]+ cases: [0-9]+ passed, 0 failed \(0 MUST, 0 SHOULD\), [0-9]+ allowed, 0 noted, 0 skipped$'
	assert_line --regexp '^V2 +[0-9]+ cases: '
	assert_line --regexp '^BIDI +[0-9]+ cases: '
	assert_line --regexp '^total +17[0-9] cases: '
	refute_line --regexp '^  FAIL'
}

@test "a failure: expected, observed and the bytes; exit 1 on MUST" {
	RPCRDMA_FAKE=wrong-error run "$C" --only v1-read-disc-2 $A
	assert_failure 1
	assert_line --regexp '^  FAIL     V1 §5\.5\.2 +MUST .*\[v1-read-disc-2\]$'
	assert_line "           expected: RDMA_ERROR ERR_BADHEADER, rdma_xid and rdma_vers echoed"
	assert_line --regexp '^           observed: RDMA_ERROR RDMA_ERR_VERS 1\.\.2 \(xid 0x[0-9a-f]{8}, vers 1, credits 32\)$'
	assert_line --regexp '^           case sent 68 bytes: [0-9a-f]{8} 00000001 00000020 00000000 00000002 '
	assert_line --regexp '^           case received 28 bytes: '
	# the sentence the failure rests on, exactly
	assert_line '           rests on: V1 §5.5.2 "If the rdma_vers field contains a recognized value, but an XDR parsing error occurs, the responder MUST reply with an RDMA_ERROR procedure and set the rdma_err value to RDMA_ERR_BADHEADER." [V1-5.5.2-badheader]'
}

@test "a NOTE (our reading) is shown with its decision and never fails the run, even --strict" {
	RPCRDMA_FAKE=wrong-error run "$C" --only v1-msg-missing-payload,v1-write-empty-chunk --strict $A
	assert_success
	assert_line --regexp '^  NOTE     V1 §5\.5\.2 +D-MSG-1 .*\[v1-msg-missing-payload\]$'
	assert_line --regexp '^  NOTE     V1 §5\.5\.2 +D-CHUNK-1 .*\[v1-write-empty-chunk\]$'
	assert_line --partial 'not a failure: no sentence of the seeds decides; our reading is D-MSG-1'
	assert_line --regexp '^V1 +2 cases: 0 passed, 0 failed \(0 MUST, 0 SHOULD\), 0 allowed, 2 noted, 0 skipped$'
	refute_line --regexp '^  FAIL'
}

@test "docs/requirements.md is current (make requirements-doc) and every case's requirement exists" {
	"$C" --list --json > "$BATS_TEST_TMPDIR/list.json"
	"$TOP/tools/conform/req-doc.sh" "$TOP/docs/requirements.tsv" "$BATS_TEST_TMPDIR/list.json" > "$BATS_TEST_TMPDIR/req.md"
	run diff "$TOP/docs/requirements.md" "$BATS_TEST_TMPDIR/req.md"
	[ "$status" -eq 0 ] || { echo "docs/requirements.md is out of date: run make requirements-doc"; echo "$output" | head; false; }
	ids=$(awk -F'\t' '!/^#/ && NF { print $1 }' "$TOP/docs/requirements.tsv")
	missing=
	for r in $(grep -o '"requirements":"[^"]*"' "$BATS_TEST_TMPDIR/list.json" | cut -d'"' -f4 | tr ' ' '\n' | sort -u); do
		grep -qxF "$r" <<< "$ids" || missing+=" $r"
	done
	[ -z "$missing" ] || { echo "not in docs/requirements.tsv:$missing"; false; }
}

@test "every catalogue sentence is word for word in its seed; a changed word is caught" {
	specs=${RPCRDMA_SPECS:-$TOP/../shared/specs}
	[ -r "$specs/draft-ietf-nfsv4-rfc5666bis-04.txt" ] || skip "the seed texts are not at $specs"
	run "$TOP/tools/conform/req-check.sh" "$specs" "$TOP/docs/requirements.tsv"
	assert_success
	sed 's/The granted value MUST NOT be zero/The granted value SHOULD NOT be zero/' \
		"$TOP/docs/requirements.tsv" > "$BATS_TEST_TMPDIR/bad.tsv"
	run "$TOP/tools/conform/req-check.sh" "$specs" "$BATS_TEST_TMPDIR/bad.tsv"
	assert_failure 1
	assert_output --partial "V1-4.3.1-grant: not found in V1"
}

@test "SHOULD failures: exit 0, 1 with --strict; -q shows only failures" {
	RPCRDMA_FAKE=wrong-error run "$C" --only V1:5.6,vers-3 -q $A
	assert_success
	assert_line --regexp '^  FAIL     V1 §5\.6\.1 +SHOULD'
	refute_line --regexp '^  PASS'
	assert_line --regexp '^V1 +4 cases: 1 passed, 3 failed \(0 MUST, 3 SHOULD\)'
	RPCRDMA_FAKE=wrong-error run "$C" --only V1:5.6 --strict $A
	assert_failure 1
}

@test "-v: expected, observed and bytes of passing cases too" {
	run "$C" -v --only vers-3 $A
	assert_success
	assert_line "           expected: RDMA_ERROR ERR_VERS, rdma_xid and rdma_vers echoed"
	assert_line --regexp '^           observed: RDMA_ERROR RDMA_ERR_VERS 1\.\.2 \(xid 0x[0-9a-f]{8}, vers 3, credits 32\)$'
	assert_line --regexp '^           case sent 68 bytes: [0-9a-f]{8} 00000003 00000020 00000000 '
}

@test "--json: the run, every case with its bytes, the summary" {
	RPCRDMA_FAKE=silent-vers run bash -c "'$C' --json --only 'V1:5.5.1,v1-trunc-prefix-8-bytes' $A 2>/dev/null"
	assert_failure 1
	assert_line --index 0 --regexp '^\{"run":\{"target":"198\.18\.0\.1 port 20049","program":"echo","peer":"'
	assert_line --regexp '^\{"case":"vers-0",.*"result":"fail","fail_level":"MUST",.*"reaction":"discard","sent_verdict":"reply_err_vers","xids":\["0x[0-9a-f]{8}"\],.*"messages":\[\{"dir":"sent","role":"case","len":68,"hex":"[0-9a-f]{8}00000000'
	assert_line --regexp '^\{"case":"v1-trunc-prefix-8-bytes",.*"result":"pass",.*"reaction":"err_badheader"'
	assert_line --index $((${#lines[@]} - 1)) --regexp '^\{"summary":\{"V1":\{"passed":4,"failed":[0-9]+,"failed_must":[0-9]+,'
	# one line per case, plus the run and the summary
	[ "${#lines[@]}" -eq $(($("$C" --list --only 'V1:5.5.1,v1-trunc-prefix-8-bytes' | wc -l) + 2)) ]
}

@test "--json-file: the text on stdout, the same JSON Lines in the file" {
	run "$C" --json --json-file x $A
	usage_error "--json and --json-file cannot be used together"
	run bash -c "'$C' --only 'vers-*' --json-file '$BATS_TEST_TMPDIR/r.jsonl' $A 2>/dev/null"
	assert_success
	assert_line --regexp '^total +7 cases: 7 passed'
	run cat "$BATS_TEST_TMPDIR/r.jsonl"
	[ "${#lines[@]}" -eq 9 ]
	assert_line --index 8 --regexp '^\{"summary":\{"V1":\{"passed":7,'
	run "$C" --only 'vers-3' --json-file /nonexistent/dir/r.jsonl $A
	assert_failure 3
	assert_output --partial "/nonexistent/dir/r.jsonl: No such file or directory"
}

@test "a crash: a NOTE (no sentence), the listener gone, the rest skipped, exit 1" {
	RPCRDMA_FAKE=crash-on-done run "$C" --only 'v1-proc-done,v1-proc-5' $A
	assert_failure 1
	assert_line --regexp '^  NOTE     V1 §5\.6\.2 +D-CONF-2 .*\[v1-proc-done\]$'
	assert_output --regexp 'observed: the listener gone \(connect: .*Connection refused\)'
	assert_line --regexp '^  SKIP .*\[v1-proc-5\]$'
	assert_output --partial "skipped: the responder is gone"
}

@test "a Version One-only responder: V2 cases skipped, the refusal graded" {
	RPCRDMA_FAKE=v1-only run "$C" --only 'V2,vers-*' $A
	assert_success
	assert_line --regexp '^  PASS     V2 §5\.2 +MUST .*\[v2-negotiation\]$'
	assert_line --regexp '^  SKIP     V2 §4\.2\.3 .*\[v2-read-disc-2\]$'
	assert_output --partial "skipped: the responder does not speak Version Two (ERR_VERS 1..1)"
}

@test "--timeout: a hung connection costs one timeout and fails as MUST V1 §5.5.4" {
	RPCRDMA_FAKE=hang-on-msgp run "$C" -t 200 --only v1-proc-msgp,vers-3 $A
	assert_failure 1
	assert_line --regexp '^  FAIL     V1 §5\.5\.4 +MUST .*\[v1-proc-msgp\]$'
	assert_line --regexp '^  PASS .*\[vers-3\]$'
}

@test "the real rpcrdma-conform has the same command line and cases" {
	R=$BUILD/bin/rpcrdma-conform
	[ -x "$R" ] || skip "$R is not built (it needs the transport)"
	run diff <("$R" --help) <("$C" --help)
	assert_success
	run diff <("$R" --list --json) <("$C" --list --json)
	assert_success
	run "$R" 10.0.0.1
	usage_error "needs --yes"
}

# ------------------------------------------------------------ --requester (the other side)

@test "--requester, --serve, --mount-port: usage errors exit 2" {
	run "$C" --serve
	usage_error "--serve needs --requester"
	run "$C" --mount-port 20048 $A
	usage_error "--mount-port needs --requester"
	run "$C" --requester --serve --list
	usage_error "--requester and --list cannot be used together"
	run "$C" --requester --serve --mount-port 0
	usage_error "--mount-port 0: not a port number (1 to 65535)"
	run "$C" --requester --serve --mount-port 70000
	usage_error "--mount-port 70000"
	run "$C" --requester --serve --mount-port
	usage_error "needs an argument"
}

# a free TCP port on loopback (asked of the kernel, then let go)
free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

@test "--requester --serve: MOUNT v3 MNT \"/\" over TCP on --mount-port, SIGTERM ends it with the counts, exit 0" {
	local mp pid out=$BATS_TEST_TMPDIR/serve.out
	mp=$(free_port)
	"$C" --requester --serve -a 127.0.0.1 -p 20049 --mount-port "$mp" > "$out" 2> "$out.err" &
	pid=$!
	# RFC 5531 record mark (last, 48 bytes), MOUNT (100005) v3 MNT, AUTH_NONE,
	# dirpath "/": hand-written; the reply's mountstat3 is its 29th-32nd byte
	run timeout 10 python3 -c '
import socket, struct, sys, time
port = int(sys.argv[1])
for _ in range(100):
    try:
        s = socket.create_connection(("127.0.0.1", port), timeout=5); break
    except OSError: time.sleep(0.05)
call = struct.pack(">10I", 7, 0, 2, 100005, 3, 1, 0, 0, 0, 0) + struct.pack(">I", 1) + b"/\0\0\0"
s.sendall(struct.pack(">I", 0x80000000 | len(call)) + call)
r = b""
while len(r) < 64:
    d = s.recv(64 - len(r))
    if not d: break
    r += d
mark, xid, mtype, stat, _, _, astat, mstat, fhlen = struct.unpack(">9I", r[:36])
print("mark=%x xid=%d reply=%d accepted=%d mountstat3=%d fhlen=%d fh=%s" % (mark, xid, mtype, stat + astat, mstat, fhlen, r[36:44].decode()))
' "$mp"
	kill -TERM "$pid"
	wait "$pid"; local rc=$?
	echo "$output"; cat "$out" "$out.err"
	assert_output "mark=8000003c xid=7 reply=1 accepted=0 mountstat3=0 fhlen=16 fh=rqtree03"
	[ "$rc" -eq 0 ]
	grep -q 'serving a read-only NFSv3 export "/" over RPC-over-RDMA on port 20049 and MOUNT v3 over TCP on port '"$mp" "$out.err"
	grep -qE '^  MOUNT MNT +1$' "$out"
}

@test "--requester --serve: a MOUNT port in use is an error at start, exit 3" {
	local mp ready=$BATS_TEST_TMPDIR/held
	mp=$(free_port)
	python3 -c 'import socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(1)
open(sys.argv[2], "w").close(); time.sleep(10)' "$mp" "$ready" &
	local holder=$! i
	for i in $(seq 100); do [ -e "$ready" ] && break; sleep 0.05; done
	[ -e "$ready" ]
	run timeout 10 "$C" --requester --serve -a 127.0.0.1 --mount-port "$mp"
	kill "$holder"; wait "$holder" 2>/dev/null || true
	assert_failure 3
	assert_output --partial "MOUNT over TCP, port $mp: Address already in use"
}

@test "--requester without --serve: the requester cases, each watching for -t MS; nobody came: SKIP, exit 0" {
	run --separate-stderr timeout 30 "$C" --requester -a 127.0.0.1 -t 200 --mount-port "$(free_port)"
	assert_success
	assert_line --index 0 --partial "rpcrdma-conform --requester: 7 cases on port 20049, each watching the requesters that connect for 200 ms"
	assert_line --regexp '^SKIP +rq-first-one-call .*\[V1-4.3.3-first,V2-5-single\]$'
	assert_line --regexp '^SKIP +rq-grant-1 .*\[V1-4.3.1-limit,V1-5.2.3-limit,V1-4.3.3-first\]$'
	assert_line --regexp '^SKIP +rq-calls-valid .*\[V1-5.2.1-xid,V1-5.2.2-one,V1-5.2.4-nomsg,V1-5.6.1-send,V1-5.6.2-send,V1-4.4.5.1-mult4\]$'
	assert_line --regexp '^SKIP +rq-read-write-chunk .*\[V1-4.4.6-register\]$'
	assert_line --regexp '^SKIP +rq-reply-chunk .*\[V1-5.3.3-provide\]$'
	assert_line --regexp '^SKIP +rq-inline-default .*\[V1-4.3.3-assume,V1-5.2.4-gather\]$'
	assert_line --regexp '^SKIP +rq-read-chunks .*\[V1-4.4.5-position,V1-4.4.4.1-count,V1-4.4.5.1-pad\]$'
	assert_line --partial "observed: 0 call(s) seen, 2 needed: no requester drove this case"
	assert_line --partial "observed: 0 message(s) seen, 3 needed: no requester drove this case"
	assert_line "total  7 cases: 0 passed, 0 failed, 7 skipped, 0 noted"
	# stderr: where each case begins and ends, for a driver to mount by
	# (tests/live/cases/requester.sh)
	[ "$(grep -c '^rpcrdma-conform: case rq-[a-z0-9-]*: listening on port 20049 for 200 ms$' <<<"$stderr")" -eq 7 ]
	[ "$(grep -c '^rpcrdma-conform: case rq-[a-z0-9-]*: done (0 calls, 0 connection(s))$' <<<"$stderr")" -eq 7 ]
}

@test "--requester --faults: the seven fault cases instead (issue 26 item 2); nobody came: SKIP, exit 0; usage errors" {
	run --separate-stderr timeout 30 "$C" --requester --faults -a 127.0.0.1 -t 200 --mount-port "$(free_port)"
	assert_success
	assert_line --index 0 --partial "rpcrdma-conform --requester: 7 cases on port 20049"
	assert_line --regexp '^SKIP +rq-grant-shrink .*\[V1-4.3.1-limit,V1-5.2.3-limit,V1-4.3.3-first\]$'
	assert_line --regexp '^SKIP +rq-grant-grow .*\[V1-4.3.1-limit,V1-4.3.3-first\]$'
	assert_line --regexp '^SKIP +rq-grant-0 .*\[V1-4.3.3-first\]$'
	assert_line --regexp '^SKIP +rq-err-vers '
	assert_line --regexp '^SKIP +rq-err-badheader '
	assert_line --regexp '^SKIP +rq-stray-xid '
	assert_line --regexp '^SKIP +rq-write-short '
	assert_line "total  7 cases: 0 passed, 0 failed, 7 skipped, 0 noted"
	[ "$(grep -c '^rpcrdma-conform: case rq-[a-z0-9-]*: listening on port 20049 for 200 ms$' <<<"$stderr")" -eq 7 ]
	run "$C" --faults 127.0.0.1
	usage_error "--faults needs --requester"
	run "$C" --requester --serve --faults
	usage_error "--faults and --serve cannot be used together"
}

@test "--requester --json: a run record, one object per case, a summary; --json-file: both; --serve refuses them" {
	run --separate-stderr timeout 30 "$C" --requester -a 127.0.0.1 -t 200 --mount-port "$(free_port)" --json
	assert_success
	assert_equal "${#lines[@]}" 9
	run jq -sc '[.[0].run.mode, .[0].run.cases, .[1].case, .[1].result, .[2].case, .[8].summary.total.skipped, .[8].summary.total.noted]' <<<"$output"
	assert_output '["requester",7,"rq-first-one-call","skip","rq-grant-1",7,0]'
	run --separate-stderr timeout 30 "$C" --requester -a 127.0.0.1 -t 200 --mount-port "$(free_port)" --json-file "$BATS_TEST_TMPDIR/r.jsonl"
	assert_success
	assert_line "total  7 cases: 0 passed, 0 failed, 7 skipped, 0 noted"
	assert_equal "$(jq -s length "$BATS_TEST_TMPDIR/r.jsonl")" 9
	run "$C" --requester --serve --json
	usage_error "--serve prints what was served, no report: --json and --json-file go with the requester cases"
	run "$C" --requester --json --json-file x
	usage_error "--json and --json-file cannot be used together"
}

@test "completion: --mount-port offers 20048" {
	run bash -c "source '$TOP/completion/rpcrdma-conform'
		COMP_WORDS=(rpcrdma-conform --mount-port ''); COMP_CWORD=2; _rpcrdma_conform
		printf '%s\n' \"\${COMPREPLY[@]}\""
	assert_output "20048"
}

# ------------------------------------------------------------ help, man page, completion, docs agree

man_options() {
	sed -n '/^\.SH OPTIONS/,/^\.SH /p' "$TOP/man/rpcrdma-conform.1" |
		sed 's/\\-/-/g' | grep -A1 '^\.TP' | grep -v '^\.TP' |
		grep -oE '(^|[ "])--?[a-zA-Z][a-zA-Z-]*' | tr -d ' "' | sort -u
}

help_options() {
	"$C" --help | grep -E '^ +-' | grep -oE '(^|[ ,])--?[a-zA-Z][a-zA-Z-]*' |
		tr -d ' ,' | sort -u
}

# the parser: tools/conform/main.c and the common table (live_opts.bash)
parser_long_options() { live_parser_long_options "$TOP/tools/conform/main.c"; }

completion_options() {
	bash -c "source '$TOP/completion/rpcrdma-conform'
		COMP_WORDS=(rpcrdma-conform -); COMP_CWORD=1; _rpcrdma_conform
		printf '%s\n' \"\${COMPREPLY[@]}\"" | sort -u
}

@test "--help lists exactly the options of the man page and the parser" {
	run diff <(man_options) <(help_options)
	assert_success
	run diff <(parser_long_options) <(help_options | grep -- '^--')
	assert_success
	[ "$(parser_long_options | wc -l)" -eq 23 ]
}

@test "completion offers every option; values for --program" {
	run diff <(help_options) <(completion_options)
	assert_success
	run bash -c "source '$TOP/completion/rpcrdma-conform'
		COMP_WORDS=(rpcrdma-conform --program ''); COMP_CWORD=2; _rpcrdma_conform
		echo \"\${COMPREPLY[*]}\""
	assert_output "auto echo nfs"
}

@test "man page renders without warnings" {
	command -v man >/dev/null || skip "man is not installed"
	run bash -c "man --warnings -l '$TOP/man/rpcrdma-conform.1' 2>&1 >/dev/null"
	assert_success
	assert_output ""
}

@test "docs/conformance.md lists every case as the code has it (make conform-doc rewrites it)" {
	"$C" --list --json > "$BATS_TEST_TMPDIR/list.json"
	cp "$TOP/docs/conformance.md" "$BATS_TEST_TMPDIR/doc.md"
	"$TOP/tools/conform/doc-table.sh" "$BATS_TEST_TMPDIR/list.json" "$BATS_TEST_TMPDIR/doc.md"
	run diff "$TOP/docs/conformance.md" "$BATS_TEST_TMPDIR/doc.md"
	[ "$status" -eq 0 ] || { echo "docs/conformance.md is out of date: run make conform-doc"; echo "$output" | head -20; false; }
	missing=
	while read -r name draft sec level _; do
		grep -qF "| \`$name\` | $draft $sec | $level |" "$TOP/docs/conformance.md" ||
			missing+=" $name"
	done < <("$C" --list)
	[ -z "$missing" ] || { echo "not in docs/conformance.md:$missing"; false; }
}

@test "no blind spot: an answer to a 3-byte message is seen (its own connection), an answer matching no xid is flagged" {
	run "$C" --only 'v1-short-prefix-*' $A
	assert_success
	assert_line --regexp '^  PASS     V1 §5\.5 +D-CONF-4 .*\[v1-short-prefix-3-bytes\]$'
	RPCRDMA_FAKE=answer-short run "$C" --only 'v1-short-prefix-*' $A
	assert_success
	assert_line --regexp '^  NOTE     V1 §5\.5 +D-CONF-4 .*\[v1-short-prefix-3-bytes\]$'
	assert_output --regexp 'observed: RDMA_ERROR RDMA_ERR_BADHEADER \(xid 0x[0-9a-f]{8}, vers 1'
	RPCRDMA_FAKE=stray-answer run "$C" --only reply-xid $A
	assert_success
	assert_line --regexp '^  NOTE     V1 §5\.2\.1 +D-CONF-10 .*\[reply-xid\]$'
	assert_output --regexp 'answer\(s\) with an xid that matches nothing sent \(the first 0x[0-9a-f]{8}\)'
}

@test "a new connection whose first message is lost is made again once, and the report says so" {
	RPCRDMA_FAKE=lose-first-send run "$C" --only inline-over,reply-xid $A
	assert_success
	assert_output --partial "retried: a new connection, once: the first probe of a new connection went unanswered"
	assert_line "retried 1 connection(s) once: the first message of a new connection went unanswered"
	# the first connection's first probe lost: made again too, counted
	RPCRDMA_FAKE=lose-first-send=1 run "$C" --only inline-over,reply-xid $A
	assert_success
	assert_output --partial "rpcrdma-conform: the first probe of the first connection went unanswered: connected again, once"
	assert_line "retried 1 connection(s) once: the first message of a new connection went unanswered"
	RPCRDMA_FAKE=lose-first-send run "$C" --json --only inline-over,reply-xid $A
	assert_output --partial '"retried":1,"retry_why":"the first probe of a new connection went unanswered"'
	assert_output --partial '"retried_connections":1'
}
