#!/usr/bin/env bash
# vectors.sh - every vector of tests/vectors/vectors.txt (format: its README.md)
# through `rpcrdma-decode --hex HEX --json`: each key the vector gives is compared
# with the JSON output, and the exit status must be 0 exactly for action accept.
# Prints TAP, one line per vector.  Env: TOP (repo root), BIN (rpcrdma-decode's dir).
set -u
TOP=${TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
BIN=${BIN:-$TOP/build/bin}
DECODE=$BIN/rpcrdma-decode
VECTORS=${VECTORS:-$TOP/tests/vectors/vectors.txt}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ ! -r "$VECTORS" ]; then
	# until the repository file exists: a tiny sample, written from V1 §5.1.3
	VECTORS=$tmp/sample.txt
	cat >"$VECTORS" <<'SAMPLE'
[sample-v1-msg-null-call]
hex = 0a000001 00000001 00000020 00000000 00000000 00000000 00000000
hex = 0a000001 00000000 00000002 000186a3 00000003 00000000 00000000 00000000 00000000 00000000
action = accept
reason = ok
rpc = 0x0a000001:0:100003:3:0
[sample-bad-vers]
hex = 00000001 00000007
action = reply_err_vers
reason = bad_vers
offset = 4
SAMPLE
fi

if [ ! -x "$DECODE" ]; then
	echo "1..1"
	echo "not ok 1 - $DECODE is not built"
	exit 1
fi

# One JSON output rendered in the vectors' notation, one "key=value" a line.
# xids, handles and offsets are "0x..." strings in the JSON (jq 1.6 reads
# numbers as doubles); the expected values are written the same way.
render='
def s: if . == null then "null" else tostring end;
def seg: "\(.handle):\(.length):\(.offset)";
{
  action: (.verdict.action | s), reason: (.verdict.reason | s),
  offset: (.verdict.offset | s),
  xid: (.xid | s), vers: (.vers | s), credits: (.credits | s),
  proc: (.proc | s), proc_name: (.proc_name | s), direction: (.direction | s),
  reads: (if has("reads") | not then "absent"
	  else .reads | map("\(.position):" + seg) | join(" ") end),
  writes: (if has("writes") | not then "absent"
	   else .writes | map(map(seg) | join(",")) | join(" | ") end),
  reply: (if has("reply") | not then "absent" elif .reply == null then "none"
	  else .reply | map(seg) | join(",") end),
  err: (.error.code | s), low: (.error.low | s), high: (.error.high | s),
  optdir: (.optional.direction | s), opttype: (.optional.type | s),
  info_length: (.optional.info_length | s),
  header_length: (.header_length | s), payload_length: (.payload_length | s),
  rpc: (if .rpc == null then "none"
	elif .rpc.prog == null then "\(.rpc.xid):\(.rpc.msg_type)"
	else "\(.rpc.xid):\(.rpc.msg_type):\(.rpc.prog):\(.rpc.vers):\(.rpc.proc)" end),
  notes: (.notes | sort | join(" "))
} | to_entries[] | "\(.key)=\(.value)"'

# The helpers below set globals instead of printing, so that no subshell is
# forked per number: NUM, NUMS, EXP.

# a number in decimal (leading zeros allowed) or 0x hex -> decimal; else as is
num() {
	local v=$1
	if [[ $v =~ ^0[xX][0-9a-fA-F]{1,16}$ ]]; then
		printf -v NUM '%u' "$v"
	elif [[ $v =~ ^[0-9]+$ ]]; then
		v=${v##+(0)}
		printf -v NUM '%u' "${v:-0}"
	else
		NUM=$v
	fi
}

# a number as --json writes xids, handles and offsets: "0x" + $2 digits
hexw() {
	num "$1"
	[[ $NUM =~ ^[0-9]+$ ]] && printf -v NUM '0x%0*x' "$2" "$NUM"
}

# colon-separated numbers; $2: the hex width of each (0: decimal)
nums() {
	local IFS=: p parts i=0 w
	read -ra w <<<"${2:-}"
	NUMS=""
	read -ra parts <<<"$1"
	for p in "${parts[@]}"; do
		if [ "${w[i]:-0}" -gt 0 ]; then hexw "$p" "${w[i]}"; else num "$p"; fi
		NUMS+="${NUMS:+:}$NUM"
		i=$((i + 1))
	done
}

# comma-separated segments: handle:length:offset
segs() {
	local IFS=, seg list out=""
	read -ra list <<<"$1"
	for seg in "${list[@]}"; do
		nums "$seg" "8:0:16"
		out+="${out:+,}$NUMS"
	done
	SEGS=$out
}

# the vector's value in the rendered notation
expected() {
	local key=$1 val=$2 item chunk rest
	EXP=""
	case $key in
	reads)
		[ "$val" = - ] && return
		for item in $val; do
			nums "$item" "0:8:0:16"
			EXP+="${EXP:+ }$NUMS"
		done ;;
	writes)
		[ "$val" = - ] && return
		rest=$val
		while :; do
			chunk=${rest%% | *}
			segs "$chunk"
			EXP+="${EXP:+ | }$SEGS"
			[ "$chunk" = "$rest" ] && break
			rest=${rest#* | }
		done ;;
	reply)
		if [ "$val" = none ]; then EXP=none; return; fi
		segs "$val"
		EXP=$SEGS ;;
	rpc)
		if [ "$val" = none ]; then EXP=none; return; fi
		nums "$val" "8"
		EXP=$NUMS ;;
	notes)
		[ "$val" = - ] && return
		EXP=$(printf '%s\n' $val | LC_ALL=C sort | paste -sd' ') ;;
	optdir)
		case $val in 0) EXP=call ;; 1) EXP=reply ;; *) EXP=$val ;; esac ;;
	action | reason | proc_name | direction)
		EXP=$val ;;
	xid)
		hexw "$val" 8
		EXP=$NUM ;;
	*)
		num "$val"
		EXP=$NUM ;;
	esac
}

shopt -s extglob
n=0 failed=0
declare -a names=() hexes=() keys=()
# vectors.txt -> arrays: name, hex, "key=value<US>key=value..."
cur="" hex="" kv=""
flush() {
	[ -n "$cur" ] || return 0
	names+=("$cur"); hexes+=("$hex"); keys+=("$kv")
}
while IFS= read -r line || [ -n "$line" ]; do
	line=${line%%#*}
	line=${line%%+([[:space:]])}
	line=${line##+([[:space:]])}
	[ -n "$line" ] || continue
	if [[ $line =~ ^\[(.+)\]$ ]]; then
		flush
		cur=${BASH_REMATCH[1]} hex="" kv=""
		continue
	fi
	[[ $line =~ ^([a-z_]+)[[:space:]]*=[[:space:]]*(.*)$ ]] || continue
	k=${BASH_REMATCH[1]} v=${BASH_REMATCH[2]}
	case $k in
	hex) hex+="$v " ;;
	spec) ;;
	*) kv+="$k=$v"$'\x1f' ;;
	esac
done <"$VECTORS"
flush

# Decode every vector, then render all outputs with one jq run: a line that
# is not exactly one JSON object renders as INVALID.
declare -a rcs=()
: >"$tmp/all"
for i in "${!names[@]}"; do
	"$DECODE" --hex "${hexes[$i]}" --json >"$tmp/out" 2>"$tmp/err"
	rcs[$i]=$?
	mapfile -t lines <"$tmp/out"
	if [ ${#lines[@]} -eq 1 ]; then
		printf '%s\n' "${lines[0]}" >>"$tmp/all"
	else
		echo "INVALID" >>"$tmp/all"
		cp "$tmp/err" "$tmp/err.$i"
	fi
done
declare -A got=()
while IFS=$'\t' read -r i kv; do
	got[$i,${kv%%=*}]=${kv#*=}
done < <(jq -R -r "(fromjson? // null) as \$o | (input_line_number - 1) as \$i |
		   if (\$o | type) != \"object\" then \"\\(\$i)\\tINVALID=1\"
		   else \$o | $render | \"\\(\$i)\\t\\(.)\" end" "$tmp/all")

echo "1..${#names[@]}"
for i in "${!names[@]}"; do
	n=$((n + 1))
	name=${names[$i]}
	rc=${rcs[$i]}
	diag=()
	if [ -n "${got[$i,INVALID]+set}" ] || [ -z "${got[$i,action]+set}" ]; then
		diag+=("output is not exactly one JSON object (exit $rc) $(head -c 300 "$tmp/err.$i" 2>/dev/null)")
	else
		action=""
		IFS=$'\x1f' read -ra pairs <<<"${keys[$i]}"
		for p in "${pairs[@]}"; do
			[ -n "$p" ] || continue
			k=${p%%=*} v=${p#*=}
			[ "$k" = action ] && action=$v
			if [ -z "${got[$i,$k]+set}" ]; then
				diag+=("unknown key '$k' in the vector")
				continue
			fi
			expected "$k" "$v"
			[ "$EXP" = "${got[$i,$k]}" ] ||
				diag+=("$k: expected '$EXP', actual '${got[$i,$k]}'")
		done
		if [ "$action" = accept ] && [ "$rc" -ne 0 ]; then
			diag+=("exit status: expected 0 for accept, actual $rc")
		elif [ "$action" != accept ] && [ "$rc" -ne 1 ]; then
			diag+=("exit status: expected 1 for $action, actual $rc")
		fi
	fi
	if [ ${#diag[@]} -eq 0 ]; then
		echo "ok $n - $name"
	else
		failed=$((failed + 1))
		echo "not ok $n - $name"
		for d in "${diag[@]}"; do echo "#   $d"; done
	fi
done
[ "$failed" -eq 0 ]
