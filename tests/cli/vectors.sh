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
# 64-bit offsets are quoted by sed first: jq 1.6 reads numbers as doubles.
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

# a number in decimal (leading zeros allowed) or 0x hex -> decimal; else as is
num() {
	local v=$1
	if [[ $v =~ ^0[xX][0-9a-fA-F]{1,16}$ ]]; then
		printf '%u' "$v"
	elif [[ $v =~ ^[0-9]+$ ]]; then
		v=${v##+(0)}
		printf '%u' "${v:-0}"
	else
		printf '%s' "$v"
	fi
}

# colon-separated numbers
nums() {
	local IFS=: out="" p
	read -ra parts <<<"$1"
	for p in "${parts[@]}"; do out+="${out:+:}$(num "$p")"; done
	printf '%s' "$out"
}

# the vector's value in the rendered notation
expected() {
	local key=$1 val=$2 out="" item chunk seg
	case $key in
	reads)
		[ "$val" = - ] && return
		for item in $val; do out+="${out:+ }$(nums "$item")"; done ;;
	writes)
		[ "$val" = - ] && return
		local rest=$val first=1
		while :; do
			chunk=${rest%% | *}
			local c=""
			IFS=, read -ra segs <<<"$chunk"
			for seg in "${segs[@]}"; do c+="${c:+,}$(nums "$seg")"; done
			out+="${first:+}${out:+ | }$c"
			[ "$chunk" = "$rest" ] && break
			rest=${rest#* | }
		done ;;
	reply)
		[ "$val" = none ] && { printf none; return; }
		IFS=, read -ra segs <<<"$val"
		for seg in "${segs[@]}"; do out+="${out:+,}$(nums "$seg")"; done ;;
	rpc)
		[ "$val" = none ] && { printf none; return; }
		out=$(nums "$val") ;;
	notes)
		[ "$val" = - ] && return
		out=$(printf '%s\n' $val | LC_ALL=C sort | paste -sd' ') ;;
	optdir)
		case $val in 0) out=call ;; 1) out=reply ;; *) out=$val ;; esac ;;
	action | reason | proc_name | direction)
		out=$val ;;
	*)
		out=$(num "$val") ;;
	esac
	printf '%s' "$out"
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

echo "1..${#names[@]}"
for i in "${!names[@]}"; do
	n=$((n + 1))
	name=${names[$i]}
	"$DECODE" --hex "${hexes[$i]}" --json >"$tmp/out" 2>"$tmp/err"
	rc=$?
	diag=()
	if ! jq -e 'type == "object"' "$tmp/out" >/dev/null 2>&1 ||
	   [ "$(jq -s length "$tmp/out" 2>/dev/null)" != 1 ]; then
		diag+=("output is not exactly one JSON object (exit $rc): $(head -c 300 "$tmp/out" "$tmp/err")")
	else
		declare -A got=()
		while IFS= read -r l; do
			got[${l%%=*}]=${l#*=}
		done < <(sed -E 's/"offset":([0-9]+)/"offset":"\1"/g' "$tmp/out" | jq -r "$render")
		action=""
		IFS=$'\x1f' read -ra pairs <<<"${keys[$i]}"
		for p in "${pairs[@]}"; do
			[ -n "$p" ] || continue
			k=${p%%=*} v=${p#*=}
			[ "$k" = action ] && action=$v
			if [ -z "${got[$k]+set}" ]; then
				diag+=("unknown key '$k' in the vector")
				continue
			fi
			want=$(expected "$k" "$v")
			[ "$want" = "${got[$k]}" ] ||
				diag+=("$k: expected '$want', actual '${got[$k]}'")
		done
		if [ "$action" = accept ] && [ "$rc" -ne 0 ]; then
			diag+=("exit status: expected 0 for accept, actual $rc")
		elif [ "$action" != accept ] && [ "$rc" -ne 1 ]; then
			diag+=("exit status: expected 1 for $action, actual $rc")
		fi
		unset got
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
