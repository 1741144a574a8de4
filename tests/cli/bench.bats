#!/usr/bin/env bats
# bench.bats - rpcrdma-bench's command line (man/rpcrdma-bench.1): options,
# usage errors, --help, man page and completion agreeing, the error without
# an RDMA device; and its outputs through a harness fed with synthetic
# samples (tests/cli/bench_harness.c): every column of perftest's tables,
# ordered percentiles, JSON that parses and matches the tables, plots
# written by gnuplot.  The live runs are tests/live/cases/bench.sh.

load /usr/lib/bats/bats-support/load.bash
load /usr/lib/bats/bats-assert/load.bash
load live_opts

: "${TOP:=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)}"
: "${BIN:=$TOP/build/bin}"
export TOP BIN

setup_file() {
	export HARNESS=$BATS_FILE_TMPDIR/bench_harness
	cc -std=c11 -D_DEFAULT_SOURCE -Wall -Wextra -Werror \
		-I"$TOP/tools/common" -I"$TOP/tools/bench" -I"$TOP/tools/transport" \
		-I"$TOP/libcodec/include" -o "$HARNESS" "$TOP/tests/cli/bench_harness.c" \
		"$TOP"/tools/bench/bench_{stats,report,plot}.c \
		"$TOP"/tools/common/{json,outbuf,gnuplot,live}.c -lm 2>"$BATS_FILE_TMPDIR/harness.log" || true
}

setup() {
	B=$BIN/rpcrdma-bench
}

# the binary is built once the transport defines xprt_call() (tools/bench/module.mk)
need_bin() {
	if [ ! -x "$B" ]; then
		grep -qs '^int xprt_call\>' "$TOP"/tools/transport/*.c &&
			fail "$B is missing although the transport defines xprt_call()"
		skip "rpcrdma-bench is built once the transport lands (no xprt_call() yet)"
	fi
}

need_harness() {
	[ -x "$HARNESS" ] || fail "the harness did not build: $(cat "$BATS_FILE_TMPDIR/harness.log")"
}

usage_error() {     # $1 = text the message must contain
	assert_failure 2
	assert_output --partial "rpcrdma-bench: "
	assert_output --partial "$1"
	assert_output --partial "--help"
}

# ------------------------------------------------------------ options

@test "--help and --version" {
	need_bin
	run "$B" --help
	assert_success
	assert_line --index 0 "Usage: rpcrdma-bench [options] HOST"
	run "$B" --version
	assert_success
	assert_output --regexp '^rpcrdma-bench \(rpcrdma-tools\) [0-9]+\.[0-9]+\.[0-9]+$'
}

@test "usage errors exit 2 and name the option" {
	need_bin
	run "$B"
	usage_error "no HOST given"
	run "$B" -s 1048577 h
	usage_error "-s: '1048577' is not a number from 0 to 1048576"
	run "$B" -s 2 -a h
	usage_error "-s and -a cannot be used together"
	run "$B" -n 5 -D 2 h
	usage_error "-n and -D cannot be used together"
	run "$B" -P nfs -s 64 h
	usage_error "NULL calls carry no data"
	run "$B" --null -a h
	usage_error "NULL calls carry no data"
	run "$B" --chunk sideways h
	usage_error "--chunk: 'sideways' is not auto, inline, read, pos0, write or reply"
	run "$B" --plot out.pdf h
	usage_error "--plot: 'out.pdf' does not end in .svg, .png or .gp"
	run "$B" -P nfs --plot out.svg h
	usage_error "NULL calls have none"
	run "$B" --versions 3 h
	usage_error "--versions: '3' is not 1, 2 or 1,2"
	run "$B" -t 0 h
	usage_error "-t: '0' is not a number from 1 to 1024"
	run "$B" -P bogus h
	usage_error "-P: 'bogus' is neither a program number"
	run "$B" --timeout 1x h
	usage_error "--timeout: '1x' is not a number"
	run "$B" h1 h2
	usage_error "unexpected argument 'h2'"
	run "$B" --frobnicate h
	usage_error "unknown or ambiguous option '--frobnicate'"
	run "$B" -n
	usage_error "option -n needs a value"
}

@test "--connect-timeout: seconds with up to three decimals, 0.001 to 3600" {
	need_bin
	run "$B" --connect-timeout 0 h;      usage_error "--connect-timeout: '0' is not a number of seconds"
	run "$B" --connect-timeout 0.5.5 h;  usage_error "--connect-timeout: '0.5.5'"
	run "$B" --connect-timeout 3601 h;   usage_error "--connect-timeout: '3601'"
	run "$B" --connect-timeout;          usage_error "option --connect-timeout needs a value"
	[ -z "$(ls /sys/class/infiniband 2>/dev/null)" ] || skip "this host has RDMA devices"
	for t in 0.001 1.5 3600; do          # taken: the run goes on to find no device
		run "$B" -n 1 --connect-timeout "$t" 198.18.0.1
		refute_output --partial "Try 'rpcrdma-bench --help'"
		assert_failure 3
		assert_output --partial "rdma link add"
	done
}

@test "no RDMA device: exit 3 (as every tool), and how to add Soft-RoCE" {
	need_bin
	[ -z "$(ls /sys/class/infiniband 2>/dev/null)" ] || skip "this host has RDMA devices"
	run "$B" -n 1 --timeout 2000 198.18.0.1
	assert_failure 3
	assert_output --partial "rpcrdma-bench: "
	assert_output --partial "rdma link add"
}

# ------------------------------------------------------------ help, man page, completion agree

man_options() {
	sed -n '/^\.SH OPTIONS/,/^\.SH /p' "$TOP/man/rpcrdma-bench.1" |
		sed 's/\\-/-/g' | grep -A1 '^\.TP' | grep -v '^\.TP' |
		grep -oE '(^|[ "])--?[a-zA-Z][a-zA-Z_-]*' | tr -d ' "' | sort -u
}

help_options() {
	"$B" --help | grep -E '^ +-' | grep -oE '(^|[ ,])--?[a-zA-Z][a-zA-Z_-]*' |
		tr -d ' ,' | sort -u
}

# the parser: tools/bench/bench_main.c and the common table (live_opts.bash)
parser_long_options() { live_parser_long_options "$TOP/tools/bench/bench_main.c"; }

completion_options() {
	bash -c "source '$TOP/completion/rpcrdma-bench'
		COMP_WORDS=(rpcrdma-bench -); COMP_CWORD=1; _rpcrdma_bench
		printf '%s\n' \"\${COMPREPLY[@]}\"" | sort -u
}

@test "--help lists exactly the options of the man page and of the parser" {
	need_bin
	run diff <(man_options) <(help_options)
	assert_success
	[ "$(man_options | wc -l)" -eq 34 ]
	run diff <(parser_long_options) <(help_options | grep -- '^--')
	assert_success
}

@test "completion offers every option of the man page, and the values" {
	run diff <(man_options) <(completion_options)
	assert_success
	run bash -c "source '$TOP/completion/rpcrdma-bench'
		COMP_WORDS=(rpcrdma-bench --chunk r); COMP_CWORD=2; _rpcrdma_bench
		echo \"\${COMPREPLY[*]}\"
		COMP_WORDS=(rpcrdma-bench --versions ''); COMP_CWORD=2; _rpcrdma_bench
		echo \"\${COMPREPLY[*]}\"
		COMP_WORDS=(rpcrdma-bench -P n); COMP_CWORD=2; _rpcrdma_bench
		echo \"\${COMPREPLY[*]}\""
	assert_line --index 0 "read reply"
	assert_line --index 1 "1 2 1,2"
	assert_line --index 2 "nfs nfs-cb nlm"
}

@test "man page renders without warnings" {
	command -v man >/dev/null || skip "man is not installed"
	run bash -c "man --warnings -l '$TOP/man/rpcrdma-bench.1' 2>&1 >/dev/null"
	assert_success
	assert_output ""
}

# ------------------------------------------------------------ outputs (harness)

lat_rows() {    # the latency table's rows
	"$HARNESS" tables | awk '/^ #bytes #iterations/ { t = 1; next } /^---/ { t = 0 } t'
}

@test "latency table: perftest's nine columns, every row full, percentiles ordered" {
	need_harness
	run "$HARNESS" tables
	assert_success
	assert_line " #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]    t_stdev[usec]   99% percentile[usec]   99.9% percentile[usec] "
	run bash -c "$(declare -f lat_rows); lat_rows | awk 'NF != 9 { print \"bad: \" \$0 }
		\$3 > \$5 || \$5 > \$8 || \$8 > \$9 || \$9 > \$4 { print \"unordered: \" \$0 }
		END { print NR \" rows\" }'"
	assert_output "21 rows"
}

@test "throughput and where tables: every column" {
	need_harness
	run bash -c "'$HARNESS' tables | awk '/^ #bytes +#iterations +BW peak/ { t = 1; next }
		/^---/ { t = 0 } t && NF != 6 { print \"bad: \" \$0 } t { n++ } END { print n }'"
	assert_output "21"
	run bash -c "'$HARNESS' tables | awk '/^ #bytes +call +reply/ { t = 1; next }
		/^ call:/ { t = 0 } t && NF != 9 { print \"bad: \" \$0 } t { n++ } END { print n }'"
	assert_output "21"
	run "$HARNESS" tables
	assert_line --regexp '^ 512 +inline +inline '
	assert_line --regexp '^ 1024 +read +write '
}

@test "JSON parses and agrees with the tables" {
	need_harness
	command -v jq >/dev/null || skip "jq is not installed"
	"$HARNESS" json > "$BATS_TEST_TMPDIR/b.json"
	"$HARNESS" tables > "$BATS_TEST_TMPDIR/b.txt"
	run jq -e '.tool == "rpcrdma-bench" and (.latency | length) == 21 and
		(.throughput | length) == 21 and (.where | length) == 21' "$BATS_TEST_TMPDIR/b.json"
	assert_success
	# latency: every figure equal to the table's, to its two decimals
	run bash -c "diff <(awk '/^ #bytes #iterations/ { t = 1; next } /^---/ { t = 0 }
			t { print \$1, \$2, \$3, \$4, \$5, \$6, \$7, \$8, \$9 }' '$BATS_TEST_TMPDIR/b.txt') \
		<(jq -r '.latency[] | [.bytes, .iterations, .t_min_usec, .t_max_usec, .t_typical_usec,
			.t_avg_usec, .t_stdev_usec, .p99_usec, .p99_9_usec] | @tsv' '$BATS_TEST_TMPDIR/b.json' |
		  awk '{ printf \"%d %d %.2f %.2f %.2f %.2f %.2f %.2f %.2f\n\", \$1, \$2, \$3, \$4, \$5, \$6, \$7, \$8, \$9 }')"
	assert_success
	run bash -c "diff <(awk '/^ #bytes +#iterations +BW/ { t = 1; next } /^---/ { t = 0 }
			t { print \$1, \$2, \$3, \$4, \$5, \$6 }' '$BATS_TEST_TMPDIR/b.txt') \
		<(jq -r '.throughput[] | [.bytes, .iterations, .bw_peak, .bw_average, .msg_rate_mpps,
			.calls_per_sec] | @tsv' '$BATS_TEST_TMPDIR/b.json' |
		  awk '{ printf \"%d %d %.2f %.2f %.6f %.2f\n\", \$1, \$2, \$3, \$4, \$5, \$6 }')"
	assert_success
	run jq -r '.where[10] | "\(.call_path) \(.reply_path) \(.call_paths.read)"' "$BATS_TEST_TMPDIR/b.json"
	assert_output "read write 200"
}

@test "--plot: SVG and PNG written by gnuplot, the script for .gp" {
	need_harness
	command -v gnuplot >/dev/null || skip "gnuplot is not installed (scripts/deps.sh installs gnuplot-nox)"
	cd "$BATS_TEST_TMPDIR"
	run "$HARNESS" plot "it's.svg"
	assert_success
	grep -q '<svg' "it's.svg"
	grep -q 'inline threshold 1024 B' "it's.svg"
	run "$HARNESS" plot out.png 8
	assert_success
	[ "$(head -c 8 out.png | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]
	run "$HARNESS" plot out.gp
	assert_success
	sed -i 's/^# set output .*/set output "from-script.svg"/' out.gp
	run gnuplot out.gp
	assert_success
	grep -q '<svg' from-script.svg
}

@test "--plot: an unwritable file is an error naming it" {
	need_harness
	command -v gnuplot >/dev/null || skip "gnuplot is not installed"
	run "$HARNESS" plot /nonexistent/dir/p.svg
	assert_failure
	assert_output --partial "rpcrdma-bench: --plot /nonexistent/dir/p.svg"
}

# ------------------------------------------------------------ make bench-live's report

# bench_live_round DIR ROUND OURS_NULL SEND_LAT OURS_1M: what one round of
# tests/live/bench-guest.sh leaves in DIR: perftest's outputs (their real
# layout) and rpcrdma-bench's JSON; the figures: our NULL t_typical,
# ib_send_lat's one-way t_typical, our 1 MiB BW (ib_read_bw 30, ib_write_bw 20)
bench_live_round() {
	local d=$1 r=$2
	mkdir -p "$d"
	echo 68 > "$d/send_size"
	echo "$r" > "$d/rounds"
	cat > "$d/ib_send_lat.$r.txt" <<-T
	---------------------------------------------------------------------------------------
	                    Send Latency Test
	 Dual-port       : OFF		Device         : rxe1
	---------------------------------------------------------------------------------------
	 #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]    t_stdev[usec]   99% percentile[usec]   99.9% percentile[usec]
	 68      1000          29.31          1200.11      $4     	       55.02        	20.10   		226.00  		900.00
	---------------------------------------------------------------------------------------
	T
	for t in read write; do
		cat > "$d/ib_${t}_bw.$r.txt" <<-T
		---------------------------------------------------------------------------------------
		 #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]
		 1048576    50               44.30              $([ $t = read ] && echo 30.00 || echo 20.00)		   0.000024
		---------------------------------------------------------------------------------------
		T
	done
	printf '{"rpcrdma_version":2,"latency":[{"bytes":0,"iterations":1000,"t_min_usec":50.00,"t_typical_usec":%s,"p99_usec":300.00}],"throughput":[],"where":[]}\n' "$3" > "$d/ours-null.$r.json"
	printf '{"rpcrdma_version":1,"latency":[{"bytes":0,"iterations":1000,"t_min_usec":40.00,"t_typical_usec":100.00,"p99_usec":250.00}],"throughput":[],"where":[]}\n' > "$d/kernel-null.$r.json"
	printf '{"throughput":[{"bytes":1048576,"iterations":50,"outstanding":32,"bw_peak":30.00,"bw_average":%s,"calls_per_sec":11.00}],"where":[{"call_path":"read","reply_path":"write","reg_pct":1.5,"inv_pct":0.5}]}\n' "$5" > "$d/ours-1m.$r.json"
}

@test "bench-live report: ratios against perftest and the kernel, aims met" {
	command -v jq >/dev/null || skip "jq is not installed"
	d=$BATS_TEST_TMPDIR/bl
	bench_live_round "$d" 1 120.00 50.00 23.00
	run bash "$TOP/scripts/bench-ratios.sh" "$d"
	assert_success
	# 120 / (2 x 50) = 1.20 <= 1.3; 23 / (2 / (1/30 + 1/20) = 24) = 0.96 >= 0.9
	assert_line --regexp '^NULL round trip / ib_send_lat +120.00 usec +100.00 usec \(2 x 50.00\) +1.20 +1.20-1.20 +1.20 +<= 1.3 +met$'
	assert_line --regexp '^NULL round trip / kernel NFS NULL +120.00 usec +100.00 usec +1.20 +1.20-1.20 +1.20 +- +-$'
	assert_line --regexp '^1 MiB chunked BW / raw Read\+Write +23.00 MB/s +24.00 MB/s \(R 30.00, W 20.00\) +0.96 +0.96-0.96 +0.96 +>= 0.9 +met$'
	assert_line "issue 8: echo NULL round trip over rxe: 120.00 usec (t_typical, median of 1 rounds of 1000 calls)"
	assert_line "issue 8: echo throughput at 1 MiB over rxe: 23.00 MB/sec both ways (11.50 MB/sec each way), 11.00 calls/s"
}

@test "bench-live report: ratios per round, their median; an aim missed says so" {
	command -v jq >/dev/null || skip "jq is not installed"
	d=$BATS_TEST_TMPDIR/bl
	bench_live_round "$d" 1 140.00 50.00 12.00     # 1.40, 0.50
	bench_live_round "$d" 2 100.00 25.00 24.00     # 2.00, 1.00
	bench_live_round "$d" 3 130.00 50.00 20.00     # 1.30, 0.83
	run bash "$TOP/scripts/bench-ratios.sh" "$d"
	assert_success
	assert_line --regexp '^NULL round trip / ib_send_lat +130.00 usec +100.00 usec \(2 x 50.00\) +1.40 +1.30-2.00 +1.40 2.00 1.30 +<= 1.3 +missed$'
	assert_line --regexp '^1 MiB chunked BW / raw Read\+Write +20.00 MB/s .* 0.83 +0.50-1.00 +0.50 1.00 0.83 +>= 0.9 +missed$'
	assert_line --partial "t_typical 50.00 usec one-way [50.00 25.00 50.00]: round trip 100.00 usec"
}

@test "bench-live report: interleaved rounds; the aim judged on the median, not on the worst round" {
	command -v jq >/dev/null || skip "jq is not installed"
	d=$BATS_TEST_TMPDIR/bl
	bench_live_round "$d" 1 120.00 50.00 23.00     # 1.20, 0.96
	bench_live_round "$d" 2 300.00 50.00 10.00     # 3.00 (a loaded round), 0.42
	bench_live_round "$d" 3 110.00 50.00 22.00     # 1.10, 0.92
	echo "ib_send_lat ours-null kernel-null ib_read_bw ib_write_bw ours-1m" > "$d/order"
	run bash "$TOP/scripts/bench-ratios.sh" "$d"
	assert_success
	assert_line "each round, in this order (perftest's figure, then ours divided by it): ib_send_lat ours-null kernel-null ib_read_bw ib_write_bw ours-1m"
	assert_line --regexp '^NULL round trip / ib_send_lat .* 1.20 +1.10-3.00 +1.20 3.00 1.10 +<= 1.3 +met$'
	assert_line --regexp '^1 MiB chunked BW / raw Read\+Write .* 0.92 +0.42-0.96 +0.96 0.42 0.92 +>= 0.9 +met$'
	assert_line "(the aims are judged on the median of the rounds' ratios; absolute times are information only)"
}

@test "bench-live report: a missing figure fails and is n/a" {
	command -v jq >/dev/null || skip "jq is not installed"
	d=$BATS_TEST_TMPDIR/bl
	bench_live_round "$d" 1 120.00 50.00 23.00
	rm "$d/ib_read_bw.1.txt"
	run bash "$TOP/scripts/bench-ratios.sh" "$d"
	assert_failure 1
	assert_output --partial "bench-live: round 1: ib_read_bw's BW average is missing"
	assert_line --regexp '^1 MiB chunked BW / raw Read\+Write .* n/a +>= 0.9 +n/a$'
}

@test "README: the plot it shows is rpcrdma-bench's (gnuplot SVG, both tables, the inline threshold marked)" {
	grep -q '](docs/img/rpcrdma-bench-rxe.svg)' "$TOP/README.md"
	f=$TOP/docs/img/rpcrdma-bench-rxe.svg
	grep -q 'Produced by GNUPLOT' "$f"
	grep -q 'round trip \[usec\]' "$f"
	grep -q 'bandwidth \[MB/sec\]' "$f"
	grep -q 'inline threshold 4096 B' "$f"
	grep -q 'rpcrdma-bench: ECHO to ' "$f"
}
