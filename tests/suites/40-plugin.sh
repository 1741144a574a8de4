#!/usr/bin/env bash
# 40-plugin: the Wireshark plugin in Debian's tshark: loading, fields, heuristics, expert infos, agreement, robustness, install.
set -u
: "${TOP:?}" "${BUILD:?}"
BIN=${BIN:-$BUILD/bin}
. "$TOP/tests/plugin/lib.sh"

SO=$PLUGIN_DIR/$WS_RELEASE/epan/rpcrdma.so
if ! in_ws pkg-config --exists wireshark 2>/dev/null || ! in_ws sh -c "command -v tshark" >/dev/null; then
	# scripts/deps.sh installs them: their absence is a failure
	nok "plugin suite: Wireshark here (pkg-config wireshark, tshark; scripts/deps.sh installs them)"
	echo "1..$n"; exit 1
fi
if [ ! -f "$SO" ]; then
	nok "plugin built at $SO" "run make"
	echo "1..$n"; exit 1
fi
chmod -R a+rX "$PLUGIN_DIR"
T=$(mkscratch)
trap 'rm -rf "$T"' EXIT

# ---- loading ----
if ts -G plugins 2>/dev/null | grep -qF "$SO"; then ok "tshark -G plugins lists rpcrdma.so from the build tree"
else nok "tshark -G plugins lists rpcrdma.so from the build tree" "$(ts -G plugins 2>&1 | head -3)"; fi
ts -G fields >"$T/fields" 2>"$T/fields.err"
missing=""
for f in rpcrdma.xid rpcrdma.vers rpcrdma.credits rpcrdma.proc rpcrdma.direction \
	rpcrdma.position rpcrdma.segment.handle rpcrdma.segment.length \
	rpcrdma.segment.offset rpcrdma.read_list rpcrdma.write_list \
	rpcrdma.write_chunk rpcrdma.reply_chunk rpcrdma.err rpcrdma.vers_low \
	rpcrdma.vers_high rpcrdma.optdir rpcrdma.opttype rpcrdma.optinfo; do
	grep -qP "\t$f\t" "$T/fields" || missing="$missing $f"
done
if [ -z "$missing" ]; then ok "every required rpcrdma.* field is registered"
else nok "every required rpcrdma.* field is registered" "missing:$missing"; fi
if grep -qi "bug\|duplicate" "$T/fields.err"; then
	nok "registration raises no dissector bug" "$(head -3 "$T/fields.err")"
else ok "registration raises no dissector bug"; fi
ts -G heuristic-decodes >"$T/heur" 2>/dev/null
for list in infiniband.payload iwarp_ddp_rdmap; do
	order=$(awk -v l="$list" '$1 == l && ($2 == "rpcrdma" || $2 == "rpcordma") {print $2}' "$T/heur" | tr '\n' ' ')
	if [ "$order" = "rpcrdma rpcordma " ]; then ok "$list: our heuristic is tried before the built-in"
	else nok "$list: our heuristic is tried before the built-in" "order: $order"; fi
done
ts -G defaultprefs 2>/dev/null | grep -E "^#rpcrdma\." >"$T/prefs"
check "preferences: claim_v1, inline thresholds, reassembly" \
	grep -c -E "rpcrdma\.(claim_v1: TRUE|v1_inline_threshold: 1024|v2_inline_threshold: 4096|reassemble: TRUE|check_inline: TRUE)" "$T/prefs"

# ---- our own fixture (tests/plugin/mkpcap.c) ----
FX=$T/fx.pcap
"$BUILD/plugin-test/mkpcap" "$FX" "$T/fx.expect" && chmod a+r "$T"/*
plugin_tsv "$FX" "$T/fx.tsv"
# expected values from a second decoder written from the drafts' XDR
# (tests/plugin/fx_expect.py), not from libcodec, which the plugin links
python3 "$TOP/tests/plugin/fx_expect.py" "$FX" >"$T/fx.spec"
nspec=$(grep -c . "$T/fx.spec")
check "fixture: fields agree with an independent decode from the drafts' XDR of all $nspec Sends (v1, v2, faults; tests/plugin/fx_expect.py)" \
	sh -c "[ $nspec -ge 23 ] && python3 '$TOP/tests/plugin/compare.py' spec '$T/fx.tsv' '$T/fx.spec'"
builtin_tsv "$FX" "$T/fx.builtin"
check "fixture: v1 fields agree with the built-in rpcordma" \
	python3 "$TOP/tests/plugin/compare.py" builtin "$T/fx.tsv" "$T/fx.builtin"
# the decoder failing, or printing nothing, is a failure of this test
"$BIN/rpcrdma-decode" -r "$FX" --json >"$T/fx.jsonl" 2>"$T/fx.derr"; drc=$?
if [ "$drc" -le 1 ] && [ -s "$T/fx.jsonl" ]; then
	check "fixture: fields agree with rpcrdma-decode --json" \
		python3 "$TOP/tests/plugin/compare.py" json "$T/fx.tsv" "$T/fx.jsonl"
else
	nok "fixture: fields agree with rpcrdma-decode --json" "rpcrdma-decode -r exit status $drc, $(wc -l <"$T/fx.jsonl") lines: $(head -2 "$T/fx.derr")"
fi

info=$(ts -r "$FX" -Y "frame.number == 1" -T fields -e _ws.col.Info 2>/dev/null)
case $info in
"RDMA_MSG v1 xid 0x00001000 credits 32 ; V3 GETATTR Call"*) ok "Info column: our summary, then RPC's" ;;
*) nok "Info column: our summary, then RPC's" "got: $info" ;;
esac
got=$(ts -r "$FX" -Y "nfs && rpc.msgtyp == 1" -T fields -e frame.number -e rpc.repframe 2>/dev/null | tr '\t\n' ': ')
if [ "$got" = "2:1 7:6 10:8 26:25 " ] || [ "$got" = "2:1 7:6 10:8 " ]; then
	ok "RPC replies pair with their calls and NFS decodes ($got)"
else nok "RPC replies pair with their calls and NFS decodes" "got: $got"; fi
got=$(ts -r "$FX" -Y "frame.number == 10 && nfs.procedure_v3 == 1 && rpcrdma.reassembled.length" -T fields -e frame.number 2>/dev/null)
if [ "$got" = 10 ]; then ok "Long Reply: NFS reply rebuilt from the RDMA Write into the reply chunk"
else nok "Long Reply: NFS reply rebuilt from the RDMA Write into the reply chunk" "got: '$got'"; fi
for pass in "" -2; do
	got=$(ts $pass -r "$FX" -Y "nfs.procedure_v3 == 1 && rpc.msgtyp == 0 && rpcrdma.chunk_frame" -T fields -e frame.number -e rpcrdma.chunk_frame 2>/dev/null | tr '\t' :)
	if [ "$got" = 13:13 ]; then ok "Long Call (${pass:-one pass}): NOMSG in 11, call rebuilt and decoded where the Read Response completes it (13)"
	else nok "Long Call (${pass:-one pass}): call rebuilt in frame 13" "got: '$got'"; fi
done
got=$(ts -2 -r "$FX" -Y "frame.number == 27" -T fields -e nfs.data 2>/dev/null | cut -c1-22)
if [ "$got" = 57524954452d44415441 ] || [ "$got" = 57524954452d444154413a ]; then ok "NFS WRITE (two passes): data from the RDMA Read Response put back at position 72"
else nok "NFS WRITE (two passes): data from the RDMA Read Response put back at position 72" "got: '$got'"; fi
got=$(ts -r "$FX" -Y "frame.number == 27 && rpcrdma.expert.chunk_not_captured" -T fields -e nfs.data 2>/dev/null | cut -c1-8)
if [ "$got" = 00000000 ]; then ok "NFS WRITE (one pass): data not seen yet, zero-filled and flagged"
else nok "NFS WRITE (one pass): data not seen yet, zero-filled and flagged" "got: '$got'"; fi
got=$(ts -r "$FX" -Y "frame.number == 26 && nfs" -T fields -e rpcrdma.xid 2>/dev/null)
if [ "$got" = 0x0000200a ]; then ok "SEND FIRST + SEND LAST reassembled into one v2 message"
else nok "SEND FIRST + SEND LAST reassembled into one v2 message" "got: '$got'"; fi

# expert infos: every planted fault, naming its spec section
exp=$(ts -r "$FX" -Y rpcrdma -T fields -e frame.number -e _ws.expert.message 2>/dev/null)
for want in "16:zero_credit:V1 4.3.1" "17:direction_mismatch:V2 4.2.2" \
	"18:bad_discriminant:V1 5.3" "19:nomsg_without_chunks:V1 5.2.4" \
	"20:xid_mismatch:V1 5.2.1" "21:done:V1 5.6.2" "22:msgp:V1 5.6.1" \
	"23:bad_vers:V1 5.5.1" "24:bad_count:V1 5.5.2" "15:unknown_option:V2 3.1"; do
	fr=${want%%:*}; rest=${want#*:}; what=${rest%%:*}; sec=${rest#*:}
	line=$(echo "$exp" | awk -F'\t' -v f="$fr" '$1 == f {print $2}')
	case $line in
	*"$what"*"$sec"*) ok "expert info $what in frame $fr names $sec" ;;
	*) nok "expert info $what in frame $fr names $sec" "got: $line" ;;
	esac
done
clean=$(echo "$exp" | awk -F'\t' '$1 <= 14 && $2 != "" && $2 !~ /zero-filled/ {print $1}' | tr '\n' ' ')
if [ -z "$clean" ]; then ok "no expert info on the well-formed messages"
else nok "no expert info on the well-formed messages" "frames: $clean"; fi
got=$(ts -r "$FX" -o rpcrdma.v2_inline_threshold:256 -Y rpcrdma.expert.inline_exceeded -T fields -e frame.number 2>/dev/null | tr '\n' ' ')
if [ "$got" = "13 26 " ] || [ "$got" = "26 " ]; then ok "inline threshold preference: larger v2 Sends flagged ($got)"
else nok "inline threshold preference: larger v2 Sends flagged" "got: '$got'"; fi

# only known connections get their malformed headers claimed
"$BUILD/plugin-test/mkpcap" --other-ulp "$T/ulp.pcap" && chmod a+r "$T/ulp.pcap"
got=$(ts -r "$T/ulp.pcap" -Y rpcrdma -T fields -e frame.number -e rpcrdma.verdict.reason 2>/dev/null | tr '\t\n' ': ')
if [ "$got" = "1:ok 3:bad_vers " ]; then ok "a Send on another QP between the same hosts is left alone; on a known connection its fault shows"
else nok "other upper layers between the same hosts are left alone" "got: '$got'"; fi

# claim_v1 off: v1 goes to the built-in, v2 stays ours
v1=$(ts -r "$FX" -o rpcrdma.claim_v1:FALSE -Y "rpcrdma.vers == 1" -T fields -e frame.number 2>/dev/null | wc -l)
v2=$(ts -r "$FX" -o rpcrdma.claim_v1:FALSE -Y "rpcrdma.vers == 2" -T fields -e frame.number 2>/dev/null | wc -l)
bi=$(ts -r "$FX" -o rpcrdma.claim_v1:FALSE -Y "rpcordma" -T fields -e frame.number 2>/dev/null | wc -l)
if [ "$v1" = 0 ] && [ "$v2" -ge 10 ] && [ "$bi" -ge 5 ]; then ok "claim_v1 off: v1 left to rpcordma ($bi frames), v2 still ours ($v2)"
else nok "claim_v1 off: v1 left to rpcordma, v2 still ours" "v1=$v1 v2=$v2 rpcordma=$bi"; fi
bi=$(ts -r "$FX" -o rpcrdma.rpcordma_fields:FALSE -Y "rpcordma" -T fields -e frame.number 2>/dev/null | wc -l)
if [ "$bi" = 0 ]; then ok "claim_v1 on: the built-in sees no message we claimed (rpcordma_fields off: -Y rpcordma matches nothing)"
else nok "claim_v1 on: the built-in sees no message we claimed" "$bi frames to rpcordma"; fi
# ... but by default the built-in's filters keep working: the plugin sets
# the rpcordma.* fields (hidden) with the built-in's values
for c in "$FX" "$BUILD"/captures/rocev2-v1-multichunk.pcap "$TOP"/tests/captures/nfs41-backchannel-iwarp.pcap; do
	[ -f "$c" ] || continue
	b=$(basename "$c"); cp "$c" "$T/compat-$b" && chmod a+r "$T/compat-$b"
	E="-e frame.number -e rpcordma.xid -e rpcordma.version -e rpcordma.flow_control -e rpcordma.msg_type
	   -e rpcordma.reads_count -e rpcordma.writes_count -e rpcordma.reply_count -e rpcordma.segment_count
	   -e rpcordma.position -e rpcordma.rdma_handle -e rpcordma.rdma_length -e rpcordma.rdma_offset
	   -e rpcordma.errcode -e rpcordma.vers_low -e rpcordma.vers_high"
	# shellcheck disable=SC2086
	ts -r "$T/compat-$b" -Y "rpcordma && rpcordma.msg_type != 2" -T fields -E occurrence=a -E aggregator=, $E >"$T/compat.ours" 2>/dev/null
	# shellcheck disable=SC2086
	ts_plain -r "$T/compat-$b" -Y "rpcordma && rpcordma.msg_type != 2" -T fields -E occurrence=a -E aggregator=, $E >"$T/compat.theirs" 2>/dev/null
	if [ -s "$T/compat.ours" ] && cmp -s "$T/compat.ours" "$T/compat.theirs"; then
		ok "$b: -Y rpcordma and the rpcordma.* fields give what the built-in gives ($(wc -l <"$T/compat.ours") messages; RDMA_MSGP's align/threshold aside)"
	else nok "$b: rpcordma.* fields as the built-in's" "$(diff "$T/compat.ours" "$T/compat.theirs" | head -6)"; fi
done
da="--disable-heuristic rpcrdma_plugin_ib -o infiniband.try_heuristic_first:FALSE"
# shellcheck disable=SC2086
with=$(ts -r "$FX" $da -d infiniband,rpcrdma -Y rpcrdma.xid -T fields -e frame.number 2>/dev/null | wc -l)
# shellcheck disable=SC2086
without=$(ts -r "$FX" $da -Y rpcrdma.xid -T fields -e frame.number 2>/dev/null | wc -l)
if [ "$with" -ge 22 ] && [ "$without" = 0 ]; then ok "Decode As infiniband -> rpcrdma works with our heuristic disabled ($with frames)"
else nok "Decode As infiniband -> rpcrdma" "with=$with without=$without"; fi

# ---- filters and fields users write ----
# one list, one set of fields: read list, write chunk and reply chunk
# segments apart (frame 3: two write chunks of 2 + 1 segments, a reply chunk)
got=$(ts -r "$FX" -Y "frame.number == 3" -T fields -E occurrence=a -E aggregator=, -e rpcrdma.read_segment.handle \
	-e rpcrdma.write_segment.handle -e rpcrdma.write_segment.length -e rpcrdma.reply_segment.handle \
	-e rpcrdma.reply_segment.offset -e rpcrdma.segment.handle 2>/dev/null)
want=$(printf '\t0x00001001,0x00001002,0x00001003\t4096,8192,512\t0x00002001\t0x00007f0000010000\t0x00001001,0x00001002,0x00001003,0x00002001')
if [ "$got" = "$want" ]; then ok "read, write and reply-chunk segments have fields of their own (rpcrdma.segment.* still lists all, hidden)"
else nok "read, write and reply-chunk segments have fields of their own" "got:  $got" "want: $want"; fi
got=$(ts -r "$FX" -Y "rpcrdma.reply_segment.handle == 0x2001 && !rpcrdma.write_segment" -T fields -e frame.number 2>/dev/null | tr '\n' ' ')
case $got in
8\ *) ok "a filter on one list's segments alone: rpcrdma.reply_segment.handle == 0x2001 && !rpcrdma.write_segment ($got)" ;;
*) nok "a filter on one list's segments alone" "got: $got" ;;
esac
got=$(ts -r "$FX" -Y "rpcrdma.read_segment.length == 100" -T fields -e frame.number -e rpcrdma.position 2>/dev/null | tr '\t\n' ': ')
if [ "$got" = "4:48,48 " ]; then ok "rpcrdma.read_segment.length filters read segments (frame 4, positions 48)"
else nok "rpcrdma.read_segment.length filters read segments" "got: $got"; fi
# backward direction (BIDI 2.4): the server's CB_COMPOUND call and its reply
BC=$TOP/tests/captures/nfs41-backchannel-rocev2.pcap
if [ -f "$BC" ]; then
	cp "$BC" "$T/bc.pcap" && chmod a+r "$T/bc.pcap"
	for pass in "" -2; do
		got=$(ts $pass -r "$T/bc.pcap" -Y "rpcrdma.backward == 1" -T fields -e frame.number -e rpc.msgtyp -e nfs.cb.operation 2>/dev/null | cut -f1,2 | tr '\t\n' ': ')
		nf=$(ts $pass -r "$T/bc.pcap" -Y "rpcrdma.backward == 0" 2>/dev/null | wc -l)
		if [ "$got" = "218:0 220:1 " ] && [ "$nf" = 106 ]; then ok "rpcrdma.backward (${pass:-one pass}): the CB_COMPOUND call and reply, 106 forward messages"
		else nok "rpcrdma.backward (${pass:-one pass})" "backward: $got forward: $nf"; fi
	done
	got=$(ts -r "$T/bc.pcap" -Y "frame.number == 218" -T fields -e _ws.col.Info 2>/dev/null)
	case $got in *" backward ; "*) ok "Info column says backward" ;; *) nok "Info column says backward" "got: $got" ;; esac
fi
# the frames that moved a chunk: one line of ranges, each frame a hidden field
NF=$TOP/tests/captures/nfs41-rocev2-rxe.pcap
if [ -f "$NF" ]; then
	cp "$NF" "$T/nf.pcap" && chmod a+r "$T/nf.pcap"
	got=$(ts -r "$T/nf.pcap" -Y "frame.number == 432" -T fields -e rpcrdma.chunk_frames 2>/dev/null)
	lines=$(ts -r "$T/nf.pcap" -Y "frame.number == 432" -V 2>/dev/null | grep -c "Data in frame")
	hits=$(ts -r "$T/nf.pcap" -Y "rpcrdma.chunk_frame == 330" -T fields -e frame.number 2>/dev/null | tr '\n' ' ')
	if [ "$got" = "301-365, 369-431" ] && [ "$lines" = 1 ] && [ "$hits" = "432 " ]; then
		ok "chunk data frames collapsed to ranges ($got, one line in -V), rpcrdma.chunk_frame still filters"
	else nok "chunk data frames collapsed" "ranges '$got', lines $lines, filter hits '$hits'"; fi
fi
# expert infos in one style: titles (tshark -G fields) are sentence-case
# phrases without a prefix or colon
bad=$(awk -F'\t' '$3 ~ /^rpcrdma\.expert\./ && $2 !~ /^[A-Z][^:]*$/ {print $3 " \"" $2 "\""}' "$T/fields")
nexp=$(awk -F'\t' '$3 ~ /^rpcrdma\.expert\./' "$T/fields" | wc -l)
if [ -z "$bad" ] && [ "$nexp" -ge 25 ]; then ok "expert info titles in one style ($nexp)"
else nok "expert info titles in one style" "$bad"; fi
# preferences named for users
for pref in "rpcordma_fields: TRUE" "chunk_memory_mb: 256"; do
	if grep -q "^#rpcrdma\.$pref\$" "$T/prefs"; then ok "preference rpcrdma.$pref"
	else nok "preference rpcrdma.$pref" "$(cat "$T/prefs")"; fi
done

# every preference documented with its default (docs/wireshark-plugin.md);
# the README's plugin section names the two that decide what -Y rpcordma
# matches; every rpcrdma.* / rpcordma.* name the README's plugin section and
# the docs' tables give is a registered field or preference
sed -n '/^## Wireshark plugin/,/^## An echo/p' "$TOP/README.md" >"$T/readme.plugin"
undoc=""
while IFS= read -r pl; do
	name=${pl#\#}; name=${name%%:*}; def=${pl#*: }
	grep -qF "| \`$name\` | $def |" "$TOP/docs/wireshark-plugin.md" || undoc="$undoc $name"
done <"$T/prefs"
for name in rpcrdma.claim_v1 rpcrdma.rpcordma_fields; do
	grep -qF "$name" "$T/readme.plugin" || undoc="$undoc README:$name"
done
cut -f3 "$T/fields" >"$T/fieldnames"
sed 's/^#//; s/:.*//' "$T/prefs" >>"$T/fieldnames"
unknown=$(cat "$T/readme.plugin" "$TOP/docs/wireshark-plugin.md" | grep -oE '\brpco?rdma\.[a-z0-9_.]*[a-z0-9_]' | sort -u | grep -vxF rpcrdma.so |
	while read -r f; do grep -qxF "$f" "$T/fieldnames" || grep -q "^${f//./\\.}\." "$T/fieldnames" || echo "$f"; done | tr '\n' ' ')
if [ -z "$undoc" ] && [ -z "$unknown" ]; then ok "preferences documented with their defaults ($(wc -l <"$T/prefs")), claim_v1 and rpcordma_fields in the README; every rpcrdma.*/rpcordma.* name in the README and docs exists"
else nok "preferences and field names documented" "undocumented:$undoc" "not registered: $unknown"; fi

# the README's plugin examples run (as an ordinary user, the plugin loaded)
# and show what they say
sed -n '/^## Wireshark plugin/,/^## Live RDMA/p' "$TOP/README.md" | sed -n 's/^\$ tshark //p' >"$T/readme.ex"
nex=0
while IFS= read -r ex; do
	nex=$((nex + 1))
	out=$(cd "$TOP" && eval "ts $ex" 2>&1)
	case $ex in
	*rpcrdma,stat*) echo "$out" | grep -q "^conversation 1: " ;;
	*) [ -n "$out" ] && ! echo "$out" | grep -qi "error\|invalid" ;;
	esac && ok "README plugin example $nex runs: tshark $ex" || nok "README plugin example $nex: tshark $ex" "$(echo "$out" | head -3)"
done <"$T/readme.ex"
[ "$nex" -ge 3 ] || nok "README plugin section has its tshark examples" "found $nex"

# ---- the generated test captures and real captures vs rpcrdma-decode ----
caps=$(ls "$BUILD"/captures/*.pcap "$BUILD"/captures/*.pcapng "$TOP"/tests/captures/*.pcap "$TOP"/tests/captures/*.pcapng \
	"$TOP"/tests/captures/*/*.pcap "$TOP"/tests/oracle/regress/*.pcap 2>/dev/null)
# RPCRDMA_PLUGIN_CAPS="NAME ...": only these captures (a quick local re-run;
# make check never sets it)
if [ -n "${RPCRDMA_PLUGIN_CAPS:-}" ]; then
	caps=$(for c in $caps; do for w in $RPCRDMA_PLUGIN_CAPS; do [ "$(basename "$c")" = "$w" ] && echo "$c"; done; done)
fi
if [ -z "$caps" ]; then
	nok "agreement on the test captures" "no captures (make captures)"
fi
py_start "$T"
# Per capture, two tshark runs (tshark's start-up, ~0.7 CPU-s, is most of
# the cost of each): the pdml of every frame handed to the plugin with the
# -z tap, from which compare.py experts also writes the plugin's fields
# ($b.tsv, as plugin_tsv) and expert messages ($b.exp); and the built-in's
# fields (v1 captures only)
for c in $caps; do
	b=$(basename "$c")
	cp "$c" "$T/$b" && chmod a+r "$T/$b"
	# (a capture cut short mid-record: tshark exits 2 after its frames)
	# tshark dying with no output is a failure (a plugin crash on frame 1
	# looks like that), unless it says it cannot read the link type (tshark
	# 4.0 has no pcap reader for LINKTYPE_INFINIBAND, 247)
	if ! plugin_pdml "$T/$b" "$T/$b.out" -z rpcrdma,stat 2>"$T/$b.tserr" &&
		! grep -q -m1 '^<packet>\|^=\{20,\}$' "$T/$b.out"; then
		if grep -q "unknown or unsupported" "$T/$b.tserr" && grep -q "network type 247" "$T/$b.tserr"; then
			skip "$b: plugin agrees with rpcrdma-decode" "tshark $WS_RELEASE cannot read LINKTYPE_INFINIBAND (247) in pcap"
		else
			nok "$b: tshark with the plugin reads it" "no output; stderr: $(head -3 "$T/$b.tserr")"
		fi
		continue
	fi
	sed '/^=\{20,\}$/,$d' "$T/$b.out" >"$T/$b.pdml"
	sed -n '/^=\{20,\}$/,$p' "$T/$b.out" >"$T/$b.tap"
	# the fields and expert messages out of the pdml; the expert infos'
	# style checked in the same python run (reported below)
	eout=$(pyc compare experts "$T/$b.pdml" "$T/$b.tsv" "$T/$b.exp" 2>&1)
	erc=$?
	"$BIN/rpcrdma-decode" -r "$T/$b" --json >"$T/$b.jsonl" 2>"$T/$b.derr"; drc=$?
	why=$(awk -v f="$b" '$1 == f { $1 = ""; sub(/^ /, ""); print; exit }' "$TOP/tests/plugin/expected-empty.txt")
	blind=$(awk -v f="$b" '$1 == f { $1 = ""; sub(/^ /, ""); print; exit }' "$TOP/tests/plugin/wireshark-blind.txt")
	# a gap the plugin is known to have (tests/plugin/not-yet.txt): the
	# disagreement is checked to be there, and a capture that comes to
	# agree fails until it is taken off the list
	gap=$(awk -v f="$b" '$1 == f { $1 = ""; sub(/^ /, ""); print; exit }' "$TOP/tests/plugin/not-yet.txt" 2>/dev/null)
	# exit 3: the capture itself lost bytes or the file is cut (the decoder
	# says what and where, and prints what it could: compared); 4: no RPC-over-RDMA traffic, only
	# of a capture expected-empty.txt lists; anything else fails
	if ! { [ "$drc" -le 1 ] || { [ "$drc" -eq 3 ] && [ -s "$T/$b.jsonl" ] &&
		grep -qE "output incomplete|truncated at frame" "$T/$b.derr"; } ||
		{ [ "$drc" -eq 4 ] && [ -n "$why" ]; }; }; then
		nok "$b: rpcrdma-decode -r --json reads it" "exit status $drc: $(head -2 "$T/$b.derr")"; continue
	fi
	# frames the decoder drops as corrupt at the link layer (bad ICRC / MPA
	# CRC); compare.py leaves them out, with snaplen-cut frames and the
	# plugin's retransmissions of either, and counts them
	grep -oE "frame [0-9]+: [^:]*CRC[^:]*mismatch" "$T/$b.derr" | awk '{print $2+0}' >"$T/$b.crc"
	nbad=$(wc -l <"$T/$b.crc")
	# message by message (several Sends share an iWARP frame; a Send of
	# several DDP segments or IB packets is one message in its last frame)
	out=$(pyc compare msgs "$T/$b.pdml" "$T/$b.jsonl" "$T/$b.crc" "$T/$b.skipped" 2>&1)
	rc=$?
	# neither finding a message compares nothing (compare.py: a failure);
	# expected only of the captures tests/plugin/expected-empty.txt lists
	if [ -n "$blind" ]; then
		# nothing of the plugin's to compare here (tests/plugin/wireshark-blind.txt):
		# that is checked, and that rpcrdma-decode does find messages
		if grep -qE '(^|[^0-9])0 messages compared' <<<"$out" && grep -q '"xid"' "$T/$b.jsonl"; then
			ok "$b: Wireshark hands the plugin no frame, as expected ($blind); rpcrdma-decode $(grep -c '"xid"' "$T/$b.jsonl") messages"
		else
			nok "$b: listed in tests/plugin/wireshark-blind.txt ($blind), but the plugin found messages or rpcrdma-decode none" "$(echo "$out" | tail -3)"
		fi
	elif [ -n "$why" ]; then
		if grep -qE '(^|[^0-9])0 messages compared' <<<"$out" && ! grep -q '"xid"' "$T/$b.jsonl"; then
			ok "$b: neither the plugin nor rpcrdma-decode finds an RPC-over-RDMA message, as expected ($why)"
		else
			nok "$b: listed in tests/plugin/expected-empty.txt ($why), but messages were found" "$(echo "$out" | tail -3)"
		fi
	elif [ -n "$gap" ]; then
		if [ $rc != 0 ]; then ok "$b: plugin and rpcrdma-decode disagree, a known gap of the plugin (tests/plugin/not-yet.txt: $gap): $(echo "$out" | tail -1)"
		else nok "$b: listed in tests/plugin/not-yet.txt ($gap), but the plugin now agrees: take it off the list" "$(echo "$out" | tail -1)"; fi
	elif [ $rc = 0 ]; then
		ok "$b: plugin agrees with rpcrdma-decode on every message, field for field: $(echo "$out" | tail -1)"
	else
		nok "$b: plugin agrees with rpcrdma-decode field for field" "$(echo "$out" | tail -8)"
	fi
	# RFC 8797 connection private data (issue 12 item 4): the plugin's
	# rpcrdma.cm.* in the CM REQ/REP, MPA Request/Reply frames against
	# rpcrdma-decode's connection records (same tshark run as above)
	if grep -q '"rfc8797":true' "$T/$b.jsonl" || awk -F'\t' '$NF != ""' "$T/$b.tsv" | grep -q .; then
		out=$(pyc compare conn "$T/$b.tsv" "$T/$b.jsonl" 2>&1)
		if [ $? = 0 ]; then ok "$b: connection parameters (RFC 8797) agree with rpcrdma-decode's connection records: $(echo "$out" | tail -1)"
		else nok "$b: connection parameters (RFC 8797) agree with rpcrdma-decode's connection records" "$(echo "$out" | tail -5)"; fi
	fi
	# expert infos in one style: each message starts with the expert's name
	case $eout in
	"0 expert infos"*) ;;
	*) if [ $erc = 0 ] && [ "$(echo "$eout" | tail -1 | awk '{print $(NF-1)}')" = 0 ]; then
		ok "$b: expert info messages in one style: $(echo "$eout" | tail -1)"
	   else nok "$b: expert info messages in one style" "$(echo "$eout" | tail -5)"; fi ;;
	esac
	# -z rpcrdma,stat against the same numbers from rpcrdma-decode --json
	# (not where rpcrdma-decode drops CRC-corrupt frames Wireshark keeps;
	# snaplen-cut frames, which Wireshark does not hand over, left out)
	if [ "$nbad" = 0 ] && [ -s "$T/$b.jsonl" ]; then
		out=$(pyc stats "$T/$b.tap" "$T/$b.jsonl" "$T/$b.skipped" 2>&1)
		src=$?
		if [ -n "$gap" ]; then
			if [ $src != 0 ]; then ok "$b: tshark -z rpcrdma,stat and rpcrdma-decode disagree, a known gap of the plugin (tests/plugin/not-yet.txt: $gap)"
			else nok "$b: listed in tests/plugin/not-yet.txt ($gap), but -z rpcrdma,stat now agrees: take it off the list" "$out"; fi
		elif [ $src = 0 ]; then ok "$b: tshark -z rpcrdma,stat agrees with rpcrdma-decode (messages, directions, credits granted, read/write/reply chunks and bytes): $out"
		else nok "$b: tshark -z rpcrdma,stat agrees with rpcrdma-decode" "$(echo "$out" | head -8)"; fi
	fi
	# v1 fields against the built-in, wherever the capture has v1 messages
	# the plugin accepted (rpcrdma.vers, rpcrdma.verdict.action)
	awk -F'\t' '$3 ~ /(^|,)1(,|$)/ && $21 ~ /accept/' "$T/$b.tsv" | grep -q . || continue
	builtin_tsv "$T/$b" "$T/$b.builtin" 2>/dev/null
	out=$(pyc compare builtin "$T/$b.tsv" "$T/$b.builtin" 2>&1)
	rc=$?
	case $out in
	"0 frames compared, 0 disagreements") ;;
	*) if [ $rc = 0 ]; then ok "$b: v1 fields agree with the built-in rpcordma: $(echo "$out" | tail -1)"
	   else nok "$b: v1 fields agree with the built-in rpcordma" "$(echo "$out" | tail -8)"; fi ;;
	esac
done

py_stop
# Version Two of a later draft's layout (issue 28 item 3): the plugin names
# it (rpcrdma.draft, compared above field for field) with the expert note
# later_draft on every message and none of cel-01's error experts
LD=$T/rocev2-v2-ietf07.pcap
if [ -s "$LD.exp" ]; then
	nld=$(grep -c "later_draft: Version Two, later draft layout (not decoded): fits draft-" "$LD.exp")
	nerr=$(grep -cE "(bad_proc|bad_direction|bad_err_code|truncated|bad_count|unknown_option|missing_payload): " "$LD.exp")
	if [ "$nld" = 10 ] && [ "$nerr" = 0 ]; then
		ok "rocev2-v2-ietf07.pcap: every one of the 10 messages gets the later_draft note and no cel-01 error expert"
	else
		nok "rocev2-v2-ietf07.pcap: every one of the 10 messages gets the later_draft note and no cel-01 error expert" "later_draft $nld, error experts $nerr: $(head -3 "$LD.exp")"
	fi
else
	nok "rocev2-v2-ietf07.pcap: later_draft experts" "no expert output ($LD.exp)"
fi
# iWARP Sends of several DDP segments: Wireshark's DDP dissector puts them
# together (iwarp_ddp_rdmap.reassemble_iwarp_rdma_send, on by default) and
# hands us the whole message; with that off, the plugin collects them
MS=$T/iwarp-multisend.pcap
if [ -f "$MS" ] && [ -s "$MS.jsonl" ]; then
	for o in TRUE FALSE; do
		for pass in "" -2; do
			ts $pass -o iwarp_ddp_rdmap.reassemble_iwarp_rdma_send:$o -r "$MS" -Y "rpcrdma || iwarp_ddp_rdmap" \
				-T pdml -J rpcrdma >"$T/ms.pdml" 2>/dev/null
			out=$(python3 "$TOP/tests/plugin/compare.py" msgs "$T/ms.pdml" "$MS.jsonl" 2>&1)
			if [ $? = 0 ]; then ok "iWARP multi-segment Sends (Wireshark reassembly $o, ${pass:-one pass}): $(echo "$out" | tail -1)"
			else nok "iWARP multi-segment Sends (Wireshark reassembly $o, ${pass:-one pass})" "$(echo "$out" | tail -5)"; fi
		done
	done
fi

# RFC 8797 private data as a subtree of the CM or MPA frame's private data
# item, in one pass (RoCEv2: CM REQ after rdma_cm's IP header) and in two
# (iWARP: MPA Reply, revision 2, after its IRD/ORD)
for c in "nfs3-rocev2-rxe.pcap:infiniband:IP CM Consumer PrivateData|PrivateData:" "nfs3-iwarp-siw.pcap:iwarp_mpa:Private data:-2"; do
	IFS=: read -r b proto item pass <<<"$c"
	[ -f "$T/$b" ] || continue
	# shellcheck disable=SC2086
	ts $pass -r "$T/$b" -Y rpcrdma.cm -O "$proto" 2>/dev/null >"$T/cm.txt"
	# each parameters line right under the item, one level deeper, and its
	# fields under it (Wireshark 4.2 and later mark a label cut short:
	# "PrivateData […]: f6ab...", the REP's 196 bytes)
	got=$(awk -v item="$item" '
		{ match($0, /^ */); d = RLENGTH; t = substr($0, d + 1) }
		t ~ "^(" item ")( \\[[^]]*\\])?: " { id = d; next }
		id && d == id + 4 && t ~ /^RPC-over-RDMA connection parameters: send [0-9]+, receive [0-9]+/ { n++; pd = d; next }
		pd && d == pd + 4 && t ~ /^(Format identifier: 0xf6ab0e18|Version: 1|Send size: [0-9]+ bytes|Receive size: [0-9]+ bytes)$/ { f++ }
		{ id = 0 }
		d <= pd { pd = 0 }
		END { print n + 0, f + 0 }' "$T/cm.txt")
	if [ "$got" = "2 8" ]; then ok "$b (${pass:-one pass}): the REQ's and REP's connection parameters under their private data items ($proto: $item): magic, version, send and receive sizes"
	else nok "$b (${pass:-one pass}): connection parameters under the private data ($proto: $item)" "subtrees, fields: $got" "$(grep -B1 -A7 "connection parameters" "$T/cm.txt" | head -20)"; fi
done

# an RC requester resending Send packets from a NAKed PSN (a live cut):
# shown as a retransmission, not as a second message
if [ -f "$T/rocev2-psn-nak.pcap" ]; then
	got=$(ts -r "$T/rocev2-psn-nak.pcap" -Y "frame.number == 28" -T fields -e _ws.col.Info -e rpcrdma.xid 2>/dev/null)
	case $got in
	"RDMA Send retransmission (first sent in frame 26)"*[0-9]*) nok "IB Send retransmission shown, not decoded again" "got: $got" ;;
	"RDMA Send retransmission (first sent in frame 26)"*) ok "IB Send retransmission (same PSN) shown as such, not decoded again" ;;
	*) nok "IB Send retransmission shown, not decoded again" "got: $got" ;;
	esac
fi

# ---- expert infos vs rpcrdma-decode --check, one-frame violations ----
for c in $caps; do
	b=$(basename "$c")
	case $b in lint-*) ;; *) continue ;; esac
	[ -x "$BIN/rpcrdma-decode" ] || break
	"$BIN/rpcrdma-decode" -r "$T/$b" --check -q >"$T/$b.check" 2>&1
	# "frame N: <check>: ... [SECTION]" -> "N|<our expert name>|SECTION"
	# for the one-frame checks: the expert info must be there and name the
	# same section
	want=$(awk '
		$1 == "frame" {
			f = $2 + 0; c = $3; sub(/:$/, "", c); e = ""
			if (c == "bad-header") { e = $4; sub(/:$/, "", e) }
			else if (c == "done-sent") e = "done"
			else if (c == "msgp-sent") e = "msgp"
			else if (c == "zero-credit") e = "zero_credit"
			else if (c == "inline-too-large") e = "inline_exceeded"
			else if (c == "xid-mismatch") e = "xid_mismatch"
			else if (c == "direction-mismatch") e = "direction_mismatch"
			else if (c == "nomsg-without-chunks") e = "nomsg_without_chunks"
			sec = $0; sub(/^.*\[/, "", sec); sub(/\].*$/, "", sec)
			if (e != "") print f "|" e "|" sec
		}' "$T/$b.check" | sort -u)
	[ -n "$want" ] || continue
	# $b.exp: the agreement loop's tshark run (compare.py experts)
	missing=""
	while IFS='|' read -r f e sec; do
		awk -F'\t' -v f="$f" -v e="$e" -v s="[$sec]" '$1 == f && index($2, e ": ") && index($2, s) {found = 1} END {exit !found}' "$T/$b.exp" ||
			missing="$missing $f:$e:[$sec]"
	done <<<"$want"
	if [ -z "$missing" ]; then ok "$b: every one-frame violation of rpcrdma-decode --check has its expert info, with the same section ($(echo "$want" | tr '\n' ','))"
	else nok "$b: one-frame violations of --check have expert infos with the same section" "missing:$missing" "$(cat "$T/$b.check")" "$(cat "$T/$b.exp")"; fi
done

# ---- robustness: corrupted captures, many seeds, one and two passes ----
# not_wiresharks_own LINES FILE LABEL [-2]: LINES (a tshark run's error lines
# on FILE) less the dissector bugs that are Wireshark's own.  A "Dissector
# bug" that names our protocol ("RPC-over-RDMA,") always counts.  One that
# names another (Wireshark 4.0's own rpcordma, "RPCoRDMA"; SMUX's "snmp_info"
# assertion on a corrupted frame) counts unless tshark without the plugin
# reports the same one on the same file: that is Wireshark's, not ours.
not_wiresharks_own() {
	local lines=$1 file=$2 label=$3 pass=${4:-} bugs rest theirs
	[ -n "$lines" ] || return 0
	bugs=$(grep -E "[Dd]issector bug" <<<"$lines" | grep -v "protocol RPC-over-RDMA," | sed 's/^.*Dissector bug/Dissector bug/; s/in packet [0-9]*: //' | sort -u)
	rest=$(grep -vE "[Dd]issector bug" <<<"$lines"; grep "protocol RPC-over-RDMA," <<<"$lines")
	if [ -n "$bugs" ]; then
		# shellcheck disable=SC2086
		ts_plain $pass -r "$file" -V >/dev/null 2>"$T/plain.err"
		theirs=$(grep -E "[Dd]issector bug" "$T/plain.err" | sed 's/^.*Dissector bug/Dissector bug/; s/in packet [0-9]*: //' | sort -u)
		# ours less theirs: the bugs tshark without the plugin did not show
		bugs=$(comm -23 <(echo "$bugs") <(echo "$theirs") | grep .)
		[ -n "$theirs" ] && echo "# $label: $(head -1 <<<"$theirs" | cut -c1-150) (also without the plugin: Wireshark's own)" >&2
	fi
	printf '%s\n%s\n' "$rest" "$bugs" | grep .
	return 0
}
rob=""
for c in "$FX" $caps; do
	b=$(basename "$c")
	[ "$c" = "$FX" ] && b=fx.pcap
	# readable by tshark: the agreement loop above wrote its fields
	[ "$c" = "$FX" ] || [ -f "$T/$b.tsv" ] || continue
	# mergecap stops at a capture cut short mid-record: keep whole ones
	capinfos "$T/$b" >/dev/null 2>&1 || continue
	rob="$rob $T/$b"
done
# shellcheck disable=SC2086
mergecap -F pcapng -w "$T/all.pcapng" $rob && chmod a+r "$T/all.pcapng"
# the corrupted copies: seed s corrupts one of three parts of the captures
# (s mod 3), so that every capture goes through a third of the seeds, in
# one pass and in two, at a third of the cost of the whole each time
i=0
for c in $rob; do echo "$c" >>"$T/part$((i % 3))"; i=$((i + 1)); done
for k in 0 1 2; do
	# shellcheck disable=SC2046
	mergecap -F pcapng -w "$T/part$k.pcapng" $(cat "$T/part$k") && chmod a+r "$T/part$k.pcapng"
done
seeds=${PLUGIN_FUZZ_SEEDS:-30}
crash=""
for s in $(seq 1 "$seeds"); do
	rm -f "$T/bad.pcapng"
	part=$T/part$((s % 3)).pcapng
	# odd seeds: 2% of the bytes changed, even seeds 5%
	if [ $((s % 2)) = 1 ]; then
		editcap -E 0.02 -s "$s" "$part" "$T/bad.pcapng" 2>/dev/null
	else
		editcap -E 0.05 -s "$s" "$part" "$T/bad.pcapng" 2>/dev/null
	fi
	chmod a+r "$T/bad.pcapng"
	pass=""; [ $((s % 4)) = 0 ] && pass=-2
	ts $pass -r "$T/bad.pcapng" -V >/dev/null 2>"$T/bad.err"
	rc=$?
	# A crash always counts; a dissector bug counts unless it is Wireshark's own
	ours=$(grep -iE "dissector bug|assert|segmentation" "$T/bad.err" | sort -u)
	ours=$(not_wiresharks_own "$ours" "$T/bad.pcapng" "seed $s" $pass)
	if [ $rc -ge 128 ] || [ -n "$ours" ]; then
		crash="$crash seed=$s(rc=$rc)"
		cp "$T/bad.pcapng" "$BUILD/tmp-plugin-crash-$s.pcapng" 2>/dev/null
	fi
done
frames=$(capinfos -c -M "$T/all.pcapng" 2>/dev/null | awk '/Number of packets/ {print $NF}')
if [ -z "$crash" ] && [ -n "$frames" ]; then
	ok "no crash or dissector bug over $seeds corrupted copies of a third each of $(echo $rob | wc -w) captures ($frames frames in all; each capture in $((seeds / 3)) copies, one pass and two)"
else nok "no crash or dissector bug over corrupted captures" "frames=$frames$crash"; fi

# the same under AddressSanitizer + UBSan (plugin built with them, tshark
# with libasan preloaded): the fixture and corrupted copies, two passes
ASO=$PLUGIN_BUILD/plugin-asan/$WS_RELEASE/epan/rpcrdma.so
libasan=$(in_ws gcc -print-file-name=libasan.so 2>/dev/null)
libubsan=$(in_ws gcc -print-file-name=libubsan.so 2>/dev/null)
if [ -f "$ASO" ] && [ -f "$WS_ROOT$libasan" ] && [ -f "$WS_ROOT$libubsan" ]; then
	chmod -R a+rX "$PLUGIN_BUILD/plugin-asan"
	bad=""
	for s in 0 101 102 103 104 105 106; do
		if [ "$s" = 0 ]; then in=$FX; else
			rm -f "$T/asan.pcapng"
			# a third of the captures each (as above): every part twice
			editcap -E 0.0$((2 + s % 4)) -s "$s" "$T/part$((s % 3)).pcapng" "$T/asan.pcapng" 2>/dev/null
			chmod a+r "$T/asan.pcapng"; in=$T/asan.pcapng
		fi
		as_user LD_PRELOAD="$libasan $libubsan" ASAN_OPTIONS=detect_leaks=0 \
			WIRESHARK_PLUGIN_DIR="$PLUGIN_BUILD/plugin-asan" tshark -2 -V -r "$in" >/dev/null 2>"$T/asan.err"
		rc=$?
		# a sanitizer's report always counts, a dissector bug unless
		# Wireshark's own (not_wiresharks_own, above)
		errs=$(grep -E "runtime error|AddressSanitizer|[Dd]issector bug" "$T/asan.err" | sort -u)
		errs=$(not_wiresharks_own "$errs" "$in" "ASan seed $s" -2)
		if [ $rc -ge 128 ] || [ -n "$errs" ]; then
			bad="$bad seed=$s(rc=$rc): $(head -1 <<<"$errs")"
		fi
	done
	if [ -z "$bad" ]; then ok "ASan+UBSan plugin: fixture and 6 corrupted copies (every capture in two), two passes, no error"
	else nok "ASan+UBSan plugin: no error" "$bad"; fi
else
	nok "ASan+UBSan plugin run" "no $ASO or no libasan/libubsan (make check builds the one, scripts/deps.sh installs the others)"
fi

# ---- install ----
D=$T/destdir
if in_ws make -s -C "$TOP" BUILD="$PLUGIN_BUILD" DESTDIR="$D" install-plugin >"$T/inst.log" 2>&1; then
	pd=$(in_ws pkg-config --variable=plugindir wireshark)
	if [ -f "$D$pd/epan/rpcrdma.so" ]; then
		chmod -R a+rX "$D"
		if PLUGIN_DIR=$(dirname "$D$pd") ts -G plugins 2>/dev/null | grep -q "$D$pd/epan/rpcrdma.so"; then
			ok "make install-plugin DESTDIR puts rpcrdma.so in <plugindir>/epan/ and tshark loads it"
		else nok "installed plugin loads" "$(PLUGIN_DIR=$(dirname "$D$pd") ts -G plugins 2>&1 | head -3)"; fi
	else nok "make install-plugin DESTDIR puts rpcrdma.so in <plugindir>/epan/" "$(find "$D" -type f)"; fi
else nok "make install-plugin" "$(tail -5 "$T/inst.log")"; fi
H=$T/home
mkdir -p "$H/.local/lib/wireshark/plugins/$WS_RELEASE/epan"
cp "$SO" "$H/.local/lib/wireshark/plugins/$WS_RELEASE/epan/" && chmod -R a+rX "$H"
if as_user HOME="$H" tshark -G plugins 2>/dev/null | grep -q "$H/.local/lib/wireshark/plugins/$WS_RELEASE/epan/rpcrdma.so"; then
	ok "loads from the personal plugin folder ~/.local/lib/wireshark/plugins/$WS_RELEASE/epan"
else nok "loads from the personal plugin folder" "$(as_user HOME="$H" tshark -G plugins 2>&1 | head -3)"; fi
echo "1..$n"
